package extract

// A scanned page's text is a layer no reader sees: the OCR text a scanner or an OCR tool writes
// over the page's picture, invisible (render mode 3), or under it. The check reads that layer, and
// whoever makes the file chooses what it holds: zh-thesis S004 (34.3 %) as pictures of its three
// pages at 200 dpi over a layer of S000's own text read 0.0 %, with no warning that the pages show
// other text than was checked. The pictures cannot be read without OCR, but the layer can be
// compared with them: each of its characters stands where the picture draws one, and a
// character's ink (how much, and where in its box) is much the same in any font. pdfLayerMatch
// correlates the ink on the picture along each line with that of the layer's characters drawn in
// the bundled font. Tesseract's layer (ocrmypdf) over those three pages
// correlates at r = 0.32-0.37, over four pages of English at 200 dpi at 0.29-0.37; the layer of
// other text at the same places at -0.02 to 0.09 (Chinese and English). By each character's ink
// alone the Chinese pages read 0.56-0.70, the English ones only 0.18-0.26 (a layer's boxes for
// the letters of a word are as wide as each other, its letters are not), against -0.01 to 0.08.

import (
	"image"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"thesischeck/assets"
)

// layerGlyph is a letter or digit of a text layer, with its box on the page.
type layerGlyph struct {
	r                      rune
	minX, minY, maxX, maxY float64
}

// layerVerdict is what comparing a text layer with its picture found.
type layerVerdict int

const (
	layerUnknown layerVerdict = iota // not compared: too few characters, or a picture that is no page of text
	layerMatches                     // the layer is the text the picture shows
	layerDiffers                     // it is not
)

const (
	// minLayerGlyphs is the fewest letters and digits of a layer over one picture that are
	// compared with it: a scanned figure's labels are fewer, a page of text more.
	minLayerGlyphs = 50
	// maxLayerGlyphs bounds those kept for one picture (a page holds 1,000-2,000).
	maxLayerGlyphs = 4000
	// layerMinR is the correlation under which a layer differs from its picture (pdfLayerMatch).
	layerMinR = 0.2
)

// pdfLayerGlyphs returns the letters and digits of the text layer over or under im: the glyphs
// read though a reader sees the picture instead (invisible, or with the picture painted over
// them), whose centres it holds; nil when they are not most of the text on it or are too few.
func pdfLayerGlyphs(c *pdf.Content, visible []pdf.Text, im *pdf.Image) []layerGlyph {
	b := im.Box
	var out []layerGlyph
	others := 0
	for i := range visible {
		g := &visible[i]
		x, y := g.X+g.W/2, g.Y+0.3*g.FontSize
		if x < b.Min.X || x > b.Max.X || y < b.Min.Y || y > b.Max.Y {
			continue
		}
		r, n := utf8.DecodeRuneInString(g.S)
		if n != len(g.S) || !isLetterOrDigit(r) {
			continue
		}
		if m := c.Paints[g.Paint].Mode; m != 3 && m != 7 && !g.ImageOver || g.Left || g.W <= 0 {
			others++
			continue
		}
		out = append(out, layerGlyph{r: r, minX: g.X, maxX: g.X + g.W, minY: g.Y - 0.12*g.FontSize, maxY: g.Y + 0.88*g.FontSize})
	}
	if len(out) < minLayerGlyphs || len(out) < others {
		return nil
	}
	if len(out) > maxLayerGlyphs { // every k-th, across the page
		k := (len(out) + maxLayerGlyphs - 1) / maxLayerGlyphs
		n := 0
		for i := 0; i < len(out); i += k {
			out[n] = out[i]
			n++
		}
		out = out[:n]
	}
	return out
}

// pdfLayerMatch compares a text layer with the picture img placed on the page by place (the
// image's unit square to the page, its first row at the top): along each of the layer's lines, the
// ink on the picture in stretches a quarter of the line's height wide against the ink of the
// layer's characters there, drawn in the bundled font (Chinese characters' ink differs, some
// having twice the strokes of others; the gaps between English words fall where the layer's do).
// Its verdict is unknown for a picture of no one ground (a photograph) or when too little of the
// layer falls on it.
func pdfLayerMatch(img image.Image, place [6]float64, glyphs []layerGlyph) layerVerdict {
	w, h, lum := luminance(img)
	if w < 64 || h < 64 {
		return layerUnknown
	}
	ground, near := commonGrey(lum, 24)
	if near*100 < len(lum)*55 {
		return layerUnknown
	}
	// sums[y*(w+1)+x] is the ink above and left of (x, y).
	sums := make([]int32, (w+1)*(h+1))
	for y := range h {
		row := int32(0)
		for x := range w {
			if abs(int(lum[y*w+x])-ground) >= 80 {
				row++
			}
			sums[(y+1)*(w+1)+x+1] = sums[y*(w+1)+x+1] + row
		}
	}
	a, b, c, d, e, f := place[0], place[1], place[2], place[3], place[4], place[5]
	det := a*d - b*c
	if math.Abs(det) < 1e-9 {
		return layerUnknown
	}
	// ink is the share of the picture's samples under the page's box x0-x1, y0-y1 that are ink;
	// false when the box is off the picture or under a sample wide or high.
	ink := func(x0, y0, x1, y1 float64) (float64, bool) {
		px := func(x, y float64) (int, int) {
			x, y = x-e, y-f
			u, v := (d*x-c*y)/det, (a*y-b*x)/det
			return int(u * float64(w)), int((1 - v) * float64(h))
		}
		i0, j0 := px(x0, y0)
		i1, j1 := px(x1, y1)
		i0, i1 = min(i0, i1), max(i0, i1)
		j0, j1 = min(j0, j1), max(j0, j1)
		if i0 < 0 || j0 < 0 || i1 > w || j1 > h || i1 <= i0 || j1 <= j0 {
			return 0, false
		}
		n := sums[j1*(w+1)+i1] - sums[j0*(w+1)+i1] - sums[j1*(w+1)+i0] + sums[j0*(w+1)+i0]
		return float64(n) / float64((i1-i0)*(j1-j0)), true
	}
	var lines correlation
	for i := 0; i < len(glyphs); {
		// A line: glyphs one after the other, on one baseline.
		j := i + 1
		for j < len(glyphs) && glyphs[j].minX >= glyphs[j-1].minX && math.Abs(glyphs[j].minY-glyphs[j-1].minY) < 0.3*(glyphs[j].maxY-glyphs[j].minY) {
			j++
		}
		line := glyphs[i:j]
		i = j
		x0, x1, y0, y1 := line[0].minX, line[len(line)-1].maxX, line[0].minY, line[0].maxY
		for _, g := range line {
			y0, y1 = min(y0, g.minY), max(y1, g.maxY)
		}
		step := (y1 - y0) / 4
		if !(step > 0) || (x1-x0)/step > 4000 {
			continue // of no height, or a line no page holds
		}
		bins := int((x1-x0)/step) + 1
		want := make([]float64, bins)
		for _, g := range line {
			ref, ok := refInk(g.r)
			if !ok {
				continue
			}
			for col, v := range ref { // each third of the glyph's width
				cx0 := g.minX + (g.maxX-g.minX)*float64(col)/3
				cx1 := g.minX + (g.maxX-g.minX)*float64(col+1)/3
				for k := max(0, int((cx0-x0)/step)); k < bins && x0+float64(k)*step < cx1; k++ {
					if over := min(x0+float64(k+1)*step, cx1) - max(x0+float64(k)*step, cx0); over > 0 {
						want[k] += float64(v) * over / step
					}
				}
			}
		}
		for k, v := range want {
			if got, ok := ink(x0+float64(k)*step, y0, x0+float64(k+1)*step, y1); ok {
				lines.add(got, v)
			}
		}
	}
	if lines.n < 2*minLayerGlyphs { // stretches: about two for a Latin letter, four for a Chinese character
		return layerUnknown
	}
	if lines.r() < layerMinR {
		return layerDiffers
	}
	return layerMatches
}

// correlation accumulates Pearson's correlation of pairs of values.
type correlation struct {
	n                     int
	sx, sy, sxx, syy, sxy float64
}

func (c *correlation) add(x, y float64) {
	c.n++
	c.sx, c.sy, c.sxx, c.syy, c.sxy = c.sx+x, c.sy+y, c.sxx+x*x, c.syy+y*y, c.sxy+x*y
}

// r is the correlation; 0 when either value does not vary (a blank picture under characters).
func (c *correlation) r() float64 {
	n := float64(c.n)
	vx, vy := c.sxx/n-c.sx/n*c.sx/n, c.syy/n-c.sy/n*c.sy/n
	if c.n < 2 || vx <= 0 || vy <= 0 {
		return 0
	}
	return (c.sxy/n - c.sx/n*c.sy/n) / math.Sqrt(vx*vy)
}

// refInk is the ink of r drawn in the bundled font (Noto Sans SC: Latin and CJK) in each third of
// its box (its advance wide, from 0.88 em above the baseline to 0.12 below), left to right, as
// shares of it; false when the font has no glyph for r.
func refInk(r rune) ([3]float32, bool) {
	refMu.Lock()
	defer refMu.Unlock()
	if v, ok := refInks[r]; ok {
		return v.ink, v.ok
	}
	ink, ok := drawRef(r)
	refInks[r] = refGlyph{ink, ok}
	return ink, ok
}

type refGlyph struct {
	ink [3]float32
	ok  bool
}

var (
	refMu   sync.Mutex
	refInks = map[rune]refGlyph{}
	refFont = sync.OnceValue(func() *sfnt.Font {
		f, err := sfnt.Parse(assets.FontRegular)
		if err != nil {
			return nil
		}
		return f
	})
	refBuf    sfnt.Buffer
	refRaster vector.Rasterizer
)

// drawRef draws r for refInk, at 30 pixels to the em.
func drawRef(r rune) (ink [3]float32, ok bool) {
	const em = 30
	f := refFont()
	if f == nil {
		return ink, false
	}
	g, err := f.GlyphIndex(&refBuf, r)
	if err != nil || g == 0 {
		return ink, false
	}
	adv, err := f.GlyphAdvance(&refBuf, g, fixed.I(em), font.HintingNone)
	w := adv.Round()
	if err != nil || w < 3 {
		return ink, false
	}
	segs, err := f.LoadGlyph(&refBuf, g, fixed.I(em), nil)
	if err != nil {
		return ink, false
	}
	const top = 0.88 * em // the baseline, from the box's top
	pt := func(p fixed.Point26_6) (float32, float32) {
		return float32(p.X) / 64, float32(p.Y)/64 + top
	}
	refRaster.Reset(w, em)
	for _, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			refRaster.MoveTo(pt(s.Args[0]))
		case sfnt.SegmentOpLineTo:
			refRaster.LineTo(pt(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			bx, by := pt(s.Args[0])
			cx, cy := pt(s.Args[1])
			refRaster.QuadTo(bx, by, cx, cy)
		case sfnt.SegmentOpCubeTo:
			bx, by := pt(s.Args[0])
			cx, cy := pt(s.Args[1])
			dx, dy := pt(s.Args[2])
			refRaster.CubeTo(bx, by, cx, cy, dx, dy)
		}
	}
	mask := image.NewAlpha(image.Rect(0, 0, w, em))
	refRaster.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
	for j := range 3 {
		x0, x1 := w*j/3, w*(j+1)/3
		sum := 0
		for y := range em {
			for x := x0; x < x1; x++ {
				sum += int(mask.Pix[y*mask.Stride+x])
			}
		}
		if x1 > x0 {
			ink[j] = float32(sum) / float32(255*(x1-x0)*em)
		}
	}
	return ink, true
}
