//go:build !amd64

package similarity

func minHashBlock(sig *Signature, xs []uint32) { minHashGeneric(sig, xs) }

func simHashBlock(v *[64]float32, hashes []uint64, weights []float32) {
	simHashGeneric(v, hashes, weights)
}
