package extract

import (
	"encoding/xml"
	"strings"
)

// WordArt of Word 2003 and earlier, which Word still shows (and writes as the fallback of its own
// text effects), is a VML shape whose text is an attribute (v:textpath's string), not w:t: a thesis
// whose copied paragraphs were set as WordArt, twenty characters a shape, read 0.0 % with no
// warning. Its text is read where the shape stands, in its line (as a paragraph of its own when it
// floats, as a text box's is); hidden when
// the shape is, when its letters are drawn in the colour they stand on with no outline, or when
// the shape is 2 pt high or wide or less (WordArt is stretched to its shape).

// vmlShapeInk reads what a VML shape draws its WordArt's outline with (stroked, strokecolor:
// black unless told otherwise), its size (style's width and height, points; 0 unknown) and
// whether it floats rather than standing in its line.
func vmlShapeInk(s *docxShape, t xml.StartElement) {
	s.stroke = docxBlack
	if c := attr(t, "strokecolor"); c != "" {
		s.stroke = hexColor(c)
	}
	if f := strings.ToLower(attr(t, "stroked")); f == "f" || f == "false" {
		s.stroke = docxColor{set: true, none: true}
	}
	for _, decl := range strings.Split(attr(t, "style"), ";") {
		k, v, _ := strings.Cut(decl, ":")
		switch strings.TrimSpace(strings.ToLower(k)) {
		case "width":
			s.vmlW, _ = cssPoints(strings.TrimSpace(v))
		case "height":
			s.vmlH, _ = cssPoints(strings.TrimSpace(v))
		case "position":
			s.vmlFloats = strings.TrimSpace(strings.ToLower(v)) == "absolute"
		}
	}
}

// wordArt reads a v:textpath: its string is text of the line it stands in, or a paragraph of its
// own when its shape floats.
func (w *docxWalker) wordArt(t xml.StartElement) {
	text := strings.TrimSpace(attr(t, "string"))
	if on := strings.ToLower(attr(t, "on")); text == "" || on == "f" || on == "false" {
		return
	}
	var why hideSet
	for _, s := range w.shapes {
		why |= s.why
	}
	s := w.topShape()
	n := len(w.backs)
	if s == nil || !s.vml || n == 0 || !w.backs[n-1].shape {
		return // a text path outside a shape draws nothing
	}
	// The shape's fill is the letters' colour, read against what lies under the shape.
	fill, backs := w.backs[n-1].c, w.backs
	w.backs = backs[:n-1]
	back := w.background(runProps{})
	w.backs = backs
	unseen := func(c docxColor) bool {
		return c.none || c.known && back.known && colorsClose(c.rgb, back.rgb)
	}
	if fill.set && unseen(fill) && unseen(s.stroke) {
		why |= hideBackground
		if isWhite(back.rgb) {
			why = why&^hideBackground | hideWhite
		}
	}
	size := 0.0
	if s.vmlH != 0 && s.vmlH <= maxTinySize || s.vmlW != 0 && s.vmlW <= maxTinySize {
		why |= hideTiny
		size = max(s.vmlH, s.vmlW, 0)
	}
	p := w.top()
	own := p == nil || s.vmlFloats
	if own {
		p = &paraBuilder{outline: -1, seq: w.nextSeq()}
	}
	if why == 0 {
		p.cur.WriteString(text)
	} else {
		h := &docxHidden{line: len(p.lines), off: p.cur.Len(), why: why, size: size, seq: p.nextWrite()}
		h.text.WriteString(text)
		p.hidden = append(p.hidden, h)
	}
	if own {
		w.finish(p)
	}
}
