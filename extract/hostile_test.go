package extract

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"thesischeck/internal/hostile"
)

// testdata returns the file at testdata/path….
func testdata(t *testing.T, path ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{"testdata"}, path...)...))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// warningOf returns the document's warning of the given kind.
func warningOf(doc *Document, kind WarningKind) (Warning, bool) {
	for _, w := range doc.Warnings {
		if w.Kind == kind {
			return w, true
		}
	}
	return Warning{}, false
}

// TestHostilePDF: files shaped to cost time or memory each fail with one clear error, or are read
// with a warning saying what was left out, in bounded time and memory; the same shapes kept within
// the bounds a real document needs are read whole.
func TestHostilePDF(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want string      // a substring of the error; "" when the file is read
		text string      // a text the document must hold when it is read
		warn WarningKind // a warning kind the document must carry when it is read
	}{
		{"q nested 100,000 deep", hostile.DeepSaves(100_000), "graphics states nested more than 1024 deep", "", ""},
		{"q nested 500 deep", hostile.DeepSaves(500), "", "Deep inside saved graphics states.", ""},
		{"forms nested 40 deep", hostile.NestedForms(40), "forms nested more than 16 deep", "", ""},
		{"forms nested 8 deep", hostile.NestedForms(8), "", "The innermost form.", ""},
		{"a form drawn a million times", hostile.FormFanOut(1_000_000), "a page's content runs past 64 MB", "", ""},
		{"a stream that inflates to 4 GB", hostile.StreamBomb(4096), "a page's content runs past 64 MB", "", ""},
		{"8 pages of 40 MB each", hostile.StreamBombs(8, 40), "the pages' content runs past 256 MB", "", ""},
		{"a damaged stream", damagedStreamPDF(), "", "Before the damage.", WarnUnreadablePages},
		// A pattern's cell is read for its colour once, however often the page names it: read
		// each time, 20,000 of 200 KB took a minute (and now would run past the reader's bound).
		{"a pattern of 200 KB named 20,000 times", patternBombPDF(20_000), "", strings.Repeat("x", 50), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			doc, err := Bytes(context.Background(), "hostile.pdf", c.data)
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			t.Logf("%d bytes: %.2f s, %d MB allocated, err %v", len(c.data), time.Since(start).Seconds(), (after.TotalAlloc-before.TotalAlloc)>>20, err)
			if c.want != "" {
				if err == nil || !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), c.want) ||
					!strings.HasPrefix(err.Error(), "extract hostile.pdf: ") {
					t.Fatalf("err = %v, want ErrTooLarge saying %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := paragraphTexts(doc); !strings.Contains(strings.Join(got, "\n"), c.text) {
				t.Errorf("paragraphs %q, want %q among them", got, c.text)
			}
			if _, ok := warningOf(doc, c.warn); (c.warn != "") != ok {
				t.Errorf("warnings %+v, want kind %q", doc.Warnings, c.warn)
			}
		})
	}
}

// TestPDFDamagedEveryPage: a file whose every page breaks off before any text is damaged, not a
// scan ("no text layer — scanned?" sent its reader to look for a scan).
func TestPDFDamagedEveryPage(t *testing.T) {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write([]byte(hostile.Text("After the damage.")))
	zw.Close()
	data := hostile.PDF([]hostile.Stream{{Data: z.Bytes()[:6], Filter: "FlateDecode"}}, nil)
	_, err := Bytes(context.Background(), "damaged.pdf", data)
	if !errors.Is(err, ErrCorrupt) || errors.Is(err, ErrNoText) || !strings.Contains(err.Error(), "no page could be read (1 page") {
		t.Errorf("err = %v, want ErrCorrupt saying no page could be read", err)
	}
	// One page of two read: its text is checked, the other page warned of.
	if doc, err := Bytes(context.Background(), "half.pdf", hostile.PDF([]hostile.Stream{{Data: z.Bytes()[:6], Filter: "FlateDecode"}, {Data: []byte(hostile.Text("The second page."))}}, nil)); err != nil {
		t.Errorf("one page of two damaged: %v", err)
	} else if _, ok := warningOf(doc, WarnUnreadablePages); !ok {
		t.Errorf("one page of two damaged: warnings %+v, want %q", doc.Warnings, WarnUnreadablePages)
	}
}

// patternBombPDF is a page that shows "x" n times, each in a pattern whose cell is 200 KB of content.
func patternBombPDF(n int) []byte {
	cell := strings.Repeat("0 g 0 0 1 1 re f\n", 12000)
	content := "BT /F1 12 Tf 72 700 Td " + strings.Repeat("/Pattern cs /P0 scn (x) Tj ", n) + "ET"
	return pdfOfObjects([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /Pattern << /P0 6 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 10 10] /XStep 10 /YStep 10 /Resources << >> /Length %d >>\nstream\n%s\nendstream", len(cell), cell),
	})
}

// damagedStreamPDF is a page whose compressed content breaks off after its first text line.
func damagedStreamPDF() []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write([]byte(hostile.Text("Before the damage.")))
	zw.Flush()
	intact := z.Len()
	zw.Write([]byte(strings.Repeat(hostile.Text("After the damage."), 200)))
	zw.Close()
	return hostile.PDF([]hostile.Stream{{Data: z.Bytes()[:intact+4], Filter: "FlateDecode"}}, nil)
}

// TestFootnoteBomb: a 300-paragraph footnote referred to 20,000 times is read once, attached to
// the first paragraph that refers to it, and the other references are counted in a warning.
func TestFootnoteBomb(t *testing.T) {
	data := hostile.FootnoteBomb(300, 20_000)
	start := time.Now()
	doc, err := Bytes(context.Background(), "notes.docx", data)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes, read in %.2f s", len(data), time.Since(start).Seconds())
	notes := 0
	for _, p := range doc.Paragraphs {
		notes += len(p.Notes)
	}
	if notes != 1 {
		t.Errorf("the note is attached %d times, want once", notes)
	}
	w, ok := warningOf(doc, WarnRepeatedNotes)
	if !ok || w.Count != 19_999 {
		t.Errorf("warnings %+v, want %s counting 19999", doc.Warnings, WarnRepeatedNotes)
	}
}

// TestDOCXTextCap: notes count towards the text a document may hold, so a document whose notes
// expand past MaxDocText is refused.
func TestDOCXTextCap(t *testing.T) {
	var body strings.Builder
	ids := make([]int, 0, 2000)
	for i := 2; i < 2002; i++ {
		ids = append(ids, i)
	}
	body.WriteString(hostile.Para("Refers to two thousand notes.", ids...))
	var notes strings.Builder
	long := strings.Repeat("A long note that says the same thing again. ", 60) // 2.6 KB
	for _, id := range ids {
		notes.WriteString(`<w:footnote w:id="` + strconv.Itoa(id) + `"><w:p><w:r><w:t>` + long + `</w:t></w:r></w:p></w:footnote>`)
	}
	_, err := Bytes(context.Background(), "notes.docx", hostile.DOCX(body.String(), notes.String()))
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "MB of text") {
		t.Fatalf("err = %v, want ErrTooLarge for the text", err)
	}
}

// TestNameMismatch: a file whose extension names another format is read by its content and warned.
func TestNameMismatch(t *testing.T) {
	pdf := testdata(t, "bad", "pdf-named.docx")
	docx := testdata(t, "docx", "pandoc-zh.docx")
	txt := testdata(t, "txt", "utf8.txt")
	cases := []struct {
		name   string
		data   []byte
		format string
		warn   string // a substring of the warning; "" for none
	}{
		{"thesis.docx", pdf, "pdf", "named .docx but its content is a PDF"},
		{"thesis.txt", docx, "docx", "named .txt but its content is a Word document"},
		{"thesis.pdf", txt, "txt", "named .pdf but its content is plain text"},
		{"thesis.PDF", pdf, "pdf", ""},
		{"thesis.docx", docx, "docx", ""},
		{"notes.md", txt, "txt", ""},
		{"README", txt, "txt", ""},
	}
	for _, c := range cases {
		doc, err := Bytes(context.Background(), c.name, c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		w, ok := warningOf(doc, WarnNameMismatch)
		if doc.Format != c.format || ok != (c.warn != "") || !strings.Contains(w.Message, c.warn) {
			t.Errorf("%s as %s: format %s, warnings %+v; want %s warned %q", c.name, c.format, doc.Format, doc.Warnings, c.format, c.warn)
		}
	}
}

// TestReadFileRefusesSpecialFiles: a named pipe is refused at once, not waited on.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := File(fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") || !strings.Contains(err.Error(), fifo) {
			t.Errorf("err = %v, want ErrNotRegular naming the pipe", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a named pipe hangs")
	}
}
