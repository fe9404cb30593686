package check

import (
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"thesischeck/extract"
	"thesischeck/internal/hostile"
)

// cutRunes cuts s into pieces of n runes.
func cutRunes(s string, n int) []string {
	rs := []rune(s)
	var out []string
	for i := 0; i < len(rs); i += n {
		out = append(out, string(rs[i:min(i+n, len(rs))]))
	}
	return out
}

// table is a borderless table of cells, cols to a row, a paragraph each.
func table(cells []string, cols int) string {
	var b strings.Builder
	b.WriteString(`<w:tbl><w:tblPr><w:tblBorders><w:top w:val="nil"/><w:left w:val="nil"/><w:bottom w:val="nil"/><w:right w:val="nil"/>` +
		`<w:insideH w:val="nil"/><w:insideV w:val="nil"/></w:tblBorders></w:tblPr>`)
	for i := 0; i < len(cells); i += cols {
		b.WriteString("<w:tr>")
		for _, c := range cells[i:min(i+cols, len(cells))] {
			b.WriteString("<w:tc>" + hostile.Para(html.EscapeString(c)) + "</w:tc>")
		}
		b.WriteString("</w:tr>")
	}
	b.WriteString("</w:tbl>")
	return b.String()
}

func paras(texts []string) string {
	var b strings.Builder
	for _, t := range texts {
		b.WriteString(hostile.Para(html.EscapeString(t)))
	}
	return b.String()
}

// headings are paragraphs of texts in a heading style.
func headings(texts []string) string {
	var b strings.Builder
	for _, t := range texts {
		b.WriteString(`<w:p><w:pPr><w:pStyle w:val="Heading3"/></w:pPr><w:r><w:t xml:space="preserve">` + html.EscapeString(t) + `</w:t></w:r></w:p>`)
	}
	return b.String()
}

const heading3 = `<w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>`

// TestFragmentsReadTogether: copied paragraphs cut into pieces too short to match one by one (the
// cells of a borderless table, paragraphs of a few characters set as lines) are read together and
// counted, with a "fragmented" warning naming the paragraphs; so are lines styled as headings (a
// style can look like body text), with a "filed" warning. A thesis's own text cut so matches
// nothing, a real heading before the copy is no part of it, and copies whole do not warn.
func TestFragmentsReadTogether(t *testing.T) {
	lib := newLibrary(t)
	zh := libPara(t, "zh-wetland.txt", "芦苇、香蒲和菖蒲")
	en := libPara(t, "en-tides.txt", "Many of these birds")
	own := paras(originals[:1])
	words := func(s string, n int) []string {
		ws := strings.Fields(s)
		var out []string
		for i := 0; i < len(ws); i += n {
			out = append(out, strings.Join(ws[i:min(i+n, len(ws))], " "))
		}
		return out
	}
	plain := checkData(t, lib, nil, "plain.docx", hostile.DOCX(own+paras([]string{zh.text, en.text}), ""))
	checkInvariants(t, plain)
	if plain.CopiedChars < 400 || warning(plain, extract.WarnFragmented) != nil {
		t.Fatalf("the copies whole: copied %d, warnings %+v", plain.CopiedChars, plain.Warnings)
	}
	whole := func(text string) int { return findPara(t, plain, text).Matches[0].CopiedChars }
	both := whole(zh.text) + whole(en.text)
	tests := []struct {
		name string
		body string
		want float64 // characters found, at least
	}{
		{"cells of eight characters", table(cutRunes(zh.text, 8), 5) + table(cutRunes(en.text, 8), 5), 0.7 * float64(both)},
		{"cells of three words", table(cutRunes(zh.text, 4), 10) + table(words(en.text, 3), 6), 0.9 * float64(both)},
		{"lines of ten characters", paras(cutRunes(zh.text, 10)) + paras(cutRunes(en.text, 10)), 0.7 * float64(both)},
		{"one character a cell", table(cutRunes(zh.text, 1), 30), 0.9 * float64(whole(zh.text))},
		{"lines styled as headings", headings(cutRunes(zh.text, 10)) + headings(cutRunes(en.text, 12)), 0.7 * float64(both)},
	}
	const chapter = "第二章 湿地植物"
	ownPieces := cutRunes(originals[1], 8)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := checkData(t, lib, nil, "cut.docx", hostile.StyledDOCX(own+headings([]string{chapter})+tt.body+paras(cutRunes(originals[1], 8)), heading3))
			checkInvariants(t, r)
			if p := findPara(t, r, chapter); !p.Heading || len(p.Matches) > 0 {
				t.Errorf("the chapter's heading (heading %v) matched %+v", p.Heading, p.Matches)
			}
			if strings.Contains(tt.name, "headings") {
				if w := warning(r, extract.WarnFiled); w == nil || w.Count != r.CopiedChars {
					t.Errorf("filed warning %+v, copied %d", w, r.CopiedChars)
				}
			}
			if float64(r.CopiedChars) < tt.want {
				t.Errorf("copied %d characters, want at least %.0f", r.CopiedChars, tt.want)
			}
			w := warning(r, extract.WarnFragmented)
			if w == nil || w.Count == 0 || w.Count > r.CopiedChars || len(w.Paragraphs) == 0 {
				t.Fatalf("fragmented warning %+v, copied %d", w, r.CopiedChars)
			}
			for _, i := range w.Paragraphs {
				if p := r.Paragraphs[i]; len(p.Matches) == 0 || slices.Contains(ownPieces, p.Text) {
					t.Errorf("paragraph %d %q warned: %+v", i, p.Text, p.Matches)
				}
			}
			// A piece's source spans are the source's words it meets: a verbatim piece of the
			// Chinese copy is within them, and they are at most the piece and a word on each side
			// (one its edge cut in two).
			for _, p := range r.Paragraphs {
				if slices.Contains(ownPieces, p.Text) && len(p.Matches) > 0 {
					t.Errorf("own text %q matched %+v", p.Text, p.Matches)
				}
				for _, m := range p.Matches {
					if m.SourceText != zh.text || !strings.Contains(zh.text, p.Text) {
						continue
					}
					piece := strings.TrimFunc(spanText(p.Text, m.Spans), unicode.IsPunct)
					if src := spanText(m.SourceText, m.SourceSpans); !strings.Contains(src, piece) || len([]rune(src)) > len([]rune(piece))+8 {
						t.Errorf("piece %q: source spans %v read %q", p.Text, m.SourceSpans, src)
					}
				}
			}
		})
	}
}

// spanText is the text of spans, joined.
func spanText(text string, spans [][2]int) string {
	rs := []rune(text)
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(string(rs[s[0]:s[1]]))
	}
	return b.String()
}

// A longer shortest match measures a fragment's part by the run found across the paragraphs it
// belongs to, not by the paragraph's few characters.
func TestFragmentsMinRun(t *testing.T) {
	lib := newLibrary(t)
	zh := libPara(t, "zh-wetland.txt", "芦苇、香蒲和菖蒲")
	path := filepath.Join(t.TempDir(), "lines.docx")
	if err := os.WriteFile(path, hostile.DOCX(paras(originals[:1])+paras(cutRunes(zh.text, 10)), ""), 0o644); err != nil {
		t.Fatal(err)
	}
	res := checkResult(t, lib, path)
	full := res.Report.CopiedChars
	if full < utf8.RuneCountInString(zh.text)*9/10 {
		t.Fatalf("the lines: %d copied of %d", full, utf8.RuneCountInString(zh.text))
	}
	if r := res.Recompute(nil, 40); r.CopiedChars < full*9/10 {
		t.Errorf("shortest match 40 (lines of 10): %d copied, %d before", r.CopiedChars, full)
	}
	if r := res.Recompute(nil, 1000); r.CopiedChars != 0 {
		t.Errorf("shortest match 1000: %d copied", r.CopiedChars)
	}
}

// A run's text is bounded as a paragraph's is: 10,000 paragraphs of a character each make runs of
// at most maxRunRunes (and a fragment more), covering every paragraph once.
func TestFragmentRunsBounded(t *testing.T) {
	ps := make([]extract.Paragraph, 10_000)
	for i := range ps {
		ps[i] = extract.Paragraph{Text: string(rune(0x4E00 + i%1000)), Section: extract.Body}
	}
	o := (&Options{}).withDefaults()
	runs := fragmentRuns(ps, o)
	next := 0
	for _, r := range runs {
		if r.first != next {
			t.Fatalf("run %d-%d after paragraph %d", r.first, r.last, next-1)
		}
		next = r.last + 1
		if n := utf8.RuneCountInString(r.texts[0].text); n > maxRunRunes+fragmentChars {
			t.Errorf("run %d-%d: %d runes", r.first, r.last, n)
		}
	}
	if next != len(ps) || len(runs) < 2 {
		t.Errorf("%d runs covering %d of %d paragraphs", len(runs), next, len(ps))
	}
}
