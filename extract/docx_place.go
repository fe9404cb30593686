package extract

// Where Word puts a paragraph across the page: text whose column lies off the page (the most of
// it) is hidden text (see hidden.go), however it is formatted. A paragraph indented by a page's
// width, a table indented so, a frame placed past the page's edge: paragraphs of one's own text so
// placed are read by a checker and seen by no one, and add to the characters a similarity is a
// share of (the devset's zh-wild S004, 46.6 %, read 22.8 % with 3,916 such characters added).

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"strconv"
)

// pageGeometry is the first section's page: its size and its left and right margins, and the
// widest and tallest page of any section (a landscape one), EMU.
type pageGeometry struct{ w, h, left, right, top, bottom, widest, tallest int64 }

// pageOf reads the first section's page (w:pgSz, w:pgMar) from the body, and the largest of all
// its sections' pages: A4 with Word's Chinese margins (1800 twips) where it says nothing.
func pageOf(body []byte) pageGeometry {
	g := pageGeometry{w: 11906, h: 16838, left: 1800, right: 1800, top: 1440, bottom: 1440} // twips until the end
	for at := 0; ; {
		a, end := tagInts(body[at:], "pgSz")
		if a == nil {
			break
		}
		if at == 0 { // the first section's
			if v, ok := a["w"]; ok && v > 0 {
				g.w = v
			}
			if v, ok := a["h"]; ok && v > 0 {
				g.h = v
			}
			g.widest, g.tallest = g.w, g.h
		}
		g.widest, g.tallest = max(g.widest, a["w"]), max(g.tallest, a["h"])
		at += end
	}
	g.widest, g.tallest = max(g.widest, g.w), max(g.tallest, g.h)
	if a := firstTagInts(body, "pgMar"); a != nil {
		for _, k := range []string{"left", "start"} {
			if v, ok := a[k]; ok && v >= 0 {
				g.left = v
			}
		}
		for _, k := range []string{"right", "end"} {
			if v, ok := a[k]; ok && v >= 0 {
				g.right = v
			}
		}
		// A negative top or bottom margin is one text may run into the header or footer over: it
		// is as far from the edge all the same.
		if v, ok := a["top"]; ok {
			g.top = max(v, -v)
		}
		if v, ok := a["bottom"]; ok {
			g.bottom = max(v, -v)
		}
	}
	const emu = 635 // a twip
	return pageGeometry{g.w * emu, g.h * emu, g.left * emu, g.right * emu, g.top * emu, g.bottom * emu, g.widest * emu, g.tallest * emu}
}

// firstTagInts returns the whole-number attributes of the first tag named local (with or without
// a prefix) in raw, by their local names: nil when there is none.
func firstTagInts(raw []byte, local string) map[string]int64 {
	a, _ := tagInts(raw, local)
	return a
}

// tagInts is firstTagInts, with where the tag ends in raw.
func tagInts(raw []byte, local string) (map[string]int64, int) {
	at := 0
	for {
		i := bytes.Index(raw[at:], []byte(local))
		if i < 0 {
			return nil, 0
		}
		at += i + len(local)
		if start := at - len(local) - 1; start >= 0 && (raw[start] == '<' || raw[start] == ':') && at < len(raw) &&
			(raw[at] == ' ' || raw[at] == '/' || raw[at] == '>') {
			break
		}
	}
	end := bytes.IndexByte(raw[at:], '>')
	if end < 0 {
		return nil, 0
	}
	out := map[string]int64{}
	for _, m := range reIntAttr.FindAllSubmatch(raw[at:at+end], -1) {
		if n, err := strconv.ParseInt(string(m[2]), 10, 64); err == nil {
			out[string(m[1])] = n
		}
	}
	return out, at + end + 1
}

var reIntAttr = regexp.MustCompile(`\b(?:\w+:)?(\w+)="(-?\d+)"`)

// place gives the walker the page its text is laid out on.
func (w *docxWalker) place(g pageGeometry) {
	w.pageW, w.pageH, w.marginL, w.marginR, w.widest, w.tallest = g.w, g.h, g.left, g.right, g.widest, g.tallest
	w.marginT, w.marginB = g.top, g.bottom
}

// indent is w:ind's left and right indents, twips; setL and setR tell 0 from unset, so that a
// paragraph's own indent on one side leaves its numbering's or style's on the other.
type indent struct {
	left, right int64
	setL, setR  bool
}

// read takes the sides a w:ind gives (left or start, right or end).
func (in *indent) read(se xml.StartElement) {
	for _, a := range se.Attr {
		v, err := strconv.ParseInt(a.Value, 10, 64)
		if err != nil {
			continue
		}
		switch a.Name.Local {
		case "left", "start":
			in.left, in.setL = v, true
		case "right", "end":
			in.right, in.setR = v, true
		}
	}
}

// over returns in with the sides o sets put over it.
func (in indent) over(o indent) indent {
	if o.setL {
		in.left, in.setL = o.left, true
	}
	if o.setR {
		in.right, in.setR = o.right, true
	}
	return in
}

// outside reports whether less than half of the span from l to r (EMU from the page's left edge)
// lies on a page page wide: each line of a column so placed shows a piece no one can follow, the
// rest of it laid out where no one sees it; an indent into the margin keeps the column on the
// page. A span of no width is not judged: Word sets a character a line in a column too narrow for
// one.
func outside(l, r, page int64) bool {
	if r <= l {
		return false
	}
	return (min(r, page)-max(l, 0))*2 < r-l
}

// paraIndent is the indent of paragraph p: its own, over its numbering level's, over its style's
// (each side apart).
func (w *docxWalker) paraIndent(p *paraBuilder) indent {
	var in indent
	if s := w.styles.resolve(p.style, func(s *docxStyle) bool { return s.ind.setL }); s != nil {
		in.left, in.setL = s.ind.left, true
	}
	if s := w.styles.resolve(p.style, func(s *docxStyle) bool { return s.ind.setR }); s != nil {
		in.right, in.setR = s.ind.right, true
	}
	numID, level := p.numID, p.numLevel
	if !p.hasNum {
		numID, level = w.styles.numbering(p.style)
	}
	if w.num != nil && numID != "" {
		in = in.over(w.num.indent(numID, level))
	}
	return in.over(p.ind)
}

// offColumn reports whether the paragraph being read, or the table or frame it is in, lies off the
// page: the widest of the document's, since the section it is in is not followed. A paragraph in a
// text box is placed by its box (offPage).
func (w *docxWalker) offColumn() bool {
	p := w.top()
	if p == nil || w.pageW <= 0 || len(w.shapes) > 0 {
		return false
	}
	if !p.offKnown {
		p.off, p.offKnown = w.placedOff(p), true
	}
	return p.off
}

// placedOff is offColumn for paragraph p, worked out.
func (w *docxWalker) placedOff(p *paraBuilder) bool {
	if p.frameOff {
		return true
	}
	for _, t := range w.tables {
		// Wholly off the page: a grid's widths are what the writer saved, and Word fits a table
		// sized to its contents again when it opens it.
		if t.left >= w.widest || t.width > 0 && t.left+t.width <= 0 {
			return true
		}
	}
	if len(w.tables) > 0 {
		return false // its indents are measured in its cell
	}
	in := w.paraIndent(p)
	const emu = 635
	return outside(w.marginL+in.left*emu, w.widest-w.marginR-in.right*emu, w.widest)
}

// frameOff reports whether a frame (w:framePr) lies wholly off the page: placed at x from the
// page, or from the margin or the text column, past its right edge, or ending before its left
// edge; or placed at y past its foot. A frame aligned (w:xAlign, w:yAlign) is on the page.
func (w *docxWalker) frameOff(se xml.StartElement) bool {
	const emu = 635
	num := func(k string) (int64, bool) {
		v, err := strconv.ParseInt(attr(se, k), 10, 64)
		return v * emu, err == nil
	}
	if x, ok := num("x"); ok && attr(se, "xAlign") == "" {
		if attr(se, "hAnchor") != "page" {
			x += w.marginL
		}
		if x >= w.widest {
			return true
		}
		if width, ok := num("w"); ok && width > 0 && x+width <= 0 {
			return true
		}
	}
	if y, ok := num("y"); ok && attr(se, "yAlign") == "" && y >= w.tallest {
		return true
	}
	return false
}

// tablePlace reads where a table's tblInd (dxa) or floating position (w:tblpPr's tblpX, from the
// page or the margin) puts its left edge, EMU from the page's left edge.
func (w *docxWalker) tablePlace(t *docxTable, se xml.StartElement) {
	const emu = 635
	switch se.Name.Local {
	case "tblInd":
		if v, err := strconv.ParseInt(attr(se, "w"), 10, 64); err == nil && (attr(se, "type") == "dxa" || attr(se, "type") == "") {
			t.left = w.marginL + v*emu
		}
	case "tblpPr":
		if v, err := strconv.ParseInt(attr(se, "tblpX"), 10, 64); err == nil && attr(se, "tblpXSpec") == "" {
			t.left = v * emu
			if attr(se, "horzAnchor") != "page" {
				t.left += w.marginL
			}
		}
	case "gridCol":
		if v, err := strconv.ParseInt(attr(se, "w"), 10, 64); err == nil && v > 0 {
			t.width += v * emu
		}
	}
}

// maxBoxDepth bounds the text boxes within text boxes textBoxes follows, so that a hostile part's
// scan stays linear in its size.
const maxBoxDepth = 16

// boxBody is what a DrawingML text box's body (wps:bodyPr) says of its text: whether the shape
// grows to fit it (a:spAutoFit; a:normAutofit, which Word does not do, taken so too), and the
// room its top and bottom insets take, EMU. known is false where no body follows the text.
type boxBody struct {
	known, grows bool
	insets       int64
}

// textBoxes finds the text boxes of a part (xmlBytes) and what their bodies say, by where their
// wps:txbx start tags end (the decoder's offset after them). A shape's body follows its text in the
// file, after the walk has read the text, so the part is scanned for them first: nil when it has
// no text box. Word cuts off what does not fit in a box that does not grow, and a box a point
// high shows nothing of the paragraphs in it.
func textBoxes(b []byte) map[int64]boxBody {
	if !bytes.Contains(b, []byte(":txbx")) {
		return nil
	}
	out := map[int64]boxBody{}
	// tagAt returns the end of the tag <prefix:local that starts at i (after its '>'), whether it
	// closes itself, and false if none starts there.
	tagAt := func(i int, prefix []byte, local string) (end int, empty, ok bool) {
		name := append(append(append([]byte{'<'}, prefix...), ':'), local...)
		if !bytes.HasPrefix(b[i:], name) || i+len(name) >= len(b) {
			return 0, false, false
		}
		if c := b[i+len(name)]; c != '>' && c != '/' && c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return 0, false, false
		}
		j := bytes.IndexByte(b[i:], '>')
		if j < 0 {
			return 0, false, false
		}
		return i + j + 1, b[i+j-1] == '/', true
	}
	for from := 0; ; {
		k := bytes.Index(b[from:], []byte(":txbx"))
		if k < 0 {
			return out
		}
		k += from
		from = k + 1
		start := bytes.LastIndexByte(b[:k], '<')
		if start < 0 || bytes.ContainsAny(b[start+1:k], " \t\r\n/>") {
			continue
		}
		prefix := b[start+1 : k]
		end, empty, ok := tagAt(start, prefix, "txbx")
		if !ok || empty {
			continue
		}
		// The matching end tag, past text boxes within this one.
		closing := append(append([]byte("</"), prefix...), ":txbx>"...)
		depth, at := 1, end
		for depth > 0 {
			c := bytes.Index(b[at:], closing)
			if c < 0 || depth > maxBoxDepth {
				return out // no later box closes either; boxes in boxes in boxes are no document's
			}
			o := bytes.Index(b[at:at+c], append(append([]byte{'<'}, prefix...), ":txbx"...))
			if o >= 0 {
				if e, em, ok := tagAt(at+o, prefix, "txbx"); ok && !em {
					depth++
					at = e
					continue
				}
				at += o + 1
				continue
			}
			depth--
			at += c + len(closing)
		}
		body := boxBody{}
		i := at
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
			i++
		}
		if e, em, ok := tagAt(i, prefix, "bodyPr"); ok {
			body.known = true
			attrs := firstTagInts(b[i:e], "bodyPr")
			for _, k := range []string{"tIns", "bIns"} {
				v, ok := attrs[k]
				if !ok {
					v = 45720 // 0.05 inch, the default
				}
				body.insets += max(v, 0)
			}
			if !em {
				if c := bytes.Index(b[e:], append(append([]byte("</"), prefix...), ":bodyPr>"...)); c >= 0 {
					inner := b[e : e+c]
					body.grows = bytes.Contains(inner, []byte(":spAutoFit")) || bytes.Contains(inner, []byte(":normAutofit"))
				}
			}
		}
		out[int64(end)] = body
	}
}
