package ui

import (
	"image/color"
	"sort"

	"thesischeck/report"
)

// reportFilter narrows what the report's text shows; it never changes the report's figures.
type reportFilter struct {
	hideQuotes bool // hide quoted paragraphs and references, and spans inside quotation marks
	source     int  // show this source's paragraphs and spans only; -1 for all
}

// templateColor marks boilerplate, which is shown but never counted.
var templateColor = color.NRGBA{0x9e, 0x9e, 0x9e, 0xff}

// visible returns the indexes of the paragraphs to show.
func (f reportFilter) visible(r *report.Report) []int {
	out := make([]int, 0, len(r.Paragraphs))
	for i := range r.Paragraphs {
		p := &r.Paragraphs[i]
		if f.hideQuotes && (p.Status == "quoted" || p.Section == "references") {
			continue
		}
		if f.source >= 0 && len(f.marks(r, p)) == 0 {
			continue
		}
		out = append(out, i)
	}
	return out
}

// marks are the highlights of p: each copied span in its source's colour, template spans in grey.
func (f reportFilter) marks(r *report.Report, p *report.Paragraph) []mark {
	var out []mark
	add := func(spans [][2]int, c color.NRGBA) {
		for _, sp := range spans {
			if f.hideQuotes && inside(sp, p.Quotes) {
				continue
			}
			out = append(out, quotedParts(mark{start: sp[0], end: sp[1], color: c}, p.Quotes)...)
		}
	}
	for _, m := range p.Matches {
		if f.source >= 0 && m.Source != f.source {
			continue
		}
		if m.Source >= 0 && m.Source < len(r.Sources) {
			add(m.Spans, sourceColor(r.Sources[m.Source].Color))
		}
	}
	if f.source < 0 {
		for _, m := range p.TemplateMatches {
			add(m.Spans, templateColor)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// inside reports whether span lies within one of the quoted passages.
func inside(span [2]int, quotes [][2]int) bool {
	for _, q := range quotes {
		if span[0] >= q[0] && span[1] <= q[1] {
			return true
		}
	}
	return false
}

// quotedParts cuts m where it enters and leaves the quoted passages, marking the parts inside.
func quotedParts(m mark, quotes [][2]int) []mark {
	out := []mark{m}
	for _, q := range quotes {
		last := out[len(out)-1]
		lo, hi := max(last.start, q[0]), min(last.end, q[1])
		if lo >= hi {
			continue
		}
		out = out[:len(out)-1]
		if last.start < lo {
			out = append(out, mark{start: last.start, end: lo, color: last.color})
		}
		out = append(out, mark{start: lo, end: hi, color: last.color, quoted: true})
		if hi < last.end {
			out = append(out, mark{start: hi, end: last.end, color: last.color})
		}
	}
	return out
}
