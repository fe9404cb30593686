package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"path/filepath"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/compare"
	"thesischeck/keys"
	"thesischeck/library"
	"thesischeck/report"
)

// compareScreen checks a class's submissions against each other: a similarity matrix ordered so
// that clusters sit together, the flagged pairs, and each pair side by side.
type compareScreen struct {
	g       *gui
	content *fyne.Container

	choose   *widget.Button
	bar      *widget.ProgressBar
	cancel   *widget.Button
	progress *fyne.Container
	status   *widget.Label
	result   *fyne.Container

	res     *compare.Result
	order   []int
	matrix  *heatmap
	flagged []compare.Pair
	pairs   *widget.List
}

func newCompareScreen(g *gui) *compareScreen {
	s := &compareScreen{g: g}
	t := g.t
	s.choose = widget.NewButtonWithIcon(t.T("cmp.choose"), theme.FolderOpenIcon(), s.chooseFolder)
	s.choose.Importance = widget.HighImportance
	intro := widget.NewLabel(t.T("cmp.intro"))
	s.bar = widget.NewProgressBar()
	s.cancel = widget.NewButtonWithIcon(t.T("common.cancel"), theme.CancelIcon(), g.cancelTask)
	s.progress = container.NewBorder(nil, nil, nil, s.cancel, s.bar)
	s.progress.Hide()
	s.status = widget.NewLabel("")
	s.status.TextStyle.Bold = true
	s.result = container.NewStack()
	top := container.NewVBox(container.NewHBox(intro, s.choose), s.progress, s.status)
	s.content = container.NewPadded(container.NewBorder(top, nil, nil, nil, s.result))
	return s
}

func (s *compareScreen) chooseFolder() {
	s.g.chooseFolder(func(path string) { s.run([]string{path}) })
}

// run compares the files under paths in the background.
func (s *compareScreen) run(paths []string) {
	g := s.g
	if !g.idle() {
		return
	}
	s.bar.SetValue(0)
	s.progress.Show()
	s.choose.Disable()
	s.status.SetText("")
	opts := &compare.Options{MinRunChars: g.set.MinRunChars}
	if lib, _ := g.libraryState(); lib != nil {
		opts.Library = lib // its template documents are left out like common text
	}
	g.start(false, func(ctx context.Context, _ *library.Library, _ error) func() {
		gate := g.progressGate()
		res, err := compare.Run(ctx, paths, opts, func(stage string, done, total int) {
			if !gate(nil, done, total) { // one pace for the whole run, as its single bar shows
				return
			}
			fyne.Do(func() { g.compare.stage(stage, done, total) })
		})
		return func() { g.compare.finished(res, err) }
	})
}

// stageShare places each stage's progress in one bar: reading dominates.
var stageShare = map[string][2]float64{
	compare.StageRead: {0, 0.6}, compare.StageCandidates: {0.6, 0.75}, compare.StageAlign: {0.75, 1},
}

func (s *compareScreen) stage(stage string, done, total int) {
	span := stageShare[stage]
	v := span[0]
	if total > 0 {
		v += (span[1] - span[0]) * float64(done) / float64(total)
	}
	s.bar.SetValue(v)
	if stage == compare.StageRead {
		s.status.SetText(s.g.t.T("cmp.running", done, total))
	}
}

func (s *compareScreen) finished(res *compare.Result, err error) {
	t := s.g.t
	s.progress.Hide()
	s.choose.Enable()
	switch {
	case errors.Is(err, context.Canceled):
		s.status.SetText(t.T("cmp.cancelled"))
		return
	case err != nil:
		s.status.SetText("")
		s.g.showError(err)
		return
	}
	s.show(res)
}

// show lays out a result: the matrix on the left, the flagged pairs on the right.
func (s *compareScreen) show(res *compare.Result) {
	t := s.g.t
	s.res = res
	s.order = res.Order()
	s.flagged = res.Flagged()
	s.status.SetText(t.T("cmp.docs", len(res.Documents), len(s.flagged)))

	s.matrix = newHeatmap(res, s.order, s.openPair)
	s.pairs = widget.NewList(func() int { return len(s.flagged) }, func() fyne.CanvasObject {
		fig := canvas.NewText("", color.Black)
		fig.TextStyle.Bold = true
		name := widget.NewLabel("")
		name.Truncation = fyne.TextTruncateEllipsis
		return container.NewBorder(nil, nil, nil, fig, name)
	}, func(id widget.ListItemID, o fyne.CanvasObject) {
		p := s.flagged[id]
		c := o.(*fyne.Container).Objects
		c[0].(*widget.Label).SetText(t.T("cmp.pair", docName(res, p.A), docName(res, p.B)))
		fig := c[1].(*canvas.Text)
		fig.Text = percent(p.Similarity)
		fig.Color = themeColor(similarityColor(p.Similarity))
		fig.Refresh()
	})
	s.pairs.OnSelected = func(id widget.ListItemID) {
		s.pairs.UnselectAll()
		s.openPair(s.flagged[id])
	}
	var pairsBody fyne.CanvasObject = s.pairs
	if len(s.flagged) == 0 {
		pairsBody = container.NewVBox(widget.NewLabel(t.T("cmp.noPairs")))
	}
	export := container.NewHBox()
	for _, kind := range []string{"PDF", "HTML", "JSON"} {
		format := strings.ToLower(kind)
		export.Add(widget.NewButtonWithIcon(t.T("cmp.export", kind), theme.DocumentSaveIcon(), func() {
			s.export("compare."+format, func(path string) error { return exportComparison(res, format, path) })
		}))
	}
	right := container.NewBorder(container.NewBorder(nil, nil, nil, export, boldText(t.T("cmp.pairs"))), nil, nil, nil, pairsBody)
	if bad := res.Failed(); len(bad) > 0 {
		var b strings.Builder
		for _, i := range bad {
			fmt.Fprintf(&b, "%s — %s\n", filepath.Base(res.Documents[i].Path), res.Documents[i].Error)
		}
		failed := wrapLabel(t.T("cmp.failed")+"\n"+strings.TrimSpace(b.String()), 400)
		failed.Importance = widget.DangerImportance
		right = container.NewBorder(nil, failed, nil, nil, right)
	}
	// The matrix's rows and columns, in order, named beside it.
	names := container.NewVBox()
	for k, i := range s.order {
		l := widget.NewLabel(fmt.Sprintf("%d. %s", k+1, docName(res, i)))
		l.SizeName = theme.SizeNameCaptionText
		l.Truncation = fyne.TextTruncateEllipsis
		names.Add(l)
	}
	left := container.NewBorder(boldText(t.T("cmp.matrix")), nil, nil, nil,
		container.NewVSplit(s.matrix, container.NewVScroll(names)))
	split := container.NewHSplit(left, right)
	split.Offset = 0.55
	s.result.Objects = []fyne.CanvasObject{split}
	s.result.Refresh()
}

func docName(res *compare.Result, i int) string {
	if d := res.Documents[i]; d.Title != "" {
		return d.Title
	}
	return filepath.Base(res.Documents[i].Path)
}

// export asks where to save the comparison and saves it there with save.
func (s *compareScreen) export(name string, save func(path string) error) {
	s.g.chooseSaveFile(name, func(path string) {
		if err := save(path); err != nil {
			s.g.showError(err)
		}
	})
}

// exportComparison signs a copy of res with the user's key and writes it to path as format.
func exportComparison(res *compare.Result, format, path string) error {
	s, err := keys.LoadOrCreateUser()
	if err != nil {
		return err
	}
	c := *res
	if err := report.SignComparison(&c, s); err != nil {
		return err
	}
	switch format {
	case "pdf":
		return report.SaveComparisonPDF(path, &c, s)
	case "html":
		return report.SaveComparisonHTML(path, &c)
	}
	return c.SaveJSON(path)
}

// openPair shows a pair side by side, each shared passage in its own colour on both sides.
func (s *compareScreen) openPair(p compare.Pair) {
	v := newPairView(s.g.t, s.res, p)
	title := s.g.t.T("cmp.pair", docName(s.res, p.A), docName(s.res, p.B))
	d := dialog.NewCustom(title, s.g.t.T("common.close"), v, s.g.win)
	d.Resize(fyne.NewSize(min(s.g.win.Canvas().Size().Width-40, 1200), min(s.g.win.Canvas().Size().Height-40, 720)))
	d.Show()
}

// newPairView is the two documents' paragraphs that hold shared passages, marked.
func newPairView(t tr, res *compare.Result, p compare.Pair) fyne.CanvasObject {
	side := func(doc int, spans func(compare.Passage) []compare.Span) fyne.CanvasObject {
		marks := map[int][]mark{}
		var paras []int
		for k, ps := range p.Passages {
			c := sourceColor(report.ColorFor(k))
			for _, sp := range spans(ps) {
				if _, ok := marks[sp.Para]; !ok {
					paras = append(paras, sp.Para)
				}
				marks[sp.Para] = append(marks[sp.Para], mark{start: sp.Start, end: sp.End, color: c})
			}
		}
		box := container.NewVBox()
		scroll := container.NewVScroll(box)
		sort.Ints(paras)
		for _, para := range paras {
			m := newMarkedText()
			m.onWidth = scroll.Refresh
			ms := marks[para]
			sort.Slice(ms, func(i, j int) bool { return ms[i].start < ms[j].start })
			m.Set(res.Documents[doc].Paragraphs[para].Text, ms, false)
			box.Add(m)
			box.Add(widget.NewSeparator())
		}
		head := boldText(docName(res, doc))
		head.Truncation = fyne.TextTruncateEllipsis
		return container.NewBorder(head, nil, nil, nil, scroll)
	}
	figs := widget.NewLabel(t.T("cmp.pairFig", percent(p.Similarity), len(p.Passages), p.SharedChars) + "  ·  " +
		t.T("rep.jaccard", fmt.Sprintf("%.2f", p.Jaccard)))
	return container.NewBorder(figs, nil, nil, nil, container.NewGridWithColumns(2,
		side(p.A, func(ps compare.Passage) []compare.Span { return ps.A }),
		side(p.B, func(ps compare.Passage) []compare.Span { return ps.B }),
	))
}

// heatmap draws the similarity matrix in the documents' cluster order; tapping a cell opens its pair.
type heatmap struct {
	widget.BaseWidget
	res    *compare.Result
	order  []int
	values [][]float64 // in display order
	pairs  map[[2]int]compare.Pair
	onPair func(compare.Pair)
}

func newHeatmap(res *compare.Result, order []int, onPair func(compare.Pair)) *heatmap {
	m := res.Matrix()
	h := &heatmap{res: res, order: order, onPair: onPair, pairs: map[[2]int]compare.Pair{}}
	for _, i := range order {
		row := make([]float64, 0, len(order))
		for _, j := range order {
			row = append(row, m[i][j])
		}
		h.values = append(h.values, row)
	}
	for _, p := range res.Pairs {
		h.pairs[[2]int{p.A, p.B}] = p
	}
	h.ExtendBaseWidget(h)
	return h
}

// maxCell keeps a small class's matrix from turning into a few huge blocks.
const maxCell = 44

// cell is the side of one cell at size.
func (h *heatmap) cell(size fyne.Size) float32 {
	n := float32(max(len(h.order), 1))
	return min(min(size.Width, size.Height)/n, maxCell)
}

func (h *heatmap) Tapped(e *fyne.PointEvent) {
	c := h.cell(h.Size())
	if c <= 0 {
		return
	}
	i, j := int(e.Position.Y/c), int(e.Position.X/c)
	if i < 0 || j < 0 || i >= len(h.order) || j >= len(h.order) || i == j {
		return
	}
	a, b := h.order[i], h.order[j]
	if a > b {
		a, b = b, a
	}
	if p, ok := h.pairs[[2]int{a, b}]; ok && h.onPair != nil {
		h.onPair(p)
	}
}

func (h *heatmap) CreateRenderer() fyne.WidgetRenderer {
	track := themeColor(colorTrack)
	bg := themeColor(theme.ColorNameBackground)
	thr := h.res.Threshold
	var raster *canvas.Raster
	raster = canvas.NewRasterWithPixels(func(x, y, w, hgt int) color.Color {
		n := len(h.order)
		// Pixels to cells: the raster may be drawn at a higher resolution than the widget's size.
		scale := float32(w) / max(raster.Size().Width, 1)
		c := h.cell(raster.Size()) * scale
		if n == 0 || c <= 0 {
			return bg
		}
		i, j := int(float32(y)/c), int(float32(x)/c)
		if i >= n || j >= n {
			return bg
		}
		if i == j {
			return track
		}
		return heatColor(h.values[i][j], thr, bg)
	})
	return widget.NewSimpleRenderer(raster)
}

func (h *heatmap) MinSize() fyne.Size { return fyne.NewSize(200, 200) }

// heatColor shades a similarity: pale for a little shared text, deep red from the flag threshold on.
func heatColor(v, threshold float64, bg color.Color) color.Color {
	if v <= 0 {
		return bg
	}
	strong := min(v/max(threshold*2, 0.01), 1)
	a := uint8(40 + 215*strong)
	if v < threshold {
		return color.NRGBA{0xf5, 0xa6, 0x23, a}
	}
	return color.NRGBA{0xd3, 0x2f, 0x2f, a}
}
