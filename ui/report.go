package ui

import (
	"fmt"
	"image/color"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/check"
	"thesischeck/extract"
	"thesischeck/keys"
	"thesischeck/report"
	"thesischeck/rules"
)

// reportScreen shows one report: the summary band, the ranked sources and the text with its copied
// spans highlighted.
type reportScreen struct {
	g       *gui
	content *fyne.Container
	r       *report.Report
	// res is the check behind r when this app made it (nil for a report opened from a file), so
	// that sources can be left out; excluded are those left out, and r is res.With(excluded).
	res      *check.Result
	excluded []uint64
	minRun   int // the shortest match counted, when the reader asked for a longer one than the check's

	overall *gauge
	verdict *widget.Label           // the school's verdict under the figures, when rules are set
	figures map[string]*canvas.Text // summary figures by label, for tests

	filter    reportFilter
	visible   []int // indexes of the paragraphs shown
	list      *widget.List
	heights   *rowHeights
	shown     *widget.Label
	srcSel    *widget.Select
	minLbl    *widget.Label
	minSlider *widget.Slider
	detail    *detailView // the side-by-side view open last, for tests
}

func newReportScreen(g *gui) *reportScreen {
	s := &reportScreen{g: g, figures: map[string]*canvas.Text{}}
	none := widget.NewLabel(g.t.T("rep.none"))
	verify := widget.NewButtonWithIcon(g.t.T("ver.button"), theme.ConfirmIcon(), g.chooseReport)
	s.content = container.NewStack(container.NewCenter(container.NewVBox(none, container.NewCenter(verify))))
	return s
}

// showResult shows the report of a check just made, every source counted.
func (s *reportScreen) showResult(res *check.Result) {
	s.res, s.excluded, s.minRun = res, nil, 0
	s.show(s.g.set.judged(res.Report))
}

// setExcluded leaves the source id out of the figures, or counts it again, and shows the report
// recomputed: every figure, the text's marks and what an export signs.
func (s *reportScreen) setExcluded(id uint64, out bool) {
	if s.res == nil || slices.Contains(s.excluded, id) == out {
		return
	}
	if out {
		s.excluded = append(slices.Clone(s.excluded), id)
	} else {
		s.excluded = slices.DeleteFunc(slices.Clone(s.excluded), func(x uint64) bool { return x == id })
	}
	s.recompute()
}

// recompute shows the report of s.res without the sources excluded, judged by the rules set.
func (s *reportScreen) recompute() {
	res, excluded, minRun, set := s.res, s.excluded, s.minRun, s.g.set
	// Building a long thesis's report again takes a moment: off the UI goroutine, the last toggle wins.
	s.g.pending.Add(1)
	go func() {
		defer s.g.pending.Done()
		r := set.judged(res.Recompute(excluded, minRun))
		fyne.Do(func() {
			if s.res == res && slices.Equal(s.excluded, excluded) && s.minRun == minRun {
				s.show(r)
			}
		})
	}()
}

// show replaces the screen's content with r.
func (s *reportScreen) show(r *report.Report) {
	s.r = r
	s.figures = map[string]*canvas.Text{}
	s.filter = reportFilter{source: -1}
	t := s.g.t

	title := r.Document.Title
	if title == "" {
		title = filepath.Base(r.Document.Path)
	}
	head := widget.NewLabel(title)
	head.TextStyle.Bold = true
	head.Truncation = fyne.TextTruncateEllipsis
	sub := widget.NewLabel(strings.Join([]string{
		t.T("rep.number", r.Number), filepath.Base(r.Document.Path),
		t.T("rep.libSize", r.Library.Documents),
		t.T("rep.settings", r.Settings.MaxHamming, r.Settings.MinRunChars),
	}, "  ·  "))
	sub.SizeName = theme.SizeNameCaptionText
	sub.Truncation = fyne.TextTruncateEllipsis
	exports := container.NewHBox(
		widget.NewButtonWithIcon(t.T("rep.export.pdf"), theme.DocumentSaveIcon(), func() { s.export("pdf") }),
		widget.NewButtonWithIcon(t.T("rep.export.html"), theme.DocumentSaveIcon(), func() { s.export("html") }),
		widget.NewButtonWithIcon(t.T("rep.export.json"), theme.DocumentSaveIcon(), func() { s.export("json") }),
		widget.NewButtonWithIcon(t.T("ver.button"), theme.ConfirmIcon(), s.g.chooseReport),
	)
	header := container.NewBorder(nil, nil, nil, container.NewCenter(exports), container.NewVBox(head, sub))

	top := container.NewVBox(header, s.summaryBand(r))
	if v := r.Verdict; v != nil {
		s.verdict = widget.NewLabel(t.verdictText(v))
		s.verdict.TextStyle.Bold = true
		s.verdict.Wrapping = fyne.TextWrapWord
		switch v.Outcome {
		case rules.Pass:
			s.verdict.Importance = widget.SuccessImportance
		case rules.Revise, rules.Review:
			s.verdict.Importance = widget.WarningImportance
		case rules.Fail:
			s.verdict.Importance = widget.DangerImportance
		}
		top.Add(s.verdict)
	} else {
		s.verdict = nil
	}
	if w := s.warnings(r); w != nil {
		top.Add(w)
	}

	split := container.NewHSplit(s.sidePanel(r), s.textPanel(r))
	split.Offset = 0.3
	s.content.Objects = []fyne.CanvasObject{container.NewPadded(container.NewBorder(top, nil, nil, nil, split))}
	s.content.Refresh()
	s.applyFilter()
}

// warnings lists the report's warnings (dodges such as invisible characters) in a strip.
func (s *reportScreen) warnings(r *report.Report) fyne.CanvasObject {
	if len(r.Warnings) == 0 {
		return nil
	}
	t := s.g.t
	box := container.NewVBox()
	for _, w := range r.Warnings {
		l := wrapLabel(t.warningText(w), 1000)
		box.Add(container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, l))
	}
	bg := canvas.NewRectangle(themeColor(colorWarnBack))
	bg.CornerRadius = 8
	return container.NewStack(bg, box)
}

// warningText is a warning in the words of the table, with where it was; a kind the table does
// not know keeps the core's message.
func (t tr) warningText(w report.Warning) string {
	key := "warn." + string(w.Kind)
	if !t.Has(key) {
		return w.Message
	}
	msg := t.T(key)
	if strings.Contains(msg, "%") {
		msg = t.T(key, w.Count)
	}
	return msg + t.warningWhere(w)
}

// warningWhere says where a warning's finds are, in the words of the table: the pages, or else the
// paragraphs (numbered from 1), at most ten of them.
func (t tr) warningWhere(w report.Warning) string {
	key, xs, base := "warn.pages", w.Pages, 0
	if len(xs) == 0 {
		key, xs, base = "warn.paragraphs", w.Paragraphs, 1
	}
	if len(xs) == 0 {
		return ""
	}
	if len(xs) == 1 {
		key = strings.TrimSuffix(key, "s")
	}
	parts := make([]string, 0, min(len(xs), 11))
	for i, x := range xs {
		if i == 10 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, strconv.Itoa(x+base))
	}
	return t.T(key, strings.Join(parts, t.T("list.sep")))
}

// sidePanel is the ranked source list and what the check left out.
func (s *reportScreen) sidePanel(r *report.Report) fyne.CanvasObject {
	t := s.g.t
	items := container.NewVBox(boldText(t.T("rep.sources")))
	if len(r.Sources) == 0 {
		items.Add(widget.NewLabel(t.T("rep.noSources")))
	}
	for i, src := range r.Sources {
		items.Add(s.sourceRow(i, src))
	}
	if len(r.ExcludedSources) > 0 {
		items.Add(widget.NewSeparator())
		items.Add(boldText(t.T("rep.leftOut")))
		for _, x := range r.ExcludedSources {
			id := x.ID
			c := widget.NewCheck(x.Title, func(on bool) { s.setExcluded(id, !on) })
			c.Checked = false
			items.Add(c)
		}
		hint := wrapLabel(t.T("rep.leftOutHint"), 360)
		hint.SizeName = theme.SizeNameCaptionText
		items.Add(hint)
	}
	if len(r.Excluded) > 0 {
		items.Add(widget.NewSeparator())
		items.Add(boldText(t.T("rep.excluded")))
		for _, e := range r.Excluded {
			why := e.Reason
			if t.Has("excl." + e.Section) {
				why = t.T("excl." + e.Section)
			}
			l := wrapLabel(why+" — "+t.T("excl.chars", e.Chars), 360)
			l.SizeName = theme.SizeNameCaptionText
			items.Add(l)
		}
	}
	return container.NewVScroll(items)
}

// sourceRow is one source: its colour, rank, title, share and Jaccard estimate. Tapping it shows
// that source alone.
func (s *reportScreen) sourceRow(i int, src report.Source) fyne.CanvasObject {
	t := s.g.t
	c := sourceColor(src.Color)
	swatch := canvas.NewRectangle(c)
	swatch.CornerRadius = 4
	swatch.SetMinSize(fyne.NewSize(14, 14))
	title := src.Title
	if title == "" {
		title = filepath.Base(src.Path)
	}
	name := widget.NewLabel(fmt.Sprintf("%d. %s", i+1, title))
	name.TextStyle.Bold = true
	name.Truncation = fyne.TextTruncateEllipsis
	file := widget.NewLabel(filepath.Base(src.Path))
	file.SizeName = theme.SizeNameCaptionText
	file.Truncation = fyne.TextTruncateEllipsis
	share := canvas.NewText(percent(src.Similarity), c)
	share.TextStyle.Bold = true
	share.TextSize = theme.TextSize() * 1.2
	figs := widget.NewLabel(t.T("rep.copiedChars", src.CopiedChars) + " · " + t.T("rep.jaccard", fmt.Sprintf("%.2f", src.Jaccard)))
	figs.SizeName = theme.SizeNameCaptionText
	// Scaled to the whole document, as the figure is: a 2 % source draws a short bar, not a full one.
	bar := newShareBar(src.Similarity, c)
	body := container.NewVBox(
		container.NewBorder(nil, nil, container.NewCenter(swatch), share, name),
		container.NewBorder(nil, nil, nil, nil, file),
		figs, bar,
	)
	if s.res != nil {
		id := src.ID
		count := widget.NewCheck(t.T("rep.countSource"), func(on bool) { s.setExcluded(id, !on) })
		count.Checked = true
		body.Add(count)
	}
	btn := widget.NewButton("", func() {
		if s.srcSel.SelectedIndex() == i+1 {
			s.srcSel.SetSelectedIndex(0)
		} else {
			s.srcSel.SetSelectedIndex(i + 1)
		}
	})
	btn.Importance = widget.LowImportance
	return container.NewStack(btn, container.NewPadded(body))
}

// textPanel is the filter bar over the list of paragraphs.
func (s *reportScreen) textPanel(r *report.Report) fyne.CanvasObject {
	t := s.g.t
	hide := widget.NewCheck(t.T("rep.filter.hide"), func(on bool) {
		s.filter.hideQuotes = on
		s.applyFilter()
	})
	s.minLbl = widget.NewLabel(t.T("rep.filter.min", r.Settings.MinRunChars))
	low := r.Settings.MinRunChars
	if s.res != nil {
		low = s.res.Report.Settings.MinRunChars
	}
	minRun := widget.NewSlider(float64(max(low, 1)), 60)
	s.minSlider = minRun
	minRun.Step = 1
	minRun.OnChanged = func(v float64) {
		s.minLbl.SetText(t.T("rep.filter.min", int(v)))
	}
	// The figures follow the slider, not only the marks: the check is recomputed counting only runs
	// this long, so that what is shown and what is counted agree.
	minRun.SetValue(float64(max(s.minRun, r.Settings.MinRunChars)))
	minRun.OnChangeEnded = func(v float64) {
		if int(v) != s.minRun {
			s.minRun = int(v)
			s.recompute()
		}
	}
	if s.res == nil {
		minRun.Disable() // a report opened from a file has no check to recompute
	}
	names := []string{t.T("rep.filter.all")}
	for i, src := range r.Sources {
		title := src.Title
		if title == "" {
			title = filepath.Base(src.Path)
		}
		names = append(names, fmt.Sprintf("%d. %s", i+1, title))
	}
	s.srcSel = widget.NewSelect(names, func(string) {
		s.filter.source = s.srcSel.SelectedIndex() - 1
		s.applyFilter()
	})
	s.srcSel.SetSelectedIndex(0)
	s.shown = widget.NewLabel("")
	s.shown.SizeName = theme.SizeNameCaptionText
	hint := widget.NewLabel(t.T("rep.clickHint"))
	hint.SizeName = theme.SizeNameCaptionText
	hint.Truncation = fyne.TextTruncateEllipsis

	// Two rows, not one: at 1024 pixels in English one row did not fit beside the source list.
	bar := container.NewVBox(
		container.NewBorder(nil, nil, hide, nil, container.NewBorder(nil, nil, s.minLbl, nil, minRun)),
		container.NewBorder(nil, nil, nil, s.shown, s.srcSel),
		hint,
	)

	s.heights = &rowHeights{s: s}
	s.list = widget.NewList(s.listLength, newParaRow, s.updateRow)
	s.list.OnSelected = func(id widget.ListItemID) {
		s.list.UnselectAll()
		if id < len(s.visible) {
			s.openDetail(s.visible[id])
		}
	}
	return container.NewBorder(bar, nil, nil, nil, container.New(s.heights, s.list))
}

func (s *reportScreen) listLength() int {
	if s.heights.bulk {
		return 0
	}
	return len(s.visible)
}

// applyFilter recomputes which paragraphs show, their highlights and their heights.
func (s *reportScreen) applyFilter() {
	if s.r == nil || s.list == nil {
		return
	}
	s.visible = s.filter.visible(s.r)
	s.shown.SetText(s.g.t.T("rep.filter.shown", len(s.visible), len(s.r.Paragraphs)))
	s.heights.width = -1
	s.heights.set(s.list.Size().Width)
	s.list.ScrollToTop()
	s.list.Refresh()
}

// paraRow is one paragraph in the list: its figure and tag in a gutter, then the marked text.
type paraRow struct {
	widget.BaseWidget
	figure *canvas.Text
	tag    *canvas.Text
	page   *canvas.Text
	text   *markedText
}

// gutterWidth is the width of the figure column left of each paragraph.
const gutterWidth = 78

func newParaRow() fyne.CanvasObject {
	r := &paraRow{text: newMarkedText()}
	r.figure = canvas.NewText("", color.Black)
	r.figure.TextStyle.Bold = true
	r.figure.TextSize = theme.TextSize() * 1.1
	r.tag = canvas.NewText("", color.Black)
	r.tag.TextSize = theme.TextSize() * 0.85
	r.page = canvas.NewText("", color.Black)
	r.page.TextSize = theme.TextSize() * 0.8
	r.ExtendBaseWidget(r)
	return r
}

func (r *paraRow) CreateRenderer() fyne.WidgetRenderer {
	return &paraRowRenderer{r: r}
}

type paraRowRenderer struct{ r *paraRow }

func (p *paraRowRenderer) Destroy() {}
func (p *paraRowRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{p.r.figure, p.r.tag, p.r.page, p.r.text}
}
func (p *paraRowRenderer) MinSize() fyne.Size { return fyne.NewSize(gutterWidth+100, 30) }
func (p *paraRowRenderer) Refresh() {
	p.r.text.Refresh()
	canvas.Refresh(p.r)
}

func (p *paraRowRenderer) Layout(size fyne.Size) {
	pad := theme.InnerPadding()
	y := pad
	for _, t := range []*canvas.Text{p.r.figure, p.r.tag, p.r.page} {
		if t.Text == "" {
			continue
		}
		t.Move(fyne.NewPos(pad, y))
		t.Resize(t.MinSize())
		y += t.MinSize().Height
	}
	p.r.text.Move(fyne.NewPos(gutterWidth, 0))
	p.r.text.Resize(fyne.NewSize(size.Width-gutterWidth, size.Height))
}

func (s *reportScreen) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id >= len(s.visible) {
		return
	}
	row := o.(*paraRow)
	p := &s.r.Paragraphs[s.visible[id]]
	t := s.g.t
	row.figure.Text = ""
	if p.Similarity > 0 {
		row.figure.Text = percent(p.Similarity)
		row.figure.Color = themeColor(similarityColor(p.Similarity))
	}
	row.tag.Text = ""
	if p.Status != "" && p.Status != "copied" {
		row.tag.Text = t.T("rep.status." + string(p.Status))
		row.tag.Color = themeColor(colorMuted)
	}
	row.page.Text = ""
	switch {
	case p.Section == string(extract.Notes) && p.Page > 0:
		row.page.Text = t.T("rep.notePage", p.Page)
	case p.Section == string(extract.Notes):
		row.page.Text = t.T("rep.note")
	case p.Page > 0:
		row.page.Text = t.T("rep.page", p.Page)
	}
	row.page.Color = themeColor(colorMuted)
	row.text.italic = p.Heading
	row.text.Set(p.Text, s.filter.marks(s.r, p), p.Status == "template" || p.Status == "excluded")
	row.Refresh()
}

// rowHeights sets each list row's height from its text wrapped at the list's width. It is the layout
// of the list's container, so it runs whenever the width changes.
type rowHeights struct {
	s     *reportScreen
	width float32
	bulk  bool // while set, the list reports no rows, so each SetItemHeight costs nothing
}

func (h *rowHeights) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	h.set(size.Width)
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (h *rowHeights) MinSize(objs []fyne.CanvasObject) fyne.Size { return fyne.NewSize(200, 200) }

func (h *rowHeights) set(width float32) {
	if width <= 0 || width == h.width {
		return
	}
	h.width = width
	s := h.s
	// Wrap a little narrower than the row will be, so a rounding difference never hides a line.
	textW := width - gutterWidth - 4
	h.bulk = true
	for i, pi := range s.visible {
		s.list.SetItemHeight(i, textHeight([]rune(s.r.Paragraphs[pi].Text), textW))
	}
	h.bulk = false
	s.list.Refresh()
}

// sourceColor parses a report colour (#rrggbb).
func sourceColor(hex string) color.NRGBA {
	var c color.NRGBA
	c.A = 0xff
	if _, err := fmt.Sscanf(hex, "#%02x%02x%02x", &c.R, &c.G, &c.B); err != nil {
		return color.NRGBA{0x80, 0x80, 0x80, 0xff}
	}
	return c
}

// export signs the report and saves it as PDF, HTML or JSON where the user chooses.
func (s *reportScreen) export(format string) {
	t := s.g.t
	r := s.r
	base := strings.TrimSuffix(filepath.Base(r.Document.Path), filepath.Ext(r.Document.Path))
	s.g.chooseSaveFile(base+"-"+r.Number+"."+format, func(path string) {
		go func() {
			err := exportReport(r, format, path)
			fyne.Do(func() {
				if err != nil {
					s.g.showError(err)
					return
				}
				dialog.ShowInformation(t.T("rep.export."+format), t.T("rep.exported", path), s.g.win)
			})
		}()
	})
}

// exportReport signs a copy of r with the user's key and writes it to path.
func exportReport(r *report.Report, format, path string) error {
	s, err := keys.LoadOrCreateUser()
	if err != nil {
		return err
	}
	c := *r
	if err := c.Sign(s); err != nil {
		return err
	}
	switch format {
	case "pdf":
		return c.SavePDF(path, s)
	case "html":
		return c.SaveHTML(path, s)
	default:
		return c.SaveJSON(path)
	}
}

// verdictText says a school's verdict in plain words: the outcome first, then the rules behind it.
func (t tr) verdictText(v *report.SchoolVerdict) string {
	name := v.Profile
	if t.Has("verdict.profile." + name) {
		name = t.T("verdict.profile." + name)
	}
	text := t.T("verdict.line", t.T("verdict."+v.Outcome), name, t.T("verdict.figure."+v.Figure), percent(v.Value),
		strconv.FormatFloat(v.PassBelow, 'g', -1, 64), strconv.FormatFloat(v.FailFrom, 'g', -1, 64))
	if v.Mismatch != "" {
		text += " " + t.T("verdict.mismatch")
	}
	if v.Outcome == rules.Review {
		text += " " + t.T("verdict.doubts")
	}
	return text
}
