package extract

import (
	"math"
	"sort"

	pdf "github.com/ledongthuc/pdf"
)

// A page can draw its text turned a quarter round and be shown turned back (/Rotate): a scan's
// OCR layer, a page printed sideways, or text drawn so to be read wrong. A reader sees lines of
// text; read as drawn, each line is a column of glyphs one above the other, and the layout, which
// makes lines of glyphs that share a baseline, read them one letter a line (a copied paragraph so
// drawn checked 0 %; pdftotext reads it). Vertical Chinese (竖排) runs down the page the same way.

// pdfUpright turns the glyphs of a page whose text runs up or down the page (pdfTextDirection) a
// quarter round, so that it runs left to right with its lines top to bottom, and returns the page's
// box turned with them; it leaves a page of text that runs across alone.
func pdfUpright(visible []pdf.Text, hidden []pdfHiddenGlyph, box pdf.Rect) pdf.Rect {
	defer pdfLevelRuns(visible)
	dir := pdfTextDirection(visible)
	if dir == 0 {
		return pdfDeskew(visible, hidden, box)
	}
	turn := func(x, y float64) (float64, float64) {
		switch dir {
		case 1: // runs up, lines to the right: up becomes right, right becomes down
			return y, -x
		case 2: // runs to the left, lines upwards: upside down
			return -x, -y
		}
		return -y, x // runs down, lines to the left (or columns right to left)
	}
	for i := range visible {
		visible[i].X, visible[i].Y = turn(visible[i].X, visible[i].Y)
	}
	for i := range hidden {
		hidden[i].g.X, hidden[i].g.Y = turn(hidden[i].g.X, hidden[i].g.Y)
	}
	x0, y0 := turn(box.Min.X, box.Min.Y)
	x1, y1 := turn(box.Max.X, box.Max.Y)
	return pdfDeskew(visible, hidden, pdf.Rect{Min: pdf.Point{X: min(x0, x1), Y: min(y0, y1)}, Max: pdf.Point{X: max(x0, x1), Y: max(y0, y1)}})
}

// pdfDeskew turns the glyphs of a page whose lines slope (pdfSkew: a page drawn turned a few
// degrees, as a skewed scan's OCR layer is, or to be read wrong) about the page's origin until they
// run level, and returns the page's box turned with them (the box around its turned corners). The
// layout makes lines of glyphs that share a baseline: a page turned 4° read as pieces of a few
// letters, and zh-thesis S001 (21.6 %) so turned checked 0.0 %, with no warning; 2°, 3.9 %.
func pdfDeskew(visible []pdf.Text, hidden []pdfHiddenGlyph, box pdf.Rect) pdf.Rect {
	angle := pdfSkew(visible)
	if angle == 0 {
		return box
	}
	c, s := math.Cos(angle), math.Sin(angle)
	turn := func(x, y float64) (float64, float64) { return x*c + y*s, y*c - x*s }
	for i := range visible {
		visible[i].X, visible[i].Y = turn(visible[i].X, visible[i].Y)
	}
	for i := range hidden {
		hidden[i].g.X, hidden[i].g.Y = turn(hidden[i].g.X, hidden[i].g.Y)
	}
	out := pdf.Rect{Min: pdf.Point{X: math.Inf(1), Y: math.Inf(1)}, Max: pdf.Point{X: math.Inf(-1), Y: math.Inf(-1)}}
	for _, p := range [][2]float64{{box.Min.X, box.Min.Y}, {box.Min.X, box.Max.Y}, {box.Max.X, box.Min.Y}, {box.Max.X, box.Max.Y}} {
		x, y := turn(p[0], p[1])
		out.Min.X, out.Min.Y, out.Max.X, out.Max.Y = min(out.Min.X, x), min(out.Min.Y, y), max(out.Max.X, x), max(out.Max.Y, y)
	}
	return out
}

// pdfSkew is the angle (radians, counter-clockwise) most of a page's lines slope at, from each
// glyph to the next in the content's order: a step of about a glyph's advance (0.5 to 1.6 of it)
// that runs to the right, less than 45° up or down, counts. It is 0 for a page whose lines run
// level (a step rises 0.2° or less at the median), for one with fewer than twenty such steps, and
// for one whose steps do not mostly agree (two thirds of them within half a degree of the median:
// a page of level text and a turned stamp on it is level).
func pdfSkew(gs []pdf.Text) float64 {
	// Most pages are level: their steps rise nothing at all, and they are told without measuring
	// a step's angle (reading a 309-page thesis spent 3.6 % of its time here measuring all).
	const level, agree = 0.2 * math.Pi / 180, 0.5 * math.Pi / 180
	step := func(i int) (dx, dy float64, ok bool) {
		a, b := &gs[i-1], &gs[i]
		adv := a.W
		if adv <= 0 {
			adv = 0.5 * a.FontSize
		}
		dx, dy = b.X-a.X, b.Y-a.Y
		d2 := dx*dx + dy*dy
		return dx, dy, dx > 0 && math.Abs(dy) < dx && d2 >= 0.25*adv*adv && d2 <= 2.56*adv*adv
	}
	steps, sloped := 0, 0
	for i := 1; i < len(gs); i++ {
		if dx, dy, ok := step(i); ok {
			steps++
			if math.Abs(dy) > dx*math.Tan(level) {
				sloped++
			}
		}
	}
	if steps < 20 || 2*sloped < steps {
		return 0 // the median step rises 0.2° or less
	}
	angles := make([]float64, 0, steps)
	for i := 1; i < len(gs); i++ {
		if dx, dy, ok := step(i); ok {
			angles = append(angles, math.Atan2(dy, dx))
		}
	}
	sort.Float64s(angles)
	median := angles[len(angles)/2]
	if math.Abs(median) <= level {
		return 0
	}
	sum, n := 0.0, 0
	for _, a := range angles {
		if math.Abs(a-median) <= agree {
			sum += a
			n++
		}
	}
	if 3*n < 2*len(angles) {
		return 0
	}
	return sum / float64(n)
}

// pdfTextDirection says which way most of a page's text runs: 0 across, 1 up, -1 down, 2 back to
// the left. Up or down is told from each glyph to the next in the content's order (vertical
// Chinese runs down with its glyphs upright): a step counts when it moves along one axis by about
// a glyph's advance (0.5 to 1.6 of it: a line's spacing is more than that for Latin text) and
// three times less along the other; a page runs up or down when twenty steps or more do, and more
// than twice as many as run across. Back is told by the glyphs themselves, drawn turned half round
// (pdf.Text.Left), twenty or more and two thirds of them: a page drawn upside down, shown turned
// back by /Rotate 180, which read backwards (a copy so drawn checked 0 %). Not by the steps: upright
// text drawn from the end of each line to its start steps back too, and is read in its places.
func pdfTextDirection(gs []pdf.Text) int {
	left := 0
	for i := range gs {
		if gs[i].Left {
			left++
		}
	}
	if left >= 20 && 3*left >= 2*len(gs) {
		return 2
	}
	across, up, down := 0, 0, 0
	for i := 1; i < len(gs); i++ {
		a, b := &gs[i-1], &gs[i]
		adv := a.W
		if adv <= 0 {
			adv = 0.5 * a.FontSize
		}
		dx, dy := b.X-a.X, b.Y-a.Y
		switch {
		case dx > 0 && math.Abs(dx) > 3*math.Abs(dy) && dx < 1.6*adv:
			across++
		case math.Abs(dy) > 3*math.Abs(dx) && math.Abs(dy) >= 0.5*adv && math.Abs(dy) <= 1.6*adv:
			if dy > 0 {
				up++
			} else {
				down++
			}
		}
	}
	switch {
	case up >= 20 && up > 2*across && up > down:
		return 1
	case down >= 20 && down > 2*across && down > up:
		return -1
	}
	return 0
}

// pdfLevelRuns puts on one baseline the glyphs of each run a page draws from left to right whose
// baselines wander: a line drawn turned by its own angle, or letters each raised or lowered by a
// few points (Ts), which a reader reads as a wavy line and the layout, which makes lines of glyphs
// that share a baseline, cut into pieces of a few letters (lines turned up to 4° each, letters
// raised or lowered by up to 3 pt at 11 pt). A run is eight glyphs or more of one size in content
// order, each within three advances to the right of the one before and 0.8 of an em above or
// below it; it is put on its median baseline when a third of its glyphs or more lie a tenth of an
// em or more from it (a line with a superscript or a footnote mark is left as it is, and so are
// the scattered numbers of a figure).
func pdfLevelRuns(gs []pdf.Text) {
	var ys []float64
	level := func(from, to int) {
		if to-from < 8 {
			return
		}
		flat := true // most runs: nothing to do, told without sorting
		for i := from + 1; i < to && flat; i++ {
			flat = gs[i].Y == gs[from].Y
		}
		if flat {
			return
		}
		ys = ys[:0]
		for i := from; i < to; i++ {
			ys = append(ys, gs[i].Y)
		}
		sort.Float64s(ys)
		median := ys[len(ys)/2]
		em := math.Abs(gs[from].FontSize)
		off := 0
		for i := from; i < to; i++ {
			if math.Abs(gs[i].Y-median) >= 0.1*em {
				off++
			}
		}
		if 3*off < to-from {
			return
		}
		for i := from; i < to; i++ {
			gs[i].Y = median
		}
	}
	start := 0
	for i := 1; i <= len(gs); i++ {
		if i < len(gs) {
			a, b := &gs[i-1], &gs[i]
			em := math.Abs(a.FontSize)
			adv := max(a.W, 0.5*em)
			if dx, dy := b.X-a.X, b.Y-a.Y; b.FontSize == a.FontSize && dx > 0 && dx <= 3*adv && math.Abs(dy) <= 0.8*em {
				continue
			}
		}
		level(start, i)
		start = i
	}
}
