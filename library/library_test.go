package library

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"thesischeck/similarity"
)

// Paragraphs of real prose, Chinese and English, for documents made in the tests.
var prose = []string{
	"湿地被称为城市的肾脏，它能够截留地表径流中的泥沙和污染物，缓解暴雨带来的洪涝压力，并在干旱季节向河道补充水源。与人工修建的排水设施相比，湿地依靠植物根系和微生物完成净化过程，运行成本低，而且可以长期保持稳定。",
	"过去，公共图书馆的主要任务是收藏和出借图书，阅览室里安静地排列着书架和长桌。随着电子资源的普及，读者到馆的目的发生了明显变化：有人来参加讲座和展览，有人来使用自习座位，还有人带着孩子参加亲子阅读活动。",
	"明代中期以后，江南地区的茶叶生产逐渐从自给自足转向面向市场。山区农户在清明前后采摘嫩芽，经过杀青、揉捻和烘焙制成干茶，再由行商收购后运往苏州、杭州等城市的茶行。",
	"Tidal flats look empty at first glance, a wide expanse of grey mud that the sea covers and uncovers twice a day. Yet a single square metre of that mud can hold thousands of small worms, snails and shellfish, which in turn feed the wading birds that gather along the shore.",
	"When movable type arrived in the German city of Mainz in the middle of the fifteenth century, books were still expensive objects copied by hand. Within fifty years printing shops had opened in more than two hundred towns, and the number of books in circulation grew by several orders of magnitude.",
	"Many of these birds are long-distance migrants. A bar-tailed godwit may fly from Alaska to New Zealand without stopping, while other species move in shorter stages along the coasts of East Asia and Australia, resting at a chain of stopover sites.",
}

// writeDoc writes a text document (title line, then paragraphs) and returns its path.
func writeDoc(t *testing.T, dir, name, title string, paras ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	text := title + "\n\n" + strings.Join(paras, "\n\n") + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func openLib(t *testing.T, dir string, opts *Options) *Library {
	t.Helper()
	l, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func add(t *testing.T, l *Library, opts AddOptions, paths ...string) AddResult {
	t.Helper()
	res, err := l.AddFiles(context.Background(), paths, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func ids(docs []DocInfo) []uint64 {
	var out []uint64
	for _, d := range docs {
		out = append(out, d.ID)
	}
	return out
}

func TestAddListRemove(t *testing.T) { forBackends(t, testAddListRemove) }

func testAddListRemove(t *testing.T, open func(*Options) *Library) {
	src := t.TempDir()
	writeDoc(t, src, "a.txt", "湿地", prose[0], prose[1])
	writeDoc(t, src, "sub/b.txt", "Tides", prose[3])
	writeDoc(t, src, "sub/deeper/c.txt", "Printing", prose[4], prose[5], prose[2])
	writeDoc(t, src, ".hidden/d.txt", "Hidden", prose[2]) // hidden folders are skipped
	writeDoc(t, src, "notes.md", "Markdown", prose[2])    // not a format the library reads
	broken := filepath.Join(src, "broken.docx")           // a damaged ZIP
	os.WriteFile(broken, []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00damaged"), 0o644)

	l := open(nil)
	defer l.Close()
	var progress []AddProgress
	res, err := l.AddFiles(context.Background(), []string{src}, AddOptions{}, func(p AddProgress) { progress = append(progress, p) })
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Added) != 3 || len(res.Failed) != 1 || res.Failed[0].Path != broken {
		t.Fatalf("added %d, failed %v; want 3 added and %s failed", len(res.Added), res.Failed, broken)
	}
	if last := progress[len(progress)-1]; last.Done != 4 || last.Total != 4 {
		t.Errorf("last progress %+v, want 4 of 4", last)
	}
	docs := list(t, l)
	want := []struct {
		title string
		paras int
		chars int
	}{
		{"湿地", 3, 2 + len([]rune(prose[0])) + len([]rune(prose[1]))},
		{"Tides", 2, 5 + len([]rune(prose[3]))},
		{"Printing", 4, 8 + len([]rune(prose[4])) + len([]rune(prose[5])) + len([]rune(prose[2]))},
	}
	if len(docs) != len(want) {
		t.Fatalf("List has %d documents, want %d", len(docs), len(want))
	}
	for i, w := range want {
		d := docs[i]
		if !filepath.IsAbs(d.Path) || d.Paragraphs != w.paras || d.Chars != w.chars || d.Template {
			t.Errorf("document %d = %+v, want an absolute path, %d paragraphs, %d chars", i, d, w.paras, w.chars)
		}
		if i > 0 && d.ID <= docs[i-1].ID {
			t.Errorf("List is not in the order of adding: ids %v", ids(docs))
		}
		if time.Since(d.Added) > time.Minute {
			t.Errorf("added time %v", d.Added)
		}
	}
	if docs, paras := l.Stats(); docs != 3 || paras != 9 {
		t.Errorf("Stats = %d documents, %d paragraphs; want 3, 9", docs, paras)
	}
	ps, err := l.Paragraphs(docs[1].ID)
	if err != nil || len(ps) != 2 || ps[1].Text != prose[3] || len(ps[1].Tokens) == 0 {
		t.Fatalf("Paragraphs of %q: %d paragraphs, err %v", docs[1].Title, len(ps), err)
	}

	// Removing an unknown id removes nothing.
	if err := l.Remove(docs[0].ID, 9999); err == nil {
		t.Error("removing an unknown id did not fail")
	}
	if got := ids(list(t, l)); !slices.Equal(got, ids(docs)) {
		t.Errorf("after a failed remove the library holds %v, want %v", got, ids(docs))
	}
	if err := l.Remove(docs[1].ID); err != nil {
		t.Fatal(err)
	}
	if got := ids(list(t, l)); !slices.Equal(got, []uint64{docs[0].ID, docs[2].ID}) {
		t.Errorf("after removing %d the library holds %v", docs[1].ID, got)
	}
	if _, _, err := l.Doc(docs[1].ID); err == nil {
		t.Error("Doc finds a removed document")
	}
	if _, err := l.Paragraphs(docs[1].ID); err == nil {
		t.Error("Paragraphs of a removed document did not fail")
	}
	if docs, paras := l.Stats(); docs != 2 || paras != 7 {
		t.Errorf("Stats after remove = %d, %d; want 2, 7", docs, paras)
	}
}

// The same content is never added twice, whatever the file is called, in one import or another;
// once removed, it can come back.
func TestSameContentNeverTwice(t *testing.T) { forBackends(t, testSameContentNeverTwice) }

func testSameContentNeverTwice(t *testing.T, open func(*Options) *Library) {
	src := t.TempDir()
	a := writeDoc(t, src, "a.txt", "湿地", prose[0], prose[3])
	b := writeDoc(t, src, "copy of a.txt", "湿地", prose[0], prose[3])
	c := writeDoc(t, src, "c.txt", "湿地", prose[0], prose[3]+" ") // one byte more: other content

	l := open(nil)
	defer l.Close()
	res := add(t, l, AddOptions{}, a, b)
	if len(res.Added) != 1 || !slices.Equal(res.Duplicates, []string{b}) {
		t.Fatalf("one import of two equal files: added %d, duplicates %v", len(res.Added), res.Duplicates)
	}
	res = add(t, l, AddOptions{Template: true}, b, a, c)
	if len(res.Added) != 1 || res.Added[0].Path != mustAbs(t, c) || !slices.Equal(res.Duplicates, []string{b, a}) {
		t.Fatalf("second import: added %v, duplicates %v", res.Added, res.Duplicates)
	}
	if n := len(list(t, l)); n != 2 {
		t.Fatalf("library holds %d documents, want 2", n)
	}
	first := list(t, l)[0].ID
	if err := l.Remove(first); err != nil {
		t.Fatal(err)
	}
	if res := add(t, l, AddOptions{}, b); len(res.Added) != 1 || res.Added[0].ID <= first {
		t.Errorf("re-adding removed content: %+v (ids must not be reused)", res)
	}
}

func mustAbs(t *testing.T, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// Everything committed survives a close and a reopen: documents, template flags, paragraphs,
// the indexes (rebuilt from disk), removals, duplicate detection and the id counter.
func TestReopenKeepsEverything(t *testing.T) { forBackends(t, testReopenKeepsEverything) }

func testReopenKeepsEverything(t *testing.T, open func(*Options) *Library) {
	src := t.TempDir()
	p1 := writeDoc(t, src, "one.txt", "One", prose[0], prose[3])
	p2 := writeDoc(t, src, "two.txt", "Two", prose[1], prose[4])
	p3 := writeDoc(t, src, "three.txt", "Three", prose[2])
	tpl := writeDoc(t, src, "template.txt", "Format", prose[5])

	l := open(nil)
	add(t, l, AddOptions{}, p1, p2, p3)
	add(t, l, AddOptions{Template: true}, tpl)
	before := list(t, l)
	if err := l.Remove(before[2].ID); err != nil {
		t.Fatal(err)
	}
	before = list(t, l)
	seg := segmenter(t)
	query := seg.Prepare(prose[4])
	candBefore := l.Candidates(query.Grams, query.SimHash, 3, 2, 0)
	sigBefore := docSig(t, l, before[0].ID)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	for _, ro := range []bool{false, true} {
		l := open(&Options{ReadOnly: ro})
		after := list(t, l)
		if len(after) != len(before) {
			t.Fatalf("read-only %v: %d documents after reopening, want %d", ro, len(after), len(before))
		}
		for i := range before {
			b, a := before[i], after[i]
			if a.ID != b.ID || a.Path != b.Path || a.Title != b.Title || a.Paragraphs != b.Paragraphs ||
				a.Chars != b.Chars || a.Template != b.Template || !a.Added.Equal(b.Added) {
				t.Errorf("document %d: %+v after reopening, was %+v", i, a, b)
			}
		}
		for _, d := range after {
			if d.Template != (d.Path == mustAbs(t, tpl)) {
				t.Errorf("%s: template flag %v after reopening", d.Path, d.Template)
			}
		}
		ps, err := l.Paragraphs(before[1].ID)
		if err != nil || len(ps) != 3 || ps[2].Text != prose[4] {
			t.Fatalf("paragraphs after reopening: %v %v", len(ps), err)
		}
		if got := l.Candidates(query.Grams, query.SimHash, 3, 2, 0); !slices.Equal(got, candBefore) || len(got) == 0 {
			t.Errorf("candidates after reopening %v, before %v", got, candBefore)
		}
		if got := docSig(t, l, before[0].ID); got != sigBefore {
			t.Error("MinHash signature changed on reopening")
		}
		if !ro {
			res := add(t, l, AddOptions{}, p1, p3)
			if !slices.Equal(res.Duplicates, []string{p1}) || len(res.Added) != 1 || res.Added[0].ID <= before[len(before)-1].ID {
				t.Errorf("after reopening: added %+v, duplicates %v", res.Added, res.Duplicates)
			}
			before = list(t, l)
		}
		l.Close()
	}
}

func docSig(t *testing.T, l *Library, id uint64) similarity.Signature {
	t.Helper()
	_, sig, err := l.Doc(id)
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

func TestTemplateFlag(t *testing.T) { forBackends(t, testTemplateFlag) }

func testTemplateFlag(t *testing.T, open func(*Options) *Library) {
	src := t.TempDir()
	plain := writeDoc(t, src, "plain.txt", "Plain", prose[0])
	tpl := writeDoc(t, src, "tpl.txt", "Template", prose[1])
	l := open(nil)
	defer l.Close()
	add(t, l, AddOptions{}, plain)
	res := add(t, l, AddOptions{Template: true}, tpl)
	if len(res.Added) != 1 || !res.Added[0].Template {
		t.Fatalf("template import: %+v", res.Added)
	}
	for _, d := range list(t, l) {
		info, _, _ := l.Doc(d.ID)
		if wantTpl := d.Path == mustAbs(t, tpl); d.Template != wantTpl || info.Template != wantTpl {
			t.Errorf("%s: template %v (Doc: %v), want %v", d.Path, d.Template, info.Template, wantTpl)
		}
	}
}

// A library in use by another process is an error after the timeout, not a hang; a library that
// does not exist cannot be opened read-only.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	l := openLib(t, dir, nil)
	defer l.Close()
	if _, err := Open(dir, &Options{Timeout: 200 * time.Millisecond}); !errors.Is(err, ErrLocked) {
		t.Errorf("second writer: %v, want ErrLocked", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing"), &Options{ReadOnly: true}); err == nil {
		t.Error("opening a missing library read-only did not fail")
	}
}

// A panic in bbolt, which asserts its pages' structure with panics, is told as damage with the
// words a user needs before bbolt's own ("runtime error: slice bounds out of range" said nothing
// alone); a segment cut short says so, where it said "library: damaged record".
func TestDamageWords(t *testing.T) {
	err := guard("library.db", func() error { panic("assertion failed: Page expected to be: 15") })
	if !errors.Is(err, ErrDamaged) || !strings.HasPrefix(err.Error(), "library.db: its pages do not hold together (assertion failed: Page expected to be: 15): ") {
		t.Errorf("guard: %v", err)
	}
	dir := t.TempDir()
	l := openLib(t, dir, &Options{FlushDocs: 1})
	add(t, l, AddOptions{}, writeDoc(t, t.TempDir(), "a.txt", "A", prose[0], prose[1]))
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	segs, _ := filepath.Glob(filepath.Join(dir, "seg-*.idx"))
	if len(segs) != 1 {
		t.Fatalf("%d segments", len(segs))
	}
	st, err := os.Stat(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(segs[0], st.Size()/2); err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, &Options{ReadOnly: true})
	want := fmt.Sprintf("index %s: %d bytes where its header says %d: the file was cut short", filepath.Base(segs[0]), st.Size()/2, st.Size())
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), want) || strings.Count(err.Error(), ErrDamaged.Error()) != 1 {
		t.Errorf("a segment cut in half, opened read-only: %v", err)
	}
}

// LimitHeap sets the import's soft heap limit and puts the one before back; a GOMEMLIMIT in the
// environment is left to rule.
func TestLimitHeap(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Setenv("GOMEMLIMIT", "")
	restore := LimitHeap()
	if got := debug.SetMemoryLimit(-1); got != ImportHeapLimit {
		t.Errorf("limit during an import %d, want %d", got, ImportHeapLimit)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit after %d, want the one before, %d", got, before)
	}
	t.Setenv("GOMEMLIMIT", "2GiB")
	restore = LimitHeap()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("with GOMEMLIMIT set the limit became %d, want %d", got, before)
	}
	restore()
}

// An import cancelled part-way returns the context's error with the documents before the cancel
// committed, in the order of the files, and leaves none of its workers behind.
func TestAddCancelled(t *testing.T) {
	src := t.TempDir()
	var files []string
	for i := range 300 { // more than the workers may prepare ahead of the writer
		files = append(files, writeDoc(t, src, fmt.Sprintf("d%03d.txt", i), fmt.Sprintf("第%d篇", i), fmt.Sprintf("%s（第%d篇）", prose[i%3], i)))
	}
	l := openLib(t, t.TempDir(), nil)
	defer l.Close()
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := l.AddFiles(ctx, []string{src}, AddOptions{}, func(p AddProgress) {
		if p.Done == 10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled import: err %v, want context.Canceled", err)
	}
	if n := len(res.Added); n < 10 || n >= len(files) {
		t.Fatalf("cancelled after 10 of %d files, %d added", len(files), n)
	}
	for i, d := range res.Added {
		if d.Path != files[i] || d.ID != uint64(i+1) {
			t.Fatalf("added[%d] = %s (id %d), want %s (id %d): not the files in order", i, d.Path, d.ID, files[i], i+1)
		}
	}
	if got := list(t, l); len(got) != len(res.Added) {
		t.Errorf("the library lists %d documents, the import said %d", len(got), len(res.Added))
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the cancelled import, %d before: workers left waiting", n, before)
	}
}

// A new library's database appears whole (made under a temporary name, then linked into place), and
// the temporary file a creation killed half-way left is deleted by the next writable open.
func TestCreateLeavesNoPartialDatabase(t *testing.T) {
	dir := t.TempDir()
	stray := filepath.Join(dir, "library.db.12345.tmp")
	if err := os.WriteFile(stray, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	l := openLib(t, dir, nil)
	l.Close()
	st, err := os.Stat(filepath.Join(dir, "library.db"))
	if err != nil || st.Size() == 0 || st.Mode().Perm() != 0o644 {
		t.Fatalf("library.db after creation: %v, %v", st, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "library.db.*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	ro := openLib(t, dir, &Options{ReadOnly: true})
	ro.Close()

	// An empty library.db, as a killed creation used to leave: a reader is told so, a writer
	// makes the database anew.
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "library.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(empty, &Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "empty") || !strings.Contains(err.Error(), empty) {
		t.Errorf("read-only open of an empty library.db: %v", err)
	}
	w := openLib(t, empty, nil)
	if docs, _ := w.Stats(); docs != 0 {
		t.Errorf("%d documents in a new library", docs)
	}
	w.Close()
}

func list(t testing.TB, l *Library) []DocInfo {
	t.Helper()
	docs, err := l.List()
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

func weights(t testing.TB, l *Library) func(uint32) float32 {
	t.Helper()
	w, err := l.Weights()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// folderOf is the folder behind a library that Open opened from a folder, for tests that look
// inside it.
func folderOf(l *Library) *folder { return l.store.(*folder) }

// A record's MinHash signature is written as base64 and read in either form: the list of numbers
// of format version 3, or base64. What is neither is damage.
func TestRecordSignatureForms(t *testing.T) {
	sig := make([]uint32, similarity.NumHashes)
	for i := range sig {
		sig[i] = uint32(i)*2654435761 + 7
	}
	rec := docRecord{DocInfo: DocInfo{ID: 3, Title: "T"}, SHA256: "ab", Signature: sig}
	written, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	old, err := json.Marshal(struct {
		DocInfo
		SHA256    string   `json:"sha256"`
		Signature []uint32 `json:"minhash"`
	}{rec.DocInfo, rec.SHA256, sig})
	if err != nil {
		t.Fatal(err)
	}
	if len(written) >= len(old)*2/3 {
		t.Errorf("the record takes %d bytes, the old form %d", len(written), len(old))
	}
	for name, v := range map[string][]byte{"written": written, "version 3": old} {
		var got docRecord
		if err := decodeRecord(v, &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(got.Signature, sig) || got.ID != 3 || got.SHA256 != "ab" {
			t.Errorf("%s: read back %+v", name, got)
		}
		// decodeInfo, which Doc reads records with, reads the same description.
		if info, err := decodeInfo(v); err != nil || info != got.info() {
			t.Errorf("%s: decodeInfo read %+v (%v), decodeRecord %+v", name, info, err, got.info())
		}
	}
	valid := base64.StdEncoding.EncodeToString(make([]byte, 4*similarity.NumHashes))
	for _, bad := range []string{`"AAE="`, `"not base64!"`, `[1, "x"]`, `"` + base64.StdEncoding.EncodeToString(make([]byte, 4*similarity.NumHashes-4)) + `"`,
		`"` + valid + `AAAA"`, `"!` + valid[1:] + `"`, `"` + valid[:len(valid)-1] + `\u0041"`, `null`, `""`, `"`} {
		v := []byte(`{"id": 3, "sha256": "ab", "minhash": ` + bad + `}`)
		if err := decodeRecord(v, new(docRecord)); !errors.Is(err, errFormat) {
			t.Errorf("minhash %s: %v, want errFormat", bad, err)
		}
		if _, err := decodeInfo(v); !errors.Is(err, errFormat) {
			t.Errorf("minhash %s: decodeInfo %v, want errFormat", bad, err)
		}
	}
	// An escaped character the base64 holds is read, as decodeRecord reads it.
	escaped := []byte(`{"id": 3, "sha256": "ab", "minhash": "` + valid[:len(valid)-1] + `\u003d"}`)
	var full docRecord
	if info, err := decodeInfo(escaped); err != nil || decodeRecord(escaped, &full) != nil || info != full.info() {
		t.Errorf("an escaped signature: decodeInfo %+v (%v), decodeRecord %+v", info, err, full.info())
	}
}

// decodeInfo reads what decodeRecord reads and refuses what it refuses: the record as written
// (which it reads in part), records that look like it but are not, and every change of one of its
// bytes to a character that matters to JSON or base64.
func TestDecodeInfoAsRecord(t *testing.T) {
	sig := make([]uint32, similarity.NumHashes)
	for i := range sig {
		sig[i] = uint32(i) * 40503
	}
	rec := docRecord{DocInfo: DocInfo{ID: 9, Path: "a/论文.pdf", Title: `"Q" <&>`, Paragraphs: 3, Chars: 40, Template: true}, SHA256: "cd", Signature: sig}
	written, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := decodeInfo(written); err != nil || d != rec.info() {
		t.Fatalf("the record as written: %+v, %v; want %+v", d, err, rec.info())
	}
	same := func(v []byte) {
		t.Helper()
		var full docRecord
		want := decodeRecord(v, &full)
		got, err := decodeInfo(v)
		if (err == nil) != (want == nil) || err == nil && got != full.info() {
			t.Errorf("%s: decodeInfo %+v (%v), decodeRecord %+v (%v)", v, got, err, full.info(), want)
		}
	}
	b64 := base64.StdEncoding.EncodeToString(make([]byte, 4*similarity.NumHashes))
	for _, v := range []string{
		`{,"minhash":"` + b64 + `"}`,
		`{"id":9,"title":"abc,"minhash":"` + b64 + `"}`,
		`{"id":9,"title":"abc\\","minhash":"` + b64 + `"}`,
		`{"id":9,"minhash":"AAE=","minhash":"` + b64 + `"}`,
		`{"id":9,"minhash":[1],"minhash":"` + b64 + `"}`,
		`{"id":9,"MinHash":"` + b64 + `","minhash":"` + b64 + `"}`,
		`{"id":9, "minhash":"` + b64 + `"}`,
		`{"id":9,}` + `,"minhash":"` + b64 + `"}`,
	} {
		same([]byte(v))
	}
	for i := range written {
		for _, c := range []byte{'"', '\\', ',', '}', '{', ' ', '\n', 'A', '='} {
			v := slices.Clone(written)
			v[i] = c
			same(v)
		}
	}
}
