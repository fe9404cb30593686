// PATCH (new file): the text of annotations that have no appearance stream of their own. Viewers
// make one from the annotation's text (Poppler, Ghostscript and Acrobat alike): a text box
// (FreeText) shows its /Contents, a text field its value /V, in the font size and colour of /DA.
// Without an appearance the reader read nothing there, so a paragraph typed as a text box with no
// appearance was on the page for a reader and not in the text.

package pdf

import (
	"math"
	"strconv"
	"strings"
	"unicode"
)

// synthText is the text and look of an annotation without an appearance: "" when it has none.
// oneLine: a text field that is not multiline shows one line.
func (c *contentReader) synthText(a Value) (text, da string, oneLine bool) {
	field := func(key string) Value { // a field's key, inherited from its parents
		v := a
		for i := 0; i < 16 && v.Kind() == Dict; i++ {
			if x := v.Key(key); !x.IsNull() {
				return x
			}
			v = v.Key("Parent")
		}
		return Value{}
	}
	switch a.Key("Subtype").Name() {
	case "FreeText":
		text = a.Key("Contents").Text()
	case "Widget":
		if field("FT").Name() == "Tx" {
			text = field("V").Text()
			oneLine = field("Ff").Int64()&(1<<12) == 0
		}
	}
	da = field("DA").RawString()
	if da == "" {
		da = c.r.Trailer().Key("Root").Key("AcroForm").Key("DA").RawString()
	}
	return text, da, oneLine
}

// drawSynthText lays text out in rect as a viewer would, in lines that wrap at its width from its
// top, until its bottom, in the size and colour /DA gives (12 pt and black by default).
func (c *contentReader) drawSynthText(text, da string, oneLine bool, rect Rect, off bool) {
	size, ps := 12.0, newPaintState()
	ps.off = off
	var nums []Value
	for _, tok := range strings.Fields(da) {
		if x, err := strconv.ParseFloat(tok, 64); err == nil {
			nums = append(nums, Value{data: x})
			continue
		}
		switch tok {
		case "Tf":
			if n := len(nums); n > 0 && nums[n-1].Float64() > 0 {
				size = nums[n-1].Float64()
			}
		case "g", "rg", "k":
			ps.setColor(tok, nums, Value{})
		}
		nums = nums[:0]
	}
	size = math.Min(size, 72)
	c.paints = append(c.paints, ps.textPaint(0, size, size, 0, off))
	paint := int32(len(c.paints) - 1)
	c.lastKey = paintKey{gen: math.MaxUint64} // no glyph of a content stream shares this paint
	helvetica := std14Widths("Helvetica")
	width := func(r rune) float64 {
		if code, ok := winAnsiCode[r]; ok && helvetica != nil {
			return float64(helvetica[code]) / 1000 * size
		}
		return estimateWidth(string(r)) / 1000 * size
	}
	x0, maxW := rect.Min.X+2, rect.Max.X-rect.Min.X-4
	y := rect.Max.Y - 2 - size
	emit := func(line []rune) {
		x := x0
		for _, r := range line {
			if len(c.text) >= maxGlyphs {
				c.truncated = true
				return
			}
			w := width(r)
			c.text = append(c.text, Text{Font: "Helvetica", FontSize: size, X: x, Y: y, W: w, S: c.r.runeString(r), Paint: paint})
			x += w
		}
		y -= 1.2 * size
		if oneLine {
			y = math.Inf(-1)
		}
	}
	for _, para := range strings.FieldsFunc(strings.ReplaceAll(text, "\r\n", "\n"), func(r rune) bool { return r == '\n' || r == '\r' }) {
		line, w, lastSpace := []rune{}, 0.0, -1
		for _, r := range para {
			if y < rect.Min.Y {
				return
			}
			if unicode.IsSpace(r) {
				r, lastSpace = ' ', len(line)
			}
			line, w = append(line, r), w+width(r)
			if w <= maxW || len(line) == 1 {
				continue
			}
			cut := len(line) - 1 // before the rune that does not fit
			if lastSpace > 0 {
				cut = lastSpace
			}
			emit(line[:cut])
			line = append([]rune{}, line[cut:]...)
			for len(line) > 0 && line[0] == ' ' {
				line = line[1:]
			}
			w, lastSpace = 0, -1
			for i, r := range line {
				w += width(r)
				if r == ' ' {
					lastSpace = i
				}
			}
		}
		if len(line) > 0 && y >= rect.Min.Y {
			emit(line)
		}
	}
}
