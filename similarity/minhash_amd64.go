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
