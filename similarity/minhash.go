package similarity

import (
	"math"
)

// NumHashes is the length of a MinHash signature.
const NumHashes = 128

// Signature is a document's MinHash over its word shingles: the share of equal positions of two
// signatures estimates the Jaccard similarity of the two shingle sets (standard error about
// 1/sqrt(128) ≈ 0.09 at J = 0.5, less near 0 and 1).
type Signature [NumHashes]uint32

// ShingleSize is the number of words in a shingle.
const ShingleSize = 3

// Shingles returns the hashes of the word 3-grams of toks (stop words included, so that the order
// of words counts).
func Shingles(toks []Token) []uint32 {
	if len(toks) == 0 {
		return nil
	}
	return AppendShingles(make([]uint32, 0, NumShingles(toks)), toks)
}

// NumShingles is how many shingles toks have: one for every ShingleSize words, one for fewer, none
// for none.
func NumShingles(toks []Token) int {
	if len(toks) == 0 {
		return 0
	}
	return max(1, len(toks)-ShingleSize+1)
}

// AppendShingles appends the Shingles of toks to dst: a document's, paragraph after paragraph.
func AppendShingles(dst []uint32, toks []Token) []uint32 {
	if len(toks) < ShingleSize {
		if len(toks) == 0 {
			return dst
		}
		h := uint32(2166136261)
		for _, t := range toks {
			h = (h ^ t.Hash) * 16777619
		}
		return append(dst, h)
	}
	for i := 0; i+ShingleSize <= len(toks); i++ {
		h := uint32(2166136261)
		for _, t := range toks[i : i+ShingleSize] {
			h = (h ^ t.Hash) * 16777619
		}
		dst = append(dst, h)
	}
	return dst
}

// hashMul and hashAdd are the odd multipliers and offsets of the 128 hash functions (a·x + b mod
// 2^32 over a pre-mixed x), fixed so that signatures stored in a library stay comparable.
var hashMul, hashAdd = func() (mul, add [NumHashes]uint32) {
	x := uint64(0x9E3779B97F4A7C15)
	for i := range mul {
		x = mix64(x + uint64(i))
		mul[i], add[i] = uint32(x)|1, uint32(x>>32)
	}
	return mul, add
}()

// MinHash computes the signature of a set of shingle hashes. An empty set gives all-ones.
func MinHash(shingles []uint32) Signature {
	var sig Signature
	for i := range sig {
		sig[i] = math.MaxUint32
	}
	var xs [256]uint32 // the shingles pre-mixed, a block at a time
	for len(shingles) > 0 {
		n := min(len(shingles), len(xs))
		for k, sh := range shingles[:n] {
			xs[k] = uint32(mix64(uint64(sh)))
		}
		minHashBlock(&sig, xs[:n])
		shingles = shingles[n:]
	}
	return sig
}

// minHashGeneric lowers sig to the minimum of each hash function over the pre-mixed shingles xs.
func minHashGeneric(sig *Signature, xs []uint32) {
	for _, x := range xs {
		for i := range sig {
			sig[i] = min(sig[i], hashMul[i]*x+hashAdd[i])
		}
	}
}

// Jaccard estimates the Jaccard similarity of the sets behind two signatures.
func (s *Signature) Jaccard(o *Signature) float64 {
	eq := 0
	for i := range s {
		if s[i] == o[i] && s[i] != math.MaxUint32 {
			eq++
		}
	}
	return float64(eq) / NumHashes
}

// LSH bands: 64 bands of 2 rows. A pair of documents with Jaccard s becomes a candidate with
// probability 1 − (1 − s²)^64: 0.47 at s = 0.1, 0.92 at s = 0.2, 0.9997 at s = 0.4. Documents that
// share a fifth of their shingles are almost always found; fewer are left to the paragraph index,
// which finds partial copies the document signature cannot.
const (
	Bands = 64
	Rows  = NumHashes / Bands
)

// BandKeys returns the LSH bucket key of each band of the signature.
func (s *Signature) BandKeys() [Bands]uint64 {
	var k [Bands]uint64
	for b := 0; b < Bands; b++ {
		h := uint64(b) * 0x9E3779B97F4A7C15
		for r := 0; r < Rows; r++ {
			h = mix64(h ^ uint64(s[b*Rows+r]))
		}
		k[b] = h
	}
	return k
}

// CandidateProbability is the chance that two documents with Jaccard s share an LSH band.
func CandidateProbability(s float64) float64 {
	return 1 - math.Pow(1-math.Pow(s, Rows), Bands)
}
