package library

import (
	"sort"

	"thesischeck/similarity"
)

// index finds candidate source paragraphs and documents without scanning the library:
//
//   - grams: winnowed word-bigram hash → paragraphs holding it (any run of five shared words is found);
//   - blocks: the four 16-bit blocks of each paragraph's SimHash → paragraphs (the pigeonhole rule:
//     fingerprints at distance ≤ 3 share a block, so four exact lookups find them all);
//   - bands: MinHash LSH band key → documents.
//
// Paragraphs are numbered globally in the order they were added (int32 ids into flat slices).
// Removed documents stay in the slices, marked, until the next Open rebuilds the index.
type index struct {
	docs []docEntry
	byID map[uint64]int

	paraDoc []int32 // paragraph → slot in docs
	paraNum []int32 // paragraph → its number in the document
	sim     []uint64

	grams  map[uint32][]int32
	blocks [4]map[uint16][]int32
	bands  [similarity.Bands]map[uint64][]int32

	live, liveParas int
}

type docEntry struct {
	rec       docRecord
	sig       similarity.Signature
	firstPara int32
	removed   bool
}

func newIndex() *index {
	x := &index{byID: map[uint64]int{}, grams: map[uint32][]int32{}}
	for i := range x.blocks {
		x.blocks[i] = map[uint16][]int32{}
	}
	for i := range x.bands {
		x.bands[i] = map[uint64][]int32{}
	}
	return x
}

func (x *index) add(rec docRecord, fps []fingerprint) {
	slot := len(x.docs)
	e := docEntry{rec: rec, firstPara: int32(len(x.paraDoc))}
	copy(e.sig[:], rec.Signature)
	x.docs = append(x.docs, e)
	x.byID[rec.ID] = slot
	for n, f := range fps {
		p := int32(len(x.paraDoc))
		x.paraDoc = append(x.paraDoc, int32(slot))
		x.paraNum = append(x.paraNum, int32(n))
		x.sim = append(x.sim, f.SimHash)
		for _, g := range f.Grams {
			x.grams[g] = append(x.grams[g], p)
		}
		if f.SimHash != 0 {
			for b, k := range similarity.Blocks(f.SimHash) {
				x.blocks[b][k] = append(x.blocks[b][k], p)
			}
		}
	}
	for b, k := range e.sig.BandKeys() {
		x.bands[b][k] = append(x.bands[b][k], int32(slot))
	}
	x.live++
	x.liveParas += len(fps)
}

func (x *index) remove(id uint64) {
	slot, ok := x.byID[id]
	if !ok || x.docs[slot].removed {
		return
	}
	x.docs[slot].removed = true
	x.live--
	x.liveParas -= x.docs[slot].rec.Paragraphs
	delete(x.byID, id)
}

// ParaRef names a paragraph of a library document.
type ParaRef struct {
	Doc  uint64 // document id
	Para int    // paragraph number in the document
}

// Candidate is a library paragraph that may be a source of a query paragraph.
type Candidate struct {
	ParaRef
	Hits    int // grams of the query found in the paragraph's index entries
	Hamming int // SimHash distance to the query
}

// Candidates returns the library paragraphs that share at least minHits indexed grams with the
// query, or whose SimHash is within maxHamming of it, best first, at most limit of them. grams are
// all the word bigrams of the query (not winnowed).
func (l *Library) Candidates(grams []uint32, simhash uint64, maxHamming, minHits, limit int) []Candidate {
	l.mu.RLock()
	defer l.mu.RUnlock()
	x := l.idx
	hits := map[int32]int{}
	seen := map[uint32]bool{}
	for _, g := range grams {
		if g == 0 || seen[g] {
			continue
		}
		seen[g] = true
		for _, p := range x.grams[g] {
			hits[p]++
		}
	}
	out := make([]Candidate, 0, 16)
	near := map[int32]bool{}
	if simhash != 0 && maxHamming >= 0 {
		for b, k := range similarity.Blocks(simhash) {
			for _, p := range x.blocks[b][k] {
				if !near[p] && similarity.Hamming(simhash, x.sim[p]) <= maxHamming {
					near[p] = true
				}
			}
		}
	}
	for p, h := range hits {
		if h >= minHits || near[p] {
			out = append(out, x.candidate(p, h, simhash))
		}
	}
	for p := range near {
		if _, ok := hits[p]; !ok {
			out = append(out, x.candidate(p, 0, simhash))
		}
	}
	w := 0
	for _, c := range out {
		if c.Doc != 0 {
			out[w] = c
			w++
		}
	}
	out = out[:w]
	sort.Slice(out, func(i, j int) bool {
		if out[i].Hits != out[j].Hits {
			return out[i].Hits > out[j].Hits
		}
		if out[i].Hamming != out[j].Hamming {
			return out[i].Hamming < out[j].Hamming
		}
		if out[i].Doc != out[j].Doc {
			return out[i].Doc < out[j].Doc
		}
		return out[i].Para < out[j].Para
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

func (x *index) candidate(p int32, hits int, simhash uint64) Candidate {
	d := &x.docs[x.paraDoc[p]]
	if d.removed {
		return Candidate{}
	}
	return Candidate{ParaRef: ParaRef{Doc: d.rec.ID, Para: int(x.paraNum[p])}, Hits: hits, Hamming: similarity.Hamming(simhash, x.sim[p])}
}

// SimHash returns the stored SimHash of a library paragraph.
func (l *Library) SimHash(r ParaRef) uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	slot, ok := l.idx.byID[r.Doc]
	if !ok {
		return 0
	}
	return l.idx.sim[l.idx.docs[slot].firstPara+int32(r.Para)]
}

// SimilarDocuments returns the documents whose MinHash signature shares an LSH band with sig.
func (l *Library) SimilarDocuments(sig *similarity.Signature) []uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	seen := map[int32]bool{}
	var out []uint64
	for b, k := range sig.BandKeys() {
		for _, s := range l.idx.bands[b][k] {
			if !seen[s] && !l.idx.docs[s].removed {
				seen[s] = true
				out = append(out, l.idx.docs[s].rec.ID)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Boilerplate reports the share of grams (winnowed word bigrams of a library paragraph, as
// similarity.Winnow gives them) that stand in at least minDocs documents of the library: text every
// thesis of a university shares, such as its declaration of originality, scores near 1.
func (l *Library) Boilerplate(grams []uint32, minDocs int) float64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	x := l.idx
	total, common := 0, 0
	docs := map[int32]bool{}
	for _, g := range grams {
		if g == 0 {
			continue
		}
		total++
		clear(docs)
		for _, q := range x.grams[g] {
			if d := x.paraDoc[q]; !x.docs[d].removed {
				docs[d] = true
				if len(docs) >= minDocs {
					common++
					break
				}
			}
		}
	}
	if total == 0 {
		return 0
	}
	return float64(common) / float64(total)
}
