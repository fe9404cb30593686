package compare

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/longbridgeapp/opencc"

	"thesischeck/similarity"
)

// A generated class: every student answers the same prompt with their own paragraphs of real prose;
// some students copy a share of another's text, edited the way students edit (words changed and
// dropped, sentences reordered, for Chinese some sentences in traditional characters).

// copyPlan is one copying pair: doc Copier took Share of its text from doc Source.
type copyPlan struct {
	Source, Copier int
	Share          float64
}

type classSpec struct {
	lang    string // "en" or "zh"
	docs    int
	chars   int         // characters of each document's text
	lengths map[int]int // characters of the documents whose length is not chars
	copies  []copyPlan
}

// length is the characters of document d.
func (s classSpec) length(d int) int {
	if n, ok := s.lengths[d]; ok {
		return n
	}
	return s.chars
}

// prompts are the assignment every document quotes in full at its top.
var prompts = map[string]string{
	"en": "Assignment 2 for Systems Administration: in about three pages, describe how you would set up and maintain a small Debian server for a research group, explain the choices you make about packages, users and backups, and support each choice with what you read in the course material.",
	"zh": "课程作业二（系统管理）：请用约两千字说明你将如何为一个研究小组搭建并维护一台小型 Debian 服务器，解释你在软件包、用户和备份方面所做的选择，并结合课程材料中读到的内容说明每一个选择的理由。",
}

// fillers are words a student slips into a copied sentence.
var fillers = map[string][]string{
	"en": {"really", "basically", "usually", "also", "simply", "clearly", "in practice", "generally", "often"},
	"zh": {"其实", "基本上", "通常", "我们认为", "一般来说", "显然", "实际上"},
}

func readProse(t testing.TB, lang string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "prose-"+lang+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// sentences splits a paragraph after each sentence end, keeping the punctuation.
func sentences(p string) []string {
	var out []string
	start := 0
	rs := []rune(p)
	for i, r := range rs {
		end := false
		switch r {
		case '。', '！', '？', '；':
			end = true
		case '.', '!', '?':
			end = i+1 == len(rs) || rs[i+1] == ' '
		}
		if end {
			if s := strings.TrimSpace(string(rs[start : i+1])); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(string(rs[start:])); s != "" {
		out = append(out, s)
	}
	return out
}

// editor rewrites copied sentences.
type editor struct {
	lang string
	rng  *rand.Rand
	s2t  *opencc.OpenCC
}

func (e *editor) edit(s string) string {
	if e.lang == "en" {
		words := strings.Fields(s)
		var out []string
		for _, w := range words {
			switch x := e.rng.Float64(); {
			case x < 0.06: // dropped
				continue
			case x < 0.12: // replaced
				out = append(out, fillers["en"][e.rng.IntN(len(fillers["en"]))])
				continue
			case x < 0.16: // a word slipped in
				out = append(out, fillers["en"][e.rng.IntN(len(fillers["en"]))])
			}
			out = append(out, w)
		}
		return strings.Join(out, " ")
	}
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		switch x := e.rng.Float64(); {
		case x < 0.03: // a character dropped
			continue
		case x < 0.05: // a phrase slipped in
			b.WriteString(fillers["zh"][e.rng.IntN(len(fillers["zh"]))])
		}
		b.WriteRune(rs[i])
	}
	out := b.String()
	if e.rng.IntN(3) == 0 {
		if t, err := e.s2t.Convert(out); err == nil {
			out = t
		}
	}
	return out
}

// makeClass writes the class as text files in a new folder and returns it.
func makeClass(t testing.TB, spec classSpec, seed uint64) string {
	t.Helper()
	pool := readProse(t, spec.lang)
	rng := rand.New(rand.NewPCG(seed, 7))
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	// Own text first, for every document, from disjoint paragraphs of the pool.
	own := make([][]string, spec.docs)
	copier := map[int]copyPlan{}
	for _, c := range spec.copies {
		copier[c.Copier] = c
	}
	next := 0
	for d := range own {
		want := spec.length(d)
		if c, ok := copier[d]; ok {
			want = int(float64(want) * (1 - c.Share))
		}
		for n := 0; n < want; next++ {
			if next == len(pool) {
				t.Fatalf("prose pool of %s too small for %d documents", spec.lang, spec.docs)
			}
			own[d] = append(own[d], pool[next])
			n += utf8.RuneCountInString(pool[next])
		}
	}
	s2t, err := opencc.New("s2t")
	if err != nil {
		t.Fatal(err)
	}
	ed := &editor{lang: spec.lang, rng: rng, s2t: s2t}
	texts := make([][]string, spec.docs)
	for d := range texts {
		texts[d] = append([]string(nil), own[d]...)
	}
	for _, c := range spec.copies {
		// Sentences from a run of the source's paragraphs, about Share of the copier's length.
		var src []string
		for _, p := range own[c.Source] {
			src = append(src, sentences(p)...)
		}
		want := int(float64(spec.length(c.Copier)) * c.Share)
		start := rng.IntN(max(1, len(src)/3))
		var picked []string
		n := 0
		for i := start; n < want; i++ {
			s := src[i%len(src)]
			picked = append(picked, s)
			n += utf8.RuneCountInString(s)
		}
		// Reorder: swap neighbouring sentences now and then.
		for i := 0; i+1 < len(picked); i += 2 {
			if rng.IntN(3) == 0 {
				picked[i], picked[i+1] = picked[i+1], picked[i]
			}
		}
		sep := " "
		if spec.lang == "zh" {
			sep = ""
		}
		var paras []string
		for i := 0; i < len(picked); i += 4 {
			var es []string
			for _, s := range picked[i:min(i+4, len(picked))] {
				es = append(es, ed.edit(s))
			}
			paras = append(paras, strings.Join(es, sep))
		}
		for _, p := range paras {
			at := rng.IntN(len(texts[c.Copier]) + 1)
			texts[c.Copier] = append(texts[c.Copier][:at], append([]string{p}, texts[c.Copier][at:]...)...)
		}
	}
	dir := t.TempDir()
	for d, ps := range texts {
		body := prompts[spec.lang] + "\n\n" + strings.Join(ps, "\n\n") + "\n"
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("student%02d.txt", d)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// docIndex maps "studentNN.txt" to NN for every document of a result.
func docIndex(t testing.TB, res *Result) []int {
	t.Helper()
	out := make([]int, len(res.Documents))
	for i, d := range res.Documents {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(d.Path), "student"), ".txt"))
		if err != nil {
			out[i] = -1
			continue
		}
		out[i] = n
	}
	return out
}

func segmenter(t testing.TB) *similarity.Segmenter {
	t.Helper()
	s, err := similarity.Default()
	if err != nil {
		t.Fatal(err)
	}
	return s
}
