package library

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"thesischeck/extract"
)

// TestFilesSkipsSpecialFiles: a named pipe with a document's name is listed as an error naming it,
// never as a document, whether found in a folder or given by itself; regular files are listed.
func TestFilesSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(good, []byte("text"), 0o644); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "pipe.txt")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "pipe") // not a document name: skipped like any such file
	if err := syscall.Mkfifo(other, 0o644); err != nil {
		t.Fatal(err)
	}
	files, bad := Files([]string{dir, pipe})
	if !slices.Equal(files, []string{good}) {
		t.Errorf("files %q, want only %s", files, good)
	}
	if len(bad) != 2 || bad[0].Path != pipe || bad[1].Path != pipe {
		t.Fatalf("errors %v, want the pipe named twice (in the folder, and given)", bad)
	}
	for _, b := range bad {
		if !errors.Is(b.Err, extract.ErrNotRegular) || b.Err.Error() != "not a regular file (a named pipe)" {
			t.Errorf("%s: %v", b.Path, b.Err)
		}
	}
}

// TestFilesNamesUnreadFormats: a folder's documents of formats that are not read (a Word 97-2003
// .doc, a CNKI .caj, an .rtf) are listed as errors that say what to do, not skipped in silence as
// other files are (a class would lose a submission without a word).
func TestFilesNamesUnreadFormats(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.txt", "b.DOC", "c.caj", "d.rtf", "notes.md", "picture.png"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("text"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, bad := Files([]string{dir})
	if !slices.Equal(files, []string{filepath.Join(dir, "a.txt")}) {
		t.Errorf("files %q", files)
	}
	var got []string
	for _, b := range bad {
		got = append(got, filepath.Base(b.Path)+": "+b.Err.Error())
	}
	want := []string{
		"b.DOC: " + extract.ErrOldOffice.Error(),
		"c.caj: not a PDF, DOCX or text file: CNKI's CAJ format is not read: download the paper as PDF",
		"d.rtf: not a PDF, DOCX or text file: .rtf files are not read: save it as DOCX or PDF",
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors %q, want %q", got, want)
	}
}
