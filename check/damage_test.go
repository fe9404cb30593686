package check

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"thesischeck/library"
	"thesischeck/report"
)

// damageLibrary builds the test library in a folder of its own, closed, and a submission that copies
// from three of its documents and the template; it returns both and the answer of the check.
func damageLibrary(t *testing.T) (dir, sub string, want string) {
	t.Helper()
	lib := newLibrary(t)
	dir = lib.Dir()
	if err := lib.Close(); err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, f := range []string{"zh-wetland.txt", "en-tides.txt", "zh-tea.txt", "template-format.txt", "../original.txt"} {
		b, err := os.ReadFile(filepath.Join(libDir, f))
		if err != nil {
			t.Fatal(err)
		}
		paras := strings.Split(strings.TrimSpace(string(b)), "\n\n")
		text = append(text, paras[:min(len(paras), 3)]...)
	}
	sub = filepath.Join(t.TempDir(), "submission.txt")
	if err := os.WriteFile(sub, []byte(strings.Join(text, "\n\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := checkDir(dir, sub)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Sources) < 3 || r.Similarity < 0.3 {
		t.Fatalf("the undamaged library's answer: %.3f, %d sources", r.Similarity, len(r.Sources))
	}
	return dir, sub, answer(r)
}

// checkDir checks sub against the library in dir as `thesischeck check` does: opened read-only.
func checkDir(dir, sub string) (*report.Report, error) {
	lib, err := library.Open(dir, &library.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer lib.Close()
	return File(context.Background(), lib, sub, nil, nil)
}

// answer is what a check says: its figures, and each source with its share.
func answer(r *report.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%.6f %.6f %.6f %d/%d %d docs\n", r.Similarity, r.SimilarityExcludingQuotes, r.MaxSingleSource, r.CopiedChars, r.TotalChars, r.Library.Documents)
	for _, s := range r.Sources {
		fmt.Fprintf(&b, "%d %s %q %.6f %d %.4f\n", s.ID, s.Path, s.Title, s.Similarity, s.CopiedChars, s.Jaccard)
	}
	for _, p := range r.Paragraphs {
		for _, m := range p.Matches {
			fmt.Fprintf(&b, "%d:%d/%s/%d %v %d %v\n", p.Index, m.Source, m.SourcePath, m.SourceParagraph, m.Spans, m.Hamming, m.Template)
		}
	}
	return b.String()
}

func copyFiles(t *testing.T, from, to string) []string {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, e.Name())
	}
	return names
}

// damage applies one mutation, chosen by r, to a file of dir chosen by r, and says what it did.
func damage(t *testing.T, r *rand.Rand, dir string, names []string) (file, what string) {
	t.Helper()
	file = names[r.IntN(len(names))]
	path := filepath.Join(dir, file)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	switch k := r.IntN(10); {
	case k < 6:
		i := r.IntN(len(b))
		b[i] ^= byte(1 + r.IntN(255))
		what = fmt.Sprintf("byte %d of %d flipped", i, len(b))
	case k < 9:
		n := r.IntN(len(b))
		b = b[:n]
		what = fmt.Sprintf("cut to %d bytes", n)
	default:
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		return file, "removed"
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return file, what
}

// On 100 damaged copies of a library (a byte flipped, a file cut short or removed, in library.db,
// the paragraph store or an index segment), a check gives the undamaged library's answer or an
// error wrapping library.ErrDamaged, never another answer and never a panic; library check finds
// every case whose check did not give the undamaged answer; library repair brings back the
// undamaged answer whenever the paragraph store was not the file damaged, and whenever it names
// no document as lost.
func TestDamagedLibraries(t *testing.T) {
	pristine, sub, want := damageLibrary(t)
	r := rand.New(rand.NewPCG(17, 2026))
	var same, refused, repaired, lost int
	hit := map[string]int{}
	for i := 0; i < 100; i++ {
		dir := t.TempDir()
		names := copyFiles(t, pristine, dir)
		file, what := damage(t, r, dir, names)
		name := fmt.Sprintf("case %d: %s %s", i, file, what)
		hit[strings.Fields(strings.NewReplacer("-", " ", ".", " ").Replace(file))[0]+" "+strings.Fields(what)[0]]++
		got, err := checkDir(dir, sub)
		switch {
		case err != nil && !errors.Is(err, library.ErrDamaged):
			t.Errorf("%s: the check failed without naming damage: %v", name, err)
		case err != nil:
			refused++
		case answer(got) != want:
			t.Errorf("%s: a different answer without an error:\n%s\nwant\n%s", name, answer(got), want)
		default:
			same++
		}
		rep, cerr := library.Check(dir, nil)
		if cerr != nil {
			t.Errorf("%s: library check: %v", name, cerr)
			continue
		}
		if err != nil && !rep.Damaged() {
			t.Errorf("%s: the check failed (%v) and library check found nothing", name, err)
		}
		rr, rerr := library.Repair(dir, nil)
		storeHit := strings.HasPrefix(file, "paras-")
		if rerr != nil {
			t.Errorf("%s: repair: %v", name, rerr)
			continue
		}
		if storeHit && len(rr.Lost) > 0 {
			lost++
			continue
		}
		if !storeHit && len(rr.Lost) > 0 {
			t.Errorf("%s: the paragraph store is whole and repair lost %v", name, rr.Lost)
		}
		got, err = checkDir(dir, sub)
		switch {
		case err != nil:
			t.Errorf("%s: the check after repair: %v", name, err)
		case answer(got) != want:
			t.Errorf("%s: after repair the answer differs:\n%s\nwant\n%s", name, answer(got), want)
		default:
			if rr.Repaired {
				repaired++
			}
		}
		if rep, err := library.Check(dir, nil); err != nil || rep.Damaged() {
			t.Errorf("%s: library check after repair: %v %v", name, err, rep.Problems)
		}
	}
	t.Logf("100 damaged libraries (%v): %d gave the undamaged answer, %d an error naming the damage; %d repaired to the undamaged answer, %d with documents to add again", hit, same, refused, repaired, lost)
}

// A library.db cut in half (a full disk, a bad copy) is a clear error, never a panic; library check
// says so and repair, the paragraph store being whole, brings back the answer.
func TestLibraryCutInHalf(t *testing.T) {
	pristine, sub, want := damageLibrary(t)
	dir := t.TempDir()
	copyFiles(t, pristine, dir)
	db := filepath.Join(dir, "library.db")
	st, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(db, st.Size()/2); err != nil {
		t.Fatal(err)
	}
	_, err = checkDir(dir, sub)
	if !errors.Is(err, library.ErrDamaged) || !strings.Contains(err.Error(), "library.db") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("check against a library.db cut in half: %v", err)
	}
	if _, err := library.Open(dir, nil); !errors.Is(err, library.ErrDamaged) {
		t.Errorf("a writable open of it: %v", err)
	}
	rep, err := library.Check(dir, nil)
	if err != nil || !rep.Damaged() || !strings.Contains(rep.Problems[0].What, "cut short") {
		t.Fatalf("library check: %v %+v", err, rep)
	}
	rr, err := library.Repair(dir, nil)
	if err != nil || !rr.Repaired || len(rr.Lost) != 0 || rr.Backup == "" {
		t.Fatalf("repair: %v %+v", err, rr)
	}
	if kept, err := os.Stat(filepath.Join(rr.Backup, "library.db")); err != nil || kept.Size() != st.Size()/2 {
		t.Errorf("the damaged library.db was not kept aside: %v", err)
	}
	if got, err := checkDir(dir, sub); err != nil || answer(got) != want {
		t.Errorf("after repair: %v\n%s\nwant\n%s", err, answer(got), want)
	}
}

// flipIn flips a byte of the first occurrence of what in file.
func flipIn(t *testing.T, file string, what []byte, at int) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(b), string(what))
	if i < 0 {
		t.Fatalf("%q not in %s", what, file)
	}
	b[i+at] ^= 0x20
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// One flipped byte in a source's document record, or in an index segment's table of document ids,
// used to make the source vanish (0 %, and library list left it out): now the check is an error
// naming the damage, library list lists the document as damaged, and repair restores the answer.
func TestFlippedRecordAndDocIDs(t *testing.T) {
	pristine, sub, want := damageLibrary(t)

	t.Run("document record", func(t *testing.T) {
		dir := t.TempDir()
		copyFiles(t, pristine, dir)
		// The record of zh-wetland.txt: its path, as JSON holds it, in library.db (the paragraph
		// store's frame holds a copy, which repair restores it from).
		flipIn(t, filepath.Join(dir, "library.db"), []byte(`zh-wetland.txt","title"`), 3)
		_, err := checkDir(dir, sub)
		if !errors.Is(err, library.ErrDamaged) || !strings.Contains(err.Error(), "document 1") {
			t.Fatalf("check with a damaged document record: %v", err)
		}
		lib, err := library.Open(dir, &library.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		docs, err := lib.List()
		lib.Close()
		if !errors.Is(err, library.ErrDamaged) || len(docs) != 6 || docs[0].Damaged == "" {
			t.Errorf("list: %v, %+v", err, docs)
		}
		if rr, err := library.Repair(dir, nil); err != nil || len(rr.Lost) != 0 {
			t.Fatalf("repair: %v %+v", err, rr)
		}
		if got, err := checkDir(dir, sub); err != nil || answer(got) != want {
			t.Errorf("after repair: %v", err)
		}
	})

	t.Run("segment document ids", func(t *testing.T) {
		dir := t.TempDir()
		copyFiles(t, pristine, dir)
		segs, _ := filepath.Glob(filepath.Join(dir, "seg-*.idx"))
		if len(segs) == 0 {
			t.Fatal("no index segment")
		}
		b, err := os.ReadFile(segs[0])
		if err != nil {
			t.Fatal(err)
		}
		b[64+8+1] ^= 1 // the second document's id, right after the 64-byte header
		if err := os.WriteFile(segs[0], b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = checkDir(dir, sub)
		if !errors.Is(err, library.ErrDamaged) || !strings.Contains(err.Error(), filepath.Base(segs[0])) {
			t.Fatalf("check with a damaged document id table: %v", err)
		}
		if rep, err := library.Check(dir, nil); err != nil || !rep.Damaged() {
			t.Errorf("library check: %v %+v", err, rep)
		}
		if rr, err := library.Repair(dir, nil); err != nil || len(rr.Lost) != 0 {
			t.Fatalf("repair: %v %+v", err, rr)
		}
		if got, err := checkDir(dir, sub); err != nil || answer(got) != want {
			t.Errorf("after repair: %v", err)
		}
	})
}

// A check against a library with nothing to check against (new, every document removed, templates
// only) is refused with ErrEmptyLibrary, whose message names the library and says what to do.
func TestEmptyLibraryRefused(t *testing.T) {
	sub := filepath.Join(libDir, "..", "original.txt")
	ctx := context.Background()
	for _, c := range []struct {
		name string
		fill func(t *testing.T, lib *library.Library)
		msg  string
	}{
		{"new", func(*testing.T, *library.Library) {}, "holds no documents: add some with 'thesischeck library add'"},
		{"all removed", func(t *testing.T, lib *library.Library) {
			res, err := lib.AddFiles(ctx, []string{filepath.Join(libDir, "zh-tea.txt"), filepath.Join(libDir, "en-tides.txt")}, library.AddOptions{}, nil)
			if err != nil || len(res.Added) != 2 {
				t.Fatal(res, err)
			}
			if err := lib.Remove(res.Added[0].ID, res.Added[1].ID); err != nil {
				t.Fatal(err)
			}
		}, "holds no documents: add some with 'thesischeck library add'"},
		{"templates only", func(t *testing.T, lib *library.Library) {
			res, err := lib.AddFiles(ctx, []string{filepath.Join(libDir, "template-format.txt")}, library.AddOptions{Template: true}, nil)
			if err != nil || len(res.Added) != 1 {
				t.Fatal(res, err)
			}
		}, "holds only template documents"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			lib, err := library.Open(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			c.fill(t, lib)
			lib.Close()
			_, err = checkDir(dir, sub)
			if !errors.Is(err, ErrEmptyLibrary) || !strings.Contains(err.Error(), "the library "+dir+" ") || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("check against it: %v", err)
			}
		})
	}
}

// A byte flipped in an index segment, in the arrays its opening checks or in a block a check reads
// later, is told in one line that names the segment once and says the library is damaged once,
// by the check and by library check. It named the segment three times in library check's report
// and twice, with "the library is damaged" twice, in the check's error.
func TestSegmentDamageToldOnce(t *testing.T) {
	pristine, sub, _ := damageLibrary(t)
	segs, _ := filepath.Glob(filepath.Join(pristine, "seg-*.idx"))
	if len(segs) == 0 {
		t.Fatal("the test library has no index segment")
	}
	seg := filepath.Base(segs[0])
	size := func() int {
		st, err := os.Stat(segs[0])
		if err != nil {
			t.Fatal(err)
		}
		return int(st.Size())
	}()
	once := func(what, msg string) {
		t.Helper()
		if strings.Count(msg, seg) != 1 || strings.Count(msg, library.ErrDamaged.Error()) > 1 || strings.Contains(msg, "\n") {
			t.Errorf("%s: %q", what, msg)
		}
	}
	told, listed := 0, 0
	for k := 1; k < 16; k += 2 { // spread over the segment: its header arrays, gram keys, postings
		at := size * k / 16
		dir := t.TempDir()
		copyFiles(t, pristine, dir)
		path := filepath.Join(dir, seg)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b[at] ^= 0xFF
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := checkDir(dir, sub); err != nil {
			if !errors.Is(err, library.ErrDamaged) {
				t.Fatalf("byte %d: %v", at, err)
			}
			once(fmt.Sprintf("the check, byte %d flipped", at), err.Error())
			told++
		}
		rep, err := library.Check(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range rep.Problems {
			if strings.Contains(p.What, seg) {
				once(fmt.Sprintf("library check, byte %d flipped", at), p.What)
				listed++
			}
		}
	}
	if told == 0 || listed == 0 {
		t.Fatalf("the check failed %d times, library check named the segment %d times: nothing was tested", told, listed)
	}
}
