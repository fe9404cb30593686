package compare

import (
	"math"
	"sort"

	"thesischeck/similarity"
)

// Candidate pairs come from two passes. MinHash LSH (similarity.BandKeys) finds pairs whose word
// 3-gram sets are alike as wholes; it misses a short essay that copied a third of a long one, and
// pairs whose copy was edited enough to break most 3-grams (a 30 % copy with edits can leave a Jaccard
// of 0.1, found by the bands only half the time). The second pass counts, for every pair, the winnowed
// bigrams the two documents share through an inverted index: any run of five words or more two
// documents share leaves at least one (see similarity.Winnow), and bigrams half the class uses are
// left out of the count. A pair becomes a candidate when its shared bigrams are at least
// candidateShare of the threshold's worth of the smaller document's bigrams: a pair at the threshold
// shares about that many even after heavy editing, while essays on one topic share a few percent.
const (
	winnowWindow = 4
	// candidateShare scales the flag threshold down to the share of the smaller document's winnowed
	// bigrams a pair must share to be aligned. Alignment decides; this only has to keep every pair
	// that could reach the threshold.
	candidateShare = 0.25
	// minSharedGrams keeps two short documents that share one set phrase from being aligned.
	minSharedGrams = 3
)

// candidate is a pair of documents (indexes into the docs slice, a < b) worth aligning.
type candidate struct {
	a, b  int
	byLSH bool // found by the MinHash bands
	byIdx bool // found by the shared-bigram count
}

func candidates(docs []*doc, threshold float64) []candidate {
	n := len(docs)
	tri := func(a, b int) int { return b*(b-1)/2 + a } // a < b
	byLSH := make([]bool, n*(n-1)/2)
	buckets := map[uint64][]int32{}
	for i, d := range docs {
		if d.shingles == 0 {
			continue
		}
		for _, k := range d.sig.BandKeys() {
			buckets[k] = append(buckets[k], int32(i))
		}
	}
	for _, ds := range buckets {
		for x := 0; x < len(ds); x++ {
			for y := x + 1; y < len(ds); y++ {
				a, b := int(ds[x]), int(ds[y])
				if a > b {
					a, b = b, a
				}
				if a != b {
					byLSH[tri(a, b)] = true
				}
			}
		}
	}

	postings := map[uint32][]int32{}
	for i, d := range docs {
		for _, g := range d.wgrams {
			postings[g] = append(postings[g], int32(i))
		}
	}
	shared := make([]int32, n*(n-1)/2)
	for _, ds := range postings {
		if len(ds) < 2 {
			continue
		}
		for x := 0; x < len(ds); x++ {
			for y := x + 1; y < len(ds); y++ {
				shared[tri(int(ds[x]), int(ds[y]))]++ // postings are in document order: ds[x] < ds[y]
			}
		}
	}

	var out []candidate
	for b := 1; b < n; b++ {
		for a := 0; a < b; a++ {
			k := tri(a, b)
			smaller := min(len(docs[a].wgrams), len(docs[b].wgrams))
			need := max(minSharedGrams, int(math.Ceil(candidateShare*threshold*float64(smaller))))
			c := candidate{a: a, b: b, byLSH: byLSH[k], byIdx: int(shared[k]) >= need}
			if c.byLSH || c.byIdx {
				out = append(out, c)
			}
		}
	}
	return out
}

// alignPair aligns two documents and sums up what they share.
func alignPair(da, db *doc, res *Result, o settings) Pair {
	A, B := &res.Documents[da.idx], &res.Documents[db.idx]
	p := Pair{A: da.idx, B: db.idx, Jaccard: round(da.sig.Jaccard(&db.sig))}
	al := similarity.Align(da.toks, db.toks, o.align)
	if len(al.A) == 0 {
		return p
	}
	sharedA, sharedB := 0, 0
	for _, r := range al.A {
		sharedA += spanChars(withoutCommon(da.spans(r), A.Paragraphs))
	}
	for _, r := range al.B {
		sharedB += spanChars(withoutCommon(db.spans(r), B.Paragraphs))
	}
	// The smaller document is the one a copy can cover most of; its share is the pair's figure.
	shared, total := sharedA, A.ComparedChars
	if B.ComparedChars < A.ComparedChars {
		shared, total = sharedB, B.ComparedChars
	}
	if shared == 0 || total == 0 {
		return p
	}
	p.SharedChars = shared
	p.Similarity = round(math.Min(1, float64(shared)/float64(total)))
	p.Flagged = p.Similarity >= o.Threshold
	p.Passages = passages(da, db, A, B, al.Pairs)
	return p
}

// passages turns the alignment's chains into passages. A phrase repeated in a document forms extra
// chains inside the region a longer chain already pairs up; a chain whose two sides both lie inside
// longer ones adds nothing to a side-by-side view and is dropped.
func passages(da, db *doc, A, B *Document, chains [][2][2]int) []Passage {
	idx := make([]int, len(chains))
	for i := range idx {
		idx[i] = i
	}
	size := func(c [2][2]int) int { return c[0][1] - c[0][0] + c[1][1] - c[1][0] }
	sort.SliceStable(idx, func(i, j int) bool { return size(chains[idx[i]]) > size(chains[idx[j]]) })
	inside := func(r [2]int, side int, kept []int) bool {
		for _, k := range kept {
			if o := chains[k][side]; o[0] <= r[0] && r[1] <= o[1] {
				return true
			}
		}
		return false
	}
	var kept []int
	for _, i := range idx {
		if c := chains[i]; !inside(c[0], 0, kept) || !inside(c[1], 1, kept) {
			kept = append(kept, i)
		}
	}
	sort.Ints(kept)
	var out []Passage
	for _, i := range kept {
		ps := Passage{A: withoutCommon(da.spans(chains[i][0]), A.Paragraphs), B: withoutCommon(db.spans(chains[i][1]), B.Paragraphs)}
		if len(ps.A) > 0 && len(ps.B) > 0 {
			out = append(out, ps)
		}
	}
	return out
}

// round keeps four decimals, as the check's report does.
func round(v float64) float64 { return math.Round(v*1e4) / 1e4 }
