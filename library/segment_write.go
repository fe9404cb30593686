package library

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"unsafe"

	"thesischeck/similarity"
)

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

// bytes gives b to the buffer at most a buffer's size at a time: bufio writes a slice longer than
// its free space straight through when it holds nothing, and the file's writes after it would
// start off the multiples of segBuffer that make the page cache's folios whole 2 MiB ones.
func (w *segWriter) bytes(b []byte) {
	for w.err == nil && len(b) > 0 {
		k := min(len(b), w.w.Size())
		_, w.err = w.w.Write(b[:k])
		w.n += k
		b = b[k:]
	}
}

// segBuffer is the size of a segment writer's buffer, and so of its writes to the file: 2 MiB, at
// multiples of 2 MiB, put a segment just written into the page cache in folios of 2 MiB, which a
// check's reads map whole (see adviseHuge). A 100,000-document library compacted so had 608 of its
// index's 610 MiB mapped in huge pages right after, against 100 MiB written in pieces of 1 MiB,
// and its 309-page thesis's checks took 0.975 of the time of the other's (12 alternated pairs,
// quartiles 0.941-0.998); the index rewritten by dd in pieces of 2 MiB and of 1 MiB, 0.964 (six
// rounds of three checks).
const segBuffer = 2 << 20

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
	run(w, vs)
	w.pad()
}

func (w *segWriter) u64s(vs []uint64) {
	run(w, vs)
	w.pad()
}

// run writes vs as they lie in memory, which is how a segment is read (in place, in the
// machine's byte order: see parseSegment). Encoding them value by value, 4 KiB at a time, took 10.9
// of 372 s of CPU importing 100,000 documents, most of it in the merges, which rewrite every
// posting and hold the import up while they run.
func run[T uint32 | uint64](w *segWriter, vs []T) {
	if len(vs) > 0 {
		w.bytes(unsafe.Slice((*byte)(unsafe.Pointer(&vs[0])), len(vs)*int(unsafe.Sizeof(vs[0]))))
	}
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
	bandRuns []int         // the ends of runs of bands in order (see sortBands), or nil
	blocks   [4][][]uint32 // by block value → paragraphs in order
	grams    func(emit func(g uint32, paras []uint32)) error
	nGrams   int
	nPost    int
}

type bandEntry struct {
	key uint64
	doc uint32
}

func compareBands(a, b bandEntry) int {
	if c := cmp.Compare(a.key, b.key); c != 0 {
		return c
	}
	return cmp.Compare(a.doc, b.doc)
}

// sortBands sorts bands by key and document. runs, when not nil, are the ends of runs already in
// that order (a merge's segments, their documents renumbered in order): they are merged, where
// sorting the whole took 5.1 of 372 s of CPU importing 100,000 documents, nearly all in merges.
func sortBands(bands []bandEntry, runs []int) []bandEntry {
	if runs != nil {
		bands = mergeRuns(bands, runs)
	}
	if !slices.IsSortedFunc(bands, compareBands) { // no runs, or one out of order: not a segment written here
		slices.SortFunc(bands, compareBands)
	}
	return bands
}

// mergeRuns merges the runs of bands that end at runs, pairwise.
func mergeRuns(bands []bandEntry, runs []int) []bandEntry {
	spare := make([]bandEntry, len(bands))
	for len(runs) > 1 {
		var next []int
		start := 0
		for i := 0; i < len(runs); i += 2 {
			if i+1 == len(runs) { // the odd run out moves as it is
				copy(spare[start:], bands[start:runs[i]])
				next = append(next, runs[i])
				break
			}
			mergeBands(spare[start:runs[i+1]], bands[start:runs[i]], bands[runs[i]:runs[i+1]])
			start = runs[i+1]
			next = append(next, start)
		}
		bands, spare, runs = spare, bands, next
	}
	return bands
}

// mergeBands merges the sorted a and b into out, as long as both.
func mergeBands(out, a, b []bandEntry) {
	i, j := 0, 0
	for k := range out {
		if j == len(b) || i < len(a) && compareBands(a[i], b[j]) <= 0 {
			out[k] = a[i]
			i++
		} else {
			out[k] = b[j]
			j++
		}
	}
}

// writeSegment writes src to dir/name through a temporary file, synced before it is renamed, so a
// crash leaves either no file or a whole one.
func writeSegment(dir, name string, src *segSource) error {
	tmp := filepath.Join(dir, name+".tmp")
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	sum := &blockSummer{w: f, block: segBlock}
	w := &segWriter{f: f, w: bufio.NewWriterSize(sum, segBuffer)}
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
	src.bands = sortBands(src.bands, src.bandRuns)
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
// postings, and the counts of the prefix table are known only at the end: the keys, the offsets
// and the postings go to temporary files beside ptmp as the grams come, and are appended after the
// table. Kept in memory, the keys and offsets of a merge at 100,000 documents (13 million grams)
// were 106 MB of an import's peak. It returns the errors of the temporary files and src; w keeps
// its own in w.err.
func writeGrams(w *segWriter, ptmp, name string, src *segSource) error {
	var spools [3]*spool // keys, offsets, postings
	for i, ext := range []string{".keys", ".offsets", ""} {
		sp, err := newSpool(ptmp + ext)
		if err != nil {
			return err
		}
		defer sp.remove()
		spools[i] = sp
	}
	keys, offs, posts := spools[0], spools[1], spools[2]
	prefix := make([]uint32, prefixSize)
	var total uint32
	grams := 0
	gerr := src.grams(func(g uint32, paras []uint32) {
		prefix[g>>16+1]++
		keys.put(g)
		offs.put(total)
		grams++
		total += uint32(len(paras))
		run(&posts.w, paras)
	})
	offs.put(total)
	for i := 1; i < prefixSize; i++ {
		prefix[i] += prefix[i-1]
	}
	if gerr == nil && (grams != src.nGrams || int(total) != src.nPost) {
		gerr = fmt.Errorf("segment %s: %d grams and %d postings, expected %d and %d", name, grams, total, src.nGrams, src.nPost)
	}
	if gerr != nil {
		return gerr
	}
	w.u32s(prefix)
	for _, sp := range spools {
		if err := sp.appendTo(w); err != nil {
			return err
		}
		if sp != posts {
			w.pad()
		}
	}
	return nil
}

// spool is a section of uint32s written to a temporary file, to be appended to a segment later.
type spool struct {
	path string
	w    segWriter
	buf  []uint32 // values put, not yet written
}

func newSpool(path string) (*spool, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &spool{path: path, w: segWriter{f: f, w: bufio.NewWriterSize(f, 1<<20)}, buf: make([]uint32, 0, 1024)}, nil
}

func (s *spool) put(v uint32) {
	if s.buf = append(s.buf, v); len(s.buf) == cap(s.buf) {
		run(&s.w, s.buf)
		s.buf = s.buf[:0]
	}
}

// appendTo writes what was put to w and closes the file.
func (s *spool) appendTo(w *segWriter) error {
	run(&s.w, s.buf)
	s.buf = s.buf[:0]
	err := s.w.err
	if err == nil {
		err = s.w.w.Flush()
	}
	if err == nil {
		_, err = s.w.f.Seek(0, 0)
	}
	if err == nil && w.err == nil {
		var n int64
		n, w.err = io.Copy(w.w, s.w.f) // through the buffer, so that the pages are checksummed
		w.n += int(n)
	}
	// The file is read back whole and then removed: a failing close loses nothing, but says the
	// file system is in trouble.
	if cerr := s.w.f.Close(); err == nil {
		err = cerr
	}
	s.w.f = nil
	return err
}

// remove deletes the file, closing it if appendTo did not.
func (s *spool) remove() {
	if s.w.f != nil {
		s.w.f.Close()
	}
	os.Remove(s.path)
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

// radixBits is the digit of sortBits's passes: three passes over 32 bits, with 2,048 counters
// (16 KiB) and as many places written to at a time, which the caches hold.
const radixBits = 11

// sortByGram sorts gram << 32 | paragraph pairs whose paragraphs are in increasing order (the order
// they are made in), in a radix sort of the grams: stable, so the paragraphs stay in order within a
// gram. The 912,549 pairs of 1,000 documents: about 12 ms, where slices.Sort took about 90 ms at
// the end of every import (pprof of the segment build, and timers in it).
func sortByGram(pairs []uint64) []uint64 {
	sorted, _ := sortBits(pairs, nil, 32, 32)
	return sorted
}

// sortBits sorts pairs by the keyBits bits from bit from up (the bits above them are zero), in a
// stable radix sort with spare as scratch space (grown as needed). It returns the sorted pairs and
// the other buffer, each of them either pairs or spare.
func sortBits(pairs, spare []uint64, from, keyBits int) (sorted, other []uint64) {
	if uint64(len(pairs)) > math.MaxUint32 {
		panic("library: sortBits of more than 2^32 pairs") // segments number postings in 32 bits
	}
	spare = slices.Grow(spare[:0], len(pairs))[:len(pairs)]
	for keyBits > 0 {
		n := min(keyBits, 2*radixBits)
		pairs, spare = sortDigits(pairs, spare, from, n)
		from, keyBits = from+n, keyBits-n
	}
	return pairs, spare
}

// sortDigits is sortBits of one or two digits, spare as long as pairs. It counts both digits' values
// in one read of the pairs, in counters of 32 bits. A count pass per digit, in counters of 64 bits,
// took 1.61 of 14.73 s of CPU in the four checks of a 313-page thesis against 100,000 documents
// that benchgen -probe makes. Each digit's counters are a variable of their own: through a pointer
// to an array of both, the compiler read a counter back after every store into spare, and the sort
// took longer than before.
func sortDigits(pairs, spare []uint64, from, keyBits int) (sorted, other []uint64) {
	const mask = 1<<radixBits - 1
	var c0, c1 [1 << radixBits]uint32
	s0, s1 := uint(from), uint(from+radixBits)
	if keyBits <= radixBits {
		for _, p := range pairs {
			c0[p>>s0&mask]++
		}
	} else {
		for _, p := range pairs {
			c0[p>>s0&mask]++
			c1[p>>s1&mask]++
		}
	}
	var o0, o1 uint32
	for i := range c0 {
		n0, n1 := c0[i], c1[i]
		c0[i], c1[i] = o0, o1
		o0, o1 = o0+n0, o1+n1
	}
	for _, p := range pairs {
		k := p >> s0 & mask
		spare[c0[k]] = p
		c0[k]++
	}
	if keyBits <= radixBits {
		return spare, pairs
	}
	for _, p := range spare {
		k := p >> s1 & mask
		pairs[c1[k]] = p
		c1[k]++
	}
	return pairs, spare
}

// dropped marks, in a merge's paragraph map, a paragraph of a removed document.
const dropped = ^uint32(0)

// mergeArrays gathers the small arrays of segs into one source: document ids, SimHashes, bands and
// block lists of the documents not removed (dead[i][d]: segment i's document d is removed).
// Paragraph numbers move by bases[i] for a segment without removed documents; remap[i] is nil
// then, else it gives each of segment i's paragraphs its new number, or dropped.
func mergeArrays(segs []*segment, dead [][]bool) (src *segSource, bases []uint32, remap [][]uint32) {
	src = newSource()
	bases = make([]uint32, len(segs))
	remap = make([][]uint32, len(segs))
	for i, s := range segs {
		a := &s.seg
		bases[i] = uint32(len(src.sims))
		if !slices.Contains(dead[i], true) {
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
			src.bandRuns = append(src.bandRuns, len(src.bands))
			src.nPost += len(a.postings)
			continue
		}
		m := make([]uint32, len(a.sims))
		docs := make([]uint32, len(a.docIDs)) // new document numbers, dropped for removed ones
		for d := range a.docIDs {
			first, end := a.docFirst[d], a.docFirst[d+1]
			if dead[i][d] {
				docs[d] = dropped
				for p := first; p < end; p++ {
					m[p] = dropped
				}
				continue
			}
			nd := uint32(len(src.docIDs))
			docs[d] = nd
			src.docIDs = append(src.docIDs, a.docIDs[d])
			for p := first; p < end; p++ {
				m[p] = uint32(len(src.sims))
				src.sims = append(src.sims, a.sims[p])
				src.paraDoc = append(src.paraDoc, nd)
			}
			src.docFirst = append(src.docFirst, uint32(len(src.sims)))
			src.sigs = append(src.sigs, a.sigs[d*sigWords:(d+1)*sigWords]...)
		}
		for j, k := range a.bandKeys {
			if nd := docs[a.bandDocs[j]]; nd != dropped {
				src.bands = append(src.bands, bandEntry{k, nd})
			}
		}
		src.bandRuns = append(src.bandRuns, len(src.bands))
		remap[i] = m
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
					if remap[i] == nil {
						ps = append(ps, p+bases[i])
					} else if q := remap[i][p]; q != dropped {
						ps = append(ps, q)
					}
				}
			}
			if len(ps) > 0 {
				src.blocks[b][k] = ps
			}
		}
	}
	return src, bases, remap
}

// mergeSegments writes one segment holding the documents of segs in order, but those dead marks
// removed (dead[i][d] for segment i's document d): their index entries, skipped by every query, go
// at the merge. Postings are streamed from the mappings: the merge holds the small arrays in memory,
// never the postings.
func mergeSegments(dir, name string, segs []*segment, dead [][]bool) error {
	for _, s := range segs {
		err := s.seg.sums.all(s.release)
		s.release(s.data)
		if err != nil {
			return fmt.Errorf("index %s: %w", s.name, err)
		}
	}
	src, bases, remap := mergeArrays(segs, dead)
	for _, s := range segs {
		s.release(s.data)
	}
	m := &gramMerge{segs: segs, bases: bases, remap: remap}
	// With removed documents, a gram counts only if a live paragraph holds it, and only live
	// postings count: the postings are read once more for it (the header comes before them).
	if slices.ContainsFunc(remap, func(r []uint32) bool { return r != nil }) {
		grams, posts, err := m.countLive()
		if err != nil {
			return err
		}
		src.nGrams, src.nPost = grams, posts
	} else {
		src.nGrams = m.countKeys()
	}
	for _, s := range segs {
		s.release(s.data)
	}
	src.grams = m.each
	return writeSegment(dir, name, src)
}

// gramMerge walks the distinct grams of several segments in order (a merge of their sorted key
// arrays), with each segment's postings moved to their numbers in the merged segment.
type gramMerge struct {
	segs  []*segment
	bases []uint32   // what segment i's document numbers move up by, when none of it is removed
	remap [][]uint32 // segment i's new numbers (dropped for removed ones), or nil
	// A pass's place in each segment (start makes them): its next key, and what it has read and
	// released so far, postings, and gram keys and offsets. The keys and offsets are a sixth of a
	// segment (108 of 688 MB at 100,000 documents), and were held until the end of a merge.
	pos        []int
	postsFreed []uint32
	keysFreed  []int
}

// start begins a pass over the keys.
func (m *gramMerge) start() {
	m.pos = make([]int, len(m.segs))
	m.postsFreed = make([]uint32, len(m.segs))
	m.keysFreed = make([]int, len(m.segs))
}

// free releases the pages a pass has read of segment i, every releaseEvery postings and keys: the
// keys before its position, and the postings before e.
func (m *gramMerge) free(i int, e uint32) {
	s := m.segs[i]
	if e-m.postsFreed[i] >= releaseEvery && m.postsFreed[i] <= e {
		s.release(u32Bytes(s.seg.postings[m.postsFreed[i]:e]))
		m.postsFreed[i] = e
	}
	if p := m.pos[i]; p-m.keysFreed[i] >= releaseEvery {
		s.release(u32Bytes(s.seg.gramKeys[m.keysFreed[i]:p]))
		s.release(u32Bytes(s.seg.gramOff[m.keysFreed[i]:p]))
		m.keysFreed[i] = p
	}
}

// nextKey is the smallest gram key not yet walked.
func (m *gramMerge) nextKey() (uint32, bool) {
	var min uint32
	found := false
	for i, s := range m.segs {
		if m.pos[i] < len(s.seg.gramKeys) {
			if k := s.seg.gramKeys[m.pos[i]]; !found || k < min {
				min, found = k, true
			}
		}
	}
	return min, found
}

// live appends postings ps of segment i that are live, moved to their new numbers, to buf.
func (m *gramMerge) live(buf []uint32, i int, ps []uint32) []uint32 {
	if m.remap[i] == nil {
		for _, p := range ps {
			buf = append(buf, p+m.bases[i])
		}
		return buf
	}
	for _, p := range ps {
		if int(p) < len(m.remap[i]) && m.remap[i][p] != dropped {
			buf = append(buf, m.remap[i][p])
		}
	}
	return buf
}

// postings returns segment i's postings of the gram at its position, checked against its file.
func (m *gramMerge) postings(i int) ([]uint32, uint32, error) {
	a := &m.segs[i].seg
	st, e := a.gramOff[m.pos[i]], a.gramOff[m.pos[i]+1]
	if st > e || e > uint32(len(a.postings)) {
		return nil, 0, fmt.Errorf("segment %s: %w", m.segs[i].name, errFormat)
	}
	return a.postings[st:e], e, nil
}

// countKeys is the number of distinct grams, every document being kept.
func (m *gramMerge) countKeys() int {
	m.start()
	n := 0
	for {
		k, ok := m.nextKey()
		if !ok {
			return n
		}
		for i, s := range m.segs {
			if m.pos[i] < len(s.seg.gramKeys) && s.seg.gramKeys[m.pos[i]] == k {
				m.pos[i]++
				m.free(i, 0)
			}
		}
		n++
	}
}

// countLive is the number of grams a live paragraph holds and of their live postings.
func (m *gramMerge) countLive() (grams, posts int, err error) {
	m.start()
	var buf []uint32
	for {
		k, ok := m.nextKey()
		if !ok {
			return grams, posts, nil
		}
		n := 0
		for i, s := range m.segs {
			if m.pos[i] < len(s.seg.gramKeys) && s.seg.gramKeys[m.pos[i]] == k {
				ps, e, err := m.postings(i)
				if err != nil {
					return 0, 0, err
				}
				buf = m.live(buf[:0], i, ps)
				n += len(buf)
				m.pos[i]++
				m.free(i, e)
			}
		}
		if n > 0 {
			grams++
		}
		posts += n
	}
}

// each emits every gram with its live postings, releasing what it has read as it goes.
func (m *gramMerge) each(emit func(uint32, []uint32)) error {
	m.start()
	var buf []uint32
	for {
		k, ok := m.nextKey()
		if !ok {
			return nil
		}
		buf = buf[:0]
		for i, s := range m.segs {
			a := &s.seg
			if m.pos[i] < len(a.gramKeys) && a.gramKeys[m.pos[i]] == k {
				ps, e, err := m.postings(i)
				if err != nil {
					return err
				}
				buf = m.live(buf, i, ps)
				m.pos[i]++
				m.free(i, e)
			}
		}
		if len(buf) > 0 {
			emit(k, buf)
		}
	}
}
