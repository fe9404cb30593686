package similarity

import "math/bits"

// SimHash is the 64-bit Charikar fingerprint of a paragraph's words weighted by IDF: paragraphs that
// share most of their weighted words get fingerprints a few bits apart.
func SimHash(toks []Token) uint64 {
	var v [64]float32
	var hashes [128]uint64 // the weighted words, a block at a time
	var weights [128]float32
	n := 0
	for _, t := range toks {
		if t.Weight == 0 {
			continue
		}
		hashes[n], weights[n] = mix64(uint64(t.Hash)), t.Weight
		if n++; n == len(hashes) {
			simHashBlock(&v, hashes[:n], weights[:n])
			n = 0
		}
	}
	simHashBlock(&v, hashes[:n], weights[:n])
	var f uint64
	for b := 0; b < 64; b++ {
		if v[b] > 0 {
			f |= 1 << b
		}
	}
	return f
}

// simHashGeneric adds each hash's bits to v: bit b set adds the weight to v[b], clear subtracts it.
func simHashGeneric(v *[64]float32, hashes []uint64, weights []float32) {
	for k, h := range hashes {
		w := [2]float32{-weights[k], weights[k]} // indexed by the bit: the bits are random, a branch mispredicts
		for b := range v {
			v[b] += w[h>>b&1]
		}
	}
}

// Hamming is the number of bits in which two fingerprints differ.
func Hamming(a, b uint64) int { return bits.OnesCount64(a ^ b) }

// Blocks splits a fingerprint into the four 16-bit blocks of the pigeonhole index: fingerprints at
// distance ≤ 3 agree on at least one block.
func Blocks(f uint64) [4]uint16 {
	return [4]uint16{uint16(f), uint16(f >> 16), uint16(f >> 32), uint16(f >> 48)}
}

// mix64 spreads a 32-bit word hash over 64 bits (splitmix64's finaliser).
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
