package check

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/longbridgeapp/opencc"
	"golang.org/x/text/unicode/norm"

	"thesischeck/extract"
	"thesischeck/internal/hostile"
	"thesischeck/internal/screenshot"
	"thesischeck/library"
	"thesischeck/report"
	"thesischeck/similarity"
)

const libDir = "testdata/library"

// newLibrary builds a library in a temporary folder from testdata/library: five theses in Chinese
// and English (three of them open with the same declaration of originality) and a template
// document added as such.
func newLibrary(t *testing.T) *library.Library {
	t.Helper()
	lib, err := library.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	var docs []string
	for _, f := range []string{"zh-wetland.txt", "zh-library.txt", "zh-tea.txt", "en-tides.txt", "en-printing.txt"} {
		docs = append(docs, filepath.Join(libDir, f))
	}
	ctx := context.Background()
	if res, err := lib.AddFiles(ctx, docs, library.AddOptions{}, nil); err != nil || len(res.Added) != len(docs) {
		t.Fatalf("library: %+v %v", res, err)
	}
	if res, err := lib.AddFiles(ctx, []string{filepath.Join(libDir, "template-format.txt")}, library.AddOptions{Template: true}, nil); err != nil || len(res.Added) != 1 {
		t.Fatalf("template: %+v %v", res, err)
	}
	return lib
}

// libraryOf builds a library in a temporary folder of documents given by their text, a TXT file
// each.
func libraryOf(t *testing.T, docs ...string) *library.Library {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, text := range docs {
		path := filepath.Join(dir, fmt.Sprintf("d%02d.txt", i))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	lib, err := library.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	if res, err := lib.AddFiles(context.Background(), paths, library.AddOptions{}, nil); err != nil || len(res.Added) != len(docs) {
		t.Fatalf("library: %+v %v", res, err)
	}
	return lib
}

// source is a paragraph of a library document, as the library stores it.
type source struct {
	path  string // absolute, as reports give it
	index int
	text  string
}

// libPara finds the paragraph of a library file that contains sub.
func libPara(t *testing.T, file, sub string) source {
	t.Helper()
	path := filepath.Join(libDir, file)
	doc, err := extract.File(path)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	for i, p := range doc.Paragraphs {
		if strings.Contains(p.Text, sub) {
			return source{abs, i, p.Text}
		}
	}
	t.Fatalf("%s has no paragraph with %q", file, sub)
	return source{}
}

// sentences splits text after each sentence-final mark.
func sentences(text string) []string {
	var out []string
	start := 0
	rs := []rune(text)
	for i, r := range rs {
		if strings.ContainsRune("。！？.!?", r) && (i+1 == len(rs) || rs[i+1] == ' ' || r > 0x2000) {
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

// checkText checks a TXT thesis made of a title and paras.
func checkText(t *testing.T, lib *library.Library, opts *Options, paras ...string) *report.Report {
	t.Helper()
	r := checkData(t, lib, opts, "thesis.txt", []byte("学位论文检测样本\n\n"+strings.Join(paras, "\n\n")+"\n"))
	checkInvariants(t, r)
	return r
}

// checkResult checks the file at path, keeping what the check found (Check).
func checkResult(t *testing.T, lib *library.Library, path string) *Result {
	t.Helper()
	doc, sha, err := Read(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(context.Background(), lib, doc, sha, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkData checks a file of the given name and content.
func checkData(t *testing.T, lib *library.Library, opts *Options, name string, data []byte) *report.Report {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := File(context.Background(), lib, path, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func findPara(t *testing.T, r *report.Report, text string) *report.Paragraph {
	t.Helper()
	for i := range r.Paragraphs {
		if r.Paragraphs[i].Text == text {
			return &r.Paragraphs[i]
		}
	}
	t.Fatalf("report has no paragraph %q", text)
	return nil
}

func covered(spans [][2]int) int {
	n := 0
	for _, s := range spans {
		n += s[1] - s[0]
	}
	return n
}

func matchFrom(p *report.Paragraph, src source) *report.Match {
	for i := range p.Matches {
		if m := &p.Matches[i]; m.SourcePath == src.path && m.SourceParagraph == src.index {
			return m
		}
	}
	return nil
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// checkInvariants holds for every report: spans are ordered, disjoint rune ranges inside their
// paragraph; no character counts twice; the figures add up from the spans, and a paragraph's
// characters are those similarity.Chars counts and those it does not inside its matches.
func checkInvariants(t *testing.T, r *report.Report) {
	t.Helper()
	total, copied := 0, 0
	perSource := map[int]int{}
	for _, p := range r.Paragraphs {
		rs := []rune(p.Text)
		n := len(rs)
		cc := similarity.CountChars(rs)
		owner := make([]bool, n)
		pc := 0
		for _, ms := range [][]report.Match{p.Matches, p.TemplateMatches} {
			for _, m := range ms {
				for k, s := range m.Spans {
					if s[0] < 0 || s[0] >= s[1] || s[1] > n || (k > 0 && s[0] < m.Spans[k-1][1]) {
						t.Fatalf("paragraph %d (%d runes): bad spans %v", p.Index, n, m.Spans)
					}
					for c := s[0]; c < s[1]; c++ {
						if owner[c] {
							t.Fatalf("paragraph %d: character %d counted twice", p.Index, c)
						}
						owner[c] = true
					}
				}
				written := 0
				for _, s := range m.Spans {
					written += similarity.Written(rs, s)
				}
				if written != m.CopiedChars {
					t.Errorf("paragraph %d: match copied_chars %d, spans cover %d", p.Index, m.CopiedChars, written)
				}
				srcN := utf8.RuneCountInString(m.SourceText)
				for _, s := range m.SourceSpans {
					if s[0] < 0 || s[0] >= s[1] || s[1] > srcN {
						t.Fatalf("paragraph %d: bad source spans %v (%d runes)", p.Index, m.SourceSpans, srcN)
					}
				}
			}
		}
		for _, m := range p.Matches {
			pc += m.CopiedChars
			perSource[m.Source] += m.CopiedChars
			if m.Template {
				t.Errorf("paragraph %d: a template match among the counted ones", p.Index)
			}
		}
		if p.Status == report.StatusExcluded && pc > 0 {
			t.Errorf("paragraph %d is excluded but counts %d copied characters", p.Index, pc)
		}
		chars := cc.Total()
		for k, o := range owner {
			if o && !cc.Counts(k) && !similarity.IsMark(rs[k]) {
				chars++
			}
		}
		total += chars
		if chars > 0 && p.Similarity != round4(float64(pc)/float64(chars)) {
			t.Errorf("paragraph %d: similarity %v, copied %d of %d", p.Index, p.Similarity, pc, chars)
		}
		copied += pc
	}
	if r.TotalChars != total || r.Document.Chars != total || r.CopiedChars != copied {
		t.Errorf("total %d (paragraphs %d), copied %d (matches %d)", r.TotalChars, total, r.CopiedChars, copied)
	}
	if total > 0 {
		if want := round4(float64(r.CopiedChars) / float64(total)); r.Similarity != want {
			t.Errorf("similarity %v, copied/total %v", r.Similarity, want)
		}
		if want := round4(float64(r.CopiedChars-r.QuotedChars) / float64(total)); r.SimilarityExcludingQuotes != want {
			t.Errorf("similarity excluding quotes %v, want %v", r.SimilarityExcludingQuotes, want)
		}
	}
	for i, s := range r.Sources {
		if s.CopiedChars != perSource[i] {
			t.Errorf("source %d: %d copied chars, matches give %d", i, s.CopiedChars, perSource[i])
		}
		if i > 0 && s.CopiedChars > r.Sources[i-1].CopiedChars {
			t.Errorf("sources not ranked: %v", r.Sources)
		}
	}
	if len(r.Sources) > 0 && r.MaxSingleSource != r.Sources[0].Similarity {
		t.Errorf("max single source %v, top source %v", r.MaxSingleSource, r.Sources[0].Similarity)
	}
}

// original paragraphs written for these tests: they share no passage with the library.
var originals = func() []string {
	data, err := os.ReadFile("testdata/original.txt")
	if err != nil {
		panic(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n\n")
}()

func TestCopies(t *testing.T) {
	lib := newLibrary(t)
	wetland := libPara(t, "zh-wetland.txt", "芦苇、香蒲和菖蒲")
	tides := libPara(t, "en-tides.txt", "Many of these birds")
	libr := libPara(t, "zh-library.txt", "许多新建的图书馆")
	printing := libPara(t, "en-printing.txt", "The new technology changed")

	lightZH := strings.NewReplacer("最常见的", "最普遍的", "调查发现", "研究表明", "明显高于", "显著高于").Replace(wetland.text)
	lightEN := strings.NewReplacer("long-distance", "long distance", "without stopping", "non-stop", "alarming", "worrying").Replace(tides.text)
	shuffled := sentences(libr.text)
	slices.Reverse(shuffled)
	shuffledEN := sentences(printing.text)
	shuffledEN[0], shuffledEN[len(shuffledEN)-1] = shuffledEN[len(shuffledEN)-1], shuffledEN[0]

	tests := []struct {
		name     string
		text     string
		src      source
		coverage float64 // share of the paragraph's runes the spans must cover
	}{
		{"verbatim zh", wetland.text, wetland, 0.95},
		{"verbatim en", tides.text, tides, 0.95},
		{"lightly edited zh", lightZH, wetland, 0.7},
		{"lightly edited en", lightEN, tides, 0.7},
		{"sentences reversed zh", strings.Join(shuffled, ""), libr, 0.85},
		{"sentences swapped en", strings.Join(shuffledEN, " "), printing, 0.85},
	}
	var paras []string
	for _, tt := range tests {
		paras = append(paras, tt.text)
	}
	paras = append(paras, originals...)
	r := checkText(t, lib, nil, paras...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := findPara(t, r, tt.text)
			m := matchFrom(p, tt.src)
			if m == nil {
				t.Fatalf("no match with %s paragraph %d; matches %+v", filepath.Base(tt.src.path), tt.src.index, p.Matches)
			}
			n := utf8.RuneCountInString(tt.text)
			if c := covered(m.Spans); float64(c) < tt.coverage*float64(n) {
				t.Errorf("spans %v cover %d of %d runes, want %.0f%%", m.Spans, c, n, 100*tt.coverage)
			}
			if m.SourceText != tt.src.text || p.Status != report.StatusCopied {
				t.Errorf("source text %q, status %q", m.SourceText, p.Status)
			}
			for _, other := range p.Matches {
				if other.SourcePath != tt.src.path {
					t.Errorf("also matched %s paragraph %d", other.SourcePath, other.SourceParagraph)
				}
			}
		})
	}
	for _, o := range originals {
		if p := findPara(t, r, o); len(p.Matches) != 0 || len(p.TemplateMatches) != 0 || p.Status != "" {
			t.Errorf("original paragraph matched: %+v", p)
		}
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings on a clean document: %+v", r.Warnings)
	}
}

// A paragraph stitched from two library documents lists both, each with its own spans in its own
// part of the paragraph.
func TestStitchedParagraph(t *testing.T) {
	lib := newLibrary(t)
	tests := []struct {
		name string
		a, b source
		sep  string
	}{
		{"zh", libPara(t, "zh-wetland.txt", "湿地还是候鸟"), libPara(t, "zh-tea.txt", "清代前期"), ""},
		{"en", libPara(t, "en-tides.txt", "Conservation of tidal flats"), libPara(t, "en-printing.txt", "Printing also created"), " "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sa, sb := sentences(tt.a.text), sentences(tt.b.text)
			partA := strings.Join(sa[:2], tt.sep)
			partB := strings.Join(sb[len(sb)-2:], tt.sep)
			text := partA + tt.sep + partB
			r := checkText(t, lib, nil, text, originals[0])
			p := findPara(t, r, text)
			cut := utf8.RuneCountInString(partA)
			for _, part := range []struct {
				src    source
				lo, hi int
			}{{tt.a, 0, cut}, {tt.b, cut, utf8.RuneCountInString(text)}} {
				m := matchFrom(p, part.src)
				if m == nil {
					t.Fatalf("source %s not listed: %+v", filepath.Base(part.src.path), p.Matches)
				}
				if c := covered(m.Spans); c < (part.hi-part.lo)*8/10 {
					t.Errorf("%s: spans %v cover %d of its %d runes", filepath.Base(part.src.path), m.Spans, c, part.hi-part.lo)
				}
				for _, s := range m.Spans {
					if s[0] < part.lo-2 || s[1] > part.hi+2 {
						t.Errorf("%s: span %v outside its part [%d,%d)", filepath.Base(part.src.path), s, part.lo, part.hi)
					}
				}
			}
			if len(r.Sources) != 2 {
				t.Errorf("sources %+v, want the two documents", r.Sources)
			}
		})
	}
}

// A properly quoted passage counts in similarity, not in similarity_excluding_quotes. Properly:
// its citation points at an entry of the reference list (or a note); quotation marks whose
// citation points at nothing leave copied text copied, with a warning.
func TestQuotedPassage(t *testing.T) {
	lib := newLibrary(t)
	tea := libPara(t, "zh-tea.txt", "清代前期")
	quote := sentences(tea.text)[2] // 出口贸易带来的白银流入江南……
	refs := []string{"参考文献", "[1] 李明. 江南农村经济研究[M]. 北京: 中华书局, 2015.",
		"[2] 陈红. 近代茶叶贸易[J]. 历史研究, 2017, 5(2): 10-20.", "[3] 王芳. 清代茶叶外销与白银[J]. 中国经济史研究, 2019, 3(1): 1-12."}
	quoted := func(cite string) string {
		return "关于茶叶出口的影响，已有研究指出：“" + quote + "”" + cite + "本文在此基础上进一步讨论茶叶价格与江南农户家庭收入之间的关系。"
	}
	tests := []struct {
		name  string
		paras []string
		text  string
		cited bool
		mark  string // the citation the warning names when it is not cited
	}{
		{"numbered entry", append([]string{originals[0], quoted("[3]")}, refs...), quoted("[3]"), true, ""},
		{"range within the list", append([]string{originals[0], quoted("[2-3]")}, refs...), quoted("[2-3]"), true, ""},
		{"author and year of an entry", append([]string{originals[0], quoted("（王芳，2019）")}, refs...), quoted("（王芳，2019）"), true, ""},
		{"no reference list", []string{originals[0], quoted("[3]")}, quoted("[3]"), false, "[3]"},
		{"a number past the list", append([]string{originals[0], quoted("[9]")}, refs...), quoted("[9]"), false, "[9]"},
		{"a range past the list", append([]string{originals[0], quoted("[3-7]")}, refs...), quoted("[3-7]"), false, "[3-7]"},
		{"an author no entry names", append([]string{originals[0], quoted("（赵刚，2019）")}, refs...), quoted("（赵刚，2019）"), false, "（赵刚，2019）"},
		{"a year no entry of the author has", append([]string{originals[0], quoted("（王芳，2021）")}, refs...), quoted("（王芳，2021）"), false, "（王芳，2021）"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := checkText(t, lib, nil, tc.paras...)
			p := findPara(t, r, tc.text)
			m := matchFrom(p, tea)
			if m == nil {
				t.Fatalf("quoted passage not matched: %+v", p)
			}
			qs := strings.Index(tc.text, quote)
			lo := utf8.RuneCountInString(tc.text[:qs])
			hi := lo + utf8.RuneCountInString(quote)
			for _, s := range m.Spans {
				if s[0] < lo || s[1] > hi+1 {
					t.Errorf("span %v outside the quotation [%d,%d)", s, lo, hi)
				}
			}
			w := warning(r, extract.WarnUncited)
			if tc.cited {
				if r.QuotedChars != m.CopiedChars || r.QuotedChars == 0 {
					t.Errorf("quoted chars %d, copied inside the quotation %d", r.QuotedChars, m.CopiedChars)
				}
				if r.Similarity == 0 || r.SimilarityExcludingQuotes != 0 {
					t.Errorf("similarity %v (want > 0), excluding quotes %v (want 0)", r.Similarity, r.SimilarityExcludingQuotes)
				}
				if p.Status != report.StatusQuoted || len(p.Quotes) != 1 {
					t.Errorf("status %q, quotes %v: want %q and the quotation", p.Status, p.Quotes, report.StatusQuoted)
				}
				if w != nil {
					t.Errorf("warning %q for a cited quotation", w.Message)
				}
				return
			}
			if r.QuotedChars != 0 || r.SimilarityExcludingQuotes != r.Similarity || r.Similarity == 0 {
				t.Errorf("quoted %d, similarity %v, excluding quotes %v: want the quotation counted as copied", r.QuotedChars, r.Similarity, r.SimilarityExcludingQuotes)
			}
			if p.Status != report.StatusCopied || len(p.Quotes) != 0 {
				t.Errorf("status %q, quotes %v: want %q and none", p.Status, p.Quotes, report.StatusCopied)
			}
			if w == nil || w.Count != m.CopiedChars || !strings.Contains(w.Message, tc.mark) || len(w.Paragraphs) != 1 || r.Paragraphs[w.Paragraphs[0]].Text != tc.text {
				t.Errorf("warning %+v: want %d characters, %s, the paragraph", w, m.CopiedChars, tc.mark)
			}
		})
	}

	// The same passage without quotation marks and citation is plain copying, and no quotation.
	plain := "关于茶叶出口的影响，" + quote + "本文在此基础上进一步讨论茶叶价格与江南农户家庭收入之间的关系。"
	r := checkText(t, lib, nil, append([]string{originals[0], plain}, refs...)...)
	if r.QuotedChars != 0 || r.SimilarityExcludingQuotes != r.Similarity || r.Similarity == 0 || warning(r, extract.WarnUncited) != nil {
		t.Errorf("unquoted copy: quoted %d, similarity %v, excluding quotes %v, warnings %v", r.QuotedChars, r.Similarity, r.SimilarityExcludingQuotes, r.Warnings)
	}
}

// A thesis made of cited quotations reads 0 % excluding quotes; a warning says how much of it they
// are, when they are more than a quarter.
func TestMostlyQuoted(t *testing.T) {
	lib := newLibrary(t)
	var paras []string
	for i, sub := range []string{"Tidal flats look empty", "Many of these birds"} {
		paras = append(paras, fmt.Sprintf("As the survey puts it, \"%s\" [%d]", libPara(t, "en-tides.txt", sub).text, i+1))
	}
	refs := []string{"References", "[1] Smith, J. Tidal flats. Journal of Coasts, 2019, 3(2): 1-10.", "[2] Chen, M. Shore birds. Ibis, 2020, 5(1): 3-9."}
	r := checkText(t, lib, nil, append(paras, refs...)...)
	w := warning(r, extract.WarnQuoted)
	if r.SimilarityExcludingQuotes != 0 || float64(r.QuotedChars) <= maxQuoted*float64(r.TotalChars) || w == nil ||
		w.Count != r.QuotedChars || len(w.Paragraphs) != 2 {
		t.Fatalf("excluding quotes %v, quoted %d of %d, warning %+v: want 0, over a quarter, a warning naming both paragraphs",
			r.SimilarityExcludingQuotes, r.QuotedChars, r.TotalChars, w)
	}
	// One sentence quoted in a thesis of the student's own text is no warning.
	one := fmt.Sprintf("As the survey puts it, \"%s\" [1]", sentences(libPara(t, "en-tides.txt", "Tidal flats look empty").text)[1])
	r = checkText(t, lib, nil, append([]string{one, originals[0], originals[1]}, refs...)...)
	if r.QuotedChars == 0 || warning(r, extract.WarnQuoted) != nil {
		t.Errorf("quoted %d of %d, warnings %v: want the quotation, no warning", r.QuotedChars, r.TotalChars, r.Warnings)
	}
}

// A reference list copied from a library document is not counted by default, and is with
// IncludeReferences.
func TestReferences(t *testing.T) {
	lib := newLibrary(t)
	ref1 := libPara(t, "en-printing.txt", "[1] Eisenstein")
	ref2 := libPara(t, "en-printing.txt", "[2] Febvre")
	paras := []string{originals[0], originals[1], "参考文献", ref1.text, ref2.text}

	r := checkText(t, lib, nil, paras...)
	if r.CopiedChars != 0 || r.Similarity != 0 {
		t.Errorf("references counted by default: %d copied chars", r.CopiedChars)
	}
	for _, ref := range []source{ref1, ref2} {
		p := findPara(t, r, ref.text)
		if p.Section != string(extract.References) || p.Status != report.StatusExcluded {
			t.Errorf("%q: section %q status %q", ref.text, p.Section, p.Status)
		}
	}
	if !slices.ContainsFunc(r.Excluded, func(e report.Exclusion) bool { return e.Section == "references" && e.Chars > 0 }) {
		t.Errorf("the report does not say references were left out: %+v", r.Excluded)
	}

	r = checkText(t, lib, &Options{IncludeReferences: true}, paras...)
	for _, ref := range []source{ref1, ref2} {
		p := findPara(t, r, ref.text)
		if matchFrom(p, ref) == nil || p.Status != report.StatusCopied {
			t.Errorf("with IncludeReferences, %q: status %q, matches %+v", ref.text, p.Status, p.Matches)
		}
	}
	if r.Similarity == 0 || !r.Settings.IncludeReferences {
		t.Errorf("with IncludeReferences: similarity %v, settings %+v", r.Similarity, r.Settings)
	}
}

// Copied paragraphs filed under a reference-list or declaration heading, or labelled as entries of
// the reference list, are checked and counted with a "filed" warning: what they copy is the running
// text of a library document. Entries and declarations other documents hold too stay left out.
func TestFiledCopies(t *testing.T) {
	lib := newLibrary(t)
	wetland := libPara(t, "zh-wetland.txt", "芦苇、香蒲和菖蒲")
	tea := libPara(t, "zh-tea.txt", "清代前期")
	ref1 := libPara(t, "en-printing.txt", "[1] Eisenstein")
	decl := libPara(t, "zh-wetland.txt", "学位论文原创性声明")
	own := []string{"摘要", originals[0], "第一章 绪论", originals[1]}
	refs := []string{"参考文献", ref1.text}
	tests := []struct {
		name   string
		paras  []string
		copied []source // paragraphs that must be counted
	}{
		// One paragraph: two long ones that cite nothing end a reference list (extract.Structure).
		{"a reference-list heading in the middle", append(append(append([]string{}, own...), "参考文献", wetland.text, "第二章 方法", originals[1]+"本章的方法在此基础上展开。"), refs...),
			[]source{wetland}},
		{"labelled as entries after the list", append(append(append([]string{}, own...), refs...), "[2] "+wetland.text, "[3] "+tea.text),
			[]source{wetland, tea}},
		{"a declaration heading in the body", append(append(append([]string{}, own...), "学位论文原创性声明", wetland.text, "第二章 方法", originals[1]+"本章的方法在此基础上展开。"), refs...),
			[]source{wetland}},
		{"entries and declarations others hold", append(append([]string{"学位论文原创性声明", decl.text}, own...), refs...), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := checkText(t, lib, nil, tc.paras...)
			w := warning(r, extract.WarnFiled)
			counted := 0
			for _, src := range tc.copied {
				var p *report.Paragraph
				for i := range r.Paragraphs {
					if strings.HasSuffix(r.Paragraphs[i].Text, src.text) {
						p = &r.Paragraphs[i]
					}
				}
				if p == nil {
					t.Fatalf("no paragraph holds %q", src.text)
				}
				m := matchFrom(p, src)
				if m == nil || p.Status != report.StatusCopied || p.Section == string(extract.Body) {
					t.Errorf("%q (section %s): status %q, matches %+v: want it counted where it was filed", src.text, p.Section, p.Status, p.Matches)
					continue
				}
				counted += m.CopiedChars
			}
			if len(tc.copied) == 0 {
				if w != nil || r.CopiedChars != 0 {
					t.Errorf("warning %+v, %d copied: want neither", w, r.CopiedChars)
				}
				p := findPara(t, r, ref1.text)
				if p.Status != report.StatusExcluded || len(p.Matches) != 0 {
					t.Errorf("the reference entry: status %q, matches %+v: want it left out", p.Status, p.Matches)
				}
				return
			}
			if w == nil || w.Count != counted || len(w.Paragraphs) != len(tc.copied) || r.CopiedChars != counted {
				t.Errorf("warning %+v, %d copied: want %d characters in %d paragraphs", w, r.CopiedChars, counted, len(tc.copied))
			}
		})
	}

	// Copied paragraphs styled as headings in Word (a style that looks like body text will do).
	t.Run("styled as headings", func(t *testing.T) {
		heading := func(text string) string {
			return `<w:p><w:pPr><w:pStyle w:val="Heading3"/></w:pPr><w:r><w:t>` + text + `</w:t></w:r></w:p>`
		}
		r := checkData(t, lib, nil, "headings.docx", hostile.StyledDOCX(hostile.Para(originals[0])+heading(wetland.text)+heading(tea.text)+hostile.Para(originals[1]),
			`<w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>`))
		w := warning(r, extract.WarnFiled)
		for _, src := range []source{wetland, tea} {
			p := findPara(t, r, src.text)
			if !p.Heading || p.Status != report.StatusCopied || matchFrom(p, src) == nil {
				t.Errorf("%q: heading %v, status %q: want a heading, counted", src.text, p.Heading, p.Status)
			}
		}
		if w == nil || len(w.Paragraphs) != 2 || r.CopiedChars != w.Count || w.Count == 0 {
			t.Errorf("warning %+v, %d copied: want both paragraphs' copies", w, r.CopiedChars)
		}
	})
}

// Template text — from a template document, or held by at least a quarter and at least three of
// the library's documents — is shown as template and counted in neither figure.
func TestTemplateText(t *testing.T) {
	lib := newLibrary(t)
	decl := libPara(t, "zh-wetland.txt", "学位论文原创性声明")
	format := libPara(t, "template-format.txt", "学位论文正文一律使用")
	copied := libPara(t, "en-tides.txt", "Tidal flats look empty")
	paras := []string{decl.text, format.text, originals[0], copied.text}

	r := checkText(t, lib, nil, paras...)
	for _, text := range []string{decl.text, format.text} {
		p := findPara(t, r, text)
		if p.Status != report.StatusTemplate || len(p.Matches) != 0 || len(p.TemplateMatches) == 0 {
			t.Errorf("%q: status %q, %d counted matches, %d template matches", text[:30], p.Status, len(p.Matches), len(p.TemplateMatches))
		}
		if c := covered(p.TemplateMatches[0].Spans); c < utf8.RuneCountInString(text)*9/10 {
			t.Errorf("template spans cover %d of %d", c, utf8.RuneCountInString(text))
		}
	}
	cp := findPara(t, r, copied.text)
	if r.CopiedChars != cp.Matches[0].CopiedChars || r.TemplateChars < utf8.RuneCountInString(decl.text+format.text)*9/10 {
		t.Errorf("copied %d (want the English paragraph's %d), template %d", r.CopiedChars, cp.Matches[0].CopiedChars, r.TemplateChars)
	}
	if r.SimilarityExcludingQuotes != r.Similarity {
		t.Errorf("template text changed one figure: %v vs %v", r.Similarity, r.SimilarityExcludingQuotes)
	}
	for _, s := range r.Sources {
		if strings.HasSuffix(s.Path, "template-format.txt") {
			t.Errorf("the template document is ranked as a source: %+v", s)
		}
	}
	// The template document's text is running text here, and not counted: a source added as a
	// template would make a copy read 0 %, so it warns; the declaration is no running text.
	fp := findPara(t, r, format.text)
	held := 0
	for _, m := range fp.TemplateMatches {
		held += m.CopiedChars
	}
	if w := warning(r, extract.WarnBoilerplate); w == nil || w.Count != held || len(w.Paragraphs) != 1 || r.Paragraphs[w.Paragraphs[0]].Text != format.text {
		t.Errorf("boilerplate warning %+v, want the template document's %d characters", w, held)
	}

	// Two more documents that share an acknowledgement: 2 of 8 is a quarter, but fewer than 3
	// documents, so it is copying; the declaration, 3 of 8, stays template.
	thanks := "感谢我的导师在论文选题、实验设计和写作过程中给予的悉心指导，感谢实验室的同学们在数据采集和整理工作中提供的帮助，也感谢家人多年来对我学习的理解和支持。"
	dir := t.TempDir()
	var extra []string
	for i, body := range []string{sentences(originals[0])[0], sentences(originals[1])[0]} {
		path := filepath.Join(dir, fmt.Sprintf("extra%d.txt", i))
		os.WriteFile(path, []byte("附加论文\n\n"+body+"\n\n致谢\n\n"+thanks+"\n"), 0o644)
		extra = append(extra, path)
	}
	if res, err := lib.AddFiles(context.Background(), extra, library.AddOptions{}, nil); err != nil || len(res.Added) != 2 {
		t.Fatalf("extra documents: %+v %v", res, err)
	}
	r = checkText(t, lib, nil, append(paras, thanks)...)
	if p := findPara(t, r, thanks); p.Status != report.StatusCopied || len(p.Matches) == 0 {
		t.Errorf("text of 2 library documents: status %q, want copied", p.Status)
	}
	if p := findPara(t, r, decl.text); p.Status != report.StatusTemplate {
		t.Errorf("declaration in 3 of 8 documents: status %q, want template", p.Status)
	}

	// Held by 3 of 8 documents is boilerplate at a quarter, not when the share asked for is 60%:
	// then it is copying (the template document's text stays template whatever the share).
	r = checkText(t, lib, &Options{TemplateShare: 0.6}, paras...)
	if p := findPara(t, r, decl.text); p.Status != report.StatusCopied || len(p.Matches) == 0 {
		t.Errorf("declaration at a 60%% share: status %q", p.Status)
	}
	if p := findPara(t, r, format.text); p.Status != report.StatusTemplate {
		t.Errorf("template document text at a 60%% share: status %q", p.Status)
	}
}

// Dodged copies still match their source, with spans on the characters the student wrote, and the
// report warns about the tricks.
// Text no reader sees does not count as characters outside copies: a student who pads the thesis's
// own paragraphs with zero-width characters, runs of spaces (a line of them in a tiny font reads as
// a blank line) or spaces between Chinese characters gets the figures of the thesis as it reads.
func TestPaddingCountsNothing(t *testing.T) {
	lib := newLibrary(t)
	copied := []string{
		libPara(t, "zh-wetland.txt", "芦苇、香蒲和菖蒲").text,
		libPara(t, "en-tides.txt", "Many of these birds").text,
	}
	pad := map[string]func(string) string{
		"zero-width characters": func(s string) string {
			var b strings.Builder
			for _, r := range s {
				b.WriteRune(r)
				b.WriteString(strings.Repeat("\u200b", 5)) // more splits the paragraph (maxParagraphRunes)
			}
			return b.String()
		},
		"runs of spaces": strings.NewReplacer("，", "，"+strings.Repeat(" ", 100), ", ", ","+strings.Repeat(" ", 100)).Replace,
		"spaces between Chinese characters": func(s string) string {
			var b strings.Builder
			for _, r := range s {
				b.WriteRune(r)
				if unicode.Is(unicode.Han, r) {
					b.WriteString("\u3000")
				}
			}
			return b.String()
		},
	}
	plain := checkText(t, lib, nil, append(slices.Clone(copied), originals...)...)
	if plain.CopiedChars == 0 || plain.CopiedChars == plain.TotalChars {
		t.Fatalf("the plain thesis: copied %d of %d", plain.CopiedChars, plain.TotalChars)
	}
	for name, f := range pad {
		t.Run(name, func(t *testing.T) {
			var padded []string
			grew := 0
			for _, p := range originals {
				padded = append(padded, f(p))
				grew += utf8.RuneCountInString(f(p)) - utf8.RuneCountInString(p)
			}
			if grew < 100 {
				t.Fatalf("padding added %d runes to a thesis of %d characters", grew, plain.TotalChars)
			}
			r := checkText(t, lib, nil, append(slices.Clone(copied), padded...)...)
			if r.TotalChars != plain.TotalChars || r.CopiedChars != plain.CopiedChars || r.Similarity != plain.Similarity {
				t.Errorf("padded: copied %d of %d (%.4f), as it reads: %d of %d (%.4f)",
					r.CopiedChars, r.TotalChars, r.Similarity, plain.CopiedChars, plain.TotalChars, plain.Similarity)
			}
			// Padding inside a copy counts with it, as written: it never lowers a figure.
			var both []string
			for _, p := range copied {
				both = append(both, f(p))
			}
			r = checkText(t, lib, nil, append(both, padded...)...)
			if r.Similarity < plain.Similarity {
				t.Errorf("copies padded too: %.4f, less than %.4f", r.Similarity, plain.Similarity)
			}
		})
	}
}

func TestDodges(t *testing.T) {
	lib := newLibrary(t)
	s2t, err := opencc.New("s2t")
	if err != nil {
		t.Fatal(err)
	}
	zw := libPara(t, "zh-library.txt", "社区分馆")
	cyr := libPara(t, "en-printing.txt", "When movable type")
	trad := libPara(t, "zh-wetland.txt", "在湿地公园的规划中")
	spaced := libPara(t, "zh-tea.txt", "明代中期以后")
	hair := libPara(t, "en-tides.txt", "Tidal flats look empty")
	filler := libPara(t, "en-tides.txt", "Many of these birds")
	radical := libPara(t, "zh-wetland.txt", "湿地被称为城市的肾脏")

	// Zero-width characters after every third character.
	var b strings.Builder
	invisible := 0
	for i, r := range []rune(zw.text) {
		b.WriteRune(r)
		if i%3 == 2 {
			b.WriteString("\u200b")
			invisible++
		}
	}
	zwText := b.String()
	// Cyrillic а, е, о for their Latin look-alikes.
	lookalike := strings.Count(cyr.text, "a") + strings.Count(cyr.text, "e") + strings.Count(cyr.text, "o")
	cyrText := strings.NewReplacer("a", "а", "e", "е", "o", "о").Replace(cyr.text)
	tradText, err := s2t.Convert(trad.text)
	if err != nil || tradText == trad.text {
		t.Fatalf("s2t: %v", err)
	}
	spacedText := strings.Join(strings.Split(spaced.text, ""), " ")
	// A hair space after the second letter of every longer word (each word split in two by a gap
	// a reader hardly sees), and Hangul fillers for spaces (blank, as wide as a letter): 0.0 %
	// before, the second with only the invisible warning.
	words := strings.Split(hair.text, " ")
	narrow := 0
	for i, w := range words {
		if len(w) > 4 && unicode.IsLetter(rune(w[1])) && unicode.IsLetter(rune(w[2])) {
			words[i] = w[:2] + "\u200a" + w[2:]
			narrow++
		}
	}
	hairText := strings.Join(words, " ")
	fillerText := strings.ReplaceAll(filler.text, " ", "\u3164")
	// Radicals for the characters they are drawn as: the Kangxi radicals (⼈ for 人) and the
	// supplement's ⻓ for 长. The supplement's matched nothing where they stood.
	drawnAs := map[rune]rune{'长': '\u2ed3'}
	for r := rune(0x2F00); r <= 0x2FD5; r++ {
		if c := []rune(norm.NFKC.String(string(r))); len(c) == 1 {
			drawnAs[c[0]] = r
		}
	}
	capsText := smallCaps(hair.text)
	epsilonText := strings.ReplaceAll(filler.text, "e", "ε")
	thinText := strings.ReplaceAll(cyr.text, " ", "\u2009")
	estimatedText := strings.ReplaceAll(hair.text, "e", "℮")
	capitalIText := strings.ReplaceAll(cyr.text, "l", "I")
	pairsText := strings.NewReplacer("m", "rn", "d", "cl", "w", "vv").Replace(cyr.text)
	invertedText := strings.ReplaceAll(hair.text, "i", "¡")
	radicals := 0
	radicalText := strings.Map(func(r rune) rune {
		if d, ok := drawnAs[r]; ok {
			radicals++
			return d
		}
		return r
	}, radical.text)

	tests := []struct {
		name, text string
		src        source
	}{
		{"zero width", zwText, zw},
		{"cyrillic look-alikes", cyrText, cyr},
		{"traditional", tradText, trad},
		{"spaced", spacedText, spaced},
		{"hair spaces inside words", hairText, hair},
		{"Hangul fillers for spaces", fillerText, filler},
		{"radicals for characters", radicalText, radical},
		// Circled letters (ⓐ), symbols that NFKC reads as letters: 18.8 % of a copy so written was
		// found (44.4 %), its runs measured in letters it had none of.
		{"circled letters", circled(cyr.text), cyr},
		// Small capitals, the IPA block's too (ʙ, ɢ, ʜ, ʟ, ɴ, ʀ): the whole copy read 0.0 %.
		{"small capitals", capsText, hair},
		// Every e as Greek ε, or as e with a stroke (ɇ), and every o as ø: 10.4 % and 29.3 % of
		// the copy found, with no warning.
		{"epsilon for e", epsilonText, filler},
		// Thin spaces for every space: each read off, the copy was one long word (0.0 %).
		{"thin spaces between words", thinText, cyr},
		// Every e as ℮ (the estimated sign): 3.4 %, with no warning.
		{"estimated sign for e", estimatedText, hair},
		// Every l as a capital I, as alike as two letters are in a sans-serif font.
		{"capital I for l", capitalIText, cyr},
		{"letters with strokes", strings.NewReplacer("e", "ɇ", "o", "ø").Replace(filler.text), filler},
		// Every m, d and w as the letter pairs drawn like them (rn, cl, vv): en S001 so written
		// read 28.8 % for 44.4 %, with no warning.
		{"letter pairs for letters", pairsText, cyr},
		// Every i as ¡: 20.7 % with only a split_words warning.
		{"inverted exclamation for i", invertedText, hair},
	}
	var paras []string
	for _, tt := range tests {
		paras = append(paras, tt.text)
	}
	r := checkText(t, lib, nil, append(paras, originals...)...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := findPara(t, r, tt.text)
			m := matchFrom(p, tt.src)
			if m == nil {
				t.Fatalf("no match with its source: %+v", p.Matches)
			}
			rs := []rune(tt.text)
			if c := covered(m.Spans); c < len(rs)*9/10 {
				t.Errorf("spans %v cover %d of %d runes of the original text", m.Spans, c, len(rs))
			}
			// Each span, as written, normalises to a passage of the source: the offsets are in
			// the student's characters, not in the normalised form.
			srcNorm := squash(similarity.Normalize(tt.src.text).String())
			for _, s := range m.Spans {
				got := squash(similarity.Normalize(string(rs[s[0]:s[1]])).String())
				if !strings.Contains(srcNorm, got) {
					t.Errorf("span %v = %q is not a passage of the source", s, string(rs[s[0]:s[1]]))
				}
			}
		})
	}
	warned := map[extract.WarningKind]int{}
	for _, w := range r.Warnings {
		warned[w.Kind] = w.Count
		if !strings.Contains(w.Message, fmt.Sprint(w.Count)) {
			t.Errorf("warning %q does not give its count %d", w.Message, w.Count)
		}
	}
	want := map[extract.WarningKind]int{extract.WarnInvisible: invisible, extract.WarnLookalike: lookalike + similarity.Normalize(capsText).Lookalike + similarity.Normalize(epsilonText).Lookalike + similarity.Normalize(estimatedText).Lookalike + similarity.Normalize(capitalIText).Lookalike + similarity.Normalize(pairsText).LetterPairs + similarity.Normalize(invertedText).Lookalike, extract.WarnNarrowSpaces: narrow + similarity.Normalize(thinText).NarrowSpaces, extract.WarnRadicals: radicals}
	for k, n := range want {
		if warned[k] != n {
			t.Errorf("warning %s: %d, want %d (all warnings %+v)", k, warned[k], n, r.Warnings)
		}
	}
	// Spaces next to punctuation are not between Chinese characters; most of the others are.
	hanPairs := 0
	for i, r := range []rune(spaced.text)[1:] {
		hanPairs += b2i(unicode.Is(unicode.Han, r) && unicode.Is(unicode.Han, []rune(spaced.text)[i]))
	}
	if warned["spaced"] < hanPairs*8/10 || warned["spaced"] > hanPairs {
		t.Errorf("warning spaced: %d, want most of the %d spaces between Han characters", warned["spaced"], hanPairs)
	}
	if warned["traditional"] < 10 {
		t.Errorf("traditional characters: %d warned", warned["traditional"])
	}
}

// circled writes the small letters of s as circled letters (ⓐ for a).
func circled(s string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'ⓐ'
		}
		return r
	}, s)
}

// smallCaps writes the small letters of s as small capitals, as "small caps" text generators do
// (x has none).
func smallCaps(s string) string {
	caps := []rune("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡxʏᴢ")
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' {
			return caps[r-'a']
		}
		return r
	}, s)
}

// squash drops the spaces Normalize keeps between Latin words and punctuation, which a span cut
// out of its paragraph may gain or lose at its edges.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' {
			return -1
		}
		return r
	}, s)
}

// Spaces between Chinese characters are ordinary typography where a link or a cross-reference
// was, next to Latin words and digits, and in letter-spaced headings; only spacing out a passage
// is a dodge, and it takes more than a handful of such spaces to warn.
func TestSpacedTypographyIsNoDodge(t *testing.T) {
	lib := newLibrary(t)
	natural := []string{
		"摘 要",
		"本节介绍系统的总体设计，详细的接口说明 参见 附录 A。检测流程分为提取、规范化、检索和对齐四个步骤，各步骤 之间通过 统一的数据结构传递段落，具体的实现细节 请参考 第 3 章 中的说明。",
		"我们使用 Go 语言实现了原型系统，并在 2024 年 的 数据集上进行了测试。注意 在 第 2.1 节 中给出的阈值只是经验取值，实际应用时 需要根据 文献库的规模重新调整，否则 可能 产生较多的误报。",
		"最后，对 全文的工作 进行了总结。本文 提出的方法 在中文和英文论文上都取得了 较好的 效果，但对于 跨语言复制的检测 仍然无能为力，这是今后 需要继续研究的方向。",
		// A few spaced characters: fewer than it takes to warn.
		"一个短语 被 拆 开 了，但这只是个别现象。",
	}
	r := checkText(t, lib, nil, append(natural, originals...)...)
	for _, w := range r.Warnings {
		t.Errorf("warning on ordinary typography: %+v", w)
	}

	spaced := strings.Join(strings.Split(libPara(t, "zh-tea.txt", "明代中期以后").text, ""), " ")
	r = checkText(t, lib, nil, append(natural, spaced)...)
	if !slices.ContainsFunc(r.Warnings, func(w report.Warning) bool { return w.Kind == "spaced" }) {
		t.Errorf("no warning for a spaced-out paragraph: %+v", r.Warnings)
	}
}

// TestExtractionWarnings: what extraction changed in a document's text is in its report, with
// where it was, before the checker's own warnings.
func TestExtractionWarnings(t *testing.T) {
	lib := newLibrary(t)
	src := libPara(t, "zh-tea.txt", "明代中期以后")
	doc := &extract.Document{Path: "thesis.txt", Format: "txt", Title: "thesis",
		Paragraphs: []extract.Paragraph{{Text: src.text, Section: extract.Body}},
		Warnings:   []extract.Warning{{Kind: "hidden", Count: 7, Message: "7 characters of hidden text were left out", Pages: []int{2}, Paragraphs: []int{0}}},
	}
	r, err := Document(context.Background(), lib, doc, "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) == 0 {
		t.Fatal("no warnings in the report")
	}
	w := r.Warnings[0]
	if w.Kind != "hidden" || w.Count != 7 || w.Message != doc.Warnings[0].Message || !slices.Equal(w.Pages, []int{2}) || !slices.Equal(w.Paragraphs, []int{0}) {
		t.Errorf("report warning %+v, want the extraction's %+v", w, doc.Warnings[0])
	}
	if r.Similarity < 0.9 {
		t.Errorf("similarity %.3f: the warning must not change the check", r.Similarity)
	}
}

// A thesis most of whose text the check leaves out (here a reference list copied from the library,
// and a title) carries a warning that says how much and what; 0 % of nothing checked must not read
// as a clean thesis. Counted as a reference list, it is checked and the warning goes.
func TestMostLeftOutWarns(t *testing.T) {
	lib := newLibrary(t)
	ref1 := libPara(t, "en-printing.txt", "[1] Eisenstein")
	ref2 := libPara(t, "en-printing.txt", "[2] Febvre")
	paras := []string{"参考文献", ref1.text, ref2.text}
	leftOut := func(r *report.Report) *report.Warning {
		for i, w := range r.Warnings {
			if w.Kind == extract.WarnLeftOut {
				return &r.Warnings[i]
			}
		}
		return nil
	}
	r := checkText(t, lib, nil, paras...)
	w := leftOut(r)
	excluded := 0
	for _, e := range r.Excluded {
		excluded += e.Chars
	}
	if w == nil || w.Count != excluded || 2*excluded <= r.TotalChars || !strings.Contains(w.Message, "left out of the check (references)") {
		t.Fatalf("warning %+v; %d of %d characters left out: %+v", w, excluded, r.TotalChars, r.Excluded)
	}
	if r = checkText(t, lib, &Options{IncludeReferences: true}, paras...); leftOut(r) != nil || r.Similarity == 0 {
		t.Errorf("with the references counted: warning %+v, similarity %v", leftOut(r), r.Similarity)
	}
	// A thesis's usual share left out (a title and a short reference list) warns of nothing.
	if r = checkText(t, lib, nil, originals[0], originals[1], "参考文献", ref1.text); leftOut(r) != nil {
		t.Errorf("a thesis with a short reference list: %+v", leftOut(r))
	}
}

func TestLeftOutWarning(t *testing.T) {
	refs, heads := exclusion{section: "references"}, exclusion{section: "headings"}
	tests := []struct {
		excluded map[exclusion]int
		total    int
		want     string // "" for no warning
	}{
		{nil, 100, ""},
		{map[exclusion]int{refs: 50}, 100, ""},
		{map[exclusion]int{refs: 40, heads: 11}, 100, "51 of the 100 characters were left out of the check (headings, references): the figures are of the rest"},
		{map[exclusion]int{refs: 30}, 30, "all 30 characters were left out of the check (references): nothing was checked"},
		{map[exclusion]int{}, 0, ""},
	}
	for _, tt := range tests {
		w, ok := leftOutWarning(tt.excluded, tt.total)
		if got := map[bool]string{true: w.Message}[ok]; got != tt.want {
			t.Errorf("%v of %d: %q, want %q", tt.excluded, tt.total, got, tt.want)
		}
	}
}

// A thesis that shows a copied paragraph as a picture (a screenshot) is checked on its text, and
// its report says that a picture on page 2 shows lines of text, which the figures cannot include.
func TestTextPicturesInReport(t *testing.T) {
	lib := newLibrary(t)
	typed := libPara(t, "en-tides.txt", "Tidal flats look empty")
	shown := libPara(t, "en-tides.txt", "Many of these birds")
	var lines []string
	for words := strings.Fields(shown.text); len(words) > 0; {
		n := min(len(words), 9)
		lines = append(lines, strings.Join(words[:n], " "))
		words = words[n:]
	}
	picture, err := screenshot.PNG(screenshot.Latin(lines))
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := screenshot.PDF(typed.text, "", picture)
	if err != nil {
		t.Fatal(err)
	}
	r := checkData(t, lib, nil, "thesis.pdf", pdf)
	var w *report.Warning
	for i := range r.Warnings {
		if r.Warnings[i].Kind == extract.WarnTextPictures {
			w = &r.Warnings[i]
		}
	}
	if w == nil || w.Count != 1 || !slices.Equal(w.Pages, []int{2}) {
		t.Fatalf("warnings %+v: want one picture of text on page 2", r.Warnings)
	}
	if typed := utf8.RuneCountInString(typed.text); r.CopiedChars < typed*9/10 {
		t.Errorf("copied %d characters: the typed copy (%d) was not found", r.CopiedChars, typed)
	}
	for _, p := range r.Paragraphs {
		if strings.Contains(p.Text, "bar-tailed godwit") {
			t.Errorf("the picture's text was read: %q", p.Text)
		}
	}
}

// TestGarbledInReport: a PDF whose fonts map their glyphs to other characters (the page shows the
// library's paragraphs, the text layer reads a permutation of their characters: testdata/scrambled)
// matches nothing; the report says so in a garbled warning, and the honest PDF of the same page
// finds the copy without one. English whose letters were swapped warns too.
func TestGarbledInReport(t *testing.T) {
	lib := newLibrary(t)
	ctx := context.Background()
	honest, err := File(ctx, lib, "testdata/scrambled/wetland.pdf", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if honest.Similarity < 0.9 || garbled(honest) != nil {
		t.Errorf("honest PDF: similarity %.3f, warnings %+v", honest.Similarity, honest.Warnings)
	}
	r, err := File(ctx, lib, "testdata/scrambled/wetland-scrambled.pdf", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := garbled(r)
	if r.Similarity > 0.05 || w == nil || w.Count < 400 || len(w.Paragraphs) != 3 || !slices.Equal(w.Pages, []int{1}) {
		t.Errorf("scrambled PDF: similarity %.3f, warning %+v", r.Similarity, w)
	}

	tides := libPara(t, "en-tides.txt", "Tidal flats look empty")
	swapped := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case 'A' <= r && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, tides.text)
	r = checkData(t, lib, nil, "rot13.txt", []byte(swapped+"\n"))
	if w := garbled(r); w == nil || !slices.Equal(w.Paragraphs, []int{0}) {
		t.Errorf("letters swapped: warnings %+v", r.Warnings)
	}

	// Chinese in short paragraphs, each too short to be judged alone, every character the next
	// one: judged together they read as no words. The same sentences as written do not.
	var sentences []string
	for _, data := range zhLibrary(t) {
		for _, s := range strings.SplitAfter(data, "。") {
			if s = strings.TrimSpace(s); similarity.HanCount(s) >= 10 && !strings.Contains(s, "声明") {
				sentences = append(sentences, s)
			}
		}
	}
	next := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 0x4E00 && r < 0x9FA5 {
				return r + 1
			}
			return r
		}, s)
	}
	honestShort := checkData(t, lib, nil, "sentences.txt", []byte(strings.Join(sentences, "\n\n")+"\n"))
	if w := garbled(honestShort); w != nil || honestShort.Similarity < 0.5 {
		t.Errorf("%d sentences as written: similarity %.3f, garbled %+v", len(sentences), honestShort.Similarity, w)
	}
	r = checkData(t, lib, nil, "shifted.txt", []byte(next(strings.Join(sentences, "\n\n"))+"\n"))
	if w := garbled(r); w == nil || w.Count*10 < r.TotalChars*9 {
		t.Errorf("%d sentences, each character the next: %d characters, garbled %+v", len(sentences), r.TotalChars, w)
	}
}

func garbled(r *report.Report) *report.Warning { return warning(r, extract.WarnGarbled) }

func warning(r *report.Report, kind extract.WarningKind) *report.Warning {
	for i := range r.Warnings {
		if r.Warnings[i].Kind == kind {
			return &r.Warnings[i]
		}
	}
	return nil
}

// TestBlankFontJunk: junk typed between the words of two library paragraphs in a font whose glyphs
// are empty (testdata/blankfont: the page shows the paragraphs alone) is hidden text. It read 0.0 %,
// with only the garbled warning, whose reason was wrong. With the glyphs' advances kept, the junk
// shows as wide gaps; lines that start or end with one were read as indented or ended short, so
// the paragraphs broke into pieces (34.1 %) until the gaps counted as the line's room.
func TestBlankFontJunk(t *testing.T) {
	lib := newLibrary(t)
	for _, tc := range []struct {
		file string
		min  float64
	}{{"tides-blank.pdf", 0.95}, {"tides-blank-wide.pdf", 0.95}} {
		r, err := File(context.Background(), lib, "testdata/blankfont/"+tc.file, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		w := warning(r, extract.WarnHidden)
		if r.Similarity < tc.min || w == nil || w.Count < 1500 || !strings.Contains(w.Message, "draws nothing") || garbled(r) != nil {
			t.Errorf("%s: similarity %.3f, warnings %+v", tc.file, r.Similarity, r.Warnings)
		}
	}
}

// TestWhitePictures: pictures of nothing that hide text (testdata/whitepicture, made by
// LibreOffice). Junk typed white between the words of three library paragraphs over a white
// picture behind the text stood on a picture, whose colour the page's content does not say, and
// was taken as visible: 0.0 % and no warning. The student's own paragraphs on a second page under
// a white picture in front of the text (a blank page to a reader) padded out the figure of the
// copied first page: 70.8 %.
func TestWhitePictures(t *testing.T) {
	lib := newLibrary(t)
	for _, tc := range []struct {
		file, reason string
		chars        int
	}{{"tides-white-picture.pdf", "white", 1000}, {"tides-covered.pdf", "covered", 400}} {
		r, err := File(context.Background(), lib, "testdata/whitepicture/"+tc.file, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if w := warning(r, extract.WarnHidden); r.Similarity < 0.95 || w == nil || w.Count < tc.chars || !strings.Contains(w.Message, tc.reason) {
			t.Errorf("%s: similarity %.3f, warnings %+v", tc.file, r.Similarity, r.Warnings)
		}
	}
}

// TestLibraryNotes: a library document's footnotes are indexed as its paragraphs are, so a thesis
// that copies another's footnote into its body is found (the library read only the body before).
func TestLibraryNotes(t *testing.T) {
	note := "本注释说明田野调查的抽样方法：研究者在三个县各选取两个行政村，每村按户籍名册等距抽取三十户，由两名调查员分别入户访谈，访谈记录当晚整理并由第三人核对，遇到意见分歧时回访确认。"
	body := "本文讨论乡村治理中的村民自治问题，结合作者在多个县的实地调研，分析了村务公开与村民参与之间的关系。"
	docx := hostile.DOCX(hostile.Para(body, 1),
		`<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>`+
			`<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t>`+note+`</w:t></w:r></w:p></w:footnote>`)
	path := filepath.Join(t.TempDir(), "earlier-thesis.docx")
	if err := os.WriteFile(path, docx, 0o644); err != nil {
		t.Fatal(err)
	}
	lib := newLibrary(t)
	if res, err := lib.AddFiles(context.Background(), []string{path}, library.AddOptions{}, nil); err != nil || len(res.Added) != 1 {
		t.Fatalf("add: %+v %v", res, err)
	}
	own := "我在自己的调查中采用了不同的办法，先走访乡镇干部了解情况，再确定访谈对象。"
	r := checkData(t, lib, nil, "copy.txt", []byte(own+"\n\n"+note+"\n"))
	if n := utf8.RuneCountInString(note); r.CopiedChars < n*9/10 || len(r.Sources) == 0 || !strings.HasSuffix(r.Sources[0].Path, "earlier-thesis.docx") {
		t.Errorf("copied %d of the note's %d characters; sources %+v", r.CopiedChars, n, r.Sources)
	}
}

// TestNotesChecked: library paragraphs moved into a DOCX's footnotes are found and counted (they
// read 0 % when notes were left out), as paragraphs of the notes section after the body.
func TestNotesChecked(t *testing.T) {
	lib := newLibrary(t)
	src := libPara(t, "zh-wetland.txt", "湿地被称为城市的肾脏")
	own := "本文讨论城市规划中的绿地系统建设问题，结合作者在多个城市的实地调研，分析了绿地布局与居民使用之间的关系。"
	docx := hostile.DOCX(hostile.Para(own, 1),
		`<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>`+
			`<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t>`+src.text+`</w:t></w:r></w:p></w:footnote>`)
	r := checkData(t, lib, nil, "notes.docx", docx)
	n := utf8.RuneCountInString(src.text)
	if len(r.Paragraphs) != 2 || r.Paragraphs[1].Section != string(extract.Notes) || r.Paragraphs[1].Text != src.text ||
		len(r.Paragraphs[0].Notes) != 0 || r.CopiedChars < n*9/10 || r.TotalChars != n+utf8.RuneCountInString(own) {
		t.Errorf("paragraphs %+v, copied %d of %d", r.Paragraphs, r.CopiedChars, r.TotalChars)
	}
}

// TestSameFile: a thesis added to the library and then checked finds itself; a warning names the
// source that is the very file (same SHA-256), and leaving that source out ends it.
func TestSameFile(t *testing.T) {
	lib := newLibrary(t)
	copied := libPara(t, "zh-tea.txt", "清代前期")
	path := filepath.Join(t.TempDir(), "thesis.txt")
	if err := os.WriteFile(path, []byte(originals[0]+"\n\n"+originals[1]+"\n\n"+copied.text+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := lib.AddFiles(context.Background(), []string{path}, library.AddOptions{}, nil)
	if err != nil || len(res.Added) != 1 {
		t.Fatalf("add: %+v %v", res, err)
	}
	id := res.Added[0].ID
	result := checkResult(t, lib, path)
	r := result.Report
	w := warning(r, extract.WarnSameFile)
	var self *report.Source
	for i := range r.Sources {
		if r.Sources[i].ID == id {
			self = &r.Sources[i]
		}
	}
	if self == nil || w == nil || w.Count != self.CopiedChars || !strings.Contains(w.Message, fmt.Sprintf("--exclude-source %d", id)) {
		t.Fatalf("sources %+v, warning %+v: want the file itself named", r.Sources, w)
	}
	if r := result.Recompute([]uint64{id}, 0); warning(r, extract.WarnSameFile) != nil || r.Similarity == 0 {
		t.Errorf("without the file itself: similarity %v, warnings %+v: want the copy still found, no same-file warning", r.Similarity, r.Warnings)
	}
	// Another file with the same text is not the same file.
	other := checkData(t, lib, nil, "other.txt", []byte(originals[0]+"\n\n"+originals[1]+"\n\n"+copied.text+"\n\n"))
	if w := warning(other, extract.WarnSameFile); w != nil {
		t.Errorf("another file: warning %+v", w)
	}
}

// A library that shares hardly a word pair with the document (another language) can find nothing
// in it: a "foreign" warning says so, so that its 0 % is not read as a clean result; the same
// thesis against a library holding its language has none.
func TestForeignLibrary(t *testing.T) {
	read := func(file string) string {
		data, err := os.ReadFile(filepath.Join(libDir, file))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	english := libraryOf(t, read("en-tides.txt"), read("en-printing.txt"))
	var thesis []string
	for _, f := range []string{"zh-wetland.txt", "zh-library.txt", "zh-tea.txt"} {
		for _, p := range strings.Split(read(f), "\n") {
			for _, s := range sentences(p) { // a sentence a paragraph: more of them
				if utf8.RuneCountInString(s) >= 26 && !strings.Contains(p, "声明") {
					thesis = append(thesis, s)
				}
			}
		}
	}
	if len(thesis) < 10 {
		t.Fatalf("%d paragraphs: the test needs ten", len(thesis))
	}
	r := checkText(t, english, nil, thesis...)
	if w := warning(r, extract.WarnForeign); w == nil || w.Count < len(thesis)*9/10 || r.CopiedChars != 0 {
		t.Errorf("against English documents: copied %d, warning %+v", r.CopiedChars, w)
	}
	r = checkText(t, newLibrary(t), nil, thesis...)
	if w := warning(r, extract.WarnForeign); w != nil || r.CopiedChars == 0 {
		t.Errorf("against its own sources: copied %d, warning %+v", r.CopiedChars, w)
	}
}

// TestMixedDocumentPrints: a thesis whose paragraphs of English and Chinese alternate is
// fingerprinted as the whole dictionary's segmenter fingerprints each paragraph, with the library's
// weights, though its English paragraphs are made with Latin's words while jieba loads.
func TestMixedDocumentPrints(t *testing.T) {
	lib := newLibrary(t)
	var paras []string
	for _, f := range []string{"en-tides.txt", "zh-wetland.txt", "en-printing.txt", "zh-tea.txt"} {
		doc, err := extract.File(filepath.Join(libDir, f))
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range doc.Paragraphs {
			if len(paras) <= 2*i+1 {
				paras = append(paras, "", "")
			}
			if k := 2*i + strings.Count(f, "zh-"); paras[k] == "" {
				paras[k] = p.Text
			}
		}
	}
	paras = slices.DeleteFunc(paras, func(p string) bool { return p == "" })
	path := filepath.Join(t.TempDir(), "mixed.txt")
	if err := os.WriteFile(path, []byte(strings.Join(paras, "\n\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := checkResult(t, lib, path)
	seg, err := similarity.Default()
	if err != nil {
		t.Fatal(err)
	}
	weights, err := lib.Weights()
	if err != nil {
		t.Fatal(err)
	}
	latin := 0
	for _, p := range res.paras {
		if !similarity.NeedsJieba(p.src.Text) {
			latin++
		}
		want := seg.PrepareWeighted(p.src.Text, weights)
		if !slices.Equal(p.prep.Tokens, want.Tokens) || p.prep.SimHash != want.SimHash || !slices.Equal(p.prep.Grams, want.Grams) {
			t.Errorf("paragraph %.40q: fingerprinted differently", p.src.Text)
		}
	}
	if latin < 4 || latin > len(res.paras)-4 {
		t.Errorf("%d of %d paragraphs without Chinese: not a mixed thesis", latin, len(res.paras))
	}
}

// A thesis padded with paragraphs of its own said again word for word brings its figures down;
// past a tenth of its characters a "repeated" warning counts them (the first saying of each is not
// counted) and names the paragraphs. Fewer repeats, and copies said twice (which raise the
// figure), do not warn.
func TestRepeatedParagraphs(t *testing.T) {
	lib := newLibrary(t)
	copied := libPara(t, "zh-wetland.txt", "芦苇、香蒲和菖蒲").text
	own := originals[0]
	padded := []string{copied, own}
	for range 5 {
		padded = append(padded, own)
	}
	r := checkText(t, lib, nil, padded...)
	w := warning(r, extract.WarnRepeated)
	if w == nil {
		t.Fatalf("no repeated warning: %+v (similarity %.3f)", r.Warnings, r.Similarity)
	}
	ownChars := similarity.CountString(own)
	if w.Count != 5*ownChars || len(w.Paragraphs) != 5 || !strings.Contains(w.Message, fmt.Sprint(w.Count)) {
		t.Errorf("warning %+v, want %d characters in 5 paragraphs", w, 5*ownChars)
	}
	for _, i := range w.Paragraphs {
		if r.Paragraphs[i].Text != own {
			t.Errorf("paragraph %d named is not a repeat: %q", i, r.Paragraphs[i].Text)
		}
	}
	// One repeat in a longer text, and a copy said three times, are no padding to speak of.
	r = checkText(t, lib, nil, copied, copied, copied, own, originals[1], own,
		libPara(t, "zh-tea.txt", "清代前期").text, libPara(t, "zh-tea.txt", "明代中期以后").text,
		libPara(t, "zh-library.txt", "许多新建的图书馆").text, libPara(t, "zh-library.txt", "社区分馆").text)
	if n := similarity.CountString(own); n*10 >= r.TotalChars {
		t.Fatalf("the repeat is %d of %d characters: not under a tenth", n, r.TotalChars)
	}
	if w := warning(r, extract.WarnRepeated); w != nil {
		t.Errorf("warned of %+v", w)
	}
}

// Copied paragraphs joined into one (Word's manual line breaks for paragraph marks, or no breaks
// at all) are each found: a long paragraph gets more candidates than the twelve a paragraph gets.
// Before, a paragraph of all the library's paragraphs found twelve sources, the others missed (79.0 %).
func TestLongParagraphOfCopies(t *testing.T) {
	lib := newLibrary(t)
	var srcs []source
	var joined strings.Builder
	for _, f := range []string{"zh-wetland.txt", "zh-library.txt", "zh-tea.txt", "en-tides.txt", "en-printing.txt"} {
		doc, err := extract.File(filepath.Join(libDir, f))
		if err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(filepath.Join(libDir, f))
		for i, p := range doc.Paragraphs {
			if i == 0 || strings.HasPrefix(p.Text, "学位论文原创性声明") || utf8.RuneCountInString(p.Text) < 60 {
				continue // the title, the declaration every thesis shares, a heading
			}
			srcs = append(srcs, source{abs, i, p.Text})
			if joined.Len() > 0 && strings.HasPrefix(f, "en") {
				joined.WriteString(" ")
			}
			joined.WriteString(p.Text)
		}
	}
	if len(srcs) <= candidateLimit {
		t.Fatalf("%d library paragraphs: no more than a paragraph's twelve candidates", len(srcs))
	}
	r := checkText(t, lib, nil, joined.String())
	for _, s := range srcs {
		found := false
		for i := range r.Paragraphs {
			found = found || matchFrom(&r.Paragraphs[i], s) != nil
		}
		if !found {
			t.Errorf("%s paragraph %d not found", filepath.Base(s.path), s.index)
		}
	}
	if r.Similarity < 0.95 {
		t.Errorf("similarity %.3f", r.Similarity)
	}
}

// A passage three of a library's theses hold is boilerplate by the share rule, but when the
// article they copied it from is in the library, it counts as copied from that article; without
// the article it is not counted, and a warning says that running text went uncounted as
// boilerplate. Before, it read 0 % with nothing said either way.
func TestSharedCopyIsNoBoilerplate(t *testing.T) {
	decl := libPara(t, "zh-wetland.txt", "学位论文原创性声明").text
	passage := libPara(t, "zh-wetland.txt", "芦苇、香蒲和菖蒲").text
	var theses []string
	own := []string{libPara(t, "zh-tea.txt", "清代前期").text, libPara(t, "zh-tea.txt", "明代中期以后").text,
		libPara(t, "zh-library.txt", "许多新建的图书馆").text, libPara(t, "zh-library.txt", "社区分馆").text}
	for i := range 3 {
		// Front matter a third of the text at most, or it is no thesis's (extract.Structure).
		theses = append(theses, fmt.Sprintf("论文%d\n\n%s\n\n摘要\n\n%s\n\n第一章 绪论\n\n%s\n\n%s\n", i, decl, own[i], passage, own[i+1]))
	}
	// The article holds the theses' declaration too (a school's guide may): a declaration stays
	// boilerplate.
	article := "湿地植物\n\n" + passage + "\n\n" + originals[1] + "\n\n" + decl + "\n"
	thesis := []string{originals[0], passage, decl}

	lib := libraryOf(t, theses...)
	if n, known := lib.Theses(); n != 3 || !known {
		t.Fatalf("theses %d (known %v), want 3", n, known)
	}
	r := checkText(t, lib, nil, thesis...)
	p := findPara(t, r, passage)
	if p.Status != report.StatusTemplate || r.CopiedChars != 0 {
		t.Fatalf("without the article: status %q, copied %d; want boilerplate", p.Status, r.CopiedChars)
	}
	held := 0
	for _, m := range p.TemplateMatches {
		held += m.CopiedChars
	}
	// The declaration is boilerplate too, but no running text: the warning names the passage only.
	w := warning(r, extract.WarnBoilerplate)
	if w == nil || w.Count != held || len(w.Paragraphs) != 1 || r.Paragraphs[w.Paragraphs[0]].Text != passage {
		t.Errorf("boilerplate warning %+v (the passage's boilerplate characters %d)", w, held)
	}

	lib = libraryOf(t, append(theses, article)...)
	r = checkText(t, lib, nil, thesis...)
	p = findPara(t, r, passage)
	if p.Status != report.StatusCopied || len(p.Matches) == 0 || !strings.HasSuffix(p.Matches[0].SourcePath, "d03.txt") {
		t.Fatalf("with the article: status %q, matches %+v", p.Status, p.Matches)
	}
	if p.Matches[0].CopiedChars < similarity.CountString(passage)*9/10 || warning(r, extract.WarnBoilerplate) != nil {
		t.Errorf("copied %d of %d, warnings %+v", p.Matches[0].CopiedChars, similarity.CountString(passage), r.Warnings)
	}
	if p := findPara(t, r, decl); p.Status != report.StatusTemplate || len(p.Matches) != 0 {
		t.Errorf("the declaration, which the article holds too: status %q, %d counted matches", p.Status, len(p.Matches))
	}
}

// CollectLess makes the collector run less often until its function is called, then as before.
func TestCollectLess(t *testing.T) {
	before := debug.SetGCPercent(150)
	defer debug.SetGCPercent(before)
	restore := CollectLess()
	during := debug.SetGCPercent(400)
	restore()
	if after := debug.SetGCPercent(150); during <= 150 || after != 150 {
		t.Errorf("collector at 150%% before, %d%% during, %d%% after", during, after)
	}
}
