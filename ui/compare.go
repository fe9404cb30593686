package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/compare"
	"thesischeck/keys"
	"thesischeck/library"
	"thesischeck/report"
)

// compareScreen checks a class's submissions against each other and against earlier years': two
// drop zones, then a histogram of the pairs' similarities whose threshold line can be dragged, a
// labelled similarity matrix ordered so that clusters sit together, the flagged pairs and the
// clusters, and each pair side by side (compare_pair.go).
type compareScreen struct {
	g       *gui
	content fyne.CanvasObject

	choose    *widget.Button
	addOld    *widget.Button
	clearOld  *widget.Button
	chooseInf *widget.Button
	newLabel  *widget.Label
	oldLabel  *widget.Label
	infoLabel *widget.Label
	oldZone   fyne.CanvasObject // the drop zone of earlier years' submissions
	bar       *widget.ProgressBar
	cancel    *widget.Button
	progress  *fyne.Container
	status    *widget.Label
	result    *fyne.Container

	// What the comparison is of, and the threshold last set; they survive a rebuild of the screens
	// (language, theme).
	paths, old []string
	infoPath   string
	info       *compare.Info
	threshold  float64 // 0 until the user moves it

	res      *compare.Result
	order    []int // documents shown in the matrix, in cluster order
	matrix   *heatmap
	hist     *histogram
	flagged  []compare.Pair
	pairs    *widget.List
	clusters *widget.List
	flagInfo *widget.Label
	pairView *pairView // the pair shown last, for tests
}

func newCompareScreen(g *gui) *compareScreen {
	s := &compareScreen{g: g}
	t := g.t
	s.choose = widget.NewButtonWithIcon(t.T("cmp.choose"), theme.FolderOpenIcon(), s.chooseFolder)
	s.choose.Importance = widget.HighImportance
	s.addOld = widget.NewButtonWithIcon(t.T("cmp.addOld"), theme.ContentAddIcon(), s.chooseOld)
	s.clearOld = widget.NewButtonWithIcon(t.T("cmp.clearOld"), theme.ContentClearIcon(), func() { s.setOld(nil) })
	s.chooseInf = widget.NewButtonWithIcon(t.T("cmp.info"), theme.AccountIcon(), s.chooseInfo)
	s.newLabel = captionLabel(t.T("cmp.newNone"))
	s.oldLabel = captionLabel(t.T("cmp.oldNone"))
	s.infoLabel = captionLabel(t.T("cmp.infoNone"))
	// The zones' texts wrap: three zones side by side fit a window 1024 wide.
	newZone := dropZone(container.NewVBox(boldText(t.T("cmp.new")), wrapLabel(t.T("cmp.intro"), 280),
		container.NewHBox(s.choose), s.newLabel))
	s.oldZone = dropZone(container.NewVBox(boldText(t.T("cmp.old")), wrapLabel(t.T("cmp.oldIntro"), 280),
		container.NewHBox(s.addOld, s.clearOld), s.oldLabel))
	infoZone := dropZone(container.NewVBox(boldText(t.T("cmp.infoTitle")), wrapLabel(t.T("cmp.infoIntro"), 280),
		container.NewHBox(s.chooseInf), s.infoLabel))
	zones := container.NewGridWithColumns(3, newZone, s.oldZone, infoZone)

	s.bar = widget.NewProgressBar()
	s.cancel = widget.NewButtonWithIcon(t.T("common.cancel"), theme.CancelIcon(), g.cancelTask)
	s.progress = container.NewBorder(nil, nil, nil, s.cancel, s.bar)
	s.progress.Hide()
	s.status = widget.NewLabel("")
	s.status.TextStyle.Bold = true
	s.status.Truncation = fyne.TextTruncateEllipsis
	s.result = container.NewStack()
	top := container.NewVBox(zones, s.progress, s.status)
	s.content = container.NewPadded(container.NewBorder(top, nil, nil, nil, s.result))
	return s
}

func captionLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.SizeName = theme.SizeNameCaptionText
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

// dropZone frames a zone files can be dropped on.
func dropZone(body fyne.CanvasObject) fyne.CanvasObject {
	border := canvas.NewRectangle(color.Transparent)
	border.StrokeColor = theme.Color(theme.ColorNamePrimary)
	border.StrokeWidth = 1.5
	border.CornerRadius = 8
	return container.NewStack(border, container.NewPadded(body))
}

// adopt takes over what an earlier build of the screen showed: the folders, the info file and the
// result, at the threshold it was shown at.
func (s *compareScreen) adopt(prev *compareScreen) {
	s.paths, s.infoPath, s.info, s.threshold = prev.paths, prev.infoPath, prev.info, prev.threshold
	s.setOld(prev.old)
	s.showPaths()
	if prev.res != nil {
		s.show(prev.res)
	}
}

func (s *compareScreen) chooseFolder() {
	s.g.chooseFolder(func(path string) { s.run([]string{path}) })
}

func (s *compareScreen) chooseOld() {
	s.g.chooseFolder(func(path string) { s.setOld(append(append([]string(nil), s.old...), path)) })
}

func (s *compareScreen) chooseInfo() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) { s.g.chosen(r, err, s.loadInfo) }, s.g.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv"}))
	d.Resize(fileDialogSize)
	d.Show()
}

// dropped takes files dropped on the compare screen: on the earlier-years zone they are added to
// it, a CSV file anywhere is the info file, anything else is compared as this year's submissions.
func (s *compareScreen) dropped(pos fyne.Position, paths []string) {
	var docs []string
	for _, p := range paths {
		if strings.EqualFold(filepath.Ext(p), ".csv") {
			s.loadInfo(p)
			continue
		}
		docs = append(docs, p)
	}
	if len(docs) == 0 {
		return
	}
	if s.inOldZone(pos) {
		s.setOld(append(append([]string(nil), s.old...), docs...))
		return
	}
	s.run(docs)
}

// inOldZone reports whether a window position lies on the earlier-years drop zone.
func (s *compareScreen) inOldZone(pos fyne.Position) bool {
	if !s.oldZone.Visible() {
		return false
	}
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(s.oldZone)
	size := s.oldZone.Size()
	return pos.X >= at.X && pos.Y >= at.Y && pos.X < at.X+size.Width && pos.Y < at.Y+size.Height
}

// setOld sets the earlier years' folders; with this year's chosen already, it compares again.
func (s *compareScreen) setOld(old []string) {
	s.old = old
	t := s.g.t
	if len(old) == 0 {
		s.oldLabel.SetText(t.T("cmp.oldNone"))
	} else {
		var names []string
		for _, p := range old {
			names = append(names, filepath.Base(p))
		}
		s.oldLabel.SetText(strings.Join(names, ", "))
	}
	if len(s.paths) > 0 && s.g.task == nil && s.res != nil {
		s.run(s.paths)
	}
}

// loadInfo reads an info file and names the students of the result shown with it.
func (s *compareScreen) loadInfo(path string) {
	info, err := compare.ReadInfo(path)
	if err != nil {
		s.g.showError(err)
		return
	}
	s.info, s.infoPath = info, path
	s.infoLabel.SetText(filepath.Base(path))
	if s.res != nil {
		s.applyInfo(s.res)
		s.show(s.res)
	}
}

// applyInfo names res's students from the info file; rows that name no submission are said.
func (s *compareScreen) applyInfo(res *compare.Result) {
	if s.info == nil {
		return
	}
	unmatched, err := res.SetInfo(s.info)
	if err != nil {
		s.g.showError(err)
		return
	}
	if len(unmatched) > 0 {
		var names []string
		for _, r := range unmatched {
			names = append(names, r.File)
		}
		dialog.ShowInformation(s.g.t.T("cmp.infoTitle"), s.g.t.T("cmp.infoUnmatched", strings.Join(names, ", ")), s.g.win)
	}
}

func (s *compareScreen) showPaths() {
	if len(s.paths) == 0 {
		s.newLabel.SetText(s.g.t.T("cmp.newNone"))
	} else {
		s.newLabel.SetText(strings.Join(s.paths, ", "))
	}
	if s.infoPath != "" {
		s.infoLabel.SetText(filepath.Base(s.infoPath))
	}
}

// run compares the files under paths with each other and with the earlier years' in the background.
func (s *compareScreen) run(paths []string) {
	g := s.g
	if !g.idle() {
		return
	}
	s.paths = paths
	s.showPaths()
	s.bar.SetValue(0)
	s.progress.Show()
	s.choose.Disable()
	s.addOld.Disable()
	s.status.SetText("")
	// Candidate pairs are chosen for the threshold a comparison runs with: never above the
	// default, so that the line can be dragged down to it and the pairs are there.
	opts := &compare.Options{MinRunChars: g.set.MinRunChars, Old: s.old}
	if s.threshold > 0 {
		opts.Threshold = min(s.threshold, compare.DefaultThreshold)
	}
	if lib, _ := g.libraryState(); lib != nil {
		opts.Library = lib // its template documents are left out like common text
	}
	g.start(false, func(ctx context.Context, _ *library.Library, _ error) func() {
		gate := g.progressGate()
		res, err := compare.Run(ctx, paths, opts, func(stage compare.Stage, done, total int) {
			if !gate(nil, done, total) { // one pace for the whole run, as its single bar shows
				return
			}
			fyne.Do(func() { g.compare.stage(stage, done, total) })
		})
		return func() { g.compare.finished(res, err) }
	})
}

// stageShare places each stage's progress in one bar: reading dominates.
var stageShare = map[compare.Stage][2]float64{
	compare.StageRead: {0, 0.6}, compare.StageCandidates: {0.6, 0.75}, compare.StageAlign: {0.75, 1},
}

func (s *compareScreen) stage(stage compare.Stage, done, total int) {
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
	s.addOld.Enable()
	switch {
	case errors.Is(err, context.Canceled):
		s.status.SetText(t.T("cmp.cancelled"))
		return
	case err != nil:
		s.status.SetText("")
		s.g.showError(err)
		return
	}
	s.applyInfo(res)
	if s.threshold > 0 {
		res.SetThreshold(s.threshold)
	}
	s.show(res)
	// The files not read are listed on the screen; its "0 similar" must not pass for a clean class.
	if text := nothingText(t, res); text != "" {
		s.g.showErrorText(text)
	}
}

// nothingText says, in the window's language, why res compared no pair; "" when it compared some.
func nothingText(t tr, res *compare.Result) string {
	switch n, _ := res.Compared(); {
	case res.NothingCompared() == nil:
		return ""
	case len(res.Documents) == 0:
		return t.T("cmp.noFiles")
	default:
		return t.T("cmp.nothing", n)
	}
}

// show lays out a result: the histogram and the pairs on the right, the matrix on the left.
func (s *compareScreen) show(res *compare.Result) {
	t := s.g.t
	s.res = res
	s.hist = newHistogram(res, s.setThreshold)
	s.flagInfo = widget.NewLabel("")
	s.flagInfo.TextStyle.Bold = true
	s.matrix = newHeatmap(t, res, s.openPair)
	s.order = s.matrix.order

	s.pairs = widget.NewList(func() int { return len(s.flagged) }, func() fyne.CanvasObject {
		fig := canvas.NewText("", color.Black)
		fig.TextStyle.Bold = true
		name := widget.NewLabel("")
		name.Truncation = fyne.TextTruncateEllipsis
		return container.NewBorder(nil, nil, nil, fig, name)
	}, func(id widget.ListItemID, o fyne.CanvasObject) {
		p := s.flagged[id]
		c := o.(*fyne.Container).Objects
		c[0].(*widget.Label).SetText(t.T("cmp.pair", docLabel(t, res, p.A), docLabel(t, res, p.B)))
		fig := c[1].(*canvas.Text)
		fig.Text = percent(p.Similarity)
		fig.Color = themeColor(similarityColor(p.Similarity))
		fig.Refresh()
	})
	s.pairs.OnSelected = func(id widget.ListItemID) {
		s.pairs.UnselectAll()
		s.openPair(s.flagged[id])
	}
	s.clusters = widget.NewList(func() int { return len(s.res.Clusters) }, func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}, func(id widget.ListItemID, o fyne.CanvasObject) {
		o.(*widget.Label).SetText(s.clusterText(id))
	})
	s.clusters.OnSelected = func(id widget.ListItemID) {
		s.clusters.UnselectAll()
		s.matrix.highlight(s.res.Clusters[id])
	}

	export := container.NewHBox()
	for _, kind := range []string{"PDF", "HTML", "JSON", "CSV"} {
		format := strings.ToLower(kind)
		export.Add(widget.NewButtonWithIcon(kind, theme.DocumentSaveIcon(), func() { s.export(format) }))
	}
	lists := container.NewAppTabs(
		container.NewTabItem(t.T("cmp.pairs"), s.pairs),
		container.NewTabItem(t.T("cmp.clusters"), s.clusters),
	)
	right := container.NewBorder(container.NewVBox(s.hist, s.flagInfo,
		container.NewBorder(nil, nil, widget.NewLabel(t.T("cmp.exportAs")), nil, export)), nil, nil, nil, lists)
	if bad := s.problems(); bad != nil {
		right = container.NewBorder(nil, bad, nil, nil, right)
	}
	var left fyne.CanvasObject = container.NewBorder(boldText(t.T("cmp.matrix")), nil, nil, nil, container.NewScroll(s.matrix))
	if len(s.order) == 0 {
		left = container.NewBorder(boldText(t.T("cmp.matrix")), nil, nil, nil, widget.NewLabel(t.T("cmp.noPairs")))
	}
	split := container.NewHSplit(left, right)
	split.Offset = 0.55
	s.result.Objects = []fyne.CanvasObject{split}
	s.result.Refresh()
	s.setThreshold(res.Threshold)
}

// problems lists the files with warnings (hidden text, dodges), and those not read and not
// compared, or nil.
func (s *compareScreen) problems() fyne.CanvasObject {
	t, res := s.g.t, s.res
	box := container.NewVBox()
	var b strings.Builder
	for _, i := range res.Warned() {
		var ws []string
		for _, w := range res.Documents[i].Warnings {
			ws = append(ws, t.warningText(report.Warning(w)))
		}
		fmt.Fprintf(&b, "%s — %s\n", res.Documents[i].Name, strings.Join(ws, t.T("cmp.warnSep")))
	}
	if b.Len() > 0 {
		l := wrapLabel(t.T("cmp.warned")+"\n"+strings.TrimSpace(b.String()), 400)
		l.Importance = widget.WarningImportance
		box.Add(l)
	}
	b.Reset()
	for _, i := range res.Failed() {
		fmt.Fprintf(&b, "%s — %s\n", res.Documents[i].Name, t.errorReason(res.Documents[i].Err()))
	}
	for _, i := range res.Skipped() {
		fmt.Fprintf(&b, "%s — %s\n", res.Documents[i].Name, t.T("cmp.skipped"))
	}
	if b.Len() > 0 {
		l := wrapLabel(t.T("cmp.failed")+"\n"+strings.TrimSpace(b.String()), 400)
		l.Importance = widget.DangerImportance
		box.Add(l)
	}
	if len(box.Objects) == 0 {
		return nil
	}
	// A scroll is one line high unless told otherwise: as high as the lists, up to a few lines.
	scroll := container.NewVScroll(box)
	scroll.SetMinSize(fyne.NewSize(0, min(box.MinSize().Height, 8*theme.TextSize()*1.6)))
	return scroll
}

// setThreshold flags the pairs at or above v and shows what that makes of the class.
func (s *compareScreen) setThreshold(v float64) {
	res, t := s.res, s.g.t
	if v != res.Threshold {
		s.threshold = v
	}
	res.SetThreshold(v)
	s.flagged = res.Flagged()
	newDocs, old := res.Compared()
	s.status.SetText(t.T("cmp.docs", newDocs, old, len(res.Pairs), len(s.flagged)))
	s.flagInfo.SetText(t.T("cmp.threshold", percent(v), t.T("cmp.nPairs", len(s.flagged)), t.T("cmp.nGroups", len(res.Clusters))))
	s.hist.Refresh()
	s.matrix.Refresh()
	s.pairs.Refresh()
	s.clusters.Refresh()
}

func (s *compareScreen) clusterText(k int) string {
	var names []string
	for _, d := range s.res.Clusters[k] {
		names = append(names, docLabel(s.g.t, s.res, d))
	}
	return s.g.t.T("cmp.cluster", k+1, len(names), strings.Join(names, ", "))
}

// docLabel names a document for the screen: the student's name and the file, an earlier year's
// marked.
func docLabel(t tr, res *compare.Result, i int) string {
	name := res.Label(i)
	if res.Documents[i].Old {
		name += " " + t.T("cmp.earlier")
	}
	return name
}

// export asks where to save the comparison as format, beside the compared folder, never in it.
func (s *compareScreen) export(format string) {
	g := s.g
	if text := nothingText(g.t, s.res); text != "" { // no signed "0 similar" of no pair
		g.showErrorText(text)
		return
	}
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		g.chosen(w, err, func(path string) {
			if err := exportComparison(s.res, format, path, s.roots()); err != nil {
				if st, serr := os.Stat(path); serr == nil && st.Size() == 0 {
					os.Remove(path) // the empty file the dialog made
				}
				g.showError(err)
			}
		})
	}, g.win)
	dir, name := s.exportPlace(format)
	d.SetFileName(name)
	if u, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
		d.SetLocation(u)
	}
	d.Resize(fileDialogSize)
	d.Show()
}

// roots are the folders the comparison read.
func (s *compareScreen) roots() []string { return append(append([]string(nil), s.paths...), s.old...) }

// exportPlace is where an export goes by default: beside the first folder compared, named after it.
func (s *compareScreen) exportPlace(format string) (dir, name string) {
	name = "compare." + format
	if len(s.paths) == 0 {
		return "", name
	}
	first := filepath.Clean(s.paths[0])
	if st, err := os.Stat(first); err == nil && !st.IsDir() {
		first = filepath.Dir(first)
	}
	return filepath.Dir(first), filepath.Base(first) + "-compare." + format
}

// exportComparison signs a copy of res with the user's key and writes it to path as format; a path
// inside a folder being compared is refused.
func exportComparison(res *compare.Result, format, path string, roots []string) error {
	if dir := compare.FolderHolding(path, roots); dir != "" {
		return fmt.Errorf("compare: %s is inside %s, which is being compared: the next comparison would read it as a submission; save it beside the folder instead", path, dir)
	}
	if format == "csv" {
		return res.SaveCSV(path)
	}
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
		return report.SaveComparisonHTML(path, &c, s)
	}
	return c.SaveJSON(path)
}
