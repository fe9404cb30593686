package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/library"
)

// libraryScreen lists the reference documents and imports new ones.
type libraryScreen struct {
	g       *gui
	content fyne.CanvasObject

	docs     []library.DocInfo // all documents, as the library lists them
	shown    []library.DocInfo // those matching the search
	selected map[uint64]bool

	search  *widget.Entry
	list    *widget.List
	empty   *widget.Label
	totals  *widget.Label
	status  *widget.Label
	home    *widget.Label  // where the library lives and the room it takes (homeText)
	testBtn *widget.Button // the connection test, for a library on a server
	// homeRead, when set, hears each answer of a server to readHome (tests wait for it).
	homeRead chan error
	columns  []float32     // libColumns fitted to the headers
	failed   *widget.Label // the last import's bad files, with reasons
	remove   *widget.Button
	addBtns  []*widget.Button

	progressBox *fyne.Container
	bar         *widget.ProgressBar
	current     *widget.Label
	cancel      *widget.Button

	// The damage panel: shown when opening the library, listing it or a check found damage; it
	// offers `library check` and `library repair` (integrity.go).
	damageBox   *fyne.Container
	damageText  *widget.Label
	checkLib    *widget.Button
	repairLib   *widget.Button
	integrityTo *widget.Label // what the last check or repair found, in plain words

	// afterProgress, when set, runs after each progress update (tests pause the import there).
	afterProgress func()
}

// Column widths of the document table; title and file share what is left.
var libColumns = []float32{36, 0, 0, 90, 100, 140}

func newLibraryScreen(g *gui) *libraryScreen {
	s := &libraryScreen{g: g, selected: map[uint64]bool{}}
	t := g.t

	s.search = widget.NewEntry()
	s.search.SetPlaceHolder(t.T("lib.search"))
	s.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	s.search.OnChanged = func(string) { s.filter() }

	addFiles := widget.NewButtonWithIcon(t.T("lib.addFiles"), theme.FileIcon(), s.chooseFiles)
	addFiles.Importance = widget.HighImportance
	addFolder := widget.NewButtonWithIcon(t.T("lib.addFolder"), theme.FolderOpenIcon(), s.chooseFolder)
	s.addBtns = []*widget.Button{addFiles, addFolder}
	s.remove = widget.NewButtonWithIcon(t.T("lib.remove"), theme.DeleteIcon(), s.confirmRemove)
	s.remove.Disable()

	heads := []string{"", t.T("lib.col.title"), t.T("lib.col.file"), t.T("lib.col.paras"), t.T("lib.col.chars"), t.T("lib.col.added")}
	s.columns = fitColumns(libColumns, heads)
	header := container.New(&columnLayout{s.columns}, widget.NewLabel(""))
	for _, h := range heads[1:] {
		header.Add(boldLabel(h))
	}

	s.list = widget.NewList(func() int { return len(s.shown) }, s.newRow, s.updateRow)
	s.list.OnSelected = func(id widget.ListItemID) {
		// A click toggles the row's check box: the list's own selection is single.
		d := s.shown[id]
		s.selected[d.ID] = !s.selected[d.ID]
		s.list.UnselectAll()
		s.list.RefreshItem(id)
		s.updateRemove()
	}
	s.empty = wrapLabel(t.T("lib.empty"), 700)
	s.empty.Alignment = fyne.TextAlignCenter

	s.totals = widget.NewLabel("")
	s.totals.TextStyle.Bold = true
	s.status = wrapLabel("", 1000)
	s.failed = wrapLabel("", 1000)
	s.failed.Importance = widget.DangerImportance
	s.failed.Hide()

	s.bar = widget.NewProgressBar()
	s.current = widget.NewLabel("")
	s.current.Truncation = fyne.TextTruncateEllipsis
	s.cancel = widget.NewButtonWithIcon(t.T("common.cancel"), theme.CancelIcon(), g.cancelTask)
	s.progressBox = container.NewVBox(container.NewBorder(nil, nil, nil, s.cancel, s.bar), s.current)
	s.progressBox.Hide()

	s.newDamageBox()
	top := container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewHBox(addFiles, addFolder, s.remove), s.search),
		s.progressBox,
		s.damageBox,
	)
	s.home = wrapLabel("", 1000)
	s.testBtn = widget.NewButtonWithIcon(t.T("lib.testConn"), theme.ViewRefreshIcon(), func() { s.readHome(true) })
	s.testBtn.Hide()
	bottom := container.NewVBox(s.status, s.failed, s.totals, container.NewBorder(nil, nil, nil, s.testBtn, s.home))
	table := container.NewBorder(header, nil, nil, nil, container.NewStack(s.list, container.NewVBox(s.empty)))
	s.content = container.NewPadded(container.NewBorder(top, bottom, nil, nil, table))
	return s
}

// fitColumns widens the fixed columns of base to their headers in the language shown: "Paragraphs"
// is longer than "段落数", and a header cut to "Paragra…" says nothing.
func fitColumns(base []float32, headers []string) []float32 {
	out := slices.Clone(base)
	for i, h := range headers {
		if out[i] > 0 && h != "" {
			out[i] = max(out[i], fyne.MeasureText(h, theme.TextSize(), fyne.TextStyle{Bold: true}).Width+2*theme.InnerPadding()+2)
		}
	}
	return out
}

func boldLabel(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.TextStyle.Bold = true
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

func (s *libraryScreen) newRow() fyne.CanvasObject {
	check := widget.NewCheck("", nil)
	labels := make([]fyne.CanvasObject, 0, 6)
	labels = append(labels, check)
	for i := 0; i < 5; i++ {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		if i >= 2 && i <= 3 {
			l.Alignment = fyne.TextAlignTrailing
		}
		labels = append(labels, l)
	}
	return container.New(&columnLayout{s.columns}, labels...)
}

func (s *libraryScreen) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	d := s.shown[id]
	c := o.(*fyne.Container).Objects
	check := c[0].(*widget.Check)
	check.OnChanged = nil
	check.SetChecked(s.selected[d.ID])
	check.OnChanged = func(on bool) {
		s.selected[d.ID] = on
		s.updateRemove()
	}
	title := d.Title
	if d.Template {
		title += s.g.t.T("lib.template")
	}
	c[1].(*widget.Label).SetText(title)
	c[2].(*widget.Label).SetText(filepath.Base(d.Path))
	c[3].(*widget.Label).SetText(fmt.Sprint(d.Paragraphs))
	c[4].(*widget.Label).SetText(fmt.Sprint(d.Chars))
	c[5].(*widget.Label).SetText(d.Added.Local().Format("2006-01-02 15:04"))
}

// refresh reloads the documents from the library.
func (s *libraryScreen) refresh() {
	t := s.g.t
	lib, err := s.g.libraryState()
	switch {
	case err != nil:
		s.docs = nil
		s.status.SetText(t.T("common.libfail", t.errorText(err)))
	case lib == nil:
		s.docs = nil
		s.status.SetText(t.T("common.opening"))
	default:
		s.readHome(false)
		s.docs, err = lib.List()
		// What was said about opening the library, or failing to, is stale once it is open.
		failed, _, _ := strings.Cut(t.T("common.libfail", "\x00"), "\x00")
		if s.status.Text == t.T("common.opening") || strings.HasPrefix(s.status.Text, failed) {
			s.status.SetText("")
		}
	}
	s.damaged(err)
	if s.g.check != nil { // what the check screen offers follows the library's size
		s.g.check.refresh()
	}
	for id := range s.selected {
		if !s.has(id) {
			delete(s.selected, id)
		}
	}
	s.filter()
}

func (s *libraryScreen) has(id uint64) bool {
	for _, d := range s.docs {
		if d.ID == id {
			return true
		}
	}
	return false
}

// filter shows the documents whose title or file name holds the search text.
func (s *libraryScreen) filter() {
	q := strings.ToLower(strings.TrimSpace(s.search.Text))
	s.shown = s.shown[:0]
	paras, chars := 0, 0
	for _, d := range s.docs {
		paras += d.Paragraphs
		chars += d.Chars
		if q == "" || strings.Contains(strings.ToLower(d.Title), q) || strings.Contains(strings.ToLower(filepath.Base(d.Path)), q) {
			s.shown = append(s.shown, d)
		}
	}
	text := s.g.t.T("lib.totals", len(s.docs), paras, chars)
	if q != "" {
		text += s.g.t.T("lib.shown", len(s.shown))
	}
	s.totals.SetText(text)
	if len(s.docs) == 0 {
		s.empty.Show()
	} else {
		s.empty.Hide()
	}
	s.list.Refresh()
	s.updateRemove()
}

func (s *libraryScreen) updateRemove() {
	n := 0
	for _, on := range s.selected {
		if on {
			n++
		}
	}
	if n > 0 && s.g.task == nil {
		s.remove.Enable()
	} else {
		s.remove.Disable()
	}
}

func (s *libraryScreen) chooseFiles() {
	s.g.chooseDocument(func(path string) { s.importPaths([]string{path}) })
}

func (s *libraryScreen) chooseFolder() {
	s.g.chooseFolder(func(path string) { s.importPaths([]string{path}) })
}

// importPaths adds files and folders in the background, showing progress; bad files are listed with
// their reasons and the rest still go in.
func (s *libraryScreen) importPaths(paths []string) {
	g := s.g
	if !g.idle() {
		return
	}
	s.status.SetText("")
	s.failed.Hide()
	s.bar.SetValue(0)
	s.current.SetText("")
	s.progressBox.Show()
	s.setBusy(true)
	g.start(true, func(ctx context.Context, lib *library.Library, err error) func() {
		if err != nil {
			return func() { g.library.finished(library.AddResult{}, err) }
		}
		defer library.LimitHeap()()
		gate := g.progressGate()
		res, err := lib.AddFiles(ctx, paths, library.AddOptions{}, func(p library.AddProgress) {
			if !gate(nil, p.Done, p.Total) {
				return
			}
			fyne.Do(func() { g.library.progress(p) })
		})
		return func() { g.library.finished(res, err) }
	})
}

func (s *libraryScreen) setBusy(busy bool) {
	for _, b := range s.addBtns {
		if busy {
			b.Disable()
		} else {
			b.Enable()
		}
	}
	s.updateRemove()
}

func (s *libraryScreen) progress(p library.AddProgress) {
	s.progressBox.Show()
	if p.Total > 0 {
		s.bar.SetValue(float64(p.Done) / float64(p.Total))
	}
	s.bar.TextFormatter = func() string { return s.g.t.T("lib.importing", p.Done, p.Total) }
	s.bar.Refresh()
	if p.Current != "" {
		s.current.SetText(s.g.t.T("lib.current", filepath.Base(p.Current)))
	}
	if s.afterProgress != nil {
		s.afterProgress()
	}
}

// finished shows what an import did; bad files get a dialog naming each file and its reason.
func (s *libraryScreen) finished(res library.AddResult, err error) {
	t := s.g.t
	s.progressBox.Hide()
	s.setBusy(false)
	s.refresh()
	var msg string
	if errors.Is(err, context.Canceled) {
		msg = t.T("lib.cancelled", len(res.Added))
	} else {
		msg = t.T("lib.imported", len(res.Added))
		if len(res.Duplicates) > 0 {
			msg += t.T("lib.dups", len(res.Duplicates))
		}
		if len(res.Failed) > 0 {
			msg += t.T("lib.failedN", len(res.Failed))
		}
	}
	s.status.SetText(msg)
	if err != nil && !errors.Is(err, context.Canceled) {
		s.g.showError(err)
	}
	if len(res.Failed) == 0 {
		return
	}
	var b strings.Builder
	for _, f := range res.Failed {
		fmt.Fprintf(&b, "%s — %s\n", filepath.Base(f.Path), s.g.t.reason(f.Path, f.Err))
	}
	s.failed.SetText(strings.TrimSpace(b.String()))
	s.failed.Show()
	s.showFailed(res.Failed)
}

// reason is an error without the file's path, which the row already names.
func (t tr) reason(path string, err error) string {
	msg := t.errorText(err)
	if strings.HasPrefix(msg, filepath.Base(path)+t.T("err.file", "", "")) {
		msg = strings.TrimPrefix(msg, filepath.Base(path)+t.T("err.file", "", ""))
	} else {
		for _, p := range []string{path + ": ", filepath.Base(path) + ": "} {
			if i := strings.Index(msg, p); i >= 0 {
				msg = msg[:i] + msg[i+len(p):]
			}
		}
	}
	if a := t.advice(path, err); a != "" {
		msg += " " + a
	}
	return msg
}

func (s *libraryScreen) showFailed(failed []library.FileError) {
	t := s.g.t
	rows := container.NewVBox()
	for _, f := range failed {
		name := widget.NewLabel(f.Path)
		name.TextStyle.Bold = true
		name.Wrapping = fyne.TextWrapBreak
		name.Resize(fyne.NewSize(680, name.MinSize().Height))
		why := wrapLabel(s.g.t.reason(f.Path, f.Err), 680)
		rows.Add(container.NewVBox(name, why, widget.NewSeparator()))
	}
	intro := wrapLabel(t.T("lib.failedIntro"), 680)
	body := container.NewBorder(intro, nil, nil, nil, container.NewVScroll(rows))
	d := dialog.NewCustom(t.T("lib.failedTitle"), t.T("common.close"), body, s.g.win)
	d.Resize(fyne.NewSize(720, 420))
	d.Show()
}

func (s *libraryScreen) confirmRemove() {
	var ids []uint64
	for id, on := range s.selected {
		if on {
			ids = append(ids, id)
		}
	}
	t := s.g.t
	if len(ids) == 0 {
		dialog.ShowInformation(t.T("lib.confirmTitle"), t.T("lib.removeNone"), s.g.win)
		return
	}
	// Fyne's own buttons read "是 / 否" (yes / no), which answer no question the text asks.
	d := dialog.NewConfirm(t.T("lib.confirmTitle"), t.T("lib.confirm", len(ids)), func(ok bool) {
		if ok {
			s.removeIDs(ids)
		}
	}, s.g.win)
	d.SetConfirmText(t.T("common.ok"))
	d.SetDismissText(t.T("common.cancel"))
	d.Show()
}

func (s *libraryScreen) removeIDs(ids []uint64) {
	g := s.g
	if !g.idle() {
		return
	}
	s.status.SetText("") // what the last import said ("导入已取消") is not about this
	g.start(true, func(ctx context.Context, lib *library.Library, err error) func() {
		if err == nil {
			err = lib.Remove(ids...)
		}
		return func() {
			for _, id := range ids {
				delete(g.library.selected, id)
			}
			g.library.refresh()
			if err != nil {
				g.showError(err)
			}
		}
	})
}

// columnLayout places cells in a row: fixed widths where given, the rest shared by zero-width
// columns.
type columnLayout struct{ widths []float32 }

func (c *columnLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	fixed, flex := float32(0), 0
	for _, w := range c.widths {
		fixed += w
		if w == 0 {
			flex++
		}
	}
	pad := theme.Padding()
	free := size.Width - fixed - pad*float32(len(c.widths)-1)
	x := float32(0)
	for i, o := range objs {
		w := c.widths[i]
		if w == 0 {
			w = max(free/float32(flex), 40)
		}
		h := o.MinSize().Height
		o.Move(fyne.NewPos(x, (size.Height-h)/2))
		o.Resize(fyne.NewSize(w, h))
		x += w + pad
	}
}

func (c *columnLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	w := float32(0)
	for _, cw := range c.widths {
		w += max(cw, 40)
	}
	return fyne.NewSize(w, h)
}

// readHome asks the open library where it lives and the room it takes, and shows it under the
// totals. A folder answers at once; a server is asked off the UI goroutine, a round trip that the
// connection test's button makes again. With tell, the answer is also said in a dialog: the user
// asked for it.
func (s *libraryScreen) readHome(tell bool) {
	lib, err := s.g.libraryState()
	if lib == nil || err != nil {
		return
	}
	if !library.IsRemote(s.g.lh.dir) {
		h, err := lib.Home(context.Background())
		s.showHome(h, err, tell)
		return
	}
	lh := s.g.lh
	s.testBtn.Show()
	s.testBtn.Disable()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		h, err := lib.Home(ctx)
		fyne.Do(func() {
			if s.g.lh == lh { // else another library was opened meanwhile
				s.testBtn.Enable()
				s.showHome(h, err, tell)
			}
			// Told once the screen shows the answer: a test that heard it before fyne.Do ran
			// found no dialog yet (seen once in make test).
			if s.homeRead != nil {
				s.homeRead <- err
			}
		})
	}()
}

func (s *libraryScreen) showHome(h library.Home, err error, tell bool) {
	t := s.g.t
	if err != nil {
		s.home.SetText(t.T("lib.homeFail", t.errorText(err)))
		if tell {
			s.g.showError(err)
		}
		return
	}
	s.home.SetText(t.homeText(h))
	if tell {
		dialog.ShowInformation(t.T("lib.testConn"), t.T("lib.connOK", h.Server, roundTrip(h.RoundTrip)), s.g.win)
	}
}

// homeText says where a library lives, in plain words: a folder of this computer, or a server.
func (t tr) homeText(h library.Home) string {
	if h.Kind == "redis" {
		return t.T("lib.homeRedis", h.Where, h.Server, byteSize(h.Bytes), roundTrip(h.RoundTrip))
	}
	return t.T("lib.homeFolder", h.Where, byteSize(h.Bytes))
}

// byteSize is a size as people read it: 467 MB, 1.2 GB (powers of 1,000, as file managers show).
func byteSize(b int64) string {
	switch {
	case b >= 10e9:
		return fmt.Sprintf("%.0f GB", float64(b)/1e9)
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(b)/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(b)/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.0f kB", float64(b)/1e3)
	}
	return fmt.Sprintf("%d B", b)
}

func roundTrip(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
