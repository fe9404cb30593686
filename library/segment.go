package library

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
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

	pc *pageCheck // nil for a segment without checksums (format version 2)
}

const (
	segMagic     = "TCIDX002"
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
// platform ThesisCheck ships for. name is for errors. The header and the per-document arrays are
// checked against their page checksums here; other pages when they are read (segcheck.go).
func parseSegment(name string, b []byte) (segArrays, error) {
	var a segArrays
	if len(b) < segHeader || (string(b[:8]) != segMagic && string(b[:8]) != segMagicOld) {
		return a, errFormat
	}
	h := b[8:]
	c := segCounts{binary.LittleEndian.Uint32(h), binary.LittleEndian.Uint32(h[4:]), binary.LittleEndian.Uint32(h[8:]),
		binary.LittleEndian.Uint32(h[12:]), binary.LittleEndian.Uint32(h[16:])}
	size := uint64(c.size())
	if c.nsim > c.paras {
		return a, errFormat
	}
	if string(b[:8]) == segMagic {
		if size+uint64(pageTableSize(int(size))) != uint64(len(b)) {
			return a, errFormat
		}
		table := b[size : len(b)-4]
		if crc32.Checksum(table, crcTable) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
			return a, fmt.Errorf("page table: %w", errChecksum)
		}
		a.pc = newPageCheck(name, b[:size], table)
		if !a.pc.bytes(unsafe.Pointer(&b[0]), segHeader) {
			return a, a.pc.failed()
		}
	} else if size != uint64(len(b)) {
		return a, errFormat
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
		return a, a.pc.failed()
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

// releaseEvery is how many postings a merge reads from a segment before it releases their pages.
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

// postingsOf returns the local paragraphs holding gram g, or nil (also when a page fails its
// checksum: the segment keeps the error, see pageCheck.failed).
func (a *segArrays) postingsOf(g uint32) []uint32 {
	if !okRange(a, a.gramPrefix, int(g>>16), int(g>>16)+2) {
		return nil
	}
	lo, hi := a.gramPrefix[g>>16], a.gramPrefix[g>>16+1]
	if lo > hi || hi > uint32(len(a.gramKeys)) || !okRange(a, a.gramKeys, int(lo), int(hi)) {
		return nil
	}
	keys := a.gramKeys[lo:hi]
	i, ok := slices.BinarySearch(keys, g)
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

// segDoc is what a segment is built from: one document's id, signature and fingerprints.
type segDoc struct {
	id  uint64
	sig similarity.Signature
	fps []fingerprint
}

// segWriter writes a segment file section by section.
type segWriter struct {
	f   *os.File
	w   *bufio.Writer
	n   int
	err error
}

func (w *segWriter) bytes(b []byte) {
	if w.err == nil {
		_, w.err = w.w.Write(b)
		w.n += len(b)
	}
}

func (w *segWriter) pad() {
	var z [8]byte
	w.bytes(z[:pad8(w.n)-w.n])
}

// u32 and u64 encode into bufio's free space (AvailableBuffer): an array of their own escaped to
// the heap, an allocation per value written, 2.7 million for a segment of 1,000 documents.
func (w *segWriter) u32(v uint32) {
	w.bytes(binary.LittleEndian.AppendUint32(w.w.AvailableBuffer(), v))
}

func (w *segWriter) u64(v uint64) {
	w.bytes(binary.LittleEndian.AppendUint64(w.w.AvailableBuffer(), v))
}

func (w *segWriter) u32s(vs []uint32) {
	for _, v := range vs {
		w.u32(v)
	}
	w.pad()
}

func (w *segWriter) u64s(vs []uint64) {
	for _, v := range vs {
		w.u64(v)
	}
	w.pad()
}

// segSource is a segment being written: documents in order, with everything but the gram
// postings already in memory (they are a few bytes a paragraph); grams are streamed by a callback
// that calls emit once per gram in increasing order.
type segSource struct {
	docIDs   []uint64
	docFirst []uint32
	sims     []uint64
	paraDoc  []uint32
	sigs     []uint32
	bands    []bandEntry
	blocks   [4][][]uint32 // by block value → paragraphs in order
	grams    func(emit func(g uint32, paras []uint32)) error
	nGrams   int
	nPost    int
}

type bandEntry struct {
	key uint64
	doc uint32
}

// writeSegment writes src to dir/name through a temporary file, synced before it is renamed, so a
// crash leaves either no file or a whole one.
func writeSegment(dir, name string, src *segSource) error {
	tmp := filepath.Join(dir, name+".tmp")
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	sum := &pageSummer{w: f}
	w := &segWriter{f: f, w: bufio.NewWriterSize(sum, 1<<20)}
	nsim := 0
	for _, ps := range src.blocks[0] {
		nsim += len(ps)
	}
	c := segCounts{uint32(len(src.docIDs)), uint32(len(src.sims)), uint32(src.nGrams), uint32(src.nPost), uint32(nsim)}
	w.bytes([]byte(segMagic))
	for _, v := range []uint32{c.docs, c.paras, c.grams, c.postings, c.nsim} {
		w.u32(v)
	}
	w.bytes(make([]byte, segHeader-w.n))
	slices.SortFunc(src.bands, func(a, b bandEntry) int {
		if a.key != b.key {
			if a.key < b.key {
				return -1
			}
			return 1
		}
		return int(a.doc) - int(b.doc)
	})
	// Large sections are written from where they lie rather than gathered into new arrays first: a
	// merge of a big library holds hundreds of megabytes already.
	w.u64s(src.docIDs)
	w.u64s(src.sims)
	for _, e := range src.bands {
		w.u64(e.key)
	}
	w.pad()
	w.u32s(src.docFirst)
	w.u32s(src.paraDoc)
	w.u32s(src.sigs)
	for _, e := range src.bands {
		w.u32(e.doc)
	}
	w.pad()

	if err := writeGrams(w, tmp+".postings", name, src); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	w.pad()
	writeBlocks(w, src)
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if w.err == nil && w.n != c.size() {
		w.err = fmt.Errorf("segment %s: wrote %d bytes, expected %d", name, w.n, c.size())
	}
	if w.err == nil {
		w.err = sum.finish()
	}
	if w.err == nil {
		w.err = f.Sync()
	}
	if err := f.Close(); w.err == nil {
		w.err = err
	}
	if w.err == nil {
		w.err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if w.err != nil {
		os.Remove(tmp)
		return w.err
	}
	return syncDir(dir)
}

// writeGrams writes the gram sections. Three of them (prefix table, keys, offsets) come before the
// postings, so the postings go to a second temporary file, ptmp, while the small arrays are
// gathered, then are appended. It returns the errors of ptmp and src; w keeps its own in w.err.
func writeGrams(w *segWriter, ptmp, name string, src *segSource) error {
	pf, err := os.Create(ptmp)
	if err != nil {
		return err
	}
	defer os.Remove(ptmp)
	pw := &segWriter{f: pf, w: bufio.NewWriterSize(pf, 1<<20)}
	prefix := make([]uint32, prefixSize)
	gkeys := make([]uint32, 0, src.nGrams)
	goff := make([]uint32, 0, src.nGrams+1)
	var total uint32
	gerr := src.grams(func(g uint32, paras []uint32) {
		prefix[g>>16+1]++
		gkeys = append(gkeys, g)
		goff = append(goff, total)
		total += uint32(len(paras))
		for _, p := range paras {
			pw.u32(p)
		}
	})
	goff = append(goff, total)
	for i := 1; i < prefixSize; i++ {
		prefix[i] += prefix[i-1]
	}
	if gerr == nil && (len(gkeys) != src.nGrams || int(total) != src.nPost) {
		gerr = fmt.Errorf("segment %s: %d grams and %d postings, expected %d and %d", name, len(gkeys), total, src.nGrams, src.nPost)
	}
	if gerr == nil {
		gerr = pw.err
	}
	if gerr == nil {
		gerr = pw.w.Flush()
	}
	if gerr != nil {
		pf.Close() // gerr says what went wrong; the file is removed
		return gerr
	}
	w.u32s(prefix)
	w.u32s(gkeys)
	w.u32s(goff)
	if _, err := pf.Seek(0, 0); err == nil && w.err == nil {
		var n int64
		n, w.err = io.Copy(w.w, pf) // through the buffer, so that the pages are checksummed
		w.n += int(n)
	} else if w.err == nil {
		w.err = err
	}
	// The postings file is read back whole and then removed: a failing close loses nothing, but
	// says the file system is in trouble.
	if err := pf.Close(); w.err == nil {
		w.err = err
	}
	return nil
}

// writeBlocks writes the SimHash block sections: the offsets of every bucket, then the paragraphs.
func writeBlocks(w *segWriter, src *segSource) {
	var boff []uint32
	var bparas []uint32
	for b := 0; b < 4; b++ {
		o := uint32(0)
		for k := 0; k < blockBuckets; k++ {
			boff = append(boff, o)
			o += uint32(len(src.blocks[b][k]))
		}
		boff = append(boff, o)
	}
	w.u32s(boff)
	for b := 0; b < 4; b++ {
		for _, ps := range src.blocks[b] {
			bparas = append(bparas, ps...)
		}
	}
	w.u32s(bparas)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// newSource starts a segment source for docs documents.
func newSource() *segSource {
	s := &segSource{docFirst: []uint32{0}}
	for b := range s.blocks {
		s.blocks[b] = make([][]uint32, blockBuckets)
	}
	return s
}

// addDoc appends a document's per-document and per-paragraph data (not its grams).
func (s *segSource) addDoc(id uint64, sig *similarity.Signature, sims []uint64) {
	d := uint32(len(s.docIDs))
	s.docIDs = append(s.docIDs, id)
	s.sigs = append(s.sigs, sig[:]...)
	for _, k := range sig.BandKeys() {
		s.bands = append(s.bands, bandEntry{k, d})
	}
	for _, sh := range sims {
		p := uint32(len(s.sims))
		s.sims = append(s.sims, sh)
		s.paraDoc = append(s.paraDoc, d)
		if sh != 0 {
			for b, k := range similarity.Blocks(sh) {
				s.blocks[b][k] = append(s.blocks[b][k], p)
			}
		}
	}
	s.docFirst = append(s.docFirst, uint32(len(s.sims)))
}

// buildSegment writes a segment of documents held in memory. The gram pairs are made and sorted
// on one core while the per-document arrays are made on the other: an import waits for its last
// segment with nothing else to do.
func buildSegment(dir, name string, docs []segDoc) error {
	sorted := make(chan []uint64, 1)
	go func() {
		n := 0
		for _, d := range docs {
			for _, f := range d.fps {
				n += len(f.Grams)
			}
		}
		pairs := make([]uint64, 0, n) // gram << 32 | paragraph
		var para uint32
		for _, d := range docs {
			for _, f := range d.fps {
				for _, g := range f.Grams {
					pairs = append(pairs, uint64(g)<<32|uint64(para))
				}
				para++
			}
		}
		sorted <- slices.Compact(sortByGram(pairs))
	}()
	src := newSource()
	for _, d := range docs {
		sims := make([]uint64, len(d.fps))
		for i, f := range d.fps {
			sims[i] = f.SimHash
		}
		src.addDoc(d.id, &d.sig, sims)
	}
	pairs := <-sorted
	for i, p := range pairs {
		if i == 0 || p>>32 != pairs[i-1]>>32 {
			src.nGrams++
		}
	}
	src.nPost = len(pairs)
	src.grams = func(emit func(uint32, []uint32)) error {
		var buf []uint32
		for i := 0; i < len(pairs); {
			g := uint32(pairs[i] >> 32)
			buf = buf[:0]
			for ; i < len(pairs) && uint32(pairs[i]>>32) == g; i++ {
				buf = append(buf, uint32(pairs[i]))
			}
			emit(g, buf)
		}
		return nil
	}
	return writeSegment(dir, name, src)
}

// radixBits is the digit of sortByGram's passes: three passes over 32 bits, with 2,048 counters
// (16 KiB) and as many places written to at a time, which the caches hold.
const radixBits = 11

// sortByGram sorts gram << 32 | paragraph pairs whose paragraphs are in increasing order (the order
// they are made in), in a radix sort of the grams: stable, so the paragraphs stay in order within a
// gram. The 912,549 pairs of 1,000 documents: about 12 ms, where slices.Sort took about 90 ms at
// the end of every import (pprof of the segment build, and timers in it).
func sortByGram(pairs []uint64) []uint64 {
	tmp := make([]uint64, len(pairs))
	var count [1 << radixBits]int
	for shift := 32; shift < 64; shift += radixBits {
		clear(count[:])
		for _, p := range pairs {
			count[p>>shift&(1<<radixBits-1)]++
		}
		pos := 0
		for i, c := range count {
			count[i] = pos
			pos += c
		}
		for _, p := range pairs {
			d := p >> shift & (1<<radixBits - 1)
			tmp[count[d]] = p
			count[d]++
		}
		pairs, tmp = tmp, pairs
	}
	return pairs
}

// mergeArrays gathers the small arrays of segs into one source: document ids, SimHashes, bands and
// block lists, paragraph numbers moved by bases[i] for segment i.
func mergeArrays(segs []*segment) (src *segSource, bases []uint32) {
	src = newSource()
	bases = make([]uint32, len(segs))
	for i, s := range segs {
		a := &s.seg
		bases[i] = uint32(len(src.sims))
		docBase := uint32(len(src.docIDs))
		src.docIDs = append(src.docIDs, a.docIDs...)
		for _, f := range a.docFirst[1:] {
			src.docFirst = append(src.docFirst, f+bases[i])
		}
		src.sims = append(src.sims, a.sims...)
		for _, d := range a.paraDoc {
			src.paraDoc = append(src.paraDoc, d+docBase)
		}
		src.sigs = append(src.sigs, a.sigs...)
		for j, k := range a.bandKeys {
			src.bands = append(src.bands, bandEntry{k, a.bandDocs[j] + docBase})
		}
		src.nPost += len(a.postings)
	}
	// Block lists are made at their final size: appending would leave up to half of each spare.
	for b := 0; b < 4; b++ {
		for k := 0; k < blockBuckets; k++ {
			n := 0
			for _, s := range segs {
				n += len(s.seg.block(b, uint16(k)))
			}
			if n == 0 {
				continue
			}
			ps := make([]uint32, 0, n)
			for i, s := range segs {
				for _, p := range s.seg.block(b, uint16(k)) {
					ps = append(ps, p+bases[i])
				}
			}
			src.blocks[b][k] = ps
		}
	}
	return src, bases
}

// mergeSegments writes one segment holding the documents of segs in order. Postings are streamed
// from the mappings: the merge holds the small arrays in memory, never the postings.
func mergeSegments(dir, name string, segs []*segment) error {
	for _, s := range segs {
		err := s.seg.pc.all()
		releasePages(s.data, s.data)
		if err != nil {
			return err
		}
	}
	src, bases := mergeArrays(segs)
	for _, s := range segs {
		releasePages(s.data, s.data)
	}
	// Distinct grams: a merge of the sorted key arrays.
	pos := make([]int, len(segs))
	nextKey := func() (uint32, bool) {
		var min uint32
		found := false
		for i, s := range segs {
			if pos[i] < len(s.seg.gramKeys) {
				if k := s.seg.gramKeys[pos[i]]; !found || k < min {
					min, found = k, true
				}
			}
		}
		return min, found
	}
	for {
		k, ok := nextKey()
		if !ok {
			break
		}
		src.nGrams++
		for i, s := range segs {
			if pos[i] < len(s.seg.gramKeys) && s.seg.gramKeys[pos[i]] == k {
				pos[i]++
			}
		}
	}
	for _, s := range segs {
		releasePages(s.data, s.data)
	}
	src.grams = func(emit func(uint32, []uint32)) error {
		clear(pos)
		var buf []uint32
		released := make([]uint32, len(segs)) // postings read and released so far, by segment
		for {
			k, ok := nextKey()
			if !ok {
				return nil
			}
			buf = buf[:0]
			for i, s := range segs {
				a := &s.seg
				if pos[i] < len(a.gramKeys) && a.gramKeys[pos[i]] == k {
					st, e := a.gramOff[pos[i]], a.gramOff[pos[i]+1]
					if st > e || e > uint32(len(a.postings)) {
						return fmt.Errorf("segment %s: %w", s.name, errFormat)
					}
					for _, p := range a.postings[st:e] {
						buf = append(buf, p+bases[i])
					}
					pos[i]++
					if e-released[i] >= releaseEvery && released[i] <= e {
						releasePages(s.data, u32Bytes(a.postings[released[i]:e]))
						released[i] = e
					}
				}
			}
			emit(k, buf)
		}
	}
	return writeSegment(dir, name, src)
}
