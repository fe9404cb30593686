package ui

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/report"
)

// percent formats a share the way the reports print it.
func percent(v float64) string { return fmt.Sprintf("%.1f%%", v*100) }

// summaryBand is the top of a report: the overall figure as a gauge, the other figures, and a bar per
// part of the thesis.
func (s *reportScreen) summaryBand(r *report.Report) fyne.CanvasObject {
	t := s.g.t
	g := newGauge(r.Similarity, t.T("rep.overall"))
	s.overall = g

	figure := func(label, value string, c fyne.ThemeColorName) fyne.CanvasObject {
		v := canvas.NewText(value, themeColor(c))
		v.TextSize = theme.TextSize() * 1.7
		v.TextStyle.Bold = true
		l := canvas.NewText(label, themeColor(theme.ColorNamePlaceHolder))
		l.TextSize = theme.TextSize() * 0.95
		s.figures[label] = v
		return container.NewVBox(l, v)
	}
	fg := theme.ColorNameForeground
	figs := container.NewGridWithColumns(2,
		figure(t.T("rep.exclQuotes"), percent(r.SimilarityExcludingQuotes), similarityColor(r.SimilarityExcludingQuotes)),
		figure(t.T("rep.maxSingle"), percent(r.MaxSingleSource), similarityColor(r.MaxSingleSource)),
		figure(t.T("rep.copied"), fmt.Sprintf("%d / %d", r.CopiedChars, r.TotalChars), fg),
		figure(t.T("rep.flagged"), fmt.Sprintf("%d / %d", r.FlaggedParas, len(r.Paragraphs)), fg),
	)

	secs := container.NewVBox(boldText(t.T("rep.sections")))
	// The figure column is as wide as its widest text ("not checked" is wider than "100.0%"), so
	// that no text runs into the bars, and one width for every row keeps the bars aligned.
	figW := float32(72)
	for _, text := range []string{"100.0%", t.T("rep.status.excluded")} {
		figW = max(figW, fyne.MeasureText(text, theme.TextSize(), fyne.TextStyle{Bold: true}).Width+8)
	}
	for _, sec := range r.Sections {
		if sec.Chars == 0 {
			continue
		}
		secs.Add(s.sectionRow(sec, figW))
	}

	bg := canvas.NewRectangle(themeColor(colorBand))
	bg.CornerRadius = 10
	row := container.New(&bandLayout{},
		g,
		container.NewPadded(figs),
		container.NewPadded(container.NewVScroll(secs)),
	)
	return container.NewStack(bg, container.NewPadded(row))
}

// sectionRow is one part of the thesis: its name, a bar of its similarity and the figure.
func (s *reportScreen) sectionRow(sec report.SectionFigure, figW float32) fyne.CanvasObject {
	t := s.g.t
	name := sec.Name
	if t.Has("sec." + name) {
		name = t.T("sec." + name)
	}
	label := canvas.NewText(name, themeColor(theme.ColorNameForeground))
	value := percent(sec.Similarity)
	c := similarityColor(sec.Similarity)
	if !sec.Checked {
		value = t.T("rep.status.excluded")
		c = colorMuted
	}
	fig := canvas.NewText(value, themeColor(c))
	fig.TextStyle.Bold = true
	fig.Alignment = fyne.TextAlignTrailing
	bar := newShareBar(sec.Similarity, themeColor(c))
	return container.New(&columnLayout{[]float32{0, 0, figW}}, label, bar, fig)
}

// bandLayout gives the gauge a fixed width and splits the rest between figures and sections.
type bandLayout struct{}

// The figures never get less than they need (their labels would run into each other); the
// sections get the rest, at least bandSections.
func (b *bandLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	gw := float32(230)
	rest := size.Width - gw
	fw := min(max(rest*0.45, objs[1].MinSize().Width), rest-bandSections)
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(gw, size.Height))
	objs[1].Move(fyne.NewPos(gw, 0))
	objs[1].Resize(fyne.NewSize(fw, size.Height))
	objs[2].Move(fyne.NewPos(gw+fw, 0))
	objs[2].Resize(fyne.NewSize(rest-fw, size.Height))
}

// bandSections is the least width of the band's section bars.
const bandSections = 240

func (b *bandLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := max(objs[0].MinSize().Height, objs[1].MinSize().Height)
	return fyne.NewSize(230+objs[1].MinSize().Width+bandSections, max(h, 170))
}

func themeColor(n fyne.ThemeColorName) color.Color {
	return fyne.CurrentApp().Settings().Theme().Color(n, fyne.CurrentApp().Settings().ThemeVariant())
}

func boldText(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.TextStyle.Bold = true
	return l
}

// gauge is a half ring filled to a share, with the figure large in its middle.
type gauge struct {
	widget.BaseWidget
	value float64
	label string
}

func newGauge(value float64, label string) *gauge {
	g := &gauge{value: value, label: label}
	g.ExtendBaseWidget(g)
	return g
}

// Text is the figure the gauge shows.
func (g *gauge) Text() string { return percent(g.value) }

func (g *gauge) CreateRenderer() fyne.WidgetRenderer {
	c := themeColor(similarityColor(g.value))
	track := canvas.NewArc(-90, 90, 0.72, themeColor(colorTrack))
	fill := canvas.NewArc(-90, -90+float32(min(g.value, 1))*180, 0.72, c)
	figure := canvas.NewText(g.Text(), c)
	figure.TextStyle.Bold = true
	figure.TextSize = theme.TextSize() * 2.6
	figure.Alignment = fyne.TextAlignCenter
	label := canvas.NewText(g.label, themeColor(theme.ColorNameForeground))
	label.TextStyle.Bold = true
	label.Alignment = fyne.TextAlignCenter
	objs := []fyne.CanvasObject{track, fill, figure, label}
	return &gaugeRenderer{objs: objs, track: track, fill: fill, figure: figure, label: label}
}

type gaugeRenderer struct {
	objs          []fyne.CanvasObject
	track, fill   *canvas.Arc
	figure, label *canvas.Text
}

func (r *gaugeRenderer) Destroy()                     {}
func (r *gaugeRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *gaugeRenderer) Refresh()                     {}
func (r *gaugeRenderer) MinSize() fyne.Size           { return fyne.NewSize(200, 160) }

func (r *gaugeRenderer) Layout(size fyne.Size) {
	d := min(size.Width-20, (size.Height-30)*2)
	cx, cy := size.Width/2, 10+d/2
	for _, a := range []*canvas.Arc{r.track, r.fill} {
		a.Resize(fyne.NewSize(d, d))
		a.Move(fyne.NewPos(cx-d/2, cy-d/2))
	}
	fh := r.figure.MinSize().Height
	r.figure.Move(fyne.NewPos(0, cy-fh))
	r.figure.Resize(fyne.NewSize(size.Width, fh))
	lh := r.label.MinSize().Height
	r.label.Move(fyne.NewPos(0, cy+4))
	r.label.Resize(fyne.NewSize(size.Width, lh))
}

// shareBar is a thin horizontal bar filled to a share.
type shareBar struct {
	widget.BaseWidget
	value float64
	color color.Color
}

func newShareBar(v float64, c color.Color) *shareBar {
	b := &shareBar{value: v, color: c}
	b.ExtendBaseWidget(b)
	return b
}

func (b *shareBar) CreateRenderer() fyne.WidgetRenderer {
	track := canvas.NewRectangle(themeColor(colorTrack))
	track.CornerRadius = 3
	fill := canvas.NewRectangle(b.color)
	fill.CornerRadius = 3
	return &barRenderer{b: b, track: track, fill: fill}
}

type barRenderer struct {
	b           *shareBar
	track, fill *canvas.Rectangle
}

func (r *barRenderer) Destroy()                     {}
func (r *barRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.track, r.fill} }
func (r *barRenderer) MinSize() fyne.Size           { return fyne.NewSize(60, 10) }

func (r *barRenderer) Refresh() {
	r.fill.FillColor = r.b.color
	r.Layout(r.b.Size())
	canvas.Refresh(r.b)
}

func (r *barRenderer) Layout(size fyne.Size) {
	h := float32(10)
	y := (size.Height - h) / 2
	r.track.Move(fyne.NewPos(0, y))
	r.track.Resize(fyne.NewSize(size.Width, h))
	w := size.Width * float32(min(max(r.b.value, 0), 1))
	if r.b.value > 0 {
		w = max(w, 3)
	}
	r.fill.Move(fyne.NewPos(0, y))
	r.fill.Resize(fyne.NewSize(w, h))
}
