package library

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
	"unsafe"

	"thesischeck/similarity"
)

// segment is an immutable index file (format in format.go), mapped into memory: lookups read the
// page cache, so opening a library costs no parsing and its memory is only what checks touch.
type segment struct {
	name   string
	lastID uint64 // the largest document id it covers (documents removed before it was written included)
	data   []byte // the mapping; nil for an empty segment
	seg    segArrays
	dead   []bool // by local document: removed from the library
	freq   frequentGrams
}

// segArrays are the sections of a segment file, as slices over the mapping.
type segArrays struct {
	docIDs     []uint64
	sims       []uint64
	bandKeys   []uint64
	docFirst   []uint32
	paraDoc    []uint32
	sigs       []uint32
	bandDocs   []uint32
	gramPrefix []uint32
	gramKeys   []uint32
	gramOff    []uint32
	postings   []uint32
	blockOff   []uint32 // 4 × (blockBuckets+1)
	blockParas []uint32 // 4 × nsim

	sums *blockCheck // nil for a segment without checksums (format version 2)
}

const (
	segMagic     = "TCIDX003"
	segHeader    = 64
	blockBuckets = 1 << 16
	prefixSize   = 1<<16 + 1
	sigWords     = similarity.NumHashes
)

// segCounts are the sizes a header records; every section's length follows from them.
type segCounts struct {
	docs, paras, grams, postings, nsim uint32
}

func (c segCounts) sections() []int {
	d, p, g, n, s := int(c.docs), int(c.paras), int(c.grams), int(c.postings), int(c.nsim)
	bands := d * similarity.Bands
	return []int{
		d * 8, p * 8, bands * 8, // u64 sections first, so every section stays aligned
		(d + 1) * 4, p * 4, d * sigWords * 4, bands * 4, prefixSize * 4, g * 4, (g + 1) * 4, n * 4,
		4 * (blockBuckets + 1) * 4, 4 * s * 4,
	}
}

func pad8(n int) int { return (n + 7) &^ 7 }

func (c segCounts) size() int {
	n := segHeader
	for _, s := range c.sections() {
		n += pad8(s)
	}
	return n
}

// parseSegment checks a mapped file against its header and slices it into sections. The arrays
// are read in place, so the file's byte order must be the machine's: little-endian, as on every
// platform ThesisCheck ships for. The header and the per-document arrays are checked against their
// page checksums here; other pages when they are read (segcheck.go). Its errors do not name the
// file: the caller does, once.
func parseSegment(b []byte) (segArrays, error) {
	var a segArrays
	var block int // of the page table; 0 when there is none
	switch string(b[:min(len(b), 8)]) {
	case segMagic:
		block = segBlock
	case segMagicPages:
		block = segPageBlock
	case segMagicOld:
	default:
		return a, errFormat
	}
	if len(b) < segHeader {
		return a, errFormat
	}
	h := b[8:]
	c := segCounts{binary.LittleEndian.Uint32(h), binary.LittleEndian.Uint32(h[4:]), binary.LittleEndian.Uint32(h[8:]),
		binary.LittleEndian.Uint32(h[12:]), binary.LittleEndian.Uint32(h[16:])}
	size := uint64(c.size())
	if c.nsim > c.paras {
		return a, errFormat
	}
	if block > 0 {
		if want := size + uint64(blockTableSize(int(size), block)); want != uint64(len(b)) {
			return a, sizeMismatch(len(b), want)
		}
		table := b[size : len(b)-4]
		if crc32.Checksum(table, crcTable) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
			return a, fmt.Errorf("page table: %w", errChecksum)
		}
		a.sums = newBlockCheck(b[:size], table, block)
		if !a.sums.bytes(unsafe.Pointer(&b[0]), segHeader) {
			return a, a.sums.failed()
		}
	} else if size != uint64(len(b)) {
		return a, sizeMismatch(len(b), size)
	}
	off := segHeader
	secs := c.sections()
	next := func() []byte {
		s := b[off : off+secs[0]]
		off += pad8(secs[0])
		secs = secs[1:]
		return s
	}
	a.docIDs, a.sims, a.bandKeys = u64s(next()), u64s(next()), u64s(next())
	a.docFirst, a.paraDoc, a.sigs, a.bandDocs = u32s(next()), u32s(next()), u32s(next()), u32s(next())
	a.gramPrefix, a.gramKeys, a.gramOff, a.postings = u32s(next()), u32s(next()), u32s(next()), u32s(next())
	a.blockOff, a.blockParas = u32s(next()), u32s(next())
	// The arrays that give positions in other arrays are checked once here (they are small or read
	// in order); gram offsets are checked where they are used, so opening stays independent of size.
	if !okRange(&a, a.docIDs, 0, len(a.docIDs)) || !okRange(&a, a.docFirst, 0, len(a.docFirst)) ||
		!okRange(&a, a.gramPrefix, 0, len(a.gramPrefix)) || !okRange(&a, a.blockOff, 0, len(a.blockOff)) {
		return a, a.sums.failed()
	}
	if a.docFirst[0] != 0 || a.docFirst[c.docs] != c.paras || a.gramPrefix[prefixSize-1] != c.grams ||
		a.gramOff[c.grams] != c.postings {
		return a, errFormat
	}
	for i := 0; i < int(c.docs); i++ {
		if a.docFirst[i] > a.docFirst[i+1] || (i > 0 && a.docIDs[i] <= a.docIDs[i-1]) {
			return a, errFormat
		}
	}
	for b := 0; b < 4; b++ {
		o := a.blockOff[b*(blockBuckets+1):][:blockBuckets+1]
		if o[blockBuckets] != c.nsim {
			return a, errFormat
		}
	}
	return a, nil
}

func u64s(b []byte) []uint64 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), len(b)/8)
}

// u32Bytes is the memory of vs as bytes.
func u32Bytes(vs []uint32) []byte {
	if len(vs) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&vs[0])), 4*len(vs))
}

// releaseEvery is how many postings, or gram keys, a merge reads from a segment before it releases
// their pages.
const releaseEvery = 4 << 20 // 16 MB

func u32s(b []byte) []uint32 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), len(b)/4)
}

func (s *segment) docs() int { return len(s.seg.docIDs) }

// last is the largest document id the segment covers.
func (s *segment) last() uint64 {
	if n := len(s.seg.docIDs); n > 0 && s.seg.docIDs[n-1] > s.lastID {
		return s.seg.docIDs[n-1]
	}
	return s.lastID
}
func (s *segment) paras() int { return len(s.seg.sims) }

// release drops b, a part of the mapping, from the process's resident set (releasePages).
func (s *segment) release(b []byte) { releasePages(s.data, b) }

// sizeMismatch is a segment whose size is not what its header says: "library: damaged record"
// told a user nothing of a file cut short.
func sizeMismatch(have int, want uint64) error {
	return fmt.Errorf("%d bytes where its header says %d: the file was cut short or its header is damaged: %w", have, want, ErrDamaged)
}

// postingsOf returns the local paragraphs holding gram g, or nil (also when a page fails its
// checksum: the segment keeps the error, see blockCheck.failed).
func (a *segArrays) postingsOf(g uint32) []uint32 {
	if !okRange(a, a.gramPrefix, int(g>>16), int(g>>16)+2) {
		return nil
	}
	lo, hi := a.gramPrefix[g>>16], a.gramPrefix[g>>16+1]
	if lo > hi || hi > uint32(len(a.gramKeys)) || !okRange(a, a.gramKeys, int(lo), int(hi)) {
		return nil
	}
	keys := a.gramKeys[lo:hi]
	i, ok := searchFrom(keys, g, int(uint64(g&0xFFFF)*uint64(len(keys))>>16))
	if !ok {
		return nil
	}
	k := int(lo) + i
	if !okRange(a, a.gramOff, k, k+2) {
		return nil
	}
	s, e := a.gramOff[k], a.gramOff[k+1]
	if s > e || e > uint32(len(a.postings)) || !okRange(a, a.postings, int(s), int(e)) {
		return nil
	}
	return a.postings[s:e]
}

// searchFrom is slices.BinarySearch of keys (increasing) for g, starting at guess and galloping
// away from it. The keys of a gram prefix are hashes whose low 16 bits spread evenly, so where g's
// low bits put it is within a few places of where it is: one or two cache lines read instead of
// the ten places of a binary search over a bucket of a large segment, each a miss in a mapped file
// (slices.BinarySearch was 5 % of the CPU of a thesis's check against 100,000 documents).
func searchFrom(keys []uint32, g uint32, guess int) (int, bool) {
	n := len(keys)
	if n == 0 {
		return 0, false
	}
	i := min(max(guess, 0), n-1)
	var from, to int // g's place is in keys[from:to+1]
	if keys[i] < g {
		b, step := i+1, 1
		for b < n && keys[b] < g {
			i, b, step = b, b+step, step*2
		}
		from, to = i+1, min(b, n-1)
		if from > to { // every key is below g
			return n, false
		}
	} else {
		a, step := i-1, 1
		for a >= 0 && keys[a] >= g {
			i, a, step = a, a-step, step*2
		}
		from, to = max(a+1, 0), i
	}
	j, ok := slices.BinarySearch(keys[from:to+1], g)
	return from + j, ok
}

func (a *segArrays) block(b int, key uint16) []uint32 {
	o := a.blockOff[b*(blockBuckets+1):]
	s, e := o[key], o[int(key)+1]
	n := uint32(len(a.blockParas) / 4)
	if s > e || e > n {
		return nil
	}
	ps := a.blockParas[b*int(n):][s:e]
	if !okRange(a, ps, 0, len(ps)) {
		return nil
	}
	return ps
}

// sim is paragraph p's SimHash (0 when its page fails).
func (a *segArrays) sim(p uint32) uint64 {
	if !okAt(a, a.sims, int(p)) {
		return 0
	}
	return a.sims[p]
}

// doc is the document of paragraph p (past the documents when its page fails).
func (a *segArrays) doc(p uint32) uint32 {
	if !okAt(a, a.paraDoc, int(p)) {
		return uint32(len(a.docIDs))
	}
	return a.paraDoc[p]
}
