package extract

// Hidden glyphs of a PDF page (see hidden.go): which glyphs a reader cannot see, and where they
// stood among the lines of visible text, so that a paragraph can say where its hidden words were.

import (
	"cmp"
	"errors"
	"image"
	"math"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// pdfPlaceHides says why a glyph's place hides it: outside the visible box or its clip (of paint
// p), covered.
func pdfPlaceHides(g *pdf.Text, p *pdf.Paint, box pdf.Rect) hideSet {
	var why hideSet
	h := math.Abs(g.FontSize)
	x0, x1 := g.X, g.X+max(g.W, 0.1*h)
	y0, y1 := g.Y-0.2*h, g.Y+0.8*h
	outside := func(r pdf.Rect) bool { return x1 < r.Min.X || x0 > r.Max.X || y1 < r.Min.Y || y0 > r.Max.Y }
	if outside(box) {
		why |= hideOffPage
	} else if outside(p.Clip) {
		why |= hideClipped
	}
	if g.Covered {
		why |= hideCovered
	}
	return why
}

// pdfPaintHides says why glyphs painted as p on back cannot be seen, whatever their place, and
// their size when that is why.
func pdfPaintHides(p *pdf.Paint, back *pdf.Backdrop) (hideSet, float64) {
	var why hideSet
	size := min(p.Height, p.Width)
	if !(size > maxTinySize+0.01) { // NaN too; 0.01 for rounding in the matrices
		why |= hideTiny
	}
	if p.Off {
		why |= hideLayer
	}
	fill := p.Mode == 0 || p.Mode == 2 || p.Mode == 4 || p.Mode == 6
	stroke := p.Mode == 1 || p.Mode == 2 || p.Mode == 5 || p.Mode == 6
	switch {
	case !fill && !stroke:
		// Render mode 3 (or 7) over a picture is the OCR text of a scanned page: what the
		// picture shows.
		if !back.Image {
			why |= hideInvisible
		}
	case !(fill && p.FillAlpha > 0.05) && !(stroke && p.StrokeAlpha > 0.05):
		why |= hideTransparent
	case back.Color.Known:
		under := pdfRGB(back.Color)
		// A glyph is seen by what it leaves on its backdrop: a blend mode can leave the backdrop
		// as it was, whatever the glyph's colour. On the paper it blends with nothing (ISO
		// 32000-1 11.4.7: the page group is isolated, composited with the paper after).
		blend := p.Blend
		if back.Paper {
			blend = ""
		}
		shows := func(mode string, on bool, c pdf.Color) bool {
			return on && (!c.Known || !colorsClose(pdfBlend(mode, under, pdfRGB(c)), under))
		}
		reads := func(mode string, on bool, c pdf.Color) bool {
			return on && (!c.Known || legible(pdfBlend(mode, under, pdfRGB(c)), under, size))
		}
		// Through a translucent box laid over it, glyph and backdrop alike.
		veil, veilRGB := back.Veil, pdfRGB(back.Veil.Color)
		over := func(x [3]float64) [3]float64 {
			a := float64(veil.Alpha)
			return [3]float64{a*veilRGB[0] + (1-a)*x[0], a*veilRGB[1] + (1-a)*x[1], a*veilRGB[2] + (1-a)*x[2]}
		}
		readsVeiled := func(on bool, c pdf.Color) bool {
			return on && (!c.Known || legible(over(pdfBlend(blend, under, pdfRGB(c))), over(under), size))
		}
		fillOn, strokeOn := fill && p.FillAlpha > 0.05, stroke && p.StrokeAlpha > 0.05
		// An outline too faint to read and thick enough to cover the letters' strokes (coverWidth)
		// hides the fill it is stroked over.
		if fillOn && strokeOn && p.StrokeAlpha >= 0.95 && p.LineWidth >= coverWidth*size && p.Stroke.Known && !reads(blend, true, p.Stroke) {
			fillOn = false
		}
		switch {
		case veil.Alpha > 0 && (reads(blend, fillOn, p.Fill) || reads(blend, strokeOn, p.Stroke)) &&
			!readsVeiled(fillOn, p.Fill) && !readsVeiled(strokeOn, p.Stroke):
			why |= hideCovered
		case reads(blend, fillOn, p.Fill) || reads(blend, strokeOn, p.Stroke):
		case shows(blend, fillOn, p.Fill) || shows(blend, strokeOn, p.Stroke):
			why |= hideFaint
		case shows("", fillOn, p.Fill) || shows("", strokeOn, p.Stroke):
			why |= hideBlended
		case isWhite(under):
			why |= hideWhite
		default:
			why |= hideBackground
		}
	}
	return why, size
}

func pdfRGB(c pdf.Color) [3]float64 { return [3]float64{float64(c.R), float64(c.G), float64(c.B)} }

// pdfLightFill says why glyphs painted as p, filled only, cannot be read on white: white, or too
// faint (faint); 0 for neither. Yellow junk on a white picture behind the text read as junk on a
// picture does, seen: zh-thesis S004 (34.3 % as a PDF) so read 20.1 %.
func pdfLightFill(p *pdf.Paint) hideSet {
	if !(p.Mode == 0 || p.Mode == 4) || !(p.FillAlpha > 0.05) || !p.Fill.Known {
		return 0
	}
	switch c := pdfRGB(p.Fill); {
	case isWhite(c):
		return hideWhite
	case faint(c, whiteRGB, min(p.Height, p.Width)):
		return hideFaint
	}
	return 0
}

// pdfPictureLum is the grey of each pixel of a picture painted on a page, and where it is.
type pdfPictureLum struct {
	w, h int
	lum  []uint8
	inv  [6]float64 // page → the picture's unit square
	// plain: the picture is of one grey, give or take 8 %, but for one pixel in 200: a picture
	// of nothing.
	plain bool
	// looked: its decoding was tried (pdfLookUnder), not only its size (pdfPlainPicture).
	looked bool
}

// pdfPlainPicture reports whether picture n of the page (Backdrop.Picture) is a picture of
// nothing: one colour, opaque. OCR tools write a scan's text under or over the scan, which shows
// that text, and a glyph there is visible; a picture of one colour put in front of text hides it
// (Word's "In Front of Text" picture over pages of one's own words, which pad out the figure),
// and invisible text over a blank picture is no scan's. A picture whose data is large for its size
// is a real picture and is not decoded: a scanned thesis costs nothing.
func pdfPlainPicture(c pdf.Content, n int32, pictures map[int32]*pdfPictureLum) bool {
	if n <= 0 || int(n) > len(c.Images) {
		return false
	}
	if p := pictures[n]; p != nil {
		return p.plain
	}
	img := &c.Images[n-1]
	xo := img.XObject
	w, h := xo.Key("Width").Int64(), xo.Key("Height").Int64()
	if size := xo.Key("Length").Int64(); !img.Opaque || w <= 0 || h <= 0 || size > w*h/50 && size > 16<<10 ||
		!xo.Key("SMask").IsNull() || !xo.Key("Mask").IsNull() {
		pictures[n] = &pdfPictureLum{} // not decoded, and not looked at again for this page
		return false
	}
	pictures[n] = pdfLookUnder(img)
	return pictures[n].plain
}

// pdfFigure reports whether picture n of the page (Backdrop.Picture) is an opaque picture smaller
// than half the page: in front of a glyph, it hides it, whatever it shows. A scan is the page's
// size, and some OCR tools write its text under it, visible there: that text is what it shows.
// Junk typed under a figure (a text box behind a photograph, saved as a PDF) read as text, and a
// thesis so padded read 12.6 % for 25.9 %.
func pdfFigure(c pdf.Content, n int32, box pdf.Rect) bool {
	if n <= 0 || int(n) > len(c.Images) {
		return false
	}
	img := &c.Images[n-1]
	area := func(r pdf.Rect) float64 { return max(r.Max.X-r.Min.X, 0) * max(r.Max.Y-r.Min.Y, 0) }
	return pdfOpaqueImage(img) && area(img.Box) < area(box)/2
}

// pdfOpaqueImage: the picture lets nothing through where it is painted (no soft mask, no mask, no
// stencil, which paints only its shape).
func pdfOpaqueImage(img *pdf.Image) bool {
	xo := img.XObject
	return img.Opaque && xo.Key("SMask").IsNull() && xo.Key("Mask").IsNull() && !xo.Key("ImageMask").Bool()
}

// pdfPhotoOver reports whether picture n of the page (Backdrop.Picture), drawn over glyphs, is
// opaque and shows no lines of text (pictureShowsText): a photograph, a chart. A scan is the
// page's size, and some OCR tools write its text under it, visible there; but a page of junk under
// a page-sized photograph in front of it, put into zh-thesis S001 (21.6 %), read 8.7 %, the junk
// counted as text. Only such pictures over visible glyphs are decoded (OCR text drawn invisible,
// as Tesseract's, is not judged here): once a page, answered in photos.
func pdfPhotoOver(c pdf.Content, n int32, photos map[int32]bool, budget *atomic.Int64, unseen *int) bool {
	if n <= 0 || int(n) > len(c.Images) {
		return false
	}
	if photo, seen := photos[n]; seen {
		return photo
	}
	img := &c.Images[n-1]
	xo := img.XObject
	photos[n] = false
	if !pdfOpaqueImage(img) {
		return false
	}
	decode, ok := pdfPicture(xo)
	if !ok {
		return false
	}
	// A document's pictures over its text are decoded up to photoPixels in all: a file of
	// hundreds of page-sized pictures over visible text (a scanner's that draws the scan over its
	// OCR text) would take seconds a page. Past it, the text is read and a warning says so.
	if budget != nil && budget.Add(-xo.Key("Width").Int64()*xo.Key("Height").Int64()) < 0 {
		*unseen++
		return false
	}
	pixels, text := lookAt(func() (int, bool) { return pictureShowsText(decode) })
	photos[n] = pixels > 0 && !text
	return photos[n]
}

// photoPixels bounds the pixels pdfPhotoOver decodes for one document, as maxPicturesPixels bounds
// a check's text pictures. Variable for the tests.
var photoPixels int64 = maxPicturesPixels

// pdfLookUnder decodes a picture for pdfPictureLum. A picture that cannot be decoded, a stencil
// mask (its colour is the fill's) or one placed with no area gives one with no pixels: nothing
// under a glyph is known.
func pdfLookUnder(img *pdf.Image) *pdfPictureLum {
	out := &pdfPictureLum{looked: true}
	a, b, c, d, e, f := img.Place[0], img.Place[1], img.Place[2], img.Place[3], img.Place[4], img.Place[5]
	det := a*d - b*c
	if img.XObject.Key("ImageMask").Bool() || math.Abs(det) < 1e-9 ||
		img.XObject.Key("Width").Int64()*img.XObject.Key("Height").Int64() > maxPlainPixels {
		return out
	}
	decode, ok := pdfImage(img.XObject)
	if !ok {
		return out
	}
	pic, err := func() (pic image.Image, err error) {
		defer func() {
			if recover() != nil { // a damaged stream, in the PDF reader
				pic, err = nil, errors.New("damaged")
			}
		}()
		return decode()
	}()
	if err != nil {
		return out
	}
	out.w, out.h, out.lum = luminance(pic)
	_, out.plain = plainLum(out.lum)
	out.inv = [6]float64{d / det, -b / det, -c / det, a / det, (c*f - d*e) / det, (b*e - a*f) / det}
	return out
}

// whiteUnder reports whether the picture is white (as white as isWhite asks) under five points of
// glyph g's box: white text on a white picture is as hidden as on the white page. A student puts
// a picture of nothing behind the text, so that junk typed white between a copy's words stands on
// a picture, whose colour the page's content does not say.
func (p *pdfPictureLum) whiteUnder(g *pdf.Text) bool {
	if len(p.lum) == 0 {
		return false
	}
	h := math.Abs(g.FontSize)
	w := max(g.W, 0.1*h)
	for _, at := range [][2]float64{{0.5, 0.35}, {0.2, 0.1}, {0.8, 0.1}, {0.2, 0.6}, {0.8, 0.6}} {
		x, y := g.X+at[0]*w, g.Y+at[1]*h
		u := p.inv[0]*x + p.inv[2]*y + p.inv[4]
		v := p.inv[1]*x + p.inv[3]*y + p.inv[5]
		if !(u >= 0 && u <= 1 && v >= 0 && v <= 1) {
			return false
		}
		col, row := min(int(u*float64(p.w)), p.w-1), min(int((1-v)*float64(p.h)), p.h-1)
		if grey := float64(p.lum[row*p.w+col]) / 255; grey < 1-0.08 {
			return false
		}
	}
	return true
}

// pdfRight is where a glyph's right edge stands: its origin when it runs to the left of it.
func pdfRight(g *pdf.Text) float64 {
	if g.Left {
		return g.X
	}
	return g.X + g.W
}

// pdfSmall marks the letters and digits drawn at smallShare of the size of the line they stand in
// or less and at maxSmallSize or less, and larger than maxTinySize (tiny whatever is around them):
// junk words set at 3 pt between the words of a copy show as specks between them. en S003 (36.7 %)
// so made as a PDF, a junk word after every two, read 28.7 % with no warning. A line is the glyphs
// on one baseline, to half a point, and its size the largest that a tenth of its letters or more
// are drawn at, as in a Word paragraph (hideSmall). Small glyphs on a baseline of their own (set a
// little higher, as some writers centre a smaller run on the line) stand in the line of three
// letters or more whose height takes them in, within two of its ems of its ends. A superscript is
// larger, and a drop cap's line is one letter. Lines of small print of their own are small when
// they stand between lines of text (pdfSmallBlocks), not as a chart's labels do; the others are
// fine print, which the document as a whole judges (pdfFineShare). nil when there are none.
func pdfSmall(c pdf.Content) (small, fine []bool) {
	// Most pages are told by their paints alone: the smallest type above maxTinySize is more than
	// smallShare of the largest, and more than maxSmallSize.
	least, most := math.Inf(1), 0.0
	for i := range c.Paints {
		if size := pdfPaintSize(&c.Paints[i]); size > maxTinySize {
			least, most = min(least, size), max(most, size)
		}
	}
	if least > most*smallShare && least > maxSmallSize {
		return nil, nil
	}
	sizes := make([]float64, len(c.Text)) // of the letters and digits above maxTinySize; 0 for others
	most = 0
	for i := range c.Text {
		g := &c.Text[i]
		if r, _ := utf8.DecodeRuneInString(g.S); !isLetterOrDigit(r) {
			continue
		}
		if size := pdfPaintSize(&c.Paints[g.Paint]); size > maxTinySize {
			sizes[i] = size
			most = max(most, size)
		}
	}
	lines := map[int64]*pdfSmallLine{}
	for i, size := range sizes {
		if size == 0 {
			continue
		}
		g := &c.Text[i]
		k := pdfLineKey(g)
		l := lines[k]
		if l == nil {
			if len(lines) == pdfSmallLines {
				return nil, pdfAllFine(c)
			}
			l = &pdfSmallLine{key: k, y: g.Y, minX: g.X, maxX: g.X + g.W}
			lines[k] = l
		}
		l.minX, l.maxX = min(l.minX, g.X, g.X+g.W), max(l.maxX, g.X, g.X+g.W)
		l.sizes.add(size, 1)
		if r, _ := utf8.DecodeRuneInString(g.S); unicode.IsLetter(r) {
			l.letters++
		}
	}
	for _, l := range lines {
		l.body = l.sizes.body()
	}
	mark := func(marks *[]bool, i int) {
		if *marks == nil {
			*marks = make([]bool, len(c.Text))
		}
		(*marks)[i] = true
	}
	// Lines looked at, by the blocks and by the small glyphs each (a budget of their own, so that
	// blocks cannot spend the glyphs'): a hostile page of glyphs each on a baseline of its own has
	// as many lines.
	blockWork, work := 0, 0
	if own := pdfSmallBlocks(lines, most, &blockWork); own != nil {
		// Their marks too: a line's commas would make a paragraph of their own.
		for i := range c.Text {
			g := &c.Text[i]
			if pdfPaintSize(&c.Paints[g.Paint]) > maxSmallSize {
				continue
			}
			switch hide, ok := own[pdfLineKey(g)]; {
			case hide:
				mark(&small, i)
			case ok:
				mark(&fine, i)
			}
		}
	}
	for i, size := range sizes {
		if size == 0 || size > most*smallShare || size > maxSmallSize {
			continue
		}
		if work += len(lines); work > pdfSmallWork {
			break
		}
		g := &c.Text[i]
		cx, cy := g.X+g.W/2, g.Y+0.3*size
		in := false
		for _, l := range lines {
			if in {
				break
			}
			in = l.sizes.total >= 3 && size <= l.body*smallShare && cy >= l.y-0.25*l.body && cy <= l.y+0.85*l.body &&
				cx >= l.minX-2*l.body && cx <= l.maxX+2*l.body
		}
		if in {
			mark(&small, i)
			if fine != nil {
				fine[i] = false
			}
		}
	}
	return small, fine
}

// pdfAllFine marks as fine print every glyph of a page of more than pdfSmallLines baselines that
// is drawn at maxSmallSize or less (and more than maxTinySize): too many to judge one by one, and
// for the document to judge. A page 7,700 pt tall of 2,100 lines of 3-pt junk after zh-thesis S004
// (34.3 % as a PDF) read 0.8 %, with no warning. nil when there are none.
func pdfAllFine(c pdf.Content) []bool {
	var fine []bool
	for i := range c.Text {
		if size := pdfPaintSize(&c.Paints[c.Text[i].Paint]); size > maxTinySize && size <= maxSmallSize {
			if fine == nil {
				fine = make([]bool, len(c.Text))
			}
			fine[i] = true
		}
	}
	return fine
}

// pdfPaintSize is the size glyphs of paint p are drawn at on the page, to a quarter point.
func pdfPaintSize(p *pdf.Paint) float64 { return math.Round(min(p.Height, p.Width)*4) / 4 }

// pdfLineKey is the baseline g stands on, to half a point: the key of its pdfSmallLine.
func pdfLineKey(g *pdf.Text) int64 { return int64(math.Round(g.Y * 2)) }

// pdfSmallLine is the letters and digits of a page on one baseline (pdfLineKey).
type pdfSmallLine struct {
	key                 int64
	y, minX, maxX, body float64
	sizes               sizeTally // of its letters and digits
	letters             int       // of them letters
}

// pdfSmallBlocks tells the lines of small print of their own (true) that stand between the lines of
// a page's text, as paragraphs of junk set at 3 pt between a copy's paragraphs do, or in its
// margins (pdfSmallMargins): zh-thesis S004 (34.3 % as a PDF) read 18.4 % with a 3-pt line of junk
// after each paragraph, with no warning. A block is small lines (at most maxSmallSize and
// smallShare of the page's largest letters) one under another, of pdfOwnLetters letters or digits
// or more (pdfChars); on each side, a line of text three times their size or more within pdfOwnGap
// of its ems, or no line at all (the page's first or last lines), and such a line on one side at
// least; or pdfOwnColumn lines or more, pdfOwnLetters a line; or lines of pdfOwnWide on average,
// mostly letters. A chart's labels stand on their own lines too, but under the chart's plot or
// above it, away from the text around it, and its scale's numbers are short or are years: they,
// and all other lines of maxSmallSize or less (a page of small print has no larger text to be
// small beside), are fine print (false).
func pdfSmallBlocks(lines map[int64]*pdfSmallLine, most float64, work *int) map[int64]bool {
	var cand []*pdfSmallLine
	var own map[int64]bool
	for _, l := range lines {
		if l.body > 0 && l.body <= maxSmallSize {
			if own == nil {
				own = map[int64]bool{}
			}
			own[l.key] = false
			if l.body <= most*smallShare {
				cand = append(cand, l)
			}
		}
	}
	if len(cand) == 0 {
		return own
	}
	slices.SortFunc(cand, func(a, b *pdfSmallLine) int { return cmp.Compare(b.y, a.y) }) // top down
	mark := func(ls []*pdfSmallLine) {
		for _, l := range ls {
			own[l.key] = true
		}
	}
	// The lines of text: their baselines, and the width they span.
	colMin, colMax := math.Inf(1), math.Inf(-1)
	var text []float64
	for _, l := range lines {
		if l.body > maxSmallSize && l.sizes.total >= pdfOwnLetters {
			colMin, colMax = min(colMin, l.minX), max(colMax, l.maxX)
			text = append(text, l.y)
		}
	}
	for _, m := range pdfSmallMargins(cand, text, colMin, colMax) {
		mark(m)
	}
	for len(cand) > 0 {
		// The block: the lines under the first, each close under the one before, side by side.
		n, minX, maxX, body := 1, cand[0].minX, cand[0].maxX, cand[0].body
		for ; n < len(cand); n++ {
			l, prev := cand[n], cand[n-1]
			if prev.y-l.y > 2.5*max(prev.body, l.body) || l.maxX < minX || l.minX > maxX {
				break
			}
			minX, maxX, body = min(minX, l.minX), max(maxX, l.maxX), max(body, l.body)
		}
		block := cand[:n]
		cand = cand[n:]
		chars, letters := pdfChars(block)
		if chars < pdfOwnLetters {
			continue
		}
		if *work += len(lines); *work > pdfSmallWork {
			break
		}
		// Each side: a line of text close, or nothing at all (the page's first or last lines). A
		// column of small print, pdfOwnLetters a line, needs neither, nor lines of pdfOwnWide
		// characters, mostly letters: no chart's labels run so many lines so long, or lines so long
		// in words (a scale's numbers are short, or numbers: years). Between lines of text, small
		// print spaced out (24.3 % with a "spaced" warning when so made) is junk as any is: a
		// chart's scale lies under its plot.
		top, bottom := block[0].y, block[len(block)-1].y
		var near, any [2]bool // above, below
		for _, l := range lines {
			if l.maxX < minX || l.minX > maxX || l.y <= top && l.y >= bottom {
				continue
			}
			side, d := 0, l.y-top
			if l.y < bottom {
				side, d = 1, bottom-l.y
			}
			any[side] = true
			near[side] = near[side] || l.body >= body/smallShare && d <= pdfOwnGap*l.body
		}
		between := (near[0] || !any[0]) && (near[1] || !any[1]) && (near[0] || near[1])
		column := len(block) >= pdfOwnColumn && chars >= pdfOwnLetters*len(block)
		wide := chars >= pdfOwnWide*len(block) && 2*letters >= chars
		if !between && !column && !wide {
			continue
		}
		mark(block)
	}
	return own
}

// pdfChars counts the letters and digits of small lines, and of them the letters. Digits count:
// lines of 3-pt numbers after zh-thesis S004's paragraphs read 16.0 % for 34.3 %. A table of
// numbers shrunk to 4 pt or less is hidden too, as a Word table at that size is.
func pdfChars(ls []*pdfSmallLine) (chars, letters int) {
	for _, l := range ls {
		chars, letters = chars+l.sizes.total, letters+l.letters
	}
	return chars, letters
}

// pdfSmallMargins returns the small lines of cand (sorted top down) in a margin: outside the
// lines of text of the page (of pdfOwnLetters letters or more, not small), left or right of all of
// them, beside three of them or more, pdfOwnLetters letters or digits or more. A column of 3-pt
// junk in the right margin of zh-thesis S004's pages, its lines clear of the text's, read 9.8 % for
// 34.2 %; a chart's labels lie inside the text's width, or beside no lines of text (a page of a
// figure and its caption). Line numbers at 4 pt or less are small print as any is.
func pdfSmallMargins(cand []*pdfSmallLine, text []float64, colMin, colMax float64) [][]*pdfSmallLine {
	var left, right []*pdfSmallLine
	for _, l := range cand {
		switch {
		case l.maxX < colMin:
			left = append(left, l)
		case l.minX > colMax:
			right = append(right, l)
		}
	}
	var out [][]*pdfSmallLine
	for _, side := range [][]*pdfSmallLine{left, right} {
		if chars, _ := pdfChars(side); chars < pdfOwnLetters {
			continue
		}
		top, bottom, beside := side[0].y, side[len(side)-1].y, 0
		for _, y := range text {
			if y <= top && y >= bottom {
				beside++
			}
		}
		if beside >= 3 {
			out = append(out, side)
		}
	}
	return out
}

// pdfOwnLetters, pdfOwnGap, pdfOwnColumn and pdfOwnWide: a block of small print of its own holds
// this many letters or digits or more, and stands between two lines of text this many of their ems
// or fewer from it, or runs this many lines or more, or holds lines of this many characters on
// average. The 3-pt junk of zh-thesis S004 stood 0.8 em under a line and 1.2 ems over the next,
// its lines 80-95 characters long; with 30 pt of space above and below it, it read 18.4 %.
const (
	pdfOwnLetters = 10
	pdfOwnGap     = 2.5
	pdfOwnColumn  = 6
	pdfOwnWide    = 40
)

// pdfSmallLines and pdfSmallWork bound pdfSmall's work on a page: the baselines it groups glyphs
// by (a page of text has a hundred or so; past the bound nothing is judged small), and the lines it
// looks at for its small glyphs, each line for each glyph, and as many for its blocks of small
// lines. A hostile page of 131,072 glyphs, half of them 3 pt, each on a baseline of its own, took
// 119 ms with the second bound alone, 122.9 s with neither; one of 1,999 baselines, small and 12 pt
// in turn, 20 glyphs each, 30 ms before there were blocks, 67 ms now (best of five).
const (
	pdfSmallLines = 2000
	pdfSmallWork  = 4 << 20
)

// pdfHiddenGlyph is a glyph a reader cannot see.
type pdfHiddenGlyph struct {
	g    pdf.Text
	why  hideSet
	size float64
}

// pdfSplitHidden separates the glyphs of a page's content that a reader cannot see from those
// they can, keeping both in content order. The visible ones are kept in the content's own array;
// fine gives the size of those that are fine print (pdfSmall), 0 for others, nil when none is.
// Glyphs of one paint on one backdrop (a line, mostly) are judged by their paint once.
func pdfSplitHidden(c pdf.Content, box pdf.Rect, budget *atomic.Int64) (visible []pdf.Text, hidden []pdfHiddenGlyph, fine []float64, unseen int) {
	glyphs := c.Text
	pdfBlankMarks(glyphs)
	stacked := pdfStacked(glyphs)
	small, fineMarks := pdfSmall(c)
	lastPaint, lastBack := int32(-1), int32(-1)
	var paintWhy hideSet
	var paintSize float64
	var onPicture *pdfPictureLum // white (or faint) glyphs on a picture: what the picture is under each
	var light hideSet            // why, on white
	pictures := map[int32]*pdfPictureLum{}
	photos := map[int32]bool{}
	n := 0
	for i := range glyphs {
		g := &glyphs[i]
		p := &c.Paints[g.Paint]
		if g.Paint != lastPaint || g.Back != lastBack {
			lastPaint, lastBack = g.Paint, g.Back
			back := &c.Backdrops[g.Back]
			paintWhy, paintSize = pdfPaintHides(p, back)
			onPicture, light = nil, pdfLightFill(p)
			if back.Picture > 0 && int(back.Picture) <= len(c.Images) && light != 0 {
				if q := pictures[back.Picture]; q == nil || !q.looked {
					pictures[back.Picture] = pdfLookUnder(&c.Images[back.Picture-1])
				}
				onPicture = pictures[back.Picture]
			}
		}
		why := paintWhy | pdfPlaceHides(g, p, box)
		size := paintSize
		if small != nil && small[i] {
			why |= hideTiny
			size = min(p.Height, p.Width)
		}
		if onPicture != nil && onPicture.whiteUnder(g) {
			why |= light
		}
		if g.ImageOver || p.Mode == 3 || p.Mode == 7 {
			pic := c.Backdrops[g.Back].Picture
			switch {
			case pdfPlainPicture(c, pic, pictures):
				// In front of the glyph, a picture of nothing covers it; under or over an
				// invisible glyph, it is no scan the glyph could be the text of.
				if g.ImageOver {
					why |= hideCovered
				} else {
					why |= hideInvisible
				}
			case g.ImageOver && p.Mode != 3 && p.Mode != 7 && (pdfFigure(c, pic, box) || pdfPhotoOver(c, pic, photos, budget, &unseen)):
				why |= hideCovered
			}
		}
		switch piled := stacked != nil && stacked[i]; {
		case !g.Blank && !piled, c.Backdrops[g.Back].Image:
			// OCR text over a scan is drawn in a font that draws nothing (Tesseract's).
		case g.Blank:
			why |= hideBlankFont
		default:
			why |= hideStacked
		}
		if why == 0 {
			if fineMarks != nil && fineMarks[i] {
				if fine == nil {
					fine = make([]float64, len(glyphs)) // as long as visible may grow
				}
				fine[n] = min(p.Height, p.Width)
			}
			if n != i {
				glyphs[n] = *g
			}
			n++
			continue
		}
		r, _ := utf8.DecodeRuneInString(g.S)
		if r == utf8.RuneError || r == 0 || unicode.IsControl(r) && !unicode.IsSpace(r) || pdfSkipRune(r) {
			continue
		}
		h := pdfHiddenGlyph{*g, why, size}
		if unicode.IsSpace(r) {
			h.g.S = " "
		}
		hidden = append(hidden, h)
	}
	if fine != nil {
		fine = fine[:n]
	}
	return glyphs[:n], hidden, fine, unseen
}

// The PDF reader asks a font program the file embeds which of its glyphs draw anything: junk typed
// in a font whose glyphs are empty but keep their advances shows as gaps, not letters; in glyphs
// that draw a speck, as a dotted rule.
func init() {
	pdf.ReadFontProgram = func(data []byte) pdf.FontProgram {
		if p := readFontProgram(data); p != nil {
			return p
		}
		return nil
	}
}

// pdfBlankMarks marks blank (pdf.Text.Blank) the marks and spaces drawn next to blank glyphs, in
// content order, in the same font and paint: junk typed in glyphs that draw specks, in a font whose
// other glyphs draw letters, keeps its punctuation, specks in any font, which read as lines of
// commas between the paragraphs, breaking them (zh-thesis S004 with a line of such junk after
// each paragraph: 33.1 % for 34.3 %, its 38 paragraphs read as 60).
func pdfBlankMarks(glyphs []pdf.Text) {
	// mark marks glyph j, not blank, when it is a mark of from's font and paint. Each glyph is
	// looked at by the blank glyphs on its two sides at most.
	mark := func(j int, from *pdf.Text) bool {
		g := &glyphs[j]
		if g.Font != from.Font || g.Paint != from.Paint || strings.ContainsFunc(g.S, isLetterOrDigit) {
			return false
		}
		g.Blank = true
		return true
	}
	for i := range glyphs {
		if !glyphs[i].Blank {
			continue
		}
		for j := i - 1; j >= 0 && !glyphs[j].Blank && mark(j, &glyphs[i]); j-- {
		}
		for j := i + 1; j < len(glyphs) && !glyphs[j].Blank && mark(j, &glyphs[i]); j++ {
		}
	}
}

// pdfStacked marks the letters and digits that their font gives no width (pdf.Text.W is 0 only
// then) and that stand on the spot of the glyph before or after them in content order: nil when
// there are none. A font whose glyphs draw nothing and take no room (Adobe Blank, or any font
// with its outlines removed) hides junk typed in it between the words of a copied paragraph, in
// Word or LibreOffice, and their PDFs: the page shows the copy, its text holds the junk. Letters
// of no width that a reader could see would be piled on each other, unreadable; combining marks,
// which honest text stacks so, are neither letters nor digits. A glyph of no width on a spot of its
// own is not marked: some writers place every glyph by itself and give none a width.
//
// A letter that has a width is marked too when one of the next two glyphs on its baseline, another
// letter or digit or a space, covers more than 60 % of the narrower of the two: junk condensed
// in Word until its characters pile up (docx piled), or drawn with a negative character spacing or
// kerning, is a smudge a character wide on the page and words in the text. Kerning and CJK
// punctuation's compression overlap glyphs by half of one at most; an accent TeX puts over a
// letter is not a letter; a glyph drawn twice for bold is the same character, and text over a scan
// is read whatever this says. A glyph drawn upside down runs to the left of its origin (Left).
func pdfStacked(glyphs []pdf.Text) []bool {
	var out []bool
	mark := func(i int) {
		if out == nil {
			out = make([]bool, len(glyphs))
		}
		out[i] = true
	}
	letter := func(g *pdf.Text) bool {
		r, _ := utf8.DecodeRuneInString(g.S)
		return isLetterOrDigit(r)
	}
	for i := range glyphs {
		g := &glyphs[i]
		if g.W != 0 {
			continue
		}
		if !letter(g) {
			continue
		}
		tol := 0.05 * max(math.Abs(g.FontSize), 1)
		same := func(j int) bool {
			return j >= 0 && j < len(glyphs) && math.Abs(glyphs[j].X-g.X) < tol && math.Abs(glyphs[j].Y-g.Y) < tol
		}
		if same(i-1) || same(i+1) {
			mark(i)
		}
	}
	var covered []int // letters a glyph after them covers (j may be the first of the text that follows)
	for i := range glyphs {
		g := &glyphs[i]
		gr := pdfRight(g)
		for j := i + 1; j <= i+2 && j < len(glyphs); j++ {
			h := &glyphs[j]
			hr := pdfRight(h)
			over := min(gr, hr) - max(gr-g.W, hr-h.W)
			if !(over > 0.6*min(g.W, h.W)) || !(h.W > 0) || !(g.W > 0) { // nearly every pair: side by side
				continue
			}
			if math.Abs(h.Y-g.Y) < 0.2*max(math.Abs(g.FontSize), 1) && h.S != g.S && letter(g) && (letter(h) || h.S == " ") {
				covered = append(covered, i)
				break
			}
		}
	}
	// A pile is two such letters or more within two glyphs of each other: a space condensed past
	// its width puts one letter over another (TestPDFCondensedSpaces), which a reader still reads
	// as the word.
	for k, i := range covered {
		if k > 0 && i-covered[k-1] <= 2 || k+1 < len(covered) && covered[k+1]-i <= 2 {
			mark(i)
		}
	}
	return out
}

// pdfSkipRune: characters that are never text (byte-order marks, noncharacters).
func pdfSkipRune(r rune) bool {
	return r == '\uFFFE' || r == '\uFEFF' || r >= '\uFDD0' && r <= '\uFDEF'
}

// pdfLineHidden is a run of hidden glyphs that stood in a line, before byte off of its text.
type pdfLineHidden struct {
	off int
	Hidden
}

// pdfLooseHidden is a run of hidden glyphs that stood in no line of visible text.
type pdfLooseHidden struct {
	y float64
	Hidden
}

// pdfPlaceHidden puts each hidden glyph in the line it stood in (on that line's baseline, at most
// six ems from its ends), at the place among the line's glyphs its position gives; glyphs of no
// line are returned as runs of their own. Lines must carry their glyph positions (pos), which it
// drops. A line's ends then take in the room its hidden glyphs took on the page: junk the writer
// laid out with the words (white, or in a font that draws nothing) leaves gaps, and a line that
// starts or ends with such a gap was not indented, nor ended short, by the writer.
func pdfPlaceHidden(lines []pdfLine, hidden []pdfHiddenGlyph, page int) []pdfLooseHidden {
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return lines[order[a]].y > lines[order[b]].y })
	type run struct {
		line, off int
		why       hideSet
		size      float64
		buf       []byte
		first     *pdf.Text
		last      *pdf.Text
	}
	var runs []*run
	room := make([][2]float64, len(lines))
	for i := range lines {
		room[i] = [2]float64{lines[i].x0, lines[i].x1}
	}
	for k := range hidden {
		h := &hidden[k]
		li, off := pdfHiddenLine(lines, order, &h.g), -1
		if li >= 0 {
			l := &lines[li]
			if h.why&hideOffPage == 0 {
				room[li] = [2]float64{min(room[li][0], h.g.X), max(room[li][1], h.g.X+h.g.W)}
			}
			off = len(l.text)
			// Before a glyph drawn on its spot: letters piled with no width stand where the next
			// word begins.
			if j := sort.Search(len(l.pos), func(j int) bool { return l.pos[j].x > h.g.X-0.01 }); j < len(l.pos) {
				off = l.pos[j].off
			}
		}
		var r *run
		if n := len(runs); n > 0 {
			r = runs[n-1]
		}
		if r == nil || r.line != li || r.off != off || r.why != h.why || li < 0 && !pdfSameRun(r.last, &h.g) {
			r = &run{line: li, off: off, why: h.why, first: &h.g}
			runs = append(runs, r)
		} else if h.g.S != " " && h.g.X-(r.last.X+r.last.W) > pdfWordGap*max(math.Abs(h.g.FontSize), 0.1) {
			r.buf = append(r.buf, ' ')
		}
		r.buf = append(r.buf, h.g.S...)
		r.last = &h.g
		if h.why&hideTiny != 0 {
			r.size = max(r.size, h.size)
		}
	}
	var loose []pdfLooseHidden
	for _, r := range runs {
		h := Hidden{Text: cleanPDFText(string(r.buf)), Reasons: r.why.names(), Size: r.size, Page: page}
		if h.Text == "" {
			continue
		}
		if r.line < 0 {
			loose = append(loose, pdfLooseHidden{y: r.first.Y, Hidden: h})
			continue
		}
		lines[r.line].hidden = append(lines[r.line].hidden, pdfLineHidden{off: r.off, Hidden: h})
	}
	for i := range lines {
		l := &lines[i]
		l.pos = nil
		l.firstW += l.x0 - room[i][0] // the line's first word now starts at the gap
		l.x0, l.x1 = room[i][0], room[i][1]
	}
	return loose
}

// pdfHiddenLine is the line hidden glyph g stood in, or -1.
func pdfHiddenLine(lines []pdfLine, order []int, g *pdf.Text) int {
	// order is by baseline, top first: find the lines whose baseline is within half a line of g's.
	start := sort.Search(len(order), func(i int) bool { l := &lines[order[i]]; return l.y <= g.Y+0.5*l.size })
	best, bestD := -1, math.Inf(1)
	for _, i := range order[start:] {
		l := &lines[i]
		if l.y < g.Y-0.5*l.size {
			break
		}
		d := max(0, max(l.x0-g.X, g.X-l.x1))
		if d <= 6*l.size && d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// pdfSameRun: glyph g goes on the run that glyph p ended, on the same baseline and near it.
func pdfSameRun(p, g *pdf.Text) bool {
	em := max(math.Abs(p.FontSize), 1)
	return math.Abs(p.Y-g.Y) < 0.5*em && g.X >= p.X-em && g.X-(p.X+p.W) < 3*em
}

// pdfHiddenBox is where a hidden glyph stands: its baseline and its left and right ends.
type pdfHiddenBox struct{ y, x0, x1 float64 }

// pdfHiddenBoxes are the hidden glyphs' places in order of baseline, for pdfHiddenSpans.
func pdfHiddenBoxes(hidden []pdfHiddenGlyph) []pdfHiddenBox {
	boxes := make([]pdfHiddenBox, 0, len(hidden))
	for i := range hidden {
		if g := &hidden[i].g; g.W > 0 {
			boxes = append(boxes, pdfHiddenBox{g.Y, g.X, g.X + g.W})
		}
	}
	sort.Slice(boxes, func(a, b int) bool { return boxes[a].y < boxes[b].y })
	return boxes
}

// pdfHiddenSpans are the stretches of a line (baseline base, font size size) that hidden glyphs
// take, merged and in order of x: a reader sees a gap there, but not one between columns.
func pdfHiddenSpans(boxes []pdfHiddenBox, base, size float64) [][2]float64 {
	var spans [][2]float64
	for i := sort.Search(len(boxes), func(i int) bool { return boxes[i].y > base-0.5*size }); i < len(boxes) && boxes[i].y < base+0.5*size; i++ {
		spans = append(spans, [2]float64{boxes[i].x0, boxes[i].x1})
	}
	sort.Slice(spans, func(a, b int) bool { return spans[a][0] < spans[b][0] })
	merged := spans[:0]
	for _, s := range spans {
		if n := len(merged); n > 0 && s[0] <= merged[n-1][1]+0.5*size {
			merged[n-1][1] = max(merged[n-1][1], s[1])
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

// pdfCovered is how much of [a, b] the spans cover.
func pdfCovered(spans [][2]float64, a, b float64) float64 {
	covered := 0.0
	for i := sort.Search(len(spans), func(i int) bool { return spans[i][1] > a }); i < len(spans) && spans[i][0] < b; i++ {
		covered += min(b, spans[i][1]) - max(a, spans[i][0])
	}
	return covered
}
