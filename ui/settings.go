package ui

import (
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/check"
	"thesischeck/report"
	"thesischeck/rules"
)

// settings are the user's choices, kept in Fyne's preferences. Zero values mean the defaults.
type settings struct {
	LibraryDir  string
	MaxHamming  int    // 0: check's default
	MinRunChars int    // 0: check's default
	Language    string // "", langZH or langEN; "" follows the system
	Theme       string // "", "light" or "dark"; "" follows the system
	Profile     string // "" for none, or a built-in profile of school rules (rules.Builtin)
}

// Default thresholds, as the check package applies them to zero values; shown in the form.
const (
	defaultHamming = 3
	defaultMinRun  = 13
)

func loadSettings(p fyne.Preferences) settings {
	return settings{
		LibraryDir:  p.String("library"),
		MaxHamming:  p.Int("maxHamming"),
		MinRunChars: p.Int("minRun"),
		Language:    p.String("language"),
		Theme:       p.String("theme"),
		Profile:     p.String("profile"),
	}
}

func (s settings) save(p fyne.Preferences) {
	p.SetString("library", s.LibraryDir)
	p.SetInt("maxHamming", s.MaxHamming)
	p.SetInt("minRun", s.MinRunChars)
	p.SetString("language", s.Language)
	p.SetString("theme", s.Theme)
	p.SetString("profile", s.Profile)
}

// profiles are the choices of school rules: none, then the built-in ones.
var profiles = func() []string {
	out := []string{""}
	for _, p := range rules.Builtin {
		out = append(out, p.Name)
	}
	return out
}()

// judged is r with the verdict of the profile set, if any; r itself is not changed (it may be a
// check's own report, kept for recomputing).
func (s settings) judged(r *report.Report) *report.Report {
	if s.Profile == "" {
		return r
	}
	p, err := rules.Load(s.Profile)
	if err != nil { // only built-in names are stored, which always load
		return r
	}
	return p.Judged(r)
}

// checkOptions are the check's thresholds from the settings.
func (s settings) checkOptions() *check.Options {
	return &check.Options{MaxHamming: s.MaxHamming, MinRunChars: s.MinRunChars}
}

type settingsScreen struct {
	g       *gui
	content fyne.CanvasObject

	libDir  *widget.Entry
	hamming *widget.Select
	minRun  *widget.Select
	lang    *widget.Select
	theme   *widget.Select
	profile *widget.Select
}

func newSettingsScreen(g *gui) *settingsScreen {
	s := &settingsScreen{g: g}
	t := g.t

	s.libDir = widget.NewEntry()
	dir, _ := g.libraryDir()
	s.libDir.SetText(dir)
	s.libDir.OnSubmitted = func(string) { s.apply() }
	browse := widget.NewButton(t.T("set.browse"), func() {
		d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err != nil || u == nil {
				return
			}
			s.libDir.SetText(u.Path())
			s.apply()
		}, g.win)
		d.Show()
	})

	// The selects get their handlers once all hold the current settings: setting one fires it.
	s.hamming = widget.NewSelect(numbers(1, 10), nil)
	s.hamming.SetSelected(strconv.Itoa(orDefault(g.set.MaxHamming, defaultHamming)))
	s.minRun = widget.NewSelect(numbers(5, 40), nil)
	s.minRun.SetSelected(strconv.Itoa(orDefault(g.set.MinRunChars, defaultMinRun)))
	s.lang = widget.NewSelect([]string{t.T("set.system"), "中文", "English"}, nil)
	s.lang.SetSelectedIndex(indexOf([]string{"", langZH, langEN}, g.set.Language))
	s.theme = widget.NewSelect([]string{t.T("set.system"), t.T("set.light"), t.T("set.dark")}, nil)
	s.theme.SetSelectedIndex(indexOf([]string{"", "light", "dark"}, g.set.Theme))
	names := []string{t.T("set.profileNone")}
	for _, p := range profiles[1:] {
		names = append(names, t.T("verdict.profile."+p))
	}
	s.profile = widget.NewSelect(names, nil)
	s.profile.SetSelectedIndex(indexOf(profiles, g.set.Profile))
	for _, sel := range []*widget.Select{s.hamming, s.minRun, s.lang, s.theme, s.profile} {
		sel.OnChanged = func(string) { s.apply() }
	}

	help := func(key string) fyne.CanvasObject {
		l := wrapLabel(t.T(key), 600)
		l.SizeName = theme.SizeNameCaptionText
		return l
	}
	form := widget.NewForm(
		widget.NewFormItem(t.T("set.library"), container.NewVBox(container.NewBorder(nil, nil, nil, browse, s.libDir), help("set.libraryHelp"))),
		widget.NewFormItem(t.T("set.hamming"), container.NewVBox(s.hamming, help("set.hammingHelp"))),
		widget.NewFormItem(t.T("set.minRun"), container.NewVBox(s.minRun, help("set.minRunHelp"))),
		widget.NewFormItem(t.T("set.profile"), container.NewVBox(s.profile, help("set.profileHelp"))),
		widget.NewFormItem(t.T("set.language"), s.lang),
		widget.NewFormItem(t.T("set.theme"), s.theme),
	)
	s.content = container.NewPadded(container.NewVBox(form))
	return s
}

// apply saves the form and puts it into effect: a new library folder reopens the library, a new
// language rebuilds the screens.
func (s *settingsScreen) apply() {
	g := s.g
	old := g.set
	n := old
	// The entry shows the folder in use (--library, else the setting, else the default): only an
	// edit of it is a new library. Compared with the setting, a user who had never set one (or
	// started the app with --library) reopened the library on every change of a threshold, theme
	// or language, saved the folder as the setting, and was refused any change while a check ran.
	inUse, _ := g.libraryDir()
	newDir := s.libDir.Text != inUse
	if newDir {
		n.LibraryDir = s.libDir.Text
	}
	n.MaxHamming, _ = strconv.Atoi(s.hamming.Selected)
	n.MinRunChars, _ = strconv.Atoi(s.minRun.Selected)
	n.Language = []string{"", langZH, langEN}[max(0, s.lang.SelectedIndex())]
	n.Theme = []string{"", "light", "dark"}[max(0, s.theme.SelectedIndex())]
	n.Profile = profiles[max(0, s.profile.SelectedIndex())]
	if n == old {
		return
	}
	if newDir && g.task != nil {
		dialog.ShowInformation(g.t.T("common.error"), g.t.T("common.busy"), g.win)
		s.libDir.SetText(inUse)
		return
	}
	g.set = n
	n.save(g.app.Preferences())
	if newDir {
		g.libDirArg = ""
	}
	if n.Language != old.Language || n.Theme != old.Theme {
		g.applyLook()
		g.build()
	} else if n.Profile != old.Profile && g.report.res != nil {
		g.report.recompute() // judged by the new rules
	}
	// Last: the screens it refreshes once the library is open are the ones build made.
	if newDir {
		g.reopenLibrary()
	}
}

// reopenLibrary closes the library and opens the one now set.
func (g *gui) reopenLibrary() {
	old := g.lh
	go func() {
		<-old.ready
		if old.lib != nil {
			old.lib.Close()
		}
	}()
	g.openLibrary()
}

func numbers(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

func orDefault(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

func indexOf(list []string, v string) int {
	for i, s := range list {
		if s == v {
			return i
		}
	}
	return 0
}
