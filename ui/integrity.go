package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/library"
)

// The library screen's damage panel: when opening the library, listing it or a check finds damage
// (an error wrapping library.ErrDamaged), it says so and offers `library check` (what is damaged)
// and `library repair` (rebuild, and name what must be added again). Both close the app's library,
// run off the UI goroutine with progress, and open it again.

func (s *libraryScreen) newDamageBox() {
	t := s.g.t
	s.damageText = wrapLabel("", 1000)
	s.damageText.Importance = widget.DangerImportance
	s.checkLib = widget.NewButtonWithIcon(t.T("lib.checkLib"), theme.SearchIcon(), func() { s.runIntegrity(false) })
	s.repairLib = widget.NewButtonWithIcon(t.T("lib.repairLib"), theme.ViewRefreshIcon(), func() { s.runIntegrity(true) })
	s.repairLib.Importance = widget.HighImportance
	s.integrityTo = wrapLabel("", 1000)
	s.damageBox = container.NewVBox(s.damageText, container.NewHBox(s.checkLib, s.repairLib), s.integrityTo)
	s.damageBox.Hide()
}

// damaged shows the damage panel when err says the library is damaged. Other errors leave it as
// it is; nil hides it unless a check or repair result is on show.
func (s *libraryScreen) damaged(err error) {
	switch {
	case errors.Is(err, library.ErrDamaged):
		s.damageText.SetText(s.g.t.T("lib.damaged", s.g.t.errorText(err)))
		s.damageBox.Show()
	case err == nil && s.integrityTo.Text == "":
		s.damageBox.Hide()
	}
}

// runIntegrity checks (repair false) or repairs the library in the background.
func (s *libraryScreen) runIntegrity(repair bool) {
	g := s.g
	if !g.idle() {
		return
	}
	t := g.t
	dir := g.lh.dir
	s.checkLib.Disable()
	s.repairLib.Disable()
	s.cancel.Disable() // neither stops half-way: a repair replaces files
	s.integrityTo.SetText("")
	s.bar.SetValue(0)
	s.bar.TextFormatter = nil
	s.current.SetText(t.T("lib.checking"))
	s.progressBox.Show()
	// The library is closed first: the check reads it whole, the repair replaces its files. Until
	// it opens again the screens see a handle that says why there is none.
	old := g.lh
	closed := &libHandle{dir: dir, ready: make(chan struct{}), shown: make(chan struct{}), err: errors.New(t.T("lib.closedFor"))}
	close(closed.ready)
	close(closed.shown)
	g.lh = closed
	g.start(false, func(ctx context.Context, _ *library.Library, _ error) func() {
		<-old.ready
		if old.lib != nil {
			old.lib.Close()
		}
		gate := g.progressGate()
		progress := func(done, total int) {
			if gate(nil, done, total) && total > 0 {
				fyne.Do(func() { s.bar.SetValue(float64(done) / float64(total)) })
			}
		}
		var text string
		var err error
		damaged := false
		if repair {
			var r *library.RepairReport
			if r, err = library.Repair(dir, progress); err == nil {
				text, damaged = t.repairText(r), len(r.Lost) > 0
			}
		} else {
			var r *library.CheckReport
			if r, err = library.Check(dir, progress); err == nil {
				text, damaged = t.checkText(r), r.Damaged()
			}
		}
		return func() {
			s.progressBox.Hide()
			s.cancel.Enable()
			s.checkLib.Enable()
			s.repairLib.Enable()
			if err != nil {
				text = t.errorText(err)
			}
			s.integrityTo.SetText(text)
			if !damaged && err == nil {
				s.damageText.SetText(t.T("lib.noDamage"))
				s.damageText.Importance = widget.SuccessImportance
			} else {
				s.damageText.Importance = widget.DangerImportance
			}
			s.damageText.Refresh()
			s.damageBox.Show()
			g.openLibrary()
		}
	})
}

// checkText is a check's findings in the user's words.
func (t tr) checkText(r *library.CheckReport) string {
	if !r.Damaged() {
		return t.T("lib.checkClean", r.Documents)
	}
	var b strings.Builder
	b.WriteString(t.T("lib.checkFound", len(r.Problems)))
	for i, p := range r.Problems {
		if i == 12 {
			fmt.Fprintf(&b, "\n  … %d", len(r.Problems)-i)
			break
		}
		b.WriteString("\n  " + p.What)
	}
	b.WriteString("\n" + t.T("lib.checkAdvice"))
	return b.String()
}

// repairText is what a repair did, in the user's words.
func (t tr) repairText(r *library.RepairReport) string {
	if !r.Repaired {
		return t.T("lib.repairNothing", r.Documents)
	}
	var b strings.Builder
	b.WriteString(t.T("lib.repaired", r.Documents))
	if r.Backup != "" {
		b.WriteString("\n" + t.T("lib.backup", r.Backup))
	}
	if len(r.Lost) > 0 {
		b.WriteString("\n" + t.T("lib.lost", len(r.Lost)))
		for _, d := range r.Lost {
			name := cmpStr(d.Path, d.Title)
			fmt.Fprintf(&b, "\n  %d  %s", d.ID, name)
		}
	}
	return b.String()
}

func cmpStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// showDamage is how a check that found damage ends: the error, and the library screen's panel.
func (g *gui) showDamage(err error) {
	g.library.damaged(err)
	g.showErrorText(g.t.errorText(err) + "\n\n" + g.t.T("lib.damagedHint"))
}
