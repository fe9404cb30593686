package library

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// smaps is the value of field (as "Rss:") in /proc/self/smaps for the mapping starting at m[0].
func smaps(t *testing.T, m []byte, field string) string {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	start := fmt.Sprintf("%x-", uintptr(unsafe.Pointer(&m[0])))
	in := false
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		if strings.Contains(line, "-") && !strings.HasSuffix(strings.Fields(line)[0], ":") {
			in = strings.HasPrefix(line, start)
			continue
		}
		if in && strings.HasPrefix(line, field) {
			return strings.TrimSpace(strings.TrimPrefix(line, field))
		}
	}
	t.Fatalf("no %s of the mapping at %s in smaps", field, start)
	return ""
}

// residentKiB is how much of the mapping starting at m[0] is in this process's resident set.
func residentKiB(t *testing.T, m []byte) int {
	kib, err := strconv.Atoi(strings.Fields(smaps(t, m, "Rss:"))[0])
	if err != nil {
		t.Fatal(err)
	}
	return kib
}

// A mapped file asks for huge pages (adviseHuge): smaps shows the advice as VmFlags "hg".
func TestMapFileAdvisesHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skipf("a kernel without transparent huge pages refuses the advice: %v", err)
	}
	path := filepath.Join(t.TempDir(), "seg")
	if err := os.WriteFile(path, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer unmapFile(m)
	if flags := smaps(t, m, "VmFlags:"); !slices.Contains(strings.Fields(flags), "hg") {
		t.Errorf("VmFlags %q: no hg, the mapping was not advised to use huge pages", flags)
	}
}

// A merge's check of a whole segment keeps at most a stretch of it resident at a time: the
// segment's pages, read once, used to stay until its end (300 MiB of a 100,000-document import's
// peak).
func TestCheckAllReleases(t *testing.T) {
	const n = 24 << 20
	data, table := checkedBlocks(n, segBlock)
	path := filepath.Join(t.TempDir(), "seg")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer unmapFile(m)
	s := &segment{data: m}
	most := 0
	err = newBlockCheck(m, table, segBlock).all(func(b []byte) {
		most = max(most, residentKiB(t, m))
		s.release(b)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Fault-around maps up to 64 KiB beside a page read; a stretch is 4 MiB.
	if most > 5<<10 {
		t.Errorf("%d KiB of the %d KiB segment resident while it was checked, want at most a stretch", most, n>>10)
	}
	if after := residentKiB(t, m); after > 1<<10 {
		t.Errorf("%d KiB resident after the check", after)
	}
	if most < 3<<10 {
		t.Errorf("only %d KiB resident at most: the check did not read the segment through the mapping", most)
	}
}

// A merge releases each segment's gram keys, offsets and postings as it walks them: the keys and
// offsets used to stay until the merge's end (a sixth of a segment).
func TestMergeReleasesAsItGoes(t *testing.T) {
	const n = 3 * releaseEvery // keys, and postings: one a gram
	path := filepath.Join(t.TempDir(), "seg")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	var b [4]byte
	put := func(v int) {
		binary.LittleEndian.PutUint32(b[:], uint32(v))
		w.Write(b[:])
	}
	for i := range n { // keys
		put(2 * i)
	}
	for i := range n + 1 { // offsets
		put(i)
	}
	for i := range n { // postings
		put(i % 1000)
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	m, err := mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer unmapFile(m)
	u32 := unsafe.Slice((*uint32)(unsafe.Pointer(&m[0])), len(m)/4)
	s := &segment{data: m, seg: segArrays{gramKeys: u32[:n], gramOff: u32[n : 2*n+1], postings: u32[2*n+1:]}}
	g := &gramMerge{segs: []*segment{s}, bases: []uint32{0}, remap: [][]uint32{nil}}
	const stretch = 3 * 4 * releaseEvery >> 10 // KiB: keys, offsets and postings of releaseEvery grams
	whole := len(m) >> 10

	if keys := g.countKeys(); keys != n {
		t.Fatalf("%d keys counted, want %d", keys, n)
	}
	if kib := residentKiB(t, m); kib > 4*releaseEvery>>10+1<<10 { // the keys of releaseEvery grams
		t.Errorf("%d KiB of %d resident after the keys were counted", kib, whole)
	}
	releasePages(m, m)
	most, grams := 0, 0
	err = g.each(func(k uint32, ps []uint32) {
		if k != uint32(2*grams) || len(ps) != 1 || ps[0] != uint32(grams%1000) {
			t.Fatalf("gram %d: %d %v", grams, k, ps)
		}
		if grams%(1<<20) == 0 {
			most = max(most, residentKiB(t, m))
		}
		grams++
	})
	if err != nil || grams != n {
		t.Fatalf("%d grams, %v", grams, err)
	}
	if most > stretch+1<<10 || most < stretch/4 {
		t.Errorf("%d KiB of %d resident at most while merging, want about %d", most, whole, stretch)
	}
}
