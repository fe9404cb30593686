package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"thesischeck/library"
)

func TestLibraryImportListSearchRemove(t *testing.T) {
	g := newTestGUI(t, filepath.Join(t.TempDir(), "lib"), langEN)
	s := g.library
	if !s.empty.Visible() {
		t.Error("an empty library shows no hint")
	}
	s.importPaths([]string{"testdata/library"})
	g.wait()
	if len(s.docs) != 2 || len(s.shown) != 2 || s.empty.Visible() {
		t.Fatalf("after import: %d documents, %d shown", len(s.docs), len(s.shown))
	}
	if want := g.t.T("lib.imported", 2); s.status.Text != want {
		t.Errorf("status %q, want %q", s.status.Text, want)
	}
	paras, chars := 0, 0
	for _, d := range s.docs {
		paras += d.Paragraphs
		chars += d.Chars
	}
	if want := g.t.T("lib.totals", 2, paras, chars); s.totals.Text != want {
		t.Errorf("totals %q, want %q", s.totals.Text, want)
	}
	// The rows show title, file, paragraphs, characters and date.
	texts := strings.Join(screenTexts(s.content), "\n")
	for _, want := range []string{"source-a.txt", "source-b.txt", fmt.Sprint(s.docs[0].Paragraphs),
		s.docs[0].Added.Local().Format("2006-01-02")} {
		if !strings.Contains(texts, want) {
			t.Errorf("library screen lacks %q", want)
		}
	}

	test.Type(s.search, "SOURCE-B")
	if len(s.shown) != 1 || filepath.Base(s.shown[0].Path) != "source-b.txt" {
		t.Fatalf("search shows %+v", s.shown)
	}
	s.list.Select(0) // ticks the row
	if !s.selected[s.shown[0].ID] || s.remove.Disabled() {
		t.Fatal("selecting a row did not enable Remove")
	}
	test.Tap(s.remove)
	if g.win.Canvas().Overlays().Top() == nil {
		t.Fatal("Remove asks nothing")
	}
	s.removeIDs([]uint64{s.shown[0].ID})
	g.wait()
	test.Type(s.search, "") // typing nothing keeps the filter; clear it
	s.search.SetText("")
	if len(s.docs) != 1 || filepath.Base(s.docs[0].Path) != "source-a.txt" {
		t.Errorf("after remove: %+v", s.docs)
	}
}

func TestLibraryImportProgressAndCancel(t *testing.T) {
	src, err := os.ReadFile("testdata/library/source-a.txt")
	if err != nil {
		t.Fatal(err)
	}
	in := t.TempDir()
	const n = 30
	for i := range n {
		text := fmt.Sprintf("第%d份材料：%s", i, src)
		if err := os.WriteFile(filepath.Join(in, fmt.Sprintf("doc%02d.txt", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := newTestGUI(t, filepath.Join(t.TempDir(), "lib"), langZH)
	g.progressEvery = 0
	s := g.library

	// Each progress update pauses the import until the test has looked at the screen.
	type seen struct {
		value   float64
		current string
		visible bool
	}
	updates := make(chan seen)
	resume := make(chan bool)
	s.afterProgress = func() {
		updates <- seen{s.bar.Value, s.current.Text, s.progressBox.Visible()}
		if <-resume {
			test.Tap(s.cancel)
		}
	}
	s.importPaths([]string{in})
	var got []seen
	for u := range updates {
		got = append(got, u)
		cancel := len(got) == 3
		resume <- cancel
		if cancel {
			break
		}
	}
	// Updates after the cancel, if any were in flight, still need releasing.
	go func() {
		for range updates {
			resume <- false
		}
	}()
	g.wait()
	close(updates)

	for k, u := range got {
		if !u.visible {
			t.Errorf("update %d: progress hidden", k)
		}
	}
	last := got[len(got)-1]
	if last.value <= 0 || last.value >= 1 {
		t.Errorf("progress %v after %d updates of %d files", last.value, len(got), n)
	}
	if !strings.HasPrefix(last.current, g.t.T("lib.current", "")) || !strings.Contains(last.current, "doc") {
		t.Errorf("current file shows %q", last.current)
	}
	docs, err := g.lh.lib.List()
	if err != nil {
		t.Fatal(err)
	}
	added := len(docs)
	if added >= n {
		t.Errorf("cancel did not stop the import: %d of %d added", added, n)
	}
	if want := g.t.T("lib.cancelled", added); s.status.Text != want {
		t.Errorf("status %q, want %q", s.status.Text, want)
	}
	if s.progressBox.Visible() {
		t.Error("progress still shown after cancel")
	}
	if len(s.docs) != added {
		t.Errorf("list shows %d documents, library holds %d", len(s.docs), added)
	}
}

func TestLibraryBadFileShowsReason(t *testing.T) {
	g := newTestGUI(t, filepath.Join(t.TempDir(), "lib"), langEN)
	s := g.library
	s.importPaths([]string{"testdata/bad"})
	g.wait()
	if len(s.docs) != 1 || filepath.Base(s.docs[0].Path) != "good.txt" {
		t.Fatalf("the good file did not go in: %+v", s.docs)
	}
	if !s.failed.Visible() || !strings.Contains(s.failed.Text, "damaged.docx") || !strings.Contains(s.failed.Text, "ZIP") {
		t.Errorf("failed list %q (visible %v), want damaged.docx and its reason", s.failed.Text, s.failed.Visible())
	}
	top := g.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog for the bad file")
	}
	texts := strings.Join(screenTexts(top), "\n")
	if !strings.Contains(texts, filepath.Join("testdata", "bad", "damaged.docx")) || !strings.Contains(texts, "not a valid ZIP") {
		t.Errorf("dialog says:\n%s", texts)
	}
}

// TestRemoveConfirmWordsAndStaleStatus: the remove dialog's buttons say 确定 / 取消 (Fyne's own read
// "是 / 否"), and a removal clears what the last import said.
func TestRemoveConfirmWordsAndStaleStatus(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langZH)
	s := g.library
	s.status.SetText(g.t.T("lib.cancelled", 0))
	s.selected[s.docs[0].ID] = true
	s.updateRemove()
	test.Tap(s.remove)
	top := g.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Remove asks nothing")
	}
	texts := strings.Join(screenTexts(top), "\n")
	for _, want := range []string{"确定", "取消"} {
		if !strings.Contains(texts, want) {
			t.Errorf("the remove dialog lacks %q:\n%s", want, texts)
		}
	}
	for _, bad := range []string{"是", "否", "不", "Yes", "No"} {
		for _, line := range strings.Split(texts, "\n") {
			if line == bad {
				t.Errorf("the remove dialog has a button %q", bad)
			}
		}
	}
	s.removeIDs([]uint64{s.docs[0].ID})
	g.wait()
	if s.status.Text == g.t.T("lib.cancelled", 0) {
		t.Errorf("the status line still says %q after a removal", s.status.Text)
	}
}

// TestSecondInstanceRefusedInChinese: a library another ThesisCheck holds is refused with a Chinese
// reason in the Chinese app, not the core's English.
func TestSecondInstanceRefusedInChinese(t *testing.T) {
	dir := testLibrary(t)
	held, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	a := test.NewTempApp(t)
	a.Preferences().SetString("language", langZH)
	g := newGUI(a, dir)
	defer g.close()
	<-g.lh.shown
	if !errors.Is(g.lh.err, library.ErrLocked) {
		t.Fatalf("opening a held library: %v, want ErrLocked", g.lh.err)
	}
	got := g.library.status.Text
	if !strings.Contains(got, "另一个 ThesisCheck 程序") || strings.Contains(got, "another") {
		t.Errorf("status %q, want the Chinese refusal", got)
	}
}

// The library screen says where the library lives and the room it takes.
func TestLibraryHomeFolder(t *testing.T) {
	for _, code := range []string{langEN, langZH} {
		dir := testLibrary(t)
		g := newTestGUI(t, dir, code)
		s := g.library
		s.refresh()
		var size int64
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
				size += info.Size()
			}
		}
		want := g.t.T("lib.homeFolder", dir, byteSize(size))
		if s.home.Text != want {
			t.Errorf("%s: home %q, want %q", code, s.home.Text, want)
		}
		if size < 1000 || !strings.Contains(s.home.Text, byteSize(size)) {
			t.Errorf("%s: %d bytes in the folder, shown as %q", code, size, s.home.Text)
		}
		if s.testBtn.Visible() {
			t.Errorf("%s: a folder library offers a connection test", code)
		}
	}
}

func TestByteSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {999, "999 B"}, {1500, "2 kB"}, {467_000_000, "467 MB"}, {1_234_000_000, "1.2 GB"}, {31_000_000_000, "31 GB"}} {
		if got := byteSize(c.n); got != c.want {
			t.Errorf("byteSize(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
