package similarity

import "golang.org/x/sys/cpu"

// minHashAVX2 lowers sig to the minimum of each hash function over the pre-mixed shingles xs.
//
//go:noescape
func minHashAVX2(sig *Signature, xs []uint32, mul, add *[NumHashes]uint32)

// minHashBlock is minHashAVX2 where the processor has AVX2 (eight hash functions an instruction:
// the plain loop was a tenth of an import's CPU), else the plain loop.
func minHashBlock(sig *Signature, xs []uint32) {
	if cpu.X86.HasAVX2 {
		minHashAVX2(sig, xs, &hashMul, &hashAdd)
		return
	}
	minHashGeneric(sig, xs)
}

// simHashAVX2 adds each hash's bits, weighted, to v (see SimHash).
//
//go:noescape
func simHashAVX2(v *[64]float32, hashes []uint64, weights []float32)

// simHashBlock is simHashAVX2 where the processor has AVX2 (64 additions in 8 instructions), else the
// plain loop.
func simHashBlock(v *[64]float32, hashes []uint64, weights []float32) {
	if cpu.X86.HasAVX2 {
		simHashAVX2(v, hashes, weights)
		return
	}
	simHashGeneric(v, hashes, weights)
}
