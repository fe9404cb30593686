package ui

import (
	"fmt"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/compare"
)

// The compare screen's two drawings: the similarity matrix with the documents' names, and the
// histogram of the pairs' similarities with the threshold on it.

// heatmap draws the similarity matrix in cluster order, each row named, each column numbered; tapping
// a cell opens its pair. A class of up to allDocs documents is drawn whole; a larger one only by
// the documents that share text with another.
type heatmap struct {
	widget.BaseWidget
	res    *compare.Result
	order  []int // the documents shown, in order
	names  []string
	lookup func(a, b int) *compare.Pair
	marked map[int]bool // documents of the cluster chosen in the list
	onPair func(compare.Pair)
}

// Matrix geometry: a row's name takes labelWidth, the column numbers headerHeight; a cell is
// between minCell (names stay readable; the matrix scrolls) and maxCell (a small class's matrix is
// not a few huge blocks).
const (
	allDocs      = 40
	labelWidth   = 200
	headerHeight = 22
	minCell      = 18
	maxCell      = 40
)

func newHeatmap(t tr, res *compare.Result, onPair func(compare.Pair)) *heatmap {
	newDocs, old := res.Compared()
	all := newDocs+old <= allDocs
	in := make([]bool, len(res.Documents))
	for i, d := range res.Documents {
		in[i] = all && d.Error == "" && d.Skipped == ""
	}
	for _, p := range res.Pairs {
		in[p.A], in[p.B] = true, true
	}
	h := &heatmap{res: res, onPair: onPair, lookup: res.PairLookup()}
	for _, d := range res.Order() {
		if in[d] {
			h.order = append(h.order, d)
		}
	}
	for k, d := range h.order {
		h.names = append(h.names, fmt.Sprintf("%d. %s", k+1, docLabel(t, res, d)))
	}
	h.ExtendBaseWidget(h)
	return h
}

// cell is the side of one cell.
func (h *heatmap) cell() float32 {
	return float32(min(maxCell, max(minCell, 560/max(len(h.order), 1))))
}

// value is the similarity of the documents in rows i and j.
func (h *heatmap) value(i, j int) float64 {
	if p := h.lookup(h.order[i], h.order[j]); p != nil {
		return p.Similarity
	}
	return 0
}

// highlight marks the rows of docs (a cluster), or none.
func (h *heatmap) highlight(docs []int) {
	h.marked = map[int]bool{}
	for _, d := range docs {
		h.marked[d] = true
	}
	h.Refresh()
}

func (h *heatmap) MinSize() fyne.Size {
	side := h.cell() * float32(len(h.order))
	return fyne.NewSize(labelWidth+side+4, headerHeight+side+4)
}

func (h *heatmap) Tapped(e *fyne.PointEvent) {
	c := h.cell()
	x, y := e.Position.X-labelWidth, e.Position.Y-headerHeight
	if x < 0 || y < 0 {
		return
	}
	i, j := int(y/c), int(x/c)
	if i >= len(h.order) || j >= len(h.order) || i == j {
		return
	}
	if p := h.lookup(h.order[i], h.order[j]); p != nil && h.onPair != nil {
		h.onPair(*p)
	}
}

func (h *heatmap) CreateRenderer() fyne.WidgetRenderer {
	r := &heatmapRenderer{h: h}
	r.raster = canvas.NewRasterWithPixels(func(x, y, w, hgt int) color.Color {
		n := len(h.order)
		scale := float32(w) / max(r.raster.Size().Width, 1) // the raster may be drawn at a higher resolution
		c := h.cell() * scale
		bg := themeColor(theme.ColorNameBackground)
		i, j := int(float32(y)/c), int(float32(x)/c)
		if n == 0 || i >= n || j >= n {
			return bg
		}
		if i == j {
			return themeColor(colorTrack)
		}
		return heatColor(h.value(i, j), h.res.Threshold, bg)
	})
	for k := range h.order {
		r.rows = append(r.rows, canvas.NewText("", color.Black))
		r.bands = append(r.bands, canvas.NewRectangle(color.Transparent))
		r.cols = append(r.cols, canvas.NewText(fmt.Sprint(k+1), color.Black))
	}
	r.Refresh()
	return r
}

type heatmapRenderer struct {
	h      *heatmap
	raster *canvas.Raster
	rows   []*canvas.Text      // "k. name" of each row
	bands  []*canvas.Rectangle // behind the names of a highlighted cluster
	cols   []*canvas.Text      // column numbers
}

func (r *heatmapRenderer) Destroy()              {}
func (r *heatmapRenderer) MinSize() fyne.Size    { return r.h.MinSize() }
func (r *heatmapRenderer) Layout(size fyne.Size) { r.layout() }

func (r *heatmapRenderer) Objects() []fyne.CanvasObject {
	out := []fyne.CanvasObject{r.raster}
	for _, b := range r.bands {
		out = append(out, b)
	}
	for _, t := range r.rows {
		out = append(out, t)
	}
	for _, t := range r.cols {
		out = append(out, t)
	}
	return out
}

func (r *heatmapRenderer) Refresh() {
	fg := themeColor(theme.ColorNameForeground)
	muted := themeColor(colorMuted)
	mark := themeColor(theme.ColorNameSelection)
	size := min(theme.CaptionTextSize(), r.h.cell()*0.7)
	for k, d := range r.h.order {
		t := r.rows[k]
		t.Text, t.Color, t.TextSize = fitText(r.h.names[k], size, labelWidth-8), fg, size
		r.bands[k].FillColor = color.Transparent
		if r.h.marked[d] {
			r.bands[k].FillColor = mark
		}
		r.cols[k].Color, r.cols[k].TextSize = muted, min(size, r.h.cell()*0.55)
	}
	r.layout()
	for _, o := range r.Objects() {
		o.Refresh()
	}
}

func (r *heatmapRenderer) layout() {
	c := r.h.cell()
	n := float32(len(r.h.order))
	r.raster.Move(fyne.NewPos(labelWidth, headerHeight))
	r.raster.Resize(fyne.NewSize(c*n, c*n))
	for k := range r.h.order {
		y := headerHeight + c*float32(k)
		t := r.rows[k]
		t.Move(fyne.NewPos(4, y+(c-t.MinSize().Height)/2))
		r.bands[k].Move(fyne.NewPos(0, y))
		r.bands[k].Resize(fyne.NewSize(labelWidth, c))
		col := r.cols[k]
		cs := col.MinSize()
		col.Move(fyne.NewPos(labelWidth+c*float32(k)+(c-cs.Width)/2, headerHeight-cs.Height-2))
	}
}

// fitText shortens s with an ellipsis until it is at most width wide at size.
func fitText(s string, size, width float32) string {
	if fyne.MeasureText(s, size, fyne.TextStyle{}).Width <= width {
		return s
	}
	rs := []rune(s)
	lo, hi := 0, len(rs)
	for lo < hi { // the longest prefix that fits with the ellipsis
		mid := (lo + hi + 1) / 2
		if fyne.MeasureText(string(rs[:mid])+"…", size, fyne.TextStyle{}).Width <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(rs[:lo]) + "…"
}

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

// histogram shows how many pairs share how much, in bins of one percentage point, with the
// threshold as a line: dragging or tapping moves it, and onChange hears the new threshold, as in
// Dolos. Bars at or above the threshold are drawn in the flagged colour.
type histogram struct {
	widget.BaseWidget
	res      *compare.Result
	counts   [histBins]int
	onChange func(float64)
}

// histBins are the bins of the histogram: one per percentage point up to histMax, the last holding
// everything above.
const (
	histBins = 60
	histMax  = 0.6
)

func newHistogram(res *compare.Result, onChange func(float64)) *histogram {
	h := &histogram{res: res, onChange: onChange}
	for _, p := range res.Pairs {
		h.counts[min(histBins-1, int(p.Similarity/histMax*histBins))]++
	}
	h.ExtendBaseWidget(h)
	return h
}

func (h *histogram) MinSize() fyne.Size { return fyne.NewSize(240, 110) }

// valueAt is the threshold at x: whole percentage points, from 1 % to histMax.
func (h *histogram) valueAt(x float32) float64 {
	w := max(h.Size().Width, 1)
	v := math.Round(float64(x/w)*histMax*100) / 100
	return min(histMax, max(0.01, v))
}

// set moves the threshold to the one at x.
func (h *histogram) set(x float32) {
	if v := h.valueAt(x); v != h.res.Threshold && h.onChange != nil {
		h.onChange(v)
	}
}

func (h *histogram) Tapped(e *fyne.PointEvent) { h.set(e.Position.X) }
func (h *histogram) Dragged(e *fyne.DragEvent) { h.set(e.Position.X) }
func (h *histogram) DragEnd()                  {}
func (h *histogram) Cursor() desktop.Cursor    { return desktop.HResizeCursor }
func (h *histogram) CreateRenderer() fyne.WidgetRenderer {
	r := &histRenderer{h: h, line: canvas.NewRectangle(color.Black), label: canvas.NewText("", color.Black),
		axis: canvas.NewRectangle(color.Black), lo: canvas.NewText("0%", color.Black), hi: canvas.NewText(fmt.Sprintf("≥%.0f%%", histMax*100), color.Black)}
	for range histBins {
		r.bars = append(r.bars, canvas.NewRectangle(color.Black))
	}
	r.Refresh()
	return r
}

type histRenderer struct {
	h          *histogram
	bars       []*canvas.Rectangle
	line, axis *canvas.Rectangle
	label      *canvas.Text
	lo, hi     *canvas.Text
	size       fyne.Size
}

func (r *histRenderer) Destroy()           {}
func (r *histRenderer) MinSize() fyne.Size { return r.h.MinSize() }
func (r *histRenderer) Layout(size fyne.Size) {
	r.size = size
	r.layout()
}

func (r *histRenderer) Objects() []fyne.CanvasObject {
	out := []fyne.CanvasObject{r.axis}
	for _, b := range r.bars {
		out = append(out, b)
	}
	return append(out, r.line, r.label, r.lo, r.hi)
}

func (r *histRenderer) Refresh() {
	muted := themeColor(colorMuted)
	for _, t := range []*canvas.Text{r.label, r.lo, r.hi} {
		t.TextSize = theme.CaptionTextSize()
		t.Color = muted
	}
	r.label.Color = themeColor(theme.ColorNameForeground)
	r.label.TextStyle.Bold = true
	r.label.Text = percent(r.h.res.Threshold)
	r.line.FillColor = themeColor(theme.ColorNameForeground)
	r.axis.FillColor = themeColor(colorTrack)
	r.layout()
	for _, o := range r.Objects() {
		o.Refresh()
	}
}

// layout draws the bars on a square-root scale, so that one flagged pair stands out beside a
// hundred that share a little.
func (r *histRenderer) layout() {
	w, h := r.size.Width, r.size.Height
	textH := r.lo.MinSize().Height
	plotH := h - textH - 2
	top := 0
	for _, c := range r.h.counts {
		top = max(top, c)
	}
	bw := w / histBins
	flagged := themeColor(similarityColor(1))
	below := themeColor(colorMuted)
	for k, b := range r.bars {
		bh := float32(0)
		if top > 0 && r.h.counts[k] > 0 {
			bh = max(2, plotH*float32(math.Sqrt(float64(r.h.counts[k])/float64(top))))
		}
		b.FillColor = below
		if float64(k+1)/histBins*histMax > r.h.res.Threshold {
			b.FillColor = flagged
		}
		b.Move(fyne.NewPos(float32(k)*bw+0.5, plotH-bh))
		b.Resize(fyne.NewSize(max(bw-1, 1), bh))
	}
	r.axis.Move(fyne.NewPos(0, plotH))
	r.axis.Resize(fyne.NewSize(w, 1))
	x := float32(min(r.h.res.Threshold, histMax)/histMax) * w
	r.line.Move(fyne.NewPos(x-1, 0))
	r.line.Resize(fyne.NewSize(2, plotH))
	ls := r.label.MinSize()
	r.label.Move(fyne.NewPos(min(max(x+4, 0), w-ls.Width), 0))
	r.lo.Move(fyne.NewPos(0, plotH+1))
	r.hi.Move(fyne.NewPos(w-r.hi.MinSize().Width, plotH+1))
}
