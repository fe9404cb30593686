// Copyright 2014 The Go Authors.  All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// PATCH: Content is rewritten. Upstream advanced the text position by the width of the
// byte at the rune's index (so CID fonts, whose widths live in the descendant font's /W,
// gave W = 0 and one X for a whole Tj run), ignored word spacing, re-parsed the font at
// every Tf, appended a "\n" glyph after each TJ, panicked on a Q without q and on
// malformed operands, and did not look inside form XObjects.

package pdf

import "math"

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
}

type textState struct {
	Tc, Tw, Th, Tl, Tfs, Trise float64
	Tmode                      int
	font                       *fontInfo
	Tm, Tlm, CTM               matrix
}

type contentReader struct {
	r         *Reader
	text      []Text
	rect      []Rect
	visiting  map[objptr]bool
	work      work
	truncated bool
}

// newDefaultFont is the font of text shown before any Tf. Each content stream gets its own: the
// decode cache is written as text is read, and documents are read concurrently (a shared one
// crashed imports with "concurrent map writes").
func newDefaultFont() *fontInfo {
	return &fontInfo{scale: 0.001, simple: &pdfDocEncoding, decoded: map[uint64]string{}}
}

// Content returns the page's content: one Text per character, in content-stream order,
// with its position, size and advance in default user space.
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
	c := &contentReader{r: r, visiting: map[objptr]bool{}, work: work{page: maxPageWork, reader: r.work}}
	c.run(p.V.Key("Contents"), p.Resources(), ident, 0)
	return Content{c.text, c.rect, c.truncated, c.work.damaged}
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

func (c *contentReader) run(strm, res Value, ctm matrix, depth int) {
	g := textState{Th: 1, CTM: ctm, Tm: ident, Tlm: ident, font: newDefaultFont()}
	var stack []textState
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
		case "Q":
			if n := len(stack); n > 0 {
				g = stack[n-1]
				stack = stack[:n-1]
			}
		case "re":
			if len(args) == 4 {
				x, y, w, h := args[0].Float64(), args[1].Float64(), args[2].Float64(), args[3].Float64()
				c.rect = append(c.rect, Rect{Point{x, y}, Point{x + w, y + h}})
			}
		case "BT":
			g.Tm, g.Tlm = ident, ident
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
				c.show(&g, args[0].RawString())
			}
		case "'":
			if len(args) == 1 {
				nextLine()
				c.show(&g, args[0].RawString())
			}
		case "\"":
			if len(args) == 3 {
				g.Tw, g.Tc = args[0].Float64(), args[1].Float64()
				nextLine()
				c.show(&g, args[2].RawString())
			}
		case "TJ":
			if len(args) != 1 {
				return
			}
			v := args[0]
			for i := 0; i < v.Len(); i++ {
				x := v.Index(i)
				if x.Kind() == String {
					c.show(&g, x.RawString())
				} else {
					g.Tm = translate(-x.Float64()/1000*g.Tfs*g.Th, 0, g.Tm)
				}
			}
		case "Do":
			if len(args) == 1 {
				c.form(res.Key("XObject").Key(args[0].Name()), res, g.CTM, depth)
			}
		}
	})
}

// form runs a form XObject's content with its own matrix and resources.
func (c *contentReader) form(xo, res Value, ctm matrix, depth int) {
	if xo.Kind() != Stream || xo.Key("Subtype").Name() != "Form" || c.visiting[xo.ptr] {
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
	xres := xo.Key("Resources")
	if xres.Kind() != Dict {
		xres = res
	}
	c.run(xo, xres, m.mul(ctm), depth+1)
}

func arrayValues(v Value) []Value {
	out := make([]Value, v.Len())
	for i := range out {
		out[i] = v.Index(i)
	}
	return out
}

// show draws the string s with the current text state and advances the text matrix.
func (c *contentReader) show(g *textState, s string) {
	f := g.font
	m := g.Tm.mul(g.CTM)
	size := math.Hypot(m[1][0], m[1][1]) * g.Tfs
	hscale := math.Hypot(m[0][0], m[0][1]) * g.Tfs * g.Th
	bold := f.bold || g.Tmode == 2 || g.Tmode == 6
	for len(s) > 0 {
		if len(c.text) >= maxGlyphs {
			c.truncated = true
			return
		}
		code := f.next(s)
		s = s[len(code):]
		text := f.text(code)
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
				c.text = append(c.text, Text{f.name, size, x + float64(k)*w, y, w, string(r), bold})
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
