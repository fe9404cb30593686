package ui

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"thesischeck/compare"
	"thesischeck/internal/synth"
)

// writeUIClass writes a class of six: s2 copies three of s1's four paragraphs, s4 one of s3's four,
// the others are their own. Paragraphs are words drawn from jieba's dictionary by frequency, so
// that only the copies share runs of words.
func writeUIClass(t *testing.T) string {
	t.Helper()
	para := dictParagraphs(t, 3, 6)
	own := func(n int) []string {
		var out []string
		for range n {
			out = append(out, para())
		}
		return out
	}
	s1, s3 := own(4), own(4)
	docs := map[string][]string{
		"s1.txt": s1, "s2.txt": append(append([]string(nil), s1[:3]...), own(1)...),
		"s3.txt": s3, "s4.txt": append([]string{s3[0]}, own(3)...),
		"s5.txt": own(4), "s6.txt": own(4),
	}
	dir := filepath.Join(t.TempDir(), "class")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, ps := range docs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(ps, "\n\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// dictParagraphs returns a maker of paragraphs of sentences sentences, each of 10 to 17 words drawn
// from jieba's dictionary by frequency (random stream seed): only copies share runs of words.
func dictParagraphs(t *testing.T, seed uint64, sentences int) func() string {
	t.Helper()
	words, cum, err := synth.DictWords()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 5))
	return func() string {
		var b strings.Builder
		for s := 0; s < sentences; s++ {
			for w := 0; w < 10+rng.IntN(8); w++ {
				b.WriteString(words[sort.SearchFloat64s(cum, rng.Float64()*cum[len(cum)-1])])
			}
			b.WriteString("。")
		}
		return b.String()
	}
}

// runCompare compares paths on the compare screen and waits for the result.
func runCompare(t *testing.T, g *gui, paths ...string) *compare.Result {
	t.Helper()
	g.tabs.SelectIndex(tabCompare)
	g.compare.run(paths)
	g.wait()
	if g.compare.res == nil {
		t.Fatalf("no result; status %q", g.compare.status.Text)
	}
	return g.compare.res
}

// pairNames names a pair by its files, sorted.
func pairNames(res *compare.Result, p compare.Pair) string {
	a, b := res.Documents[p.A].Name, res.Documents[p.B].Name
	if a > b {
		a, b = b, a
	}
	return a + " " + b
}

// The compare screen: a matrix that names its documents, a threshold dragged on the histogram that
// changes the flagged pairs and groups as it moves, and a pair shown side by side with the next
// fragment a tap away.
func TestCompareScreen(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langEN)
	res := runCompare(t, g, writeUIClass(t), "testdata/bad/damaged.docx")
	s := g.compare
	var flagged []string
	for _, p := range s.flagged {
		flagged = append(flagged, pairNames(res, p))
	}
	if strings.Join(flagged, ",") != "s1.txt s2.txt,s3.txt s4.txt" {
		t.Fatalf("flagged %v, want s1–s2 and s3–s4", flagged)
	}
	if len(res.Clusters) != 2 {
		t.Errorf("%d groups, want 2", len(res.Clusters))
	}
	texts := strings.Join(screenTexts(s.content), "\n")
	if !strings.Contains(texts, "damaged.docx — file is damaged") || strings.Contains(texts, "— extract ") || !strings.Contains(texts, g.t.T("cmp.failed")) {
		t.Errorf("the unreadable file is not listed with its reason, named once:\n%s", texts)
	}
	if strings.Contains(texts, g.t.T("cmp.warned")) {
		t.Errorf("files with warnings listed in a class without any:\n%s", texts)
	}

	// The matrix names its rows, the copying pairs side by side.
	var rows []string
	for _, o := range test.LaidOutObjects(s.matrix) {
		if txt, ok := o.(*canvas.Text); ok && strings.Contains(txt.Text, ".txt") {
			rows = append(rows, txt.Text)
		}
	}
	if len(rows) != len(s.order) || len(rows) < 4 {
		t.Fatalf("matrix rows named %v for %d documents", rows, len(s.order))
	}
	for k, d := range s.order {
		if want := fmt.Sprintf("%d. %s", k+1, res.Documents[d].Name); rows[k] != want {
			t.Errorf("row %d named %q, want %q", k, rows[k], want)
		}
	}
	pos := map[string]int{}
	for k, d := range s.order {
		pos[res.Documents[d].Name] = k
	}
	for _, p := range [][2]string{{"s1.txt", "s2.txt"}, {"s3.txt", "s4.txt"}} {
		if d := pos[p[0]] - pos[p[1]]; d != 1 && d != -1 {
			t.Errorf("matrix order %v keeps %v apart", rows, p)
		}
	}

	// Dragging the threshold line to 50 % leaves the 75 % copy flagged and not the 25 % one.
	h := s.hist
	dragLine(h, 0.15, 0.5)
	if s.res.Threshold != 0.5 || len(s.flagged) != 1 || pairNames(res, s.flagged[0]) != "s1.txt s2.txt" || len(res.Clusters) != 1 {
		t.Fatalf("after dragging to 50 %%: threshold %v, flagged %d, groups %d", s.res.Threshold, len(s.flagged), len(res.Clusters))
	}
	if want := g.t.T("cmp.threshold", "50.0%", g.t.T("cmp.nPairs", 1), g.t.T("cmp.nGroups", 1)); s.flagInfo.Text != want {
		t.Errorf("flag count says %q, want %q", s.flagInfo.Text, want)
	}
	if s.pairs.Length() != 1 {
		t.Errorf("the pair list shows %d pairs", s.pairs.Length())
	}
	// And back down to 10 %: both again.
	dragLine(h, 0.5, 0.1)
	if s.res.Threshold != 0.1 || len(s.flagged) != 2 {
		t.Errorf("after dragging to 10 %%: threshold %v, flagged %d", s.res.Threshold, len(s.flagged))
	}

	// Tapping the pair's cell opens it; each side's current fragment is marked, word by word.
	c := s.matrix.cell()
	i, j := pos["s1.txt"], pos["s2.txt"]
	s.matrix.Tapped(&fyne.PointEvent{Position: fyne.NewPos(labelWidth+float32(j)*c+c/2, headerHeight+float32(i)*c+c/2)})
	v := s.pairView
	if v == nil || g.win.Canvas().Overlays().Top() == nil {
		t.Fatal("tapping the cell opened nothing")
	}
	n := len(v.p.Fragments)
	if n < 3 || v.counter.Text != g.t.T("cmp.fragment", 1, n) {
		t.Fatalf("%d fragments, counter %q", n, v.counter.Text)
	}
	current := func(side int) string {
		var b strings.Builder
		for _, m := range v.sides[side].texts {
			for _, mk := range m.marks {
				if mk.color == currentFragment && !mk.weak {
					b.WriteString(string(m.text[mk.start:mk.end]))
				}
			}
		}
		return b.String()
	}
	a0, b0 := current(0), current(1)
	if a0 == "" || a0 != b0 {
		t.Errorf("the current fragment's words differ: %q / %q", a0, b0)
	}
	test.Tap(findButton(t, v.content, g.t.T("cmp.next")))
	if v.counter.Text != g.t.T("cmp.fragment", 2, n) || current(0) == a0 {
		t.Errorf("next: counter %q, marked %q", v.counter.Text, current(0))
	}
	test.Tap(findButton(t, v.content, g.t.T("cmp.prev")))
	test.Tap(findButton(t, v.content, g.t.T("cmp.prev")))
	if v.counter.Text != g.t.T("cmp.fragment", n, n) {
		t.Errorf("previous from the first: counter %q", v.counter.Text)
	}
}

// dragLine drags the histogram's threshold line from one similarity to another in ten moves, as
// the desktop driver reports a drag: each event at the pointer's position, with the move since the
// last one.
func dragLine(h *histogram, from, to float64) {
	w := h.Size().Width / histMax
	x := float32(from) * w
	for k := 1; k <= 10; k++ {
		nx := float32(from+(to-from)*float64(k)/10) * w
		h.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(nx, 20)}, Dragged: fyne.NewDelta(nx-x, 0)})
		x = nx
	}
	h.DragEnd()
}

// findButton finds the button labelled text in o.
func findButton(t *testing.T, o fyne.CanvasObject, text string) fyne.Tappable {
	t.Helper()
	for _, c := range test.LaidOutObjects(o) {
		if b, ok := c.(interface {
			fyne.Tappable
			fyne.CanvasObject
		}); ok && strings.Contains(strings.Join(screenTexts(b), ""), text) {
			return b
		}
	}
	t.Fatalf("no button %q", text)
	return nil
}

// A comparison survives a change of language and theme, at the threshold it was shown at.
func TestCompareSurvivesLanguageSwitch(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langZH)
	res := runCompare(t, g, writeUIClass(t))
	g.compare.setThreshold(0.3)
	g.settings.lang.SetSelectedIndex(2) // English
	g.settings.theme.SetSelectedIndex(2)
	if g.t.lang != langEN {
		t.Fatalf("language %q after switching", g.t.lang)
	}
	s := g.compare
	if s.res != res || s.res.Threshold != 0.3 || len(s.flagged) != 1 {
		t.Fatalf("after the switch: result %p (was %p), threshold %v, %d flagged", s.res, res, s.res.Threshold, len(s.flagged))
	}
	newDocs, old := res.Compared()
	if want := g.t.T("cmp.docs", newDocs, old, len(res.Pairs), 1); s.status.Text != want {
		t.Errorf("status %q, want %q", s.status.Text, want)
	}
	if s.matrix == nil || len(s.matrix.order) < 4 || !strings.Contains(strings.Join(screenTexts(s.content), "\n"), "Similar pairs") {
		t.Error("the matrix and the pair list are not shown in English")
	}
}

// Earlier years dropped on their zone are compared with this year's, never with each other; the
// export goes beside the class folder, never into it, and a report put in the folder by hand is not
// taken as a submission on the next run.
func TestCompareEarlierYearsAndExports(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langEN)
	class := writeUIClass(t)
	oldDir := filepath.Join(t.TempDir(), "2025")
	if err := os.Mkdir(oldDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"s1.txt", "s5.txt"} { // last year's copies: s1's and s5's text
		data, err := os.ReadFile(filepath.Join(class, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(oldDir, "old-"+name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first := runCompare(t, g, class)
	if n, o := first.Compared(); n != 6 || o != 0 {
		t.Fatalf("before the earlier years: %d new and %d old documents, want 6 and 0", n, o)
	}
	s := g.compare
	zone := fyne.CurrentApp().Driver().AbsolutePositionForObject(s.oldZone).AddXY(5, 5)
	g.dropped(zone, []fyne.URI{storage.NewFileURI(oldDir)})
	g.pending.Wait()
	g.wait()
	res := s.res
	if res == first {
		t.Fatal("dropping the earlier years did not run the comparison again")
	}
	if n, o := res.Compared(); n != 6 || o != 2 {
		t.Fatalf("%d new and %d old documents, want 6 and 2", n, o)
	}
	oldPairs := 0
	for _, p := range res.Pairs {
		a, b := res.Documents[p.A], res.Documents[p.B]
		if a.Old && b.Old {
			t.Errorf("old pair %s–%s compared", a.Name, b.Name)
		}
		if a.Old || b.Old {
			oldPairs++
		}
	}
	if oldPairs < 3 { // old-s1 with s1 and s2, old-s5 with s5
		t.Errorf("%d new–old pairs, want at least 3: %+v", oldPairs, res.Pairs)
	}

	dir, name := s.exportPlace("pdf")
	if dir != filepath.Dir(class) || name != "class-compare.pdf" {
		t.Errorf("export goes to %s / %s, want beside %s", dir, name, class)
	}
	inside := filepath.Join(class, "compare.pdf")
	if err := exportComparison(res, "pdf", inside, s.roots()); err == nil || !strings.Contains(err.Error(), "being compared") {
		t.Errorf("export into the class folder: %v", err)
	}
	if _, err := os.Stat(inside); err == nil {
		t.Error("the refused export was written")
	}
	beside := filepath.Join(dir, name)
	if err := exportComparison(res, "pdf", beside, s.roots()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(beside)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inside, data, 0o644); err != nil { // as an older version saved it
		t.Fatal(err)
	}
	res = runCompare(t, g, class)
	if n, _ := res.Compared(); n != 6 || len(res.Skipped()) != 1 || res.Documents[res.Skipped()[0]].Name != "compare.pdf" {
		t.Errorf("the export in the folder was compared: %d new documents, skipped %v", n, res.Skipped())
	}
	if !strings.Contains(strings.Join(screenTexts(s.content), "\n"), "compare.pdf — "+g.t.T("cmp.skipped")) {
		t.Error("the skipped export is not listed")
	}
}

// A comparison that compared no pair shows why in a dialog, in the window's language, beside the
// list of files not read: its empty matrix and "0 similar" are no finding.
func TestCompareNothingSaysSo(t *testing.T) {
	for _, code := range []string{langEN, langZH} {
		g := newTestGUI(t, testLibrary(t), code)
		one := filepath.Join(writeUIClass(t), "s1.txt")
		runCompare(t, g, one, "testdata/bad/damaged.docx")
		top := g.win.Canvas().Overlays().Top()
		if top == nil {
			t.Fatalf("%s: no dialog for a comparison of one readable submission", code)
		}
		if texts := strings.Join(screenTexts(top), "\n"); !strings.Contains(texts, g.t.T("cmp.nothing", 1)) {
			t.Errorf("%s: the dialog says:\n%s", code, texts)
		}
		if texts := strings.Join(screenTexts(g.compare.content), "\n"); !strings.Contains(texts, "damaged.docx") {
			t.Errorf("%s: the unreadable file is not listed:\n%s", code, texts)
		}
		// Exporting it is refused the same way: no signed "0 similar" of no pair.
		g.win.Canvas().Overlays().Remove(top)
		g.compare.export("pdf")
		if top = g.win.Canvas().Overlays().Top(); top == nil || !strings.Contains(strings.Join(screenTexts(top), "\n"), g.t.T("cmp.nothing", 1)) {
			t.Errorf("%s: exporting a comparison of no pair was not refused", code)
		}
	}
	// Two readable submissions compare without a dialog.
	g := newTestGUI(t, testLibrary(t), langEN)
	class := writeUIClass(t)
	runCompare(t, g, filepath.Join(class, "s1.txt"), filepath.Join(class, "s2.txt"))
	if top := g.win.Canvas().Overlays().Top(); top != nil {
		t.Errorf("a dialog after a comparison of two submissions:\n%s", strings.Join(screenTexts(top), "\n"))
	}
}

// A submission with spaced-out Chinese (a trick to dodge checkers) is listed with its warning, in the
// app's words, above the files not read.
func TestCompareScreenWarnings(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langEN)
	dir := writeUIClass(t)
	text := dictParagraphs(t, 4, 3)()
	if err := os.WriteFile(filepath.Join(dir, "spaced.txt"), []byte(strings.Join(strings.Split(text, ""), " ")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runCompare(t, g, dir)
	var spaced *compare.Document
	for i := range res.Documents {
		if res.Documents[i].Name == "spaced.txt" {
			spaced = &res.Documents[i]
		}
	}
	if spaced == nil || len(spaced.Warnings) != 1 {
		t.Fatalf("spaced.txt: %+v", spaced)
	}
	want := "spaced.txt — " + g.t.T("warn.spaced", spaced.Warnings[0].Count)
	texts := strings.Join(screenTexts(g.compare.content), "\n")
	if !strings.Contains(texts, g.t.T("cmp.warned")) || !strings.Contains(texts, want) {
		t.Errorf("the warning is not listed as %q:\n%s", want, texts)
	}
	// The list is as high as its lines, not a one-line scroll.
	if p, ok := g.compare.problems().(*container.Scroll); !ok || p.MinSize().Height < p.Content.MinSize().Height {
		t.Errorf("the list of warnings is not as high as its lines: %T", g.compare.problems())
	}
}

// In the Chinese app a file the comparison could not read is listed with its reason in Chinese,
// its details as the reader gave them, as a check's error dialog says it.
func TestCompareScreenFailedInChinese(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langZH)
	res := runCompare(t, g, writeUIClass(t), "testdata/bad/damaged.docx")
	failed := res.Failed()
	if len(failed) != 1 {
		t.Fatalf("failed %v", failed)
	}
	want := "damaged.docx — " + g.t.T("err.corrupt")
	texts := strings.Join(screenTexts(g.compare.content), "\n")
	if !strings.Contains(texts, want) || strings.Contains(texts, "damaged.docx — damaged.docx") {
		t.Errorf("the unread file is not listed, named once, as %q:\n%s", want, texts)
	}
}
