package library

import (
	"fmt"
	"path/filepath"
	"testing"
)

// Compact leaves one segment without the removed documents' entries: the removed document's text
// finds nothing, the others' still find them, and the library checks clean, before and after it is
// opened again. With nothing more removed, a second Compact leaves the segment as it is.
func TestCompact(t *testing.T) {
	src := t.TempDir()
	dir := t.TempDir()
	l := openLib(t, dir, nil)
	add(t, l, AddOptions{}, writeDoc(t, src, "zh.txt", "湿地", prose[0], prose[1]), writeDoc(t, src, "en.txt", "Tides", prose[3], prose[4]))
	add(t, l, AddOptions{}, writeDoc(t, src, "tea.txt", "茶", prose[2], prose[5]))
	docs := list(t, l)
	if len(docs) != 3 {
		t.Fatalf("library holds %d documents, want 3", len(docs))
	}
	if err := l.Remove(docs[1].ID); err != nil {
		t.Fatal(err)
	}
	dropped, err := l.Compact()
	if err != nil {
		t.Fatal(err)
	}
	if dropped != 1 {
		t.Errorf("Compact dropped %d documents' entries, want 1", dropped)
	}
	segs, _ := filepath.Glob(filepath.Join(dir, "seg-*.idx"))
	if len(segs) != 1 {
		t.Fatalf("segment files after Compact: %v, want one", segs)
	}
	seg := segmenter(t)
	find := func(l *Library) {
		t.Helper()
		folderOf(l).mu.RLock()
		n := folderOf(l).idx.segs[0].docs()
		folderOf(l).mu.RUnlock()
		if n != 2 {
			t.Errorf("the segment holds %d documents, want 2", n)
		}
		if got := l.Candidates(seg.Prepare(prose[3]).Grams, 0, -1, 2, 5); len(got) != 0 {
			t.Errorf("the removed document's text finds %v", got)
		}
		for _, p := range []string{prose[1], prose[5]} {
			got := l.Candidates(seg.Prepare(p).Grams, 0, -1, 2, 5)
			if len(got) == 0 {
				t.Errorf("%.20q finds nothing", p)
				continue
			}
			sp, err := l.ParagraphsAt([]ParaRef{got[0].ParaRef})
			if err != nil || sp[0].Text != p {
				t.Errorf("%.20q finds %v first (%v)", p, got[0], err)
			}
		}
	}
	find(l)
	if dropped, err := l.Compact(); err != nil || dropped != 0 {
		t.Fatalf("a second Compact dropped %d, %v; want 0", dropped, err)
	}
	if again, _ := filepath.Glob(filepath.Join(dir, "seg-*.idx")); len(again) != 1 || again[0] != segs[0] {
		t.Errorf("segment files after a second Compact: %v, want %s alone", again, segs[0])
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := Check(dir, nil)
	if err != nil || rep.Damaged() {
		t.Fatalf("library check after Compact: %+v, %v", rep, err)
	}
	l = openLib(t, dir, nil)
	defer l.Close()
	find(l)
}

// An import that makes a quarter of the library or more leaves the index in one segment; a smaller
// one leaves its own beside the others, as tiered merging does. Every document is found after.
func TestLargeImportOneSegment(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	l := openLib(t, dir, &Options{FlushDocs: 8})
	defer l.Close()
	var paths []string
	for i := range 64 {
		paths = append(paths, writeDoc(t, src, fmt.Sprintf("d%02d.txt", i), fmt.Sprintf("Doc %d", i),
			fmt.Sprintf("%s第%d段。", prose[i%4], i), prose[4]))
	}
	f := folderOf(l)
	for _, c := range []struct {
		from, to, segs int
	}{
		{0, 40, 1},  // the whole library: five segments flushed, merged into one
		{40, 44, 2}, // a tenth: its segment stays
		{44, 64, 1}, // a third: one again
	} {
		add(t, l, AddOptions{}, paths[c.from:c.to]...)
		if n := len(f.idx.segs); n != c.segs {
			t.Errorf("after documents %d-%d: %d segments, want %d", c.from, c.to-1, n, c.segs)
		}
		if docs, _ := l.Stats(); docs != c.to {
			t.Errorf("after documents %d-%d: %d documents", c.from, c.to-1, docs)
		}
	}
	// The paragraph every document holds is found in all of them.
	pr := segmenter(t).Prepare(prose[4])
	docs := map[uint64]bool{}
	for _, c := range l.Candidates(pr.Grams, pr.SimHash, 3, 2, 0) {
		docs[c.Doc] = true
	}
	if len(docs) != 64 {
		t.Errorf("the shared paragraph found in %d documents, want 64", len(docs))
	}
}
