// Copyright 2014 The Go Authors.  All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// PATCH: Content is rewritten. Upstream advanced the text position by the width of the
// byte at the rune's index (so CID fonts, whose widths live in the descendant font's /W,
// gave W = 0 and one X for a whole Tj run), ignored word spacing, re-parsed the font at
// every Tf, appended a "\n" glyph after each TJ, panicked on a Q without q and on
// malformed operands, and did not look inside form XObjects. It also keeps the graphics
// state that decides whether a glyph shows (see paint.go).

package pdf

import (
	"math"
	"slices"
)

// maxGlyphs bounds the glyphs one page may produce, so that a hostile content stream that
// loops over a form cannot exhaust memory.
const maxGlyphs = 1 << 17

// Content describes the basic content on a page: the text and any drawn rectangles.
type Content struct {
	Text []Text
	Rect []Rect
	// PATCH: what the text lacks. Truncated: the page drew more than maxGlyphs glyphs and the rest
	// were left out. Damaged: a content stream could not be read to its end.
	Truncated, Damaged bool
	// PATCH: how the glyphs are painted (Text.Paint indexes Paints) and what on (Text.Back
	// indexes Backdrops). Indices rather than pointers: a page's glyphs are many, and pointers in
	// them cost write barriers and the garbage collector's time.
	Paints    []Paint
	Backdrops []Backdrop
	// PATCH: the image XObjects painted where they can be seen, at most maxImages a page, so that
	// a caller can tell a picture of text (a screenshot of copied paragraphs) from a figure.
	Images []Image
	// PATCH: the boxes of the subpaths of the filled paths that are not only rectangles, at most
	// maxShapes a page: text converted to outlines ("curves") fills a shape for each stroke of
	// each character, in lines, where a chart fills a few, or many scattered.
	Shapes []Rect
}

// Image is an image XObject painted on a page: the part of the page it covers (clipped) and the
// XObject, whose stream holds its samples.
type Image struct {
	Box     Rect
	XObject Value
	// Place maps the image's unit square to the page (x' = a x + c y + e, y' = b x + d y + f, as
	// [a b c d e f]); its first sample row is at the square's top (PATCH).
	Place [6]float64
	// Opaque: painted with normal blending, no soft mask, full opacity (PATCH): it hides what
	// is under it where its own samples do not let it through.
	Opaque bool
}

type textState struct {
	Tc, Tw, Th, Tl, Tfs, Trise float64
	Tmode                      int
	font                       *fontInfo
	Tm, Tlm, CTM               matrix
	paint                      paintState
	// base is the space patterns are placed in (PATCH): the default space of the page, or of the
	// form, appearance or pattern cell being run.
	base matrix
	// lineWidth is the width strokes are drawn with (w, or an ExtGState's LW), in user space
	// (PATCH): a thick line of one colour hides text under it, as a filled rectangle does.
	lineWidth float64
}

type contentReader struct {
	r         *Reader
	text      []Text
	rect      []Rect
	visiting  map[objptr]bool
	work      work
	truncated bool

	ocOff    map[objptr]bool // optional content groups that are off when the file opens
	regions  []region
	images   []Image
	shapes   []Rect
	overflow int // glyphs drawn before the region past maxRegions; -1 while there is none
	path     pathState
	paints   []Paint // the last is that of the last glyphs shown, shared while it is the same
	lastKey  paintKey
	gen      uint64 // the last paintState.gen given out
	// clipOnly are glyphs shown in render mode 7 that nothing was painted through yet, with
	// the depth of the graphics state stack they clip at: a Q below that depth ends the clip.
	clipOnly []clipGlyph
	// textClip is the shallowest depth at which glyphs of render mode 7 clip what is painted, -1
	// for none (PATCH): what is painted then shows only in their shapes, and covers nothing.
	textClip int
	depth    int // nesting of q and of forms, across forms
}

type clipGlyph struct{ index, depth int }

// paintKey is what a Paint is made from: glyphs shown with one key share one Paint.
type paintKey struct {
	gen           uint64
	mode          int
	height, width float64
	off           bool
	lineWidth     float64 // PATCH: Paint.LineWidth
}

// newGen names a paintState that was just changed. A state restored by Q keeps the name it had,
// so one name always means one state.
func (c *contentReader) newGen() uint64 {
	c.gen++
	return c.gen
}

// newDefaultFont is the font of text shown before any Tf. Each content stream gets its own: the
// decode cache is written as text is read, and documents are read concurrently (a shared one
// crashed imports with "concurrent map writes").
func newDefaultFont() *fontInfo {
	return &fontInfo{scale: 0.001, simple: &pdfDocEncoding, decoded: map[uint64]decodedCode{}}
}

// Recycle gives c's Text back to the page's Reader (PATCH), for the Reader's next Content to fill
// instead of allocating its own (the glyphs of a 313-page thesis were 90 of the 392 MB its check
// allocated). Call it when nothing of c is used any more; like Content, on one goroutine per Reader.
func (p Page) Recycle(c Content) {
	if r := p.V.r; r != nil && cap(c.Text) > cap(r.textBuf) {
		r.textBuf = c.Text[:0]
	}
}

// Content returns the page's content: one Text per character, in content-stream order,
// with its position, size and advance in default user space, and how it is painted.
//
// Content panics on a content stream it cannot read at all, and with an error wrapping ErrLimit on
// one past the bounds of limits.go; callers recover.
func (p Page) Content() Content {
	if p.V.IsNull() || p.V.Key("Contents").Kind() == Null {
		return Content{}
	}
	r := p.V.r
	if r.work == nil {
		r.work = new(int64)
		*r.work = maxReaderWork
	}
	c := &contentReader{r: r, textClip: -1, visiting: map[objptr]bool{}, work: work{page: maxPageWork, reader: r.work},
		overflow: -1, ocOff: r.optionalContentOff()}
	c.path.reset()
	if cap(r.textBuf) > 0 { // PATCH: the Text a caller gave back (Page.Recycle)
		c.text, r.textBuf = r.textBuf, nil
	} else {
		c.text = make([]Text, 0, min(r.glyphHint, 8192)) // PATCH: the page before's count (Reader.glyphHint)
	}
	g := freshState(ident, newPaintState())
	c.run(p.V.Key("Contents"), p.Resources(), g, 0)
	c.annotations(p.V.Key("Annots"), p.Resources()) // PATCH
	r.glyphHint = len(c.text)                       // PATCH
	return Content{Text: c.text, Rect: c.rect, Truncated: c.truncated, Damaged: c.work.damaged, Paints: c.paints, Backdrops: c.backgrounds(), Images: c.images, Shapes: c.shapes}
}

// freshState is the state a content stream starts in (PATCH): the page's, an annotation's
// appearance's, a pattern cell's, a soft mask's group's, a Type 3 glyph's, drawn through ctm with
// paint, its patterns placed in the space ctm makes.
func freshState(ctm matrix, paint paintState) textState {
	return textState{Th: 1, CTM: ctm, Tm: ident, Tlm: ident, font: newDefaultFont(), paint: paint, base: ctm, lineWidth: 1}
}

func matrixArgs(args []Value) (matrix, bool) {
	var m matrix
	if len(args) != 6 {
		return m, false
	}
	for i := 0; i < 6; i++ {
		m[i/2][i%2] = args[i].Float64()
	}
	m[2][2] = 1
	return m, true
}

// translate returns [1 0 0; 0 1 0; tx ty 1] × m without a full multiplication.
func translate(tx, ty float64, m matrix) matrix {
	m[2][0] += tx*m[0][0] + ty*m[1][0]
	m[2][1] += tx*m[0][1] + ty*m[1][1]
	return m
}

// run interprets a content stream from the graphics state g (a form's caller's, with the
// form's matrix).
func (c *contentReader) run(strm, res Value, g textState, depth int) {
	g.Tm, g.Tlm = ident, ident
	var stack []textState
	// Marked content: whether each open BMC/BDC is optional content that is off.
	var marked []bool
	offDepth := 0
	fonts := res.Key("Font")
	nextLine := func() {
		g.Tlm = translate(0, -g.Tl, g.Tlm)
		g.Tm = g.Tlm
	}
	interpret(strm, &c.work, func(stk *Stack, op string) {
		args := popArgs(stk)
		if len(c.text) >= maxGlyphs {
			c.truncated = true
			return
		}
		if c.path.op(op, args, g.CTM) {
			return
		}
		switch op {
		case "cm":
			if m, ok := matrixArgs(args); ok {
				g.CTM = m.mul(g.CTM)
			}
		case "q":
			if len(stack) >= maxSaveDepth { // PATCH: ten million q took gigabytes
				panic(limitError("graphics states nested more than %d deep", maxSaveDepth))
			}
			stack = append(stack, g)
			c.depth++
		case "Q":
			if n := len(stack); n > 0 {
				g = stack[n-1]
				stack = stack[:n-1]
				c.depth--
				c.endClips()
			}
		case "re":
			if len(args) == 4 {
				x, y, w, h := args[0].Float64(), args[1].Float64(), args[2].Float64(), args[3].Float64()
				c.rect = append(c.rect, Rect{Point{x, y}, Point{x + w, y + h}})
			}
		case "w":
			if len(args) == 1 {
				g.lineWidth = args[0].Float64()
			}
		case "f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "n", "W", "W*":
			fill := offDepth == 0 && op != "S" && op != "s" && op != "n" && op != "W" && op != "W*" &&
				(g.paint.pattern.Kind() == Stream || g.paint.mask.Kind() == Stream)
			var areas []Rect // what a fill that shows text of a pattern or a mask paints
			if fill {
				areas = []Rect{c.path.box}
				if !c.path.other && len(c.path.rects) > 0 {
					areas = slices.Clone(c.path.rects)
				}
			}
			width := 0.0
			if op == "S" || op == "s" {
				// The stroke's width on the page (a scale that is not uniform: its mean).
				width = g.lineWidth * math.Sqrt(math.Abs(g.CTM[0][0]*g.CTM[1][1]-g.CTM[0][1]*g.CTM[1][0]))
			}
			c.paintPath(op, &g.paint, offDepth > 0, width)
			if fill && g.paint.pattern.Kind() == Stream {
				c.patternCells(g, areas, res, depth)
			}
			if fill && g.paint.mask.Kind() == Stream {
				c.maskText(g, areas, res, depth)
			}
		case "g", "rg", "k", "G", "RG", "K", "sc", "scn", "SC", "SCN", "cs", "CS":
			g.paint.setColor(op, args, res)
			g.paint.gen = c.newGen()
		case "gs":
			if len(args) == 1 {
				gs := res.Key("ExtGState").Key(args[0].Name())
				g.paint.setExtGState(gs, nameKey{res.ptr, args[0].Name()})
				if lw := gs.Key("LW"); lw.Kind() == Integer || lw.Kind() == Real {
					g.lineWidth = lw.Float64()
				}
				if !gs.Key("SMask").IsNull() {
					g.paint.maskBase = g.CTM // a mask's group is placed as the CTM was when gs set it
				}
				g.paint.gen = c.newGen()
			}
		case "sh":
			reg := region{box: g.paint.clip.intersect(noClip)}
			if len(args) == 1 {
				reg.back.Color = shadingBack(res.Key("Shading").Key(args[0].Name()), &g.paint)
				// PATCH: one colour, opaque, through a rectangle: it covers what it is painted over.
				reg.cover = reg.back.Color.Known && !g.paint.clipShaped
			}
			c.addRegion(reg, &g.paint)
			if g.paint.mask.Kind() == Stream && offDepth == 0 {
				c.maskText(g, []Rect{reg.box}, res, depth)
			}
		case "BI":
			c.addRegion(region{box: transformRect(Rect{Point{0, 0}, Point{1, 1}}, g.CTM), back: Backdrop{Image: true}}, &g.paint)
		case "BMC", "BDC":
			off := false
			if op == "BDC" && len(args) == 2 && args[0].Name() == "OC" {
				props := args[1]
				if props.Kind() == Name {
					props = res.Key("Properties").Key(props.Name())
				}
				off = c.contentOff(props)
			}
			if len(marked) < 1024 {
				marked = append(marked, off)
				if off {
					offDepth++
				}
			}
		case "EMC":
			if n := len(marked); n > 0 {
				if marked[n-1] {
					offDepth--
				}
				marked = marked[:n-1]
			}
		case "BT":
			g.Tm, g.Tlm = ident, ident
		case "ET":
			// Glyphs of render mode 7 become the clip only now; see clipOnly.
			for i := len(c.clipOnly) - 1; i >= 0 && c.clipOnly[i].depth < 0; i-- {
				c.clipOnly[i].depth = c.depth
				if c.textClip < 0 || c.depth < c.textClip { // PATCH: textClip
					c.textClip = c.depth
				}
			}
		case "T*":
			nextLine()
		case "Tc":
			if len(args) == 1 {
				g.Tc = args[0].Float64()
			}
		case "Tw":
			if len(args) == 1 {
				g.Tw = args[0].Float64()
			}
		case "Tz":
			if len(args) == 1 {
				g.Th = args[0].Float64() / 100
			}
		case "TL":
			if len(args) == 1 {
				g.Tl = args[0].Float64()
			}
		case "Ts":
			if len(args) == 1 {
				g.Trise = args[0].Float64()
			}
		case "Tr":
			if len(args) == 1 {
				g.Tmode = int(args[0].Int64())
			}
		case "TD", "Td":
			if len(args) == 2 {
				if op == "TD" {
					g.Tl = -args[1].Float64()
				}
				g.Tlm = translate(args[0].Float64(), args[1].Float64(), g.Tlm)
				g.Tm = g.Tlm
			}
		case "Tm":
			if m, ok := matrixArgs(args); ok {
				g.Tm, g.Tlm = m, m
			}
		case "Tf":
			if len(args) == 2 {
				name := args[0].Name()
				g.font = c.r.font(fonts.Key(name), name)
				g.Tfs = args[1].Float64()
			}
		case "Tj":
			if len(args) == 1 {
				c.show(&g, args[0].RawString(), offDepth > 0, res, depth)
			}
		case "'":
			if len(args) == 1 {
				nextLine()
				c.show(&g, args[0].RawString(), offDepth > 0, res, depth)
			}
		case "\"":
			if len(args) == 3 {
				g.Tw, g.Tc = args[0].Float64(), args[1].Float64()
				nextLine()
				c.show(&g, args[2].RawString(), offDepth > 0, res, depth)
			}
		case "TJ":
			if len(args) != 1 {
				return
			}
			v := args[0]
			for i := 0; i < v.Len(); i++ {
				x := v.Index(i)
				if x.Kind() == String {
					c.show(&g, x.RawString(), offDepth > 0, res, depth)
				} else {
					g.Tm = translate(-x.Float64()/1000*g.Tfs*g.Th, 0, g.Tm)
				}
			}
		case "Do":
			if len(args) == 1 {
				xo := res.Key("XObject").Key(args[0].Name())
				switch xo.Key("Subtype").Name() {
				case "Image":
					box := transformRect(Rect{Point{0, 0}, Point{1, 1}}, g.CTM)
					pic := c.addImage(box, xo, &g.paint, g.CTM)
					c.addRegion(region{box: box, back: Backdrop{Image: true, Picture: pic}}, &g.paint)
					if g.paint.mask.Kind() == Stream && offDepth == 0 {
						c.maskText(g, []Rect{box}, res, depth)
					}
				case "Form":
					inner := g
					inner.paint.off = g.paint.off || offDepth > 0 || c.contentOff(xo.Key("OC"))
					inner.paint.gen = c.newGen()
					c.form(xo, res, inner, depth)
				}
			}
		}
	})
}

// annotations draws the appearances of a page's annotations on it, as viewers show them (ISO
// 32000-1, 12.5.5: the appearance stream's box, through its matrix, is fitted to the annotation's
// rectangle). PATCH: upstream read the page's content stream only, so text a reader sees in a
// text box annotation ("FreeText": Acrobat's Typewriter, Fill & Sign) or a filled form field was
// missing. Annotations hidden or not shown on screen (flags Invisible, Hidden, NoView), popups and
// links are left out, and at most maxAnnots a page are drawn.
func (c *contentReader) annotations(annots, res Value) {
	for i := 0; i < annots.Len() && i < maxAnnots; i++ {
		a := annots.Index(i)
		if a.Kind() != Dict || a.Key("F").Int64()&(1|2|32) != 0 {
			continue
		}
		switch a.Key("Subtype").Name() {
		case "Popup", "Link":
			continue
		}
		ap := a.Key("AP").Key("N")
		if ap.Kind() == Dict {
			ap = ap.Key(a.Key("AS").Name())
		}
		to, okRect := rectValue(a.Key("Rect"))
		box, okBox := rectValue(ap.Key("BBox"))
		if ap.Kind() != Stream && okRect {
			if text, da, oneLine := c.synthText(a); text != "" { // PATCH: a viewer makes the appearance
				c.drawSynthText(text, da, oneLine, to, c.contentOff(a.Key("OC")))
			}
			continue
		}
		if ap.Kind() != Stream || !okRect || !okBox {
			continue
		}
		m, ok := matrixArgs(arrayValues(ap.Key("Matrix")))
		if !ok {
			m = ident
		}
		box = transformRect(box, m)
		w, h := box.Max.X-box.Min.X, box.Max.Y-box.Min.Y
		if box.empty() || to.empty() || w <= 0 || h <= 0 {
			continue
		}
		sx, sy := (to.Max.X-to.Min.X)/w, (to.Max.Y-to.Min.Y)/h
		g := freshState(matrix{{sx, 0, 0}, {0, sy, 0}, {to.Min.X - box.Min.X*sx, to.Min.Y - box.Min.Y*sy, 1}}, newPaintState())
		g.paint.off = c.contentOff(a.Key("OC"))
		g.paint.gen = c.newGen()
		c.form(ap, res, g, 0)
	}
}

// form runs a form XObject's content with its own matrix and resources, clipped to its box.
func (c *contentReader) form(xo, res Value, g textState, depth int) {
	if xo.Kind() != Stream || c.visiting[xo.ptr] {
		return
	}
	if depth >= maxFormDepth { // PATCH: deeper forms were left out in silence
		panic(limitError("forms nested more than %d deep", maxFormDepth))
	}
	c.work.charge(drawCost)
	c.visiting[xo.ptr] = true
	defer delete(c.visiting, xo.ptr)
	m, ok := matrixArgs(arrayValues(xo.Key("Matrix")))
	if !ok {
		m = ident
	}
	g.CTM = m.mul(g.CTM)
	g.base = g.CTM
	if box, ok := rectValue(xo.Key("BBox")); ok {
		g.paint.clip = g.paint.clip.intersect(transformRect(box, g.CTM))
		g.paint.clipShaped = g.paint.clipShaped || !g.CTM.axisAligned() // PATCH
		g.paint.gen = c.newGen()
	}
	xres := xo.Key("Resources")
	if xres.Kind() != Dict {
		xres = res
	}
	saved := c.depth
	c.depth++
	c.run(xo, xres, g, depth+1)
	c.depth = saved
	c.endClips()
}

// patternCells draws the cells of the tiling pattern g.paint.pattern, whose cell shows text, that a
// fill of areas shows (PATCH): ISO 32000-1 8.7.3, each cell the pattern's content in its /BBox,
// placed at (i×XStep, j×YStep) through /Matrix in the space of the content the pattern was named
// in, and clipped to what was filled. Viewers show that text like any other; the fill, read as a
// box of one colour, showed no text and hid the text under it ("covered"): a paragraph typeset in
// a pattern's cell was missing from a check, unsaid. A fill of more than maxPatternTiles cells is
// a texture of repeated words, left out. A cell is drawn once, clipped to the box around the parts
// of it the areas show.
func (c *contentReader) patternCells(g textState, areas []Rect, res Value, depth int) {
	pat := g.paint.pattern
	if c.visiting[pat.ptr] || depth >= maxFormDepth {
		return
	}
	cell, ok := rectValue(pat.Key("BBox"))
	xs, ys := math.Abs(pat.Key("XStep").Float64()), math.Abs(pat.Key("YStep").Float64())
	if !ok || cell.empty() || xs == 0 || ys == 0 {
		return
	}
	m, ok := matrixArgs(arrayValues(pat.Key("Matrix")))
	if !ok {
		m = ident
	}
	m = m.mul(g.base)
	inv, ok := m.inverse()
	if !ok {
		return
	}
	// The cells each area shows: those whose box, placed, overlaps it.
	type tile struct {
		i, j float64
		ctm  matrix
		clip Rect
	}
	var tiles []tile
	for _, area := range areas {
		area = area.intersect(g.paint.clip)
		if area.empty() {
			continue
		}
		a := transformRect(area, inv) // in pattern space
		i0, i1 := math.Ceil((a.Min.X-cell.Max.X)/xs), math.Floor((a.Max.X-cell.Min.X)/xs)
		j0, j1 := math.Ceil((a.Min.Y-cell.Max.Y)/ys), math.Floor((a.Max.Y-cell.Min.Y)/ys)
		if !(i1-i0 < maxPatternTiles && j1-j0 < maxPatternTiles) { // NaN too
			return
		}
		for i := i0; i <= i1; i++ {
			for j := j0; j <= j1; j++ {
				ctm := translate(i*xs, j*ys, m)
				clip := area.intersect(transformRect(cell, ctm))
				if !(clip.Min.X < clip.Max.X && clip.Min.Y < clip.Max.Y) { // the cell only touches the area
					continue
				}
				// A cell two areas show is drawn once, clipped to the box around both parts.
				k := slices.IndexFunc(tiles, func(t tile) bool { return t.i == i && t.j == j })
				if k >= 0 {
					tiles[k].clip.add(clip.Min.X, clip.Min.Y)
					tiles[k].clip.add(clip.Max.X, clip.Max.Y)
					continue
				}
				if len(tiles) == maxPatternTiles {
					return
				}
				tiles = append(tiles, tile{i, j, ctm, clip})
			}
		}
	}
	xres := pat.Key("Resources")
	if xres.Kind() != Dict {
		xres = res
	}
	c.visiting[pat.ptr] = true
	defer delete(c.visiting, pat.ptr)
	for _, t := range tiles {
		c.work.charge(drawCost)
		s := freshState(t.ctm, newPaintState())
		s.paint.clip, s.paint.off, s.paint.gen = t.clip, g.paint.off, c.newGen()
		saved := c.depth
		c.depth++
		c.run(pat, xres, s, depth+1)
		c.depth = saved
		c.endClips()
	}
}

// maskText draws the text of the group of g's soft mask where a paint of areas shows through it
// (PATCH): a box painted black through a luminosity mask whose group is white text on black shows
// that text in black, and pdftotext reads it from the group. The group is run as a form, placed as
// the CTM was when gs set the mask, clipped to the box around the areas; its glyphs are painted in
// a colour not known (what shows through is the paint's), and its fills paint nothing on the page.
// Before, a paragraph shown so was missing from a check, unsaid.
func (c *contentReader) maskText(g textState, areas []Rect, res Value, depth int) {
	clip := emptyRect()
	for _, a := range areas {
		if a = a.intersect(g.paint.clip); !a.empty() {
			clip.add(a.Min.X, a.Min.Y)
			clip.add(a.Max.X, a.Max.Y)
		}
	}
	if clip.empty() || g.paint.inMask {
		return
	}
	t := freshState(g.paint.maskBase, newPaintState())
	t.paint.fill, t.paint.stroke = Color{}, Color{}
	t.paint.clip, t.paint.off, t.paint.inMask, t.paint.gen = clip, g.paint.off, true, c.newGen()
	c.form(g.paint.mask, res, t, depth)
}

// glyphText draws the text a Type 3 glyph's procedure shows, where the glyph is drawn (PATCH): a
// glyph whose procedure shows a sentence in another font shows a reader that sentence, while the
// text layer holds one letter (pdftotext reads the letter). A thesis set in such glyphs read as
// its letters, missing from a check with nothing said.
func (c *contentReader) glyphText(g *textState, f *fontInfo, proc Value, off bool, res Value, depth int) {
	trm := matrix{{g.Tfs * g.Th, 0, 0}, {0, g.Tfs, 0}, {0, g.Trise, 1}}.mul(g.Tm).mul(g.CTM)
	ctm := f.matrix.mul(trm)
	t := freshState(ctm, g.paint)
	t.paint.off = t.paint.off || off
	t.paint.gen = c.newGen()
	if f.res.Kind() == Dict {
		res = f.res
	}
	c.lastKey = paintKey{gen: math.MaxUint64} // the glyphs after it take their paint anew
	c.form(proc, res, t, depth)
}

// inverse is m's inverse, if it has one.
func (m matrix) inverse() (matrix, bool) {
	a, b, cc, d, e, f := m[0][0], m[0][1], m[1][0], m[1][1], m[2][0], m[2][1]
	det := a*d - b*cc
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return matrix{}, false
	}
	return matrix{{d / det, -b / det, 0}, {-cc / det, a / det, 0}, {(cc*f - d*e) / det, (b*e - a*f) / det, 1}}, true
}

// rectValue reads a rectangle written as an array of four numbers, its corners in either order.
func rectValue(v Value) (Rect, bool) {
	if v.Len() != 4 {
		return Rect{}, false
	}
	r := emptyRect()
	r.add(v.Index(0).Float64(), v.Index(1).Float64())
	r.add(v.Index(2).Float64(), v.Index(3).Float64())
	return r, true
}

func arrayValues(v Value) []Value {
	out := make([]Value, v.Len())
	for i := range out {
		out[i] = v.Index(i)
	}
	return out
}

// paintPath ends the current path: a fill paints a region, W and W* narrow the clip (to the
// path's bounding box, which holds the real clip), and every other operator only discards it. A
// path in marked content of a layer that is off (off) paints nothing.
func (c *contentReader) paintPath(op string, ps *paintState, off bool, strokeWidth float64) {
	p := &c.path
	p.closeSub()
	if off && op != "W" && op != "W*" {
		p.reset()
		return
	}
	switch op {
	case "W", "W*":
		if !p.box.empty() { // a clip without a path is taken as none, as viewers do
			ps.clip = ps.clip.intersect(p.box)
			ps.clipShaped = ps.clipShaped || p.other || len(p.rects) != 1 // PATCH
			ps.gen = c.newGen()
		}
		return // the path is still painted (or discarded) by the next operator
	case "S", "s":
		half := strokeWidth / 2
		c.paintedThrough(Rect{Point{p.box.Min.X - half, p.box.Min.Y - half}, Point{p.box.Max.X + half, p.box.Max.Y + half}})
		c.strokeRegions(ps, strokeWidth)
	case "f", "F", "f*", "B", "B*", "b", "b*":
		opaque := ps.opaque && ps.fillAlpha >= 1 && !ps.fillNone
		if p.other {
			reg := region{box: p.box}
			if shape := p.shape(); shape != nil && opaque && ps.fill.Known { // PATCH: region.shape
				reg.back.Color, reg.cover, reg.shape = ps.fill, true, shape
				for _, s := range shape {
					reg.points += len(s)
				}
				reg.evenOdd = op == "f*" || op == "B*" || op == "b*"
			}
			c.addRegion(reg, ps)
			c.addShapes(ps)
			break
		}
		for _, r := range p.rects {
			reg := region{box: r, back: Backdrop{Color: ps.fill}, cover: opaque && ps.fill.Known}
			if !opaque {
				reg.back.Color = Color{}
				if ps.opaque && !ps.fillNone && ps.fill.Known && ps.fillAlpha > 0 { // PATCH: Backdrop.Veil
					reg.veil = Veil{ps.fill, float32(ps.fillAlpha * ps.maskAlpha)}
				}
			}
			c.addRegion(reg, ps)
		}
	}
	p.reset()
}

// strokeRegions remembers the straight lines of a stroked path that run across or down the page,
// as the rectangles they paint (PATCH): a thick white line drawn over text hides it (a line shape
// of 40 pt in Word, saved as a PDF), as a white rectangle does. Butt caps are taken: the ends
// add nothing. width is the stroke's width on the page.
func (c *contentReader) strokeRegions(ps *paintState, width float64) {
	p := &c.path
	p.endSub()
	half := width / 2
	if !(half >= 0.5) || ps.strokeNone { // NaN too
		return
	}
	opaque := ps.opaque && ps.strokeAlpha >= 1 && ps.stroke.Known
	for _, r := range p.subs {
		switch w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y; {
		case h < 0.01 && w >= 1:
			r.Min.Y, r.Max.Y = r.Min.Y-half, r.Max.Y+half
		case w < 0.01 && h >= 1:
			r.Min.X, r.Max.X = r.Min.X-half, r.Max.X+half
		default:
			continue
		}
		reg := region{box: r, back: Backdrop{Color: ps.stroke}, cover: opaque, whole: true}
		if !opaque {
			reg.back.Color = Color{}
		}
		c.addRegion(reg, ps)
	}
}

// addRegion remembers a painted area, clipped; one too thin to lie under a glyph is left out.
func (c *contentReader) addRegion(r region, ps *paintState) {
	c.paintedThrough(r.box)
	if ps.off || ps.inMask { // a mask's group paints what shows through, not on the page
		return
	}
	r.box = r.box.intersect(ps.clip)
	if r.box.empty() || r.box.Max.X-r.box.Min.X < 1 || r.box.Max.Y-r.box.Min.Y < 1 || c.overflow >= 0 {
		return
	}
	if len(c.regions) == maxRegions {
		c.overflow = len(c.text)
		return
	}
	if c.textClip >= 0 { // PATCH: painted in the shapes of glyphs of render mode 7, it covers nothing
		r.cover, r.veil = false, Veil{}
	}
	r.seq = len(c.text)
	c.regions = append(c.regions, r)
}

// addShapes records the boxes of the subpaths of a filled path that is not only rectangles, as
// the glyphs of text converted to outlines are drawn, unless it is off or paints nothing.
func (c *contentReader) addShapes(ps *paintState) {
	p := &c.path
	p.endSub()
	if ps.off || ps.inMask || ps.fillNone || ps.fillAlpha == 0 {
		return
	}
	for _, r := range p.subs {
		if len(c.shapes) == maxShapes {
			return
		}
		if r = r.intersect(ps.clip); !r.empty() {
			c.shapes = append(c.shapes, r)
		}
	}
}

// addImage records an image XObject painted in box, unless it is off or clipped away.
// It returns the image's number in c.images counted from 1, 0 when it was not recorded.
func (c *contentReader) addImage(box Rect, xo Value, ps *paintState, ctm matrix) int32 {
	box = box.intersect(ps.clip)
	if ps.off || ps.inMask || box.empty() || len(c.images) == maxImages {
		return 0
	}
	place := [6]float64{ctm[0][0], ctm[0][1], ctm[1][0], ctm[1][1], ctm[2][0], ctm[2][1]}
	opaque := ps.opaque && ps.fillAlpha >= 0.99 && ps.maskAlpha >= 0.99
	c.images = append(c.images, Image{Box: box, XObject: xo, Place: place, Opaque: opaque})
	return int32(len(c.images))
}

// paintedThrough: something is painted over box, so glyphs of render mode 7 whose clip is in
// force there show it in their shape; they are visible after all. Glyphs of the text object still
// open do not clip yet, and those the box does not reach show nothing (PATCH): junk in mode 7 then
// a speck painted elsewhere on the page was read as visible.
func (c *contentReader) paintedThrough(box Rect) {
	if len(c.clipOnly) == 0 {
		return
	}
	kept := c.clipOnly[:0]
	for _, cg := range c.clipOnly {
		t := &c.text[cg.index]
		em := math.Abs(t.FontSize)
		glyph := Rect{Point{min(t.X, t.X+t.W), t.Y - 0.2*em}, Point{max(t.X, t.X+t.W), t.Y + 0.8*em}}
		if cg.depth < 0 || glyph.intersect(box).empty() {
			kept = append(kept, cg)
			continue
		}
		p := c.paints[c.text[cg.index].Paint]
		p.Mode = 0
		c.paints = append(c.paints, p)
		c.text[cg.index].Paint = int32(len(c.paints) - 1)
	}
	c.clipOnly = kept
}

// endClips drops the clips of render mode 7 that the state restored by Q no longer has.
func (c *contentReader) endClips() {
	if c.textClip > c.depth { // PATCH: textClip
		c.textClip = -1
	}
	kept := c.clipOnly[:0]
	for _, cg := range c.clipOnly {
		if cg.depth < 0 || cg.depth <= c.depth {
			kept = append(kept, cg)
		}
	}
	c.clipOnly = kept
}

// backgrounds sets each glyph's Back and Covered from the regions painted before and after it
// (the latest region under its centre drawn before it is its background, or an image drawn over
// it: OCR text may come before the scan it reads) and returns the backdrops: the page, an unknown
// one, and each region's.
func (c *contentReader) backgrounds() []Backdrop {
	const page, unknown = 0, 1
	backs := make([]Backdrop, 2, len(c.regions)+2)
	backs[page].Color, backs[page].Paper = colorWhite, true
	for _, r := range c.regions {
		backs = append(backs, r.back)
	}
	var veils map[veiled]int32
	shapeWork := 0
	for i := range c.text {
		t := &c.text[i]
		x, y := t.X+t.W/2, t.Y+0.3*t.FontSize
		t.Back = page
		if c.overflow >= 0 && i >= c.overflow {
			t.Back = unknown
		}
		imageOver := int32(-1)
		var veil Veil
		for k := len(c.regions) - 1; k >= 0; k-- {
			r := &c.regions[k]
			if !r.box.contains(x, y) || r.whole && (r.box.Min.X > t.X || r.box.Max.X < t.X+t.W ||
				r.box.Min.Y > t.Y-0.2*t.FontSize || r.box.Max.Y < t.Y+0.8*t.FontSize) {
				continue
			}
			if r.shape != nil { // PATCH: region.shape, within maxShapeWork
				if shapeWork += r.points; shapeWork > maxShapeWork || !inShape(r.shape, x, y, r.evenOdd) {
					continue
				}
			}
			if r.seq > i {
				t.Covered = t.Covered || r.cover
				if r.back.Image {
					imageOver = int32(k + 2)
				}
				if r.veil.Alpha > 0 { // PATCH: the latest first, on top
					veil = veil.over(r.veil)
				}
				continue
			}
			t.Back = int32(k + 2)
			break
		}
		if imageOver >= 0 && !backs[t.Back].Image {
			t.Back, t.ImageOver = imageOver, true
		}
		if veil.Alpha > 0 && !t.Covered { // PATCH: the backdrop, veiled
			if veils == nil {
				veils = map[veiled]int32{}
			}
			key := veiled{t.Back, veil}
			b, ok := veils[key]
			if !ok {
				v := backs[t.Back]
				v.Veil = veil
				backs = append(backs, v)
				b = int32(len(backs) - 1)
				veils[key] = b
			}
			t.Back = b
		}
	}
	return backs
}

// maxShapeWork bounds the points of shapes a page's glyphs are tested against (PATCH): a hostile
// page of 2,000 thin frames round it, 130 points each, and 20,000 glyphs inside them took 19.1 s
// to read with no bound; 0.22-0.33 s with this one (0.13-0.16 s before shapes were kept). Past
// it, a shape holds no glyph, as none did before.
const maxShapeWork = 1 << 22

// veiled is a backdrop under a veil (PATCH): backgrounds gives each such pair a Backdrop of its own.
type veiled struct {
	back int32
	veil Veil
}

// show draws the string s with the current text state and advances the text matrix.
func (c *contentReader) show(g *textState, s string, off bool, res Value, depth int) {
	f := g.font
	m := g.Tm.mul(g.CTM)
	size := math.Hypot(m[1][0], m[1][1]) * g.Tfs
	hscale := math.Hypot(m[0][0], m[0][1]) * g.Tfs * g.Th
	bold := f.bold || g.Tmode == 2 || g.Tmode == 6
	left := m[0][0] < -math.Abs(m[0][1]) // PATCH: Text.Left
	paints := g.Tmode != 7 && g.Tmode != 3
	x0, y0 := m[2][0], m[2][1]
	if paints && len(c.clipOnly) > 0 {
		defer func() { // over the run of glyphs shown, once its end is known
			x1, y1 := m[2][0], m[2][1]
			pad := math.Abs(size)
			c.paintedThrough(Rect{Point{min(x0, x1) - pad, min(y0, y1) - pad}, Point{max(x0, x1) + pad, max(y0, y1) + pad}})
		}()
	}
	// A Type 3 font's glyphs are drawn in its own units, which may be smaller than a thousandth
	// of the em (the em is then taken as larger: never smaller than Tf says).
	em := max(1, f.scale*1000)
	lw := 0.0 // PATCH: Paint.LineWidth, as a path's stroke is measured
	if g.Tmode == 1 || g.Tmode == 2 || g.Tmode == 5 || g.Tmode == 6 {
		lw = g.lineWidth * math.Sqrt(math.Abs(g.CTM[0][0]*g.CTM[1][1]-g.CTM[0][1]*g.CTM[1][0]))
	}
	if key := (paintKey{g.paint.gen, g.Tmode, size * em, hscale * em, off, lw}); len(c.paints) == 0 || key != c.lastKey {
		c.paints = append(c.paints, g.paint.textPaint(g.Tmode, size*em, hscale*em, lw, off))
		c.lastKey = key
	}
	paint := int32(len(c.paints) - 1)
	for len(s) > 0 {
		if len(c.text) >= maxGlyphs {
			c.truncated = true
			return
		}
		code := f.next(s)
		s = s[len(code):]
		text, unseen := f.text(code) // PATCH: unseen
		if f.textProcs != nil && len(code) == 1 && f.textProcs[code[0]].Kind() == Stream {
			c.glyphText(g, f, f.textProcs[code[0]], off, res, depth)
			text = "" // the glyph shows the procedure's text, not the character it stands for
		}
		blank := unseen || f.blankCode(code, text) // PATCH
		w0, _ := f.width(code, text)
		w0 *= f.scale
		x := g.Trise*m[1][0] + m[2][0]
		y := g.Trise*m[1][1] + m[2][1]
		n := 0
		for range text {
			n++
		}
		if n > 0 {
			w := w0 * hscale / float64(n)
			k := 0
			for _, r := range text {
				if g.Tmode == 7 {
					c.clipOnly = append(c.clipOnly, clipGlyph{len(c.text), -1})
				}
				c.text = append(c.text, Text{Font: f.name, FontSize: size, X: x + float64(k)*w, Y: y, W: w, S: c.r.runeString(r), // PATCH: runeString
					Bold: bold, Blank: blank, Left: left, Paint: paint})
				k++
			}
		}
		tx := w0*g.Tfs + g.Tc
		if len(code) == 1 && code[0] == ' ' {
			tx += g.Tw
		}
		tx *= g.Th
		g.Tm = translate(tx, 0, g.Tm)
		m = translate(tx, 0, m)
	}
}

// runeString is string(c), made once per Reader (PATCH).
func (r *Reader) runeString(c rune) string {
	if s, ok := r.runeStrs[c]; ok {
		return s
	}
	s := string(c)
	if r.runeStrs == nil {
		r.runeStrs = map[rune]string{}
	}
	if len(r.runeStrs) < 1<<16 {
		r.runeStrs[c] = s
	}
	return s
}
