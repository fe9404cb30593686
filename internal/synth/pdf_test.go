package synth

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"thesischeck/extract"
)

// The bench's thesis PDF must read back as the paragraphs it was made of: no running header or
// page number left in, no paragraph split at a page break or merged with the next.
func TestWritePDF(t *testing.T) {
	// Random words, so that no line repeats at the same height on another page as a running
	// header would.
	zh := strings.Fields("学位 论文 相似性 检测 需要 准确 恢复 段落 文本 页面 之间 正确 连接 截断 系统 方法 研究 数据 分析 结果 模型 实验 设计 实现 评价 指标 索引 指纹 文献 来源")
	en := strings.Fields("a checker must rebuild each paragraph from the glyphs on page joining lines wraps onto library index fingerprint source match report student thesis text word")
	r := rand.New(rand.NewPCG(1, 2))
	var paras []string
	for i := range 120 {
		var b strings.Builder
		for k := range 1 + i*7%23 { // lengths from a line to more than a page
			if (i+k)%3 == 0 {
				for range 12 + r.IntN(8) {
					b.WriteString(en[r.IntN(len(en))] + " ")
				}
				b.WriteString("end. ")
			} else {
				for range 10 + r.IntN(8) {
					b.WriteString(zh[r.IntN(len(zh))])
				}
				b.WriteString("。")
			}
		}
		paras = append(paras, strings.TrimSpace(b.String()))
	}
	path := filepath.Join(t.TempDir(), "thesis.pdf")
	pages, err := WritePDF(path, "学位论文 Thesis", paras)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdfinfo", path).Output()
	if err != nil {
		t.Fatalf("pdfinfo (poppler-utils) is needed by this test: %v", err)
	}
	if m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)$`).FindSubmatch(out); m == nil || string(m[1]) != fmt.Sprint(pages) {
		t.Errorf("WritePDF said %d pages, pdfinfo says:\n%s", pages, out)
	}
	if pages < 20 {
		t.Errorf("%d pages: too few to test page breaks", pages)
	}
	doc, err := extract.File(path)
	if err != nil {
		t.Fatal(err)
	}
	squeeze := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, s)
	}
	if len(doc.Paragraphs) != len(paras) {
		t.Errorf("%d paragraphs read back, %d written", len(doc.Paragraphs), len(paras))
	}
	for i, p := range doc.Paragraphs[:min(len(paras), len(doc.Paragraphs))] {
		if squeeze(p.Text) != squeeze(paras[i]) {
			t.Errorf("paragraph %d read back as %.60q, written %.60q", i+1, p.Text, paras[i])
		}
	}
}
