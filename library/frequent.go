package library

import (
	"math"
	"sync"
)

// frequentGrams lists the grams that many paragraphs of a segment hold, with their postings counts,
// so that Boilerplate can bound a gram's postings without reading the index. Boilerplate asks
// whether a quarter of the library's documents of a kind hold a gram; in a large library nearly no
// gram comes close, yet looking each one up in every segment was 65 % of the postings lookups in
// checks of a 313-page thesis against 100,000 generated documents (1.71 of 15.07 s of CPU in the
// four checks of benchgen -probe): three or four cache misses in a mapped file per gram and
// segment. A gram the list leaves out is held by fewer than min paragraphs of the segment.
//
// The list is made from the segment's gram offsets the first time a check asks, reading them whole
// and checking their pages, which a check otherwise reads only where it looks: 48 ms for the 12.5
// million offsets (50 MB) of the largest segment of that library, 11 and 1.3 ms for the others.
// Its length is at most the segment's postings / min: min grows with the segment, so that the list
// stays below a few hundred thousand grams however large the segment.
type frequentGrams struct {
	once   sync.Once
	min    uint32   // 0: no list (a page failed its checksum), every gram must be looked up
	keys   []uint32 // increasing
	counts []uint32
}

// frequentMin is the postings count from which a segment of paras paragraphs lists a gram: one
// paragraph in 4,096, at least 16. In the largest segment of a 100,000-document library (2.7
// million paragraphs) that lists the 10,762 grams held 653 times or more.
func frequentMin(paras int) uint32 {
	return uint32(max(16, paras/4096))
}

// frequent returns the segment's list, made on first use.
func (s *segment) frequent() *frequentGrams {
	f := &s.freq
	f.once.Do(func() {
		a := &s.seg
		if !okRange(a, a.gramOff, 0, len(a.gramOff)) {
			return
		}
		min := frequentMin(s.paras())
		for k := 0; k+1 < len(a.gramOff); k++ {
			from, to := a.gramOff[k], a.gramOff[k+1]
			if to < from || to-from < min { // to < from: damage, which postingsOf reads as no postings
				continue
			}
			if !okAt(a, a.gramKeys, k) {
				f.keys, f.counts = nil, nil
				return
			}
			f.keys = append(f.keys, a.gramKeys[k])
			f.counts = append(f.counts, to-from)
		}
		f.min = min
	})
	return f
}

// postingsAtMost bounds how many paragraphs of the library hold gram g: at least as many as
// postings would count, and no more when the segments list g as frequent.
func (x *index) postingsAtMost(g uint32, mem *memTables) int {
	f := x.frequent()
	if f.unlisted < 0 {
		return math.MaxInt
	}
	if b, ok := f.listed[g]; ok {
		return len(mem.grams[g]) + b.atMost
	}
	return len(mem.grams[g]) + f.unlisted
}

// postingsAtLeast bounds how many paragraphs of the library hold gram g from below: the counts of
// the segments that list it as frequent, and the in-memory part's.
func (x *index) postingsAtLeast(g uint32, mem *memTables) int {
	return len(mem.grams[g]) + x.frequent().listed[g].atLeast
}

// indexFrequent joins the segments' lists: one lookup for a gram instead of a search in each list
// (4.2 % of the CPU of a 313-page thesis's command-line check against the three segments of
// 100,000 documents, perf). unlisted bounds a gram no segment lists: min-1 of each segment; listed
// those the lists hold, with each segment's count where it lists the gram. unlisted is -1 when a
// segment has no list.
type indexFrequent struct {
	once     sync.Once
	listed   map[uint32]postingsBounds
	unlisted int
}

// postingsBounds bound a listed gram's postings in the segments: atLeast counts those of the
// segments that list it, atMost adds min-1 for each of the others.
type postingsBounds struct{ atLeast, atMost int }

// frequent returns the index's joined list, made on first use.
func (x *index) frequent() *indexFrequent {
	f := &x.freq
	f.once.Do(func() {
		for _, s := range x.segs {
			sf := s.frequent()
			if sf.min == 0 {
				f.unlisted = -1
				return
			}
			f.unlisted += int(sf.min) - 1
		}
		f.listed = map[uint32]postingsBounds{}
		for _, s := range x.segs {
			sf := s.frequent()
			for i, g := range sf.keys {
				b := f.listed[g]
				b.atLeast += int(sf.counts[i])
				b.atMost += int(sf.counts[i]) - (int(sf.min) - 1)
				f.listed[g] = b
			}
		}
		for g, b := range f.listed {
			b.atMost += f.unlisted
			f.listed[g] = b
		}
	})
	return f
}
