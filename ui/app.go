// Package ui is the ThesisCheck desktop app (Fyne). It is a thin layer over the core packages:
// library for the reference library, check for a check, report for the figures and exports, compare
// for submissions checked against each other. Long work runs in goroutines with a context for
// cancel; every widget change from them goes through fyne.Do.
//
// One file per screen: library.go, check.go, report.go (with summary.go and detail.go), compare.go,
// settings.go. marked.go draws highlighted text, which Fyne's RichText cannot.
package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/library"
	"thesischeck/report"
	"thesischeck/similarity"
	_ "thesischeck/ui/internal/posixlocale" // before Fyne reads the locale: see there
)

// appID names the app's preferences and matches FyneApp.toml.
const appID = "io.github.thesischeck"

// Run opens the app on the library in libraryDir (empty: the one in Settings, else the default). With
// file set, it checks file as soon as the library is open and shows the report.
func Run(libraryDir, file string) error {
	if err := haveDisplay(); err != nil {
		return err
	}
	return run(app.NewWithID(appID), libraryDir, file, nil)
}

// errNoDisplay: the app was asked for where no window can open (a server, a terminal over ssh).
var errNoDisplay = errors.New("no display to open the app on")

const noDisplayHint = "run it in a desktop session, or use the command line (thesischeck help)"

// haveDisplay refuses to start the app on an X11 or Wayland system whose session names no display:
// GLFW would only log that it found none, and Fyne then panic when it makes the window.
func haveDisplay() error {
	switch runtime.GOOS {
	case "windows", "darwin", "android", "ios", "js", "wasip1":
		return nil
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fmt.Errorf("%w (neither DISPLAY nor WAYLAND_DISPLAY is set): %s", errNoDisplay, noDisplayHint)
	}
	return nil
}

// newWindow is newGUI, with the panic Fyne raises when GLFW could not start (a display named but
// not there, no OpenGL) turned into an error.
func newWindow(a fyne.App, libraryDir string) (g *gui, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w (DISPLAY=%q; the window did not open: %v): %s", errNoDisplay, os.Getenv("DISPLAY"), r, noDisplayHint)
		}
	}()
	return newGUI(a, libraryDir), nil
}

// run is Run on a given app; ready, when set, is called on the UI goroutine once the report of file is
// shown, or with no file once the library is open (the window tests take their screenshots there).
func run(a fyne.App, libraryDir, file string, ready func(*gui)) error {
	// Every check and import needs jieba's dictionary (0.7 s to load, 1.5 s without huge pages): it
	// loads while the user looks around, not when the first check starts. An error shows when one
	// asks for it.
	go similarity.Default()
	g, err := newWindow(a, libraryDir)
	if err != nil {
		return err
	}
	g.onReport = ready
	g.win.Resize(fyne.NewSize(1360, 880))
	if file != "" {
		g.checkFile(file)
	} else if ready != nil {
		go func() {
			<-g.lh.shown
			fyne.Do(func() { ready(g) })
		}()
	}
	g.win.ShowAndRun()
	return g.close()
}

// gui is the app's state. Its fields are touched on the UI goroutine only.
type gui struct {
	app fyne.App
	win fyne.Window
	set settings
	t   tr

	libDirArg string // --library from the command line, which wins over Settings
	lh        *libHandle
	task      *task
	lastTask  *task // for tests: the last task started, running or not

	tabs     *container.AppTabs
	library  *libraryScreen
	check    *checkScreen
	report   *reportScreen
	compare  *compareScreen
	settings *settingsScreen

	onReport func(*gui)      // test hook, see run
	preview  *fyne.Container // the parts of the last structure preview, for tests
	// pending counts background work outside tasks (sorting dropped files, verifying reports);
	// tests wait on it. lastVerdict is the verification verdict shown last.
	pending     sync.WaitGroup
	lastVerdict *verdictView
	// progressEvery is the least time between two progress updates of the same stage: enough for the
	// eye, and the UI goroutine is not flooded. Tests set 0 to see every update.
	progressEvery time.Duration
}

// libHandle is one opening of the library: ready closes when lib or err is set, shown once the
// screens have been told (tests wait for that).
type libHandle struct {
	dir   string
	ready chan struct{}
	shown chan struct{}
	lib   *library.Library
	err   error
}

// task is the one long job running at a time (import, check or compare).
type task struct {
	cancel context.CancelFunc
	done   chan struct{}
}

func newGUI(a fyne.App, libraryDir string) *gui {
	a.SetIcon(appIcon)
	g := &gui{app: a, libDirArg: libraryDir, progressEvery: 50 * time.Millisecond}
	g.set = loadSettings(a.Preferences())
	g.applyLook()
	g.win = a.NewWindow(g.t.T("app.title"))
	g.win.SetIcon(appIcon)
	g.win.SetOnDropped(g.dropped)
	g.build()
	g.openLibrary()
	return g
}

// applyLook sets the theme and language from the settings.
func (g *gui) applyLook() {
	code := g.set.Language
	if code == "" {
		code = systemLanguage()
	}
	g.t = tr{code}
	syncFyneLanguage(code)
	g.app.Settings().SetTheme(&appTheme{variant: g.set.Theme})
}

// build (re)creates every screen in the current language; the report and the comparison shown
// survive.
func (g *gui) build() {
	selected := 0
	if g.tabs != nil {
		selected = g.tabs.SelectedIndex()
	}
	var shown *reportScreen
	if g.report != nil {
		shown = g.report
	}
	prevCompare := g.compare
	g.library = newLibraryScreen(g)
	g.check = newCheckScreen(g)
	g.report = newReportScreen(g)
	g.compare = newCompareScreen(g)
	g.settings = newSettingsScreen(g)
	if shown != nil && shown.r != nil {
		g.report.res, g.report.excluded, g.report.minRun = shown.res, shown.excluded, shown.minRun
		g.report.show(shown.r)
	}
	if prevCompare != nil {
		g.compare.adopt(prevCompare)
	}
	g.tabs = container.NewAppTabs(
		container.NewTabItemWithIcon(g.t.T("tab.library"), theme.StorageIcon(), g.library.content),
		container.NewTabItemWithIcon(g.t.T("tab.check"), theme.SearchIcon(), g.check.content),
		container.NewTabItemWithIcon(g.t.T("tab.report"), theme.DocumentIcon(), g.report.content),
		container.NewTabItemWithIcon(g.t.T("tab.compare"), theme.ContentCopyIcon(), g.compare.content),
		container.NewTabItemWithIcon(g.t.T("tab.settings"), theme.SettingsIcon(), g.settings.content),
	)
	g.tabs.SetTabLocation(container.TabLocationLeading)
	g.tabs.SelectIndex(selected)
	g.win.SetTitle(g.t.T("app.title"))
	g.win.SetContent(g.tabs)
	g.library.refresh()
}

// Tab indexes, in the order of build.
const (
	tabLibrary = iota
	tabCheck
	tabReport
	tabCompare
	tabSettings
)

// libraryDir is the folder the app uses: --library, else Settings, else the default.
func (g *gui) libraryDir() (string, error) {
	if g.libDirArg != "" {
		return g.libDirArg, nil
	}
	if g.set.LibraryDir != "" {
		return g.set.LibraryDir, nil
	}
	return library.DefaultDir()
}

// openLibrary opens the library in the background; loading the segmenter and index takes a second or
// more on a big library.
func (g *gui) openLibrary() {
	lh := &libHandle{ready: make(chan struct{}), shown: make(chan struct{})}
	g.lh = lh
	dir, err := g.libraryDir()
	lh.dir = dir
	g.library.refresh()
	g.check.refresh()
	go func() {
		if err == nil {
			lh.lib, err = library.Open(dir, nil)
		}
		lh.err = err
		close(lh.ready)
		fyne.Do(func() {
			if g.lh == lh {
				g.library.refresh()
				g.check.refresh()
			}
		})
		close(lh.shown)
	}()
}

// libraryState is the open library, or nil with the reason (nil while it is still opening).
func (g *gui) libraryState() (*library.Library, error) {
	if g.lh == nil {
		return nil, nil
	}
	select {
	case <-g.lh.ready:
		return g.lh.lib, g.lh.err
	default:
		return nil, nil
	}
}

// idle reports whether no task runs; if one does, it tells the user so.
func (g *gui) idle() bool {
	if g.task != nil {
		dialog.ShowInformation(g.t.T("common.error"), g.t.T("common.busy"), g.win)
		return false
	}
	return true
}

// start runs work off the UI goroutine, once the library has opened when needLib; work gets the
// library, or the reason there is none (it failed to open, or the task was cancelled while waiting),
// and returns what to do on the UI goroutine when it ends. Only one task runs at a time: callers
// check idle first, and set up their progress display before start, since work may end at once.
func (g *gui) start(needLib bool, work func(ctx context.Context, lib *library.Library, err error) func()) {
	ctx, cancel := context.WithCancel(context.Background())
	t := &task{cancel: cancel, done: make(chan struct{})}
	g.task, g.lastTask = t, t
	lh := g.lh
	go func() {
		defer close(t.done)
		defer cancel()
		var lib *library.Library
		var err error
		if needLib {
			select {
			case <-lh.ready:
				lib, err = lh.lib, lh.err
			case <-ctx.Done():
				err = ctx.Err()
			}
		}
		finish := work(ctx, lib, err)
		fyne.Do(func() {
			g.task = nil
			finish()
		})
	}()
}

// cancelTask stops the running task, if any.
func (g *gui) cancelTask() {
	if g.task != nil {
		g.task.cancel()
	}
}

// wait blocks until the last task started has ended, its results shown; tests call it.
func (g *gui) wait() {
	if g.lastTask != nil {
		<-g.lastTask.done
	}
}

// wrapLabel is a word-wrapped label sized to width until its first layout: a wrapped label measures
// its height at its current width, and at zero width it stands one word a line, tall enough to
// stretch the window when it first opens.
func wrapLabel(text string, width float32) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.MinSize() // creates the renderer, which the resize then lays out
	l.Resize(fyne.NewSize(width, 40))
	return l
}

func (g *gui) showError(err error) { g.showErrorText(g.t.withAdvice(err)) }

// showErrorText shows text in an error dialog. Not Fyne's own: it capitalises the first letter,
// and a file name ("thesis.pdf: …") must read as the user named the file.
func (g *gui) showErrorText(text string) {
	msg := container.New(widthLayout(520), wrapLabel(text, 520))
	body := container.NewBorder(nil, nil, container.NewVBox(widget.NewIcon(theme.ErrorIcon())), nil, msg)
	dialog.NewCustom(g.t.T("common.error"), g.t.T("common.ok"), body, g.win).Show()
}

// widthLayout gives its one object a fixed width and the height the object needs at that width. A
// dialog sizes itself to its content's MinSize, which for wrapped text is as wide as its longest
// word: an error dialog was a column of a few words a line, a path broken every 15 characters.
type widthLayout float32

func (w widthLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	o := objs[0]
	if o.Size().Width != float32(w) {
		o.Resize(fyne.NewSize(float32(w), o.MinSize().Height))
	}
	return fyne.NewSize(float32(w), o.MinSize().Height)
}

func (w widthLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.Position{})
	objs[0].Resize(size)
}

// fileDialogSize is the size of the file dialogs: Fyne's default cuts long paths and names short.
var fileDialogSize = fyne.NewSize(900, 600)

// chooseDocument asks for a thesis or library file (PDF, DOCX, TXT) and passes its path to use;
// nothing happens when the user cancels, an error shows in a dialog.
func (g *gui) chooseDocument(use func(path string)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) { g.chosen(r, err, use) }, g.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".pdf", ".docx", ".txt"}))
	d.Resize(fileDialogSize)
	d.Show()
}

// chosen ends a file dialog: it closes the file the user chose (Fyne opens it; ThesisCheck opens it
// again by path) and passes its path to use; an error shows, a cancel (f nil) does nothing.
func (g *gui) chosen(f interface {
	URI() fyne.URI
	Close() error
}, err error, use func(path string)) {
	if err != nil {
		g.showError(err)
		return
	}
	if f == nil {
		return
	}
	path := f.URI().Path()
	f.Close()
	use(path)
}

// chooseFolder asks for a folder and passes its path to use, like chooseDocument.
func (g *gui) chooseFolder(use func(path string)) {
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil {
			g.showError(err)
			return
		}
		if u != nil {
			use(u.Path())
		}
	}, g.win)
	d.Resize(fileDialogSize)
	d.Show()
}

// chooseSaveFile asks where to save a file, suggesting name, and passes the path to use, like
// chooseDocument.
func (g *gui) chooseSaveFile(name string, use func(path string)) {
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) { g.chosen(w, err, use) }, g.win)
	d.SetFileName(name)
	d.Resize(fileDialogSize)
	d.Show()
}

// progressGate reports which progress updates of a background task go to the UI goroutine: the
// first of each stage, the last (done == total), and otherwise one every g.progressEvery at most,
// so that a fast stage does not flood it.
func (g *gui) progressGate() func(stage any, done, total int) bool {
	var last time.Time
	var lastStage any
	every := g.progressEvery
	return func(stage any, done, total int) bool {
		if stage == lastStage && done < total && time.Since(last) < every {
			return false
		}
		last, lastStage = time.Now(), stage
		return true
	}
}

// dropped sends files dropped on the window where they belong. Reports, told from theses by their
// content, are verified; other files go to the screen showing: the library imports them, the compare
// screen compares them (or, dropped on its earlier-years zone, adds them there), any other screen
// checks the first file. Telling them apart reads the files,
// so it runs off the UI goroutine.
func (g *gui) dropped(pos fyne.Position, uris []fyne.URI) {
	var paths []string
	for _, u := range uris {
		if u.Scheme() == "file" {
			paths = append(paths, u.Path())
		}
	}
	if len(paths) == 0 {
		return
	}
	tab := g.tabs.SelectedIndex()
	g.pending.Add(1)
	go func() {
		defer g.pending.Done()
		var reports, docs []string
		for _, p := range paths {
			if report.LooksLikeReport(p) {
				reports = append(reports, p)
			} else {
				docs = append(docs, p)
			}
		}
		fyne.DoAndWait(func() {
			for _, p := range reports {
				g.verifyReport(p)
			}
			if len(docs) == 0 {
				return
			}
			switch tab {
			case tabLibrary:
				g.library.importPaths(docs)
			case tabCompare:
				g.compare.dropped(pos, docs)
			default:
				g.checkFile(docs[0])
			}
		})
	}()
}

// checkFile checks path and shows its report.
func (g *gui) checkFile(path string) {
	g.tabs.SelectIndex(tabCheck)
	g.check.run(path)
}

// close ends a running task and closes the library.
func (g *gui) close() error {
	if g.task != nil {
		g.task.cancel()
		<-g.task.done
	}
	// shown, not ready: the screens are told of the library after it opened (fyne.Do, which a test
	// driver runs on the opening goroutine), and must not read it once it is closed.
	select {
	case <-g.lh.shown:
	case <-time.After(10 * time.Second):
		return errors.New("the library did not finish opening")
	}
	if g.lh.lib != nil {
		return g.lh.lib.Close()
	}
	return nil
}
