package report

// The PDF report: a first page with the figures, sections and sources, then the whole text with the
// copied passages highlighted in their source's colour, each flagged paragraph followed by what it
// matched. Text is laid out here run by run (fpdf's own cells cannot mix colours within a line nor
// break Chinese), drawn as real text in the bundled Noto Sans SC, which fpdf subsets: a 100-page
// report comes out at about 1–2 MB. The signed JSON report rides along as an embedded file, from
// which Verify reads what the report is about, and the file is signed whole (pdfsign.go).

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"thesischeck/assets"
	"thesischeck/internal/written"
	"thesischeck/keys"
)

const (
	pdfFamily = "NotoSansSC"
	// pdfAttachmentName is the name of the embedded JSON report, pdfComparisonAttachmentName of a
	// class comparison's.
	pdfAttachmentName           = written.ReportAttachment
	pdfComparisonAttachmentName = written.ComparisonAttachment

	pageW, pageH = 210.0, 297.0 // A4, mm
	marginL      = 24.0         // room on the left for paragraph numbers
	marginR      = 16.0
	marginT      = 20.0
	marginB      = 16.0
	textW        = pageW - marginL - marginR
	mmPerPt      = 25.4 / 72

	bodyPt    = 10.5
	excerptPt = 9.0
	// maxExcerpts bounds the source excerpts printed under one paragraph; the rest are counted.
	maxExcerpts = 3
	// excerptContext is how many characters around the copied spans of a source paragraph are shown.
	excerptContext = 60
)

var (
	colInk       = rgb{0x21, 0x21, 0x21}
	colMuted     = rgb{0x6b, 0x72, 0x80}
	colFaint     = rgb{0xa0, 0xa6, 0xb0}
	colQuote, _  = parseHex(QuoteColor)
	colRule      = rgb{0xd5, 0xda, 0xe1}
	colAccent    = rgb{0x17, 0x45, 0x9c}
	colPanel     = rgb{0xf4, 0xf6, 0xf9}
	colBarTrack  = rgb{0xe8, 0xeb, 0xef}
	colTemplate  = rgb{0x80, 0x80, 0x80}
	colExcluded  = rgb{0xa8, 0xa8, 0xa8}
	colHighlight = 0.38 // tint of a source colour behind copied text
	colQuoteTint = 0.16 // tint behind copied text inside a quotation
)

// WritePDF writes r as a PDF report signed whole by s. r must be signed by s first (Sign): its JSON
// rides along inside the PDF, where Verify reads what the report is about.
func (r *Report) WritePDF(w io.Writer, s *keys.Signer) error {
	if err := signedWith(r.Certificate, s); err != nil {
		return err
	}
	return r.writePDF(w, true, s)
}

// SavePDF writes the PDF report signed by s to path.
func (r *Report) SavePDF(path string, s *keys.Signer) error {
	return saveFile(path, func(w io.Writer) error { return r.WritePDF(w, s) })
}

// writePDF writes the PDF report, signed by s; a nil s leaves it unsigned (the tests make unsigned
// files, and files as ThesisCheck made them before it signed PDFs).
func (r *Report) writePDF(out io.Writer, compress bool, s *keys.Signer) (err error) {
	// fpdf is large and third-party; whatever it panics on must reach the caller as an error.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("report: writing PDF: %v", p)
		}
	}()
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	w := newPDFWriter(r, compress)
	w.cover()
	w.fullText()
	w.headersAndFooters()
	w.pdf.SetAttachments([]fpdf.Attachment{{
		Content:     js.Bytes(),
		Filename:    pdfAttachmentName,
		Description: "ThesisCheck report " + r.Number + " (signed JSON; verify with: thesischeck verify)",
	}})
	return w.finish(out, s, "ThesisCheck similarity report "+r.Number)
}

// finish writes the PDF to out, signed by s unless s is nil; reason is what readers show beside
// the signature.
func (w *pdfWriter) finish(out io.Writer, s *keys.Signer, reason string) error {
	var buf bytes.Buffer
	if err := w.pdf.Output(&buf); err != nil {
		return fmt.Errorf("report: writing PDF: %w", err)
	}
	data := buf.Bytes()
	if s != nil {
		var err error
		if data, err = signPDF(data, s, reason, time.Now()); err != nil {
			return err
		}
	}
	if _, err := out.Write(data); err != nil {
		return fmt.Errorf("report: writing PDF: %w", err)
	}
	return nil
}

// signedWith checks that a report's JSON was signed (its certificate field) by s, the signer about
// to sign its PDF: the two signatures must name the same signer.
func signedWith(certificate string, s *keys.Signer) error {
	if s == nil || certificate != base64.StdEncoding.EncodeToString(s.Cert.Raw) {
		return errors.New("report: a PDF report must be signed, and by the key that signs the PDF: sign it first")
	}
	return nil
}

type pdfWriter struct {
	r     *Report
	pdf   *fpdf.Fpdf
	y     float64         // top of the next line on the current page
	units [2]map[rune]int // glyph advances (1/1000 em) for regular and bold
	bold  bool
	pt    float64
}

func newPDFWriter(r *Report, compress bool) *pdfWriter {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCompression(compress)
	pdf.AddUTF8FontFromBytes(pdfFamily, "", assets.FontRegular)
	pdf.AddUTF8FontFromBytes(pdfFamily, "B", assets.FontBold)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetMargins(marginL, marginT, marginR)
	pdf.SetCatalogSort(true)
	if !r.Created.IsZero() {
		pdf.SetCreationDate(r.Created)
		pdf.SetModificationDate(r.Created)
	}
	pdf.SetTitle("ThesisCheck 论文查重报告 — "+r.documentName(), true)
	pdf.SetSubject("Similarity report "+r.Number, true)
	pdf.SetCreator("ThesisCheck", true)
	pdf.SetAuthor("ThesisCheck", true)
	w := &pdfWriter{r: r, pdf: pdf, units: [2]map[rune]int{{}, {}}}
	w.pt = -1
	w.setFont(false, bodyPt)
	return w
}

// ---- primitives ----

func (w *pdfWriter) setFont(bold bool, pt float64) {
	if w.bold == bold && w.pt == pt {
		return
	}
	style := ""
	if bold {
		style = "B"
	}
	w.pdf.SetFont(pdfFamily, style, pt)
	w.bold, w.pt = bold, pt
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// runeWidth is the advance of c in mm.
func (w *pdfWriter) runeWidth(c rune, bold bool, pt float64) float64 {
	m := w.units[b2i(bold)]
	u, ok := m[c]
	if !ok {
		ob, opt := w.bold, w.pt
		w.setFont(bold, opt)
		u = w.pdf.GetStringSymbolWidth(string(c))
		w.setFont(ob, opt)
		m[c] = u
	}
	return float64(u) * pt * mmPerPt / 1000
}

func (w *pdfWriter) width(s string, bold bool, pt float64) float64 {
	x := 0.0
	for _, c := range s {
		x += w.runeWidth(c, bold, pt)
	}
	return x
}

// fit shortens s with an ellipsis so that it is no wider than maxW.
func (w *pdfWriter) fit(s string, bold bool, pt, maxW float64) string {
	rs := printable([]rune(s))
	x := 0.0
	ell := w.runeWidth('…', bold, pt)
	for i, c := range rs {
		x += w.runeWidth(c, bold, pt)
		if x > maxW {
			for i > 0 && x-w.runeWidth(rs[i], bold, pt)+ell > maxW {
				x -= w.runeWidth(rs[i], bold, pt)
				i--
			}
			return string(rs[:i]) + "…"
		}
	}
	return string(rs)
}

func (w *pdfWriter) text(x, baseline float64, s string, bold bool, pt float64, c rgb) {
	if s == "" {
		return
	}
	w.setFont(bold, pt)
	w.pdf.SetTextColor(int(c.R), int(c.G), int(c.B))
	w.pdf.Text(x, baseline, s)
}

func (w *pdfWriter) textRight(xRight, baseline float64, s string, bold bool, pt float64, c rgb) {
	w.text(xRight-w.width(s, bold, pt), baseline, s, bold, pt, c)
}

func (w *pdfWriter) rect(x, y, wd, h float64, c rgb) {
	if wd <= 0 || h <= 0 {
		return
	}
	w.pdf.SetFillColor(int(c.R), int(c.G), int(c.B))
	w.pdf.Rect(x, y, wd, h, "F")
}

func (w *pdfWriter) line(x1, y1, x2, y2, width float64, c rgb) {
	w.pdf.SetDrawColor(int(c.R), int(c.G), int(c.B))
	w.pdf.SetLineWidth(width)
	w.pdf.Line(x1, y1, x2, y2)
}

func (w *pdfWriter) newPage() {
	w.pdf.AddPage()
	w.y = marginT
	if w.pdf.PageNo() == 1 {
		w.y = 14
	}
}

// ensure starts a new page unless h mm still fit on this one.
func (w *pdfWriter) ensure(h float64) {
	if w.y+h > pageH-marginB {
		w.newPage()
	}
}

func ptMM(pt float64) float64 { return pt * mmPerPt }

// ---- rich text ----

// block is a run of text laid out over as many lines and pages as it needs.
type block struct {
	text     []rune // printable
	marks    []mark // per rune; nil for plain text
	pt       float64
	bold     bool
	fg       rgb
	x, width float64
	leading  float64 // line height as a multiple of the font size

	panel    bool // panel behind the lines (source excerpts, warnings)
	panelCol rgb  // the panel's colour; zero for the usual grey
	bar      rgb  // left bar colour
	hasBar   bool
	barX     float64
	first    func(baseline float64) // draws beside the first line (paragraph numbers)
	lineHook func(top, h float64)   // draws beside every line
}

func (w *pdfWriter) drawBlock(b block) {
	if b.leading == 0 {
		b.leading = 1.62
	}
	size := ptMM(b.pt)
	lineH := size * b.leading
	lines := wrap(b.text, b.width, func(i int) float64 { return w.advance(b.text, i, b.bold, b.pt) })
	for li, ln := range lines {
		w.ensure(lineH)
		top := w.y
		baseline := top + (lineH-size)/2 + size*0.86
		if b.panel {
			c := b.panelCol
			if c == (rgb{}) {
				c = colPanel
			}
			w.rect(b.x-2, top, b.width+4, lineH, c)
		}
		if b.hasBar {
			w.rect(b.barX, top, 0.9, lineH, b.bar)
		}
		if b.lineHook != nil {
			b.lineHook(top, lineH)
		}
		if li == 0 && b.first != nil {
			b.first(baseline)
		}
		w.drawLine(b, ln[0], ln[1], baseline, size)
		w.y += lineH
	}
}

// advance is the width of rune i of text as drawn: white space, of any kind and length, is drawn as
// one space, as a browser shows it. Wide gaps (a title page's "作者：某某\u3000\u3000导师：某某")
// would otherwise make text extractors read the line as two columns and tear the paragraph apart.
func (w *pdfWriter) advance(text []rune, i int, bold bool, pt float64) float64 {
	if isBlank(text[i]) {
		if i > 0 && isBlank(text[i-1]) {
			return 0
		}
		return w.runeWidth(' ', bold, pt)
	}
	return w.runeWidth(text[i], bold, pt)
}

// drawn is runes [a, e) of text as advance measures them.
func drawn(text []rune, a, e int) string {
	var b strings.Builder
	for i := a; i < e; i++ {
		switch {
		case !isBlank(text[i]):
			b.WriteRune(text[i])
		case i == 0 || !isBlank(text[i-1]):
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// drawLine draws runes [a, b) of a block: highlight rectangles first, then the text over them.
func (w *pdfWriter) drawLine(b block, a, e int, baseline, size float64) {
	type piece struct {
		a, e int
		x, w float64
		m    mark
	}
	var pieces []piece
	x := b.x
	for i := a; i < e; {
		m := mark{src: -1}
		if b.marks != nil {
			m = b.marks[i]
		}
		j := i
		pw := 0.0
		for j < e && (b.marks == nil || b.marks[j] == m) {
			pw += w.advance(b.text, j, b.bold, b.pt)
			j++
		}
		pieces = append(pieces, piece{i, j, x, pw, m})
		x += pw
		i = j
	}
	for _, p := range pieces {
		if p.m.src >= 0 && !p.m.template {
			tint := colHighlight
			if p.m.quoted {
				tint = colQuoteTint
			}
			w.rect(p.x, baseline-size*0.93, p.w, size*1.2, w.r.sourceColor(int(p.m.src)).tint(tint))
		}
	}
	for _, p := range pieces {
		fg := b.fg
		switch {
		case p.m.quoted:
			fg = colQuote
		case p.m.template:
			fg = colTemplate
		}
		w.text(p.x, baseline, drawn(b.text, p.a, p.e), b.bold, b.pt, fg)
		if p.m.quoted {
			w.line(p.x, baseline+size*0.18, p.x+p.w, baseline+size*0.18, 0.2, colQuote)
		}
	}
}

// ---- first page ----

func (w *pdfWriter) cover() {
	r := w.r
	w.newPage()
	w.pdf.Bookmark("概要 Summary", 0, 0)
	w.text(marginL, w.y+7, "ThesisCheck 论文查重报告 / Similarity Report", true, 17, colAccent)
	w.y += 11
	w.rect(marginL, w.y, textW, 0.8, colAccent)
	w.y += 5

	for _, m := range r.identity() {
		pt := 9.5
		switch m[0] {
		case "SHA-256", "检测设置 Settings", "签名 Signature":
			pt = 8.5
		}
		w.text(marginL, w.y+4, m[0], false, 8.5, colMuted)
		w.text(marginL+36, w.y+4, w.fit(m[1], false, pt, textW-36), false, pt, colInk)
		w.y += 5.2
	}
	w.y += 2.5

	// The three headline figures, then the counts.
	figs := r.figures()
	const gap = 4.0
	bw := (textW - 2*gap) / 3
	for i, f := range figs[:3] {
		x := marginL + float64(i)*(bw+gap)
		c := levelColor(f.Level)
		w.rect(x, w.y, bw, 23, c.tint(0.08))
		w.rect(x, w.y, bw, 1, c)
		w.text(x+4, w.y+11, f.Value, true, 22, c)
		w.text(x+4, w.y+16.5, f.Label, true, 8.5, colInk)
		w.text(x+4, w.y+20.3, f.LabelEN, false, 7.5, colMuted)
	}
	w.y += 26
	if text, c := r.verdictText(); text != "" {
		w.drawBlock(block{text: printable([]rune(text)), pt: 9.5, bold: true, fg: c, x: marginL, width: textW, leading: 1.45})
		w.y += 2
	}
	small := figs[3:]
	sw := (textW - float64(len(small)-1)*gap) / float64(len(small))
	for i, f := range small {
		x := marginL + float64(i)*(sw+gap)
		w.rect(x, w.y, sw, 15, colPanel)
		w.text(x+3, w.y+6, f.Value, true, 11, colInk)
		w.text(x+3, w.y+10.2, f.Label, false, 7.5, colInk)
		w.text(x+3, w.y+13.2, f.LabelEN, false, 6.5, colMuted)
	}
	w.y += 18
	w.warnings()
	w.sectionChart()
	w.sourceTable()
	if text := r.excludedSourcesText(); text != "" {
		w.ensure(9)
		w.drawBlock(block{text: printable([]rune(text)), pt: 8.5, fg: colInk, x: marginL, width: textW, leading: 1.5})
		w.y += 2
	}
	w.exclusions()
}

// warnings come right under the figures: a teacher must see attempts to dodge the check before
// reading any percentage as final.
func (w *pdfWriter) warnings() {
	if len(w.r.Warnings) == 0 {
		return
	}
	red := levelColor(1)
	x := marginL + 3
	w.drawBlock(block{text: []rune("注意 Warnings"), pt: 10, bold: true, fg: red, x: x, width: textW - 4,
		panel: true, panelCol: red.tint(0.07), hasBar: true, barX: marginL, bar: red, leading: 1.7})
	for _, wn := range w.r.Warnings {
		label, why := warningText(wn)
		w.drawBlock(block{text: printable([]rune(label)), pt: 8.5, bold: true, fg: colInk, x: x, width: textW - 4,
			panel: true, panelCol: red.tint(0.07), hasBar: true, barX: marginL, bar: red, leading: 1.5})
		w.drawBlock(block{text: printable([]rune(why)), pt: 8, fg: colInk, x: x, width: textW - 4,
			panel: true, panelCol: red.tint(0.07), hasBar: true, barX: marginL, bar: red, leading: 1.5})
	}
	w.y += 4
}

// legend explains the colours of the full text.
func (w *pdfWriter) legend() {
	w.ensure(8)
	y := w.y + 4
	x := marginL
	item := func(draw func(x float64) float64) { x = draw(x) + 7 }
	item(func(x float64) float64 {
		for i := 0; i < min(3, max(1, len(w.r.Sources))); i++ {
			w.rect(x, y-3.2, 4, 4.2, w.r.sourceColor(i).tint(colHighlight))
			x += 4
		}
		s := "复制（来源颜色）copied, in the source's colour"
		w.text(x+1.5, y, s, false, 8, colInk)
		return x + 1.5 + w.width(s, false, 8)
	})
	item(func(x float64) float64 {
		s := "引用 quoted"
		w.text(x, y, s, false, 8, colQuote)
		wd := w.width(s, false, 8)
		w.line(x, y+0.5, x+wd, y+0.5, 0.2, colQuote)
		return x + wd
	})
	item(func(x float64) float64 {
		s := "模板 boilerplate"
		w.text(x, y, s, false, 8, colTemplate)
		return x + w.width(s, false, 8)
	})
	item(func(x float64) float64 {
		s := "未检测 not checked"
		w.text(x, y, s, false, 8, colExcluded)
		return x + w.width(s, false, 8)
	})
	w.y += 9
}

func (w *pdfWriter) heading(s string, pt float64) {
	w.ensure(ptMM(pt)*2 + 12)
	w.y += 2
	w.text(marginL, w.y+ptMM(pt), s, true, pt, colAccent)
	w.y += ptMM(pt) + 2
	w.rect(marginL, w.y, textW, 0.3, colRule)
	w.y += 2.5
}

func (w *pdfWriter) sectionChart() {
	secs := w.r.Sections
	if len(secs) == 0 {
		return
	}
	w.heading("分段检测结果 Similarity by section", 11)
	const nameW, barW = 62.0, 62.0
	for _, s := range secs {
		w.ensure(5.6)
		base := w.y + 3.9
		w.text(marginL, base, w.fit(sectionLabel(s), false, 9, nameW-2), false, 9, colInk)
		bx := marginL + nameW
		if s.Checked {
			c := levelColor(s.Similarity)
			w.rect(bx, w.y+1.0, barW, 3.4, colBarTrack)
			if s.Similarity > 0 {
				w.rect(bx, w.y+1.0, max(0.4, min(1, s.Similarity)*barW), 3.4, c)
			}
			w.text(bx+barW+2.5, base, pct(s.Similarity), true, 9, c)
			w.textRight(pageW-marginR, base, thousands(s.CopiedChars)+" / "+thousands(s.Chars)+" 字", false, 8, colMuted)
		} else {
			w.text(bx, base, "未检测 not checked", false, 8.5, colExcluded)
			w.textRight(pageW-marginR, base, thousands(s.Chars)+" 字", false, 8, colFaint)
		}
		w.y += 5.6
	}
	w.y += 2
}

// The figure columns of the ranked tables (sources, pairs of submissions), right edges.
const xShare, xChars, xJac = pageW - marginR - 46, pageW - marginR - 18, pageW - marginR

// rankTable draws a ranked list under a heading: a header of labels (# at the margin, a name at
// xName, three figures right-aligned at xShare, xChars and xJac), then row(i) for each of n items,
// which draws item i at w.y and moves w.y below it; the header stands again atop each new page.
// With no items, none is said instead.
func (w *pdfWriter) rankTable(title, none string, xName float64, labels [4]string, n int, row func(i int)) {
	w.heading(title, 11)
	if n == 0 {
		w.text(marginL, w.y+4, none, false, 9.5, colInk)
		w.y += 8
		return
	}
	header := func() {
		b := w.y + 3.5
		w.text(marginL, b, "#", false, 7.5, colMuted)
		w.text(xName, b, labels[0], false, 7.5, colMuted)
		w.textRight(xShare, b, labels[1], false, 7.5, colMuted)
		w.textRight(xChars, b, labels[2], false, 7.5, colMuted)
		w.textRight(xJac, b, labels[3], false, 7.5, colMuted)
		w.y += 5
	}
	header()
	for i := 0; i < n; i++ {
		if w.y+10 > pageH-marginB {
			w.newPage()
			header()
		}
		row(i)
	}
	w.y += 3
}

func (w *pdfWriter) sourceTable() {
	r := w.r
	const xTitle = marginL + 12
	w.rankTable("相似文献 Sources", "未发现相似文献。No similar sources were found in the library.", xTitle,
		[4]string{"来源 Source", "占比 Share", "复制字数 Chars", "Jaccard"}, len(r.Sources), func(i int) {
			s := r.Sources[i]
			c := r.sourceColor(i)
			w.rect(marginL, w.y+1, 3.6, 3.6, c)
			w.text(marginL+5, w.y+4.2, fmt.Sprint(i+1), true, 8.5, colInk)
			w.text(xTitle, w.y+4.2, w.fit(r.sourceName(i), true, 9, xShare-xTitle-20), true, 9, colInk)
			if s.Path != "" {
				w.text(xTitle, w.y+8, w.fit(fileName(s.Path), false, 7, xShare-xTitle-20), false, 7, colMuted)
			}
			w.textRight(xShare, w.y+4.2, pct(s.Similarity), true, 9.5, c)
			w.textRight(xChars, w.y+4.2, thousands(s.CopiedChars), false, 9, colInk)
			w.textRight(xJac, w.y+4.2, fmt.Sprintf("%.2f", s.Jaccard), false, 9, colInk)
			w.y += 9.2
			w.rect(marginL, w.y-0.6, textW, 0.2, colRule)
		})
}

// exclusions lists what was left out of the figures and why, in a table of part, characters and
// reason.
func (w *pdfWriter) exclusions() {
	r := w.r
	if len(r.Excluded) == 0 {
		return
	}
	w.heading("未计入检测 Not counted", 11)
	const xChars, xWhy = marginL + 56, marginL + 62
	for _, e := range r.Excluded {
		label, why := exclusionText(e)
		w.ensure(9)
		w.drawBlock(block{
			text: printable([]rune(why)), pt: 8, fg: colMuted, x: xWhy, width: pageW - marginR - xWhy, leading: 1.5,
			first: func(baseline float64) {
				w.text(marginL, baseline, w.fit(label, false, 8.5, xChars-marginL-14), false, 8.5, colInk)
				w.textRight(xChars, baseline, thousands(e.Chars)+" 字", false, 8.5, colInk)
			},
		})
		w.y += 1.2
	}
}

// ---- full text ----

func (w *pdfWriter) fullText() {
	r := w.r
	// The full text starts on a page of its own, unless the summary already ran over onto one.
	if w.pdf.PageNo() == 1 {
		w.newPage()
	} else {
		w.y += 6
	}
	w.pdf.Bookmark("全文对照 Full text", 0, w.y)
	w.heading("全文对照 Full text", 13)
	w.legend()
	for i := range r.Paragraphs {
		w.paragraph(&r.Paragraphs[i])
	}
}

func (w *pdfWriter) paragraph(p *Paragraph) {
	r := w.r
	kind := paragraphKind(p)
	text := printable([]rune(p.Text))
	b := block{text: text, pt: bodyPt, fg: colInk, x: marginL, width: textW}
	switch {
	case p.Heading:
		b.pt, b.bold, b.fg = 12, true, colInk
		w.ensure(ptMM(12)*3 + 8) // keep a heading with the first lines after it
		w.y += 2.5
		w.pdf.Bookmark(string(text), 1, w.y)
	case kind == kindTemplate:
		b.fg = colTemplate
	case kind == kindExcluded:
		b.fg, b.pt = colExcluded, 9.5
	}
	if kind != kindExcluded && !p.Heading {
		b.marks = marks(len(text), p.Matches, p.Quotes)
	}
	cm := copyMatches(p)
	flagged := kind == kindFlagged || (kind == kindQuoted && len(cm) > 0)
	// Number and tag share the first line's baseline, so that text extraction keeps them apart from
	// the paragraph ("53.1% 4 本文…") instead of splitting the paragraph after its first line.
	b.first = func(baseline float64) {
		num := fmt.Sprint(p.Index + 1)
		w.textRight(marginL-3, baseline, num, false, 7, colFaint)
		tagX := marginL - 4.5 - w.width(num, false, 7)
		switch {
		case flagged && kind == kindQuoted:
			w.textRight(tagX, baseline, pct(p.Similarity), true, 6.5, colQuote)
		case flagged:
			w.textRight(tagX, baseline, pct(p.Similarity), true, 6.5, levelColor(max(p.Similarity, 0.3)))
		case kind == kindTemplate:
			w.textRight(tagX, baseline, "模板", false, 6.5, colTemplate)
		case kind == kindExcluded && !p.Heading:
			w.textRight(tagX, baseline, "未检", false, 6.5, colExcluded)
		}
	}
	if flagged {
		b.hasBar, b.barX, b.bar = true, marginL-2, r.sourceColor(p.Matches[cm[0]].Source)
	}
	w.drawBlock(b)
	for _, note := range p.Notes {
		w.drawBlock(block{text: printable([]rune("注 " + note)), pt: 8, fg: colMuted, x: marginL + 4, width: textW - 4, leading: 1.5})
	}
	if flagged {
		w.y += 1
		for k, mi := range cm {
			if k == maxExcerpts {
				w.drawBlock(block{text: []rune(fmt.Sprintf("另有 %d 个来源段落 and %d more source paragraphs (see the JSON or HTML report)", len(cm)-k, len(cm)-k)),
					pt: 7.5, fg: colMuted, x: marginL + 6, width: textW - 6, panel: true})
				break
			}
			w.excerpt(&p.Matches[mi])
		}
	}
	w.y += 2.2
}

// excerpt prints the source paragraph a paragraph copied from, with the copied runs highlighted.
func (w *pdfWriter) excerpt(m *Match) {
	r := w.r
	c := r.sourceColor(m.Source)
	x := marginL + 6
	width := textW - 8
	w.ensure(18) // header and at least one line of text together
	head := fmt.Sprintf("来源 [%d] %s", m.Source+1, r.sourceName(m.Source))
	w.drawBlock(block{text: []rune(w.fit(head, true, 8.5, width)), pt: 8.5, bold: true, fg: colInk, x: x, width: width,
		panel: true, hasBar: true, barX: x - 2, bar: c, leading: 1.55})
	w.drawBlock(block{text: []rune(excerptInfo(m)), pt: 7.5, fg: colMuted, x: x, width: width,
		panel: true, hasBar: true, barX: x - 2, bar: c, leading: 1.5})
	text, mk := excerptText(m)
	w.drawBlock(block{text: text, marks: mk, pt: excerptPt, fg: colInk, x: x, width: width,
		panel: true, hasBar: true, barX: x - 2, bar: c, leading: 1.6})
	w.y += 1.5
}

// excerptInfo is the line of figures above a source excerpt.
func excerptInfo(m *Match) string {
	return fmt.Sprintf("第 %d 段 paragraph %d · 段落指纹相差 %d/64 位 fingerprints differ in %[3]d of 64 bits (汉明距离 Hamming) · 用词重合 shared wording %.2f (Jaccard) · 复制 %s 字 copied chars",
		m.SourceParagraph+1, m.SourceParagraph+1, m.Hamming, m.Jaccard, thousands(m.CopiedChars))
}

// excerptText is the part of a source paragraph printed under a flagged paragraph, with its marks.
func excerptText(m *Match) ([]rune, []mark) { return excerpt(m.SourceText, m.SourceSpans, m.Source) }

// excerpt is text around spans (excerptContext characters each side, "…" where it is cut), the
// spans marked as source src's.
func excerpt(full string, spans [][2]int, src int) ([]rune, []mark) {
	rs := printable([]rune(full))
	a, e := excerptWindow(len(rs), spans, excerptContext)
	text := rs[a:e]
	mk := spanMarks(len(rs), spans, src)[a:e]
	if a > 0 {
		text = append([]rune{'…'}, text...)
		mk = append([]mark{{src: -1}}, mk...)
	}
	if e < len(rs) {
		text = append(text, '…')
		mk = append(mk, mark{src: -1})
	}
	return text, mk
}

// ---- running header and footer ----

// headersAndFooters goes back over every page once the page count is known, so that pages say
// "n / N" without fpdf's alias replacement (which rewrites every page stream per alias).
func (w *pdfWriter) headersAndFooters() {
	n := w.pdf.PageCount()
	name := w.r.documentName()
	for p := 1; p <= n; p++ {
		w.pdf.SetPage(p)
		// The page's last font may differ from ours: force a font change into its stream.
		w.pt = -1
		w.setFont(false, 8)
		if p > 1 {
			right := "报告编号 " + w.r.Number
			rw := w.width(right, false, 8)
			w.text(marginL, 12, w.fit(name, false, 8, textW-rw-8), false, 8, colMuted)
			w.textRight(pageW-marginR, 12, right, false, 8, colMuted)
			w.line(marginL, 14.2, pageW-marginR, 14.2, 0.2, colRule)
		}
		w.line(marginL, pageH-11.5, pageW-marginR, pageH-11.5, 0.2, colRule)
		w.text(marginL, pageH-7.5, "ThesisCheck 论文查重报告", false, 7, colFaint)
		w.textRight(pageW-marginR, pageH-7.5, fmt.Sprintf("%d / %d", p, n), false, 8, colMuted)
	}
}
