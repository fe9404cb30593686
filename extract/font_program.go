package extract

import (
	"unicode"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// fontProgram is a TrueType or OpenType font a file embeds (a PDF's program, a DOCX's font part),
// read to tell which of its glyphs draw nothing a reader reads: junk typed in such glyphs shows as
// gaps, or as a dotted rule, between the words of a copy. Glyphs are looked at when first asked
// for. Not safe for concurrent use: each PDF reader, and each DOCX, has its own.
type fontProgram struct {
	f     *sfnt.Font
	buf   sfnt.Buffer
	looks []glyphLook // by glyph index
	blank int8        // 1 blank, -1 not, 0 not yet judged
}

// glyphLook is what a glyph draws.
type glyphLook uint8

const (
	glyphUnread glyphLook = iota
	glyphDrawn            // an outline a reader reads, or one that cannot be loaded
	glyphSpeck            // an outline within a third of the em
	glyphEmpty            // no outline
)

// readFontProgram parses data; nil when it is not a font sfnt reads.
func readFontProgram(data []byte) *fontProgram {
	f, err := sfnt.Parse(data)
	if err != nil || f.NumGlyphs() == 0 {
		return nil
	}
	return &fontProgram{f: f, looks: make([]glyphLook, f.NumGlyphs())}
}

// look says what glyph g draws; glyphDrawn for one the font does not have.
func (p *fontProgram) look(g int) glyphLook {
	if g < 0 || g >= len(p.looks) {
		return glyphDrawn
	}
	if l := p.looks[g]; l != glyphUnread {
		return l
	}
	const em = 768 // pixels, so that a third is whole
	l := glyphDrawn
	switch segs, err := p.f.LoadGlyph(&p.buf, sfnt.GlyphIndex(g), fixed.I(em), nil); {
	case err != nil:
	case len(segs) == 0:
		l = glyphEmpty
	case glyphExtent(segs) <= fixed.I(em/3):
		l = glyphSpeck
	}
	p.looks[g] = l
	return l
}

// Blank reports a font of two glyphs or more none of which has an outline, or of specksGlyphs
// glyphs with outlines or more, each within a third of the em (tiny beside the size it is set at,
// as smallShare has it) but for .notdef: zh-thesis S004 (34.3 % as a PDF) with a line of junk after
// each paragraph in such a font (Noto Sans SC, its units per em made eight times as many) read
// 19.9 %, with no warning, the junk a dotted rule. A font that cannot be read, or whose glyphs are
// pictures, is not blank; nor a subset of a few marks (，。、).
func (p *fontProgram) Blank() bool {
	if p.blank == 0 {
		p.blank = -1
		drawn := 0
		for g := range p.looks[:min(len(p.looks), maxBlankGlyphs)] {
			switch p.look(g) {
			case glyphDrawn:
				if g > 0 {
					return false
				}
				drawn++
			case glyphSpeck:
				drawn++
			}
		}
		if len(p.looks) >= 2 && (drawn == 0 || drawn >= specksGlyphs) {
			p.blank = 1
		}
	}
	return p.blank > 0
}

// maxBlankGlyphs bounds the glyphs Blank looks at (a CJK font has 30,000-65,000; drawing one's
// outline costs 2-10 µs), judging a larger font by its first ones.
const maxBlankGlyphs = 20000

// specksGlyphs is the fewest glyphs with outlines, each a speck, that make a font blank: junk
// takes many letters; a font subset for a document's few marks has a handful.
const specksGlyphs = 10

// Unseen reports whether glyph g, drawn for the character r, draws nothing a reader reads where
// r is a letter or a digit (a mark's glyph is a speck in any font): a speck, in a font whose other
// glyphs may draw letters. zh-thesis S004 (34.3 % as a PDF) with a line of junk after each
// paragraph in Noto Sans SC with the junk's glyphs shrunk to an eighth, and one character left
// whole, read 25.4 %, with no warning. No letter of the 845 fonts on the development machine is
// a speck but the ordinal indicators ª and º (of every font of URW's) and one long s; modifier
// letters (Lm: pinyin's tone marks ˊˇˋ) are marks. An empty glyph is unseen only when exact: the
// glyph the file draws, not one found by character, as a subsetter empties the glyphs it drops.
func (p *fontProgram) Unseen(g int, r rune, exact bool) bool {
	if !isLetterOrDigit(r) || unicode.Is(unicode.Lm, r) || r == 'ª' || r == 'º' {
		return false
	}
	switch p.look(g) {
	case glyphSpeck:
		return true
	case glyphEmpty:
		return exact
	}
	return false
}

// Glyph is the glyph the font's character map gives r, 0 for none.
func (p *fontProgram) Glyph(r rune) int {
	g, err := p.f.GlyphIndex(&p.buf, r)
	if err != nil {
		return 0
	}
	return int(g)
}

// glyphExtent is the larger of the width and the height of the box around a glyph's outline.
func glyphExtent(segs sfnt.Segments) fixed.Int26_6 {
	minX, minY, maxX, maxY := segs[0].Args[0].X, segs[0].Args[0].Y, segs[0].Args[0].X, segs[0].Args[0].Y
	for _, s := range segs {
		k := 1
		switch s.Op {
		case sfnt.SegmentOpQuadTo:
			k = 2
		case sfnt.SegmentOpCubeTo:
			k = 3
		}
		for _, p := range s.Args[:k] {
			minX, minY, maxX, maxY = min(minX, p.X), min(minY, p.Y), max(maxX, p.X), max(maxY, p.Y)
		}
	}
	return max(maxX-minX, maxY-minY)
}
