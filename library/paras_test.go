package library

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// proseDocs writes n documents of three paragraphs of prose each and returns the folder.
func proseDocs(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i < n; i++ {
		writeDoc(t, dir, fmt.Sprintf("d%02d.txt", i), fmt.Sprintf("Document %d", i),
			prose[i%len(prose)], prose[(i+1)%len(prose)], fmt.Sprintf("%s (%d)", prose[(i+2)%len(prose)], i))
	}
	return dir
}

// everyParagraph reads every document's paragraphs whole and one by one, checks that both ways
// agree, and returns them by document path.
func everyParagraph(t *testing.T, l *Library) map[string][]Paragraph {
	t.Helper()
	out := map[string][]Paragraph{}
	for _, d := range list(t, l) {
		ps, err := l.Paragraphs(d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != d.Paragraphs || len(ps) == 0 {
			t.Fatalf("%s: %d paragraphs read, %d listed", d.Path, len(ps), d.Paragraphs)
		}
		// Asked last first: ParagraphsAt answers in the order asked.
		var refs []ParaRef
		for i := len(ps) - 1; i >= 0; i-- {
			refs = append(refs, ParaRef{d.ID, i})
		}
		got, err := l.ParagraphsAt(refs)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range refs {
			if !reflect.DeepEqual(got[i], ps[r.Para]) {
				t.Fatalf("%s paragraph %d read by ParagraphsAt differs from the document's", d.Path, r.Para)
			}
		}
		after := fmt.Sprintf("document %d paragraph %d:", d.ID, len(ps))
		if _, err := l.ParagraphsAt([]ParaRef{{d.ID, 0}, {d.ID, len(ps)}}); !errors.Is(err, errNoParagraph) || !strings.Contains(err.Error(), after) {
			t.Errorf("%s: paragraph after the last: %v, want errNoParagraph naming %q", d.Path, err, after)
		}
		out[filepath.Base(d.Path)] = ps
	}
	return out
}

func storeFiles(t *testing.T, dir string) []string {
	t.Helper()
	names := globFiles(t, dir, "paras-*.dat")
	for i := range names {
		names[i] = filepath.Base(names[i])
	}
	return names
}

// Paragraphs live in the store, not in library.db, and read back the same whole or one at a time,
// writable or read-only, after reopening.
func TestParagraphStore(t *testing.T) {
	dir := t.TempDir()
	l := openLib(t, dir, nil)
	add(t, l, AddOptions{}, proseDocs(t, 8))
	want := everyParagraph(t, l)
	d3 := want["d03.txt"]
	if len(want) != 8 || d3[len(d3)-1].Text != prose[5]+" (3)" {
		t.Fatalf("read back %d documents; d03's last paragraph %q", len(want), d3[len(d3)-1].Text)
	}
	if len(d3[len(d3)-1].Tokens) == 0 {
		t.Fatal("no tokens stored")
	}
	l.Close()
	db, err := os.ReadFile(filepath.Join(dir, "library.db"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(db, []byte(prose[3][:60])) {
		t.Error("library.db holds paragraph text")
	}
	if got := storeFiles(t, dir); !reflect.DeepEqual(got, []string{"paras-1.dat"}) {
		t.Errorf("store files %v", got)
	}
	for _, ro := range []bool{true, false} {
		l = openLib(t, dir, &Options{ReadOnly: ro})
		if got := everyParagraph(t, l); !reflect.DeepEqual(got, want) {
			t.Errorf("read-only %v: paragraphs differ after reopening", ro)
		}
		l.Close()
	}
}

// What an import killed after writing its records but before committing them left at the end of
// the store is ignored by readers and cut off by the next writer, whose records follow the last
// committed ones.
func TestParagraphStoreTail(t *testing.T) {
	dir := t.TempDir()
	docs := proseDocs(t, 6)
	l := openLib(t, dir, nil)
	add(t, l, AddOptions{}, filepath.Join(docs, "d00.txt"), filepath.Join(docs, "d01.txt"))
	l.Close()
	path := filepath.Join(dir, "paras-1.dat")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(bytes.Repeat([]byte("half a record "), 100))
	f.Close()

	ro := openLib(t, dir, &Options{ReadOnly: true})
	if got := everyParagraph(t, ro); len(got) != 2 {
		t.Errorf("read-only: %d documents", len(got))
	}
	ro.Close()
	l = openLib(t, dir, nil)
	if st2, _ := os.Stat(path); st2.Size() != st.Size() {
		t.Errorf("store of %d bytes after a writable open, want %d", st2.Size(), st.Size())
	}
	add(t, l, AddOptions{}, docs)
	if got := everyParagraph(t, l); len(got) != 6 {
		t.Errorf("%d documents after adding the rest", len(got))
	}
	l.Close()
}

// A damaged record is an error naming the store, never wrong text; a store shorter than the library
// says stops Open with a message naming it.
func TestParagraphStoreDamage(t *testing.T) {
	dir := t.TempDir()
	l := openLib(t, dir, nil)
	add(t, l, AddOptions{}, proseDocs(t, 2))
	docs := list(t, l)
	l.Close()
	path := filepath.Join(dir, "paras-1.dat")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("Tidal flats"))
	if i < 0 {
		t.Fatal("no paragraph text in the store")
	}
	data[i] = 't'
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	l = openLib(t, dir, &Options{ReadOnly: true})
	bad := 0
	for _, d := range docs {
		if _, err := l.Paragraphs(d.ID); err != nil {
			bad++
		}
	}
	if bad != 1 {
		t.Errorf("%d documents unreadable whole, want the one with the damaged paragraph", bad)
	}
	bad = 0
	for _, d := range docs {
		for p := 0; p < d.Paragraphs; p++ {
			_, err := l.ParagraphsAt([]ParaRef{{d.ID, p}})
			if err != nil {
				bad++
				if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "paras-1.dat") {
					t.Errorf("damaged paragraph: %v", err)
				}
			}
		}
	}
	if bad != 1 {
		t.Errorf("%d paragraphs unreadable, want the damaged one", bad)
	}
	// Cut while open: the documents past the cut fail to read, with an error naming the store.
	if err := os.Truncate(path, int64(len(data)/2)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Paragraphs(docs[len(docs)-1].ID); err == nil || !strings.Contains(err.Error(), "paras-1.dat") {
		t.Errorf("reading past the end of a cut store: %v", err)
	}
	l.Close()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	l = openLib(t, dir, nil)
	for _, d := range docs {
		if err := l.Remove(d.ID); err != nil {
			t.Errorf("removing %s with a damaged paragraph: %v", d.Path, err)
		}
	}
	l.Close()

	if err := os.Truncate(path, int64(len(data)/2)); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{true, false} {
		_, err := Open(dir, &Options{ReadOnly: ro})
		if err == nil || !strings.Contains(err.Error(), "paras-1.dat") || !strings.Contains(err.Error(), "damaged") {
			t.Errorf("read-only %v: opening a library with a cut store: %v", ro, err)
		}
	}
}

// Once removed documents are half of the store, it is rewritten without them; the documents left
// read back the same, and a store file that is not the library's (a compaction killed before or
// after its commit) is deleted by the next writable Open.
func TestParagraphStoreCompaction(t *testing.T) {
	dir := t.TempDir()
	always := &Options{CompactMin: 1} // compact stores of any size
	l := openLib(t, dir, always)
	res := add(t, l, AddOptions{}, proseDocs(t, 6))
	before, _ := os.Stat(filepath.Join(dir, "paras-1.dat"))
	if err := l.Remove(res.Added[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := storeFiles(t, dir); !reflect.DeepEqual(got, []string{"paras-1.dat"}) {
		t.Errorf("after removing one of six: %v", got)
	}
	want := everyParagraph(t, l)
	delete(want, "d01.txt")
	delete(want, "d02.txt")
	delete(want, "d03.txt")
	if err := l.Remove(res.Added[1].ID, res.Added[2].ID, res.Added[3].ID); err != nil {
		t.Fatal(err)
	}
	if got := storeFiles(t, dir); !reflect.DeepEqual(got, []string{"paras-2.dat"}) {
		t.Fatalf("after removing four of six: %v", got)
	}
	after, _ := os.Stat(filepath.Join(dir, "paras-2.dat"))
	if after.Size() <= 0 || after.Size()*2 > before.Size() {
		t.Errorf("store of %d bytes after compaction, %d before", after.Size(), before.Size())
	}
	if got := everyParagraph(t, l); !reflect.DeepEqual(got, want) {
		t.Error("paragraphs differ after compaction")
	}
	add(t, l, AddOptions{}, proseDocs(t, 1)) // different paths, same content as d00: one new document
	l.Close()

	for _, stray := range []string{"paras-1.dat", "paras-3.dat"} {
		os.WriteFile(filepath.Join(dir, stray), []byte("left by a compaction"), 0o644)
	}
	ro := openLib(t, dir, &Options{ReadOnly: true})
	if got := everyParagraph(t, ro); len(got) != 3 {
		t.Errorf("read-only after compaction: %d documents", len(got))
	}
	ro.Close()
	l = openLib(t, dir, nil)
	defer l.Close()
	if got := storeFiles(t, dir); !reflect.DeepEqual(got, []string{"paras-2.dat"}) {
		t.Errorf("after a writable open: %v", got)
	}
	if got := everyParagraph(t, l); len(got) != 3 {
		t.Errorf("after reopening: %d documents", len(got))
	}
}

// Compact, asked for by the user, rewrites the store as soon as it holds any removed document's
// records, where a removal waits until they are half of it; the documents left read the same.
func TestCompactReclaimsTheStore(t *testing.T) {
	dir := t.TempDir()
	l := openLib(t, dir, nil) // a store of a few KB: removals never compact it (CompactMin)
	defer l.Close()
	res := add(t, l, AddOptions{}, proseDocs(t, 6))
	if _, err := l.Compact(); err != nil { // nothing removed: nothing to do
		t.Fatal(err)
	}
	if got := storeFiles(t, dir); !reflect.DeepEqual(got, []string{"paras-1.dat"}) {
		t.Fatalf("compacted with nothing removed: %v", got)
	}
	before, _ := os.Stat(filepath.Join(dir, "paras-1.dat"))
	if err := l.Remove(res.Added[0].ID); err != nil {
		t.Fatal(err)
	}
	want := everyParagraph(t, l)
	if got := storeFiles(t, dir); !reflect.DeepEqual(got, []string{"paras-1.dat"}) {
		t.Fatalf("a removal of one of six compacted: %v", got)
	}
	if _, err := l.Compact(); err != nil {
		t.Fatal(err)
	}
	if got := storeFiles(t, dir); !reflect.DeepEqual(got, []string{"paras-2.dat"}) {
		t.Fatalf("after Compact: %v", got)
	}
	after, _ := os.Stat(filepath.Join(dir, "paras-2.dat"))
	if after.Size() >= before.Size()*9/10 {
		t.Errorf("store of %d bytes after one of six documents went, %d before", after.Size(), before.Size())
	}
	if got := everyParagraph(t, l); !reflect.DeepEqual(got, want) {
		t.Error("paragraphs differ after compaction")
	}
}

// toVersion2 turns a library into what format version 2 wrote: records of the version 3 form,
// values without checksums, no counts of documents, an unframed store (the frames stay, as bytes
// nothing points at) and no index segment it names (version 2's segments had no checksums; they are
// made again from fp).
func toVersion2(t *testing.T, dir string) {
	t.Helper()
	toVersion3(t, dir)
	db, err := bolt.Open(filepath.Join(dir, "library.db"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketMeta, bucketDocs, bucketSHA, bucketLoc, bucketFP} {
			b := tx.Bucket(name)
			kv := map[string][]byte{}
			b.ForEach(func(k, v []byte) error {
				if string(name) == "meta" && string(k) == "version" {
					return nil
				}
				u, err := unseal(k, v)
				if err != nil {
					t.Fatalf("%s %q: %v", name, k, err)
				}
				if string(name) == "ploc" {
					c, err := decodeLoc(u, true)
					if err != nil {
						t.Fatal(err)
					}
					c.off, c.head = c.off+c.head, 0
					var e encoder
					e.uvarint(uint64(c.off))
					e.uvarint(uint64(len(c.lens)))
					for _, n := range c.lens {
						e.uvarint(uint64(n))
					}
					for _, s := range c.crcs {
						e.u32(s)
					}
					u = e.b
				}
				kv[string(k)] = slices.Clone(u)
				return nil
			})
			for k, v := range kv {
				if err := b.Put([]byte(k), v); err != nil {
					return err
				}
			}
		}
		m := tx.Bucket(bucketMeta)
		return errors.Join(m.Put(keyVersion, []byte("2")), m.Delete(keyDocCount), m.Delete(keyTemplateCount),
			m.Delete(keyDFSum), m.Delete(keySegments))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// toVersion1 turns a library into what format version 1 wrote: paragraphs in bucket paras, no
// store.
func toVersion1(t *testing.T, dir string) {
	t.Helper()
	l := openLib(t, dir, nil)
	all := map[uint64][]Paragraph{}
	for _, d := range list(t, l) {
		ps, err := l.Paragraphs(d.ID)
		if err != nil {
			t.Fatal(err)
		}
		all[d.ID] = ps
	}
	l.Close()
	toVersion2(t, dir)
	db, err := bolt.Open(filepath.Join(dir, "library.db"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for id, ps := range all {
			var e encoder
			e.uvarint(uint64(len(ps)))
			for _, p := range ps {
				e.paragraphV3(p)
			}
			if err := tx.Bucket(bucketParas).Put(idKey(id), e.b); err != nil {
				return err
			}
		}
		m := tx.Bucket(bucketMeta)
		return errors.Join(tx.DeleteBucket(bucketLoc), m.Put([]byte("version"), []byte("1")),
			m.Delete(keyParasFile), m.Delete(keyParasEnd), m.Delete(keyParasDead))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	store, _ := filepath.Glob(filepath.Join(dir, "paras-*.dat"))
	for _, f := range store {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
}

// A library written by format version 1 reads read-only as it is; opened for writing it is upgraded
// to the current version, its documents moved to the store; removal and word counts work after.
func TestVersion1Library(t *testing.T) {
	dir := t.TempDir()
	docs := proseDocs(t, 5)
	l := openLib(t, dir, nil)
	add(t, l, AddOptions{}, filepath.Join(docs, "d00.txt"), filepath.Join(docs, "d01.txt"), filepath.Join(docs, "d02.txt"))
	want := everyParagraph(t, l)
	l.Close()
	toVersion1(t, dir)

	ro := openLib(t, dir, &Options{ReadOnly: true})
	if got := everyParagraph(t, ro); !reflect.DeepEqual(got, want) {
		t.Error("version 1, read-only: paragraphs differ")
	}
	ro.Close()
	if got := storeFiles(t, dir); len(got) != 0 {
		t.Errorf("a read-only open made %v", got)
	}

	l = openLib(t, dir, &Options{MinIDFParagraphs: 1})
	defer l.Close()
	add(t, l, AddOptions{}, docs)
	got := everyParagraph(t, l)
	if len(got) != 5 || !reflect.DeepEqual(got["d01.txt"], want["d01.txt"]) {
		t.Errorf("after adding to a version 1 library: %d documents", len(got))
	}
	if version, err := readVersion(folderOf(l).db); err != nil || version != formatVersionNum {
		t.Errorf("version %d (%v) after a writable open", version, err)
	}
	list := list(t, l)
	if err := l.Remove(list[0].ID, list[4].ID); err != nil { // one of each kind
		t.Fatal(err)
	}
	weights(t, l)
	wordCountsAgree(t, l, "version 1 library after removals", true)
	if got := everyParagraph(t, l); len(got) != 3 {
		t.Errorf("%d documents after removing two of five", len(got))
	}
}

// A library from a newer version is refused, read-only or not, before anything is written.
func TestNewerVersion(t *testing.T) {
	dir := t.TempDir()
	l := openLib(t, dir, nil)
	folderOf(l).db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyVersion, seal(keyVersion, []byte(strconv.Itoa(formatVersionNum+1))))
	})
	l.Close()
	for _, ro := range []bool{true, false} {
		if _, err := Open(dir, &Options{ReadOnly: ro}); !errors.Is(err, ErrVersion) {
			t.Errorf("read-only %v: %v, want ErrVersion", ro, err)
		}
	}
}

// A library written by format version 2 (no checksums, no frames) is read as it is by a read-only
// open, and library check says it cannot tell damage in it; a writable open upgrades it: the same
// documents, paragraphs and candidates, every value sealed, the store framed, nothing damaged.
func TestVersion2Upgrade(t *testing.T) {
	dir := t.TempDir()
	docs := proseDocs(t, 4)
	l := openLib(t, dir, nil)
	add(t, l, AddOptions{}, filepath.Join(docs, "d00.txt"), filepath.Join(docs, "d01.txt"))
	add(t, l, AddOptions{Template: true}, filepath.Join(docs, "d02.txt"))
	wantList, wantParas, wantCands := list(t, l), everyParagraph(t, l), probeAll(t, l)
	l.Close()
	toVersion2(t, dir)

	ro := openLib(t, dir, &Options{ReadOnly: true})
	if got := list(t, ro); !reflect.DeepEqual(got, wantList) || !reflect.DeepEqual(probeAll(t, ro), wantCands) {
		t.Errorf("version 2, read-only: %+v", got)
	}
	if d, tm := ro.Counts(); d != 3 || tm != 1 {
		t.Errorf("version 2 counts %d documents, %d templates", d, tm)
	}
	ro.Close()
	rep, err := Check(dir, nil)
	if err != nil || rep.Damaged() || rep.Version != 2 || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "no checksums") {
		t.Fatalf("check of a version 2 library: %v %+v", err, rep)
	}

	l = openLib(t, dir, nil)
	if v, err := readVersion(folderOf(l).db); err != nil || v != formatVersionNum {
		t.Errorf("version %d (%v) after a writable open", v, err)
	}
	if got := list(t, l); !reflect.DeepEqual(got, wantList) {
		t.Errorf("after the upgrade: %+v, want %+v", got, wantList)
	}
	if !reflect.DeepEqual(everyParagraph(t, l), wantParas) || !reflect.DeepEqual(probeAll(t, l), wantCands) {
		t.Error("after the upgrade the paragraphs or candidates differ")
	}
	add(t, l, AddOptions{}, filepath.Join(docs, "d03.txt"))
	l.Close()
	if rep, err := Check(dir, nil); err != nil || rep.Damaged() || rep.Version != formatVersionNum || rep.Documents != 4 {
		t.Errorf("check after the upgrade: %v %+v", err, rep)
	}
}
