package extract

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

// hiddenPDF is a PDF of US Letter pages drawing contents, with the resources the hidden-text
// cases use: Helvetica (/F1), a font whose glyphs have no width (/F2, as a blank font's), Type 3
// fonts whose lower-case letters draw nothing (/F3), a box (/F4), a white box in colours of their
// own (/F5, d0) or a box in the text's colour though their procedure says white (/F6, d1), opacity 0 and 1 (/GS0, /GS1),
// soft masks that leave nothing (/GSM) or everything (/GSV) and none (/GSN), blend modes (/BMScreen,
// /BMOverlay, /BMMultiply, /BMNormal), a layer that is off
// (/oc1), a grey image (/Im1), an image white on its left half and black on its right (/Im2),
// colour spaces (hiddenSpaces), patterns (/PW white, /PS a white shading, /PE painting
// nothing, /PB black), shadings to paint with sh (/ShW white, /ShB black) and a font whose capitals
// draw letters and lower-case letters specks (testdata/fonts/specks.ttf), as a TrueType font (/F8)
// and as a Type 0 font (/F9), whose CIDs 0x100-0x103 draw the specks j, u, n, k and read as J, K, L, M.
func hiddenPDF(contents ...string) []byte {
	axial := func(rgb string) string {
		return "<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 612 0] /Extend [true true] /Function << /FunctionType 2" +
			" /Domain [0 1] /C0 [" + rgb + "] /C1 [" + rgb + "] /N 1 >> >>"
	}
	letters := ""
	for c := 'a'; c <= 'z'; c++ {
		letters += "/" + string(c) + " "
	}
	type3 := func(proc int) string {
		procs := ""
		for c := 'a'; c <= 'z'; c++ {
			procs += fmt.Sprintf("/%c %d 0 R ", c, proc)
		}
		return "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0]" +
			" /CharProcs << " + procs + ">> /Encoding << /Type /Encoding /Differences [97 " + letters + "] >>" +
			" /FirstChar 97 /LastChar 122 /Widths [" + strings.Repeat("500 ", 26) + "] /Resources << >> >>"
	}
	stream := func(dict, data string) string {
		return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
	}
	form := "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Group << /S /Transparency /CS /DeviceGray >>"
	tile := "/PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 10 10] /XStep 10 /YStep 10 /Resources << >>"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [4 0 R 19 0 R] /D << /OFF [4 0 R] >> >> >>",
		"", // the page tree, below
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Type /OCG /Name (hidden layer) >>",
		"<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 1 >>\nstream\n\x80\nendstream",
		"<< /Type /Font /Subtype /TrueType /BaseFont /BlankTest /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [" +
			strings.Repeat("0 ", 95) + "] >>",
		stream("/FunctionType 4 /Domain [0 1] /Range [0 1]", "{ pop 1 }"),                           // 7
		stream("/FunctionType 0 /Domain [0 1] /Range [0 1] /Size [2] /BitsPerSample 8", "\x00\xff"), // 8
		type3(11), type3(12), // 9, 10
		stream("", "500 0 d0"), stream("", "500 0 d0 0 0 400 600 re f"), // 11, 12
		stream(tile, "1 g 0 0 10 10 re f"), stream(tile, ""), stream(tile, "0 g 0 0 10 10 re f"), // 13-15
		stream(form, ""), stream(form, "1 g 0 0 612 792 re f"), // 16, 17: soft masks' groups
		stream("/Type /XObject /Subtype /Image /Width 2 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8", "\xff\x00"), // 18
		"<< /Type /OCG /Name (a layer that is on) >>", // 19
		type3(22), type3(23), // 20, 21
		stream("", "500 0 d0 1 g 0 0 400 600 re f"), stream("", "500 0 0 0 400 600 d1 1 g 0 0 400 600 re f"), // 22, 23
		// 24: a page-sized cell showing a line of text; 25: a small cell showing a word, a texture.
		stream("/PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 612 792] /XStep 612 /YStep 792 /Resources << /Font << /F1 3 0 R >> >>",
			"0 g BT /F1 12 Tf 72 600 Td ("+patternWords+") Tj ET"),
		stream("/PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 40 20] /XStep 40 /YStep 20 /Resources << /Font << /F1 3 0 R >> >>",
			"0 g BT /F1 8 Tf 2 6 Td (tex) Tj ET"),
		// 26: a soft mask's group, white text on black: what is painted through it shows the text.
		stream(form+" /Resources << /Font << /F1 3 0 R >> >>", "0 g 0 0 612 792 re f 1 g BT /F1 12 Tf 72 600 Td ("+maskWords+") Tj ET"),
		// 27, 28: a Type 3 font whose glyph a shows a line of text in Helvetica.
		"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 600 20] /FontMatrix [1 0 0 1 0 0] /CharProcs << /a 28 0 R >>" +
			" /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [0] /Resources << /Font << /F1 3 0 R >> >> >>",
		stream("", "0 0 d0 BT /F1 12 Tf 0 0 Td ("+glyphWords+") Tj ET"),
		// 29-35: testdata/fonts/specks.ttf embedded, as a TrueType font (29) and as a Type 0 font of
		// CIDs that are the characters' codes (32), but 0x100-0x103.
		"<< /Type /Font /Subtype /TrueType /BaseFont /SpeckTest /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [" +
			strings.Repeat("500 ", 95) + "] /FontDescriptor 30 0 R >>",
		"<< /Type /FontDescriptor /FontName /SpeckTest /Flags 32 /FontBBox [0 0 500 700] /ItalicAngle 0 /Ascent 800 /Descent -200" +
			" /CapHeight 700 /StemV 80 /FontFile2 31 0 R >>",
		stream("", string(specksFont)),
		"<< /Type /Font /Subtype /Type0 /BaseFont /SpeckTest /Encoding /Identity-H /DescendantFonts [33 0 R] /ToUnicode 35 0 R >>",
		"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /SpeckTest /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>" +
			" /FontDescriptor 30 0 R /DW 500 /CIDToGIDMap 34 0 R >>",
		stream("", specksCIDs()),
		stream("", "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Adobe-Identity-UCS def /CMapType 2 def"+
			" 1 begincodespacerange <0000> <FFFF> endcodespacerange 2 beginbfrange <0020> <007E> <0020> <0100> <0103> <004A> endbfrange"+
			" endcmap CMapName currentdict /CMap defineresource pop end end"),
	}
	res := "<< /Font << /F1 3 0 R /F2 6 0 R /F3 9 0 R /F4 10 0 R /F5 20 0 R /F6 21 0 R /F7 27 0 R /F8 29 0 R /F9 32 0 R >>" +
		" /ExtGState << /GS0 << /ca 0 /CA 0 >> /GS1 << /ca 1 /CA 1 >> /GS95 << /ca 0.95 >> /GS80 << /ca 0.8 >> /GSM << /SMask << /S /Luminosity /G 16 0 R >> >>" +
		" /GSV << /SMask << /S /Luminosity /G 17 0 R >> >> /GSN << /SMask /None >>" +
		" /GST << /SMask << /S /Luminosity /G 26 0 R >> >> /BMScreen << /BM /Screen >> /BMOverlay << /BM [/Overlay /Normal] >> /BMMultiply << /BM /Multiply >> /BMNormal << /BM /Normal >> >>" +
		" /Properties << /oc1 4 0 R /veOff << /Type /OCMD /VE [/Not 19 0 R] >> /veOn << /Type /OCMD /OCGs [4 0 R] /VE [/Or [/Not 4 0 R] 19 0 R] >> >> /XObject << /Im1 5 0 R /Im2 18 0 R >> /ColorSpace " + hiddenSpaces +
		" /Pattern << /PW 13 0 R /PE 14 0 R /PB 15 0 R /PT 24 0 R /PX 25 0 R /PS << /PatternType 2 /Shading << /ShadingType 2 /ColorSpace /DeviceRGB" +
		" /Coords [0 0 612 0] /Function << /FunctionType 2 /Domain [0 1] /C0 [1 1 1] /C1 [1 1 1] /N 1 >> >> >> >>" +
		" /Shading << /ShW " + axial("1 1 1") + " /ShB " + axial("0 0 0") + " >> >>"
	var kids []string
	for _, c := range contents {
		n := len(objs) + 1
		kids = append(kids, fmt.Sprintf("%d 0 R", n))
		objs = append(objs, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources %s /Contents %d 0 R >>", res, n+1),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(c), c))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	return pdfOfObjects(objs)
}

// specksFont is testdata/fonts/specks.ttf: capitals inked, lower-case letters specks.
var specksFont = func() []byte {
	data, err := os.ReadFile(filepath.Join("testdata", "fonts", "specks.ttf"))
	if err != nil {
		panic(err)
	}
	return data
}()

// specksCIDs is the CIDToGIDMap of hiddenPDF's Type 0 font: CIDs up to 0x7E are the characters of
// their codes; 0x100-0x103 draw j, u, n and k.
func specksCIDs() string {
	p := readFontProgram(specksFont)
	m := make([]byte, 2*0x104)
	for cid := range 0x104 {
		r := rune(cid)
		if cid >= 0x100 {
			r = rune("junk"[cid-0x100])
		}
		g := p.Glyph(r)
		m[2*cid], m[2*cid+1] = byte(g>>8), byte(g)
	}
	return string(m)
}

// pdfOfObjects writes a PDF of the objects given, numbered from 1 (the first the catalog), with
// its cross-reference table.
func pdfOfObjects(objs []string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// hiddenSpaces are the colour spaces of hiddenPDF: Lab, and a spot colour whose tint transform
// makes a tint of 1 white and 0 black, given as each kind of function.
const hiddenSpaces = "<< /Lab [/Lab << /WhitePoint [0.9505 1 1.089] >>]" +
	" /Ink [/Separation /Ink /DeviceGray << /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 1 >>]" +
	" /InkCalc [/Separation /Ink /DeviceGray 7 0 R] /InkSampled [/Separation /Ink /DeviceGray 8 0 R]" +
	" /InkStitched [/DeviceN [/Ink] /DeviceGray << /FunctionType 3 /Domain [0 1] /Bounds [0.5] /Encode [0 1 0 1]" +
	" /Functions [<< /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [0] /N 1 >> << /FunctionType 2 /Domain [0 1] /C0 [1] /C1 [1] /N 1 >>] >>] >>"

// patternWords is the line of text hiddenPDF's pattern /PT shows, at (72, 600) in its cell;
// maskWords the line its soft mask /GST's group shows there; glyphWords the line the glyph a of its
// Type 3 font /F7 shows.
const (
	patternWords = "Words a pattern shows where it fills."
	maskWords    = "Words a mask shows through a box."
	glyphWords   = "Words one glyph of a Type 3 font shows."
)

// Two paragraphs of visible text; the first has a place where cases put hidden words.
const (
	visible1a = "Students who copy a paragraph "
	visible1b = "hide words between its words."
	visible1  = visible1a + visible1b
	visible2  = "A second paragraph stays as it is."
)

// twoParagraphs draws them, with hide (operators that hide, the hidden text, operators that undo
// that) between the two halves of the first; under and over are drawn before and after.
func twoParagraphs(under, hide, over string) string {
	return under + " BT /F1 12 Tf 72 700 Td (" + visible1a + ") Tj " + hide + " (" + visible1b + ") Tj ET" +
		" 0 g BT /F1 12 Tf 72 650 Td (" + visible2 + ") Tj ET " + over
}

// hiddenWant is a piece of hidden text a case must find.
type hiddenWant struct {
	text    string
	reasons []string
	para    int // the paragraph that holds it
	offset  int // where in that paragraph's text; -1: do not check
	apart   bool
}

// checkHidden compares a document's paragraphs and hidden text with what a case wants, and its
// warning with the hidden text: the count of characters, the pages or paragraphs.
func checkHidden(t *testing.T, doc *Document, paras []string, want []hiddenWant, pages []int) {
	t.Helper()
	var got []string
	for _, p := range doc.Paragraphs {
		got = append(got, p.Text)
	}
	if !slices.Equal(got, paras) {
		t.Errorf("paragraphs\n%q\nwant\n%q", got, paras)
	}
	type piece struct {
		para int
		h    Hidden
	}
	var found []piece
	for i, p := range doc.Paragraphs {
		for _, h := range p.Hidden {
			found = append(found, piece{i, h})
		}
	}
	if len(found) != len(want) {
		t.Fatalf("hidden pieces %+v, want %+v", found, want)
	}
	count, wantParas := 0, []int{}
	for i, w := range want {
		f := found[i]
		if f.para != w.para || f.h.Text != w.text || !slices.Equal(f.h.Reasons, w.reasons) || f.h.Apart != w.apart ||
			w.offset >= 0 && f.h.Offset != w.offset {
			t.Errorf("hidden piece %d: %+v in paragraph %d, want %+v", i, f.h, f.para, w)
		}
		count += len([]rune(strings.ReplaceAll(w.text, " ", "")))
		if !slices.Contains(wantParas, w.para) {
			wantParas = append(wantParas, w.para)
		}
	}
	var warn *Warning
	for i := range doc.Warnings {
		if doc.Warnings[i].Kind == WarnHidden {
			warn = &doc.Warnings[i]
		}
	}
	if len(want) == 0 {
		if warn != nil {
			t.Errorf("a warning without hidden text: %+v", *warn)
		}
		return
	}
	if warn == nil {
		t.Fatalf("no hidden-text warning in %+v", doc.Warnings)
	}
	if warn.Count != count || !strings.Contains(warn.Message, fmt.Sprint(count)) {
		t.Errorf("warning %+v, want %d characters", *warn, count)
	}
	if !slices.Equal(warn.Pages, pages) || !slices.Equal(warn.Paragraphs, wantParas) {
		t.Errorf("warning on pages %v, paragraphs %v; want %v, %v", warn.Pages, warn.Paragraphs, pages, wantParas)
	}
}

// TestPDFHiddenText: each way of hiding text in a PDF is left out and warned of, and the visible
// text around it stays whole. Readable text on a coloured box, light grey text and OCR text over a
// scan are visible.
func TestPDFHiddenText(t *testing.T) {
	inline := func(text string, reasons ...string) []hiddenWant {
		return []hiddenWant{{text: text, reasons: reasons, para: 0, offset: len(visible1a) - 1}}
	}
	apart := func(text string, reasons ...string) []hiddenWant {
		return []hiddenWant{{text: text, reasons: reasons, para: 0, offset: len(visible1), apart: true}}
	}
	tests := []struct {
		name    string
		content string
		paras   []string // default: the two visible paragraphs
		hidden  []hiddenWant
	}{
		{"white 1-pt words", twoParagraphs("", "1 g /F1 1 Tf (junk words) Tj 0 g /F1 12 Tf", ""), nil,
			inline("junk words", HideWhite, HideTiny)},
		{"white words", twoParagraphs("", "1 1 1 rg (junk) Tj 0 0 0 rg", ""), nil, inline("junk", HideWhite)},
		// The room it takes is a wide gap in the line, but not one between two columns.
		{"a white sentence", twoParagraphs("", "1 g (a long white junk sentence) Tj 0 g", ""), nil,
			inline("a long white junk sentence", HideWhite)},
		{"nearly white words", twoParagraphs("", "0.95 g (junk) Tj 0 g", ""), nil, inline("junk", HideWhite)},
		{"white in CMYK", twoParagraphs("", "0 0 0 0 k (junk) Tj 0 0 0 1 k", ""), nil, inline("junk", HideWhite)},
		{"render mode 3", twoParagraphs("", "3 Tr (junk words) Tj 0 Tr", ""), nil, inline("junk words", HideInvisible)},
		// A thick white outline stroked round black letters covers them; a thin one does not.
		{"a white outline of 3 pt round 12-pt letters", twoParagraphs("", "2 Tr 1 G 3 w (junk) Tj 0 Tr 0 G 1 w", ""), nil, inline("junk", HideWhite)},
		{"a white outline of 1 pt is visible", twoParagraphs("", "2 Tr 1 G 1 w (seen) Tj 0 Tr 0 G", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		// Render mode 7 only clips: what is painted later shows in the glyphs' shapes, and only
		// there; it covers nothing.
		{"render mode 7, a speck painted elsewhere", twoParagraphs("", "7 Tr (junk words) Tj 0 Tr", "0 g 300 100 10 10 re f"), nil,
			inline("junk words", HideInvisible)},
		{"render mode 7, a box painted through it", twoParagraphs("", "7 Tr (seen) Tj 0 Tr", "0 g 60 690 500 30 re f"),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		{"1-pt words", twoParagraphs("", "/F1 1 Tf (junk words) Tj /F1 12 Tf", ""), nil, inline("junk words", HideTiny)},
		{"squeezed to 1 %", twoParagraphs("", "1 Tz (junk words) Tj 100 Tz", ""), nil, inline("junk words", HideTiny)},
		{"transparent", twoParagraphs("", "/GS0 gs (junk) Tj /GS1 gs", ""), nil, inline("junk", HideTransparent)},
		{"in a layer that is off", twoParagraphs("", "/OC /oc1 BDC (junk) Tj EMC", ""), nil, inline("junk", HideLayer)},
		// A visibility expression decides over a membership's groups.
		{"in a layer off by a visibility expression", twoParagraphs("", "/OC /veOff BDC (junk) Tj EMC", ""), nil, inline("junk", HideLayer)},
		{"in a layer on by a visibility expression", twoParagraphs("", "/OC /veOn BDC (seen) Tj EMC", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		{"on a box of its own colour, the rest white on it", twoParagraphs("0.2 0.4 0.6 rg 60 690 500 30 re f 1 g",
			"0.2 0.4 0.6 rg (junk) Tj 1 g", ""), nil, inline("junk", HideBackground)},
		{"off the page", twoParagraphs("", "", "BT /F1 12 Tf -400 680 Td (junk words) Tj ET"), nil,
			apart("junk words", HideOffPage)},
		{"clipped away", twoParagraphs("", "", "q 0 0 5 5 re W n BT /F1 12 Tf 72 680 Td (junk words) Tj ET Q"), nil,
			apart("junk words", HideClipped)},
		{"covered by a white box", twoParagraphs("", "", "BT /F1 12 Tf 72 680 Td (junk words) Tj ET 1 g 70 676 200 16 re f"), nil,
			apart("junk words", HideCovered)},
		// A white shape of curves over it, as Word saves a rounded rectangle or an oval in front of
		// text; a white shading painted through a box.
		{"covered by a white rounded rectangle", twoParagraphs("", "", "BT /F1 12 Tf 72 680 Td (junk words) Tj ET 1 g 70 680 m 70 690 72 692 76 692 c 264 692 l 268 692 270 690 270 686 c 270 680 l 270 678 268 676 264 676 c 76 676 l 72 676 70 678 70 680 c h f"), nil,
			apart("junk words", HideCovered)},
		{"covered by a white shading through a box", twoParagraphs("", "", "BT /F1 12 Tf 72 680 Td (junk words) Tj ET q 70 676 200 16 re W n /ShW sh Q"), nil,
			apart("junk words", HideCovered)},
		{"beside a white triangle, in its box, is visible", twoParagraphs("", "", "BT /F1 12 Tf 72 600 Td (seen words) Tj ET 1 g 60 640 m 300 640 l 300 590 l h f"),
			[]string{visible1, visible2, "seen words"}, nil},
		// Through a box of 95 % opacity, black is #F2F2F2; through 80 %, #CCCCCC.
		{"under a white box of 95 % opacity", twoParagraphs("", "", "BT /F1 12 Tf 72 680 Td (junk words) Tj ET /GS95 gs 1 g 70 676 200 16 re f /GS1 gs"), nil,
			apart("junk words", HideCovered)},
		{"under a white box of 80 % opacity is visible", twoParagraphs("", "", "BT /F1 12 Tf 72 600 Td (seen words) Tj ET /GS80 gs 1 g 70 596 200 16 re f /GS1 gs"),
			[]string{visible1, visible2, "seen words"}, nil},
		{"letters of no width piled on one spot", twoParagraphs("", "/F2 12 Tf (junkwords) Tj /F1 12 Tf", ""), nil,
			inline("junkwords", HideStacked)},
		// Letters with widths, each drawn over most of the one before: Word's junk condensed by an
		// em, a negative character spacing, kerning back by each glyph's width.
		{"letters kerned back onto one spot", twoParagraphs("", "[(j) 222 (u) 556 (n) 556 (k) 500] TJ", ""), nil,
			inline("junk", HideStacked)},
		{"letters condensed into a pile", twoParagraphs("", "-5 Tc (junkwords) Tj 0 Tc", ""), nil, inline("junkwords", HideStacked)},
		{"letters condensed a little are visible", twoParagraphs("", "-1 Tc (seen) Tj 0 Tc", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		{"letters of no width placed one by one are visible", twoParagraphs("", "", "BT /F2 12 Tf 72 600 Td (w) Tj 9 0 Td (i) Tj 9 0 Td (d) Tj 9 0 Td (e) Tj ET"),
			[]string{visible1, visible2, "wide"}, nil},
		{"light grey is visible", twoParagraphs("", "0.75 g (light grey) Tj 0 g", ""),
			[]string{visible1a + "light grey" + visible1b, visible2}, nil},
		// Too faint to read, though of another colour: readers read by luminance.
		{"yellow", twoParagraphs("", "1 1 0 rg (junk) Tj 0 g", ""), nil, inline("junk", HideFaint)},
		{"a pale yellow", twoParagraphs("", "1 1 0.78 rg (junk) Tj 0 g", ""), nil, inline("junk", HideFaint)},
		{"a light grey at 5 pt", twoParagraphs("", "/F1 5 Tf 0.88 g (junk) Tj 0 g /F1 12 Tf", ""), nil, inline("junk", HideFaint)},
		{"the same grey at 12 pt is visible", twoParagraphs("", "0.88 g (seen) Tj 0 g", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		{"cyan is visible", twoParagraphs("", "0 1 1 rg (seen) Tj 0 g", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		{"a chart's grey at 6 pt is visible", twoParagraphs("", "/F1 6 Tf 0.75 g (seen) Tj 0 g /F1 12 Tf", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		{"white on a yellow box", twoParagraphs("1 1 0 rg 60 690 500 30 re f 0 g", "1 g (junk) Tj 0 g", ""), nil, inline("junk", HideFaint)},
		{"white in Lab", twoParagraphs("", "/Lab cs 100 0 0 sc (junk) Tj 0 g", ""), nil, inline("junk", HideWhite)},
		{"black in Lab is visible", twoParagraphs("", "/Lab cs 0 0 0 sc (seen) Tj 0 g", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		// A spot colour is shown by its alternate space through its tint transform, of any kind.
		{"a spot tint its transform makes white", twoParagraphs("", "/Ink cs 1 scn (junk) Tj 0 g", ""), nil, inline("junk", HideWhite)},
		{"the same by a calculator", twoParagraphs("", "/InkCalc cs 1 scn (junk) Tj 0 g", ""), nil, inline("junk", HideWhite)},
		{"the same by samples", twoParagraphs("", "/InkSampled cs 1 scn (junk) Tj 0 g", ""), nil, inline("junk", HideWhite)},
		{"the same by parts", twoParagraphs("", "/InkStitched cs 0.9 scn (junk) Tj 0 g", ""), nil, inline("junk", HideWhite)},
		{"a spot tint of 0 its transform makes black is visible", twoParagraphs("/Ink cs 0 scn", "", ""), nil, nil},
		{"a white pattern", twoParagraphs("", "/Pattern cs /PW scn (junk) Tj 0 g", ""), nil, inline("junk", HideWhite)},
		{"a white shading", twoParagraphs("", "/Pattern cs /PS scn (junk) Tj 0 g", ""), nil, inline("junk", HideWhite)},
		{"a pattern that paints nothing", twoParagraphs("", "/Pattern cs /PE scn (junk) Tj 0 g", ""), nil,
			inline("junk", HideTransparent)},
		// A page painted white by a shading (sh) is as white as the paper.
		{"white words on a white shading", twoParagraphs("/ShW sh", "1 g (junk) Tj 0 g", ""), nil, inline("junk", HideWhite)},
		// A black shading under the first paragraph (clipped to it), its text white.
		{"black words on a black shading, the rest white", twoParagraphs("q 60 690 500 30 re W n /ShB sh Q 1 g", "0 g (junk) Tj 1 g", ""), nil,
			inline("junk", HideBackground)},
		{"white words on a black shading are visible", twoParagraphs("q 60 690 500 30 re W n /ShB sh Q 1 g", "(seen) Tj", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		{"a black pattern is visible", twoParagraphs("", "/Pattern cs /PB scn (seen) Tj 0 g", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		// A pattern whose cell shows text shows it where a fill paints it, and covers nothing else.
		{"text in a pattern's cell, where it fills", twoParagraphs("", "", "/Pattern cs /PT scn 60 590 500 30 re f 0 g"),
			[]string{visible1, visible2, patternWords}, nil},
		{"a pattern's text filled over text covers it not", twoParagraphs("", "", "/Pattern cs /PT scn 60 590 500 80 re f 0 g"),
			[]string{visible1, visible2, patternWords}, nil},
		{"a pattern's text where it does not fill is clipped", twoParagraphs("", "", "/Pattern cs /PT scn 60 590 100 30 re f 0 g"),
			[]string{visible1, visible2, "Words a pattern"}, []hiddenWant{
				{text: "it fills.", reasons: []string{HideClipped}, para: 1, offset: len(visible2), apart: true},
				{text: "shows where", reasons: []string{HideClipped}, para: 2, offset: len("Words a pattern")}}},
		{"a texture of words is no text", twoParagraphs("/Pattern cs /PX scn 0 0 612 792 re f 0 g", "", ""), nil, nil},
		// A box painted through a soft mask whose group shows text shows that text in the box's colour.
		{"text a soft mask shows through a box", twoParagraphs("", "", "q /GST gs 0 g 60 590 500 30 re f Q"),
			[]string{visible1, visible2, maskWords}, nil},
		{"a soft mask's text that nothing is painted through is no text", twoParagraphs("", "", "q /GST gs Q"), nil, nil},
		// The mask stays where the CTM was when gs set it, whatever the CTM and gs after.
		{"a soft mask's text where the mask was set", twoParagraphs("", "", "q /GST gs 1 0 0 1 0 -100 cm /GS1 gs 0 g 60 690 500 30 re f Q"),
			[]string{visible1, visible2, maskWords}, nil},
		// A Type 3 glyph whose procedure shows text shows that text, not the letter it stands for.
		{"text a Type 3 glyph's procedure shows", twoParagraphs("", "", "BT /F7 1 Tf 72 600 Td (a) Tj ET"),
			[]string{visible1, visible2, glyphWords}, nil},
		{"a soft mask that leaves nothing", twoParagraphs("", "/GSM gs (junk) Tj /GSN gs", ""), nil, inline("junk", HideTransparent)},
		{"a soft mask that leaves all is visible", twoParagraphs("", "/GSV gs (seen) Tj /GSN gs", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		// A blend mode decides what a glyph leaves on its backdrop: black in Screen, any colour in
		// Overlay, leave white white; black in Multiply stays black.
		{"black words in Screen on a white box", twoParagraphs("1 g 60 690 500 30 re f 0 g", "/BMScreen gs (junk) Tj /BMNormal gs", ""),
			nil, inline("junk", HideBlended)},
		// On the paper, nothing to blend with: poppler and Ghostscript show it black.
		{"black words in Screen on the paper are visible", twoParagraphs("", "/BMScreen gs (seen) Tj /BMNormal gs", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		{"red words in Overlay on a white box", twoParagraphs("1 g 0 0 612 792 re f 0 g", "/BMOverlay gs 1 0 0 rg (junk) Tj 0 g /BMNormal gs", ""),
			nil, inline("junk", HideBlended)},
		{"black words in Screen on a black box are visible", twoParagraphs("0 g 60 690 500 30 re f 1 g",
			"/BMScreen gs 0.2 g (junk) Tj 1 g /BMNormal gs", ""), []string{visible1a + "junk" + visible1b, visible2}, nil},
		{"black words in Multiply are visible", twoParagraphs("", "/BMMultiply gs (seen) Tj /BMNormal gs", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		{"white words in Multiply are white", twoParagraphs("", "/BMMultiply gs 1 g (junk) Tj 0 g /BMNormal gs", ""), nil, inline("junk", HideWhite)},
		// Junk in glyphs that draw nothing but take their room: gaps in the line.
		{"letters of a Type 3 font that draw nothing", twoParagraphs("", "/F3 12 Tf (junk) Tj /F1 12 Tf", ""), nil,
			inline("junk", HideBlankFont)},
		{"letters of a Type 3 font that draw are visible", twoParagraphs("", "/F4 12 Tf (seen) Tj /F1 12 Tf", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		// Junk in glyphs that draw specks, in an embedded font whose capitals draw letters: a dotted
		// rule, its commas and spaces with it. Found by character in a TrueType font, by the CID
		// in a Type 0 font, whatever the characters its glyphs read as.
		{"letters an embedded font draws as specks", twoParagraphs("", "/F8 12 Tf (zephyr, cobalt) Tj /F1 12 Tf", ""), nil,
			inline("zephyr, cobalt", HideBlankFont)},
		{"capitals of that font are visible", twoParagraphs("", "/F8 12 Tf (SEEN) Tj /F1 12 Tf", ""),
			[]string{visible1a + "SEEN" + visible1b, visible2}, nil},
		{"letters a Type 0 font draws as specks", twoParagraphs("", "/F9 12 Tf <007A00650070006800790072002C00200063006F00620061006C0074> Tj /F1 12 Tf", ""),
			nil, inline("zephyr, cobalt", HideBlankFont)},
		{"specks of a Type 0 font that read as capitals", twoParagraphs("", "/F9 12 Tf <0100010101020103> Tj /F1 12 Tf", ""), nil,
			inline("JKLM", HideBlankFont)},
		{"capitals of a Type 0 font are visible", twoParagraphs("", "/F9 12 Tf <005300450045004E> Tj /F1 12 Tf", ""),
			[]string{visible1a + "SEEN" + visible1b, visible2}, nil},
		// A Type 3 glyph that sets its width with d0 paints in its own colours: white shows nothing.
		// One that uses d1 is painted in the text's colour, whatever its procedure says.
		{"letters of a Type 3 font that draw white", twoParagraphs("", "/F5 12 Tf (junk) Tj /F1 12 Tf", ""), nil,
			inline("junk", HideBlankFont)},
		{"letters of a Type 3 font in the text's colour are visible", twoParagraphs("", "/F6 12 Tf (seen) Tj /F1 12 Tf", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		// Beside 12-pt text, a third of it or less is specks between its words; on a line of its
		// own it is small print.
		{"3 pt beside 12-pt text", twoParagraphs("", "/F1 3 Tf (junk) Tj /F1 12 Tf", ""), nil, inline("junk", HideTiny)},
		{"4 pt beside 12-pt text", twoParagraphs("", "/F1 4 Tf (junk) Tj /F1 12 Tf", ""), nil, inline("junk", HideTiny)},
		{"5 pt beside 12-pt text is visible", twoParagraphs("", "/F1 5 Tf (seen) Tj /F1 12 Tf", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		{"3 pt raised a little beside 12-pt text", twoParagraphs("", "/F1 3 Tf 2 Ts (junk) Tj 0 Ts /F1 12 Tf", ""), nil, inline("junk", HideTiny)},
		{"a word set large does not make the text small", twoParagraphs("", "/F1 40 Tf (BIG) Tj /F1 12 Tf", ""),
			[]string{visible1a + "BIG" + visible1b, visible2}, nil},
		{"3 pt raised a little at the end of a 12-pt line", "BT /F1 12 Tf 72 700 Td (" + visible1 + ") Tj /F1 3 Tf 2 Ts ( junk) Tj ET" +
			" BT /F1 12 Tf 72 650 Td (" + visible2 + ") Tj ET", nil, []hiddenWant{{text: "junk", reasons: []string{HideTiny}, para: 0, offset: len(visible1)}}},
		{"3-pt words beside a line, past its end, are visible", twoParagraphs("", "", "BT /F1 3 Tf 560 702 Td (label words) Tj ET"),
			[]string{visible1, "label words", visible2}, nil},
		{"a drop cap does not make the text beside it small", "BT /F1 40 Tf 30 690 Td (D) Tj ET " + twoParagraphs("", "", ""),
			[]string{"D " + visible1, visible2}, nil},
		{"3-pt words on a line of their own are visible", twoParagraphs("", "", "BT /F1 3 Tf 72 500 Td (label words) Tj ET"),
			[]string{visible1, visible2, "label words"}, nil},
		{"a 3-pt line of junk between two paragraphs", twoParagraphs("", "", "BT /F1 3 Tf 72 675 Td (junk words, set small) Tj ET"),
			[]string{visible1, visible2}, []hiddenWant{{text: "junk words, set small", reasons: []string{HideTiny}, para: 0, offset: len(visible1), apart: true}}},
		// A picture behind the text: white words on its white part are hidden, on its black part not.
		{"white words on a white picture", "q 612 0 0 792 0 0 cm /Im2 Do Q " + twoParagraphs("", "1 g (junk) Tj 0 g", ""),
			nil, inline("junk", HideWhite)},
		{"yellow words on a white picture", "q 612 0 0 792 0 0 cm /Im2 Do Q " + twoParagraphs("", "1 1 0 rg (junk) Tj 0 g", ""),
			nil, inline("junk", HideFaint)},
		{"white words on a black picture are visible", "q 612 0 0 792 0 0 cm /Im2 Do Q " + twoParagraphs("", "",
			"BT /F1 12 Tf 400 600 Td 1 g (seen) Tj 0 g ET"), []string{visible1, visible2, "seen"}, nil},
		{"white words on a grey picture are visible", "q 612 0 0 792 0 0 cm /Im1 Do Q " + twoParagraphs("", "1 g (seen) Tj 0 g", ""),
			[]string{visible1a + "seen" + visible1b, visible2}, nil},
		{"OCR text over a scan is visible", "q 612 0 0 792 0 0 cm /Im2 Do Q " + twoParagraphs("3 Tr", "", ""), nil, nil},
		{"OCR text under a scan drawn after it is visible", twoParagraphs("3 Tr", "", "q 612 0 0 792 0 0 cm /Im2 Do Q"), nil, nil},
		// A picture of one colour in front of text covers it; invisible text on one is no OCR.
		{"covered by a picture of nothing", twoParagraphs("", "", "BT /F1 12 Tf 72 600 Td (junk words) Tj ET q 200 0 0 30 60 590 cm /Im1 Do Q"),
			nil, []hiddenWant{{text: "junk words", reasons: []string{HideCovered}, para: 1, offset: len(visible2), apart: true}}},
		{"covered by a photograph smaller than the page", twoParagraphs("", "", "BT /F1 12 Tf 72 600 Td (junk words) Tj ET q 200 0 0 30 60 590 cm /Im2 Do Q"),
			nil, []hiddenWant{{text: "junk words", reasons: []string{HideCovered}, para: 1, offset: len(visible2), apart: true}}},
		{"a scan's text under the scan is visible", twoParagraphs("", "", "BT /F1 12 Tf 72 600 Td (seen) Tj ET q 612 0 0 792 0 0 cm /Im2 Do Q"),
			[]string{visible1, visible2, "seen"}, nil},
		{"invisible text on a picture of nothing", twoParagraphs("q 612 0 0 792 0 0 cm /Im1 Do Q", "", "BT /F1 12 Tf 3 Tr 72 600 Td (junk words) Tj ET"),
			nil, []hiddenWant{{text: "junk words", reasons: []string{HideInvisible}, para: 1, offset: len(visible2), apart: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Bytes(context.Background(), "hidden.pdf", hiddenPDF(tt.content))
			if err != nil {
				t.Fatal(err)
			}
			paras := tt.paras
			if paras == nil {
				paras = []string{visible1, visible2}
			}
			var pages []int
			if len(tt.hidden) > 0 {
				pages = []int{1}
			}
			checkHidden(t, doc, paras, tt.hidden, pages)
		})
	}
}

// TestPDFHiddenRoom: hidden junk at the end of a line takes the room the writer gave it, so the
// line, though its visible words end short, does not end the paragraph; and junk at the start of a
// line is no indent.
func TestPDFHiddenRoom(t *testing.T) {
	const (
		long  = "so that the words before it stop short of the margin, which looks like the"
		short = "end of a paragraph to one who reads the words alone, and then"
		last  = "it would to the check."
		junk  = "junk junk"
	)
	line := func(y int, s string) string { return fmt.Sprintf(" BT /F1 12 Tf 72 %d Td (%s) Tj ET", y, s) }
	for _, tt := range []struct {
		name, content string
	}{
		{"at the end", line(714, long) + " BT /F1 12 Tf 72 700 Td (" + short + ") Tj 1 g ( " + junk + ") Tj 0 g ET" + line(686, last)},
		{"at the start", line(714, long) + " BT /F1 12 Tf 72 700 Td 1 g (" + junk + " ) Tj 0 g (" + short + ") Tj ET" + line(686, last)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Bytes(context.Background(), "room.pdf", hiddenPDF(tt.content))
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Paragraphs) != 1 || len(doc.Paragraphs[0].Hidden) != 1 || doc.Paragraphs[0].Text != long+" "+short+" "+last {
				t.Fatalf("paragraphs %+v, want one with the hidden junk in it", doc.Paragraphs)
			}
			if h := doc.Paragraphs[0].Hidden[0]; h.Text != junk || !slices.Equal(h.Reasons, []string{HideWhite}) {
				t.Errorf("hidden %+v", h)
			}
		})
	}
}

// Hidden text on several pages: the warning names each page and paragraph; a file whose every
// character is hidden is refused with that reason.
func TestPDFHiddenPages(t *testing.T) {
	// First lines of about one length on the odd pages, so that none ends short of the margin
	// (the even page's invisible words still take their room).
	words := []string{"First", "Fifth", "Third"}
	page := func(n int, hide string) string {
		return fmt.Sprintf("BT /F1 12 Tf 96 400 Td (%s page: a paragraph ) Tj %s (of its own words) Tj ET", words[n-1], hide) +
			" BT /F1 12 Tf 72 386 Td (goes on to a line.) Tj ET"
	}
	data := hiddenPDF(page(1, "1 g /F1 1 Tf (first junk) Tj 0 g /F1 12 Tf"), page(2, "3 Tr (fifth junk) Tj 0 Tr"), page(3, ""))
	doc, err := Bytes(context.Background(), "pages.pdf", data)
	if err != nil {
		t.Fatal(err)
	}
	checkHidden(t, doc, []string{"First page: a paragraph of its own words goes on to a line.",
		"Fifth page: a paragraph of its own words goes on to a line.", "Third page: a paragraph of its own words goes on to a line."},
		[]hiddenWant{{"first junk", []string{HideWhite, HideTiny}, 0, 23, false}, {"fifth junk", []string{HideInvisible}, 1, 23, false}},
		[]int{1, 2})
	if !strings.Contains(doc.Warnings[0].Message, "white") || !strings.Contains(doc.Warnings[0].Message, "1 pt") ||
		!strings.Contains(doc.Warnings[0].Message, "pages 1, 2") {
		t.Errorf("warning %q does not say why and where", doc.Warnings[0].Message)
	}

	_, err = Bytes(context.Background(), "all.pdf", hiddenPDF("BT 3 Tr /F1 12 Tf 72 700 Td (nothing a reader sees) Tj ET"))
	if err == nil || !strings.Contains(err.Error(), "all of its text is hidden: 18 characters (invisible render mode)") {
		t.Errorf("error %v, want all of its text hidden", err)
	}
}

// TestPDFFinePrint: small print on lines of its own that no rule of pdfSmall hides (far from the
// text, in short lines, or on a page of its own) is left out, all of it, with a warning that says
// how much and where, when it is a large share of the text; a chart's few labels, and a document
// shrunk whole, are read.
func TestPDFFinePrint(t *testing.T) {
	const words = "Copied words of a paragraph that a student handed in as his own"
	text := func(lines int) string { // lines of 12-pt text, top down from 700
		var b strings.Builder
		for i := range lines {
			fmt.Fprintf(&b, "BT /F1 12 Tf 72 %d Td (%s) Tj ET ", 700-14*i, words)
		}
		return b.String()
	}
	junk := []string{"padding junk one", "padding junk two", "padding junk six"}
	// Blocks of three short lines of 3-pt junk under the text, each block far from it and on
	// baselines of its own, in a staircase.
	blocks := func(n int) (string, int) {
		var b strings.Builder
		letters := 0
		for k := range n {
			for i, j := range junk {
				fmt.Fprintf(&b, "BT /F1 3 Tf %d %.1f Td (%s) Tj ET ", 40+k*40, 60+11*float64(k)-3.6*float64(i), j)
				letters += len(strings.ReplaceAll(j, " ", ""))
			}
		}
		return b.String(), letters
	}
	smallPage := func(lines int, size float64) (string, int) { // a page of small print only
		var b strings.Builder
		letters := 0
		for i := range lines {
			line := strings.Repeat(junk[i%3]+" ", 8)
			fmt.Fprintf(&b, "BT /F1 %g Tf 72 %.1f Td (%s) Tj ET ", size, 700-1.2*size*float64(i), line)
			letters += len(strings.ReplaceAll(line, " ", ""))
		}
		return b.String(), letters
	}
	feet, feetLetters := blocks(12)
	label, _ := blocks(1)
	page, pageLetters := smallPage(48, 3) // twelve times the text: its body
	for _, tt := range []struct {
		name    string
		pages   []string
		letters int   // the small print's letters and digits left out, 0 for none
		where   []int // the pages the warning names
	}{
		{"blocks of short lines under the text", []string{text(8) + feet}, feetLetters, []int{1}},
		{"a page of small print after the text", []string{text(8), page}, pageLetters, []int{2}},
		{"a chart's labels far from the text", []string{text(8) + label}, 0, nil},
		{"a document shrunk whole", []string{page}, 0, nil},
	} {
		doc, err := Bytes(context.Background(), "fine.pdf", hiddenPDF(tt.pages...))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var all string
		for _, p := range doc.Paragraphs {
			all += p.Text
		}
		var w *Warning
		for i := range doc.Warnings {
			if doc.Warnings[i].Kind == WarnSmallPrint {
				w = &doc.Warnings[i]
			}
		}
		switch {
		case !strings.Contains(all, "Copied words") && len(tt.pages[0]) > len(page):
			t.Errorf("%s: the text was left out: %q", tt.name, all)
		case tt.letters == 0 && (w != nil || !strings.Contains(all, "padding junk")):
			t.Errorf("%s: warning %v, text %q; want the small print read", tt.name, w, all)
		case tt.letters > 0 && (w == nil || strings.Contains(all, "junk")):
			t.Errorf("%s: warning %v, text %q; want the small print left out", tt.name, w, all)
		case tt.letters > 0 && (w.Count != tt.letters || !slices.Equal(w.Pages, tt.where) || !strings.Contains(w.Message, "3 pt")):
			t.Errorf("%s: warning %+v, want %d characters at 3 pt on pages %v", tt.name, *w, tt.letters, tt.where)
		}
	}
}

// hiddenStyles: a character style that hides (white 1-pt, as students make one), a paragraph
// style that hides, a character style that hides too (both together show: toggles cancel), and
// document defaults of 1-pt type that the Normal style undoes.
const hiddenStyles = `<w:styles ` + wNS + `>` +
	`<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="2"/></w:rPr></w:rPrDefault></w:docDefaults>` +
	`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:sz w:val="24"/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Body"><w:name w:val="Body"/><w:basedOn w:val="Normal"/></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Gone"><w:name w:val="Gone"/><w:basedOn w:val="Normal"/><w:rPr><w:vanish/></w:rPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Squeezed"><w:name w:val="Squeezed"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:line="20" w:lineRule="exact"/></w:pPr></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Yellow"><w:name w:val="Yellow"/><w:basedOn w:val="Normal"/><w:pPr><w:shd w:val="clear" w:fill="FFFF00"/></w:pPr></w:style>` +
	`<w:style w:type="character" w:styleId="Hid"><w:name w:val="Hid"/><w:rPr><w:color w:val="FFFFFF"/><w:sz w:val="2"/></w:rPr></w:style>` +
	`<w:style w:type="character" w:styleId="Fit"><w:name w:val="Fit"/><w:rPr><w:fitText w:val="60"/></w:rPr></w:style>` +
	`<w:style w:type="character" w:styleId="Vanish"><w:name w:val="Vanish"/><w:rPr><w:vanish/></w:rPr></w:style>` +
	`<w:style w:type="character" w:styleId="NoFill"><w:name w:val="NoFill"/><w:rPr><w14:textFill xmlns:w14="` + nsW14 + `"><w14:noFill/></w14:textFill></w:rPr></w:style>` +
	`<w:style w:type="table" w:styleId="Banded"><w:name w:val="Banded"/><w:tblStylePr w:type="firstRow"><w:tcPr>` +
	`<w:shd w:val="clear" w:color="auto" w:fill="4472C4"/></w:tcPr></w:tblStylePr></w:style>` +
	`<w:style w:type="table" w:styleId="WhiteCells"><w:name w:val="White cells"/><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="FFFFFF"/></w:tcPr></w:style>` +
	`<w:style w:type="table" w:styleId="DarkCells"><w:name w:val="Dark cells"/><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="1F3864"/></w:tcPr></w:style>` +
	`<w:style w:type="table" w:styleId="Striped"><w:name w:val="Striped"/>` +
	`<w:tblStylePr w:type="firstRow"><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="000000"/></w:tcPr></w:tblStylePr>` +
	`<w:tblStylePr w:type="lastRow"><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="000000"/></w:tcPr></w:tblStylePr>` +
	`<w:tblStylePr w:type="band1Horz"><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="1F3864"/></w:tcPr></w:tblStylePr></w:style>` +
	`<w:style w:type="table" w:styleId="StripedToo"><w:name w:val="Striped too"/><w:basedOn w:val="Striped"/></w:style>` +
	`<w:style w:type="table" w:styleId="Wide"><w:name w:val="Wide bands"/><w:basedOn w:val="Striped"/><w:tblPr><w:tblStyleRowBandSize w:val="2"/></w:tblPr></w:style>` +
	`</w:styles>`

// w14 wraps Word 2010 run properties in a w:rPr of their own namespace.
func w14(props string) string {
	props = strings.ReplaceAll(props, "<w14:textFill>", `<w14:textFill xmlns:w14="`+nsW14+`">`)
	return strings.ReplaceAll(props, "<w14:textOutline ", `<w14:textOutline xmlns:w14="`+nsW14+`" `)
}

// wRun is a run with run properties rpr.
func wRun(rpr, text string) string {
	return `<w:r><w:rPr>` + rpr + `</w:rPr><w:t xml:space="preserve">` + text + `</w:t></w:r>`
}

// fitRunsOf is runs of the texts, each fit to width (twentieths of a point) with w:fitText of the
// id given (none if "").
func fitRunsOf(width int, id string, texts ...string) string {
	idAttr := ""
	if id != "" {
		idAttr = ` w:id="` + id + `"`
	}
	runs := ""
	for _, t := range texts {
		runs += wRun(fmt.Sprintf(`<w:fitText w:val="%d"%s/>`, width, idAttr), t)
	}
	return runs
}

// wTwo is the two paragraphs of visible text in style Body, with runs between the halves of the
// first; between goes between the paragraphs.
func wTwo(runs, between string) string {
	return `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun("", visible1a) + runs + wRun("", visible1b) + `</w:p>` +
		between + wPara("Body", visible2)
}

// wTextBox is a paragraph holding a DrawingML text box whose anchor says anchor (position, extent,
// docPr) and whose shape has properties props (wps:spPr, wps:style), with one paragraph of text in
// a run with properties rpr.
func wTextBox(anchor, props, rpr, text string) string {
	return `<w:p><w:r><w:drawing><wp:anchor xmlns:wp="` + nsWP + `">` + anchor +
		`<a:graphic xmlns:a="` + nsA + `"><a:graphicData><wps:wsp xmlns:wps="` + nsWPS + `">` + props +
		`<wps:txbx><w:txbxContent><w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun(rpr, text) + `</w:p></w:txbxContent></wps:txbx>` +
		`</wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r></w:p>`
}

// styledTable is a table of style id, its tblLook look, with a row of one cell of white text for
// each text.
func styledTable(id, look string, texts ...string) string {
	var rows strings.Builder
	for _, t := range texts {
		rows.WriteString(`<w:tr><w:tc><w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun(`<w:color w:val="FFFFFF"/>`, t) + `</w:p></w:tc></w:tr>`)
	}
	return `<w:tbl><w:tblPr><w:tblStyle w:val="` + id + `"/>` + look + `</w:tblPr>` + rows.String() + `</w:tbl>`
}

// wCovered is the two visible paragraphs with a paragraph between them anchoring a text box an
// inch square (relativeHeight 10) and a rectangle of the fill given, size EMU wide ("cx cy" for
// another height), placed at the same corner, its anchor's attributes attrs.
func wCovered(attrs, size, fill string) string {
	anchor := func(attrs, size, shape string) string {
		cx, cy, ok := strings.Cut(size, " ")
		if !ok {
			cy = cx
		}
		return `<w:r><w:drawing><wp:anchor xmlns:wp="` + nsWP + `" ` + attrs + `><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH>` +
			`<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="` + cx + `" cy="` + cy + `"/><wp:docPr id="1" name="s"/>` +
			`<a:graphic xmlns:a="` + nsA + `"><a:graphicData><wps:wsp xmlns:wps="` + nsWPS + `">` + shape + `</wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`
	}
	box := anchor(`relativeHeight="10"`, "914400", `<wps:txbx><w:txbxContent><w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>`+wRun("", "junk in a box")+`</w:p></w:txbxContent></wps:txbx>`)
	cover := anchor(attrs, size, `<wps:spPr><a:prstGeom prst="rect"/>`+fill+`</wps:spPr>`)
	return `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun("", visible1) + `</w:p><w:p>` + box + cover + `</w:p>` + wPara("Body", visible2)
}

// wWhiteBox is the two visible paragraphs with a paragraph between them holding a text box whose
// shape has properties props, its text white.
func wWhiteBox(props string) string {
	return `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun("", visible1) + `</w:p>` +
		wTextBox(`<wp:docPr id="1" name="box"/>`, props, `<w:color w:val="FFFFFF"/>`, "junk in a box") + wPara("Body", visible2)
}

// wVMLBox is the two visible paragraphs with a paragraph between them holding a VML text box of
// the style given, its text box's style boxStyle, with one paragraph of text.
func wVMLBox(style, boxStyle, text string) string {
	return `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun("", visible1) + `</w:p>` +
		`<w:p><w:r><w:pict xmlns:v="` + nsV + `"><v:shape id="b1" style="` + style + `"><v:textbox style="` + boxStyle + `"><w:txbxContent>` +
		wPara("Body", text) + `</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>` + wPara("Body", visible2)
}

// wTextBoxBody is the two visible paragraphs with a paragraph between them holding a text box cy
// EMU high whose shape's body (after its text, as Word writes it) is body.
func wTextBoxBody(cy, body, text string) string {
	box := wTextBox(`<wp:extent cx="914400" cy="`+cy+`"/><wp:docPr id="1" name="box"/>`, "", "", text)
	return `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun("", visible1) + `</w:p>` +
		strings.Replace(box, "</wps:txbx>", "</wps:txbx>"+body, 1) + wPara("Body", visible2)
}

// TestDOCXHiddenText: each way of hiding text in Word is left out and warned of, through styles
// as well as direct formatting, and the visible text stays whole. Readable colours on shading,
// light grey and what styles undo are visible.
// gradient is a w14:textFill of a linear gradient with a stop of each colour given.
func gradient(colors ...string) string {
	stops := ""
	for i, c := range colors {
		stops += fmt.Sprintf(`<w14:gs w14:pos="%d">%s</w14:gs>`, i*100000/max(len(colors)-1, 1), c)
	}
	return `<w14:textFill><w14:gradFill><w14:gsLst>` + stops + `</w14:gsLst><w14:lin w14:ang="5400000" w14:scaled="0"/></w14:gradFill></w14:textFill>`
}

func TestDOCXHiddenText(t *testing.T) {
	inline := func(text string, reasons ...string) []hiddenWant {
		return []hiddenWant{{text: text, reasons: reasons, para: 0, offset: len(visible1a)}}
	}
	apart := func(offset int, text string, reasons ...string) []hiddenWant {
		return []hiddenWant{{text: text, reasons: reasons, para: 0, offset: offset, apart: true}}
	}
	cell := func(shd, color, text string) string {
		return `<w:tc><w:tcPr><w:shd w:val="clear" w:fill="` + shd + `"/></w:tcPr><w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` +
			wRun(`<w:color w:val="`+color+`"/>`, text) + `</w:p></w:tc>`
	}
	tests := []struct {
		name   string
		body   string
		paras  []string // default: the two visible paragraphs
		hidden []hiddenWant
	}{
		{"vanish", wTwo(wRun(`<w:vanish/>`, "junk words"), ""), nil, inline("junk words", HideVanish)},
		{"specVanish", wTwo(wRun(`<w:specVanish/>`, "junk words"), ""), nil, inline("junk words", HideVanish)},
		{"white", wTwo(wRun(`<w:color w:val="FFFFFF"/>`, "junk words"), ""), nil, inline("junk words", HideWhite)},
		{"yellow", wTwo(wRun(`<w:color w:val="FFFF00"/>`, "junk words"), ""), nil, inline("junk words", HideFaint)},
		{"a light grey at 5 pt", wTwo(wRun(`<w:color w:val="E0E0E0"/><w:sz w:val="10"/>`, "junk words"), ""), nil, inline("junk words", HideFaint)},
		{"the same grey at 12 pt is visible", wTwo(wRun(`<w:color w:val="E0E0E0"/>`, "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		{"1 pt", wTwo(wRun(`<w:sz w:val="2"/>`, "junk words"), ""), nil, inline("junk words", HideTiny)},
		// Beside 12-pt text, a third of it or less is specks between its words.
		{"3 pt beside 12-pt text", wTwo(wRun(`<w:sz w:val="6"/>`, "junk words"), ""), nil, inline("junk words", HideTiny)},
		{"4 pt beside 12-pt text", wTwo(wRun(`<w:sz w:val="8"/>`, "junk words"), ""), nil, inline("junk words", HideTiny)},
		{"5 pt beside 12-pt text is read", wTwo(wRun(`<w:sz w:val="10"/>`, "small "), ""),
			[]string{visible1a + "small " + visible1b, visible2}, nil},
		{"3-pt junk more than the text around it", wTwo(wRun(`<w:sz w:val="6"/>`, strings.Repeat("junk words ", 20)), ""), nil,
			inline(strings.TrimSpace(strings.Repeat("junk words ", 20)), HideTiny)},
		// Junk more than nine times the text would be the paragraph's, or the document's, own size.
		{"3-pt junk twelve times the text around it", wTwo(wRun(`<w:sz w:val="6"/>`, strings.Repeat("junk words ", 70)), ""), nil,
			inline(strings.TrimSpace(strings.Repeat("junk words ", 70)), HideTiny)},
		{"a paragraph of 3 pt twelve times the text", wTwo("", `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>`+wRun(`<w:sz w:val="6"/>`, strings.TrimSpace(strings.Repeat("junk words ", 330)))+`</w:p>`) +
			strings.Repeat(wPara("Body", visible2), 6), append([]string{visible1}, slices.Repeat([]string{visible2}, 7)...),
			apart(len(visible1), strings.TrimSpace(strings.Repeat("junk words ", 330)), HideTiny)},
		{"3 pt, then visible text, then white", wTwo(wRun(`<w:sz w:val="6"/>`, "small junk")+wRun("", "seen ")+wRun(`<w:color w:val="FFFFFF"/>`, "white junk"), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, []hiddenWant{
				{text: "small junk", reasons: []string{HideTiny}, offset: len(visible1a)},
				{text: "white junk", reasons: []string{HideWhite}, offset: len(visible1a) + len("seen ")}}},
		{"3 pt, then white", wTwo(wRun(`<w:sz w:val="6"/>`, "small junk")+wRun(`<w:color w:val="FFFFFF"/>`, "white junk"), ""), nil, []hiddenWant{
			{text: "small junk", reasons: []string{HideTiny}, offset: len(visible1a)},
			{text: "white junk", reasons: []string{HideWhite}, offset: len(visible1a)}}},
		{"a large word does not make 3.5 pt small beside 9-pt text", `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun(`<w:sz w:val="18"/>`, visible1a) +
			wRun(`<w:sz w:val="32"/>`, "BIG ") + wRun(`<w:sz w:val="7"/>`, "small ") + wRun(`<w:sz w:val="18"/>`, visible1b) + `</w:p>` + wPara("Body", visible2),
			[]string{visible1a + "BIG small " + visible1b, visible2}, nil},
		{"a paragraph of 3 pt between 12-pt paragraphs", wTwo("", `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>`+wRun(`<w:sz w:val="6"/>`, "junk paragraph")+`</w:p>`),
			nil, apart(len(visible1), "junk paragraph", HideTiny)},
		{"a paragraph of 5 pt is small print, read", wTwo("", `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>`+wRun(`<w:sz w:val="10"/>`, "small print")+`</w:p>`),
			[]string{visible1, "small print", visible2}, nil},
		{"a word set large does not make the text small", wTwo(wRun(`<w:sz w:val="80"/>`, "BIG "), ""),
			[]string{visible1a + "BIG " + visible1b, visible2}, nil},
		{"giant letters, a tenth of the paragraph's, do not make 12-pt text small", wTwo(wRun(`<w:sz w:val="144"/>`, "GIANT LETTERS "), ""),
			[]string{visible1a + "GIANT LETTERS " + visible1b, visible2}, nil},
		{"white 1 pt by a character style", wTwo(wRun(`<w:rStyle w:val="Hid"/>`, "junk words"), ""), nil,
			inline("junk words", HideWhite, HideTiny)},
		{"the style undone by the run", wTwo(wRun(`<w:rStyle w:val="Vanish"/><w:vanish w:val="0"/>`, "shown "), ""),
			[]string{visible1a + "shown " + visible1b, visible2}, nil},
		{"vanish in both styles cancels out", `<w:p><w:pPr><w:pStyle w:val="Gone"/></w:pPr>` + wRun(`<w:rStyle w:val="Vanish"/>`, visible1) + `</w:p>` +
			wPara("Body", visible2), nil, nil},
		{"a paragraph hidden by its style", wTwo("", wPara("Gone", "junk paragraph")), nil, apart(len(visible1), "junk paragraph", HideVanish)},
		{"the paragraph's shading", `<w:p><w:pPr><w:pStyle w:val="Yellow"/></w:pPr>` + wRun("", visible1a) +
			wRun(`<w:color w:val="FFFF00"/>`, "junk words") + wRun("", visible1b) + `</w:p>` + wPara("Body", visible2), nil,
			inline("junk words", HideBackground)},
		{"the highlight", wTwo(wRun(`<w:color w:val="00FF00"/><w:highlight w:val="green"/>`, "junk words"), ""), nil,
			inline("junk words", HideBackground)},
		{"a field's code", wTwo(`<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> SET x </w:instrText></w:r>`+
			wRun("", "junk words")+`<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`, ""), nil,
			inline("junk words", HideField)},
		{"a field's result is visible", wTwo(`<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> QUOTE "x" </w:instrText></w:r>`+
			`<w:r><w:fldChar w:fldCharType="separate"/></w:r>`+wRun("", "result ")+`<w:r><w:fldChar w:fldCharType="end"/></w:r>`, ""),
			[]string{visible1a + "result " + visible1b, visible2}, nil},
		{"cells: shaded like the text, and white on black", wTwo("", `<w:tbl><w:tr>`+cell("D9E2F3", "DAE3F3", "junk in a cell")+
			cell("000000", "FFFFFF", "white on black")+cell("auto", "BFBFBF", "light grey")+`</w:tr></w:tbl>`),
			[]string{visible1, "white on black", "light grey", visible2}, apart(len(visible1), "junk in a cell", HideBackground)},
		{"white in tables shaded by their style or as a whole is visible", wTwo("", `<w:tbl><w:tblPr><w:tblStyle w:val="Banded"/></w:tblPr><w:tr>`+
			cell("auto", "FFFFFF", "white on the style's colour")+`</w:tr></w:tbl>`+
			`<w:tbl><w:tblPr><w:shd w:val="clear" w:fill="000000"/></w:tblPr><w:tr>`+cell("auto", "FFFFFF", "white on the table's black")+`</w:tr></w:tbl>`),
			[]string{visible1, "white on the style's colour", "white on the table's black", visible2}, nil},
		// A table style's shading, by the cell's place: its header row, banded rows, last row.
		{"white in a table whose style shades every cell white", wTwo("", styledTable("WhiteCells", "", "junk in a cell")), nil,
			apart(len(visible1), "junk in a cell", HideWhite)},
		{"white in a table whose style shades every cell dark", wTwo("", styledTable("DarkCells", "", "white on the style's dark")),
			[]string{visible1, "white on the style's dark", visible2}, nil},
		{"white in a styled table's header, bands and last row", wTwo("", styledTable("Striped", `<w:tblLook w:firstRow="1" w:lastRow="1" w:noHBand="0"/>`,
			"the header", "band one", "junk in band two", "band one again", "junk in band two again", "the last row")),
			[]string{visible1, "the header", "band one", "band one again", "the last row", visible2},
			[]hiddenWant{{text: "junk in band two", reasons: []string{HideWhite}, para: 2, offset: -1, apart: true},
				{text: "junk in band two again", reasons: []string{HideWhite}, para: 3, offset: -1, apart: true}}},
		{"by Word 2007's look, a style it is based on", wTwo("", styledTable("StripedToo", `<w:tblLook w:val="0060"/>`, "the header", "band one", "junk in band two", "the last row")),
			[]string{visible1, "the header", "band one", "the last row", visible2},
			[]hiddenWant{{text: "junk in band two", reasons: []string{HideWhite}, para: 2, offset: -1, apart: true}}},
		{"bands of two rows", wTwo("", styledTable("Wide", `<w:tblLook w:firstRow="1" w:lastRow="0" w:noHBand="0"/>`,
			"the header", "band one", "band one still", "junk in band two", "junk in band two still", "band one again")),
			[]string{visible1, "the header", "band one", "band one still", "band one again", visible2},
			[]hiddenWant{{text: "junk in band two", reasons: []string{HideWhite}, para: 3, offset: -1, apart: true},
				{text: "junk in band two still", reasons: []string{HideWhite}, para: 3, offset: -1, apart: true}}},
		{"bands of two rows by the table's own size", wTwo("", styledTable("Striped", `<w:tblStyleRowBandSize w:val="2"/><w:tblLook w:firstRow="1" w:lastRow="0" w:noHBand="0"/>`,
			"the header", "band one", "band one still", "junk in band two")),
			[]string{visible1, "the header", "band one", "band one still", visible2},
			[]hiddenWant{{text: "junk in band two", reasons: []string{HideWhite}, para: 3, offset: -1, apart: true}}},
		{"white in a styled table whose look turns its formats off", wTwo("", styledTable("Striped", `<w:tblLook w:firstRow="0" w:lastRow="0" w:noHBand="1"/>`,
			"junk in the first row", "junk in the last row")), nil,
			[]hiddenWant{{text: "junk in the first row", reasons: []string{HideWhite}, para: 0, offset: -1, apart: true},
				{text: "junk in the last row", reasons: []string{HideWhite}, para: 0, offset: -1, apart: true}}},
		// A text box under a rectangle of one opaque colour in front of it.
		{"a text box under a white rectangle", wCovered(`relativeHeight="20"`, "914400", `<a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill>`), nil,
			apart(len(visible1), "junk in a box", HideCovered)},
		{"a text box under a rectangle of the theme's white", wCovered(`relativeHeight="20"`, "914400", `<a:solidFill><a:schemeClr val="bg1"/></a:solidFill>`), nil,
			apart(len(visible1), "junk in a box", HideCovered)},
		{"a text box over a white rectangle", wCovered(`relativeHeight="5"`, "914400", `<a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill>`),
			[]string{visible1, "junk in a box", visible2}, nil},
		{"a text box under a white rectangle behind the text", wCovered(`relativeHeight="20" behindDoc="1"`, "914400", `<a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill>`),
			[]string{visible1, "junk in a box", visible2}, nil},
		{"a text box under a narrower white rectangle", wCovered(`relativeHeight="20"`, "457200 914400", `<a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill>`),
			[]string{visible1, "junk in a box", visible2}, nil},
		{"a text box under a white rectangle of 93 % opacity", wCovered(`relativeHeight="20"`, "914400", `<a:solidFill><a:srgbClr val="FFFFFF"><a:alpha val="93000"/></a:srgbClr></a:solidFill>`), nil,
			apart(len(visible1), "junk in a box", HideCovered)},
		{"a text box under a half-transparent rectangle", wCovered(`relativeHeight="20"`, "914400", `<a:solidFill><a:srgbClr val="FFFFFF"><a:alpha val="50000"/></a:srgbClr></a:solidFill>`),
			[]string{visible1, "junk in a box", visible2}, nil},
		{"a hidden text box", `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun("", visible1) + `</w:p>` +
			wTextBox(`<wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="box" hidden="1"/>`, "", "", "junk in a box") +
			wPara("Body", visible2), nil, apart(len(visible1), "junk in a box", HideShape)},
		{"a text box off the page", `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun("", visible1) + `</w:p>` +
			wTextBox(`<wp:positionH relativeFrom="page"><wp:posOffset>20000000</wp:posOffset></wp:positionH>`+
				`<wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="box"/>`, "", "", "junk in a box") +
			wPara("Body", visible2), nil, apart(len(visible1), "junk in a box", HideOffPage)},
		// The same as Word 2003 wrote them (VML), placed by their style.
		{"a VML text box off the page", wVMLBox("position:absolute;margin-left:-500pt;margin-top:0;width:100pt;height:200pt", "", "junk in a box"),
			nil, apart(len(visible1), "junk in a box", HideOffPage)},
		{"a VML text box below the page", wVMLBox("position:absolute;left:0;top:20000pt;width:300pt;height:200pt;mso-position-vertical-relative:page", "", "junk in a box"),
			nil, apart(len(visible1), "junk in a box", HideOffPage)},
		{"a VML text box on the page", wVMLBox("position:absolute;margin-left:-50pt;margin-top:100pt;width:300pt;height:200pt", "", "a box on the page"),
			[]string{visible1, "a box on the page", visible2}, nil},
		{"in a VML text box a point high", wVMLBox("position:absolute;margin-left:0;margin-top:0;width:300pt;height:1pt", "", "junk in a box"),
			nil, apart(len(visible1), "junk in a box", HideClipped)},
		{"in a VML text box a point high that grows to fit", wVMLBox("position:absolute;margin-left:0;margin-top:0;width:300pt;height:1pt", "mso-fit-shape-to-text:t", "a box that grows"),
			[]string{visible1, "a box that grows", visible2}, nil},
		// Word shows no more of a text box's text than fits in it, unless the box grows to fit.
		{"in a text box a point high", wTextBoxBody("12700", `<wps:bodyPr/>`, "junk in a box"), nil, apart(len(visible1), "junk in a box", HideClipped)},
		{"in a text box with no room inside its insets", wTextBoxBody("91440", `<wps:bodyPr wrap="square"></wps:bodyPr>`, "junk in a box"), nil,
			apart(len(visible1), "junk in a box", HideClipped)},
		{"in a text box a point high that grows to fit", wTextBoxBody("12700", `<wps:bodyPr><a:spAutoFit xmlns:a="`+nsA+`"/></wps:bodyPr>`, "a box that grows"),
			[]string{visible1, "a box that grows", visible2}, nil},
		{"in a text box that holds its text", wTextBoxBody("457200", `<wps:bodyPr tIns="0" bIns="0"/>`, "a box that holds it"),
			[]string{visible1, "a box that holds it", visible2}, nil},
		{"a text box filled like its text; automatic colour reads on any fill", `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` +
			wRun("", visible1) + `</w:p>` +
			wTextBox(`<wp:docPr id="1" name="box"/>`, `<wps:spPr><a:solidFill xmlns:a="`+nsA+`"><a:srgbClr val="1F3864"/></a:solidFill></wps:spPr>`,
				`<w:color w:val="1F3864"/>`, "junk in a box") +
			wTextBox(`<wp:docPr id="2" name="box"/>`, `<wps:spPr><a:solidFill xmlns:a="`+nsA+`"><a:srgbClr val="000000"/></a:solidFill></wps:spPr>`,
				`<w:color w:val="auto"/>`, "a box that reads") +
			wPara("Body", visible2), []string{visible1, "a box that reads", visible2}, apart(len(visible1), "junk in a box", HideBackground)},
		// A shape's fill by the theme's colours, as Word's own text boxes are filled (lt1), or by
		// its style's fill reference.
		{"white in Word's text box of the theme's white", wWhiteBox(`<wps:spPr><a:solidFill xmlns:a="` + nsA + `"><a:schemeClr val="lt1"/></a:solidFill></wps:spPr>`),
			nil, apart(len(visible1), "junk in a box", HideWhite)},
		{"white in a text box of the theme's white darkened 5 %", wWhiteBox(`<wps:spPr><a:solidFill xmlns:a="` + nsA + `"><a:schemeClr val="bg1"><a:lumMod val="95000"/></a:schemeClr></a:solidFill></wps:spPr>`),
			nil, apart(len(visible1), "junk in a box", HideWhite)},
		{"white in a text box its style fills white", wWhiteBox(`<wps:style><a:fillRef xmlns:a="` + nsA + `" idx="1"><a:schemeClr val="bg1"/></a:fillRef></wps:style>`),
			nil, apart(len(visible1), "junk in a box", HideWhite)},
		{"white in a text box of the theme's white darkened by half", wWhiteBox(`<wps:spPr><a:solidFill xmlns:a="` + nsA + `"><a:schemeClr val="bg1"><a:lumMod val="50000"/></a:schemeClr></a:solidFill></wps:spPr>`),
			[]string{visible1, "junk in a box", visible2}, nil},
		{"white in a text box its style fills in an accent colour", wWhiteBox(`<wps:style><a:fillRef xmlns:a="` + nsA + `" idx="1"><a:schemeClr val="accent1"/></a:fillRef></wps:style>`),
			[]string{visible1, "junk in a box", visible2}, nil},
		{"white in a text box of half-transparent white", wWhiteBox(`<wps:spPr><a:solidFill xmlns:a="` + nsA + `"><a:srgbClr val="FFFFFF"><a:alpha val="50000"/></a:srgbClr></a:solidFill></wps:spPr>`),
			[]string{visible1, "junk in a box", visible2}, nil},
		// A run marked complex script (w:cs, w:rtl), or text in a complex script, takes w:szCs.
		{"1 pt as complex script", wTwo(wRun(`<w:cs/><w:sz w:val="24"/><w:szCs w:val="2"/>`, "junk words"), ""), nil,
			inline("junk words", HideTiny)},
		{"12 pt as complex script is visible", wTwo(wRun(`<w:rtl/><w:sz w:val="2"/><w:szCs w:val="24"/>`, "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		{"Arabic letters at 1 pt", wTwo(wRun(`<w:sz w:val="24"/><w:szCs w:val="2"/>`, "مرحبا"), ""), nil, inline("مرحبا", HideTiny)},
		// w:fitText shrinks a run's characters, with those of the runs in a row that share its id,
		// into the width it gives: a point's width for a phrase leaves a hairline.
		{"fit into a point", wTwo(wRun(`<w:fitText w:val="20" w:id="7"/>`, "junk words"), ""), nil, inline("junk words", HideTiny)},
		{"fit into 3 pt by a character style, the run's text in two pieces", wTwo(`<w:r><w:rPr><w:rStyle w:val="Fit"/></w:rPr><w:t>ju</w:t>`+
			`<w:t xml:space="preserve">nk words</w:t></w:r>`, ""), nil, inline("junk words", HideTiny)},
		{"fit as a group of runs", wTwo(fitRunsOf(240, "7", "junk one, ", "junk two, ", "junk six, "), ""), nil,
			inline("junk one, junk two, junk six,", HideTiny)},
		{"each run fit alone is visible", wTwo(fitRunsOf(240, "", "seen one, ", "seen two, ", "seen six, "), ""),
			[]string{visible1a + "seen one, seen two, seen six, " + visible1b, visible2}, nil},
		{"fit into a width that holds it is visible", wTwo(wRun(`<w:fitText w:val="1440" w:id="9"/>`, "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		// Condensed until each character covers three quarters of the one before, a run is a smudge.
		{"condensed into a pile", wTwo(wRun(`<w:spacing w:val="-100"/>`, "junk words"), ""), nil, inline("junk words", HideStacked)},
		{"Chinese condensed into a pile", wTwo(wRun(`<w:spacing w:val="-200"/>`, "垃圾文字"), ""), nil, inline("垃圾文字", HideStacked)},
		{"condensed by a point is visible", wTwo(wRun(`<w:spacing w:val="-20"/>`, "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		{"Chinese condensed by 8 pt is visible", wTwo(wRun(`<w:spacing w:val="-160"/>`, "看得见"), ""),
			[]string{visible1a + "看得见" + visible1b, visible2}, nil},
		// A font of pictures draws letters as pictures; Symbol's are Greek letters.
		{"letters in Wingdings", wTwo(wRun(`<w:rFonts w:ascii="Wingdings" w:hAnsi="Wingdings"/>`, "junk words"), ""), nil,
			inline("junk words", HideSymbols)},
		{"a bullet in Wingdings and Greek in Symbol are read", wTwo(wRun(`<w:rFonts w:ascii="Wingdings"/>`, "l ")+wRun(`<w:rFonts w:ascii="Symbol"/>`, "abg "), ""),
			[]string{visible1a + "l abg " + visible1b, visible2}, nil},
		// Superscripts and two lines in one are drawn smaller than their size.
		{"3 pt as a superscript", wTwo(wRun(`<w:sz w:val="6"/><w:vertAlign w:val="superscript"/>`, "junk words"), ""), nil,
			inline("junk words", HideTiny)},
		{"3 pt as two lines in one", wTwo(wRun(`<w:sz w:val="6"/><w:eastAsianLayout w:id="1" w:combine="1"/>`, "junk words"), ""), nil,
			inline("junk words", HideTiny)},
		{"5 pt on the baseline is visible", wTwo(wRun(`<w:sz w:val="10"/><w:vertAlign w:val="baseline"/>`, "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		{"raised off the page", wTwo(wRun(`<w:position w:val="3400"/>`, "junk words"), ""), nil, inline("junk words", HideOffPage)},
		{"raised a little is visible", wTwo(wRun(`<w:position w:val="6"/>`, "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		// Elements of an ignorable namespace no one knows are skipped by Word, with what they hold,
		// unless mc:ProcessContent names them.
		{"in markup Word ignores", `<w:p xmlns:mc="` + nsMC + `" xmlns:xyz="http://example.com/2024" mc:Ignorable="xyz"><w:pPr><w:pStyle w:val="Body"/></w:pPr>` +
			wRun("", visible1a) + `<xyz:junk>` + wRun("", "junk words") + `</xyz:junk>` + wRun("", visible1b) + `</w:p>` + wPara("Body", visible2),
			nil, inline("junk words", HideIgnored)},
		{"in markup whose content Word reads", `<w:p xmlns:mc="` + nsMC + `" xmlns:xyz="http://example.com/2024" mc:Ignorable="xyz" mc:ProcessContent="xyz:wrap">` +
			`<w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun("", visible1a) + `<xyz:wrap>` + wRun("", "seen ") + `</xyz:wrap>` + wRun("", visible1b) + `</w:p>` +
			wPara("Body", visible2), []string{visible1a + "seen " + visible1b, visible2}, nil},
		// Word 2010's text effects are shown instead of the colour: no fill (and no outline), a
		// fill of 100 % transparency or of the background's colour hide; an outline shows.
		{"no text fill", wTwo(wRun(`<w:color w:val="000000"/>`+w14(`<w14:textFill><w14:noFill/></w14:textFill>`), "junk words"), ""), nil,
			inline("junk words", HideTransparent)},
		{"no text fill by a character style", wTwo(wRun(`<w:rStyle w:val="NoFill"/>`, "junk words"), ""), nil, inline("junk words", HideTransparent)},
		{"a text fill of 100 % transparency", wTwo(wRun(w14(`<w14:textFill><w14:solidFill><w14:srgbClr w14:val="000000"><w14:alpha w14:val="100000"/>`+
			`</w14:srgbClr></w14:solidFill></w14:textFill>`), "junk words"), ""), nil, inline("junk words", HideTransparent)},
		{"a text fill of the theme's white over black", wTwo(wRun(`<w:color w:val="000000"/>`+
			w14(`<w14:textFill><w14:solidFill><w14:schemeClr w14:val="bg1"/></w14:solidFill></w14:textFill>`), "junk words"), ""), nil,
			inline("junk words", HideWhite)},
		{"a text fill of pale yellow", wTwo(wRun(`<w:color w:val="000000"/>`+
			w14(`<w14:textFill><w14:solidFill><w14:srgbClr w14:val="FFFFC8"/></w14:solidFill></w14:textFill>`), "junk words"), ""), nil,
			inline("junk words", HideFaint)},
		{"the theme's white darker by 35 % is visible", wTwo(wRun(w14(`<w14:textFill><w14:solidFill><w14:schemeClr w14:val="bg1">`+
			`<w14:lumMod w14:val="65000"/></w14:schemeClr></w14:solidFill></w14:textFill>`), "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		{"a black text fill over white is visible", wTwo(wRun(`<w:color w:val="FFFFFF"/>`+
			w14(`<w14:textFill><w14:solidFill><w14:srgbClr w14:val="000000"/></w14:solidFill></w14:textFill>`), "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		// A gradient fill hides when each of its stops does.
		{"a gradient fill white at both ends", wTwo(wRun(w14(gradient(`<w14:srgbClr w14:val="FFFFFF"/>`, `<w14:schemeClr w14:val="bg1"/>`)), "junk words"), ""), nil,
			inline("junk words", HideWhite)},
		{"a gradient fill of 100 % transparency", wTwo(wRun(w14(gradient(`<w14:srgbClr w14:val="000000"><w14:alpha w14:val="100000"/></w14:srgbClr>`,
			`<w14:srgbClr w14:val="FF0000"><w14:alpha w14:val="100000"/></w14:srgbClr>`)), "junk words"), ""), nil,
			inline("junk words", HideTransparent)},
		{"a gradient fill white to black is visible", wTwo(wRun(w14(gradient(`<w14:srgbClr w14:val="FFFFFF"/>`, `<w14:srgbClr w14:val="000000"/>`)), "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		{"a gradient fill white, and black at full transparency", wTwo(wRun(w14(gradient(`<w14:srgbClr w14:val="FFFFFF"/>`,
			`<w14:srgbClr w14:val="000000"><w14:alpha w14:val="100000"/></w14:srgbClr>`)), "junk words"), ""), nil,
			inline("junk words", HideWhite)},
		{"a white outline of 3 pt round 12-pt black letters", wTwo(wRun(w14(`<w14:textOutline w14:w="38100"><w14:solidFill><w14:srgbClr w14:val="FFFFFF"/></w14:solidFill></w14:textOutline>`), "junk words"), ""), nil,
			inline("junk words", HideWhite)},
		{"a white outline of 0.75 pt is visible", wTwo(wRun(w14(`<w14:textOutline w14:w="9525"><w14:solidFill><w14:srgbClr w14:val="FFFFFF"/></w14:solidFill></w14:textOutline>`), "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		{"no fill but an outline is visible", wTwo(wRun(w14(`<w14:textFill><w14:noFill/></w14:textFill><w14:textOutline w14:w="9525">`+
			`<w14:solidFill><w14:srgbClr w14:val="000000"/></w14:solidFill></w14:textOutline>`), "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		// A table row or a frame of an exact height cuts off text taller than twice it.
		{"in a table row a point high", wTwo("", `<w:tbl><w:tr><w:trPr><w:trHeight w:val="20" w:hRule="exact"/></w:trPr><w:tc>`+
			wPara("Body", "junk in a row")+`</w:tc></w:tr></w:tbl>`), nil, apart(len(visible1), "junk in a row", HideClipped)},
		{"in a frame a point high", wTwo("", `<w:p><w:pPr><w:pStyle w:val="Body"/><w:framePr w:w="3000" w:h="20" w:hRule="exact"/></w:pPr>`+
			wRun("", "junk in a frame")+`</w:p>`), nil, apart(len(visible1), "junk in a frame", HideClipped)},
		{"in lines a point high", wTwo("", `<w:p><w:pPr><w:pStyle w:val="Body"/><w:spacing w:line="20" w:lineRule="exact"/></w:pPr>`+
			wRun("", "junk in lines")+`</w:p>`), nil, apart(len(visible1), "junk in lines", HideClipped)},
		{"in lines a point high by the style", wTwo("", wPara("Squeezed", "junk in lines")), nil, apart(len(visible1), "junk in lines", HideClipped)},
		{"in lines of an exact height that holds them", wTwo("", `<w:p><w:pPr><w:pStyle w:val="Body"/><w:spacing w:line="240" w:lineRule="exact"/></w:pPr>`+
			wRun("", "lines that read")+`</w:p>`), []string{visible1, "lines that read", visible2}, nil},
		{"in a table row of an exact height that holds it", wTwo("", `<w:tbl><w:tr><w:trPr><w:trHeight w:val="400" w:hRule="exact"/></w:trPr><w:tc>`+
			wPara("Body", "a row that reads")+`</w:tc></w:tr></w:tbl>`), []string{visible1, "a row that reads", visible2}, nil},
		// Emboss, engrave and shadows draw beside the letters: white text with them shows.
		{"white embossed is visible", wTwo(wRun(`<w:color w:val="FFFFFF"/><w:emboss/>`, "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		{"white with a Word 2010 shadow is visible", wTwo(wRun(`<w:color w:val="FFFFFF"/><w14:shadow xmlns:w14="`+nsW14+`" w14:blurRad="38100">`+
			`<w14:srgbClr w14:val="000000"><w14:alpha w14:val="60000"/></w14:srgbClr></w14:shadow>`, "seen "), ""),
			[]string{visible1a + "seen " + visible1b, visible2}, nil},
		{"white with its shadow turned off", wTwo(wRun(`<w:color w:val="FFFFFF"/><w:shadow w:val="0"/>`, "junk words"), ""), nil,
			inline("junk words", HideWhite)},
		{"white in a shape filled from the theme is visible", `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun("", visible1) + `</w:p>` +
			wTextBox(`<wp:docPr id="1" name="shape"/>`, `<wps:spPr/><wps:style><a:fillRef xmlns:a="`+nsA+`" idx="1"><a:schemeClr val="accent1"/></a:fillRef></wps:style>`,
				`<w:color w:val="FFFFFF"/>`, "white on the accent colour") +
			wPara("Body", visible2), []string{visible1, "white on the accent colour", visible2}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkDOCXHidden(t, tt.body, nil, tt.paras, tt.hidden) })
	}
}

// TestDOCXOffColumn: a paragraph whose column lies off the page, by its own indents, its style's or
// its list level's, in a table indented or floated off it, or in a frame placed past its edge, is
// hidden text; indents into the margin are not.
func TestDOCXOffColumn(t *testing.T) {
	para := func(ppr, text string) string {
		return `<w:p><w:pPr><w:pStyle w:val="Body"/>` + ppr + `</w:pPr>` + wRun("", text) + `</w:p>`
	}
	table := func(tblPr, text string) string {
		return `<w:tbl><w:tblPr>` + tblPr + `</w:tblPr><w:tblGrid><w:gridCol w:w="5000"/></w:tblGrid><w:tr><w:tc>` +
			para("", text) + `</w:tc></w:tr></w:tbl>`
	}
	styles := strings.Replace(hiddenStyles, `</w:styles>`, `<w:style w:type="paragraph" w:styleId="Away"><w:name w:val="Away"/>`+
		`<w:basedOn w:val="Body"/><w:pPr><w:ind w:left="30000" w:right="-30000"/></w:pPr></w:style></w:styles>`, 1)
	numbering := `<w:numbering ` + wNS + `><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="none"/>` +
		`<w:lvlText w:val=""/><w:pPr><w:ind w:left="-40000" w:right="40000"/></w:pPr></w:lvl></w:abstractNum>` +
		`<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`
	off := func(text string) []hiddenWant {
		return []hiddenWant{{text: text, reasons: []string{HideOffPage}, para: 0, offset: len(visible1), apart: true}}
	}
	for _, tt := range []struct {
		name, between string
		paras         []string
		hidden        []hiddenWant
	}{
		{"indented off the page", para(`<w:ind w:left="-40000" w:right="40000"/>`, "junk paragraph"), nil, off("junk paragraph")},
		{"indented so that most of each line is off it", para(`<w:ind w:left="-20000"/>`, "junk paragraph"), nil, off("junk paragraph")},
		{"by its style", `<w:p><w:pPr><w:pStyle w:val="Away"/></w:pPr>` + wRun("", "junk paragraph") + `</w:p>`, nil, off("junk paragraph")},
		{"by its list level", para(`<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>`, "junk paragraph"), nil, off("junk paragraph")},
		{"its own indent over its style's", `<w:p><w:pPr><w:pStyle w:val="Away"/><w:ind w:left="0" w:right="0"/></w:pPr>` + wRun("", "seen") + `</w:p>`,
			[]string{visible1, "seen", visible2}, nil},
		{"in a table indented off the page", table(`<w:tblInd w:w="-40000" w:type="dxa"/>`, "junk in a table"), nil, off("junk in a table")},
		{"in a table floated off the page", table(`<w:tblpPr w:horzAnchor="page" w:tblpX="30000" w:tblpY="100"/>`, "junk in a table"), nil,
			off("junk in a table")},
		{"in a frame past the page's edge", para(`<w:framePr w:w="3000" w:x="40000" w:y="100" w:hAnchor="page" w:vAnchor="page"/>`, "junk in a frame"),
			nil, off("junk in a frame")},
		{"in a frame below the page", para(`<w:framePr w:w="3000" w:x="100" w:y="40000" w:hAnchor="page" w:vAnchor="page"/>`, "junk in a frame"),
			nil, off("junk in a frame")},
		{"a table wider than the page", `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="40000"/></w:tblGrid><w:tr><w:tc>` + para("", "seen") +
			`</w:tc></w:tr></w:tbl>`, []string{visible1, "seen", visible2}, nil},
		{"in a frame past a portrait page's edge, on a landscape section's page", `<w:p><w:pPr><w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:pPr></w:p>` +
			para(`<w:framePr w:w="2000" w:x="13000" w:y="100" w:hAnchor="page" w:vAnchor="page"/>`, "framed") +
			`<w:p><w:pPr><w:sectPr><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/></w:sectPr></w:pPr></w:p>`, []string{visible1, "framed", visible2}, nil},
		{"indented into the margin", para(`<w:ind w:left="-1000" w:right="-1000" w:hanging="400"/>`, "seen"), []string{visible1, "seen", visible2}, nil},
		{"a table indented into the margin, a frame on the page", table(`<w:tblInd w:w="-1000" w:type="dxa"/>`, "seen") +
			para(`<w:framePr w:w="3000" w:x="2000" w:y="100" w:hAnchor="page" w:vAnchor="page"/>`, "framed"), []string{visible1, "seen", "framed", visible2}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun("", visible1) + `</w:p>` + tt.between + wPara("Body", visible2)
			checkDOCXHidden(t, body, map[string]string{"styles": styles, "numbering": numbering}, tt.paras, tt.hidden)
		})
	}
}

// TestDOCXHiddenGap: white junk typed with the spaces around it leaves a gap on the page, which
// parts the words on either side; Word's hidden text leaves none, and a space already there is not
// doubled.
func TestDOCXHiddenGap(t *testing.T) {
	para := func(runs string) string { return `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + runs + `</w:p>` }
	for _, tt := range []struct{ name, body, want string }{
		{"white junk with its spaces", para(wRun("", "Students who copy") + wRun(`<w:color w:val="FFFFFF"/>`, " junk words ") + wRun("", "a paragraph")),
			"Students who copy a paragraph"},
		{"a space already there", para(wRun("", "Students who copy ") + wRun(`<w:color w:val="FFFFFF"/>`, " junk words ") + wRun("", "a paragraph")),
			"Students who copy a paragraph"},
		{"junk without spaces", para(wRun("", "Students who co") + wRun(`<w:color w:val="FFFFFF"/>`, "junk") + wRun("", "py a paragraph")),
			"Students who copy a paragraph"},
		{"Word's hidden text", para(wRun("", "Students who copy") + wRun(`<w:vanish/>`, " junk ") + wRun("", "ing a paragraph")),
			"Students who copying a paragraph"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Bytes(context.Background(), "gap.docx", wordPackage(t, tt.body, map[string]string{"styles": hiddenStyles}))
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Paragraphs) != 1 || doc.Paragraphs[0].Text != tt.want || len(doc.Paragraphs[0].Hidden) != 1 {
				t.Errorf("paragraphs %+v, want %q with its hidden text", doc.Paragraphs, tt.want)
			}
		})
	}
}

// checkDOCXHidden reads a DOCX of body, with hiddenStyles and the parts given, for checkHidden
// (paras nil: the two visible paragraphs).
func checkDOCXHidden(t *testing.T, body string, parts map[string]string, paras []string, hidden []hiddenWant) {
	t.Helper()
	all := map[string]string{"styles": hiddenStyles}
	for k, v := range parts {
		all[k] = v
	}
	doc, err := Bytes(context.Background(), "hidden.docx", wordPackage(t, body, all))
	if err != nil {
		t.Fatal(err)
	}
	if paras == nil {
		paras = []string{visible1, visible2}
	}
	checkHidden(t, doc, paras, hidden, nil)
}

// TestDOCXThemeColors: a colour named by the theme is the theme's, whatever its value says (Word
// ignores the value then), through the document's theme, its mapping of names and a tint or shade.
func TestDOCXThemeColors(t *testing.T) {
	inline := func(text string) []hiddenWant {
		return []hiddenWant{{text: text, reasons: []string{HideWhite}, para: 0, offset: len(visible1a)}}
	}
	seen := []string{visible1a + "seen " + visible1b, visible2}
	// A theme whose light colour is black and dark colour white.
	inverted := `<a:theme xmlns:a="` + nsA + `"><a:themeElements><a:clrScheme name="x">` +
		`<a:dk1><a:sysClr val="windowText" lastClr="FFFFFF"/></a:dk1><a:lt1><a:srgbClr val="000000"/></a:lt1>` +
		`</a:clrScheme></a:themeElements></a:theme>`
	tests := []struct {
		name   string
		runs   string
		parts  map[string]string
		paras  []string
		hidden []hiddenWant
	}{
		{"white by the theme, black by value", wRun(`<w:color w:val="000000" w:themeColor="background1"/>`, "junk "), nil, nil, inline("junk")},
		{"black by the theme, white by value", wRun(`<w:color w:val="FFFFFF" w:themeColor="text1"/>`, "seen "), nil, seen, nil},
		{"white by the theme with a tint", wRun(`<w:color w:val="000000" w:themeColor="background1" w:themeTint="99"/>`, "junk "), nil, nil, inline("junk")},
		{"white by the theme, darkened by half", wRun(`<w:color w:val="FFFFFF" w:themeColor="background1" w:themeShade="80"/>`, "seen "), nil, seen, nil},
		{"the document's theme", wRun(`<w:color w:val="000000" w:themeColor="text1"/>`, "junk "), map[string]string{"theme": inverted}, nil, inline("junk")},
		{"the document's theme, its light colour", wRun(`<w:color w:val="FFFFFF" w:themeColor="background1"/>`, "seen "),
			map[string]string{"theme": inverted}, seen, nil},
		{"the names mapped by the settings", wRun(`<w:color w:val="FFFFFF" w:themeColor="background1"/>`, "seen "),
			map[string]string{"settings": `<w:settings ` + wNS + `><w:clrSchemeMapping w:bg1="dark1" w:t1="light1"/></w:settings>`}, seen, nil},
		{"white on a shading black by the theme", wRun(`<w:color w:val="FFFFFF"/><w:shd w:val="clear" w:fill="FFFFFF" w:themeFill="text1"/>`, "seen "),
			nil, seen, nil},
		{"white on a shading white by the theme", wRun(`<w:color w:val="FFFFFF"/><w:shd w:val="clear" w:fill="000000" w:themeFill="background1"/>`, "junk "),
			nil, nil, inline("junk")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkDOCXHidden(t, wTwo(tt.runs, ""), tt.parts, tt.paras, tt.hidden) })
	}
}

// Hidden words in a footnote are warned of at the place the note is cited; a document of hidden
// text only is refused with that reason.
func TestDOCXHiddenNotesAndAll(t *testing.T) {
	body := `<w:p>` + wRun("", visible1a) + `<w:r><w:footnoteReference w:id="1"/></w:r>` + wRun("", visible1b) + `</w:p>` + wPara("", visible2)
	footnotes := `<w:footnotes ` + wNS + `><w:footnote w:id="1"><w:p>` + wRun("", "A note.") + wRun(`<w:vanish/>`, "junk note") + `</w:p></w:footnote></w:footnotes>`
	doc, err := Bytes(context.Background(), "notes.docx", wordPackage(t, body, map[string]string{"footnotes": footnotes}))
	if err != nil {
		t.Fatal(err)
	}
	checkHidden(t, doc, []string{visible1, visible2},
		[]hiddenWant{{text: "junk note", reasons: []string{HideVanish}, para: 0, offset: len(visible1a), apart: true}}, nil)
	if !slices.Equal(doc.Paragraphs[0].Notes, []string{"A note."}) {
		t.Errorf("notes %q", doc.Paragraphs[0].Notes)
	}

	_, err = Bytes(context.Background(), "all.docx", wordPackage(t, wPara("", "")+`<w:p>`+wRun(`<w:vanish/>`, "all hidden")+`</w:p>`, nil))
	if err == nil || !strings.Contains(err.Error(), "all of its text is hidden: 9 characters (hidden formatting)") {
		t.Errorf("error %v, want all of its text hidden", err)
	}
}

// TestDOCXCondensedSpaces: a space condensed to a gap a reader hardly sees (Word's Condensed
// spacing, directly or through a character style), put inside words, is written as a hair space,
// which the check reads off between letters; a word space condensed a little, or text condensed
// as a whole by a point, keeps its spaces. Before, such a space was a space: "Ti dal fl ats".
func TestDOCXCondensedSpaces(t *testing.T) {
	styles := `<w:styles ` + wNS + `><w:style w:type="character" w:styleId="Tight"><w:name w:val="Tight"/>` +
		`<w:rPr><w:spacing w:val="-40"/></w:rPr></w:style></w:styles>`
	split := func(rpr string) string {
		return `<w:p>` + wRun("", "Ti") + wRun(rpr, " ") + wRun("", "dal flats look") + wRun(rpr, " ") + wRun("", "empty") + `</w:p>`
	}
	for _, tt := range []struct{ name, body, want string }{
		{"condensed by 2 pt at 10", split(`<w:spacing w:val="-40"/>`), "Ti\u200adal flats look\u200aempty"},
		{"by 5 pt at 24", split(`<w:sz w:val="48"/><w:spacing w:val="-100"/>`), "Ti\u200adal flats look\u200aempty"},
		{"through a character style", split(`<w:rStyle w:val="Tight"/>`), "Ti\u200adal flats look\u200aempty"},
		{"by 1 pt at 10", split(`<w:spacing w:val="-20"/>`), "Ti dal flats look empty"},
		{"the style undone", split(`<w:rStyle w:val="Tight"/><w:spacing w:val="0"/>`), "Ti dal flats look empty"},
		{"expanded", split(`<w:spacing w:val="40"/>`), "Ti dal flats look empty"},
		{"a paragraph condensed by 1 pt", `<w:p>` + wRun(`<w:spacing w:val="-20"/>`, "Tidal flats look empty") + `</w:p>`, "Tidal flats look empty"},
	} {
		doc, err := Bytes(context.Background(), "condensed.docx", wordPackage(t, tt.body, map[string]string{"styles": styles}))
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Paragraphs) != 1 || doc.Paragraphs[0].Text != tt.want {
			t.Errorf("%s: paragraphs %+v, want %q", tt.name, doc.Paragraphs, tt.want)
		}
	}
}

// TestPDFSmall: pdfSmall marks letters at a third of their line's size or less, up to maxSmallSize:
// letters of 40 pt on a line (drawn invisible, or in plain sight) make none of its 12-pt letters
// small, which would hide copied text a reader reads.
func TestPDFSmall(t *testing.T) {
	line := func(c *pdf.Content, paint int32, x, y float64, s string) {
		for _, r := range s {
			c.Text = append(c.Text, pdf.Text{S: string(r), X: x, Y: y, W: 6, Paint: paint})
			x += 6
		}
	}
	marked := func(c pdf.Content) (small, fine string) { // the letters pdfSmall marks, in order
		s, f := pdfSmall(c)
		for i := range c.Text {
			if s != nil && s[i] {
				small += c.Text[i].S
			}
			if f != nil && f[i] {
				fine += c.Text[i].S
			}
		}
		return small, fine
	}
	for _, tt := range []struct {
		name  string
		big   float64 // the size of the other letters on the line
		small string  // the letters marked, in order
	}{
		{"3 pt beside 12 pt", 12, "junk"},
		{"12 pt beside 40 pt", 40, "junk"},
	} {
		c := pdf.Content{Paints: []pdf.Paint{{Height: tt.big, Width: tt.big}, {Height: 3, Width: 3}, {Height: 12, Width: 12}}}
		line(&c, 0, 72, 700, "GIANTLETTERSABOVE")
		line(&c, 2, 200, 700, "copied words")
		line(&c, 1, 300, 700, "junk")
		if got, fine := marked(c); got != tt.small || fine != "" {
			t.Errorf("%s: marked %q, fine print %q, want %q and none", tt.name, got, fine, tt.small)
		}
	}
	// Lines of small print of their own: junk between a copy's lines is marked, marks and all; a
	// chart's labels, a table of numbers and small print with nothing close around it are not.
	paints := []pdf.Paint{{Height: 12, Width: 12}, {Height: 3, Width: 3}, {Height: 10, Width: 10}}
	text := func(y float64) func(*pdf.Content) { // a line of a paragraph at 12 pt
		return func(c *pdf.Content) { line(c, 0, 72, y, "copied words of the paragraph") }
	}
	small := func(x, y float64, s string) func(*pdf.Content) {
		return func(c *pdf.Content) { line(c, 1, x, y, s) }
	}
	for _, tt := range []struct {
		name  string
		lines []func(*pdf.Content)
		want  string
	}{
		{"junk between two paragraphs", []func(*pdf.Content){text(700), small(72, 690, "junkwords，morejunk"), text(675)}, "junkwords，morejunk"},
		{"two lines of junk", []func(*pdf.Content){text(700), small(72, 690, "junkwordsone"), small(72, 686, "junkwordstwo"), text(671)}, "junkwordsonejunkwordstwo"},
		{"junk under the page's last line", []func(*pdf.Content){text(100), small(72, 90, "junkwordsmore")}, "junkwordsmore"},
		{"a chart between a paragraph and its caption", []func(*pdf.Content){
			text(700),
			small(200, 640, "baselinemodel"), small(80, 620, "0.9"), small(80, 580, "0.8"),
			small(100, 562, "10"), small(140, 562, "20"), small(180, 562, "30"),
			small(120, 556, "trainingepochs"),
			func(c *pdf.Content) { line(c, 2, 72, 540, "Figure 3: accuracy") },
			text(520),
		}, ""},
		{"lines of numbers between two paragraphs", []func(*pdf.Content){text(700), small(72, 690, "3845 2991 0472 5516"), small(72, 686, "7730 1286 9054 3317"), text(675)},
			"3845 2991 0472 55167730 1286 9054 3317"},
		{"junk spaced out between two paragraphs", []func(*pdf.Content){
			text(700), small(80, 690, "junk"), small(140, 690, "words"), small(200, 690, "spaced"), text(675),
		}, "junkwordsspaced"},
		{"a chart's scale in a column of six", []func(*pdf.Content){
			text(760), small(520, 700, "0.0"), small(520, 696, "0.2"), small(520, 692, "0.4"), small(520, 688, "0.6"),
			small(520, 684, "0.8"), small(520, 680, "1.0"), small(540, 676, "0"), small(600, 676, "10"), small(660, 676, "20"), text(600),
		}, ""},
		{"small print far from any text", []func(*pdf.Content){text(700), small(72, 600, "junkwordsmore"), text(500)}, ""},
		{"a page of small print alone", []func(*pdf.Content){small(72, 700, "junkwordsone"), small(72, 696, "junkwordstwo")}, ""},
		{"a full line of small print far from any text", []func(*pdf.Content){text(700), small(72, 600, strings.Repeat("junkwords", 5)), text(500)},
			strings.Repeat("junkwords", 5)},
		{"a chart's scale of years far from any text", []func(*pdf.Content){
			text(700), small(72, 600, "2010 2011 2012 2013 2014 2015 2016 2017 2018 2019 2020"), text(500),
		}, ""},
		{"a column of small print in the margin", []func(*pdf.Content){
			text(700), small(520, 697, "junkwordsone"), small(520, 693, "junkwordstwo"), small(520, 689, "junkwordsthree"), text(680),
			small(520, 685, "junkwordsfour"), small(520, 681, "junkwordsfive"), small(520, 677, "junkwordssix"), text(660),
		}, "junkwordsonejunkwordstwojunkwordsthreejunkwordsfourjunkwordsfivejunkwordssix"},
		{"small print in the margin, its lines clear of the text's", []func(*pdf.Content){
			text(700), text(680), text(660), text(640),
			small(520, 696, "junkwordsone"), small(520, 692, "junkwordstwo"), small(520, 688, "junkwordsthree"),
			small(520, 676, "junkwordsfour"), small(520, 672, "junkwordsfive"), small(520, 668, "junkwordssix"),
			small(520, 656, "junkwordsseven"), small(520, 652, "junkwordseight"), small(520, 636, "junkwordsnine"),
		}, "junkwordsonejunkwordstwojunkwordsthreejunkwordsfourjunkwordsfivejunkwordssixjunkwordssevenjunkwordseightjunkwordsnine"},
		{"short lines of small print in the margin", []func(*pdf.Content){
			text(700), text(680), text(660), text(640),
			small(20, 702, "101"), small(20, 682, "102"), small(20, 662, "103"), small(20, 642, "104"),
		}, "101102103104"},
		{"a figure's labels beside its caption", []func(*pdf.Content){
			small(60, 700, "accuracy"), small(400, 694, "trainingloss"),
			func(c *pdf.Content) { line(c, 2, 150, 690, "Figure 3: accuracy") },
			small(60, 684, "validation"), small(400, 676, "epochs"),
		}, ""},
		{"a chart's legend of five lines", []func(*pdf.Content){
			text(700), small(300, 600, "baseline"), small(300, 596, "ourmodel"), small(300, 592, "ablation"),
			small(300, 588, "oracle"), small(300, 584, "random"), text(500),
		}, ""},
	} {
		c := pdf.Content{Paints: paints}
		for _, l := range tt.lines {
			l(&c)
		}
		// Every other line of small print is fine print, for the document to judge.
		var wantFine string
		small, _ := pdfSmall(c)
		for i, g := range c.Text {
			if g.Paint == 1 && (small == nil || !small[i]) {
				wantFine += g.S
			}
		}
		if got, fine := marked(c); got != tt.want || fine != wantFine {
			t.Errorf("%s: marked %q, fine print %q, want %q and %q", tt.name, got, fine, tt.want, wantFine)
		}
	}
	// A page of more baselines than pdfSmallLines is not judged glyph by glyph: a hostile page of
	// glyphs each on a line of its own would cost a glyph's look at every line. Its small print is
	// fine print, all of it.
	c := pdf.Content{Paints: []pdf.Paint{{Height: 12, Width: 12}, {Height: 3, Width: 3}}}
	for k := range pdfSmallLines + 1 {
		line(&c, 0, 72, float64(k), "words")
		line(&c, 1, 200, float64(k), "junk")
	}
	if small, fine := marked(c); small != "" || fine != strings.Repeat("junk", pdfSmallLines+1) {
		t.Errorf("a page of %d baselines: marked %q, fine print %d letters; want none marked, the junk fine print", pdfSmallLines+1, small, len(fine))
	}
}
