package ui

import (
	"fmt"
	"image/color"
	"path/filepath"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

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

// openDetail shows paragraph i beside its sources in a dialog.
func (s *reportScreen) openDetail(i int) {
	p := &s.r.Paragraphs[i]
	if len(p.Matches) == 0 && len(p.TemplateMatches) == 0 {
		return
	}
	v := newDetailView(s.g.t, s.r, p)
	d := dialog.NewCustom(s.g.t.T("det.title"), s.g.t.T("common.close"), v.content, s.g.win)
	d.Resize(fyne.NewSize(min(s.g.win.Canvas().Size().Width-40, 1200), min(s.g.win.Canvas().Size().Height-40, 720)))
	d.Show()
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
	v.left.Set(p.Text, spanMarks(m.Spans, c), false)
	v.right.Set(m.SourceText, spanMarks(m.SourceSpans, c), false)
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
