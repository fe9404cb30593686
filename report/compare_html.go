package report

// The class comparison as one self-contained HTML page in the check report's style: figures, the
// flagged pairs ranked, the clusters, a similarity matrix of the documents that share text (ordered
// so that groups stand together), the students' info, the other pairs, the common text left out, and
// every fragment of each flagged pair side by side. All document text is escaped.

import (
	"fmt"
	"io"

	"thesischeck/compare"
	"thesischeck/keys"
)

// maxMatrixDocs bounds the documents drawn in the HTML matrix (those in the most similar pairs).
const maxMatrixDocs = 80

// WriteComparisonHTML writes a class comparison as a self-contained HTML page signed by s
// (htmlsign.go); unsigned when s is nil.
func WriteComparisonHTML(out io.Writer, c *compare.Result, s *keys.Signer) error {
	return writeHTML(out, s, func(h *htmlWriter) {
		h.r = comparisonFrame(c)
		(&cmpHTML{htmlWriter: h, c: c}).page()
	})
}

// SaveComparisonHTML writes the HTML pair list signed by s to path.
func SaveComparisonHTML(path string, c *compare.Result, s *keys.Signer) error {
	return saveFile(path, func(w io.Writer) error { return WriteComparisonHTML(w, c, s) })
}

type cmpHTML struct {
	*htmlWriter
	c *compare.Result
}

const cmpCSS = `.matrix{border-collapse:collapse;font-size:.7rem;width:auto}
.matrix td,.matrix th{padding:0;width:1.3rem;height:1.3rem;text-align:center;border:1px solid #fff}
.matrix th{color:var(--muted);font-weight:normal}.matrix th.name{text-align:right;padding-right:.4rem;width:auto;white-space:nowrap}
.pairs .sim{font-weight:bold}.pairs a{color:inherit}
.common p{margin:.2rem 0 .8rem;padding:.4rem .6rem;background:var(--panel);color:var(--tpl)}
.pair .side p+p{margin-top:.4rem}
`

func (h *cmpHTML) page() {
	c := h.c
	h.raw("<!DOCTYPE html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n")
	h.writeHead(comparisonHead(c))
	h.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	h.raw("<meta name=\"generator\" content=\"ThesisCheck\">\n")
	h.rawf("<title>ThesisCheck 作业比对报告 — %d documents</title>\n", len(c.Documents))
	h.raw("<style>\n" + htmlCSS + cmpCSS)
	for i := 0; i < 2; i++ {
		col := h.r.sourceColor(i)
		h.rawf(".s%d{--c:%s;--t:%s;--q:%s}\n", i, col.hex(), col.tint(colHighlight).hex(), col.tint(colQuoteTint).hex())
	}
	h.raw("</style>\n</head>\n<body>\n")
	h.cover()
	h.details()
	h.raw("</body>\n</html>\n")
}

func (h *cmpHTML) cover() {
	c := h.c
	flagged := c.Flagged()
	h.raw("<header class=\"cover\">\n<h1>ThesisCheck 作业比对报告 <span>/ Class Comparison</span></h1>\n<dl class=\"meta\">\n")
	for _, m := range [][2]string{
		{"比对时间 Date", c.Created.Format("2006-01-02 15:04:05 -07:00")},
		{"文献 Documents", documentsLine(c)},
		{"标记阈值 Threshold", pct(c.Threshold) + " of the smaller document shared"},
		{"公共文本 Common text", fmt.Sprintf("held by %d or more documents, or by a library template: not counted", c.CommonDocuments)},
		{"签名 Signature", signatureText(c.Certificate, "")},
	} {
		h.rawf("<dt>%s</dt><dd>%s</dd>\n", esc(m[0]), esc(m[1]))
	}
	h.raw("</dl>\n<div class=\"figures\">\n")
	lv := levelColor(0)
	if len(flagged) > 0 {
		lv = levelColor(1)
	}
	h.rawf("<div class=\"fig main\" style=\"--lv:%s;--lvt:%s\"><b>%s</b><span>疑似抄袭对</span><small>Flagged pairs</small></div>\n",
		lv.hex(), lv.tint(0.08).hex(), thousands(len(flagged)))
	h.rawf("<div class=\"fig\"><b>%s</b><span>有共同文字的对</span><small>Pairs sharing text</small></div>\n", thousands(len(c.Pairs)))
	h.rawf("<div class=\"fig\"><b>%s</b><span>比对的对</span><small>Pairs compared</small></div>\n", thousands(c.PairsCompared()))
	h.raw("</div>\n</header>\n")

	h.raw("<h2>疑似抄袭 Flagged pairs</h2>\n")
	h.pairTable(flagged, true)
	if len(c.Clusters) > 0 {
		h.raw("<h2>群组 Clusters</h2>\n<ul class=\"notes\">\n")
		for k := range c.Clusters {
			h.rawf("<li>%s</li>\n", esc(clusterLine(c, k)))
		}
		h.raw("</ul>\n")
	}
	h.matrix()
	h.info()
	if others := c.Unflagged(); len(others) > 0 {
		h.raw("<h2>其他有共同文字的对 Other pairs sharing text</h2>\n")
		h.pairTable(others, false)
	}
	if len(c.Common) > 0 {
		h.raw("<h2>未计入的公共文本 Common text, not counted</h2>\n<div class=\"common\">\n")
		for _, cm := range c.Common {
			who := fmt.Sprintf("%d 篇 documents", cm.Documents)
			if cm.Template != "" {
				who += " · 模板 template: " + cm.Template
			}
			h.rawf("<div class=\"note\">%s</div><p>%s</p>\n", esc(who), esc(cm.Text))
		}
		h.raw("</div>\n")
	}
	for _, part := range []struct {
		title string
		docs  []int
		why   func(d *compare.Document) string
	}{
		{"注意 Warnings", c.Warned(), warningsText},
		{"无法读取 Not read", c.Failed(), func(d *compare.Document) string { return d.Error }},
		{"跳过 Not compared", c.Skipped(), func(d *compare.Document) string { return d.Skipped }},
	} {
		if len(part.docs) == 0 {
			continue
		}
		h.rawf("<h2>%s</h2>\n<ul class=\"notes warn\">\n", part.title)
		for _, i := range part.docs {
			h.rawf("<li>%s — %s</li>\n", esc(docName(c, i)), esc(part.why(&c.Documents[i])))
		}
		h.raw("</ul>\n")
	}
}

// info lists every document with the info file's columns.
func (h *cmpHTML) info() {
	c := h.c
	if len(c.InfoColumns) == 0 {
		return
	}
	h.raw("<h2>学生信息 Students</h2>\n<table class=\"sources\">\n<thead><tr><th>文献 Document</th>")
	for _, col := range c.InfoColumns {
		h.rawf("<th>%s</th>", esc(col))
	}
	h.raw("</tr></thead>\n<tbody>\n")
	for i := range c.Documents {
		h.rawf("<tr><td>%s</td>", esc(docName(c, i)))
		for _, col := range c.InfoColumns {
			h.rawf("<td>%s</td>", esc(c.Documents[i].Info[col]))
		}
		h.raw("</tr>\n")
	}
	h.raw("</tbody>\n</table>\n")
}

func (h *cmpHTML) pairTable(pairs []compare.Pair, linked bool) {
	if len(pairs) == 0 {
		h.raw("<p>没有。None.</p>\n")
		return
	}
	h.raw("<table class=\"sources pairs\">\n<thead><tr><th>#</th><th>文献 Documents</th><th class=\"n\">相似度 Similarity</th><th class=\"n\">A / B 占比 Shares</th><th class=\"n\">共同字数 Chars</th><th class=\"n\">Jaccard</th></tr></thead>\n<tbody>\n")
	for i, p := range pairs {
		names := esc(docName(h.c, p.A)) + " ↔ " + esc(docName(h.c, p.B))
		if linked && i < maxPairDetails {
			names = fmt.Sprintf("<a href=\"#pair%d\">%s</a>", i+1, names)
		}
		col := colInk
		if p.Flagged {
			col = levelColor(p.Similarity)
		}
		h.rawf("<tr><td>%d</td><td>%s</td><td class=\"n sim\" style=\"color:%s\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%.2f</td></tr>\n",
			i+1, names, col.hex(), pct(p.Similarity), sharesText(p), thousands(p.SharedChars), p.Jaccard)
	}
	h.raw("</tbody>\n</table>\n")
}

// matrix draws the similarities among the documents that share text, in Result.Order.
func (h *cmpHTML) matrix() {
	c := h.c
	inPair := map[int]bool{}
	for _, p := range c.Pairs {
		if len(inPair) >= maxMatrixDocs {
			break
		}
		inPair[p.A], inPair[p.B] = true, true
	}
	var docs []int
	for _, d := range c.Order() {
		if inPair[d] {
			docs = append(docs, d)
		}
	}
	if len(docs) < 2 {
		return
	}
	lookup := c.PairLookup()
	h.raw("<h2>相似度矩阵 Similarity matrix</h2>\n<table class=\"matrix\">\n<tr><th></th>")
	for k := range docs {
		h.rawf("<th>%d</th>", k+1)
	}
	h.raw("</tr>\n")
	for k, i := range docs {
		h.rawf("<tr><th class=\"name\">%d %s</th>", k+1, esc(docName(c, i)))
		for _, j := range docs {
			v := 0.0
			if p := lookup(i, j); p != nil {
				v = p.Similarity
			}
			if i == j {
				h.raw("<td style=\"background:#e8ebef\"></td>")
				continue
			}
			col := rgb{0xff, 0xff, 0xff}
			if v > 0 {
				col = levelColor(v).tint(0.15 + 0.85*min(1, v/max(c.Threshold*2, 0.01)))
			}
			h.rawf("<td style=\"background:%s\" title=\"%s\"></td>", col.hex(), esc(fmt.Sprintf("%s ↔ %s: %s", docName(c, i), docName(c, j), pct(v))))
		}
		h.raw("</tr>\n")
	}
	h.raw("</table>\n")
}

// details prints every fragment of each flagged pair side by side, grouped by the paragraphs they
// join.
func (h *cmpHTML) details() {
	flagged := h.c.Flagged()
	if len(flagged) == 0 {
		return
	}
	h.raw("<section class=\"fulltext\">\n<h2>共同片段 Shared fragments</h2>\n")
	for i, p := range flagged {
		if i == maxPairDetails {
			h.rawf("<p class=\"note\">另有 %d 对 and %d more flagged pairs: see the JSON result or the app.</p>\n", len(flagged)-i, len(flagged)-i)
			break
		}
		h.rawf("<h3 id=\"pair%d\">%d. %s ↔ %s · %s</h3>\n", i+1, i+1, esc(docName(h.c, p.A)), esc(docName(h.c, p.B)), pct(p.Similarity))
		h.rawf("<p class=\"note\">%d 处共同片段 fragments · A 在 B 中 %s of A in B · B 在 A 中 %s of B in A · %s 字 characters</p>\n",
			len(p.Fragments), pct(p.AShare), pct(p.BShare), thousands(p.SharedChars))
		for _, g := range fragmentGroups(p) {
			h.raw("<div class=\"pair s0\">\n")
			h.side(p.A, g.APara, g.A, 0)
			h.side(p.B, g.BPara, g.B, 1)
			h.raw("</div>\n")
		}
	}
	h.raw("</section>\n")
}

func (h *cmpHTML) side(doc, para int, spans [][2]int, colour int) {
	d := &h.c.Documents[doc]
	if para < 0 || para >= len(d.Paragraphs) {
		return
	}
	h.rawf("<div class=\"side s%d\"><h4>%s <small>第 %d 段 paragraph %d</small></h4>", colour, esc(docName(h.c, doc)), para+1, para+1)
	text := []rune(d.Paragraphs[para].Text)
	a, e := excerptWindow(len(text), spans, excerptContext)
	mk := spanMarks(len(text), spans, colour)
	h.raw("<p>")
	if a > 0 {
		h.raw("…")
	}
	h.marked(text[a:e], mk[a:e])
	if e < len(text) {
		h.raw("…")
	}
	h.raw("</p></div>\n")
}
