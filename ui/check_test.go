package ui

import (
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

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
	gcBefore, gcDuring := gcPercent(), 0
	s.afterProgress = func(st check.Stage) {
		if len(stages) == 0 || stages[len(stages)-1] != st {
			stages = append(stages, st)
		}
		gcDuring = max(gcDuring, gcPercent())
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
	// The collector runs less often while the file is checked (check.CollectLess), and as before
	// once it is.
	if after := gcPercent(); gcDuring <= gcBefore || after != gcBefore {
		t.Errorf("collector at %d%% before the check, %d%% during it, %d%% after", gcBefore, gcDuring, after)
	}
}

// gcPercent is the garbage collector's setting (debug.SetGCPercent).
func gcPercent() int {
	v := debug.SetGCPercent(100)
	debug.SetGCPercent(v)
	return v
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

// TestCheckLastStageHonest: with every paragraph aligned the last stage is not shown done while the
// report is still being made, and the status says what is going on; the bars start at one x.
func TestCheckLastStageHonest(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langEN)
	s := g.check
	s.progress.Show()
	g.win.Resize(fyne.NewSize(1024, 700))
	last := len(checkStages) - 1
	s.stage(checkStages[last], 40, 40)
	if s.icons[last].Resource == theme.ConfirmIcon() {
		t.Error("the last stage shows done before the report is made")
	}
	for i := range last {
		if s.icons[i].Resource != theme.ConfirmIcon() || s.bars[i].Value != 1 {
			t.Errorf("stage %s not done once the last one runs", checkStages[i])
		}
	}
	if s.status.Text != g.t.T("check.finishing") {
		t.Errorf("status %q while the report is made", s.status.Text)
	}
	x := s.bars[0].Position().X
	if x <= 0 {
		t.Fatal("the bars were not laid out")
	}
	for i, b := range s.bars {
		if b.Position().X != x {
			t.Errorf("bar %d starts at %v, bar 0 at %v", i, b.Position().X, x)
		}
	}
}

// TestStructurePreview: before a check the app lists the thesis's parts with what the check reads
// of each, and its button checks the file.
func TestStructurePreview(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langZH)
	g.previewFile("testdata/thesis.txt")
	g.wait()
	if g.preview == nil || g.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no preview shown")
	}
	texts := strings.Join(screenTexts(g.preview), "\n")
	for _, want := range []string{g.t.T("sec.front"), g.t.T("sec.abstract"), "第一章 绪论", g.t.T("sec.references"),
		g.t.T("prev.leftOut.front matter"), g.t.T("prev.leftOut.references")} {
		if !strings.Contains(texts, want) {
			t.Errorf("the preview lacks %q:\n%s", want, texts)
		}
	}
	tapped := false
	for _, o := range test.LaidOutObjects(g.win.Canvas().Overlays().Top()) {
		if b, ok := o.(*widget.Button); ok && b.Text == g.t.T("prev.check") {
			test.Tap(b)
			tapped = true
			break
		}
	}
	if !tapped {
		t.Fatal("the preview has no button to check the file")
	}
	g.wait()
	if g.report.r == nil {
		t.Error("the preview's button did not check the file")
	}
}
