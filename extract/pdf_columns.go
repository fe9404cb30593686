package extract

import (
	"math"
	"slices"

	"github.com/ledongthuc/pdf"
)

// Two columns of text side by side (a journal's pages, or a thesis set so to garble a check) share
// their baselines: read line by line, each line of the left column ran on into the line beside it,
// and both columns' paragraphs came out interleaved (five copied paragraphs of a thesis set in two
// columns read 3.4 % where the same thesis in one column read 9.3 %). A page whose body text leaves
// a vertical gutter, a strip few lines cross while lines stand on both sides of it, is read a
// column at a time: the left column's lines down to a line that crosses the gutter (a title or an
// abstract across the page), then the right column's, then that line, and so on.

// pdfGutter is a page's gutter between two columns: its left and right edges, the left edge of
// the left column and the right edge of the right one, and ok.
type pdfGutter struct {
	x0, x1            float64
	colLeft, colRight float64
	ok                bool
}

// Thresholds of pdfFindGutter.
const (
	gutterMinLines = 8    // baselines of body text a page needs for its columns to be told
	gutterCrossing = 0.25 // share of baselines that may cross the gutter (a title and an abstract, wide captions)
	gutterSide     = 0.3  // share of baselines that must have text on each side of it
	gutterMinWidth = 1.0  // ems: the narrowest gutter
)

// pdfFindGutter looks for the gutter of a page's glyphs (spaces mapped to " "), given in order of
// baseline, top first (order).
func pdfFindGutter(gs []pdf.Text, order []int) pdfGutter {
	size := pdfDominantSize(gs)
	if size <= 0 {
		return pdfGutter{}
	}
	// The body glyphs, in order of baseline with the baselines numbered from 1, made once: the
	// strips below are counted up to three times, and telling body glyphs and their baselines
	// again each time took a tenth of the CPU of reading a 313-page thesis (0.36-0.38 s of CPU;
	// 0.31-0.34 s told once; the best of nine reads in each of four alternated runs).
	body := make([]gutterGlyph, 0, len(gs))
	row, refY := 0, math.Inf(1)
	minX, maxX := math.Inf(1), math.Inf(-1)
	for _, i := range order {
		g := gs[i]
		if g.S == " " || !(math.Abs(g.FontSize-size) <= 0.25*size) {
			continue
		}
		if refY-g.Y > pdfLineTolerance*size {
			row, refY = row+1, g.Y
		}
		x1 := g.X + pdfAdvance(g)
		body = append(body, gutterGlyph{row: row, x0: g.X, x1: x1})
		minX, maxX = min(minX, g.X), max(maxX, x1)
	}
	width := maxX - minX
	if width < 20*size {
		return pdfGutter{}
	}
	// Strips of the page a quarter em wide: the baselines each has text on are counted (once a
	// baseline: glyphs come a baseline at a time, so the last baseline to mark a strip tells).
	bin := size / 4
	nbins := int(width/bin) + 1
	total := row
	g := pdfGutter{}
	if total >= gutterMinLines {
		g = gutterBelow(body, 1, total, minX, maxX, bin, nbins, size)
	}
	// A first page's title, authors and abstract across the page can be more of its baselines
	// than may cross the gutter: the columns below them are looked for alone.
	if !g.ok && total >= 2*gutterMinLines {
		g = gutterBelow(body, total*2/5, total, minX, maxX, bin, nbins, size)
	}
	return g
}

// gutterGlyph is a body glyph for pdfFindGutter: its baseline's number and where it starts and ends.
type gutterGlyph struct {
	row    int
	x0, x1 float64
}

// gutterBelow looks for the gutter among the baselines numbered from..total of body, in bins of
// the given width from minX.
func gutterBelow(body []gutterGlyph, from, total int, minX, maxX, bin float64, nbins int, size float64) pdfGutter {
	rows := total - from + 1
	cover := binCover(body, from, minX, bin, nbins)
	// The widest strip in the middle half that few baselines cross.
	width := maxX - minX
	lo, hi := int(0.25*width/bin), int(0.75*width/bin)
	limit := int(gutterCrossing * float64(rows))
	run := func(from, to, limit int) (b0, e0 int) { // the widest run of bins [from, to) under limit
		for b := from; b < to; {
			if cover[b] > limit {
				b++
				continue
			}
			e := b
			for e < to && cover[e] <= limit {
				e++
			}
			if e-b > e0-b0 {
				b0, e0 = b, e
			}
			b = e
		}
		return b0, e0
	}
	b0, e0 := run(lo, min(hi+1, nbins), limit)
	for e0 > b0 && e0 < nbins && cover[e0] <= limit { // a run may end past the middle half
		e0++
	}
	// Within it, the bins fewest baselines cross: the ends of a ragged column's lines, which some
	// baselines reach, are not the gutter.
	least := limit
	for _, c := range cover[b0:e0] {
		least = min(least, c)
	}
	b0, e0 = run(b0, e0, least+max(1, int(0.05*float64(rows))))
	best := pdfGutter{x0: minX + float64(b0)*bin, x1: minX + float64(e0)*bin, colLeft: minX, colRight: maxX, ok: true}
	if float64(e0-b0)*bin < gutterMinWidth*size {
		return pdfGutter{}
	}
	// Text on either side of it in enough baselines (the two columns' baselines need not line
	// up): two columns, not a page of short lines beside a figure.
	left, right := 0, 0
	leftAt, rightAt := 0, 0 // the last baseline counted on each side
	for _, g := range body {
		switch {
		case g.row < from:
		case g.x1 <= best.x0+bin && leftAt != g.row:
			left, leftAt = left+1, g.row
		case g.x0 >= best.x1-bin && rightAt != g.row:
			right, rightAt = right+1, g.row
		}
	}
	if float64(min(left, right)) < gutterSide*float64(rows) {
		return pdfGutter{}
	}
	return best
}

// binCover counts for each of nbins strips of the page, bin wide from minX, the baselines numbered
// from on that body has a glyph over. Each baseline adds its glyphs' strips as runs, merged where
// they touch, to a difference array: marking every strip of every glyph was most of looking for a
// gutter (a CJK glyph covers four or five strips).
func binCover(body []gutterGlyph, from int, minX, bin float64, nbins int) []int {
	diff := make([]int, nbins+1)
	var runs [][2]int // of one baseline
	add := func() {
		if !slices.IsSortedFunc(runs, func(a, b [2]int) int { return a[0] - b[0] }) {
			slices.SortFunc(runs, func(a, b [2]int) int { return a[0] - b[0] })
		}
		for i := 0; i < len(runs); {
			lo, hi := runs[i][0], runs[i][1]
			for i++; i < len(runs) && runs[i][0] <= hi+1; i++ {
				hi = max(hi, runs[i][1])
			}
			diff[lo]++
			diff[hi+1]--
		}
		runs = runs[:0]
	}
	row := -1
	for _, g := range body {
		if g.row < from {
			continue
		}
		if g.row != row {
			add()
			row = g.row
		}
		if lo, hi := int((g.x0-minX)/bin), min(int((g.x1-minX)/bin), nbins-1); lo <= hi {
			runs = append(runs, [2]int{lo, hi})
		}
	}
	add()
	cover := diff[:nbins]
	for b := 1; b < nbins; b++ {
		cover[b] += cover[b-1]
	}
	return cover
}

// split sorts a baseline's glyphs to the gutter's sides by where they start (the advance of a
// column's last comma may reach into the gutter); cross is true when one starts in it, and the
// baseline is a line across the page.
func (g pdfGutter) split(gs []pdf.Text) (left, right []pdf.Text, cross bool) {
	for _, t := range gs {
		switch {
		case t.X < g.x0:
			left = append(left, t)
		case t.X >= g.x1-0.1*t.FontSize:
			right = append(right, t)
		case t.S == " ":
			// a space in the gutter belongs to neither column
		default:
			return nil, nil, true
		}
	}
	return left, right, false
}
