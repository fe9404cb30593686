package extract

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pdfStats are the measurements of a document's body text that the layout rules compare
// against.
type pdfStats struct {
	body     float64             // font size of most of the text
	bodyBold bool                // the body text itself is bold
	spacing  map[float64]float64 // usual baseline distance, by rounded font size
	left     [2]float64          // left margin of body lines, on odd [1] and even [0] pages
	right    [2]float64          // right end of full body lines
}

func pdfRoundSize(s float64) float64 { return math.Round(s*2) / 2 }

// pdfMeasure finds the body font size, line spacing and margins by taking the most common
// values, so that title pages, tables and notes do not skew them.
func pdfMeasure(pages []*pdfPage) *pdfStats {
	st := &pdfStats{spacing: map[float64]float64{}}
	sizeChars := map[float64]int{}
	for _, p := range pages {
		for _, l := range p.lines {
			sizeChars[pdfRoundSize(l.size)] += utf8.RuneCountInString(l.text)
		}
	}
	st.body = pdfModeKey(sizeChars, 10)
	boldN, allN := 0, 0
	spacings := map[float64]map[float64]int{}
	lefts := [2]map[float64]int{{}, {}}
	var rights [2][]float64
	for _, p := range pages {
		for i, l := range p.lines {
			sz := pdfRoundSize(l.size)
			if i > 0 {
				q := p.lines[i-1]
				dy := q.y - l.y
				if pdfRoundSize(q.size) == sz && dy > 0.8*sz && dy < 3.5*sz {
					if spacings[sz] == nil {
						spacings[sz] = map[float64]int{}
					}
					spacings[sz][math.Round(dy*2)/2]++
				}
			}
			if math.Abs(sz-st.body) > 0.5 || l.colRight > 0 { // a column's lines have margins of their own
				continue
			}
			allN++
			if l.bold {
				boldN++
			}
			lefts[p.num%2][math.Round(l.x0)]++
			rights[p.num%2] = append(rights[p.num%2], l.x1)
		}
	}
	st.bodyBold = boldN*2 > allN
	for sz, h := range spacings {
		st.spacing[sz] = pdfModeKey(h, 1.2*sz)
	}
	for par := 0; par < 2; par++ {
		if len(lefts[par]) == 0 {
			lefts[par], rights[par] = lefts[1-par], rights[1-par]
		}
		st.left[par] = pdfModeKey(lefts[par], 72)
		r := rights[par]
		sort.Float64s(r)
		if len(r) > 0 {
			st.right[par] = r[len(r)*49/50]
		} else {
			st.right[par] = 540
		}
	}
	return st
}

// pdfModeKey returns the key with the largest count (the larger key on ties), or def.
func pdfModeKey(h map[float64]int, def float64) float64 {
	best, n := def, 0
	for k, c := range h {
		if c > n || c == n && k > best {
			best, n = k, c
		}
	}
	return best
}

func (st *pdfStats) lineSpacing(size float64) float64 {
	if s, ok := st.spacing[pdfRoundSize(size)]; ok {
		return s
	}
	return 1.2 * size
}

// headingStyle reports whether a line is set larger or bolder than the body text.
func (st *pdfStats) headingStyle(l *pdfLine) bool {
	return l.size >= 1.15*st.body || l.bold && !st.bodyBold && l.size >= 0.95*st.body
}

// layoutPDF turns the pages' lines into paragraphs: running headers, footers and page
// numbers are dropped, footnotes become the notes of the paragraph that cites them, and
// lines are joined across wraps and page breaks. Hidden text goes to the paragraph it stood in
// or next to; the hidden text no paragraph could take is returned too.
func layoutPDF(pages []*pdfPage) ([]Paragraph, []Hidden) {
	st := pdfMeasure(pages)
	body := make([][]*pdfLine, len(pages))
	for i, p := range pages {
		for j := range p.lines {
			body[i] = append(body[i], &p.lines[j])
		}
	}
	pdfDropFurniture(pages, body, st)
	notes := make([][]pdfNote, len(pages))
	for i := range pages {
		body[i], notes[i] = pdfTakeFootnotes(body[i], st)
	}
	paras := pdfParagraphs(body, st)
	pdfAttachNotes(paras, pages, notes)
	out := make([]Paragraph, 0, len(paras))
	for _, p := range paras {
		if p.Text != "" {
			out = append(out, p.Paragraph)
		}
	}
	return out, pdfLooseHiddenText(pages, paras, out)
}

// pdfLooseHiddenText gives the hidden text that is in no paragraph (in no line, or in a running
// header or a footnote) to the paragraph before it, and returns what found none, there being no
// paragraph.
func pdfLooseHiddenText(pages []*pdfPage, paras []*pdfPara, out []Paragraph) []Hidden {
	type at struct {
		page int
		y    float64
		para int // index in out
	}
	var lines []at
	inPara := map[*pdfLine]bool{}
	k := -1
	for _, p := range paras {
		if p.Text != "" {
			k++
		}
		for _, l := range p.lines {
			inPara[l] = true
			if k >= 0 {
				lines = append(lines, at{l.page, l.y, k})
			}
		}
	}
	var orphans []orphanHidden
	add := func(page int, y float64, h Hidden) {
		// The first line after the hidden text in reading order; the paragraph before that one
		// had it last.
		i := sort.Search(len(lines), func(i int) bool {
			return lines[i].page > page || lines[i].page == page && lines[i].y <= y
		})
		after := -1
		if i > 0 {
			after = lines[i-1].para
		}
		orphans = append(orphans, orphanHidden{Hidden: h, after: after})
	}
	for _, pg := range pages {
		for _, h := range pg.loose {
			add(pg.num, h.y, h.Hidden)
		}
		for i := range pg.lines {
			l := &pg.lines[i]
			if !inPara[l] {
				for _, h := range l.hidden {
					add(pg.num, l.y, h.Hidden)
				}
			}
		}
	}
	sort.SliceStable(orphans, func(a, b int) bool { return orphans[a].after < orphans[b].after })
	return attachOrphans(out, orphans)
}

// cleanPDFText drops NULs and soft hyphens and collapses runs of white space.
func cleanPDFText(s string) string {
	t, _ := cleanPDFTextAt(s, nil)
	return t
}

// cleanPDFTextAt is cleanPDFText that also maps byte offsets into s (ascending) to rune offsets
// into the result; an offset in white space maps to the end of the word before it.
func cleanPDFTextAt(s string, at []int) (string, []int) {
	var b strings.Builder
	var out []int
	if len(at) > 0 {
		out = make([]int, len(at))
	}
	k, n := 0, 0
	space := false
	for i, r := range s {
		for ; k < len(at) && at[k] <= i; k++ {
			out[k] = n
		}
		switch {
		case r == 0 || r == '\u00ad':
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	for ; k < len(at); k++ {
		out[k] = n
	}
	return b.String(), out
}
