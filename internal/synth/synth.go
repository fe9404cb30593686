// Package synth makes realistic Chinese and English thesis prose from real text, for benchmarks.
//
// Sentences are drawn at random from the corpus and most of their content words are swapped for
// other words of the corpus, so documents read like theses but do not share long runs of words the
// way copies of the same sentences would. A real library has that shape: common words and phrases
// everywhere, long runs of words only where one text copies another. Document i is the same for every
// library size (its random stream depends on i alone), so a submission copied from the first
// documents finds its sources in all of them.
package synth

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// WriteLibrary writes documents 0..n-1 of paras paragraphs into dir as TXT files, every docxEvery-th
// as DOCX (0: none), and returns the bytes of text written.
func (c *Corpus) WriteLibrary(dir string, n, paras, docxEvery int) (int, error) {
	text := 0
	err := writeDocs(dir, "d", n, docxEvery, func(i int) []string {
		d := c.Document(i, paras)
		for _, p := range d {
			text += len(p)
		}
		return d
	})
	return text, err
}

// writeDocs writes documents 0..n-1 into dir, named prefix and six digits, as TXT files with every
// docxEvery-th one DOCX (0: none).
func writeDocs(dir, prefix string, n, docxEvery int, doc func(i int) []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if err := writeDoc(filepath.Join(dir, fmt.Sprintf("%s%06d", prefix, i)), doc(i), docxEvery > 0 && i%docxEvery == 0); err != nil {
			return err
		}
	}
	return nil
}

// Submission returns a thesis of paras paragraphs, copyShare of them copied verbatim from documents
// 0..from-1, the others new, alternately Chinese and English.
func (c *Corpus) Submission(paras int, copyShare float64, from int) []string {
	r := rand.New(rand.NewPCG(uint64(paras), 0x5b))
	out := make([]string, paras)
	for k := range out {
		if r.Float64() < copyShare {
			d := c.Document(r.IntN(from), 30)
			out[k] = d[r.IntN(len(d))]
		} else if k%2 == 0 {
			out[k] = c.zh.paragraph(r)
		} else {
			out[k] = c.en.paragraph(r)
		}
	}
	return out
}

// writeDoc writes paragraphs to name.docx or name.txt.
func writeDoc(name string, paras []string, docx bool) error {
	if docx {
		return WriteDOCX(name+".docx", paras)
	}
	return WriteTXT(name+".txt", paras)
}

// WriteTXT writes paragraphs as a UTF-8 text file, a blank line between them.
func WriteTXT(path string, paras []string) error {
	return os.WriteFile(path, []byte(strings.Join(paras, "\n\n")+"\n"), 0o644)
}

// lang is the corpus of one language: its sentences split into words (see pieces), the words that may replace
// a content word (with repeats, so common words stay common), and paragraph lengths in runes.
type lang struct {
	sentences [][]string
	vocab     []string
	paraLen   []int
	cjk       bool
}

// Corpus is the real text prose is made from.
type Corpus struct{ zh, en *lang }

// Load reads the TXT files of dirs (separated by ':'). An empty dirs means the development set's
// libraries when they are beside the work tree, else extract's test data; both are looked for from
// the module root and from a package folder, where tests run.
func Load(dirs string) (*Corpus, error) {
	if dirs == "" {
		for _, root := range []string{".", ".."} {
			if m, _ := filepath.Glob(filepath.Join(root, "..", "shared", "devset", "*", "library")); len(m) > 0 {
				dirs = strings.Join(m, ":")
				break
			}
			if _, err := os.Stat(filepath.Join(root, "extract", "testdata", "txt")); err == nil {
				dirs = filepath.Join(root, "extract", "testdata", "txt")
			}
		}
	}
	seg, err := similarity.Default()
	if err != nil {
		return nil, err
	}
	c := &Corpus{zh: &lang{cjk: true}, en: &lang{}}
	for _, dir := range strings.Split(dirs, ":") {
		files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		for _, f := range files {
			doc, err := extract.FileContext(context.Background(), f)
			if err != nil {
				continue // the corpus is whatever reads cleanly
			}
			for _, p := range doc.Paragraphs {
				if p.Heading || p.Section == extract.References || len([]rune(p.Text)) < 40 {
					continue
				}
				l := c.en
				if cjkShare(p.Text) > 0.3 {
					l = c.zh
				}
				l.paraLen = append(l.paraLen, len([]rune(p.Text)))
				for _, s := range sentences(p.Text, l.cjk) {
					ps := pieces(seg, s)
					if len(ps) < 8 {
						continue
					}
					l.sentences = append(l.sentences, ps)
					for i := 1; i < len(ps); i += 2 {
						if content(ps[i], l.cjk) {
							l.vocab = append(l.vocab, ps[i])
						}
					}
				}
			}
		}
	}
	for _, l := range []*lang{c.zh, c.en} {
		if len(l.sentences) == 0 || len(l.vocab) == 0 {
			return nil, fmt.Errorf("corpus %s: not enough Chinese and English text", dirs)
		}
	}
	return c, nil
}

// pieces splits a sentence into what lies between words (odd indexes are words, even ones the
// spaces and punctuation around them), so a sentence with words swapped keeps its punctuation.
func pieces(seg *similarity.Segmenter, s string) []string {
	rs := []rune(s)
	var out []string
	prev := int32(0)
	for _, t := range seg.Tokens(similarity.Normalize(s)) {
		out = append(out, string(rs[prev:t.Start]), string(rs[t.Start:t.End]))
		prev = t.End
	}
	return append(out, string(rs[prev:]))
}

func cjkShare(s string) float64 {
	n, k := 0, 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
			if similarity.IsCJK(r) {
				k++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

func sentences(p string, cjk bool) []string {
	var out []string
	start := 0
	rs := []rune(p)
	for i, r := range rs {
		end := strings.ContainsRune("。！？；", r) || (!cjk && (r == '.' || r == '?' || r == '!') && (i+1 == len(rs) || rs[i+1] == ' '))
		if end {
			out = append(out, strings.TrimSpace(string(rs[start:i+1])))
			start = i + 1
		}
	}
	if s := strings.TrimSpace(string(rs[start:])); s != "" {
		out = append(out, s)
	}
	return out
}

// content says whether a word may be swapped: Chinese words of two characters or more, Latin words
// of four letters or more (function words are shorter).
func content(w string, cjk bool) bool {
	rs := []rune(w)
	if cjk {
		return len(rs) >= 2 && similarity.IsCJK(rs[0])
	}
	if len(rs) < 4 {
		return false
	}
	for _, r := range rs {
		if !unicode.IsLetter(r) || similarity.IsCJK(r) {
			return false
		}
	}
	return true
}

// swapShare of content words are replaced: few runs of five words survive from any one sentence.
const swapShare = 0.8

func (l *lang) sentence(r *rand.Rand) string {
	ps := l.sentences[r.IntN(len(l.sentences))]
	var b strings.Builder
	for i, w := range ps {
		if i%2 == 1 && content(w, l.cjk) && r.Float64() < swapShare {
			w = l.vocab[r.IntN(len(l.vocab))]
		}
		b.WriteString(w)
	}
	return b.String()
}

func (l *lang) paragraph(r *rand.Rand) string {
	want := l.paraLen[r.IntN(len(l.paraLen))]
	var parts []string
	n := 0
	for n < want {
		s := l.sentence(r)
		parts = append(parts, s)
		n += len([]rune(s))
	}
	if l.cjk {
		return strings.Join(parts, "")
	}
	return strings.Join(parts, " ")
}

// Document returns the paragraphs of document i: Chinese or English by the parity of i, so
// libraries hold both.
func (c *Corpus) Document(i, paras int) []string {
	r := rand.New(rand.NewPCG(uint64(i), 0x7e515c4ec4))
	l := c.zh
	if i%2 == 1 {
		l = c.en
	}
	out := make([]string, paras)
	for k := range out {
		out[k] = l.paragraph(r)
	}
	return out
}

// WriteDOCX writes a small package of the parts Word always writes: content types, the package
// relationship, the main document and its relationships (without that last part the docx library
// refuses a file, and extract reads it a second time its own way).
func WriteDOCX(path string, paras []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	parts := []struct{ name, body string }{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`},
		{"word/_rels/document.xml.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>`},
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	for _, p := range paras {
		b.WriteString(`<w:p><w:r><w:t xml:space="preserve">`)
		xml.EscapeText(&b, []byte(p))
		b.WriteString(`</w:t></w:r></w:p>`)
	}
	b.WriteString(`</w:body></w:document>`)
	parts = append(parts, struct{ name, body string }{"word/document.xml", b.String()})
	for _, p := range parts {
		w, err := zw.Create(p.name)
		if err != nil {
			f.Close()
			return err
		}
		if _, err := w.Write([]byte(p.body)); err != nil {
			f.Close()
			return err
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
