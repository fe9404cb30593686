package extract

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"

	"thesischeck/internal/hostile"
)

// TestTwoColumns: a page set in two columns reads a column at a time, a line across the page (a
// title) first; it read line by line across both columns, each column's paragraph cut into the
// other's. A page of one column with a figure's short labels beside it stays as it was.
func TestTwoColumns(t *testing.T) {
	words := func(seed string, n int) []string {
		var lines []string
		for i := 0; i < n; i++ {
			lines = append(lines, fmt.Sprintf("%s line %02d of the column text runs on", seed, i))
		}
		return lines
	}
	left, right := words("left", 24), words("right", 24)
	column := func(x, y float64, lines []string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "BT /F1 10 Tf %g %g Td 12 TL\n", x, y)
		for _, l := range lines {
			fmt.Fprintf(&b, "(%s) Tj T*\n", l)
		}
		b.WriteString("ET\n")
		return b.String()
	}
	title := "BT /F1 10 Tf 72 740 Td (A title that runs across the page from the left margin into the right column's space) Tj ET\n"
	// The right column's lines stand 5 pt lower: its baselines do not line up with the left one's.
	page := title + column(72, 700, left) + column(300, 695, right)
	doc, err := Bytes(context.Background(), "columns.pdf", hostile.PDF([]hostile.Stream{{Data: []byte(page)}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, p := range doc.Paragraphs {
		text.WriteString(p.Text + "\n")
	}
	got := text.String()
	want := []string{"A title that runs across", strings.Join(left, " "), strings.Join(right, " ")}
	at := 0
	for _, w := range want {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("%q not found in order in:\n%s", w, got)
		}
		at += i + len(w)
	}

}

// TestFindGutter: the gutter of two columns is found whether their baselines line up or not, and
// under a title and an abstract across a third of the page; a page of one column is not cut, with a figure's labels beside some of its lines, a line of text across
// every row, or too few lines to tell.
func TestFindGutter(t *testing.T) {
	line := func(x, y float64, n int) []pdf.Text {
		var gs []pdf.Text
		for i := 0; i < n; i++ {
			gs = append(gs, pdf.Text{X: x + float64(i)*5, Y: y, W: 5, FontSize: 10, S: "a"})
		}
		return gs
	}
	page := func(rows int, lines func(i int, y float64) [][3]float64) []pdf.Text {
		var gs []pdf.Text
		for i := 0; i < rows; i++ {
			y := 700 - 12*float64(i)
			for _, l := range lines(i, y) {
				gs = append(gs, line(l[0], l[1], int(l[2]))...)
			}
		}
		return gs
	}
	tests := []struct {
		name   string
		gs     []pdf.Text
		x0, x1 float64 // the gutter, when there is one
	}{
		{"aligned columns", page(20, func(i int, y float64) [][3]float64 { return [][3]float64{{72, y, 40}, {292, y, 40}} }), 272, 292},
		{"offset columns", page(20, func(i int, y float64) [][3]float64 { return [][3]float64{{72, y, 40}, {292, y - 5, 40}} }), 272, 292},
		{"columns under a title", page(20, func(i int, y float64) [][3]float64 {
			if i == 0 {
				return [][3]float64{{72, y, 80}}
			}
			return [][3]float64{{72, y, 40}, {292, y, 40}}
		}), 272, 292},
		{"columns under an abstract across a third of the page", page(30, func(i int, y float64) [][3]float64 {
			if i < 10 {
				return [][3]float64{{72, y, 80}}
			}
			return [][3]float64{{72, y, 40}, {292, y, 40}}
		}), 272, 292},
		{"one column", page(20, func(i int, y float64) [][3]float64 { return [][3]float64{{72, y, 88}} }), 0, 0},
		{"labels beside some lines", page(20, func(i int, y float64) [][3]float64 {
			if i%4 == 0 {
				return [][3]float64{{72, y, 40}, {420, y, 6}}
			}
			return [][3]float64{{72, y, 40}}
		}), 0, 0},
		{"too few lines", page(5, func(i int, y float64) [][3]float64 { return [][3]float64{{72, y, 40}, {292, y, 40}} }), 0, 0},
	}
	for _, tc := range tests {
		order := make([]int, len(tc.gs))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return tc.gs[order[a]].Y > tc.gs[order[b]].Y })
		g := pdfFindGutter(tc.gs, order)
		if want := tc.x1 > 0; g.ok != want || want && (math.Abs(g.x0-tc.x0) > 2.5 || math.Abs(g.x1-tc.x1) > 2.5) {
			t.Errorf("%s: gutter %+v, want %v at %g-%g", tc.name, g, want, tc.x0, tc.x1)
		}
	}
}

// TestBinCover: the strips' counts of baselines are those of marking each glyph's strips one by
// one, once a baseline, whatever the order of a baseline's glyphs (overlapping, touching, apart,
// past the last strip, or covering none).
func TestBinCover(t *testing.T) {
	naive := func(body []gutterGlyph, from int, minX, bin float64, nbins int) []int {
		cover, last := make([]int, nbins), make([]int, nbins)
		for _, g := range body {
			if g.row < from {
				continue
			}
			for b := int((g.x0 - minX) / bin); b <= int((g.x1-minX)/bin) && b < nbins; b++ {
				if last[b] != g.row {
					last[b], cover[b] = g.row, cover[b]+1
				}
			}
		}
		return cover
	}
	rng := rand.New(rand.NewPCG(7, 23))
	for trial := range 500 {
		minX, bin := 50+rng.Float64()*20, 0.5+rng.Float64()*3
		nbins := 20 + rng.IntN(200)
		var body []gutterGlyph
		for row := 1; row <= 1+rng.IntN(30); row++ {
			for range rng.IntN(25) {
				x0 := minX + rng.Float64()*float64(nbins+5)*bin
				w := rng.Float64() * 6 * bin
				if rng.IntN(10) == 0 {
					w = -bin // a glyph that ends before it starts covers nothing
				}
				body = append(body, gutterGlyph{row: row, x0: x0, x1: x0 + w})
			}
		}
		for _, from := range []int{1, 2, 7} {
			if got, want := binCover(body, from, minX, bin, nbins), naive(body, from, minX, bin, nbins); !slices.Equal(got, want) {
				t.Fatalf("trial %d, from %d: binCover %v, marking strips %v", trial, from, got, want)
			}
		}
	}
}
