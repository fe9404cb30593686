package compare

import (
	"context"
	"math"
	"sort"
	"sync"

	"thesischeck/similarity"
)

// Candidate pairs come from two passes. MinHash LSH (similarity.BandKeys) finds pairs whose word
// 3-gram sets are alike as wholes; it misses a short essay that copied a third of a long one, and
// pairs whose copy was edited enough to break most 3-grams (a 30 % copy with edits can leave a Jaccard
// of 0.1, found by the bands only half the time). The second pass counts, for every pair, the winnowed
// runs of runWords words the two documents share: any run of runWords+winnowWindow-1 words two
// documents share leaves at least one (see similarity.Winnow), and runs half the class uses are left
// out of the count. A pair becomes a candidate when its shared runs are at least candidateShare of
// the threshold's worth of the smaller document's runs: a pair at the threshold shares about that
// many even after heavy editing, while essays on one topic share only set phrases. Word bigrams
// were counted first, but two long essays on one topic share a few percent of their bigrams by
// chance ("的 研究", "the system"): in a generated class of a thousand twenty-page submissions
// three pairs in four became candidates, and aligning them took four minutes.
const (
	winnowWindow = 4
	// candidateShare scales the flag threshold down to the share of the smaller document's winnowed
	// runs a pair must share to be aligned. Alignment decides; this only has to keep every pair
	// that could reach the threshold.
	candidateShare = 0.25
	// minSharedGrams keeps two short documents that share one set phrase from being aligned.
	minSharedGrams = 3
)

// candidate is a pair of documents (indexes into the docs slice, a < b) worth aligning.
type candidate struct {
	a, b  int
	byLSH bool // found by the MinHash bands
	byIdx bool // found by the shared-run count
}

// candidates finds the pairs worth aligning among docs, new documents first: every pair with a new
// document, never two old ones.
func candidates(ctx context.Context, docs []*doc, threshold float64, commonDocs int, idx runIndex, docRuns [][]int32) ([]candidate, error) {
	n := len(docs)
	nNew := newDocs(docs)
	found := map[[2]int]*candidate{}
	get := func(a, b int) *candidate {
		c := found[[2]int{a, b}]
		if c == nil {
			c = &candidate{a: a, b: b}
			found[[2]int{a, b}] = c
		}
		return c
	}
	lshPairs(docs, nNew, func(a, b int) { get(a, b).byLSH = true })
	entries, runs, newHolders := idx.entries, idx.runs, idx.newHolders
	// Each new document counts the runs it shares with every later document, on all cores.
	shared := make([][]candidate, nNew)
	var mu sync.Mutex
	counters := [][]int32{}
	err := forEach(ctx, nNew, func(a int) {
		mu.Lock()
		var count []int32
		if k := len(counters); k > 0 {
			count, counters = counters[k-1], counters[:k-1]
		} else {
			count = make([]int32, n)
		}
		mu.Unlock()
		var touched []int32
		for _, r := range docRuns[a] {
			ds := entries[runs[r]:runs[r+1]]
			if len(ds) < 2 || int(newHolders[r]) >= commonDocs {
				continue
			}
			for _, e := range ds {
				if b := int32(uint32(e)); int(b) > a {
					if count[b] == 0 {
						touched = append(touched, b)
					}
					count[b]++
				}
			}
		}
		for _, b := range touched {
			smaller := min(len(docs[a].wgrams), len(docs[b].wgrams))
			need := max(minSharedGrams, int(math.Ceil(candidateShare*threshold*float64(smaller))))
			if int(count[b]) >= need {
				shared[a] = append(shared[a], candidate{a: a, b: int(b), byIdx: true})
			}
			count[b] = 0
		}
		mu.Lock()
		counters = append(counters, count)
		mu.Unlock()
	}, func(int) {})
	if err != nil {
		return nil, err
	}
	for _, cs := range shared {
		for _, c := range cs {
			get(c.a, c.b).byIdx = true
		}
	}
	out := make([]candidate, 0, len(found))
	for _, c := range found {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].b != out[j].b {
			return out[i].b < out[j].b
		}
		return out[i].a < out[j].a
	})
	return out, nil
}

// lshPairs calls pair(a, b) for every pair, a new document first, that shares a MinHash band.
func lshPairs(docs []*doc, nNew int, pair func(a, b int)) {
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
		for x := 0; x < len(ds) && int(ds[x]) < nNew; x++ { // in document order: new ones first
			for y := x + 1; y < len(ds); y++ {
				if ds[x] != ds[y] {
					pair(int(ds[x]), int(ds[y]))
				}
			}
		}
	}
}

// newDocs counts the new documents, which come first.
func newDocs(docs []*doc) int {
	n := 0
	for n < len(docs) && !docs[n].old {
		n++
	}
	return n
}

// gramRuns lists the postings of every winnowed run: entries gram<<32|document, sorted, so each
// gram's documents stand together in document order. runs holds the start of each gram's run in
// entries, and len(entries) last; newHolders how many new documents each run has; docRuns each
// document's runs.
func gramRuns(docs []*doc) (idx runIndex, docRuns [][]int32) {
	nNew := newDocs(docs)
	var entries []uint64
	var runs, newHolders []int32
	total := 0
	for _, d := range docs {
		total += len(d.wgrams)
	}
	entries = make([]uint64, 0, total)
	for i, d := range docs {
		for _, g := range d.wgrams {
			entries = append(entries, uint64(g)<<32|uint64(i))
		}
	}
	entries = radixSort(entries, 32) // by gram, documents in order
	// Each gram's run of entries, its new documents, and each document's runs.
	docRuns = make([][]int32, len(docs))
	for i, e := range entries {
		if i == 0 || e>>32 != entries[i-1]>>32 {
			runs = append(runs, int32(i))
			newHolders = append(newHolders, 0)
		}
		r := len(runs) - 1
		if d := int(uint32(e)); d < nNew {
			newHolders[r]++
		}
		docRuns[uint32(e)] = append(docRuns[uint32(e)], int32(r))
	}
	runs = append(runs, int32(len(entries)))
	return runIndex{entries, runs, newHolders}, docRuns
}

// alignPair aligns two documents and sums up what they share.
func alignPair(da, db *doc, res *Result, o settings) Pair {
	A, B := &res.Documents[da.idx], &res.Documents[db.idx]
	p := Pair{A: da.idx, B: db.idx, Jaccard: round(da.sig.Jaccard(&db.sig)), Fragments: []Fragment{}}
	al := similarity.AlignGrams(da.toks, db.toks, da.grams, db.grams, o.align)
	if len(al.A) == 0 {
		return p
	}
	// Filed paragraphs this pair counts (filed.go) are compared characters of it.
	totalA, totalB := A.ComparedChars+da.extra, B.ComparedChars+db.extra
	sharedA, sharedB := 0, 0
	for _, r := range al.A {
		n, unseen := spanChars(withoutCommon(da.spans(r), A.Paragraphs), A.Paragraphs)
		sharedA += n
		totalA += unseen
	}
	for _, r := range al.B {
		n, unseen := spanChars(withoutCommon(db.spans(r), B.Paragraphs), B.Paragraphs)
		sharedB += n
		totalB += unseen
	}
	if totalA > 0 {
		p.AShare = round(math.Min(1, float64(sharedA)/float64(totalA)))
	}
	if totalB > 0 {
		p.BShare = round(math.Min(1, float64(sharedB)/float64(totalB)))
	}
	// The smaller document is the one a copy can cover most of; its share is the pair's figure.
	shared, total, share := sharedA, totalA, p.AShare
	if totalB < totalA {
		shared, total, share = sharedB, totalB, p.BShare
	}
	if shared == 0 || total == 0 {
		return Pair{A: p.A, B: p.B}
	}
	p.SharedChars = shared
	p.Similarity = share
	p.Flagged = p.Similarity >= o.Threshold
	p.Fragments = fragments(da, db, al)
	p.swaps, p.kept = pairSwaps(da, db, al, res)
	return p
}

// docSwap is a swap in paragraph para of document doc (an index into Result.Documents).
type docSwap struct {
	doc, para int
	s         similarity.Swap
}

// docSpan is a rune span of paragraph para of document doc where a pair's other document has its
// characters as they are (similarity.SeedSpans).
type docSpan struct {
	doc, para int
	span      [2]int
}

// pairSwaps returns the characters by which two aligned documents differ one at a time, the same
// paragraph on each side between two seeds (similarity.Swaps), as swaps of the document whose text
// reads as fewer words, or of both when they read as many: a font that draws other characters than
// its file holds leaves that file's text fewer words (the devset's zh S003, 0.80 of its Han
// characters in dictionary words, 0.66 with its ten commonest characters swapped), and in a pair
// either text stands for the other's characters. It returns too the spans of both documents where
// the other has its characters as they are, where a swapped character counts as kept.
func pairSwaps(da, db *doc, al similarity.Alignment, res *Result) ([]docSwap, []docSpan) {
	known := func(w float64) float64 { // not read here (an old submission from a library): never the swapped one
		if w < 0 {
			return 2
		}
		return w
	}
	sideA, sideB := known(da.words) <= known(db.words), known(db.words) <= known(da.words)
	A, B := res.Documents[da.idx].Paragraphs, res.Documents[db.idx].Paragraphs
	var out []docSwap
	var ra, rb []rune
	lastA, lastB := int32(-1), int32(-1)
	similarity.SeedGaps(al, func(ia, ja, ib, jb int32) {
		pa, pb := da.para[ia], db.para[ib]
		a0, a1, b0, b1 := da.toks[ia].End, da.toks[ja].Start, db.toks[ib].End, db.toks[jb].Start
		if da.para[ja] != pa || db.para[jb] != pb || a1-a0 != b1-b0 {
			return
		}
		if pa != lastA {
			ra, lastA = []rune(A[pa].Text), pa
		}
		if pb != lastB {
			rb, lastB = []rune(B[pb].Text), pb
		}
		if sideA {
			for _, s := range similarity.Swaps(ra, a0, a1, rb, b0, b1) {
				out = append(out, docSwap{da.idx, int(pa), s})
			}
		}
		if sideB {
			for _, s := range similarity.Swaps(rb, b0, b1, ra, a0, a1) {
				out = append(out, docSwap{db.idx, int(pb), s})
			}
		}
	})
	wa, wb := similarity.SeedSpans(al)
	return out, append(seedRuneSpans(da, wa), seedRuneSpans(db, wb)...)
}

// seedRuneSpans turns word ranges of d into rune spans of its paragraphs, cut where a paragraph ends.
func seedRuneSpans(d *doc, words [][2]int32) []docSpan {
	var out []docSpan
	for _, w := range words {
		for k := w[0]; k < w[1]; {
			p, e := d.para[k], k
			for e < w[1] && d.para[e] == p {
				e++
			}
			out = append(out, docSpan{d.idx, int(p), [2]int{int(d.toks[k].Start), int(d.toks[e-1].End)}})
			k = e
		}
	}
	return out
}

// fragments cuts the alignment's chains into fragments of one paragraph on each side. A phrase
// repeated in a document forms extra chains inside the region a longer chain already pairs up; a
// chain whose two sides both lie inside longer ones adds nothing and is dropped. A chain is cut
// where either text moves to another paragraph and around common text; each piece runs from its
// first seed's first word to its last seed's second word.
func fragments(da, db *doc, al similarity.Alignment) []Fragment {
	chains := al.Pairs
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
	out := []Fragment{}
	for _, k := range kept {
		for _, piece := range split(da, db, al.Seeds[k], fragmentGap) {
			if sameness(da, db, piece) < minSameness {
				pieces := split(da, db, piece, 0)
				for _, p := range pieces {
					if f, ok := fragment(da, db, p); ok {
						out = append(out, f)
					}
				}
				continue
			}
			if f, ok := fragment(da, db, piece); ok {
				out = append(out, f)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.APara != b.APara {
			return a.APara < b.APara
		}
		if a.ASpan[0] != b.ASpan[0] {
			return a.ASpan[0] < b.ASpan[0]
		}
		return a.BPara < b.BPara || a.BPara == b.BPara && a.BSpan[0] < b.BSpan[0]
	})
	return out
}

// A fragment is shown as the same text on both sides. A chain bridges up to
// similarity.AlignOptions.MaxGap changed words, and a sentence inserted or moved with them; a
// fragment bridges fragmentGap words at most, and none where what its seeds match is under
// minSameness of either side's characters: a short fragment with a phrase slipped in reads as a
// different sentence.
const (
	fragmentGap = 1
	minSameness = 0.75
)

// split cuts a chain's seeds into the runs of seeds of fragments: where either text changes
// paragraph, more than gap words lie between two seeds on either side, or common text does.
func split(da, db *doc, seeds []similarity.Seed, gap int32) [][]similarity.Seed {
	var out [][]similarity.Seed
	start := 0
	for i := 1; i <= len(seeds); i++ {
		if i == len(seeds) || cut(da, db, seeds[i-1], seeds[i], gap) {
			out = append(out, seeds[start:i])
			start = i
		}
	}
	return out
}

// sameness is the share of the characters of a run of seeds, on the side where it is smaller, that
// lie in words the seeds match.
func sameness(da, db *doc, seeds []similarity.Seed) float64 {
	side := func(d *doc, first, last int32, at func(similarity.Seed) int32) float64 {
		last = min(last, int32(len(d.toks)-1))
		matched := make(map[int32]bool, 2*len(seeds))
		for _, s := range seeds {
			matched[at(s)], matched[at(s)+1] = true, true
		}
		in, all := 0, 0
		for w := first; w <= last; w++ {
			n := int(d.toks[w].End - d.toks[w].Start)
			all += n
			if matched[w] {
				in += n
			}
		}
		if all == 0 {
			return 1
		}
		return float64(in) / float64(all)
	}
	lo, hi := seeds[0].J, seeds[0].J
	for _, s := range seeds {
		lo, hi = min(lo, s.J), max(hi, s.J)
	}
	a := side(da, seeds[0].I, seeds[len(seeds)-1].I+1, func(s similarity.Seed) int32 { return s.I })
	b := side(db, lo, hi+1, func(s similarity.Seed) int32 { return s.J })
	return min(a, b)
}

// cut says whether a fragment ends between two seeds s and t: see split.
func cut(da, db *doc, s, t similarity.Seed, gap int32) bool {
	if da.para[s.I] != da.para[t.I] || db.para[s.J] != db.para[t.J] {
		return true
	}
	if t.I-s.I > gap+2 || t.J-s.J > gap+2 {
		return true
	}
	for w := s.I; w <= t.I+1 && int(w) < len(da.common); w++ {
		if da.common[w] {
			return true
		}
	}
	for w := s.J; w <= t.J+1 && int(w) < len(db.common); w++ {
		if db.common[w] {
			return true
		}
	}
	return false
}

// fragment makes the fragment of a run of seeds that stay in one paragraph on each side: from the
// first word the seeds pair up to the last. A seed pairs two words on each side; a pair of words one
// of which lies in another paragraph (a sentence that ends a paragraph in one text and not in the
// other) or in common text is left out on both sides, so that the two sides stay the same text.
func fragment(da, db *doc, seeds []similarity.Seed) (Fragment, bool) {
	pa, pb := da.para[seeds[0].I], db.para[seeds[0].J]
	a0, a1, b0, b1 := int32(-1), int32(-1), int32(-1), int32(-1)
	for _, s := range seeds {
		for k := int32(0); k < 2; k++ {
			i, j := s.I+k, s.J+k
			if int(i) >= len(da.toks) || int(j) >= len(db.toks) || da.para[i] != pa || db.para[j] != pb || da.common[i] || db.common[j] {
				continue
			}
			if a0 < 0 || i < a0 {
				a0 = i
			}
			if b0 < 0 || j < b0 {
				b0 = j
			}
			a1, b1 = max(a1, i), max(b1, j)
		}
	}
	if a0 < 0 || b0 < 0 || a1 == a0 || b1 == b0 { // a word alone is no evidence
		return Fragment{}, false
	}
	return Fragment{
		APara: int(pa), ASpan: [2]int{int(da.toks[a0].Start), int(da.toks[a1].End)},
		BPara: int(pb), BSpan: [2]int{int(db.toks[b0].Start), int(db.toks[b1].End)},
	}, true
}

// runWords is the length of the word runs the candidate pass counts.
const runWords = 4

// runGrams hashes every run of runWords words of toks that holds at least two words that are not
// stop words (nor common text, which is marked stop); other runs get 0.
func runGrams(toks []similarity.Token) []uint32 {
	if len(toks) < runWords {
		return nil
	}
	out := make([]uint32, len(toks)-runWords+1)
	for i := range out {
		h, content := uint64(0x9E3779B97F4A7C15), 0
		for _, t := range toks[i : i+runWords] {
			h = (h ^ uint64(t.Hash)) * 0x100000001b3
			if !t.Stop {
				content++
			}
		}
		if content >= 2 {
			out[i] = uint32(h>>32) | 1
		}
	}
	return out
}

// round keeps four decimals, as the check's report does.
func round(v float64) float64 { return math.Round(v*1e4) / 1e4 }
