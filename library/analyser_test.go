package library

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"thesischeck/similarity"
)

// stampAnalyser writes name as the analyser that made the library's fingerprints.
func stampAnalyser(t *testing.T, dir, name string) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, "library.db"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error {
		return codec{sealed: true}.put(tx, bucketMeta, keyAnalyser, []byte(name))
	}); err != nil {
		t.Fatal(err)
	}
}

func analyserOf(t *testing.T, l *Library) string {
	t.Helper()
	var v []byte
	if err := folderOf(l).view(func(tx *bolt.Tx) error {
		var err error
		v, err = folderOf(l).rec.get(tx, bucketMeta, keyAnalyser)
		v = append([]byte(nil), v...)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return string(v)
}

// TestAnalyserVersion: a library whose fingerprints another text analyser made is refused, never
// searched (a check would find nothing in it); library check names it and library repair makes
// every document's tokens and fingerprints again, after which it answers as before.
func TestAnalyserVersion(t *testing.T) {
	if v := similarity.AnalyserVersion(); !strings.HasPrefix(v, "9-") || v != similarity.AnalyserVersion() {
		t.Fatalf("AnalyserVersion %q: not stable, or without its revision", v)
	}
	dir := t.TempDir()
	docs := proseDocs(t, 3)
	l := openLib(t, dir, nil)
	add(t, l, AddOptions{}, filepath.Join(docs, "d00.txt"), filepath.Join(docs, "d01.txt"), filepath.Join(docs, "d02.txt"))
	if got := analyserOf(t, l); got != similarity.AnalyserVersion() {
		t.Fatalf("a new library is stamped %q, want %q", got, similarity.AnalyserVersion())
	}
	wantList, wantParas, wantCands := list(t, l), everyParagraph(t, l), probeAll(t, l)
	l.Close()

	stampAnalyser(t, dir, "0-00000000")
	for _, ro := range []bool{true, false} {
		if l, err := Open(dir, &Options{ReadOnly: ro}); !errors.Is(err, ErrAnalyser) {
			if err == nil {
				l.Close()
			}
			t.Fatalf("open (read-only %v) of a library of another analyser: %v, want ErrAnalyser", ro, err)
		}
	}
	rep, err := Check(dir, nil)
	if err != nil || !rep.Damaged() || !strings.Contains(rep.Problems[0].What, "0-00000000") {
		t.Fatalf("library check: %v %+v", err, rep)
	}
	before := storeFiles(t, dir)
	fixed, err := Repair(dir, nil)
	if err != nil || !fixed.Repaired || len(fixed.Lost) != 0 {
		t.Fatalf("repair: %v %+v", err, fixed)
	}
	if after := storeFiles(t, dir); reflect.DeepEqual(after, before) {
		t.Errorf("the paragraph store was kept (%v): its tokens are the old analyser's", after)
	}
	l = openLib(t, dir, &Options{ReadOnly: true})
	if got := analyserOf(t, l); got != similarity.AnalyserVersion() {
		t.Errorf("after the repair the library is stamped %q", got)
	}
	if !reflect.DeepEqual(list(t, l), wantList) || !reflect.DeepEqual(everyParagraph(t, l), wantParas) || !reflect.DeepEqual(probeAll(t, l), wantCands) {
		t.Error("after the repair the documents, paragraphs or candidates differ")
	}
	l.Close()
	if rep, err := Check(dir, nil); err != nil || rep.Damaged() {
		t.Errorf("library check after the repair: %v %+v", err, rep)
	}
}

// TestUnstampedLibraryRefused: a library made before fingerprints were stamped was made by the
// analyser of revision 1, which is not this version's: it is refused, library check names it, and
// library repair makes its fingerprints again and stamps it.
func TestUnstampedLibraryRefused(t *testing.T) {
	dir := t.TempDir()
	docs := proseDocs(t, 1)
	l := openLib(t, dir, nil)
	add(t, l, AddOptions{}, filepath.Join(docs, "d00.txt"))
	l.Close()
	db, err := bolt.Open(filepath.Join(dir, "library.db"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Delete(keyAnalyser) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, ro := range []bool{true, false} {
		if l, err := Open(dir, &Options{ReadOnly: ro}); !errors.Is(err, ErrAnalyser) || !strings.Contains(err.Error(), unstampedAnalyser) {
			if err == nil {
				l.Close()
			}
			t.Fatalf("open (read-only %v) of an unstamped library: %v, want ErrAnalyser", ro, err)
		}
	}
	if rep, err := Check(dir, nil); err != nil || !rep.Damaged() || !strings.Contains(rep.Problems[0].What, unstampedAnalyser) {
		t.Fatalf("library check: %v %+v", err, rep)
	}
	if fixed, err := Repair(dir, nil); err != nil || !fixed.Repaired || len(fixed.Lost) != 0 {
		t.Fatalf("repair: %v %+v", err, fixed)
	}
	l = openLib(t, dir, nil)
	if got := analyserOf(t, l); got != similarity.AnalyserVersion() {
		t.Errorf("after the repair the library is stamped %q, want %q", got, similarity.AnalyserVersion())
	}
	l.Close()
}

// TestUnfinishedLibraryNotRefused: a library.db whose creation was cut short (killed after bbolt
// made the file, before the library wrote its meta) is an empty library to a read-only open and to
// library check, as it was before libraries were stamped, not one made by another analyser
// (TestImportSurvivesSIGKILL killed an import at that moment); a writable open makes it anew and
// stamps it.
func TestUnfinishedLibraryNotRefused(t *testing.T) {
	dir := t.TempDir()
	db, err := bolt.Open(filepath.Join(dir, "library.db"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	l, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of an unfinished library: %v", err)
	}
	if docs, err := l.List(); err != nil || len(docs) != 0 {
		t.Errorf("list: %v %v", docs, err)
	}
	l.Close()
	if rep, err := Check(dir, nil); err != nil || rep.Damaged() {
		t.Errorf("library check of an unfinished library: %v %+v", err, rep)
	}
	l = openLib(t, dir, nil)
	if got := analyserOf(t, l); got != similarity.AnalyserVersion() {
		t.Errorf("a writable open stamped it %q, want %q", got, similarity.AnalyserVersion())
	}
	l.Close()
}
