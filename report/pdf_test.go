package report

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// popplerTool finds a poppler-utils program; the PDF tests read our output the way users' viewers do,
// so a missing tool is a failure, not a skip.
func popplerTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s not found: install poppler-utils (make deps)", name)
	}
	return p
}

// writeSamplePDF signs r with the fixed signer and saves its PDF report.
func writeSamplePDF(t *testing.T, r *Report) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(path, signedPDF(t, r), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// signedPDF signs r with the fixed signer and returns its PDF report.
func signedPDF(t testing.TB, r *Report) []byte {
	t.Helper()
	s := fixedSigner()
	if err := r.Sign(s); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WritePDF(&buf, s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPDFText(t *testing.T) {
	r := sampleReport(t)
	path := writeSamplePDF(t, r)
	out, err := exec.Command(popplerTool(t, "pdftotext"), "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	text := string(out)
	// pdftotext breaks lines where the layout does: compare without white space.
	flat := squeeze(text)
	for _, want := range []string{
		"ThesisCheck论文查重报告/SimilarityReport",
		fmt.Sprintf("%.1f%%", r.Similarity*100), // the overall similarity as the JSON states it
		"23.4%", "19.8%", "12.1%", "289/1,234", "2/9",
		r.Number, r.Document.SHA256,
		"可解释深度学习综述", "ASurveyofConvolutionalNeuralNetworks",
		// labels in the reader's languages, not the check's keys
		"摘要Abstract", "参考文献References", "不可见字符Invisiblecharacters×3",
		// a source excerpt with its figures
		"段落指纹相差9/64位fingerprintsdifferin9of64bits(汉明距离Hamming)", "用词重合sharedwording0.41(Jaccard)",
		// page numbers and the running header
		"1/2", "2/2", "毕业论文-终稿.docx", "报告编号" + r.Number,
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("pdftotext output lacks %q", want)
		}
	}
	// The whole checked text, paragraph by paragraph, in order.
	assertAllParagraphs(t, r, text)
	if pct := regexp.MustCompile(`\d+\.\d%`).FindAllString(text, -1); len(pct) < 6 {
		t.Errorf("found %d percentages with one decimal, want the figures, sections and sources: %v", len(pct), pct)
	}
}

// assertAllParagraphs checks that pdftotext output holds every paragraph of r, in order.
func assertAllParagraphs(t *testing.T, r *Report, text string) {
	t.Helper()
	flat := squeeze(withoutRunningText(text, r))
	at, missing := 0, 0
	for _, p := range r.Paragraphs {
		want := squeeze(p.Text)
		k := strings.Index(flat[at:], want)
		if k < 0 {
			if missing++; missing <= 3 {
				t.Errorf("pdftotext output lacks paragraph %d: %.60q", p.Index+1, p.Text)
			}
			continue
		}
		at += k + len(want)
	}
	if missing > 0 {
		t.Errorf("%d of %d paragraphs missing", missing, len(r.Paragraphs))
	}
}

// withoutRunningText drops the running header and footer lines from pdftotext output, so that a
// paragraph that crosses a page reads as one.
func withoutRunningText(text string, r *Report) string {
	pageNo := regexp.MustCompile(`^\d+\s*/\s*\d+$`)
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(strings.Trim(l, "\f"))
		if strings.HasPrefix(l, r.documentName()) && strings.HasSuffix(l, "报告编号 "+r.Number) {
			continue // pdftotext may put the header's two ends on one line
		}
		if l == r.documentName() || l == "报告编号 "+r.Number || l == "ThesisCheck 论文查重报告" || pageNo.MatchString(l) {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

func TestPDFFontsEmbedded(t *testing.T) {
	path := writeSamplePDF(t, sampleReport(t))
	out, err := exec.Command(popplerTool(t, "pdffonts"), path).Output()
	if err != nil {
		t.Fatalf("pdffonts: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 3 {
		t.Fatalf("pdffonts lists no fonts:\n%s", out)
	}
	// Columns: name type encoding emb sub uni object ID; "emb" is the 4th field from the right.
	for _, l := range lines[2:] {
		f := strings.Fields(l)
		if len(f) < 7 || f[len(f)-5] != "yes" {
			t.Errorf("font not embedded: %s", l)
		}
	}
}

const titleLine = "作者：吴霞\u3000\u3000\u3000\u3000导师：李娜教授    答辩日期：2026年5月"

func TestPDFLongAndOddText(t *testing.T) {
	r := sampleReport(t)
	long := strings.Repeat("https://example.org/a/very/long/path/without/spaces/", 20)
	r.Paragraphs = append(r.Paragraphs,
		Paragraph{Index: 9, Text: long, Matches: []Match{}},
		Paragraph{Index: 10, Text: "emoji 😀 and tab\tand NUL\x00 and 𠀀 (outside the BMP)", Matches: []Match{}},
		// spans beyond the text must be clipped, not crash the writer
		Paragraph{Index: 11, Text: "短段落", Status: "copied", Matches: []Match{{Source: 0, Spans: [][2]int{{1, 99}}, SourceSpans: [][2]int{{-5, 3}}, SourceText: "短"}}},
		Paragraph{Index: 12, Text: strings.Repeat("很长的段落跨越页面。", 700), Matches: []Match{}},
		// wide gaps must not make pdftotext read the line as two columns
		Paragraph{Index: 13, Text: titleLine, Matches: []Match{}},
		Paragraph{Index: 14, Text: "学位论文独创性声明：本人郑重声明，所呈交的学位论文是本人在导师指导下独立开展研究工作所取得的成果。", Matches: []Match{}},
	)
	path := filepath.Join(t.TempDir(), "odd.pdf")
	if err := os.WriteFile(path, signedPDF(t, r), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(popplerTool(t, "pdftotext"), path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	flat := strings.NewReplacer("\n", "", " ", "").Replace(withoutRunningText(string(out), r))
	if !strings.Contains(flat, strings.ReplaceAll(long, " ", "")) {
		t.Error("a long word without spaces lost characters when it was cut across lines")
	}
	// the next paragraph, numbered 15, must follow the whole line
	if want := squeeze(titleLine) + "15学位论文独创性声明"; !strings.Contains(flat, want) {
		t.Errorf("a line with a wide gap was torn apart: %q not in the text", want)
	}
	if strings.Count(flat, "很长的段落跨越页面。") != 700 {
		t.Errorf("a paragraph spanning pages lost text: %d of 700 sentences", strings.Count(flat, "很长的段落跨越页面。"))
	}
}

func TestWrap(t *testing.T) {
	unit := func(text []rune) func(int) float64 {
		return func(i int) float64 {
			if isWide(text[i]) {
				return 2
			}
			return 1
		}
	}
	lines := func(s string, width float64) []string {
		rs := []rune(s)
		var out []string
		for _, l := range wrap(rs, width, unit(rs)) {
			out = append(out, string(rs[l[0]:l[1]]))
		}
		return out
	}
	tests := []struct {
		name  string
		text  string
		width float64
		want  []string
	}{
		{"Chinese breaks anywhere", "一二三四五六七", 6, []string{"一二三", "四五六", "七"}},
		{"Latin breaks at spaces", "the quick brown fox", 10, []string{"the quick", "brown fox"}},
		{"spaces at line ends are dropped", "ab   cd", 3, []string{"ab", "cd"}},
		{"a long word is cut", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"closing punctuation stays on the line", "一二三。四五", 6, []string{"一二", "三。四", "五"}},
		{"opening punctuation moves down", "一二（三四", 6, []string{"一二", "（三四"}},
		{"mixed text breaks between scripts", "使用Debian系统", 10, []string{"使用Debian", "系统"}},
		{"newline forces a break", "ab\ncd", 10, []string{"ab", "cd"}},
		{"no line ends in a hyphen", "class 1 -- B stations", 10, []string{"class 1", "-- B", "stations"}},
		{"a cut word does not end in a hyphen", "abc-defgh", 4, []string{"abc", "-def", "gh"}},
		{"empty", "", 10, nil},
		{"only spaces", "   ", 10, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := lines(tc.text, tc.width)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("wrap(%q, %v) = %q, want %q", tc.text, tc.width, got, tc.want)
			}
		})
	}
}

// TestPDFLargeReport holds the writer to its budget on a 100-page thesis: at most 5 MB, which
// takes font subsetting, and the whole text there for pdftotext. BenchmarkSavePDF measures the time.
func TestPDFLargeReport(t *testing.T) {
	r := bigReport(t, 100)
	path := writeSamplePDF(t, r)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parsePDF(data)
	if err != nil {
		t.Fatal(err)
	}
	pages := len(f.pages())
	t.Logf("%d pages, %d paragraphs, %d characters, %.2f MB", pages, len(r.Paragraphs), r.TotalChars, float64(len(data))/1e6)
	if pages < 100 {
		t.Errorf("%d pages, want at least 100", pages)
	}
	if len(data) > 5<<20 {
		t.Errorf("%d bytes, budget 5 MB", len(data))
	}
	out, err := exec.Command(popplerTool(t, "pdftotext"), "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	assertAllParagraphs(t, r, string(out))
	if res, err := Verify(path, VerifyOptions{}); err != nil || !res.Intact {
		t.Errorf("the large report does not verify: %v %s", err, res)
	}
}

// BenchmarkSavePDF writes a 100-page thesis report (about 600 paragraphs of Chinese text) to a file.
func BenchmarkSavePDF(b *testing.B) {
	r := bigReport(b, 100)
	s := fixedSigner()
	if err := r.Sign(s); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "big.pdf")
	for b.Loop() {
		if err := r.SavePDF(path, s); err != nil {
			b.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	f, err := parsePDF(data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(data))/1e6, "MB")
	b.ReportMetric(float64(len(f.pages())), "pages")
	b.ReportMetric(float64(len(r.Paragraphs)), "paragraphs")
}

func BenchmarkHTML100Pages(b *testing.B) {
	r := bigReport(b, 100)
	for b.Loop() {
		var buf bytes.Buffer
		if err := r.WriteHTML(&buf, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Reports the writers must render without failing: nothing found, and references a hand-edited file
// could hold (source indices out of range, spans past the text, no colours).
func TestWritersOnOddReports(t *testing.T) {
	broken := sampleReport(t)
	broken.Sources[1].Color = ""
	broken.Paragraphs[3].Matches[0].Source = 99
	broken.Paragraphs[6].Matches[0].Source = -1
	broken.Paragraphs[6].Matches[0].Spans = [][2]int{{500, 400}, {-3, 2}}
	many := sampleReport(t)
	for i := 0; i < 60; i++ {
		many.Sources = append(many.Sources, Source{Title: strings.Repeat("很长的来源标题", 20), Similarity: 0.001, Color: ColorFor(i)})
	}
	tests := []struct {
		name string
		r    *Report
	}{
		{"empty", &Report{}},
		{"no matches", &Report{Number: "TC-1", Paragraphs: []Paragraph{{Text: "只有一段原创文字。"}}}},
		{"broken references", broken},
		{"many sources", many},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var html bytes.Buffer
			f, err := parsePDF(signedPDF(t, tc.r))
			if err != nil {
				t.Fatal(err)
			}
			shown, err := f.pageStrings(0)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(shown, "\n"), pct(tc.r.Similarity)) {
				t.Errorf("first page does not show the similarity %s", pct(tc.r.Similarity))
			}
			if err := tc.r.WriteHTML(&html, nil); err != nil {
				t.Fatalf("HTML: %v", err)
			}
			if !strings.HasSuffix(html.String(), "</html>\n") {
				t.Error("HTML is not complete")
			}
		})
	}
}

// TestPDFTextGolden pins what each page of the sample report shows, string by string in drawing
// order: a layout change shows up here as a readable diff (go test ./report -update accepts it).
func TestPDFTextGolden(t *testing.T) {
	f, err := parsePDF(signedPDF(t, sampleReport(t)))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for p := range f.pages() {
		strs, err := f.pageStrings(p)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "=== page %d\n", p+1)
		for _, s := range strs {
			out.WriteString(s + "\n")
		}
	}
	golden(t, "sample.pdf.txt.golden", []byte(out.String()))
}
