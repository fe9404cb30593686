package synth

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"codeberg.org/go-pdf/fpdf"

	"thesischeck/assets"
)

// Page geometry of WritePDF, in mm and points: A4, a Chinese thesis's 小四 (12 pt) on a fixed 20 pt
// line, paragraphs indented by two characters.
const (
	pdfMargin = 25.0
	pdfPt     = 12.0
	pdfLine   = 20.0 * 25.4 / 72
	pdfIndent = 2 * pdfPt * 25.4 / 72
)

// WritePDF writes paragraphs as a thesis-shaped PDF: a running header with the title, page numbers
// in the footer, wrapped lines with first-line indents, paragraphs broken across pages. It returns
// the number of pages.
func WritePDF(path, title string, paras []string) (int, error) {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.AddUTF8FontFromBytes("noto", "", assets.FontRegular)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetFont("noto", "", pdfPt)
	pageW, pageH := pdf.GetPageSize()
	width := pageW - 2*pdfMargin
	y := pageH // a page is started before the first line
	newPage := func() {
		pdf.AddPage()
		pdf.SetFont("noto", "", 9)
		pdf.Text(pdfMargin, pdfMargin-8, title)
		pdf.Line(pdfMargin, pdfMargin-6, pageW-pdfMargin, pdfMargin-6)
		n := fmt.Sprint(pdf.PageNo())
		pdf.Text((pageW-pdf.GetStringWidth(n))/2, pageH-pdfMargin+10, n)
		pdf.SetFont("noto", "", pdfPt)
		y = pdfMargin
	}
	for _, p := range paras {
		for i, line := range wrapLines(pdf, p, width, pdfIndent) {
			if y+pdfLine > pageH-pdfMargin {
				newPage()
			}
			x := pdfMargin
			if i == 0 {
				x += pdfIndent
			}
			pdf.Text(x, y+pdfLine*0.75, line)
			y += pdfLine
		}
	}
	if err := pdf.OutputFileAndClose(path); err != nil {
		return 0, fmt.Errorf("write %s: %w", path, err)
	}
	return pdf.PageCount(), nil
}

// wrapLines breaks text into lines no wider than width (the first one indent narrower): between any
// two CJK characters, at spaces between words. fpdf's SplitText drops the character it breaks
// before when that is a CJK character, so it is not used.
func wrapLines(pdf *fpdf.Fpdf, text string, width, indent float64) []string {
	var lines []string
	var cur strings.Builder
	w, avail := 0.0, width-indent
	for text != "" {
		n := nextUnit(text)
		unit := text[:n]
		text = text[n:]
		if w+pdf.GetStringWidth(strings.TrimRightFunc(unit, unicode.IsSpace)) > avail && cur.Len() > 0 {
			lines = append(lines, strings.TrimRightFunc(cur.String(), unicode.IsSpace))
			cur.Reset()
			w, avail = 0, width
		}
		cur.WriteString(unit)
		w += pdf.GetStringWidth(unit)
	}
	if cur.Len() > 0 {
		lines = append(lines, strings.TrimRightFunc(cur.String(), unicode.IsSpace))
	}
	return lines
}

// nextUnit is the length in bytes of the first unit a line may break after: a CJK character or
// full-width mark, or a word with the spaces that follow it.
func nextUnit(text string) int {
	wide := func(r rune) bool { return r >= 0x2E80 }
	r, n := utf8.DecodeRuneInString(text)
	if wide(r) {
		return n
	}
	space := false
	for n < len(text) {
		r, k := utf8.DecodeRuneInString(text[n:])
		if wide(r) || space && !unicode.IsSpace(r) {
			break
		}
		space = space || unicode.IsSpace(r)
		n += k
	}
	return n
}
