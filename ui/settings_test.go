package ui

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"thesischeck/report"
)

func TestSettingsApply(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langZH)
	s := g.settings

	s.minRun.SetSelected("20")
	s.hamming.SetSelected("5")
	if o := g.set.checkOptions(); o.MinRunChars != 20 || o.MaxHamming != 5 {
		t.Errorf("check options %+v after choosing 20 and 5", o)
	}
	if p := g.app.Preferences(); p.Int("minRun") != 20 || p.Int("maxHamming") != 5 {
		t.Error("thresholds not saved")
	}

	g.settings.lang.SetSelectedIndex(2) // English
	if g.t.lang != langEN || g.tabs.Items[tabLibrary].Text != "Library" || g.win.Title() != "ThesisCheck" {
		t.Errorf("language %s, tab %q after choosing English", g.t.lang, g.tabs.Items[tabLibrary].Text)
	}
	g.settings.theme.SetSelectedIndex(2) // dark
	th := g.app.Settings().Theme()
	if th.Color(theme.ColorNameBackground, theme.VariantLight) != theme.DefaultTheme().Color(theme.ColorNameBackground, theme.VariantDark) {
		t.Error("dark theme not applied")
	}
	if th.Font(fyne.TextStyle{}) != fontRegular || th.Font(fyne.TextStyle{Bold: true}) != fontBold {
		t.Error("the theme does not use the bundled CJK font")
	}

	// A new library folder reopens the library there.
	dir := filepath.Join(t.TempDir(), "other")
	g.settings.libDir.SetText(dir)
	g.settings.apply()
	<-g.lh.shown
	if g.lh.dir != dir || g.lh.err != nil || len(g.library.docs) != 0 {
		t.Errorf("library %s (%v) with %d documents, want the new empty one", g.lh.dir, g.lh.err, len(g.library.docs))
	}
}

// TestStringTables checks that both languages have every string, and that each table speaks its
// own language.
func TestStringTables(t *testing.T) {
	latin := regexp.MustCompile(`[A-Za-z]{2,}`)
	allowed := map[string]bool{"ThesisCheck": true, "PDF": true, "DOCX": true, "TXT": true, "HTML": true, "JSON": true, "CSV": true, "SimHash": true,
		"WPS": true, "Word": true, "OCR": true, "Redis": true} // names of products and of a technique that Chinese users know in Latin letters
	url := regexp.MustCompile(`rediss?://[^\s（）]*`) // an address is written as it is typed
	for key, zh := range msgs[langZH] {
		en, ok := msgs[langEN][key]
		if !ok || en == "" || zh == "" {
			t.Errorf("%s: missing or empty (zh %q, en %q)", key, zh, en)
		}
		for _, w := range latin.FindAllString(url.ReplaceAllString(zh, ""), -1) {
			if !allowed[w] {
				t.Errorf("%s: Chinese string %q has the English word %q", key, zh, w)
			}
		}
		if strings.Count(zh, "%") != strings.Count(en, "%") {
			t.Errorf("%s: the two strings take different arguments: %q, %q", key, zh, en)
		}
	}
	han := regexp.MustCompile(`\p{Han}`)
	for key, en := range msgs[langEN] {
		if _, ok := msgs[langZH][key]; !ok {
			t.Errorf("%s: missing in Chinese", key)
		}
		if han.MatchString(en) {
			t.Errorf("%s: English string %q has Chinese", key, en)
		}
	}
}

// TestScreensOneLanguage renders every screen in each language and looks for the other language in
// the app's own words (document text and file names aside).
func TestScreensOneLanguage(t *testing.T) {
	han := regexp.MustCompile(`\p{Han}`)
	latin := regexp.MustCompile(`[A-Za-z]{3,}`)
	allowed := map[string]bool{"ThesisCheck": true, "PDF": true, "DOCX": true, "TXT": true, "HTML": true, "JSON": true,
		"SimHash": true, "source": true, "txt": true, "thesis": true, "Redis": true}
	for _, code := range []string{langZH, langEN} {
		t.Run(code, func(t *testing.T) {
			g := checkedGUI(t, code)
			r := g.report.r
			screens := map[string]fyne.CanvasObject{"library": g.library.content, "check": g.check.content,
				"report": g.report.content, "settings": g.settings.content}
			for name, c := range screens {
				for _, text := range screenTexts(c) {
					if fromDocument(r, text) || strings.Contains(text, "/") {
						continue // the thesis's own words, file names
					}
					if code == langEN && han.MatchString(text) {
						t.Errorf("%s screen in English shows %q", name, text)
					}
					if code == langZH {
						for _, w := range latin.FindAllString(text, -1) {
							if !allowed[w] {
								t.Errorf("%s screen in Chinese shows %q", name, text)
							}
						}
					}
				}
			}
		})
	}
}

// fromDocument reports whether text is part of the checked document (a wrapped line of a paragraph,
// a chapter name) or the report number.
func fromDocument(r *report.Report, text string) bool {
	if strings.Contains(text, r.Number) {
		return true
	}
	for _, p := range r.Paragraphs {
		if strings.Contains(p.Text, text) {
			return true
		}
	}
	for _, s := range r.Sections {
		if s.Name == text {
			return true
		}
	}
	return false
}

// Changing a threshold, the theme or the language leaves the library open, and the folder in use
// unsaved, when the library folder was not edited: the entry shows the folder in use (here the
// --library one, with no folder set), which apply took for a new one. The library was closed and
// opened again on every such change, and while a check ran the change was refused with "busy" and
// the folder entry emptied.
func TestSettingsLeaveLibraryAlone(t *testing.T) {
	dir := testLibrary(t)
	g := newTestGUI(t, dir, langEN)
	lh := g.lh
	g.task = &task{cancel: func() {}, done: make(chan struct{})} // a check running
	g.settings.minRun.SetSelected("20")
	g.settings.theme.SetSelectedIndex(2) // dark: the screens are built again
	g.task = nil
	g.settings.hamming.SetSelected("5") // no check running
	if g.lh != lh || g.set.MinRunChars != 20 || g.set.Theme != "dark" || g.set.MaxHamming != 5 {
		t.Errorf("library reopened %v, settings %+v", g.lh != lh, g.set)
	}
	if saved := g.app.Preferences().String("library"); saved != "" || g.settings.libDir.Text != dir {
		t.Errorf("library folder saved as %q, shown as %q", saved, g.settings.libDir.Text)
	}
	if o := g.win.Canvas().Overlays().Top(); o != nil {
		t.Errorf("a dialog is open: %T", o)
	}
}
