package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"thesischeck/check"
	"thesischeck/library"
)

func run(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = Run(args, nil, &o, &e)
	return o.String(), e.String(), err
}

// classLibrary is a library of writeClass's four readable documents, and one of them to check.
func classLibrary(t *testing.T) (dir, thesis string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "lib")
	class := writeClass(t)
	os.Remove(filepath.Join(class, "bad.pdf"))
	if _, _, err := run(t, "library", "add", "--library", dir, class); err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Join(class, "alice.txt")
}

// library check and library repair, on a library whose document record was damaged: check lists
// the damage and fails, a check of a thesis and library list fail naming it, repair rebuilds the
// record from the paragraph store, keeps the replaced library.db aside, and all is well after.
func TestLibraryCheckRepairCommands(t *testing.T) {
	dir, thesis := classLibrary(t)
	out, _, err := run(t, "library", "check", "--library", dir)
	if err != nil || !strings.Contains(out, "no damage found (4 documents)") {
		t.Fatalf("library check of a sound library: %v\n%s", err, out)
	}
	before, _, err := run(t, "check", "--library", dir, thesis)
	if err != nil {
		t.Fatal(err)
	}

	db := filepath.Join(dir, "library.db")
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte(`bob.txt","title"`))
	if i < 0 {
		t.Fatal("no record of bob.txt in library.db")
	}
	b[i+1] ^= 0x20
	if err := os.WriteFile(db, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = run(t, "library", "check", "--library", dir)
	if !errors.Is(err, library.ErrDamaged) || !strings.Contains(out, "1 problem found") || !strings.Contains(out, "its record: docs value: checksum mismatch") {
		t.Errorf("library check of a damaged record: %v\n%s", err, out)
	}
	if _, _, err := run(t, "check", "--library", dir, thesis); !errors.Is(err, library.ErrDamaged) || !strings.Contains(err.Error(), dir) {
		t.Errorf("check against the damaged library: %v", err)
	}
	if out, _, err := run(t, "library", "list", "--library", dir); !errors.Is(err, library.ErrDamaged) || !strings.Contains(out, "DAMAGED: its record is damaged") {
		t.Errorf("library list: %v\n%s", err, out)
	}
	out, _, err = run(t, "library", "repair", "--library", dir)
	if err != nil || !strings.Contains(out, "repaired: the library holds 4 documents") || !strings.Contains(out, "kept in "+filepath.Join(dir, "damaged-")) {
		t.Fatalf("library repair: %v\n%s", err, out)
	}
	if out, _, err := run(t, "library", "check", "--library", dir); err != nil {
		t.Errorf("library check after repair: %v\n%s", err, out)
	}
	// The report number hashes the moment of the check, which may fall in another second.
	number := regexp.MustCompile(`TC-\d{8}-[0-9A-F]{8}`)
	after, _, err := run(t, "check", "--library", dir, thesis)
	if err != nil || number.ReplaceAllString(after, "TC-") != number.ReplaceAllString(before, "TC-") {
		t.Errorf("check after repair: %v\n%s\nwant\n%s", err, after, before)
	}
	if out, _, err := run(t, "library", "repair", "--library", dir); err != nil || !strings.Contains(out, "nothing to repair") {
		t.Errorf("repairing a sound library: %v\n%s", err, out)
	}
}

// A check against an empty library is refused with the message the user needs; compare with an
// empty --library is not affected.
func TestCheckEmptyLibrary(t *testing.T) {
	class := writeClass(t)
	thesis := filepath.Join(class, "alice.txt")
	never := filepath.Join(t.TempDir(), "never-made")
	emptied := filepath.Join(t.TempDir(), "emptied")
	if _, _, err := run(t, "library", "add", "--library", emptied, thesis); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "library", "remove", "--library", emptied, "1"); err != nil {
		t.Fatal(err)
	}
	// Compacted, its index holds nothing either: an empty segment.
	if out, _, err := run(t, "library", "compact", "--library", emptied); err != nil || out != "compacted: 1 removed documents' index entries dropped\n" {
		t.Fatalf("library compact: %q, %v", out, err)
	}
	for _, dir := range []string{never, emptied} {
		out, _, err := run(t, "check", "--library", dir, thesis)
		want := "the library " + dir + " holds no documents: add some with 'thesischeck library add'"
		if !errors.Is(err, check.ErrEmptyLibrary) || err.Error() != want || strings.Contains(out, "similarity") {
			t.Errorf("check against %s: %v (stdout %q)", dir, err, out)
		}
	}
	if _, _, err := run(t, "compare", "--library", emptied, class); err != nil && !errors.Is(err, ErrFailed) {
		t.Errorf("compare with an empty library: %v", err)
	}
}

// A library missing a file of its own (an index segment, the paragraph store) is damaged, not
// absent: a check fails naming the file and the damage, where it said the library held no
// documents, and library list fails, where it said no library was there yet. A folder that never
// held a library still reads as empty.
func TestLibraryMissingAFileIsDamage(t *testing.T) {
	dir, thesis := classLibrary(t)
	segs, _ := filepath.Glob(filepath.Join(dir, "seg-*.idx"))
	if len(segs) == 0 {
		t.Fatal("the library has no index segment")
	}
	for _, file := range []string{filepath.Base(segs[0]), "paras-1.dat"} {
		t.Run(file, func(t *testing.T) {
			broken := filepath.Join(t.TempDir(), "lib")
			if err := os.CopyFS(broken, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(filepath.Join(broken, file)); err != nil {
				t.Fatal(err)
			}
			_, _, err := run(t, "check", "--library", broken, thesis)
			if !errors.Is(err, library.ErrDamaged) || errors.Is(err, check.ErrEmptyLibrary) || !strings.Contains(err.Error(), file) {
				t.Errorf("check: %v", err)
			}
			_, stderr, err := run(t, "library", "list", "--library", broken)
			if !errors.Is(err, library.ErrDamaged) || strings.Contains(stderr, "no library in") {
				t.Errorf("library list: %v\n%s", err, stderr)
			}
		})
	}
	never := filepath.Join(t.TempDir(), "none")
	if _, _, err := run(t, "check", "--library", never, thesis); !errors.Is(err, check.ErrEmptyLibrary) {
		t.Errorf("check against a folder with no library: %v", err)
	}
	if _, stderr, err := run(t, "library", "list", "--library", never); err != nil || !strings.Contains(stderr, "no library in") {
		t.Errorf("library list of a folder with no library: %v\n%s", err, stderr)
	}
}
