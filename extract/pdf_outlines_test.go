package extract

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	pdf "github.com/ledongthuc/pdf"

	"thesischeck/internal/hostile"
)

// glyphShapes draws lines of outlined "characters" on a page: each a filled path of two subpaths
// (a curved bowl and a stem), size points high, step points apart, n to a line, at x0 and from y0
// down by lead.
func glyphShapes(lines, n int, x0, y0, size, step, lead float64) string {
	var b strings.Builder
	for l := 0; l < lines; l++ {
		y := y0 - float64(l)*lead
		for i := 0; i < n; i++ {
			x := x0 + float64(i)*step
			fmt.Fprintf(&b, "%.1f %.1f m %.1f %.1f %.1f %.1f %.1f %.1f c h %.1f %.1f m %.1f %.1f l %.1f %.1f l h f\n",
				x, y, x, y+size, x+size*0.6, y+size, x+size*0.6, y, x+size*0.7, y, x+size*0.8, y+size, x+size*0.8, y)
		}
	}
	return b.String()
}

func TestPDFOutlinedLines(t *testing.T) {
	page := pdf.Rect{Max: pdf.Point{X: 612, Y: 792}}
	shapes := func(content string) []pdf.Rect {
		t.Helper()
		r, err := pdfOpen(hostile.PDF([]hostile.Stream{{Data: []byte(content)}}, nil))
		if err != nil {
			t.Fatal(err)
		}
		pages, err := pdfPages(r)
		if err != nil {
			t.Fatal(err)
		}
		return pages[0].Content().Shapes
	}
	var scatter strings.Builder
	for i := 0; i < 400; i++ { // points of a scatter plot, 3 pt dots over a 300 × 200 pt plot
		x, y := 150+float64(i*37%300), 400+float64(i*53%200)
		fmt.Fprintf(&scatter, "%.1f %.1f m %.1f %.1f %.1f %.1f %.1f %.1f c %.1f %.1f %.1f %.1f %.1f %.1f c f\n",
			x, y, x, y+3, x+3, y+3, x+3, y, x+3, y-3, x, y-3, x, y)
	}
	var titles strings.Builder // three figures' outlined titles side by side, three lines each
	for _, x := range []float64{72, 252, 432} {
		titles.WriteString(glyphShapes(3, 14, x, 700, 8, 7, 11))
	}
	tests := []struct {
		name    string
		content string
		want    int
	}{
		{"a page of text as outlines", glyphShapes(30, 40, 72, 720, 10, 11.5, 18), 30},
		{"two lines", glyphShapes(2, 40, 72, 720, 10, 11.5, 18), 2},
		{"short lines: a figure's labels", glyphShapes(5, 6, 72, 720, 10, 11.5, 18), 0},
		{"spaced marks: axis ticks", glyphShapes(3, 10, 72, 720, 10, 50, 18), 0},
		{"titles side by side", titles.String(), 0},
		{"a scatter plot", scatter.String(), 0},
		{"rectangles: a table's rules and bars", "72 700 400 1 re f 72 600 20 80 re f 100 600 20 60 re f\n", 0},
		{"stroked, not filled", strings.ReplaceAll(glyphShapes(5, 40, 72, 720, 10, 11.5, 18), " f\n", " S\n"), 0},
	}
	for _, tt := range tests {
		if got := pdfOutlinedLines(shapes(tt.content), page); got != tt.want {
			t.Errorf("%s: %d lines, want %d", tt.name, got, tt.want)
		}
	}
}

// TestPDFOutlined: a page of text converted to outlines beside a page of text warns, naming the
// page; a PDF all of whose text is outlines is refused as such, not as a scan. Ghostscript's
// outlines of a real page (testdata/pdf/outlined.pdf) are refused too, and no other PDF fixture
// warns.
func TestPDFOutlined(t *testing.T) {
	words := "BT /F1 11 Tf 72 720 Td (Our own words about the survey and what it shows us today.) Tj ET\n"
	doc, err := Bytes(context.Background(), "mixed.pdf", hostile.PDF([]hostile.Stream{
		{Data: []byte(words)}, {Data: []byte(glyphShapes(12, 40, 72, 720, 10, 11.5, 18))}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Paragraphs) != 1 {
		t.Errorf("paragraphs %+v", doc.Paragraphs)
	}
	want := Warning{Kind: WarnOutlined, Count: 12, Pages: []int{2},
		Message: "12 lines of text on page 2 are drawn as outlines (text converted to curves): a reader sees them, but they are shapes, not characters, and were not checked"}
	if len(doc.Warnings) != 1 || !slices.Equal(doc.Warnings[0].Pages, want.Pages) || doc.Warnings[0].Message != want.Message || doc.Warnings[0].Count != want.Count {
		t.Errorf("warnings %+v, want %+v", doc.Warnings, want)
	}
	_, err = File("testdata/pdf/outlined.pdf")
	if !errors.Is(err, ErrOutlined) || errors.Is(err, ErrNoText) || !strings.HasSuffix(err.Error(), "not characters, on 1 page") {
		t.Errorf("Ghostscript's outlines: %v", err)
	}
	fixtures, _ := filepath.Glob("testdata/*/*.pdf")
	for _, f := range fixtures {
		doc, err := File(f)
		if err != nil {
			continue
		}
		for _, w := range doc.Warnings {
			if w.Kind == WarnOutlined {
				t.Errorf("%s: %+v", f, w)
			}
		}
	}
}
