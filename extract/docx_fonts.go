package extract

import (
	"encoding/hex"
	"encoding/xml"
	"strings"
)

// docxFonts reads the fonts a DOCX embeds (word/fontTable.xml), by name, to tell where their
// glyphs draw nothing a reader reads: text in a font whose glyphs are all empty shows nothing and
// takes no room (Adobe Blank, or any font with its outlines removed), so junk typed in it between
// the words of a copied paragraph is hidden text, as pdfStacked finds it in a PDF; so is junk in
// glyphs that draw a speck (fontProgram.Unseen). Word shows such text as nothing where the font is
// embedded, which is where it is made to hide something; a font the DOCX only names is drawn in
// another font where it is not installed.
func docxFonts(pkg *docxPackage, rels []rel, mainName string) map[string][]*fontProgram {
	name := pkg.target(rels, "fontTable", mainName, "word/fontTable.xml")
	raw := pkg.readOptional(name)
	if len(raw) == 0 {
		return nil
	}
	fontRels := pkg.rels(name)
	var out map[string][]*fontProgram // regular, bold, italic: any may be the one that hides
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
			if font == "" || f == nil || budget <= 0 || f.UncompressedSize64 > uint64(budget) {
				return
			}
			inflated := pkg.inflated
			data, err := pkg.read(part) // at most MaxTextBytes, whatever the archive says
			pkg.inflated = inflated
			budget -= max(int64(f.UncompressedSize64), int64(len(data)), 1)
			if err != nil {
				return
			}
			if p := readFontProgram(deobfuscateFont(data, attr(se, "fontKey"))); p != nil {
				if out == nil {
					out = map[string][]*fontProgram{}
				}
				out[font] = append(out[font], p)
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
