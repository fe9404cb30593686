package report

// The class comparison as PDF: the flagged pairs ranked, the clusters they form, the students'
// info, then for each flagged pair every fragment both documents share, side by side, the text left
// out as common to the class, and the files that could not be read or were skipped. It is drawn
// with the same writer, fonts and colours as the check report.

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"thesischeck/compare"
	"thesischeck/keys"
)

// WriteComparisonPDF writes a class comparison as a PDF pair list signed whole by s. c must be
// signed by s first (SignComparison): its JSON, without the documents' text (Result.WithoutText)
// and signed so, rides along inside the PDF, as a report's does.
func WriteComparisonPDF(out io.Writer, c *compare.Result, s *keys.Signer) error {
	if err := signedWith(c.Certificate, s); err != nil {
		return err
	}
	return writeComparisonPDF(out, c, s)
}

func writeComparisonPDF(out io.Writer, c *compare.Result, s *keys.Signer) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("report: writing PDF: %v", p)
		}
	}()
	// The comparison rides along signed, without the documents' text (the pages show what is
	// shared; the JSON file has it all): a thousand submissions' text is 70 MB.
	slim := c.WithoutText()
	if err := SignComparison(slim, s); err != nil {
		return err
	}
	var js bytes.Buffer
	if err := slim.WriteJSON(&js); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	frame := comparisonFrame(c)
	w := newPDFWriter(frame, true)
	w.pdf.SetTitle("ThesisCheck 作业比对报告 — Class comparison", true)
	cw := &cmpPDF{pdfWriter: w, c: c}
	cw.cover()
	cw.details()
	w.headersAndFooters()
	w.pdf.SetAttachments([]fpdf.Attachment{{
		Content:     js.Bytes(),
		Filename:    pdfComparisonAttachmentName,
		Description: "ThesisCheck class comparison " + frame.Number + " (signed JSON; verify with: thesischeck verify)",
	}})
	return w.finish(out, s, "ThesisCheck class comparison "+frame.Number)
}

// SaveComparisonPDF writes the PDF pair list signed by s to path.
func SaveComparisonPDF(path string, c *compare.Result, s *keys.Signer) error {
	return saveFile(path, func(w io.Writer) error { return WriteComparisonPDF(w, c, s) })
}

// comparisonFrame is the Report the shared page furniture (running header, dates) reads.
func comparisonFrame(c *compare.Result) *Report {
	return &Report{
		Created:  c.Created,
		Number:   comparisonNumber(c.Created),
		Document: Document{Title: fmt.Sprintf("作业比对 Class comparison · %d documents", len(c.Documents))},
	}
}

type cmpPDF struct {
	*pdfWriter
	c *compare.Result
}

func (w *cmpPDF) cover() {
	c := w.c
	w.newPage()
	w.pdf.Bookmark("概要 Summary", 0, 0)
	w.text(marginL, w.y+7, "ThesisCheck 作业比对报告 / Class Comparison", true, 17, colAccent)
	w.y += 11
	w.rect(marginL, w.y, textW, 0.8, colAccent)
	w.y += 5
	flagged := c.Flagged()
	meta := [][2]string{
		{"比对时间 Date", c.Created.Format("2006-01-02 15:04:05 -07:00")},
		{"文献 Documents", documentsLine(c)},
		{"标记阈值 Threshold", fmt.Sprintf("%s of the smaller document shared", pct(c.Threshold))},
		{"公共文本 Common text", fmt.Sprintf("held by %d or more documents, or by a library template: not counted", c.CommonDocuments)},
		{"签名 Signature", signatureText(c.Certificate, "")},
	}
	for _, m := range meta {
		w.text(marginL, w.y+4, m[0], false, 8.5, colMuted)
		w.text(marginL+36, w.y+4, w.fit(m[1], false, 9, textW-36), false, 9, colInk)
		w.y += 6
	}
	w.y += 3
	figs := []figure{
		{Label: "疑似抄袭对", LabelEN: "Flagged pairs", Value: thousands(len(flagged))},
		{Label: "有共同文字的对", LabelEN: "Pairs sharing text", Value: thousands(len(c.Pairs))},
		{Label: "比对的对", LabelEN: "Pairs compared", Value: thousands(c.PairsCompared())},
	}
	const gap = 4.0
	bw := (textW - 2*gap) / 3
	for i, f := range figs {
		x := marginL + float64(i)*(bw+gap)
		col := colInk
		if i == 0 && len(flagged) > 0 {
			col = levelColor(1)
		}
		w.rect(x, w.y, bw, 18, colPanel)
		w.text(x+4, w.y+8, f.Value, true, 16, col)
		w.text(x+4, w.y+13, f.Label, true, 8, colInk)
		w.text(x+4, w.y+16.5, f.LabelEN, false, 7, colMuted)
	}
	w.y += 23
	w.pairTable("疑似抄袭 Flagged pairs", flagged, true)
	w.clusters()
	w.info()
	if others := c.Unflagged(); len(others) > 0 {
		w.pairTable("其他有共同文字的对 Other pairs sharing text", others, false)
	}
	w.common()
	w.problems()
}

// clusters lists the groups the flagged pairs join.
func (w *cmpPDF) clusters() {
	if len(w.c.Clusters) == 0 {
		return
	}
	w.heading("群组 Clusters (joined by flagged pairs)", 11)
	for k := range w.c.Clusters {
		w.drawBlock(block{text: printable([]rune(clusterLine(w.c, k))), pt: 8.5, fg: colInk, x: marginL, width: textW, leading: 1.5})
		w.y += 1
	}
	w.y += 2
}

// info lists the info file's columns for the documents of flagged pairs.
func (w *cmpPDF) info() {
	docs := infoDocs(w.c)
	if len(docs) == 0 {
		return
	}
	w.heading("学生信息 Students ("+strings.Join(w.c.InfoColumns, ", ")+")", 11)
	for _, i := range docs {
		vals := []string{docName(w.c, i)}
		for _, col := range w.c.InfoColumns {
			vals = append(vals, w.c.Documents[i].Info[col])
		}
		w.drawBlock(block{text: printable([]rune(strings.Join(vals, " · "))), pt: 8.5, fg: colInk, x: marginL, width: textW, leading: 1.5})
	}
	w.y += 2
}

func (w *cmpPDF) pairTable(title string, pairs []compare.Pair, numbered bool) {
	const xA = marginL + 10
	nameW := xShare - xA - 22
	w.rankTable(title, "没有。None.", xA, [4]string{"文献 Documents", "相似度 Similarity", "A / B 占比 Shares", "共同字数 Chars"}, len(pairs), func(i int) {
		p := pairs[i]
		col := levelColor(p.Similarity)
		if !p.Flagged {
			col = colInk
		}
		w.text(marginL, w.y+4.2, fmt.Sprint(i+1), numbered, 8.5, colInk)
		w.text(xA, w.y+4.2, w.fit(docName(w.c, p.A), true, 9, nameW), true, 9, colInk)
		w.text(xA, w.y+8, w.fit("↔ "+docName(w.c, p.B), true, 9, nameW), true, 9, colInk)
		w.textRight(xShare, w.y+4.2, pct(p.Similarity), true, 9.5, col)
		w.textRight(xChars, w.y+4.2, sharesText(p), false, 8.5, colInk)
		w.textRight(xJac, w.y+4.2, thousands(p.SharedChars), false, 9, colInk)
		w.y += 10.5
		w.rect(marginL, w.y-0.8, textW, 0.2, colRule)
	})
}

func (w *cmpPDF) common() {
	if len(w.c.Common) == 0 {
		return
	}
	w.heading("未计入的公共文本 Common text, not counted", 10)
	for _, cm := range w.c.Common {
		who := fmt.Sprintf("%d 篇 documents", cm.Documents)
		if cm.Template != "" {
			who += " · 模板 template: " + cm.Template
		}
		w.drawBlock(block{text: printable([]rune(who)), pt: 7.5, fg: colMuted, x: marginL, width: textW, leading: 1.4})
		w.drawBlock(block{text: printable([]rune(cm.Text)), pt: 8.5, fg: colTemplate, x: marginL + 4, width: textW - 4, leading: 1.5, panel: true})
		w.y += 1.5
	}
}

// problems lists the documents with warnings, those not read and those not compared.
func (w *cmpPDF) problems() {
	for _, part := range []struct {
		title string
		docs  []int
		why   func(d *compare.Document) string
	}{
		{"注意 Warnings", w.c.Warned(), warningsText},
		{"无法读取 Not read", w.c.Failed(), func(d *compare.Document) string { return d.Error }},
		{"跳过 Not compared", w.c.Skipped(), func(d *compare.Document) string { return d.Skipped }},
	} {
		if len(part.docs) == 0 {
			continue
		}
		w.heading(part.title, 10)
		for _, i := range part.docs {
			text := fmt.Sprintf("%s — %s", docName(w.c, i), part.why(&w.c.Documents[i]))
			w.drawBlock(block{text: printable([]rune(text)), pt: 8.5, fg: levelColor(1), x: marginL, width: textW, leading: 1.5})
		}
	}
}

// details prints every fragment of each flagged pair: for each pair of paragraphs the fragments join,
// A's paragraph around its fragments, then B's, fragments marked.
func (w *cmpPDF) details() {
	flagged := w.c.Flagged()
	if len(flagged) == 0 {
		return
	}
	w.newPage()
	w.pdf.Bookmark("共同片段 Shared fragments", 0, w.y)
	w.heading("共同片段 Shared fragments", 13)
	for i, p := range flagged {
		if i == maxPairDetails {
			w.drawBlock(block{text: []rune(fmt.Sprintf("另有 %d 对 and %d more flagged pairs: see the JSON result or the app", len(flagged)-i, len(flagged)-i)),
				pt: 8.5, fg: colMuted, x: marginL, width: textW})
			break
		}
		w.ensure(40)
		title := fmt.Sprintf("%d. %s ↔ %s  %s", i+1, docName(w.c, p.A), docName(w.c, p.B), pct(p.Similarity))
		w.pdf.Bookmark(title, 1, w.y)
		w.drawBlock(block{text: printable([]rune(title)), pt: 10, bold: true, fg: colInk, x: marginL, width: textW})
		sub := fmt.Sprintf("%d 处共同片段 fragments · A 在 B 中 %s of A in B · B 在 A 中 %s of B in A · %s 字 characters",
			len(p.Fragments), pct(p.AShare), pct(p.BShare), thousands(p.SharedChars))
		w.drawBlock(block{text: []rune(sub), pt: 7.5, fg: colMuted, x: marginL, width: textW})
		w.y += 1
		for _, g := range fragmentGroups(p) {
			w.side(p.A, g.APara, g.A, 0)
			w.side(p.B, g.BPara, g.B, 1)
			w.y += 2
		}
		w.y += 3
	}
}

// side prints one document's side of a group of fragments: the paragraph around the spans, spans
// highlighted.
func (w *cmpPDF) side(doc, para int, spans [][2]int, colour int) {
	d := &w.c.Documents[doc]
	if para < 0 || para >= len(d.Paragraphs) {
		return
	}
	c := w.r.sourceColor(colour)
	x, width := marginL+6, textW-8
	head := fmt.Sprintf("%s · 第 %d 段 paragraph %d", docName(w.c, doc), para+1, para+1)
	w.drawBlock(block{text: []rune(w.fit(head, true, 8, width)), pt: 8, bold: true, fg: colMuted, x: x, width: width,
		panel: true, hasBar: true, barX: x - 2, bar: c, leading: 1.5})
	text, mk := excerpt(d.Paragraphs[para].Text, spans, colour)
	w.drawBlock(block{text: text, marks: mk, pt: excerptPt, fg: colInk, x: x, width: width,
		panel: true, hasBar: true, barX: x - 2, bar: c, leading: 1.6})
}

// comparisonNumber names a comparison, made at created, as a report number names a report.
func comparisonNumber(created time.Time) string { return "CMP-" + created.Format("20060102-150405") }
