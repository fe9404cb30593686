package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"thesischeck/check"
)

func TestCheckStagesAndReport(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langEN)
	s := g.check
	docs, paras := g.lh.lib.Stats()
	if want := g.t.T("check.lib", docs, paras); s.libInfo.Text != want || docs != 2 {
		t.Errorf("library line %q, want %q", s.libInfo.Text, want)
	}
	g.progressEvery = 0
	var stages []check.Stage
	s.afterProgress = func(st check.Stage) {
		if len(stages) == 0 || stages[len(stages)-1] != st {
			stages = append(stages, st)
		}
		if !s.progress.Visible() {
			t.Error("progress hidden during the check")
		}
	}
	g.checkFile("testdata/thesis.txt")
	g.wait()
	for _, st := range checkStages {
		found := false
		for _, got := range stages {
			found = found || got == st
		}
		if !found && st != check.StageSearch {
			t.Errorf("stage %s never shown (saw %v)", st, stages)
		}
	}
	for i, b := range s.bars {
		if b.Value != 1 {
			t.Errorf("stage %s at %v after the check", checkStages[i], b.Value)
		}
	}
	if g.report.r == nil || g.tabs.SelectedIndex() != tabReport {
		t.Fatal("the report did not open")
	}
}

func TestCheckCancel(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langZH)
	g.progressEvery = 0
	s := g.check
	s.afterProgress = func(st check.Stage) {
		if st == check.StageFingerprint {
			test.Tap(s.cancel)
		}
	}
	g.checkFile("testdata/thesis.txt")
	g.wait()
	if s.status.Text != g.t.T("check.cancelled") {
		t.Errorf("status %q after cancel; task %v, report %v", s.status.Text, g.task != nil, g.report.r != nil)
	}
	if g.report.r != nil || g.tabs.SelectedIndex() != tabCheck {
		t.Error("a cancelled check opened a report")
	}
	if s.choose.Disabled() {
		t.Error("cannot choose another thesis after cancel")
	}
}

func TestCheckBadFileShowsReason(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langEN)
	bad := filepath.Join("testdata", "bad", "damaged.docx")
	g.checkFile(bad)
	g.wait()
	top := g.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no error dialog for a damaged thesis")
	}
	texts := strings.Join(screenTexts(top), "\n")
	if !strings.Contains(texts, bad) || !strings.Contains(texts, "not a valid ZIP") {
		t.Errorf("dialog says:\n%s", texts)
	}
	// Fyne's error dialog would have made it "Extract testdata/…".
	if !strings.Contains(texts, "extract "+bad) {
		t.Errorf("the dialog does not show the message as said (a file name is not capitalised):\n%s", texts)
	}
	if g.check.status.Text != g.t.T("check.failed") {
		t.Errorf("status %q", g.check.status.Text)
	}
}
