package library

import (
	"errors"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// writeThesis writes a thesis whose front matter (a cover line and decl) comes before its abstract
// and first chapter, as extract recognises it.
func writeThesis(t *testing.T, dir, name, decl string, body ...string) string {
	t.Helper()
	paras := append([]string{"指导教师：王强教授", decl, "摘要", prose[4], "第一章 绪论"}, body...)
	return writeDoc(t, dir, name, "某某大学硕士学位论文", paras...)
}

// The frequency rule counts among documents of one kind: a declaration in 3 of a library's theses
// is boilerplate among theses whatever else the library holds, and text 3 articles share is
// boilerplate among articles, not among theses. Kinds survive a reopen and follow removals.
func TestKinds(t *testing.T) {
	forBackends(t, func(t *testing.T, open func(*Options) *Library) { testKinds(t, open) })
}

// testKinds makes the library of TestKinds and checks its kinds; it returns the check, for a
// library open.
func testKinds(t *testing.T, open func(*Options) *Library) (check func(l *Library, when string, thesisKnown bool)) {
	src := t.TempDir()
	decl := "学位论文原创性声明：本人郑重声明，所呈交的学位论文是本人在导师指导下独立进行研究工作所取得的成果。除文中已经注明引用的内容外，本论文不含任何其他个人或集体已经发表或撰写过的作品成果。"
	shared := prose[5] // in three articles
	l := open(nil)
	var paths []string
	for i, name := range []string{"t1.txt", "t2.txt", "t3.txt"} {
		paths = append(paths, writeThesis(t, src, name, decl, prose[i], prose[(i+1)%4], prose[(i+2)%4], prose[(i+3)%4]))
	}
	for i := 0; i < 6; i++ {
		body := []string{prose[i%4]}
		if i < 3 {
			body = append(body, shared)
		}
		paths = append(paths, writeDoc(t, src, filepath.Join("a", string(rune('a'+i))+".txt"), "Article", body...))
	}
	res := add(t, l, AddOptions{}, paths...)
	if n, known := l.Theses(); n != 3 || !known {
		t.Fatalf("Theses() = %d, %v; want 3, true", n, known)
	}
	for i, d := range res.Added {
		if info, _, _ := l.Doc(d.ID); info.Thesis != (i < 3) || d.Thesis != (i < 3) {
			t.Errorf("%s: Thesis %v (record %v)", d.Path, info.Thesis, d.Thesis)
		}
	}
	seg := segmenter(t)
	dg, sg := seg.Prepare(decl).Grams, seg.Prepare(shared).Grams
	check = func(l *Library, when string, thesisKnown bool) {
		t.Helper()
		if got := l.Boilerplate(dg, 2, true); got < 0.9 {
			t.Errorf("%s: declaration among theses: share %.2f", when, got)
		}
		if got := l.Boilerplate(sg, 3, false); got < 0.9 {
			t.Errorf("%s: text of 3 articles among articles: share %.2f", when, got)
		}
		if !thesisKnown {
			return
		}
		if got := l.Boilerplate(dg, 2, false); got > 0.1 {
			t.Errorf("%s: declaration among articles: share %.2f", when, got)
		}
		if got := l.Boilerplate(sg, 2, true); got > 0.1 {
			t.Errorf("%s: text of 3 articles among theses: share %.2f", when, got)
		}
	}
	check(l, "added", true)
	if err := l.Remove(res.Added[0].ID); err != nil {
		t.Fatal(err)
	}
	if n, _ := l.Theses(); n != 2 {
		t.Errorf("after removing a thesis Theses() = %d, want 2", n)
	}
	check(l, "after a removal", true)
	l.Close()
	l = open(nil)
	if n, known := l.Theses(); n != 2 || !known {
		t.Errorf("reopened: Theses() = %d, %v; want 2, true", n, known)
	}
	check(l, "reopened", true)
	l.Close()
	return check
}

// A folder library made before kinds were recorded has them counted by its first writable open;
// read-only, every document counts as of either kind.
func TestKindsOfAnOlderLibrary(t *testing.T) {
	dir := t.TempDir()
	check := testKinds(t, func(opts *Options) *Library { return openLib(t, dir, opts) })
	db, err := bolt.Open(filepath.Join(dir, "library.db"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketTheses); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Delete(keyKinds)
	})
	if err = errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	l := openLib(t, dir, &Options{ReadOnly: true})
	if n, known := l.Theses(); n != 0 || known {
		t.Errorf("read-only, kinds not recorded: Theses() = %d, %v; want 0, false", n, known)
	}
	check(l, "kinds unknown: every document counts as of either kind", false)
	l.Close()
	l = openLib(t, dir, nil)
	defer l.Close()
	if n, known := l.Theses(); n != 2 || !known {
		t.Errorf("kinds counted at a writable open: Theses() = %d, %v; want 2, true", n, known)
	}
	check(l, "kinds counted", true)
}
