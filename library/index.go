package library

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"thesischeck/similarity"
)

// index finds candidate source paragraphs and documents without scanning the library. It answers
// from two parts:
//
//   - segments: immutable files (format.go) mapped into memory, one sorted array per table, so
//     opening a library maps them instead of building anything;
//   - mem: the documents added since the last segment was written, in hash tables, until the
//     import that added them writes them out as a segment.
//
// Its tables, in both parts:
//
//   - grams: winnowed word-bigram hash → paragraphs holding it (any run of five shared words is found);
//   - blocks: the four 16-bit blocks of each paragraph's SimHash → paragraphs (the pigeonhole rule:
//     fingerprints at distance ≤ 3 share a block, so four exact lookups find them all);
//   - bands: MinHash LSH band key → documents.
//
// Paragraphs are numbered globally: the paragraphs of segment i start at bases[i], those of mem at
// memBase. Removed documents stay in the tables, marked dead, until a merge of segments.
type index struct {
	segs    []*segment
	bases   []int32
	memBase int32
	mem     *memIndex

	byID map[uint64]docLoc

	live, liveParas int

	freq indexFrequent // made by the first boilerplate test
}

// docLoc places a document: in segs[seg] (or mem when seg == len(segs)) as its doc-th document.
type docLoc struct{ seg, doc int32 }

// memIndex holds recently added documents. Its lookup tables are made by the first query, then kept
// up to date by add: an import asks no queries, and filling hash tables it never read took 7 % of its
// CPU.
type memIndex struct {
	docs    []memDoc
	paraDoc []int32 // paragraph → document
	paraNum []int32
	sim     []uint64

	tabMu sync.Mutex // held while the tables are made
	tab   atomic.Pointer[memTables]
}

type memDoc struct {
	id   uint64
	sig  similarity.Signature
	fps  []fingerprint // kept for the segment the documents are written to
	dead bool
}

// memTables are memIndex's hash tables, by paragraph (grams, blocks) and by document (bands).
type memTables struct {
	grams  map[uint32][]int32
	blocks [4]map[uint16][]int32
	bands  [similarity.Bands]map[uint64][]int32
}

// tables returns the lookup tables, made on first use. Callers hold the library's read lock, so no
// add runs meanwhile; tabMu keeps concurrent queries from making them twice.
func (m *memIndex) tables() *memTables {
	if t := m.tab.Load(); t != nil {
		return t
	}
	m.tabMu.Lock()
	defer m.tabMu.Unlock()
	if t := m.tab.Load(); t != nil {
		return t
	}
	t := &memTables{grams: map[uint32][]int32{}}
	for i := range t.blocks {
		t.blocks[i] = map[uint16][]int32{}
	}
	for i := range t.bands {
		t.bands[i] = map[uint64][]int32{}
	}
	first := int32(0)
	for slot := range m.docs {
		t.add(int32(slot), first, &m.docs[slot])
		first += int32(len(m.docs[slot].fps))
	}
	m.tab.Store(t)
	return t
}

// add enters document slot, whose paragraphs are numbered from first.
func (t *memTables) add(slot, first int32, d *memDoc) {
	for n, f := range d.fps {
		p := first + int32(n)
		for _, g := range f.Grams {
			t.grams[g] = append(t.grams[g], p)
		}
		if f.SimHash != 0 {
			for b, k := range similarity.Blocks(f.SimHash) {
				t.blocks[b][k] = append(t.blocks[b][k], p)
			}
		}
	}
	for b, k := range d.sig.BandKeys() {
		t.bands[b][k] = append(t.bands[b][k], slot)
	}
}

func newIndex(segs []*segment) *index {
	x := &index{segs: segs, byID: map[uint64]docLoc{}, mem: &memIndex{}}
	n := int32(0)
	for i, s := range segs {
		x.bases = append(x.bases, n)
		n += int32(s.paras())
		for d, id := range s.seg.docIDs {
			if !s.dead[d] {
				x.byID[id] = docLoc{int32(i), int32(d)}
				x.live++
				x.liveParas += int(s.seg.docFirst[d+1] - s.seg.docFirst[d])
			}
		}
	}
	x.memBase = n
	return x
}

// add puts a document in mem.
func (x *index) add(id uint64, sig similarity.Signature, fps []fingerprint) {
	m := x.mem
	slot, first := int32(len(m.docs)), int32(len(m.paraDoc))
	m.docs = append(m.docs, memDoc{id: id, sig: sig, fps: fps})
	x.byID[id] = docLoc{int32(len(x.segs)), slot}
	for n, f := range fps {
		m.paraDoc = append(m.paraDoc, slot)
		m.paraNum = append(m.paraNum, int32(n))
		m.sim = append(m.sim, f.SimHash)
	}
	if t := m.tab.Load(); t != nil {
		t.add(slot, first, &m.docs[slot])
	}
	x.live++
	x.liveParas += len(fps)
}

func (x *index) remove(id uint64) {
	loc, ok := x.byID[id]
	if !ok {
		return
	}
	delete(x.byID, id)
	x.live--
	if int(loc.seg) == len(x.segs) {
		x.mem.docs[loc.doc].dead = true
		x.liveParas -= len(x.mem.docs[loc.doc].fps)
		return
	}
	s := x.segs[loc.seg]
	s.dead[loc.doc] = true
	x.liveParas -= int(s.seg.docFirst[loc.doc+1] - s.seg.docFirst[loc.doc])
}

// para resolves a global paragraph number: the document id, its paragraph number and SimHash, and
// whether the document is still in the library.
func (x *index) para(p int32) (id uint64, num int, sim uint64, ok bool) {
	if p >= x.memBase {
		q := p - x.memBase
		d := &x.mem.docs[x.mem.paraDoc[q]]
		return d.id, int(x.mem.paraNum[q]), x.mem.sim[q], !d.dead
	}
	i := sort.Search(len(x.bases), func(i int) bool { return x.bases[i] > p }) - 1
	s := x.segs[i]
	q := uint32(p - x.bases[i])
	d := s.seg.doc(q)
	if int(d) >= s.docs() || q < s.seg.docFirst[d] {
		return 0, 0, 0, false
	}
	return s.seg.docIDs[d], int(q - s.seg.docFirst[d]), s.seg.sim(q), !s.dead[d]
}

// addHits adds to the hits and score of ts (in increasing order of paragraph) those of a gram of
// weight w whose postings are lists by segment (numbered within it) and memList in the in-memory
// part, all in increasing order. Each list is searched from where the last paragraph was found.
func (x *index) addHits(ts []touch, lists [][]uint32, memList []int32, w uint32) {
	seg, from := 0, 0 // the list searched (len(lists) for memList), and where the last was found
	for k := range ts {
		t := &ts[k]
		s := seg
		for s < len(lists) && (t.p >= x.memBase || s+1 < len(x.bases) && t.p >= x.bases[s+1]) {
			s++
		}
		if s != seg {
			seg, from = s, 0
		}
		var n int
		if s == len(lists) {
			n, from = occurrences(memList, t.p-x.memBase, from)
		} else {
			n, from = occurrences(lists[s], uint32(t.p-x.bases[s]), from)
		}
		t.hits += uint32(n)
		t.score += uint32(n) * w
	}
}

// occurrences returns how many times v is in list[from:], which is in increasing order, and where
// v is or would be. It gallops from from: the paragraphs addHits asks for come in increasing order,
// a few dozen places apart in a common gram's list, where a binary search over the rest of the
// list read a dozen cache lines far apart for each.
func occurrences[T cmp.Ordered](list []T, v T, from int) (int, int) {
	lo, hi := from, from+1 // v's place is in [lo, hi]: list[lo-1] < v when lo > from
	for hi < len(list) && list[hi-1] < v {
		lo, hi = hi, hi+2*(hi-lo)
	}
	hi = min(hi, len(list))
	i, ok := slices.BinarySearch(list[lo:hi], v)
	i += lo
	if !ok {
		return 0, i
	}
	n := 1
	for i+n < len(list) && list[i+n] == v {
		n++
	}
	return n, i
}

// postings puts in segs the paragraphs of each segment that hold gram g (numbered within the
// segment) and returns how many paragraphs of the library hold it, the in-memory part's included.
func (x *index) postings(g uint32, mem *memTables, segs [][]uint32) int {
	n := len(mem.grams[g])
	for i, s := range x.segs {
		segs[i] = s.seg.postingsOf(g)
		n += len(segs[i])
	}
	return n
}

func (x *index) paras() int { return int(x.memBase) + len(x.mem.paraDoc) }

// damaged is the first page of a segment that failed its checksum, if any: queries answer as if
// the page held nothing, and the library reports the damage (Library.Damaged).
func (x *index) damaged() error {
	for _, s := range x.segs {
		if err := s.seg.sums.failed(); err != nil {
			return fmt.Errorf("index %s: %w", s.name, err)
		}
	}
	return nil
}

// Damaged returns an error wrapping ErrDamaged when a read of the index found a page that fails its
// checksum; the queries made since (Candidates, SimilarDocuments, SimHash, Boilerplate) may have
// answered without it. A check calls it after its queries.
func (l *folder) Damaged() error {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if err := l.idx.damaged(); err != nil {
		return fmt.Errorf("library %s: %w", l.dir, err)
	}
	return nil
}

// ParaRef names a paragraph of a library document.
type ParaRef struct {
	Doc  uint64 // document id
	Para int    // paragraph number in the document
}

// Candidate is a library paragraph that may be a source of a query paragraph.
type Candidate struct {
	ParaRef
	Hits int // grams of the query found in the paragraph's index entries
	// Score is Hits weighed by the grams' rarity (gramWeight): candidates are ranked by it, so that
	// in a large library the few rare grams of a copied run outweigh the many common words that
	// texts of the same field share.
	Score   int
	Hamming int // SimHash distance to the query
}

// hitCounter counts a query's gram hits per library paragraph. It gathers every posting of the
// grams counted as paragraph << 32 | weight and sorts them by paragraph (a radix sort of the bits the
// library's paragraph numbers take), so that each paragraph's hits are one run and memory is read
// and written in order. A flat array of counters indexed by paragraph took a cache miss a posting,
// and three more passes over the paragraphs touched (the score floor, the offer, the clearing): 70 %
// of the CPU of a 312-page thesis's check against 100,000 generated documents, 36 ns a posting, with
// 35,000 postings and 30,000 paragraphs touched a query paragraph.
type hitCounter struct {
	pairs, spare []uint64
	touched      []touch // the paragraphs hit, in increasing order
	hist         []int   // paragraphs by score, for floor
	grams        []queryGram
	lists        [][]uint32 // the postings of grams[i] in segment s at lists[i*len(segs)+s]
	skip         []bool
	// seen and held are bit sets of the library's paragraphs for sieve: those a light gram hits,
	// and those kept to be counted.
	seen, held []uint64
}

// queryGram is a gram of a query: n library paragraphs hold it, a hit on it weighs w.
type queryGram struct {
	g uint32
	n int
	w uint32
}

type touch struct {
	p           int32
	hits, score uint32
}

// counters keeps a few hitCounters for the next queries. Not a sync.Pool: a pool is emptied by the
// garbage collector, and the buffers made again for every query then made the collector run more
// often, stopping the counting loops to do it.
var counters = make(chan *hitCounter, 8)

func getCounter() *hitCounter {
	select {
	case h := <-counters:
		return h
	default:
		return new(hitCounter)
	}
}

// gather adds the postings of h.grams[i], of every segment and the in-memory part, each as
// paragraph << 32 | weight.
func (h *hitCounter) gather(x *index, mem *memTables, i int) {
	q := h.grams[i]
	for s, ps := range h.lists[i*len(x.segs):][:len(x.segs)] {
		h.pairs = appendPairs(h.pairs, ps, uint32(x.bases[s]), uint64(q.w))
	}
	h.pairs = appendPairs(h.pairs, mem.grams[q.g], x.memBase, uint64(q.w))
}

// appendPairs appends to pairs the postings ps, numbered from base, each as paragraph << 32 |
// w. Not inlined, as seeTwice.
//
//go:noinline
func appendPairs[T uint32 | int32](pairs []uint64, ps []T, base T, w uint64) []uint64 {
	for _, p := range ps {
		pairs = append(pairs, uint64(uint32(p+base))<<32|w)
	}
	return pairs
}

// count sorts the postings added by paragraph (numbered below paras) and sums each paragraph's.
func (h *hitCounter) count(paras int) {
	var sorted []uint64
	sorted, h.spare = sortBits(h.pairs, h.spare, 32, bits.Len(uint(paras)))
	h.pairs = sorted
	h.touched = h.touched[:0]
	for i := 0; i < len(sorted); {
		p := sorted[i] >> 32
		t := touch{p: int32(p)}
		for ; i < len(sorted) && sorted[i]>>32 == p; i++ {
			t.hits++
			t.score += uint32(sorted[i])
		}
		h.touched = append(h.touched, t)
	}
}

// hit reports whether paragraph p was hit.
func (h *hitCounter) hit(p int32) bool {
	_, ok := slices.BinarySearchFunc(h.touched, p, func(t touch, p int32) int { return cmp.Compare(t.p, p) })
	return ok
}

// gramWeight is the weight of a hit on a gram that n library paragraphs hold: 1 at maxPostings,
// one more each time n halves, 14 for a gram of one paragraph. A copied run's grams are rare; the
// word pairs of a field's vocabulary are held by hundreds of paragraphs in a large library.
func gramWeight(n, maxPostings int) uint32 {
	return uint32(bits.Len(uint(maxPostings / max(n, 1))))
}

// floor is the highest score that at least limit touched paragraphs have (0 when limit is 0 or
// fewer are touched). Scores are at most maxScore.
func (h *hitCounter) floor(limit, maxScore int) int {
	if limit <= 0 || len(h.touched) < limit {
		return 0
	}
	h.hist = append(h.hist[:0], make([]int, maxScore+1)...)
	for _, t := range h.touched {
		h.hist[min(int(t.score), maxScore)]++
	}
	n := 0
	for c := maxScore; c > 0; c-- {
		if n += h.hist[c]; n >= limit {
			return c
		}
	}
	return 0
}

// liveFloor is a score that at least limit touched paragraphs eligible for the answer reach
// (live, with minHits hits or near): floor's, lowered past the paragraphs above it that are not
// eligible. A removed document's paragraphs stay in the index until a merge or compaction drops
// them, and a paragraph copied from it finds them first: with floor alone, one among the best
// limit failed prune, and 2,205 of 12,600 queries of the 313-page thesis against 100,000
// documents with every tenth removed counted every posting of their grams (Candidates took 0.78 s
// on one core, 0.38 s with liveFloor). It stops, returning what it reached, once that is at most
// stop (0 when fewer than limit are eligible).
func (h *hitCounter) liveFloor(x *index, near []int32, minHits, limit, maxScore, stop int) int {
	need := limit
	for {
		lb := h.floor(need, maxScore)
		if lb <= stop {
			return lb
		}
		above, good := 0, 0
		for _, t := range h.touched {
			if int(t.score) < lb {
				continue
			}
			above++
			if _, ok := slices.BinarySearch(near, t.p); int(t.hits) >= minHits || ok {
				if _, _, _, live := x.para(t.p); live {
					good++
				}
			}
		}
		if good >= limit {
			return lb
		}
		// floor of more paragraphs than score lb or more is below lb.
		need = above + limit - good
	}
}

// skipWeight bounds the total weight of the common grams a query counts last. In the check of a
// 312-page thesis against 100,000 generated documents, Candidates gathered and sorted 63.6 million
// postings (43 % of the check's CPU); the twelfth best paragraph of a query scored 8 to 57, mostly
// 11 to 20, and the most common grams of a query weighing less than a third of that, 2.2 of them
// on average, held 38 % of the postings. 4, 6 and 8 were tried: 6 took the least CPU.
const skipWeight = 6

// skippable marks in h.skip the grams of h.grams counted last: the most common ones while their
// weights add up to less than skipWeight (none when every candidate is wanted). It returns their
// weight.
func (h *hitCounter) skippable(limit int) int {
	h.skip = append(h.skip[:0], make([]bool, len(h.grams))...)
	if limit <= 0 {
		return 0
	}
	total := 0
	for {
		best := -1
		for i, q := range h.grams {
			if !h.skip[i] && (best < 0 || q.n > h.grams[best].n) {
				best = i
			}
		}
		if best < 0 || total+int(h.grams[best].w) >= skipWeight {
			return total
		}
		h.skip[best] = true
		total += int(h.grams[best].w)
	}
}

// prune completes the count of the skipped grams (weighing skipW in all) for the paragraphs that
// can still be among the limit best, and drops the others from h.touched. It is exact: with lb a
// score that limit live paragraphs eligible for the answer (minHits hits, or near) have reached
// without the skipped grams, a paragraph below lb-skipW without them stays below lb with them, and
// one h.touched does not hold scores at most missed < lb (skipW when the counted grams missed it;
// more after sieve). It returns false, having changed nothing, when liveFloor finds no such lb
// above missed, and the bound it reached.
func (h *hitCounter) prune(x *index, mem *memTables, skipW, missed int, near []int32, minHits, limit, maxScore int) (bool, int) {
	lb := h.liveFloor(x, near, minHits, limit, maxScore, missed)
	if lb <= missed {
		return false, lb
	}
	kept := h.touched[:0]
	for _, t := range h.touched {
		if int(t.score)+skipW >= lb {
			kept = append(kept, t)
		}
	}
	h.touched = kept
	segs := len(x.segs)
	for i, q := range h.grams {
		if h.skip[i] {
			x.addHits(kept, h.lists[i*segs:][:segs], mem.grams[q.g], q.w)
		}
	}
	prunedQueries.Add(1)
	return true, lb
}

// prunedQueries counts the queries prune answered, for the tests to know they tried it.
var prunedQueries atomic.Int64

// sieveWeight: the grams a query counts (not skipped) that weigh less are sieved first. Variable
// for the tests, whose small libraries weigh every gram lightly. In the check of the 313-page
// thesis against 100,000 documents with 5, 11.9 million postings a check were sorted to count 8.7
// million paragraphs, nearly all hit once; 7.5 million of the postings were of grams weighing 5
// or more. With 7, 50 of a check's 1,800 queries fail the first sieve and are sieved again with
// the bound it found (with 8, 188; 9, 418). Four alternated probes, the median of their best of
// three checks: 0.884 s with 5, 0.842 with 7, 0.841 with 8, 0.845 with 9.
var sieveWeight = 7

// sieve counts the grams not skipped, as gather and count do, but only for the paragraphs that can
// be among the best: those a gram weighing below or more hits, those near, and those the lighter
// grams hit twice or more. A paragraph that one light gram hits and nothing else scores under
// below, and the query's best scores more (prune checks that), so it cannot be among them. In the
// check of a 312-page thesis against 100,000 generated documents nearly every paragraph a query
// touched had one hit, and sorting them to count was the largest part of the search: two passes
// over a bit set of the library's paragraphs (375 KiB for 3 million, within the core's cache) cost
// less. It reports false, having done nothing, when no gram is that light.
func (h *hitCounter) sieve(x *index, mem *memTables, near []int32, below int) bool {
	light := func(i int) bool { return !h.skip[i] && int(h.grams[i].w) < below }
	any := false
	for i := range h.grams {
		any = any || light(i)
	}
	if !any {
		return false
	}
	// held is all clear between queries (its bits are cleared one by one, below); seen is cleared
	// whole, its bits too many.
	words := (x.paras() + 63) / 64
	if len(h.held) < words {
		h.held = make([]uint64, words)
	}
	h.seen = slices.Grow(h.seen[:0], words)[:words]
	clear(h.seen)
	seen, held := h.seen, h.held
	segs := len(x.segs)
	for i, q := range h.grams {
		if !light(i) {
			continue
		}
		for s, ps := range h.lists[i*segs:][:segs] {
			seeTwice(seen, held, ps, uint32(x.bases[s]))
		}
		seeTwice(seen, held, mem.grams[q.g], x.memBase)
	}
	for i := range h.grams {
		if !h.skip[i] && !light(i) {
			h.gather(x, mem, i)
		}
	}
	for _, pr := range h.pairs {
		p := pr >> 32
		held[p>>6] |= 1 << (p & 63)
	}
	for _, p := range near {
		held[p>>6] |= 1 << (p & 63)
	}
	for i, q := range h.grams {
		if !light(i) {
			continue
		}
		w := uint64(q.w)
		for s, ps := range h.lists[i*segs:][:segs] {
			h.pairs = keepHeld(h.pairs, held, ps, uint32(x.bases[s]), w)
		}
		h.pairs = keepHeld(h.pairs, held, mem.grams[q.g], x.memBase, w)
	}
	h.count(x.paras())
	for _, t := range h.touched {
		held[t.p>>6] = 0
	}
	for _, p := range near {
		held[p>>6] = 0
	}
	sievedQueries.Add(1)
	return true
}

// seeTwice is sieve's first pass over a light gram's postings ps, numbered from base: it marks
// them in seen, and in held those seen before. A function of its own, not inlined, its loop keeps
// its values in registers; inlined in sieve, they were kept on the stack, loaded and stored for
// every posting.
//
//go:noinline
func seeTwice[T uint32 | int32](seen, held []uint64, ps []T, base T) {
	for _, p := range ps {
		q := uint32(p + base)
		k, b := q>>6, uint64(1)<<(q&63)
		s := seen[k]
		if s&b != 0 { // rarely: most paragraphs a query touches have one hit
			held[k] |= b
		}
		seen[k] = s | b
	}
}

// keepHeld is sieve's second pass: it appends to pairs, as gather does, the postings of ps
// (numbered from base) of paragraphs held holds, each of weight w. Not inlined, as seeTwice.
//
//go:noinline
func keepHeld[T uint32 | int32](pairs, held []uint64, ps []T, base T, w uint64) []uint64 {
	// Every posting is written and the count moves on by the held bit: a branch on the bit, taken
	// for about a sixth of the postings in no order (2,774 of a sieve's 17,546 on average), took
	// 5-8 % more of Candidates' time.
	n := len(pairs)
	out := slices.Grow(pairs, len(ps))[:n+len(ps)]
	for _, p := range ps {
		q := uint32(p + base)
		out[n] = uint64(q)<<32 | w
		n += int(held[q>>6] >> (q & 63) & 1)
	}
	return out[:n]
}

// sievedQueries counts the sieves run, for the tests; sieveFailed those whose best scores were too
// low for what they left out (sieved again or counted), sieveRetried the queries a second sieve
// answered.
var sievedQueries, sieveFailed, sieveRetried atomic.Int64

func (h *hitCounter) release() {
	h.pairs, h.touched = h.pairs[:0], h.touched[:0]
	clear(h.lists) // slices of mapped segment files, which a merge may unmap
	h.lists = h.lists[:0]
	select {
	case counters <- h:
	default:
	}
}

// Candidates returns the library paragraphs that share at least minHits indexed grams with the
// query (grams in no more than Options.MaxPostings paragraphs), or whose SimHash is within maxHamming of it,
// best first, at most limit of them. grams are all the word bigrams of the query (not winnowed).
func (l *folder) Candidates(grams []uint32, simhash uint64, maxHamming, minHits, limit int) []Candidate {
	l.mu.RLock()
	defer l.mu.RUnlock()
	x := l.idx
	h := getCounter()
	defer h.release()
	mem := x.mem.tables()
	uniq := similarity.SortedSet(slices.Clone(grams))
	segs := len(x.segs)
	h.lists = slices.Grow(h.lists[:0], len(uniq)*segs)[:len(uniq)*segs]
	h.grams = h.grams[:0]
	maxScore := 0
	for _, g := range uniq {
		// A stock phrase that the segments' lists of frequent grams already put over the limit is
		// not looked up: its postings are never read, yet finding them cost three or four misses in
		// each segment and a check of every block they fill (3,792 of the 112,729 lookups of the
		// 313-page thesis's check against 100,000 documents, whose lists held 367 MB).
		if x.postingsAtLeast(g, mem) > l.maxPostings {
			continue
		}
		lists := h.lists[len(h.grams)*segs:][:segs]
		n := x.postings(g, mem, lists)
		if n > l.maxPostings {
			continue
		}
		w := gramWeight(n, l.maxPostings)
		maxScore += int(w)
		h.grams = append(h.grams, queryGram{g: g, n: n, w: w})
	}
	var near []int32
	if simhash != 0 && maxHamming >= 0 {
		for b, k := range similarity.Blocks(simhash) {
			for i, s := range x.segs {
				for _, p := range s.seg.block(b, k) {
					if int(p) < len(s.seg.sims) && similarity.Hamming(simhash, s.seg.sim(p)) <= maxHamming {
						near = append(near, x.bases[i]+int32(p))
					}
				}
			}
			for _, p := range mem.blocks[b][k] {
				if similarity.Hamming(simhash, x.mem.sim[p]) <= maxHamming {
					near = append(near, x.memBase+p)
				}
			}
		}
	}
	slices.Sort(near)
	near = slices.Compact(near)
	// The most common grams, weighing less than skipWeight together, are counted last, and only for
	// the paragraphs that can still be among the best (prune). Of the others, those lighter than
	// sieveWeight count only for the paragraphs they hit twice or more, or that another gram hits
	// (sieve).
	skipW := h.skippable(limit)
	done := false
	below := sieveWeight
	for try := 0; try < 2 && limit > 0 && below > 1 && h.sieve(x, mem, near, below); try++ {
		// A paragraph sieve left out scores under below without the skipped grams.
		var lb int
		if done, lb = h.prune(x, mem, skipW, skipW+below-1, near, minHits, limit, maxScore); done {
			if below != sieveWeight {
				sieveRetried.Add(1)
			}
			break
		}
		h.pairs = h.pairs[:0] // counted again
		sieveFailed.Add(1)
		// Once more: the limit-th best score is lb at least, so sieving the grams lighter than
		// lb-skipW leaves out only paragraphs under it. Too few paragraphs held (lb 0), or too few
		// with enough hits, may need a lighter sieve.
		if below = lb - skipW; below >= sieveWeight || below < 2 {
			below = min(5, sieveWeight-1)
		}
	}
	if !done {
		for i := range h.grams {
			if !h.skip[i] {
				h.gather(x, mem, i)
			}
		}
		h.count(x.paras())
		if skipW > 0 {
			if ok, _ := h.prune(x, mem, skipW, skipW, near, minHits, limit, maxScore); !ok {
				// Too few good paragraphs to leave the common grams out: count them too.
				for i := range h.grams {
					if h.skip[i] {
						h.gather(x, mem, i)
					}
				}
				h.count(x.paras())
			}
		}
	}
	// Only the best limit candidates are kept (a bounded heap, worst on top): common grams can give
	// thousands of paragraphs two hits, and sorting them all cost more than finding them. Scores
	// decide first, so a paragraph scoring less than the limit-th best cannot enter: its document
	// and SimHash are not looked up (12 % of the CPU of a 313-page thesis's check against 100,000
	// documents went to those lookups). The floor is liveFloor's, so that removed documents'
	// paragraphs above it do not leave the heap short.
	top := candHeap{limit: limit}
	add := func(t touch) {
		hits, score := int(t.hits), int(t.score)
		if top.limit > 0 && len(top.c) == top.limit && score < top.c[0].Score {
			return
		}
		if id, num, sim, ok := x.para(t.p); ok {
			top.offer(Candidate{ParaRef: ParaRef{Doc: id, Para: num}, Hits: hits, Score: score, Hamming: similarity.Hamming(simhash, sim)})
		}
	}
	offer := func(lo, hi int) { // the paragraphs with lo <= score < hi
		for _, t := range h.touched {
			if c := int(t.score); c < lo || c >= hi {
				continue
			}
			if int(t.hits) >= minHits {
				add(t)
			} else if _, ok := slices.BinarySearch(near, t.p); ok {
				add(t)
			}
		}
		if lo == 0 {
			for _, p := range near {
				if !h.hit(p) {
					add(touch{p: p})
				}
			}
		}
	}
	floor := h.liveFloor(x, near, minHits, limit, maxScore, 0)
	offer(floor, math.MaxInt)
	if floor > 0 && len(top.c) < limit {
		offer(0, floor)
	}
	out := top.c
	sort.Slice(out, func(i, j int) bool { return better(out[i], out[j]) })
	return out
}

// better orders candidates: higher score, then nearer SimHash, then document and paragraph order.
func better(a, b Candidate) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	if a.Hamming != b.Hamming {
		return a.Hamming < b.Hamming
	}
	if a.Doc != b.Doc {
		return a.Doc < b.Doc
	}
	return a.Para < b.Para
}

// candHeap keeps the best limit candidates offered (all when limit ≤ 0), the worst at c[0].
type candHeap struct {
	c     []Candidate
	limit int
}

func (h *candHeap) offer(c Candidate) {
	if h.limit <= 0 {
		h.c = append(h.c, c)
		return
	}
	if len(h.c) < h.limit {
		h.c = append(h.c, c)
		for i := len(h.c) - 1; i > 0; {
			parent := (i - 1) / 2
			if !better(h.c[parent], h.c[i]) {
				break
			}
			h.c[parent], h.c[i] = h.c[i], h.c[parent]
			i = parent
		}
		return
	}
	if !better(c, h.c[0]) {
		return
	}
	h.c[0] = c
	for i := 0; ; {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(h.c) && better(h.c[worst], h.c[l]) {
			worst = l
		}
		if r < len(h.c) && better(h.c[worst], h.c[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h.c[i], h.c[worst] = h.c[worst], h.c[i]
		i = worst
	}
}

// SimHash returns the stored SimHash of a library paragraph.
func (l *folder) SimHash(r ParaRef) uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	x := l.idx
	loc, ok := x.byID[r.Doc]
	if !ok || r.Para < 0 {
		return 0
	}
	if int(loc.seg) == len(x.segs) {
		d := x.mem.docs[loc.doc]
		if r.Para >= len(d.fps) {
			return 0
		}
		return d.fps[r.Para].SimHash
	}
	a := &x.segs[loc.seg].seg
	p := a.docFirst[loc.doc] + uint32(r.Para)
	if p >= a.docFirst[loc.doc+1] {
		return 0
	}
	return a.sim(p)
}

// signature returns a live document's MinHash signature.
func (x *index) signature(loc docLoc) similarity.Signature {
	var sig similarity.Signature
	if int(loc.seg) == len(x.segs) {
		return x.mem.docs[loc.doc].sig
	}
	a := &x.segs[loc.seg].seg
	if w := int(loc.doc) * sigWords; w+sigWords <= len(a.sigs) && okRange(a, a.sigs, w, w+sigWords) {
		copy(sig[:], a.sigs[w:w+sigWords])
	}
	return sig
}

// SimilarDocuments returns the documents whose MinHash signature shares an LSH band with sig.
func (l *folder) SimilarDocuments(sig *similarity.Signature) []uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	x := l.idx
	mem := x.mem.tables()
	var out []uint64
	for b, k := range sig.BandKeys() {
		for _, s := range x.segs {
			a := &s.seg
			keys := a.bandKeys
			i := sort.Search(len(keys), func(i int) bool { return okAt(a, keys, i) && keys[i] >= k })
			for ; i < len(keys) && okAt(a, keys, i) && keys[i] == k && okAt(a, a.bandDocs, i); i++ {
				if d := a.bandDocs[i]; int(d) < s.docs() && !s.dead[d] {
					out = append(out, s.seg.docIDs[d])
				}
			}
		}
		for _, d := range mem.bands[b][k] {
			if !x.mem.docs[d].dead {
				out = append(out, x.mem.docs[d].id)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Warm makes the index's lists of frequent grams (frequent.go): 26-29 ms for the 100,000-document
// library of make bench, which the first Boilerplate of a check made while the check's other
// queries waited on it.
func (l *folder) Warm() {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.idx != nil { // closed meanwhile: a caller does not wait for Warm
		l.idx.frequent()
	}
}

// Boilerplate reports the share of a library paragraph's indexed grams (its word bigrams, grams,
// winnowed as the index winnows them) that stand in at least minDocs documents of the library of one
// kind, theses or not (kinds.go): text every thesis of a university shares, such as its declaration
// of originality, scores near 1 among theses however many articles the library holds.
func (l *folder) Boilerplate(grams []uint32, minDocs int, thesis bool) float64 {
	grams = similarity.Winnow(grams, winnowWindow)
	l.mu.RLock()
	defer l.mu.RUnlock()
	x := l.idx
	if l.kindsKnown {
		n := len(l.theses)
		if !thesis {
			n = x.live - n
		}
		if n < minDocs {
			return 0 // too few documents of the kind to hold anything minDocs times
		}
	}
	mem := x.mem.tables()
	total, common := 0, 0
	var memDocs map[int32]bool
	postings := make([][]uint32, len(x.segs))
	for _, g := range grams {
		if g == 0 {
			continue
		}
		total++
		// Fewer postings than minDocs cannot hold minDocs documents: most grams stop here, and
		// most of them before their postings are looked up.
		if x.postingsAtMost(g, mem) < minDocs || x.postings(g, mem, postings) < minDocs {
			continue
		}
		key := uint64(g)<<32 | uint64(uint32(minDocs)&^(1<<31))
		if thesis {
			key |= 1 << 31
		}
		l.bpMu.Lock()
		known, ok := l.bp[key]
		l.bpMu.Unlock()
		if ok {
			if known {
				common++
			}
			continue
		}
		// Postings are in paragraph order and a document's paragraphs are consecutive, so distinct
		// documents are counted where the document changes.
		docs := 0
		for i, s := range x.segs {
			last := int64(-1)
			for _, p := range postings[i] {
				if int(p) >= len(s.seg.paraDoc) {
					continue
				}
				d := s.seg.doc(p)
				if int64(d) != last && int(d) < s.docs() && !s.dead[d] && l.ofKind(s.seg.docIDs[d], thesis) {
					last = int64(d)
					docs++
					if docs >= minDocs {
						break
					}
				}
			}
			if docs >= minDocs {
				break
			}
		}
		if docs < minDocs {
			if memDocs == nil {
				memDocs = map[int32]bool{}
			}
			clear(memDocs)
			for _, q := range mem.grams[g] {
				if d := x.mem.paraDoc[q]; !x.mem.docs[d].dead && !memDocs[d] && l.ofKind(x.mem.docs[d].id, thesis) {
					memDocs[d] = true
					if docs+len(memDocs) >= minDocs {
						break
					}
				}
			}
			docs += len(memDocs)
		}
		if docs >= minDocs {
			common++
		}
		l.bpMu.Lock()
		keep(l.bp, 1<<16, key, docs >= minDocs)
		l.bpMu.Unlock()
	}
	if total == 0 {
		return 0
	}
	return float64(common) / float64(total)
}
