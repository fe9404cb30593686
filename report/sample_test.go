package report

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"thesischeck/internal/synth"
)

// Reports built by hand for the writer tests: the check pipeline is tested on its own.

// span finds sub in text and returns its rune offsets; tests build spans from text so that they
// cannot drift from it.
func span(t testing.TB, text, sub string) [2]int {
	t.Helper()
	i := strings.Index(text, sub)
	if i < 0 {
		t.Fatalf("%q not in %q", sub, text)
	}
	a := len([]rune(text[:i]))
	return [2]int{a, a + len([]rune(sub))}
}

const (
	srcZh = "近年来，随着深度学习技术的快速发展，卷积神经网络在图像识别、目标检测和语义分割等任务中取得了显著成果。然而，模型的可解释性仍然是制约其在医疗等高风险领域应用的关键问题。"
	srcEn = "Convolutional neural networks have achieved remarkable results in image recognition, object detection and semantic segmentation. However, their lack of interpretability remains a key obstacle in high-risk domains such as medicine."
	srcQ  = "知识就是力量，而教育是通向知识的唯一道路。"

	paraAbstract = "本文研究了医学影像分析中的可解释性问题。近年来，随着深度学习技术的快速发展，卷积神经网络在图像识别、目标检测和语义分割等任务中取得了显著成果。在此基础上，我们提出了一种基于注意力机制的新方法。"
	paraTemplate = "学位论文独创性声明：本人郑重声明，所呈交的学位论文是本人在导师指导下独立开展研究工作所取得的成果。"
	paraQuoted   = "正如培根所言：“知识就是力量，而教育是通向知识的唯一道路。”这句话至今仍有启发意义。"
	paraEnglish  = "As prior work shows, convolutional neural networks have achieved remarkable results in image recognition, object detection and semantic segmentation. We build on that with a saliency-based explanation."
	paraPlain    = "实验在三个公开数据集上进行，结果表明所提方法在保持精度的同时显著提升了模型的可解释性，医生对解释结果的满意度提高了百分之三十。"
	paraRef      = "[1] 张三, 李四. 深度学习在医学影像中的应用[J]. 计算机学报, 2020, 43(5): 1-15."
)

func sampleReport(t testing.TB) *Report {
	r := &Report{
		Number:  "TC-20261123-7F3A9C",
		Created: time.Date(2026, 11, 23, 9, 30, 0, 0, time.FixedZone("CST", 8*3600)),
		Document: Document{
			Path:       "/home/student/论文/毕业论文-终稿.docx",
			Title:      "医学影像分析中的可解释深度学习方法研究",
			SHA256:     "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
			Chars:      1234,
			Paragraphs: 9,
		},
		Library:                   Library{Documents: 128, Paragraphs: 45210},
		Similarity:                0.234,
		SimilarityExcludingQuotes: 0.198,
		MaxSingleSource:           0.121,
		CopiedChars:               289,
		QuotedChars:               21,
		TemplateChars:             48,
		TotalChars:                1234,
		FlaggedParas:              2,
		Sections: []SectionFigure{
			{Name: "前置部分 Front matter", Section: "front", Chars: 120, CopiedChars: 0, Similarity: 0, Checked: true},
			{Name: "摘要 Abstract", Section: "abstract", Chars: 300, CopiedChars: 98, Similarity: 0.327, Checked: true},
			{Name: "正文 Body", Section: "body", Chars: 760, CopiedChars: 191, Similarity: 0.251, Checked: true},
			{Name: "参考文献 References", Section: "references", Chars: 54, Checked: false},
		},
		Sources: []Source{
			{ID: 7, Path: "/library/可解释深度学习综述.pdf", Title: "可解释深度学习综述", Similarity: 0.121, CopiedChars: 150, Jaccard: 0.18, Color: ColorFor(0)},
			{ID: 12, Path: "/library/cnn-survey.txt", Title: "A Survey of Convolutional Neural Networks", Similarity: 0.098, CopiedChars: 118, Jaccard: 0.07, Color: ColorFor(1)},
			{ID: 31, Path: "/library/名言集.docx", Similarity: 0.017, CopiedChars: 21, Jaccard: 0.01, Color: ColorFor(2)},
		},
		Excluded: []Exclusion{{Section: "references", Chars: 54, Reason: "参考文献不计入复制比 references are not counted"}},
		Warnings: []Warning{{Kind: "invisible", Count: 3, Message: "零宽字符 zero-width characters between words"}},
		Settings: Settings{MinRunChars: 13, MaxHamming: 3},
	}
	copiedZh := "近年来，随着深度学习技术的快速发展，卷积神经网络在图像识别、目标检测和语义分割等任务中取得了显著成果。"
	copiedEn := "convolutional neural networks have achieved remarkable results in image recognition, object detection and semantic segmentation."
	r.Paragraphs = []Paragraph{
		{Index: 0, Text: "医学影像分析中的可解释深度学习方法研究", Section: "front", Page: 1, Status: "excluded", Matches: []Match{}},
		{Index: 1, Text: paraTemplate, Section: "front", Page: 2, Status: "template", Matches: []Match{{
			Source: 0, SourcePath: r.Sources[0].Path, SourceParagraph: 0, SourceText: paraTemplate, Hamming: 0, Jaccard: 1,
			Spans: [][2]int{{0, len([]rune(paraTemplate))}}, SourceSpans: [][2]int{{0, len([]rune(paraTemplate))}}, CopiedChars: len([]rune(paraTemplate)), Template: true,
		}}},
		{Index: 2, Text: "摘要", Section: "abstract", Heading: true, Page: 3, Status: "excluded", Matches: []Match{}},
		{Index: 3, Text: paraAbstract, Section: "abstract", Page: 3, Status: "copied", Similarity: float64(len([]rune(copiedZh))) / float64(len([]rune(paraAbstract))),
			Matches: []Match{{
				Source: 0, SourcePath: r.Sources[0].Path, SourceParagraph: 4, SourceText: srcZh, Hamming: 9, Jaccard: 0.41,
				Spans: [][2]int{span(t, paraAbstract, copiedZh)}, SourceSpans: [][2]int{span(t, srcZh, copiedZh)}, CopiedChars: len([]rune(copiedZh)),
			}}},
		{Index: 4, Text: "第一章 绪论", Section: "body", Chapter: "第一章 绪论", Heading: true, Page: 4, Status: "excluded", Matches: []Match{}},
		{Index: 5, Text: paraQuoted, Section: "body", Chapter: "第一章 绪论", Page: 4, Status: "quoted", Similarity: 0.45,
			Quotes: [][2]int{span(t, paraQuoted, "“知识就是力量，而教育是通向知识的唯一道路。”")},
			Matches: []Match{{
				Source: 2, SourcePath: r.Sources[2].Path, SourceParagraph: 17, SourceText: srcQ, Hamming: 12, Jaccard: 0.3,
				Spans: [][2]int{span(t, paraQuoted, srcQ)}, SourceSpans: [][2]int{{0, len([]rune(srcQ))}}, CopiedChars: len([]rune(srcQ)),
			}}},
		{Index: 6, Text: paraEnglish, Section: "body", Chapter: "第一章 绪论", Page: 4, Status: "copied", Similarity: 0.62,
			Notes: []string{"See Zhang et al. (2020) for the original experiments."},
			Matches: []Match{{
				Source: 1, SourcePath: r.Sources[1].Path, SourceParagraph: 0, SourceText: srcEn, Hamming: 14, Jaccard: 0.35,
				Spans:       [][2]int{span(t, paraEnglish, copiedEn)},
				SourceSpans: [][2]int{span(t, srcEn, "Convolutional neural networks have achieved remarkable results in image recognition, object detection and semantic segmentation.")},
				CopiedChars: len([]rune(copiedEn)),
			}}},
		{Index: 7, Text: paraPlain, Section: "body", Chapter: "第一章 绪论", Page: 5, Matches: []Match{}},
		{Index: 8, Text: paraRef, Section: "references", Page: 6, Status: "excluded", Matches: []Match{}},
	}
	return r
}

// bigReport builds a report of about `pages` A4 pages of Chinese thesis text, a fifth of it copied
// from eight sources.
func bigReport(t testing.TB, pages int) *Report {
	words, cum, err := synth.DictWords()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		x := rng.Float64() * cum[len(cum)-1]
		return words[sort.SearchFloat64s(cum, x)]
	}
	sentence := func() string {
		var b strings.Builder
		n := 8 + rng.IntN(14)
		for i := 0; i < n; i++ {
			b.WriteString(word())
			if i == n/2 && rng.IntN(2) == 0 {
				b.WriteString("，")
			}
		}
		b.WriteString("。")
		return b.String()
	}
	r := sampleReport(t)
	r.Paragraphs = nil
	r.Sources = nil
	for i := 0; i < 8; i++ {
		r.Sources = append(r.Sources, Source{ID: uint64(i + 1), Title: fmt.Sprintf("来源文献 %d：%s%s研究", i+1, word(), word()), Path: fmt.Sprintf("/library/source-%d.pdf", i), Similarity: 0.02, Jaccard: 0.05, Color: ColorFor(i)})
	}
	total := 0
	const charsPerPage = 1500 // about 42 lines of 45 characters with paragraph gaps and excerpts
	for idx := 0; total < pages*charsPerPage; idx++ {
		if idx%25 == 0 {
			r.Paragraphs = append(r.Paragraphs, Paragraph{Index: idx, Text: fmt.Sprintf("第%d章 %s%s", idx/25+1, word(), word()), Section: "body", Heading: true, Status: "excluded"})
			continue
		}
		var b strings.Builder
		for s := 3 + rng.IntN(5); s > 0; s-- {
			b.WriteString(sentence())
		}
		text := b.String()
		p := Paragraph{Index: idx, Text: text, Section: "body", Matches: []Match{}}
		n := len([]rune(text))
		if idx%5 == 0 {
			src := rng.IntN(len(r.Sources))
			a := rng.IntN(n / 2)
			e := min(n, a+20+rng.IntN(n/2))
			srcText := "前文" + string([]rune(text)[a:e]) + "后文。"
			p.Status = "copied"
			p.Similarity = float64(e-a) / float64(n)
			p.Matches = []Match{{Source: src, SourceParagraph: idx, SourceText: srcText, Hamming: 5, Jaccard: 0.4,
				Spans: [][2]int{{a, e}}, SourceSpans: [][2]int{{2, 2 + e - a}}, CopiedChars: e - a}}
		}
		r.Paragraphs = append(r.Paragraphs, p)
		total += n
	}
	r.Document.Paragraphs = len(r.Paragraphs)
	r.TotalChars = total
	return r
}
