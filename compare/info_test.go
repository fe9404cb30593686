package compare

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadInfo(t *testing.T) {
	tests := []struct {
		name, csv string
		columns   []string
		rows      int
		err       string // in the error; "" for none
	}{
		{"dolos", "filename,full_name,id,submitted\nalice/essay.docx,Alice,1,2026-03-01\nbob/essay.docx,Bob,2,\n", []string{"full_name", "id", "submitted"}, 2, ""},
		{"bom and Chinese", "\ufeff文件名,姓名\n张三.docx,张三\n", []string{"姓名"}, 1, ""},
		{"file column last", "name,path\nAlice,a.txt\n", []string{"name"}, 1, ""},
		{"no file column", "name,id\nAlice,1\n", nil, 0, "line 1: no column called file"},
		{"empty", "", nil, 0, "empty"},
		{"named twice", "file,name\na.txt,A\nb.txt,B\na.txt,C\n", nil, 0, "line 4: a.txt is named on line 2 already"},
		{"empty file cell", "file,name\n,A\n", nil, 0, "line 2: the file column is empty"},
		{"short row", "file,name\na.txt\n", nil, 0, "wrong number of fields"},
		{"unnamed column", "file,,id\na.txt,x,1\n", nil, 0, "column 2 has no name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "info.csv")
			if err := os.WriteFile(path, []byte(tt.csv), 0o644); err != nil {
				t.Fatal(err)
			}
			info, err := ReadInfo(path)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), path) {
					t.Fatalf("err = %v, want one naming the file and saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(info.Columns, ",") != strings.Join(tt.columns, ",") || len(info.Rows) != tt.rows {
				t.Errorf("columns %v, %d rows", info.Columns, len(info.Rows))
			}
		})
	}
}

func TestSetInfo(t *testing.T) {
	res := &Result{Documents: []Document{{Name: "alice/essay.docx"}, {Name: "bob/essay.docx"}, {Name: "carol.txt"}}}
	info := &Info{Path: "info.csv", Columns: []string{"name"}, Rows: []InfoRow{
		{Line: 2, File: "alice/essay.docx", Values: []string{"Alice"}},
		{Line: 3, File: "carol.txt", Values: []string{"Carol"}},
		{Line: 4, File: "dan.txt", Values: []string{"Dan"}},
	}}
	unmatched, err := res.SetInfo(info)
	if err != nil {
		t.Fatal(err)
	}
	if len(unmatched) != 1 || unmatched[0].File != "dan.txt" {
		t.Errorf("unmatched %+v, want dan.txt", unmatched)
	}
	if res.Label(0) != "Alice · alice/essay.docx" || res.Label(1) != "bob/essay.docx" || res.Documents[2].Info["name"] != "Carol" {
		t.Errorf("labels %q, %q; carol %v", res.Label(0), res.Label(1), res.Documents[2].Info)
	}
	// A file name that two submissions have is refused, and nothing changes.
	_, err = res.SetInfo(&Info{Path: "info.csv", Columns: []string{"id"}, Rows: []InfoRow{{Line: 2, File: "essay.docx", Values: []string{"1"}}}})
	if err == nil || !strings.Contains(err.Error(), "names 2 submissions") {
		t.Errorf("ambiguous row: %v", err)
	}
	if res.InfoColumns[0] != "name" || res.Documents[0].Info["name"] != "Alice" {
		t.Error("a refused info file changed the result")
	}
}

func TestFolderHolding(t *testing.T) {
	base := t.TempDir()
	class := filepath.Join(base, "class")
	lib := filepath.Join(base, "lib")
	for _, d := range []string{filepath.Join(class, "sub"), lib} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(lib, "library.db"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(class, filepath.Join(base, "link")); err != nil {
		t.Fatal(err)
	}
	essay := filepath.Join(base, "essay.txt")
	if err := os.WriteFile(essay, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	roots := []string{class, lib, essay}
	for _, tt := range []struct {
		path, want string
	}{
		{filepath.Join(class, "compare.pdf"), class},
		{filepath.Join(class, "sub", "x", "compare.pdf"), class}, // a folder not made yet
		{filepath.Join(base, "link", "compare.pdf"), class},
		{filepath.Join(base, "class-compare.pdf"), ""},
		{filepath.Join(base, "classic", "compare.pdf"), ""},
		{filepath.Join(lib, "compare.pdf"), ""}, // a library is not read as files
		{filepath.Join(base, "compare.pdf"), ""},
	} {
		if got := FolderHolding(tt.path, roots); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.path, got, tt.want)
		}
	}
}

// Word marks: the words both sides of a fragment have are marked, the word the copier changed is
// not.
func TestWordMarks(t *testing.T) {
	a := "The committee approved the new budget for the library after a long debate."
	b := "The committee quickly approved the new budget for the school library after a long debate."
	res := &Result{Documents: []Document{{Paragraphs: []Paragraph{{Text: a}}}, {Paragraphs: []Paragraph{{Text: b}}}}}
	f := Fragment{ASpan: [2]int{0, len(a) - 1}, BSpan: [2]int{0, len(b) - 1}}
	ma, mb := res.WordMarks(segmenter(t), Pair{A: 0, B: 1}, f)
	text := func(s string, spans [][2]int) string {
		var parts []string
		for _, sp := range spans {
			parts = append(parts, s[sp[0]:sp[1]])
		}
		return strings.Join(parts, "|")
	}
	if got := text(a, ma); got != "The committee approved the new budget for the library after a long debate" {
		t.Errorf("A marks %q", got)
	}
	if got := text(b, mb); got != "The committee|approved the new budget for the|library after a long debate" {
		t.Errorf("B marks %q", got)
	}
}
