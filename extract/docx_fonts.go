package extract

import (
	"encoding/hex"
	"encoding/xml"
	"strings"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// docxBlankFonts names the fonts a DOCX embeds (word/fontTable.xml) whose glyphs are all empty: text
// in one shows nothing and takes no room (Adobe Blank, or any font with its outlines removed), so
// junk typed in it between the words of a copied paragraph is hidden text, as pdfStacked finds it in
// a PDF. Word shows such text as nothing where the font is embedded, which is where it is made to
// hide something; a font the DOCX only names is drawn in another font where it is not installed.
func docxBlankFonts(pkg *docxPackage, rels []rel, mainName string) map[string]bool {
	name := pkg.target(rels, "fontTable", mainName, "word/fontTable.xml")
	raw := pkg.readOptional(name)
	if len(raw) == 0 {
		return nil
	}
	fontRels := pkg.rels(name)
	var out map[string]bool
	font := ""
	// Fonts are read beside the document's parts, not out of their budget (three embedded CJK
	// fonts are 60 MB), within a budget of their own.
	budget := int64(maxFontBytes)
	eachStart(newXMLDecoder(raw), func(se xml.StartElement) {
		switch se.Name.Local {
		case "font":
			font = attr(se, "name")
		case "embedRegular", "embedBold", "embedItalic", "embedBoldItalic":
			part := relByID(fontRels, attr(se, "id"), name)
			f := pkg.parts[strings.ToLower(part)]
			if font == "" || f == nil || out[font] || budget <= 0 || f.UncompressedSize64 > uint64(budget) {
				return
			}
			inflated := pkg.inflated
			data, err := pkg.read(part) // at most MaxTextBytes, whatever the archive says
			pkg.inflated = inflated
			budget -= max(int64(f.UncompressedSize64), int64(len(data)), 1)
			if err == nil && blankFont(deobfuscateFont(data, attr(se, "fontKey"))) {
				if out == nil {
					out = map[string]bool{}
				}
				out[font] = true
			}
		}
	})
	return out
}

// maxFontBytes bounds what the fonts a DOCX embeds may inflate to, together, when they are read to
// see whether they draw anything.
const maxFontBytes = MaxTextBytes

// deobfuscateFont undoes the obfuscation of an embedded font (ECMA-376 Part 1, 17.8.1): its first
// 32 bytes XORed with the 16 bytes of its key, a GUID, taken from the last to the first. A key that
// is not a GUID leaves the data as it is.
func deobfuscateFont(data []byte, fontKey string) []byte {
	key, err := hex.DecodeString(strings.NewReplacer("{", "", "}", "", "-", "").Replace(fontKey))
	if err != nil || len(key) != 16 || len(data) < 32 {
		return data
	}
	out := append([]byte(nil), data...)
	for i := range 32 {
		out[i] ^= key[15-i%16]
	}
	return out
}

// blankFont reports a TrueType or OpenType font of two glyphs or more none of which has an outline,
// or of specksGlyphs glyphs with outlines or more, each within a third of the em (tiny beside the
// size it is set at, as smallShare has it) but for .notdef: zh-thesis S004 (34.3 % as a PDF) with a
// line of junk after each paragraph in such a font (Noto Sans SC, its units per em made eight
// times as many) read 19.9 %, with no warning, the junk a dotted rule. A font that cannot be read,
// or whose glyphs are pictures, is not blank; nor a subset of a few marks (，。、).
func blankFont(data []byte) bool {
	f, err := sfnt.Parse(data)
	if err != nil {
		return false
	}
	var b sfnt.Buffer
	const em = 768 // pixels, so that a third is whole
	n, drawn := f.NumGlyphs(), 0
	for i := range n {
		segs, err := f.LoadGlyph(&b, sfnt.GlyphIndex(i), fixed.I(em), nil)
		if err != nil {
			return false
		}
		if len(segs) == 0 {
			continue
		}
		if i > 0 && glyphExtent(segs) > fixed.I(em/3) {
			return false
		}
		drawn++
	}
	return n >= 2 && (drawn == 0 || drawn >= specksGlyphs)
}

// specksGlyphs is the fewest glyphs with outlines, each a speck, that make a font blank: junk
// takes many letters; a font subset for a document's few marks has a handful.
const specksGlyphs = 10

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

// pictureFonts are the fonts whose letters and digits are pictures (Word's symbol fonts but
// Symbol, whose letters are Greek ones), by lower-case name.
var pictureFonts = map[string]bool{"wingdings": true, "wingdings 2": true, "wingdings 3": true, "webdings": true,
	"zapf dingbats": true, "zapfdingbats": true, "itc zapf dingbats": true, "marlett": true, "ms outlook": true,
	"bookshelf symbol 7": true, "ms reference specialty": true, "mt extra": true}

// pictureFont reports whether Word draws ASCII letters in font as pictures.
func pictureFont(font string) bool {
	return font != "" && pictureFonts[strings.ToLower(strings.TrimSpace(font))]
}

// asciiAlnum counts the ASCII letters and digits of s. A run in a font of pictures holding three
// or more is junk (or a row of pictures no one reads as words); one or two are the check mark or
// bullet Word's Insert Symbol writes so.
func asciiAlnum(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' || s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}
