package written

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
	"unicode/utf16"
)

func utf16be(s string) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return string(b)
}

func TestFile(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content string
		want          Kind
	}{
		{"report.json", `{"report_number": "TC-1", "similarity": 0.2}`, Report},
		{"class.json", "\n  {\"created\": \"2026\", \"threshold\": 0.15, \"common_documents\": 3}", Comparison},
		{"other.json", `{"threshold": 0.15}`, None},
		{"report.html", "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n" + HTMLHead + `{"report_number":"TC-1","similarity":0.2}</script>`, Report},
		{"compare.html", "\ufeff<!DOCTYPE html>\n<html><head>" + HTMLHead + `{"created":"2026","threshold":0.15,"common_documents":3}</script>`, Comparison},
		{"page.html", "<!DOCTYPE html>\n<html><body>\"report_number\"</body></html>", None},
		{"report.pdf", "%PDF-1.7\n1 0 obj << /F (" + utf16be(ReportAttachment) + ") >>", Report},
		{"compare.pdf", "%PDF-1.7\n1 0 obj << /F (" + utf16be(ComparisonAttachment) + ") >>", Comparison},
		{"essay.pdf", "%PDF-1.7\n1 0 obj << /F (" + ComparisonAttachment + ") >>", None}, // the name in ASCII is text, not fpdf's
		{"essay.txt", "thesischeck-report.json is mentioned in this essay", None},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := File(path); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := File(filepath.Join(dir, "missing.pdf")); got != None {
		t.Errorf("a missing file: %q", got)
	}
	if got := File(dir); got != None {
		t.Errorf("a folder: %q", got)
	}
	// A named pipe is not opened: opening it would wait for a writer.
	pipe := filepath.Join(dir, "pipe.pdf")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan Kind, 1)
	go func() { done <- File(pipe) }()
	select {
	case got := <-done:
		if got != None {
			t.Errorf("a named pipe: %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("File waited on a named pipe")
	}
}
