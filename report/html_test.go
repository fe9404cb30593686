package report

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

func TestHTMLGolden(t *testing.T) {
	r := sampleReport(t)
	s := fixedSigner()
	if err := r.Sign(s); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.html.golden", buf.Bytes())
}

func TestHTMLContent(t *testing.T) {
	r := sampleReport(t)
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf, nil); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"23.4%", "19.8%", "12.1%", "289 / 1,234", r.Number, r.Document.SHA256,
		// each source with its colour, and copied text marked in it
		".s0{--c:#4363d8", ".s1{--c:#911eb4", "可解释深度学习综述", "A Survey of Convolutional Neural Networks",
		`<mark class="s0">近年来，随着深度学习技术的快速发展`,
		`<mark class="s1">convolutional neural networks have achieved`,
		// the quoted copy is marked both as quoted and with its source
		`<mark class="q s2">知识就是力量`,
		// the side-by-side view of each flagged paragraph, with the figures
		`id="cmp-p3"`, `data-cmp="cmp-p3"`, "段落指纹相差 <b>9</b>/64 位 fingerprints differ in 9 of 64 bits (汉明距离 Hamming)", "用词重合 shared wording <b>0.41</b> (Jaccard)",
		// printable: comparisons laid out under their paragraphs, page numbers and running header
		"@media print", ".cmp[hidden]{display:block!important}", `@bottom-right{content:counter(page) " / " counter(pages)`,
		`@top-right{content:"报告编号 TC-20261123-7F3A9C"`,
		// the check's keys in the reader's words
		"摘要 Abstract", "不可见字符 Invisible characters × 3", "参考文献列表不计入复制比",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	// Self-contained: nothing is fetched.
	if m := regexp.MustCompile(`(?i)(\ssrc=|\shref=|url\(|@import|https?://)`).FindString(out); m != "" {
		t.Errorf("HTML refers to an outside resource: %q", m)
	}
	// Only paragraphs that copy open a comparison: 3 (copied), 5 (quoted copy), 6 (copied).
	if n := strings.Count(out, `data-cmp="`); n != 3 {
		t.Errorf("%d clickable paragraphs, want 3", n)
	}
}

func TestHTMLEscapes(t *testing.T) {
	r := sampleReport(t)
	evil := `<script>alert("x")</script><img src=x onerror=alert(1)>`
	r.Document.Path = "/tmp/" + evil + ".docx"
	r.Sources[0].Title = evil
	r.Sources[0].Color = `red;}</style><script>alert(2)</script>`
	r.Paragraphs[7].Text = "前文" + evil + "后文"
	r.Paragraphs[3].Matches[0].SourceText = evil + srcZh
	r.Warnings[0].Message = evil
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf, nil); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, "<script>"); n != 1 {
		t.Errorf("%d <script> tags, want only the report's own", n)
	}
	for _, bad := range []string{"<img", "alert(2)"} {
		if strings.Contains(out, bad) {
			t.Errorf("report text reached the page unescaped: %q", bad)
		}
	}
	if !strings.Contains(out, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
		t.Error("escaped report text is missing")
	}
	// The malformed colour fell back to the palette.
	if !strings.Contains(out, ".s0{--c:#4363d8") {
		t.Error("a malformed source colour was not replaced by the palette colour")
	}
}

// A hidden-text warning is named in the reader's words, with its count and the message that says
// why and where, in the HTML and the PDF report.
func TestHiddenWarningShown(t *testing.T) {
	r := sampleReport(t)
	msg := "565 characters of hidden text (white, 1 pt) were left out, on pages 2, 3"
	r.Warnings = append(r.Warnings, Warning{Kind: "hidden", Count: 565, Message: msg, Pages: []int{2, 3}})
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"隐藏文字 Hidden text × 565", msg} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	out, err := exec.Command(popplerTool(t, "pdftotext"), "-enc", "UTF-8", writeSamplePDF(t, r), "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	for _, want := range []string{"隐藏文字Hiddentext×565", squeeze(msg)} {
		if !strings.Contains(squeeze(string(out)), want) {
			t.Errorf("PDF lacks %q:\n%s", want, out)
		}
	}
}

// The footnotes a check reads as paragraphs after the last one are under a heading of their own,
// in the HTML and the PDF report alike.
func TestNotesHeading(t *testing.T) {
	r := sampleReport(t)
	note := "参见国家统计局2020年公报中关于医疗影像设备数量的统计数据。"
	r.Paragraphs = append(r.Paragraphs, Paragraph{Index: len(r.Paragraphs), Text: note, Section: "notes", Page: 2})
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf, nil); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	head, at := strings.Index(out, `<h3 class="part">注释 Notes</h3>`), strings.Index(out, note)
	if head < 0 || at < head || strings.Count(out, `<h3 class="part">`) != 1 {
		t.Errorf("HTML: notes heading at %d, the note at %d (%d headings)", head, at, strings.Count(out, `<h3 class="part">`))
	}
	text, err := exec.Command(popplerTool(t, "pdftotext"), "-enc", "UTF-8", writeSamplePDF(t, r), "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	flat := squeeze(string(text))
	if head, at := strings.LastIndex(flat, "注释Notes"), strings.Index(flat, squeeze(note)); head < 0 || at < head {
		t.Errorf("PDF: notes heading at %d, the note at %d", head, at)
	}
}
