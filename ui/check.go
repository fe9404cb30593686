package ui

import (
	"context"
	"errors"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/check"
	"thesischeck/extract"
	"thesischeck/library"
)

// checkStages are the stages a check reports, in order.
var checkStages = []check.Stage{check.StageExtract, check.StageFingerprint, check.StageSearch, check.StageAlign}

// checkScreen takes a thesis and shows the check's progress, stage by stage.
type checkScreen struct {
	g       *gui
	content fyne.CanvasObject

	libInfo  *widget.Label
	file     *widget.Label
	choose   *widget.Button
	stages   *fyne.Container
	icons    []*widget.Icon
	bars     []*widget.ProgressBar
	status   *widget.Label
	cancel   *widget.Button
	progress *fyne.Container

	// afterProgress, when set, runs after each progress update (tests act there).
	afterProgress func(check.Stage)
}

func newCheckScreen(g *gui) *checkScreen {
	s := &checkScreen{g: g}
	t := g.t

	s.choose = widget.NewButtonWithIcon(t.T("check.choose"), theme.FileIcon(), s.chooseFile)
	s.choose.Importance = widget.HighImportance
	icon := canvas.NewImageFromResource(theme.UploadIcon())
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(64, 64))
	drop := widget.NewLabel(t.T("check.drop"))
	drop.Alignment = fyne.TextAlignCenter
	formats := widget.NewLabel(t.T("check.formats"))
	formats.Alignment = fyne.TextAlignCenter
	formats.SizeName = theme.SizeNameCaptionText
	s.libInfo = widget.NewLabel("")
	s.libInfo.Alignment = fyne.TextAlignCenter
	preview := widget.NewButtonWithIcon(t.T("prev.button"), theme.VisibilityIcon(), func() { g.chooseDocument(g.previewFile) })
	dropZone := container.NewVBox(icon, drop, container.NewCenter(container.NewHBox(s.choose, preview)), formats, s.libInfo)
	border := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	border.StrokeColor = theme.Color(theme.ColorNamePrimary)
	border.StrokeWidth = 2
	border.CornerRadius = 12

	s.file = widget.NewLabel("")
	s.file.TextStyle.Bold = true
	s.file.Truncation = fyne.TextTruncateEllipsis
	// A form's two columns: the bars start at one x, however long each stage's name is.
	s.stages = container.New(layout.NewFormLayout())
	for _, st := range checkStages {
		ic := widget.NewIcon(theme.RadioButtonIcon())
		bar := widget.NewProgressBar()
		name := widget.NewLabel(t.T("check.stage." + string(st)))
		s.icons = append(s.icons, ic)
		s.bars = append(s.bars, bar)
		s.stages.Add(container.NewHBox(ic, name))
		s.stages.Add(bar)
	}
	s.status = wrapLabel("", 700)
	s.cancel = widget.NewButtonWithIcon(t.T("common.cancel"), theme.CancelIcon(), g.cancelTask)
	s.progress = container.NewVBox(s.file, s.stages, container.NewHBox(s.cancel))
	s.progress.Hide()

	zone := container.NewStack(border, container.NewPadded(container.NewPadded(dropZone)))
	body := container.NewVBox(zone, widget.NewSeparator(), s.progress, s.status)
	s.content = container.NewCenter(container.New(&fixedWidth{720}, body))
	s.refresh()
	return s
}

// refresh shows the library's size, or why there is none. With nothing to check against (an empty
// library, or templates only) the choose button is disabled and the line says why.
func (s *checkScreen) refresh() {
	t := s.g.t
	lib, err := s.g.libraryState()
	s.libInfo.Importance = widget.MediumImportance
	switch {
	case err != nil:
		s.libInfo.SetText(t.T("common.libfail", t.errorText(err)))
	case lib == nil:
		s.libInfo.SetText(t.T("common.opening"))
	default:
		docs, paras := lib.Stats()
		s.libInfo.SetText(t.T("check.lib", docs, paras))
		if why := s.emptyReason(lib); why != "" {
			s.libInfo.SetText(why)
			s.libInfo.Importance = widget.WarningImportance
		}
	}
	s.libInfo.Refresh()
	if s.g.task == nil {
		s.updateChoose()
	}
}

// emptyReason says why lib has nothing to check against, or "" when it has.
func (s *checkScreen) emptyReason(lib *library.Library) string {
	docs, templates := lib.Counts()
	switch {
	case check.EmptyLibrary(lib.Dir(), docs, templates) == nil:
		return ""
	case docs > 0:
		return s.g.t.T("check.templatesOnly")
	}
	return s.g.t.T("check.emptyLib")
}

// updateChoose enables the choose button unless the library is open with nothing to check against.
func (s *checkScreen) updateChoose() {
	if lib, _ := s.g.libraryState(); lib != nil && s.emptyReason(lib) != "" {
		s.choose.Disable()
		return
	}
	s.choose.Enable()
}

func (s *checkScreen) chooseFile() {
	s.g.chooseDocument(s.g.checkFile)
}

// run checks path in the background and opens the report when it is done.
func (s *checkScreen) run(path string) {
	g := s.g
	if !g.idle() {
		return
	}
	s.file.SetText(g.t.T("check.file", filepath.Base(path)))
	for i := range s.bars {
		s.bars[i].SetValue(0)
		s.icons[i].SetResource(theme.RadioButtonIcon())
	}
	if lib, _ := g.libraryState(); lib != nil {
		if why := s.emptyReason(lib); why != "" { // a file dropped on the window: refused as the button is
			s.status.SetText(why)
			return
		}
	}
	s.status.SetText(g.t.T("check.running"))
	s.progress.Show()
	s.choose.Disable()
	s.cancel.Enable()
	opts := g.set.checkOptions()
	g.start(true, func(ctx context.Context, lib *library.Library, err error) func() {
		if err != nil {
			return func() { g.check.finished(nil, err) }
		}
		gate := g.progressGate()
		progress := func(st check.Stage, done, total int) {
			if !gate(st, done, total) {
				return
			}
			fyne.Do(func() { g.check.stage(st, done, total) })
		}
		// check.Check, not check.File: the result is kept so that the report can leave a source out.
		// The library's first queries are made ready on the core the reading leaves idle, and the
		// collector runs less often, as in the command line's check (extract.Trace,
		// check.CollectLess). One task runs at a time.
		defer check.CollectLess()()
		doc, sha, err := check.Read(extract.WithTrace(ctx, &extract.Trace{OneCore: func() { go lib.Warm() }}), path, progress)
		var res *check.Result
		if err == nil {
			res, err = check.Check(ctx, lib, doc, sha, opts, progress)
		}
		return func() { g.check.finished(res, err) }
	})
}

// stage marks the stages before st done and shows st's progress.
func (s *checkScreen) stage(st check.Stage, done, total int) {
	if s.afterProgress != nil {
		defer s.afterProgress(st)
	}
	for i, name := range checkStages {
		switch {
		case name == st:
			if total > 0 {
				s.bars[i].SetValue(float64(done) / float64(total))
			}
			last := i == len(checkStages)-1
			if done >= total && total > 0 && !last {
				s.icons[i].SetResource(theme.ConfirmIcon())
			} else {
				s.icons[i].SetResource(theme.MediaPlayIcon())
			}
			if last && done >= total {
				// Every paragraph is aligned, but the report is still being made (a long thesis
				// takes seconds): the stage is done only when the report is shown.
				s.status.SetText(s.g.t.T("check.finishing"))
			}
			return
		default:
			if s.bars[i].Value < 1 {
				s.bars[i].SetValue(1)
				s.icons[i].SetResource(theme.ConfirmIcon())
			}
		}
	}
}

func (s *checkScreen) finished(res *check.Result, err error) {
	t := s.g.t
	s.updateChoose()
	s.cancel.Disable()
	switch {
	case errors.Is(err, context.Canceled):
		s.status.SetText(t.T("check.cancelled"))
		return
	case errors.Is(err, check.ErrEmptyLibrary):
		s.status.SetText(t.errorText(err))
		return
	case errors.Is(err, library.ErrDamaged):
		s.status.SetText(t.T("check.failed"))
		s.g.showDamage(err)
		return
	case err != nil:
		s.status.SetText(t.T("check.failed"))
		s.g.showError(err)
		return
	}
	for i := range s.bars {
		s.bars[i].SetValue(1)
		s.icons[i].SetResource(theme.ConfirmIcon())
	}
	s.status.SetText("")
	s.progress.Hide()
	s.g.report.showResult(res)
	s.g.tabs.SelectIndex(tabReport)
	if s.g.onReport != nil {
		s.g.onReport(s.g)
	}
}

// fixedWidth centres its content at a fixed width (or narrower when the window is).
type fixedWidth struct{ width float32 }

func (f *fixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (f *fixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	s.Width = max(s.Width, f.width)
	return s
}
