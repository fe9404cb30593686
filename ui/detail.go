package ui

import (
	"fmt"
	"image/color"
	"path/filepath"
	"slices"
	"sort"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/internal/lcs"
	"thesischeck/report"
)

// detailView is a paragraph beside one of its sources, the copied spans highlighted on both sides.
type detailView struct {
	content fyne.CanvasObject
	matches []report.Match
	choose  *widget.Select
	figures *widget.Label
	source  *widget.Label
	left    *markedText
	right   *markedText
}

// openDetail shows paragraph i beside its sources in a dialog, with buttons to the previous and
// next paragraph that copies (among those the filter shows).
func (s *reportScreen) openDetail(i int) {
	p := &s.r.Paragraphs[i]
	if len(p.Matches) == 0 && len(p.TemplateMatches) == 0 {
		return
	}
	t := s.g.t
	holder := container.NewStack()
	var show func(i int)
	prev := widget.NewButtonWithIcon(t.T("det.prev"), theme.NavigateBackIcon(), nil)
	next := widget.NewButtonWithIcon(t.T("det.next"), theme.NavigateNextIcon(), nil)
	next.IconPlacement = widget.ButtonIconTrailingText
	where := widget.NewLabel("")
	show = func(i int) {
		s.detail = newDetailView(t, s.r, &s.r.Paragraphs[i])
		holder.Objects = []fyne.CanvasObject{s.detail.content}
		holder.Refresh()
		flagged := s.flaggedShown()
		k := slices.Index(flagged, i)
		where.SetText(t.T("det.where", k+1, len(flagged)))
		prev.OnTapped = func() { show(flagged[k-1]) }
		next.OnTapped = func() { show(flagged[k+1]) }
		if k > 0 {
			prev.Enable()
		} else {
			prev.Disable()
		}
		if k >= 0 && k+1 < len(flagged) {
			next.Enable()
		} else {
			next.Disable()
		}
	}
	show(i)
	nav := container.NewHBox(prev, where, next)
	d := dialog.NewCustom(t.T("det.title"), t.T("common.close"), container.NewBorder(container.NewCenter(nav), nil, nil, nil, holder), s.g.win)
	d.Resize(fyne.NewSize(min(s.g.win.Canvas().Size().Width-40, 1200), min(s.g.win.Canvas().Size().Height-40, 720)))
	d.Show()
}

// flaggedShown are the paragraphs shown that copy from a source, in order.
func (s *reportScreen) flaggedShown() []int {
	var out []int
	for _, i := range s.visible {
		if len(s.r.Paragraphs[i].Matches) > 0 {
			out = append(out, i)
		}
	}
	return out
}

func newDetailView(t tr, r *report.Report, p *report.Paragraph) *detailView {
	v := &detailView{}
	v.matches = append(append(v.matches, p.Matches...), p.TemplateMatches...)
	var names []string
	for k, m := range v.matches {
		names = append(names, t.T("det.match", k+1, len(v.matches))+" — "+matchSourceName(t, r, m))
	}
	thesisHead := boldText(t.T("det.thesis", p.Index+1))
	v.source = boldText("")
	v.source.Truncation = fyne.TextTruncateEllipsis
	v.figures = widget.NewLabel("")
	v.figures.Wrapping = fyne.TextWrapWord // the plain words are long: at 1024 pixels they take two lines
	v.left = newMarkedText()
	v.right = newMarkedText()
	leftScroll := container.NewVScroll(v.left)
	rightScroll := container.NewVScroll(v.right)
	v.left.onWidth = leftScroll.Refresh
	v.right.onWidth = rightScroll.Refresh

	v.choose = widget.NewSelect(names, func(string) { v.showMatch(t, r, p, v.choose.SelectedIndex()) })
	cols := container.NewGridWithColumns(2,
		container.NewBorder(thesisHead, nil, nil, nil, leftScroll),
		container.NewBorder(v.source, nil, nil, nil, rightScroll),
	)
	top := container.NewVBox(v.choose, v.figures)
	if len(v.matches) == 1 {
		v.choose.Hide()
	}
	v.content = container.NewBorder(top, nil, nil, nil, cols)
	v.choose.SetSelectedIndex(0)
	return v
}

func matchSourceName(t tr, r *report.Report, m report.Match) string {
	if m.Template || m.Source < 0 || m.Source >= len(r.Sources) {
		return t.T("det.template") + " " + filepath.Base(m.SourcePath)
	}
	src := r.Sources[m.Source]
	if src.Title != "" {
		return src.Title
	}
	return filepath.Base(src.Path)
}

// showMatch fills both sides from match k.
func (v *detailView) showMatch(t tr, r *report.Report, p *report.Paragraph, k int) {
	if k < 0 || k >= len(v.matches) {
		return
	}
	m := v.matches[k]
	c := templateColor
	if !m.Template && m.Source >= 0 && m.Source < len(r.Sources) {
		c = sourceColor(r.Sources[m.Source].Color)
	}
	v.source.SetText(t.T("det.source", matchSourceName(t, r, m), m.SourceParagraph+1))
	v.figures.SetText(t.T("rep.hamming", m.Hamming) + "  ·  " + t.T("rep.jaccard", fmt.Sprintf("%.2f", m.Jaccard)) +
		"  ·  " + t.T("det.copied", m.CopiedChars, percent(p.Similarity)))
	left, right := wordMarks([]rune(p.Text), spanMarks(m.Spans, c), []rune(m.SourceText), spanMarks(m.SourceSpans, c))
	v.left.Set(p.Text, left, false)
	v.right.Set(m.SourceText, right, false)
}

// maxWordDiff bounds the characters compared for word-level marks (a product of the two sides'
// marked lengths): beyond it the passages are marked whole.
const maxWordDiff = 4_000_000

// wordMarks marks, inside the copied passages of a and b, the characters the two sides share (the
// longest common subsequence) strongly and the rest weakly: the words a copier changed show pale
// inside the passage that stayed.
func wordMarks(a []rune, am []mark, b []rune, bm []mark) ([]mark, []mark) {
	pos := func(ms []mark) []int {
		var out []int
		for _, m := range ms {
			for k := m.start; k < m.end; k++ {
				out = append(out, k)
			}
		}
		return out
	}
	pa, pb := pos(am), pos(bm)
	if len(pa) == 0 || len(pb) == 0 || len(pa)*len(pb) > maxWordDiff {
		return am, bm
	}
	n, m := len(pa), len(pb)
	pairs := lcs.Pairs(n, m, func(i, j int) bool { return same(a[pa[i]], b[pb[j]]) })
	// A character shared alone, not beside another shared one on both sides (显 of 明显 and 显著),
	// is chance: only runs of two or more count as kept.
	keepA, keepB := make([]bool, n), make([]bool, m)
	for k := 0; k < len(pairs); {
		e := k + 1
		for e < len(pairs) && pairs[e][0] == pairs[e-1][0]+1 && pairs[e][1] == pairs[e-1][1]+1 &&
			pa[pairs[e][0]] == pa[pairs[e-1][0]]+1 && pb[pairs[e][1]] == pb[pairs[e-1][1]]+1 {
			e++
		}
		if e-k >= 2 {
			for _, p := range pairs[k:e] {
				keepA[p[0]], keepB[p[1]] = true, true
			}
		}
		k = e
	}
	return split(am, keepA), split(bm, keepB)
}

// same compares two characters as a reader does: letters without their case.
func same(x, y rune) bool { return unicode.ToLower(x) == unicode.ToLower(y) }

// split cuts marks into runs of kept (strong) and changed (weak) characters.
func split(ms []mark, keep []bool) []mark {
	var out []mark
	k := 0
	for _, m := range ms {
		for i := m.start; i < m.end; i, k = i+1, k+1 {
			weak := !keep[k]
			if n := len(out); n > 0 && out[n-1].end == i && out[n-1].weak == weak {
				out[n-1].end++
				continue
			}
			out = append(out, mark{start: i, end: i + 1, color: m.color, weak: weak})
		}
	}
	return out
}

// spanMarks marks spans in colour c, sorted and merged: a source's spans may overlap when the thesis
// repeats a passage.
func spanMarks(spans [][2]int, c color.NRGBA) []mark {
	sorted := append([][2]int(nil), spans...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i][0] < sorted[j][0] })
	var out []mark
	for _, s := range sorted {
		if n := len(out); n > 0 && s[0] <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, s[1])
			continue
		}
		out = append(out, mark{start: s[0], end: s[1], color: c})
	}
	return out
}
