//go:build !amd64

package similarity

func minHashBlock(sig *Signature, xs []uint32) { minHashGeneric(sig, xs) }
