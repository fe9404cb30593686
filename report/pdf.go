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
