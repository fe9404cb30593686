package report

// The parts of the PDF report, in the order they are drawn: the first page (cover, warnings,
// legend, the figures per section, the sources, what was left out), then the whole text with each
// flagged paragraph's excerpts, and last the running headers and footers. pdf.go holds the writer
// they draw with.

import (
	"fmt"

	"thesischeck/extract"
)

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
		if notesStart(r.Paragraphs, i) {
			label := sectionLabels[string(extract.Notes)]
			w.y += 3
			w.pdf.Bookmark(label, 1, w.y)
			w.heading(label, 11)
		}
		w.paragraph(&r.Paragraphs[i])
	}
}

// notesStart reports the first of the footnotes and endnotes, which a check reads as paragraphs
// after the last one (prepare.WithNotes): the full text says where the notes begin, as the app's
// rows do.
func notesStart(ps []Paragraph, i int) bool {
	return ps[i].Section == string(extract.Notes) && (i == 0 || ps[i-1].Section != string(extract.Notes))
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
