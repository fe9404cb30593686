package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// With nothing to check against, the check button is off and the screen says why; a file dropped on
// the window is refused the same way; once the library holds a document the button is on.
func TestCheckButtonSaysWhyLibraryIsEmpty(t *testing.T) {
	g := newTestGUI(t, filepath.Join(t.TempDir(), "lib"), langEN)
	s := g.check
	if !s.choose.Disabled() || s.libInfo.Text != g.t.T("check.emptyLib") {
		t.Fatalf("empty library: button disabled %v, says %q", s.choose.Disabled(), s.libInfo.Text)
	}
	if !strings.Contains(strings.Join(screenTexts(s.content), "\n"), "The library is empty") {
		t.Error("the check screen does not show why")
	}
	g.checkFile("testdata/thesis.txt")
	g.wait()
	if g.report.r != nil || s.status.Text != g.t.T("check.emptyLib") {
		t.Errorf("a file dropped on an empty library: report %v, status %q", g.report.r != nil, s.status.Text)
	}
	g.library.importPaths([]string{"testdata/library/source-a.txt"})
	g.wait()
	if s.choose.Disabled() || s.libInfo.Text == g.t.T("check.emptyLib") {
		t.Errorf("after an import: button disabled %v, says %q", s.choose.Disabled(), s.libInfo.Text)
	}
	// The count follows every import (issue 20, item 2: it stayed stale).
	g.library.importPaths([]string{"testdata/library/source-b.txt"})
	g.wait()
	docs, paras := g.lh.lib.Stats()
	if want := g.t.T("check.lib", docs, paras); s.libInfo.Text != want || docs != 2 {
		t.Errorf("after a second import the check screen says %q, want %q", s.libInfo.Text, want)
	}
}

// A library with a damaged document record: the library screen says it is damaged and offers check
// and repair; the repair runs in the background, says what it did in plain words, and the library
// opens again whole.
func TestLibraryDamagePanelRepairs(t *testing.T) {
	dir := testLibrary(t)
	db := filepath.Join(dir, "library.db")
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte(`source-b.txt","title"`))
	if i < 0 {
		t.Fatal("no record of source-b.txt")
	}
	b[i+2] ^= 0x20
	if err := os.WriteFile(db, b, 0o644); err != nil {
		t.Fatal(err)
	}
	g := newTestGUI(t, dir, langEN)
	s := g.library
	if !s.damageBox.Visible() || !strings.Contains(s.damageText.Text, "damaged") {
		t.Fatalf("damage panel shown %v, says %q", s.damageBox.Visible(), s.damageText.Text)
	}
	test.Tap(s.checkLib)
	g.wait()
	if !strings.Contains(s.integrityTo.Text, g.t.T("lib.checkFound", 1)) || !strings.Contains(s.integrityTo.Text, "document 2") {
		t.Errorf("check says %q", s.integrityTo.Text)
	}
	<-g.lh.shown
	test.Tap(s.repairLib)
	g.wait()
	if !strings.Contains(s.integrityTo.Text, g.t.T("lib.repaired", 2)) || !strings.Contains(s.integrityTo.Text, filepath.Join(dir, "damaged-")) {
		t.Errorf("repair says %q", s.integrityTo.Text)
	}
	<-g.lh.shown
	if g.lh.err != nil || len(s.docs) != 2 || s.docs[1].Damaged != "" || s.damageText.Text != g.t.T("lib.noDamage") {
		t.Errorf("after repair: %v, %+v, panel %q", g.lh.err, s.docs, s.damageText.Text)
	}
}
