package synth

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"codeberg.org/go-pdf/fpdf"

	"thesischeck/assets"
)

// ClassPrompts are the assignment every submission of a generated class quotes at its top, as
// students paste the prompt into their answer.
var ClassPrompts = map[string]string{
	"zh": "课程作业（研究方法）：请用约二十页的篇幅，结合课程材料，论述你所选课题的研究背景、研究方法、实验设计与结果分析，并说明每一个选择的理由。",
	"en": "Course assignment (research methods): in about twenty pages, discuss the background, the methods, the design of the experiments and the analysis of the results of the topic you chose, and give the reasons for every choice you make, drawing on the course material.",
}

// ClassSpec describes a generated class for the compare benchmark.
type ClassSpec struct {
	Docs  int
	Pages int    // pages of each submission, as WritePDF lays them out
	Lang  string // "zh" or "en"
	// Copying pairs are submissions 2k and 2k+1 for k < Copying: 2k+1 takes CopyShare of its
	// paragraphs from 2k, in the same places.
	Copying   int
	CopyShare float64
	DocxEvery int // write every k-th submission as DOCX (0: all TXT)
}

// ClassStats is what WriteClass wrote.
type ClassStats struct {
	Chars      int // characters of all submissions
	Paragraphs int
}

// WriteClass writes a class's submissions into dir as s%04d.txt (or .docx). Each submission is the
// prompt, then paragraphs until it fills spec.Pages pages of WritePDF's layout.
//
// The paragraphs are not the corpus's sentences with words swapped, as library documents are: the
// corpus has a few thousand sentences, so a thousand twenty-page submissions would each use a
// third of them, and every pair would share their unswapped words and technical terms in the same
// order. Independent essays share words, not runs of them: here every sentence is words drawn at
// random by their frequency in the corpus, a quarter of them from a topic vocabulary of 300 words
// the whole class uses.
func (c *Corpus) WriteClass(dir string, spec ClassSpec) (ClassStats, error) {
	var st ClassStats
	l := c.zh
	if spec.Lang == "en" {
		l = c.en
	}
	prompt, ok := ClassPrompts[spec.Lang]
	if !ok {
		return st, fmt.Errorf("synth: no class language %q", spec.Lang)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, err
	}
	vocab := l.words()
	r := rand.New(rand.NewPCG(1, 0x7091c))
	topic := make([]string, 300)
	for i := range topic {
		topic[i] = vocab[r.IntN(len(vocab))]
	}
	pg := newPager()
	docs := make([][]string, spec.Docs)
	for i := range docs {
		r := rand.New(rand.NewPCG(uint64(i), 0xc1a55))
		paras := []string{prompt}
		lines := pg.lines(prompt)
		for lines < spec.Pages*pg.perPage {
			p := l.randomParagraph(r, vocab, topic)
			paras = append(paras, p)
			lines += pg.lines(p)
		}
		docs[i] = paras
	}
	for k := 0; k < spec.Copying && 2*k+1 < spec.Docs; k++ {
		src, dst := docs[2*k], docs[2*k+1]
		r := rand.New(rand.NewPCG(uint64(k), 0xc0b1))
		for p := 1; p < min(len(src), len(dst)); p++ {
			if r.Float64() < spec.CopyShare {
				dst[p] = src[p]
			}
		}
	}
	for i, paras := range docs {
		for _, p := range paras {
			st.Chars += len([]rune(p))
		}
		st.Paragraphs += len(paras)
		if err := writeDoc(filepath.Join(dir, fmt.Sprintf("s%04d", i)), paras, spec.DocxEvery > 0 && i%spec.DocxEvery == 0); err != nil {
			return st, err
		}
	}
	return st, nil
}

// words are the corpus's words of letters only, as often as the corpus uses them.
func (l *lang) words() []string {
	var out []string
	for _, ps := range l.sentences {
		for i := 1; i < len(ps); i += 2 {
			if letters(ps[i]) {
				out = append(out, strings.ToLower(ps[i]))
			}
		}
	}
	return out
}

func letters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return w != ""
}

// randomParagraph is a paragraph of the corpus's length distribution made of random sentences.
func (l *lang) randomParagraph(r *rand.Rand, vocab, topic []string) string {
	want := l.paraLen[r.IntN(len(l.paraLen))]
	var b strings.Builder
	for n := 0; n < want; {
		words := 8 + r.IntN(14)
		for k := 0; k < words; k++ {
			w := vocab[r.IntN(len(vocab))]
			if r.IntN(4) == 0 {
				w = topic[r.IntN(len(topic))]
			}
			switch {
			case l.cjk:
				if k == words/2 && r.IntN(2) == 0 {
					b.WriteString("，")
				}
			case k == 0:
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				w = strings.ToUpper(w[:1]) + w[1:]
			default:
				b.WriteByte(' ')
			}
			b.WriteString(w)
			n += utf8.RuneCountInString(w) + 1
		}
		if l.cjk {
			b.WriteString("。")
		} else {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// pager counts the lines WritePDF would give a paragraph.
type pager struct {
	pdf     *fpdf.Fpdf
	width   float64
	perPage int
}

func newPager() *pager {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.AddUTF8FontFromBytes("noto", "", assets.FontRegular)
	pdf.SetFont("noto", "", pdfPt)
	w, h := pdf.GetPageSize()
	return &pager{pdf: pdf, width: w - 2*pdfMargin, perPage: int((h - 2*pdfMargin) / pdfLine)}
}

func (p *pager) lines(text string) int { return len(wrapLines(p.pdf, text, p.width, pdfIndent)) }
