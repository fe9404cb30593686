package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
)

// An archive is what a school's library holds beside its own theses: articles and reports, and
// other schools' theses with their own covers and declarations. Its documents are unrelated to
// any text they may be checked with: every content word of the corpus sentences they are made of
// is replaced (Latin words inside Chinese too), so only sentence shapes and function words remain
// of the corpus, while Document keeps a fifth of the content words and shares phrases with it.

// thesisEvery: one archive document in thesisEvery is a thesis of another school.
const thesisEvery = 4

// WriteArchive writes archive documents 0..n-1 into dir, TXT files with every docxEvery-th one
// DOCX (0: none), and returns how many of them are theses.
func (c *Corpus) WriteArchive(dir string, n, docxEvery int) (int, error) {
	theses := 0
	err := writeDocs(dir, "a", n, docxEvery, func(i int) []string {
		d, thesis := c.ArchiveDocument(i)
		if thesis {
			theses++
		}
		return d
	})
	return theses, err
}

// ArchiveDocument returns the paragraphs of archive document i, and whether it is a thesis: Chinese
// or English by the parity of i.
func (c *Corpus) ArchiveDocument(i int) ([]string, bool) {
	r := rand.New(rand.NewPCG(uint64(i), 0xa4c817e))
	l := c.zh
	if i%2 == 1 {
		l = c.en
	}
	body := func(n int) []string {
		out := make([]string, n)
		for k := range out {
			out[k] = l.unrelatedParagraph(r)
		}
		return out
	}
	if i%thesisEvery != 0 {
		return append([]string{l.title(r)}, body(8+r.IntN(20))...), false
	}
	return l.thesis(r, body), true
}

// unrelatedParagraph is a paragraph of the corpus's length and sentence shapes without its words.
func (l *lang) unrelatedParagraph(r *rand.Rand) string {
	want := l.paraLen[r.IntN(len(l.paraLen))]
	var parts []string
	n := 0
	for n < want {
		ps := l.sentences[r.IntN(len(l.sentences))]
		var b strings.Builder
		for i, w := range ps {
			if i%2 == 1 && (content(w, l.cjk) || latinWord(w)) {
				w = l.vocab[r.IntN(len(l.vocab))]
			}
			b.WriteString(w)
		}
		parts = append(parts, b.String())
		n += len([]rune(b.String()))
	}
	if l.cjk {
		return strings.Join(parts, "")
	}
	return strings.Join(parts, " ")
}

// latinWord: a word of two Latin letters or more, which content leaves alone inside Chinese.
func latinWord(w string) bool {
	if len(w) < 2 {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// title is a heading-like line of a few words of the vocabulary.
func (l *lang) title(r *rand.Rand) string {
	words := make([]string, 3+r.IntN(4))
	for k := range words {
		words[k] = l.vocab[r.IntN(len(l.vocab))]
	}
	if l.cjk {
		return strings.Join(words, "") + "研究"
	}
	for k, w := range words {
		rs := []rune(w)
		words[k] = string(unicode.ToUpper(rs[0])) + string(rs[1:])
	}
	return "A Study of " + strings.Join(words, " ")
}

var (
	zhPlaces  = strings.Fields("东北 华南 西南 江汉 燕山 长江 渤海 岭南 黄河 太湖 天山 秦岭 闽江 湘江 淮海 珠江")
	zhKinds   = strings.Fields("大学 理工大学 师范大学 科技大学 工业大学 农业大学")
	enPlaces  = strings.Fields("Northfield Eastbrook Westmoor Southport Lakeside Riverton Highgate Ashford Kingsbridge Millbrook Oakham Stonehaven")
	zhSurname = strings.Fields("王 李 张 刘 陈 杨 赵 黄 周 吴")
	enSurname = strings.Fields("Smith Jones Taylor Brown Williams Wilson Johnson Davies Evans Thomas")

	// Declarations and authorisations as schools word them: alike in substance, each school its
	// own wording.
	zhDeclarations = []string{
		"学位论文原创性声明：本人郑重声明：所呈交的论文是本人在导师的指导下独立进行研究所取得的研究成果。除了文中特别加以标注引用的内容外，本论文不包含任何其他个人或集体已经发表或撰写的成果作品。本人完全意识到本声明的法律后果由本人承担。",
		"独创性声明：本人声明所呈交的学位论文是本人在导师指导下进行的研究工作及取得的研究成果。据我所知，除了文中特别加以标注和致谢的地方外，论文中不包含其他人已经发表或撰写过的研究成果，也不包含为获得%s或其他教育机构的学位或证书而使用过的材料。",
		"关于学位论文使用授权的说明：本人完全了解%s有关保留、使用学位论文的规定，即：学校有权保留送交论文的复印件，允许论文被查阅和借阅；学校可以公布论文的全部或部分内容，可以采用影印、缩印或其他复制手段保存论文。",
		"学位论文版权使用授权书：本学位论文作者完全了解%s有关保留、使用学位论文的规定，有权保留并向国家有关部门或机构送交论文的复印件和磁盘，允许论文被查阅和借阅。本人授权学校可以将学位论文的全部或部分内容编入有关数据库进行检索。",
	}
	enDeclarations = []string{
		"Declaration: I declare that this thesis, submitted in partial fulfilment of the requirements for the degree of Master of Science at the %s, is wholly my own work unless otherwise referenced or acknowledged. The document has not been submitted for qualifications at any other academic institution.",
		"Statement of Originality: This is to certify that to the best of my knowledge, the content of this thesis is my own work. This thesis has not been submitted for any degree or other purposes at the %s. I certify that the intellectual content of this thesis is the product of my own work and that all the assistance received in preparing this thesis and sources have been acknowledged.",
		"Copyright and use of this thesis: This thesis is protected by copyright. The author grants the %s the right to reproduce, lend and make this thesis available in digital form for the purposes of research and study, provided that it is cited as a source.",
	}
)

// thesis is a thesis of another school: cover, declarations, signature line, abstract, chapters
// and references.
func (l *lang) thesis(r *rand.Rand, body func(int) []string) []string {
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	decls := enDeclarations
	school := "University of " + pick(enPlaces)
	if l.cjk {
		decls = zhDeclarations
		school = pick(zhPlaces) + pick(zhKinds)
	}
	first := r.IntN(len(decls))
	second := (first + 1 + r.IntN(len(decls)-1)) % len(decls)
	var out []string
	if l.cjk {
		out = append(out, school+"硕士学位论文", l.title(r), "研究生："+pick(zhSurname)+"某", "指导教师："+pick(zhSurname)+"某某教授")
	} else {
		out = append(out, l.title(r), "A thesis submitted in partial fulfilment of the requirements for the degree of Master of Science",
			"Author: A. "+pick(enSurname)+" Supervisor: Prof. B. "+pick(enSurname), school)
	}
	for _, d := range []string{decls[first], decls[second]} {
		if strings.Contains(d, "%s") {
			d = fmt.Sprintf(d, school)
		}
		out = append(out, d)
	}
	sign, abstract, chapter, refs := "作者签名：　　　　日期：　　年　　月　　日", "摘要", "第%d章 %s", "参考文献"
	if !l.cjk {
		sign, abstract, chapter, refs = "Signed: ____________ Date: ____________", "Abstract", "Chapter %d %s", "References"
	}
	out = append(out, sign, abstract)
	out = append(out, body(1+r.IntN(2))...)
	for ch := 1; ch <= 3+r.IntN(3); ch++ {
		out = append(out, fmt.Sprintf(chapter, ch, l.title(r)))
		out = append(out, body(3+r.IntN(6))...)
	}
	out = append(out, refs)
	for k := 1; k <= 3+r.IntN(5); k++ {
		if l.cjk {
			out = append(out, fmt.Sprintf("[%d] %s某. %s[J]. %s学报, %d, %d(%d): %d-%d.", k, pick(zhSurname), l.title(r), pick(zhPlaces), 1995+r.IntN(30), 1+r.IntN(40), 1+r.IntN(12), 1+r.IntN(100), 101+r.IntN(100)))
		} else {
			out = append(out, fmt.Sprintf("[%d] %s, A. %s. Journal of %s Studies, %d, %d: %d-%d.", k, pick(enSurname), l.title(r), pick(enPlaces), 1995+r.IntN(30), 1+r.IntN(40), 1+r.IntN(100), 101+r.IntN(100)))
		}
	}
	return out
}
