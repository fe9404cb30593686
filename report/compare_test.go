package report

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"thesischeck/compare"
)

const (
	cmpTextA = "学生甲写道：软件包管理系统负责安装、升级和删除软件，并记录每个文件属于哪个软件包。"
	cmpTextB = "我的看法是，软件包管理系统负责安装、升级和删除软件，并记录每个文件属于哪一个软件包。"
)

// sampleComparison is a class of four: two share a passage, one shares a little with another, one
// file could not be read, and every document quotes the prompt.
func sampleComparison(t testing.TB) *compare.Result {
	t.Helper()
	prompt := "作业：请说明 Debian 的软件包管理。"
	spanOf := func(text, sub string) (int, int) {
		i := strings.Index(text, sub)
		if i < 0 {
			t.Fatalf("%q not in %q", sub, text)
		}
		s := len([]rune(text[:i]))
		return s, s + len([]rune(sub))
	}
	shared := "软件包管理系统负责安装、升级和删除软件"
	a0, a1 := spanOf(cmpTextA, shared)
	b0, b1 := spanOf(cmpTextB, shared)
	doc := func(path, text string) compare.Document {
		return compare.Document{Path: path, Name: filepath.Base(path), Title: filepath.Base(path), Chars: len([]rune(prompt + text)), ComparedChars: len([]rune(text)),
			CommonChars: len([]rune(prompt)),
			Paragraphs:  []compare.Paragraph{{Text: prompt, Common: [][2]int{{0, len([]rune(prompt))}}}, {Text: text}}}
	}
	old := doc("/2025/赵六.txt", "往年的文章。")
	old.Old = true
	c := &compare.Result{
		Created: time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC), Threshold: 0.15, CommonDocuments: 3,
		Documents: []compare.Document{
			doc("/class/张三.docx", cmpTextA), doc("/class/李四.pdf", cmpTextB), doc("/class/<i>王五.txt", "完全不同的内容。"),
			{Path: "/class/broken.pdf", Name: "broken.pdf", Title: "broken", Error: "extract /class/broken.pdf: file is damaged"},
			{Path: "/class/compare.pdf", Name: "compare.pdf", Title: "compare", Skipped: "a comparison ThesisCheck wrote, not a submission"},
			old,
		},
		Pairs: []compare.Pair{
			{A: 0, B: 1, Similarity: 0.4634, AShare: 0.4634, BShare: 0.4419, Jaccard: 0.31, SharedChars: 19, Flagged: true,
				Fragments: []compare.Fragment{{APara: 1, ASpan: [2]int{a0, a1}, BPara: 1, BSpan: [2]int{b0, b1}}}},
			{A: 1, B: 2, Similarity: 0.05, AShare: 0.04, BShare: 0.05, Jaccard: 0.02, SharedChars: 2, Fragments: []compare.Fragment{}},
		},
		Common: []compare.Common{{Text: prompt, Documents: 3}},
	}
	c.SetThreshold(0.15)
	if _, err := c.SetInfo(&compare.Info{Columns: []string{"name", "id"}, Rows: []compare.InfoRow{
		{File: "张三.docx", Values: []string{"Zhang San", "2024001"}}, {File: "李四.pdf", Values: []string{"Li Si", "2024002"}},
	}}); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestComparisonPDF(t *testing.T) {
	path := filepath.Join(t.TempDir(), "class.pdf")
	c := sampleComparison(t)
	if err := SignComparison(c, fixedSigner()); err != nil {
		t.Fatal(err)
	}
	if err := SaveComparisonPDF(path, c, fixedSigner()); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(popplerTool(t, "pdftotext"), "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	flat := strings.NewReplacer("\n", "", " ", "").Replace(string(out))
	for _, want := range []string{
		"ThesisCheck作业比对报告/ClassComparison",
		"3篇已比对compared·1篇往年earlier·1篇无法读取unreadable·1篇跳过skipped", "15.0%",
		"ZhangSan·张三.docx", "↔LiSi·李四.pdf", "46.3%", "46.3%/44.2%", "5.0%",
		"群组1Group1·2篇documents:ZhangSan·张三.docx,LiSi·李四.pdf",
		"ZhangSan·张三.docx·ZhangSan·2024001", // the info of the flagged pair's students
		"作业：请说明Debian的软件包管理。",               // the common text, listed
		"broken.pdf—extract/class/broken.pdf:fileisdamaged",
		"compare.pdf—acomparisonThesisCheckwrote,notasubmission",
		"1处共同片段fragments·A在B中46.3%ofAinB·B在A中44.2%ofBinA",
		// the shared passage, from both sides
		strings.ReplaceAll(cmpTextA, " ", ""), strings.ReplaceAll(cmpTextB, " ", ""),
		"1/2", "2/2",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("pdftotext output lacks %q", want)
		}
	}
}

func TestComparisonHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteComparisonHTML(&buf, sampleComparison(t), nil); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"作业比对报告", "46.3%", "46.3% / 44.2%", "5.0%", "Zhang San · 张三.docx ↔ Li Si · 李四.pdf", `href="#pair1"`, `id="pair1"`,
		"群组 1 Group 1 · 2 篇 documents", "<td>2024002</td>", "赵六.txt (往年 earlier)",
		"compare.pdf — a comparison ThesisCheck wrote, not a submission",
		`<mark class="s0">软件包管理系统负责安装、升级和删除软件</mark>`,
		`<mark class="s1">软件包管理系统负责安装、升级和删除软件</mark>`,
		"作业：请说明 Debian 的软件包管理。", "extract /class/broken.pdf: file is damaged",
		`class="matrix"`, "&lt;i&gt;王五.txt",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	if strings.Contains(out, "<i>王五") {
		t.Error("a file name reached the page unescaped")
	}
	if m := regexp.MustCompile(`(?i)(\ssrc=|url\(|@import|https?://)`).FindString(out); m != "" {
		t.Errorf("HTML refers to an outside resource: %q", m)
	}
	// Only the flagged pair gets a side-by-side section.
	if n := strings.Count(out, `<div class="pair s0">`); n != 1 {
		t.Errorf("%d side-by-side passages, want 1", n)
	}
}

// A comparison's JSON holds every submission's text, past the size of any check report: it still
// verifies, and the PDF carries it without the text, signed so.
func TestLargeComparisonVerifies(t *testing.T) {
	me := newInstallation(t)
	c := sampleComparison(t)
	c.Documents[2].Paragraphs[1].Text = strings.Repeat("完全不同的内容。", (maxEmbedded>>3)/3+1) // over 64 MB
	if err := SignComparison(c, me.signer); err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := c.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if js.Len() <= maxEmbedded {
		t.Fatalf("the JSON is %d bytes, not past the limit of a report", js.Len())
	}
	wantVerdict(t, me.verifyAs(t, writeTemp(t, "class.json", js.Bytes())), Trusted, "VALID")

	var pdf bytes.Buffer
	if err := WriteComparisonPDF(&pdf, c, me.signer); err != nil {
		t.Fatal(err)
	}
	if pdf.Len() > 1<<20 {
		t.Errorf("the PDF is %d bytes: it carries the text", pdf.Len())
	}
	res := me.verifyAs(t, writeTemp(t, "class.pdf", pdf.Bytes()))
	wantVerdict(t, res, Trusted, "VALID")
	if res.Summary.Documents != len(c.Documents) || res.Summary.Flagged != 1 {
		t.Errorf("the PDF's comparison: %+v", res.Summary)
	}
}
