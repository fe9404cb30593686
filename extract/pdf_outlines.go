package extract

import (
	"cmp"
	"slices"

	pdf "github.com/ledongthuc/pdf"
)

// Text converted to outlines ("转曲", Acrobat's "Create Outlines", Ghostscript's -dNoOutputFonts)
// is drawn as filled shapes, one or more for each character, and holds no characters: a reader
// sees the paragraph, a checker reads nothing there. A page of it fills thousands of glyph-sized
// shapes in lines, where a chart fills a few, or many scattered (a scatter plot's points), and a
// figure whose labels were outlined has rows of a few marks with wide gaps between them.

// pdfOutlinedLines counts the lines of text a page draws as outlines: bands of glyph-sized shapes
// (boxes of the subpaths of filled paths, pdf.Content.Shapes) that overlap in height, each at most
// a twentieth of the page high, with eight marks or more in a line of words (wordsInLine) across a
// quarter of the page's width or more.
func pdfOutlinedLines(shapes []pdf.Rect, page pdf.Rect) int {
	w, h := page.Max.X-page.Min.X, page.Max.Y-page.Min.Y
	if w <= 0 || h <= 0 {
		return 0
	}
	var marks []pdf.Rect
	for _, r := range shapes {
		rw, rh := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
		if rw > 0 && rh > 0 && rw <= w/10 && rh <= h/20 {
			marks = append(marks, r)
		}
	}
	slices.SortFunc(marks, func(a, b pdf.Rect) int { return cmp.Compare(a.Min.Y, b.Min.Y) })
	lines := 0
	for i := 0; i < len(marks); {
		top := marks[i].Max.Y
		j := i + 1
		for j < len(marks) && marks[j].Min.Y <= top {
			top = max(top, marks[j].Max.Y)
			j++
		}
		if band := marks[i:j]; top-marks[i].Min.Y <= h/20 && len(band) >= 8 && wordsInLine(band, top-marks[i].Min.Y, w/4) {
			lines++
		}
		i = j
	}
	return lines
}

// wordsInLine reports whether the marks of a band (height high) are a line of words: spread over
// minExtent or more, covering 40 % of their extent or more, with no gap wider than three times the
// band's height. A figure's outlined titles side by side, or a table's columns, leave wider gaps.
func wordsInLine(band []pdf.Rect, height, minExtent float64) bool {
	xs := make([][2]float64, len(band))
	for i, r := range band {
		xs[i] = [2]float64{r.Min.X, r.Max.X}
	}
	slices.SortFunc(xs, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	covered, from, to := 0.0, xs[0][0], xs[0][1]
	for _, x := range xs[1:] {
		if x[0] > to {
			if x[0]-to > 3*height {
				return false
			}
			covered += to - from
			from, to = x[0], x[1]
		} else {
			to = max(to, x[1])
		}
	}
	covered += to - from
	extent := to - xs[0][0]
	return extent >= minExtent && covered >= 0.4*extent
}
