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
	n := len(mem.grams[g])
	for _, s := range x.segs {
		f := s.frequent()
		if f.min == 0 {
			return math.MaxInt
		}
		if i, ok := searchFrom(f.keys, g, int(uint64(g)*uint64(len(f.keys))>>32)); ok {
			n += int(f.counts[i])
		} else {
			n += int(f.min) - 1
		}
	}
	return n
}
