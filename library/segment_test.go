package library

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"

	"thesischeck/internal/synth"
	"thesischeck/similarity"
)

// probeAll looks up every paragraph of every document and returns the candidates of each: the
// index answers the same whichever segments, merges or rebuilds it went through.
func probeAll(t *testing.T, l *Library) map[ParaRef][]Candidate {
	t.Helper()
	out := map[ParaRef][]Candidate{}
	for _, d := range list(t, l) {
		ps, err := l.Paragraphs(d.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range ps {
			all := l.Candidates(similarity.Grams(p.Tokens), similarity.SimHash(p.Tokens), 3, 1, 0)
			best := l.Candidates(similarity.Grams(p.Tokens), similarity.SimHash(p.Tokens), 3, 1, 3)
			if want := all[:min(3, len(all))]; !reflect.DeepEqual(best, want) {
				t.Fatalf("document %d paragraph %d: the best 3 are %v, want the first 3 of all: %v", d.ID, i, best, want)
			}
			out[ParaRef{d.ID, i}] = all
		}
	}
	return out
}

// globFiles lists the files of dir that match pattern.
func globFiles(t *testing.T, dir, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSegmentsSurviveMergesRemovalAndDamage(t *testing.T) {
	c, err := synth.Load("")
	if err != nil {
		t.Fatal(err)
	}
	files := t.TempDir()
	var batches [][]string
	for i := 0; i < 6; i++ {
		var batch []string
		for j := 0; j < 3; j++ {
			n := i*3 + j
			p := filepath.Join(files, "d"+string(rune('a'+n))+".txt")
			if err := synth.WriteTXT(p, c.Document(n, 4)); err != nil {
				t.Fatal(err)
			}
			batch = append(batch, p)
		}
		batches = append(batches, batch)
	}
	dir := t.TempDir()
	l, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		if res, err := l.AddFiles(context.Background(), b, AddOptions{}, nil); err != nil || len(res.Added) != len(b) {
			t.Fatalf("add: %v %+v", err, res)
		}
	}
	if n := len(globFiles(t, dir, "*.idx")); n < 1 || n > 3 {
		t.Errorf("%d segment files after 6 imports, want 1 to 3 (merged as they grow)", n)
	}
	removed := list(t, l)[4].ID
	if err := l.Remove(removed); err != nil {
		t.Fatal(err)
	}
	want := probeAll(t, l)
	for r, cs := range want {
		self := false
		for _, c := range cs {
			if c.Doc == removed {
				t.Fatalf("paragraph %v finds removed document %d", r, removed)
			}
			self = self || c.ParaRef == r
		}
		if !self {
			t.Errorf("paragraph %v does not find itself", r)
		}
	}
	docs, paras := l.Stats()
	l.Close()

	check := func(name string, readOnly bool) {
		t.Helper()
		l, err := Open(dir, &Options{ReadOnly: readOnly})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer l.Close()
		if d, p := l.Stats(); d != docs || p != paras {
			t.Errorf("%s: stats %d, %d; want %d, %d", name, d, p, docs, paras)
		}
		if got := probeAll(t, l); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: candidates differ from before", name)
		}
	}
	check("reopen read-only", true)

	// A damaged segment (here: truncated) and a missing one are rebuilt from the stored fingerprints.
	segs := globFiles(t, dir, "*.idx")
	if err := os.Truncate(segs[0], 100); err != nil {
		t.Fatal(err)
	}
	check("damaged segment", false)
	segs = globFiles(t, dir, "*.idx")
	if err := os.Remove(segs[len(segs)-1]); err != nil {
		t.Fatal(err)
	}
	check("missing segment", false)
	if len(globFiles(t, dir, "*.idx")) == 0 {
		t.Error("a writable open did not write the rebuilt index")
	}
	// The temporary files of a killed import are deleted: the segment's and its spooled sections'.
	var strays []string
	for _, ext := range []string{"", ".postings", ".postings.keys", ".postings.offsets"} {
		stray := filepath.Join(dir, "seg-0000000000000063-0000000000000064.idx.tmp"+ext)
		if err := os.WriteFile(stray, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		strays = append(strays, stray)
	}
	check("stray files", false)
	for _, stray := range strays {
		if _, err := os.Stat(stray); !os.IsNotExist(err) {
			t.Errorf("stray temporary index file left: %v", err)
		}
	}
}

// A merge writes, byte for byte, the segment that building from all the documents at once writes.
func TestMergeEqualsBuild(t *testing.T) {
	testMergeEqualsBuild(t, func(int) bool { return false })
}

// A merge leaves removed documents out: it writes, byte for byte, the segment that building from the
// documents not removed writes (one part's only document removed, every third of the others).
func TestMergeDropsRemoved(t *testing.T) {
	testMergeEqualsBuild(t, func(i int) bool { return i == 120 || i%3 == 0 })
}

// Every document removed: the merge writes an empty segment, which opens.
func TestMergeDropsAll(t *testing.T) {
	testMergeEqualsBuild(t, func(int) bool { return true })
}

// testMergeEqualsBuild merges three segments of 300 random documents, those for which removed
// holds marked removed, and compares the result with a segment built from the others.
func testMergeEqualsBuild(t *testing.T, removed func(i int) bool) {
	r := rand.New(rand.NewPCG(7, 11))
	docs := make([]segDoc, 300)
	for i := range docs {
		d := segDoc{id: uint64(i + 1)}
		for j := range d.sig {
			d.sig[j] = r.Uint32()
		}
		for range 1 + r.IntN(12) {
			f := fingerprint{SimHash: r.Uint64()}
			if r.IntN(10) == 0 {
				f.SimHash = 0 // an empty paragraph is in no block list
			}
			for range r.IntN(40) {
				f.Grams = append(f.Grams, uint32(r.IntN(5000))*2654435761) // shared grams, spread over prefixes
			}
			d.fps = append(d.fps, f)
		}
		docs[i] = d
	}
	var live []segDoc
	for i, d := range docs {
		if !removed(i) {
			live = append(live, d)
		}
	}
	dir := t.TempDir()
	if err := buildSegment(dir, "all.idx", live); err != nil {
		t.Fatal(err)
	}
	var parts []*segment
	var dead [][]bool
	at := 0
	for i, part := range [][]segDoc{docs[:120], docs[120:121], docs[121:]} {
		name := fmt.Sprintf("part%d.idx", i)
		if err := buildSegment(dir, name, part); err != nil {
			t.Fatal(err)
		}
		s, err := openSegment(dir, name)
		if err != nil {
			t.Fatal(err)
		}
		defer unmapFile(s.data)
		parts = append(parts, s)
		d := make([]bool, len(part))
		for j := range d {
			d[j] = removed(at + j)
		}
		dead = append(dead, d)
		at += len(part)
	}
	if err := mergeSegments(dir, "merged.idx", parts, dead); err != nil {
		t.Fatal(err)
	}
	all, err := os.ReadFile(filepath.Join(dir, "all.idx"))
	if err != nil {
		t.Fatal(err)
	}
	merged, err := os.ReadFile(filepath.Join(dir, "merged.idx"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(all, merged) {
		t.Errorf("merged segment (%d bytes) differs from the one built at once (%d bytes)", len(merged), len(all))
	}
	s, err := openSegment(dir, "merged.idx")
	if err != nil {
		t.Fatal(err)
	}
	defer unmapFile(s.data)
	if s.docs() != len(live) {
		t.Errorf("merged segment holds %d documents, want %d", s.docs(), len(live))
	}
}

// An import writes segments in the background while it goes on adding documents, and checks run
// meanwhile: at the end the index answers as one built at once does, and every document is in a
// segment.
func TestBackgroundSegments(t *testing.T) {
	c, err := synth.Load("")
	if err != nil {
		t.Fatal(err)
	}
	files := t.TempDir()
	var paths []string
	for n := 0; n < 60; n++ {
		p := filepath.Join(files, fmt.Sprintf("d%02d.txt", n))
		if err := synth.WriteTXT(p, c.Document(n, 3)); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	probe := func(small bool) map[ParaRef][]Candidate {
		var opts *Options
		if small { // a segment every batch or two, each begun while the one before may be running
			opts = &Options{FlushDocs: 4, BatchSize: 3}
		}
		dir := t.TempDir()
		l, err := Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		stop := make(chan struct{})
		queried := make(chan int)
		go func() { // a check beside the import
			n := 0
			for {
				select {
				case <-stop:
					queried <- n
					return
				default:
				}
				for _, d := range list(t, l) {
					if ps, err := l.Paragraphs(d.ID); err == nil && len(ps) > 0 {
						l.Candidates(similarity.Grams(ps[0].Tokens), similarity.SimHash(ps[0].Tokens), 3, 1, 5)
						n++
					}
				}
			}
		}()
		res, err := l.AddFiles(context.Background(), paths, AddOptions{}, nil)
		close(stop)
		n := <-queried
		if err != nil || len(res.Added) != len(paths) {
			t.Fatalf("add: %v, %d added", err, len(res.Added))
		}
		if small && n == 0 {
			t.Error("no query ran during the import")
		}
		folderOf(l).mu.RLock()
		inMem := len(folderOf(l).idx.mem.docs)
		folderOf(l).mu.RUnlock()
		if inMem != 0 {
			t.Errorf("%d documents left out of the segments", inMem)
		}
		return probeAll(t, l)
	}
	want := probe(false)
	if got := probe(true); !reflect.DeepEqual(got, want) {
		t.Error("candidates differ from those of an index built at once")
	}
}

// sortByGram must give what a comparison sort gives for pairs made in paragraph order: grams whose
// every digit occurs, the same gram in many paragraphs and twice in one.
func TestSortByGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 2, 1000, 100_000} {
		var pairs []uint64
		for p := uint64(0); len(pairs) < n; p++ {
			for range rng.IntN(40) {
				g := rng.Uint64() >> 32
				if rng.IntN(4) == 0 {
					g &= 0xff // a few grams shared by many paragraphs
				}
				pairs = append(pairs, g<<32|p)
				if rng.IntN(10) == 0 {
					pairs = append(pairs, g<<32|p)
				}
			}
		}
		pairs = pairs[:n]
		want := slices.Clone(pairs)
		slices.Sort(want)
		if got := sortByGram(pairs); !slices.Equal(got, want) {
			t.Errorf("%d pairs: sortByGram differs from slices.Sort", n)
		}
	}
}

// sortBits must be a stable sort by the key bits for every width its callers use: one to three
// digits in one call (a check's hit counts, a segment's grams) and more, in several (Redis's
// candidates); the bits below the key are left in the order they came in.
func TestSortBitsWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, from := range []int{0, 4, 32} {
		for keyBits := 1; from+keyBits <= 64; keyBits += 1 + keyBits/3 {
			pairs := make([]uint64, 5000)
			for i := range pairs {
				key := rng.Uint64() >> (64 - keyBits)
				if rng.IntN(3) == 0 {
					key &= 0x7ff // many equal keys, and digits above the first all zero
				}
				pairs[i] = key<<from | uint64(i)&(1<<from-1)
			}
			want := slices.Clone(pairs)
			slices.SortStableFunc(want, func(a, b uint64) int { return cmp.Compare(a>>from, b>>from) })
			got, other := sortBits(slices.Clone(pairs), nil, from, keyBits)
			if !slices.Equal(got, want) {
				t.Errorf("from %d, %d key bits: not a stable sort by the key", from, keyBits)
			}
			if len(other) != len(pairs) {
				t.Errorf("from %d, %d key bits: scratch of %d, want %d", from, keyBits, len(other), len(pairs))
			}
		}
	}
}

// mergeRuns merges runs in order into the order a sort gives, with any number of runs, empty ones
// among them, and sortBands sorts what a run out of order leaves unsorted.
func TestSortBands(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, nruns := range []int{1, 2, 3, 5, 8} {
		for _, disorder := range []bool{false, true} {
			var bands []bandEntry
			var runs []int
			for r := 0; r < nruns; r++ {
				run := make([]bandEntry, rng.IntN(40))
				for i := range run {
					// Few keys, so that equal keys meet across runs and the documents decide.
					run[i] = bandEntry{uint64(rng.IntN(8)), uint32(rng.IntN(100))}
				}
				if !disorder || r != nruns/2 {
					slices.SortFunc(run, compareBands)
				}
				bands = append(bands, run...)
				runs = append(runs, len(bands))
			}
			want := slices.Clone(bands)
			slices.SortFunc(want, compareBands)
			if got := mergeRuns(slices.Clone(bands), runs); !disorder && !slices.Equal(got, want) {
				t.Errorf("%d runs merged: %v, want %v", nruns, got, want)
			}
			if got := sortBands(slices.Clone(bands), runs); !slices.Equal(got, want) {
				t.Errorf("%d runs, one out of order %v: %v, want %v", nruns, disorder, got, want)
			}
		}
	}
}

// pagesOf4KiB rewrites a segment file as format versions 3 and 4 wrote it: "TCIDX002", with a
// CRC-32C of each 4 KiB page.
func pagesOf4KiB(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b[:8]) != segMagic {
		t.Fatalf("%s: %q", path, b[:8])
	}
	h := b[8:]
	c := segCounts{binary.LittleEndian.Uint32(h), binary.LittleEndian.Uint32(h[4:]), binary.LittleEndian.Uint32(h[8:]),
		binary.LittleEndian.Uint32(h[12:]), binary.LittleEndian.Uint32(h[16:])}
	out := append([]byte(nil), b[:c.size()]...)
	copy(out, segMagicPages)
	var table []byte
	for p := 0; p < len(out); p += segPageBlock {
		table = binary.LittleEndian.AppendUint32(table, crc32.Checksum(out[p:min(p+segPageBlock, len(out))], crcTable))
	}
	out = binary.LittleEndian.AppendUint32(append(out, table...), crc32.Checksum(table, crcTable))
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A library of format version 4, its segments checksummed by pages of 4 KiB, reads as it did: the
// same candidates, `library check` finds nothing wrong, a byte changed in a page is damage. A
// writable open makes it version 5 and writes new segments by blocks of 1 KiB, read beside
// the old ones.
func TestSegmentsOfVersion4(t *testing.T) {
	dir := t.TempDir()
	l := openLib(t, dir, nil)
	add(t, l, AddOptions{}, proseDocs(t, 6))
	want := probeAll(t, l)
	f := folderOf(l)
	if err := f.update(func(tx *bolt.Tx) error { return f.rec.put(tx, bucketMeta, keyVersion, []byte("4")) }); err != nil {
		t.Fatal(err)
	}
	l.Close()
	segs := globFiles(t, dir, "seg-*.idx")
	if len(segs) == 0 {
		t.Fatal("no segment")
	}
	for _, s := range segs {
		pagesOf4KiB(t, s)
	}
	ro := openLib(t, dir, &Options{ReadOnly: true})
	if got := probeAll(t, ro); !reflect.DeepEqual(got, want) {
		t.Error("read as version 4: other candidates")
	}
	ro.Close()
	if rep, err := Check(dir, nil); err != nil || rep.Damaged() || rep.Version != 4 {
		t.Fatalf("library check of version 4: %v %+v", err, rep)
	}

	// A byte changed in the middle of the last page but one of a segment (postings and the
	// SimHash blocks, which only a check reads) is found.
	damaged := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(damaged, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if rep, err := Check(damaged, nil); err != nil || rep.Damaged() {
		t.Fatalf("library check of the copy: %v %+v", err, rep)
	}
	seg := filepath.Join(damaged, filepath.Base(segs[0]))
	b, err := os.ReadFile(seg)
	if err != nil {
		t.Fatal(err)
	}
	h := b[8:]
	size := segCounts{binary.LittleEndian.Uint32(h), binary.LittleEndian.Uint32(h[4:]), binary.LittleEndian.Uint32(h[8:]),
		binary.LittleEndian.Uint32(h[12:]), binary.LittleEndian.Uint32(h[16:])}.size()
	at := max(segHeader, (size/segPageBlock-1)*segPageBlock+segPageBlock/2)
	b[at] ^= 0x40
	if err := os.WriteFile(seg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if rep, err := Check(damaged, nil); err != nil || !rep.Damaged() {
		t.Errorf("library check of a version 4 segment with byte %d changed: %v %+v", at, err, rep)
	}

	l = openLib(t, dir, &Options{FlushDocs: 1})
	if v, err := readVersion(folderOf(l).db); err != nil || v != formatVersionNum {
		t.Errorf("a writable open left version %d (%v)", v, err)
	}
	more := t.TempDir()
	for i := 0; i < 3; i++ {
		writeDoc(t, more, fmt.Sprintf("n%d.txt", i), fmt.Sprintf("New %d", i), prose[(i+3)%len(prose)]+fmt.Sprintf(" (new %d)", i), prose[i%len(prose)])
	}
	if res := add(t, l, AddOptions{}, more); len(res.Added) != 3 {
		t.Fatalf("added %+v", res)
	}
	wantMore := probeAll(t, l)
	l.Close()
	magics := map[string]int{}
	for _, s := range globFiles(t, dir, "seg-*.idx") {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		magics[string(b[:8])]++
	}
	if magics[segMagic] == 0 {
		t.Errorf("segments after an import: %v, want a new one %s", magics, segMagic)
	}
	ro = openLib(t, dir, &Options{ReadOnly: true})
	defer ro.Close()
	if got := probeAll(t, ro); !reflect.DeepEqual(got, wantMore) {
		t.Error("segments of both kinds: other candidates")
	}
	if rep, err := Check(dir, nil); err != nil || rep.Damaged() || rep.Version != formatVersionNum {
		t.Errorf("library check of version 5 with both kinds of segments: %v %+v", err, rep)
	}
}

// writeSizes records the size of each write it is given.
type writeSizes []int

func (r *writeSizes) Write(b []byte) (int, error) {
	*r = append(*r, len(b))
	return len(b), nil
}

// A segment reaches its file in whole buffers, each so at a multiple of the buffer's size, whatever
// the sizes written to the segment: bufio writes a slice longer than its free space straight
// through (segBuffer says why the sizes matter).
func TestSegWriterWritesWholeBuffers(t *testing.T) {
	const size = 64
	var got writeSizes
	w := &segWriter{w: bufio.NewWriterSize(&got, size)}
	w.bytes(make([]byte, 2*size+3)) // longer than the buffer, the buffer empty
	w.u32(1)
	w.bytes(make([]byte, size-1))
	w.u64s(make([]uint64, 20))
	w.bytes(make([]byte, 5*size)) // longer than the buffer, the buffer partly full
	w.u64(2)
	if err := errors.Join(w.err, w.w.Flush()); err != nil {
		t.Fatal(err)
	}
	total := 0
	for i, n := range got {
		total += n
		if n != size && i != len(got)-1 {
			t.Errorf("write %d of %d: %d bytes, want %d (the writes: %v)", i, len(got), n, size, got)
		}
	}
	if total != w.n {
		t.Errorf("%d bytes written, segWriter counted %d", total, w.n)
	}
}
