package ui

import (
	"context"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"thesischeck/check"
	"thesischeck/keys"
	"thesischeck/report"
	"thesischeck/rules"
)

// checkedGUI opens the app on the test library and checks testdata/thesis.txt.
func checkedGUI(t *testing.T, code string) *gui {
	t.Helper()
	g := newTestGUI(t, testLibrary(t), code)
	g.checkFile("testdata/thesis.txt")
	g.wait()
	if g.report.r == nil {
		var dlg []string
		if top := g.win.Canvas().Overlays().Top(); top != nil {
			dlg = screenTexts(top)
		}
		t.Fatalf("no report after the check; status %q, dialog %q", g.check.status.Text, dlg)
	}
	if g.tabs.SelectedIndex() != tabReport {
		t.Errorf("tab %d after the check, want the report", g.tabs.SelectedIndex())
	}
	return g
}

// paragraphWith finds the paragraph of r that contains s.
func paragraphWith(t *testing.T, r *report.Report, s string) int {
	t.Helper()
	for i, p := range r.Paragraphs {
		if strings.Contains(p.Text, s) {
			return i
		}
	}
	t.Fatalf("no paragraph contains %q", s)
	return -1
}

func TestReportFigures(t *testing.T) {
	g := checkedGUI(t, langZH)
	r := g.report.r

	// The screen shows the report the check package makes for this document.
	want, err := check.File(context.Background(), g.lh.lib, "testdata/thesis.txt", g.set.checkOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Similarity != want.Similarity || r.CopiedChars != want.CopiedChars || r.TotalChars != want.TotalChars ||
		len(r.Sources) != len(want.Sources) {
		t.Fatalf("report differs from check.File: %v/%d/%d vs %v/%d/%d", r.Similarity, r.CopiedChars, r.TotalChars,
			want.Similarity, want.CopiedChars, want.TotalChars)
	}
	// What the fixture was written to contain: two sources, source-a first (one paragraph copied whole,
	// one quoted with a citation), and quotes lowering the figure without quotes.
	if len(r.Sources) != 2 || filepath.Base(r.Sources[0].Path) != "source-a.txt" || filepath.Base(r.Sources[1].Path) != "source-b.txt" {
		t.Fatalf("sources %+v, want source-a then source-b", r.Sources)
	}
	if !(r.SimilarityExcludingQuotes < r.Similarity) || r.FlaggedParas != 3 {
		t.Errorf("similarity %v, without quotes %v, %d flagged; want quotes to count and 3 flagged",
			r.Similarity, r.SimilarityExcludingQuotes, r.FlaggedParas)
	}

	tt := g.t
	if got := g.report.overall.Text(); got != percent(r.Similarity) {
		t.Errorf("gauge shows %s, want %s", got, percent(r.Similarity))
	}
	figures := map[string]string{
		tt.T("rep.exclQuotes"): percent(r.SimilarityExcludingQuotes),
		tt.T("rep.maxSingle"):  percent(r.MaxSingleSource),
		tt.T("rep.copied"):     fmt.Sprintf("%d / %d", r.CopiedChars, r.TotalChars),
		tt.T("rep.flagged"):    fmt.Sprintf("%d / %d", r.FlaggedParas, len(r.Paragraphs)),
	}
	for label, value := range figures {
		f, ok := g.report.figures[label]
		if !ok {
			t.Errorf("no figure %q in the summary band", label)
			continue
		}
		if f.Text != value {
			t.Errorf("%s shows %q, want %q", label, f.Text, value)
		}
	}
	// Every figure is on screen, with the source list and the section bars.
	texts := strings.Join(screenTexts(g.report.content), "\n")
	for _, want := range []string{percent(r.Similarity), percent(r.Sources[0].Similarity), "第一章 绪论",
		tt.T("sec.abstract"), tt.T("rep.jaccard", fmt.Sprintf("%.2f", r.Sources[0].Jaccard)), tt.T("excl.references")} {
		if !strings.Contains(texts, want) {
			t.Errorf("the report screen does not show %q", want)
		}
	}
}

func TestReportHighlights(t *testing.T) {
	g := checkedGUI(t, langZH)
	r := g.report.r
	colorA := sourceColor(r.Sources[0].Color)

	copied := paragraphWith(t, r, "卷积神经网络通过局部连接")
	original := paragraphWith(t, r, "本课题来源于合作医院")
	marks := g.report.filter.marks(r, &r.Paragraphs[copied])
	covered := 0
	for _, m := range marks {
		if m.color != colorA {
			t.Errorf("copied paragraph marked in %v, want source-a's %v", m.color, colorA)
		}
		covered += m.end - m.start
	}
	if n := len([]rune(r.Paragraphs[copied].Text)); covered < n*9/10 {
		t.Errorf("%d of %d characters highlighted in the paragraph copied whole", covered, n)
	}
	if m := g.report.filter.marks(r, &r.Paragraphs[original]); len(m) != 0 {
		t.Errorf("original paragraph has highlights %v", m)
	}

	// The rendered row draws the highlight: a rectangle in the source's colour under the copied text.
	row := findRow(t, g, "卷积神经网络通过局部连接")
	if !strings.HasPrefix(row.figure.Text, percent(r.Paragraphs[copied].Similarity)) {
		t.Errorf("row figure %q, want %s", row.figure.Text, percent(r.Paragraphs[copied].Similarity))
	}
	underline := 0
	for _, o := range test.WidgetRenderer(row.text).Objects() {
		if rc, ok := o.(*canvas.Rectangle); ok && rc.FillColor == color.Color(colorA) {
			underline++
		}
	}
	if underline == 0 {
		t.Error("no rectangle in source-a's colour behind the copied paragraph")
	}
}

// findRow returns the list row showing the paragraph that contains s.
func findRow(t *testing.T, g *gui, s string) *paraRow {
	t.Helper()
	for _, o := range test.LaidOutObjects(g.win.Content()) {
		if row, ok := o.(*paraRow); ok && o.Visible() && strings.Contains(string(row.text.text), s) {
			return row
		}
	}
	t.Fatalf("no row shows %q", s)
	return nil
}

func TestReportSideBySide(t *testing.T) {
	g := checkedGUI(t, langEN)
	r := g.report.r
	i := paragraphWith(t, r, "数据增强策略")
	p := &r.Paragraphs[i]
	m := p.Matches[0]

	v := newDetailView(g.t, r, p)
	c := sourceColor(r.Sources[m.Source].Color)
	for side, got := range map[string]struct {
		text  *markedText
		spans [][2]int
		full  string
	}{"thesis": {v.left, m.Spans, p.Text}, "source": {v.right, m.SourceSpans, m.SourceText}} {
		if string(got.text.text) != got.full {
			t.Errorf("%s side shows %q", side, string(got.text.text))
		}
		// The marks cover the spans exactly; inside, what both sides share is marked strongly and
		// what a copier changed weakly.
		var merged []mark
		strong := 0
		for _, mk := range got.text.marks {
			if mk.color != c {
				t.Errorf("%s mark %+v not in %v", side, mk, c)
			}
			if !mk.weak {
				strong += mk.end - mk.start
			}
			if n := len(merged); n > 0 && merged[n-1].end == mk.start {
				merged[n-1].end = mk.end
				continue
			}
			merged = append(merged, mk)
		}
		if len(merged) != len(got.spans) {
			t.Fatalf("%s side's marks cover %d runs, want %d", side, len(merged), len(got.spans))
		}
		for k, mk := range merged {
			if mk.start != got.spans[k][0] || mk.end != got.spans[k][1] {
				t.Errorf("%s marks %d cover %d–%d, want %v", side, k, mk.start, mk.end, got.spans[k])
			}
		}
		if strong*10 < covered(got.spans)*8 {
			t.Errorf("%s side: only %d of %d marked characters shared with the other side", side, strong, covered(got.spans))
		}
		// The marked passage is the same text on both sides, but for the punctuation that closes
		// the thesis's sentence (a copied sentence is marked whole, its full stop too).
		if side == "source" {
			a := lettersOf(string([]rune(p.Text)[m.Spans[0][0]:m.Spans[0][1]]))
			b := lettersOf(string([]rune(m.SourceText)[m.SourceSpans[0][0]:m.SourceSpans[0][1]]))
			if a != b || a == "" {
				t.Errorf("highlighted %q in the thesis but %q in the source", a, b)
			}
		}
	}
	for _, want := range []string{g.t.T("rep.hamming", m.Hamming), g.t.T("rep.jaccard", fmt.Sprintf("%.2f", m.Jaccard))} {
		if !strings.Contains(v.figures.Text, want) {
			t.Errorf("figures %q lack %q", v.figures.Text, want)
		}
	}

	// Clicking the row opens the comparison in a dialog.
	for k, pi := range g.report.visible {
		if pi == i {
			g.report.list.Select(k)
		}
	}
	top := g.win.Canvas().Overlays().Top()
	if top == nil || !strings.Contains(strings.Join(screenTexts(top), "\n"), g.t.T("det.thesis", i+1)) {
		t.Error("clicking a flagged paragraph opened no side-by-side view")
	}
}

func TestReportFilters(t *testing.T) {
	g := checkedGUI(t, langZH)
	r := g.report.r
	quoted := paragraphWith(t, r, "有学者指出")
	refs := paragraphWith(t, r, "[1] 张三")
	abstract := paragraphWith(t, r, "数据增强策略")
	whole := paragraphWith(t, r, "卷积神经网络通过局部连接")
	has := func(list []int, i int) bool {
		for _, v := range list {
			if v == i {
				return true
			}
		}
		return false
	}
	if r.Paragraphs[quoted].Status != "quoted" {
		t.Fatalf("fixture: the cited quotation has status %q", r.Paragraphs[quoted].Status)
	}

	tests := []struct {
		name     string
		f        reportFilter
		shown    []int
		hidden   []int
		unmarked []int // shown without highlights
	}{
		{"all", reportFilter{source: -1}, []int{quoted, refs, abstract, whole}, nil, nil},
		{"hide quotes and references", reportFilter{source: -1, hideQuotes: true}, []int{abstract, whole}, []int{quoted, refs}, nil},
		{"source-b only", reportFilter{source: 1}, []int{abstract}, []int{quoted, refs, whole}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vis := tc.f.visible(r)
			for _, i := range tc.shown {
				if !has(vis, i) {
					t.Errorf("paragraph %d hidden", i)
				}
			}
			for _, i := range tc.hidden {
				if has(vis, i) {
					t.Errorf("paragraph %d shown", i)
				}
			}
			for _, i := range tc.unmarked {
				if m := tc.f.marks(r, &r.Paragraphs[i]); len(m) != 0 {
					t.Errorf("paragraph %d still marked: %v", i, m)
				}
			}
		})
	}

	// The controls drive the list.
	g.report.srcSel.SetSelectedIndex(2)
	if len(g.report.visible) != 1 || g.report.visible[0] != abstract {
		t.Errorf("choosing source-b shows paragraphs %v, want [%d]", g.report.visible, abstract)
	}
	want := g.t.T("rep.filter.shown", 1, len(r.Paragraphs))
	if g.report.shown.Text != want {
		t.Errorf("count %q, want %q", g.report.shown.Text, want)
	}
}

func TestReportExport(t *testing.T) {
	g := checkedGUI(t, langEN)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the signing key goes here
	dir := t.TempDir()
	for _, format := range []string{"json", "html", "pdf"} {
		path := filepath.Join(dir, "report."+format)
		if err := exportReport(g.report.r, format, path); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if format == "html" {
			data, err := os.ReadFile(path)
			if err != nil || !strings.Contains(string(data), g.report.r.Number) {
				t.Errorf("HTML export lacks the report number (%v)", err)
			}
			continue
		}
		trust, err := keys.OpenUser()
		if err != nil {
			t.Fatal(err)
		}
		res, err := report.Verify(path, report.VerifyOptions{Trust: trust})
		if err != nil {
			t.Fatalf("verify %s: %v", format, err)
		}
		if res.Verdict != report.Trusted || !res.Signer.Own {
			t.Errorf("%s export does not verify: %v", format, res)
		}
	}
	if g.report.r.Signature != "" {
		t.Error("exporting signed the report on screen instead of a copy")
	}
}

func TestReportWarnings(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langZH)
	r := &report.Report{Number: "TC-1", Sources: []report.Source{}, Paragraphs: []report.Paragraph{},
		Warnings: []report.Warning{{Kind: "invisible", Count: 7, Message: "7 invisible characters"}}}
	g.report.show(r)
	texts := strings.Join(screenTexts(g.report.content), "\n")
	if !strings.Contains(texts, g.t.T("warn.invisible", 7)) {
		t.Errorf("warning not shown in Chinese; screen has:\n%s", texts)
	}
}

// Hidden text is warned of with its count and where it is, in either language.
func TestReportHiddenWarning(t *testing.T) {
	for _, lang := range []string{langZH, langEN} {
		g := newTestGUI(t, testLibrary(t), lang)
		r := &report.Report{Number: "TC-1", Sources: []report.Source{}, Paragraphs: []report.Paragraph{},
			Warnings: []report.Warning{
				{Kind: "hidden", Count: 565, Message: "565 characters of hidden text (white, 1 pt) were left out, on pages 2, 3", Pages: []int{2, 3}},
				{Kind: "hidden", Count: 12, Message: "12 characters of hidden text (hidden formatting) were left out, in paragraph 5", Paragraphs: []int{4}},
			}}
		g.report.show(r)
		texts := strings.Join(screenTexts(g.report.content), "\n")
		for _, want := range []string{
			g.t.T("warn.hidden", 565) + g.t.T("warn.pages", "2"+g.t.T("list.sep")+"3"),
			g.t.T("warn.hidden", 12) + g.t.T("warn.paragraph", "5"),
		} {
			if !strings.Contains(texts, want) {
				t.Errorf("%s: %q not shown; screen has:\n%s", lang, want, texts)
			}
		}
	}
}

// screenTexts collects the text of every label, button, check, select and canvas text under o.
func screenTexts(o fyne.CanvasObject) []string {
	var out []string
	for _, c := range test.LaidOutObjects(o) {
		switch w := c.(type) {
		case *widget.Label:
			out = append(out, w.Text)
		case *widget.Button:
			out = append(out, w.Text)
		case *widget.Check:
			out = append(out, w.Text)
		case *widget.Select:
			out = append(out, w.Selected)
		case *widget.Entry:
			out = append(out, w.PlaceHolder)
		case *canvas.Text:
			out = append(out, w.Text)
		}
	}
	return out
}

// BenchmarkReportShow shows a 300-page thesis (3,000 paragraphs of 300 characters, every third one
// highlighted): building the screen and wrapping every row for the list's heights.
func BenchmarkReportShow(b *testing.B) {
	a := test.NewTempApp(b)
	g := newGUI(a, b.TempDir())
	<-g.lh.shown // see newTestGUI
	g.win.Resize(fyne.NewSize(1360, 880))
	r := &report.Report{Number: "TC-B", Sources: []report.Source{{Path: "a.txt", Color: report.ColorFor(0), Similarity: 0.3}}}
	text := strings.Repeat("卷积神经网络通过局部连接和权值共享大幅减少了模型参数。", 12)
	for i := range 3000 {
		p := report.Paragraph{Index: i, Text: text, Section: "body"}
		if i%3 == 0 {
			p.Similarity = 0.5
			p.Matches = []report.Match{{Source: 0, Spans: [][2]int{{10, 150}}}}
		}
		r.Paragraphs = append(r.Paragraphs, p)
	}
	b.ResetTimer()
	for b.Loop() {
		g.report.show(r)
		g.report.heights.width = -1
		g.report.heights.set(900)
	}
}

// lettersOf keeps the letters and digits of s.
func lettersOf(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}

// findCheck finds the check box labelled text under o.
func findCheck(t *testing.T, o fyne.CanvasObject, text string) *widget.Check {
	t.Helper()
	var found *widget.Check
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.Check:
			if v.Text == text && found == nil {
				found = v
			}
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case fyne.Widget:
			r := test.WidgetRenderer(v)
			for _, c := range r.Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	if found == nil {
		t.Fatalf("no check box %q", text)
	}
	return found
}

// TestReportExcludeSource: unticking a source leaves it out, every figure is recomputed and the
// source is listed as left out; ticking it there counts it again.
func TestReportExcludeSource(t *testing.T) {
	g := checkedGUI(t, langEN)
	full := g.report.r
	top := full.Sources[0]
	test.Tap(findCheck(t, g.report.content, g.t.T("rep.countSource"))) // the first is the top source's
	g.pending.Wait()
	r := g.report.r
	if len(r.ExcludedSources) != 1 || r.ExcludedSources[0].ID != top.ID {
		t.Fatalf("excluded sources %+v, want %d", r.ExcludedSources, top.ID)
	}
	if r.Similarity >= full.Similarity || len(r.Sources) != len(full.Sources)-1 {
		t.Errorf("after leaving the top source out: %.4f, %d sources; before %.4f, %d", r.Similarity, len(r.Sources), full.Similarity, len(full.Sources))
	}
	if got := g.report.overall.Text(); got != percent(r.Similarity) {
		t.Errorf("gauge shows %s, want the recomputed %s", got, percent(r.Similarity))
	}
	if f := g.report.figures[g.t.T("rep.maxSingle")]; f.Text != percent(r.MaxSingleSource) {
		t.Errorf("largest source shows %s, want %s", f.Text, percent(r.MaxSingleSource))
	}
	texts := strings.Join(screenTexts(g.report.content), "\n")
	if !strings.Contains(texts, g.t.T("rep.leftOut")) {
		t.Error("the source list does not say which source is left out")
	}
	test.Tap(findCheck(t, g.report.content, top.Title))
	g.pending.Wait()
	if r := g.report.r; len(r.ExcludedSources) != 0 || r.Similarity != full.Similarity {
		t.Errorf("counted again: %.4f with %+v left out, want %.4f", r.Similarity, r.ExcludedSources, full.Similarity)
	}
}

// TestReportVerdict: with school rules chosen in Settings, the report shows the verdict under the
// figures, the one the rules give for the figure shown; choosing other rules judges again.
func TestReportVerdict(t *testing.T) {
	g := checkedGUI(t, langZH)
	if g.report.verdict != nil || g.report.r.Verdict != nil {
		t.Fatal("a verdict without rules chosen")
	}
	g.settings.profile.SetSelectedIndex(indexOf(profiles, "phd"))
	g.pending.Wait()
	r := g.report.r
	if r.Verdict == nil || r.Verdict.Profile != "phd" || g.report.verdict == nil {
		t.Fatalf("no verdict after choosing the PhD rules: %+v", r.Verdict)
	}
	want := rules.Pass
	switch {
	case r.Similarity >= 0.20:
		want = rules.Fail
	case r.Similarity >= 0.10:
		want = rules.Revise
	}
	if r.Verdict.Outcome != want || !strings.Contains(g.report.verdict.Text, g.t.T("verdict."+want)) ||
		!strings.Contains(g.report.verdict.Text, percent(r.Similarity)) || !strings.Contains(g.report.verdict.Text, "博士") {
		t.Errorf("at %s: verdict %q, shown %q; want %s", percent(r.Similarity), r.Verdict.Outcome, g.report.verdict.Text, want)
	}
	if g.app.Preferences().String("profile") != "phd" {
		t.Error("the rules chosen are not kept")
	}
	g.settings.profile.SetSelectedIndex(0)
	g.pending.Wait()
	if g.report.r.Verdict != nil || g.report.verdict != nil {
		t.Error("a verdict after choosing no rules")
	}
}

// TestReportSliderRecomputes: the shortest-match slider recomputes the figures, so that the figures
// and the marks agree: every mark is at least that long, and the marks add up to the copied count.
func TestReportSliderRecomputes(t *testing.T) {
	g := checkedGUI(t, langEN)
	full := g.report.r
	sl := g.report.minSlider
	sl.SetValue(60)
	sl.OnChangeEnded(60)
	g.pending.Wait()
	r := g.report.r
	if r.Settings.MinRunChars != 60 || r.Similarity >= full.Similarity {
		t.Fatalf("after the slider: min run %d, similarity %.4f (before %.4f)", r.Settings.MinRunChars, r.Similarity, full.Similarity)
	}
	if got := g.report.overall.Text(); got != percent(r.Similarity) {
		t.Errorf("gauge %s, want the recomputed %s", got, percent(r.Similarity))
	}
	if g.report.minLbl.Text != g.t.T("rep.filter.min", 60) {
		t.Errorf("slider label %q", g.report.minLbl.Text)
	}
	marked := 0
	for i := range r.Paragraphs {
		p := &r.Paragraphs[i]
		for _, m := range g.report.filter.marks(r, p) {
			if m.color == templateColor {
				continue
			}
			if m.end-m.start < 60 {
				t.Errorf("paragraph %d: a mark of %d characters at a shortest match of 60", i, m.end-m.start)
			}
			marked += m.end - m.start
		}
	}
	if marked != r.CopiedChars {
		t.Errorf("marks cover %d characters, the figures count %d", marked, r.CopiedChars)
	}
	sl.SetValue(float64(full.Settings.MinRunChars))
	sl.OnChangeEnded(float64(full.Settings.MinRunChars))
	g.pending.Wait()
	if g.report.r.Similarity != full.Similarity {
		t.Errorf("back at the check's shortest match: %.4f, want %.4f", g.report.r.Similarity, full.Similarity)
	}
}

func covered(spans [][2]int) int {
	n := 0
	for _, s := range spans {
		n += s[1] - s[0]
	}
	return n
}

// TestWordMarks: inside a copied passage the words a copier changed are marked weakly, on both
// sides, and what stayed strongly.
func TestWordMarks(t *testing.T) {
	a := []rune("调查发现湿地的鸟类数量明显高于城市公园。")
	b := []rune("研究表明湿地的鸟类数量显著高于城市公园。")
	c := color.NRGBA{1, 2, 3, 255}
	left, right := wordMarks(a, []mark{{start: 0, end: len(a), color: c}}, b, []mark{{start: 0, end: len(b), color: c}})
	text := func(r []rune, ms []mark, weak bool) string {
		var out []string
		for _, m := range ms {
			if m.weak == weak {
				out = append(out, string(r[m.start:m.end]))
			}
		}
		return strings.Join(out, "|")
	}
	if got := text(a, left, true); got != "调查发现|明显" {
		t.Errorf("thesis side: changed words %q", got)
	}
	if got := text(b, right, true); got != "研究表明|显著" {
		t.Errorf("source side: changed words %q", got)
	}
	if got := text(a, left, false); got != "湿地的鸟类数量|高于城市公园。" {
		t.Errorf("thesis side: words kept %q", got)
	}
}

// TestSideBySideNextPrevious: the side-by-side view steps through the copied paragraphs in order.
func TestSideBySideNextPrevious(t *testing.T) {
	g := checkedGUI(t, langEN)
	flagged := g.report.flaggedShown()
	if len(flagged) < 2 {
		t.Fatalf("fixture: %d copied paragraphs", len(flagged))
	}
	g.report.openDetail(flagged[0])
	top := g.win.Canvas().Overlays().Top()
	button := func(text string) *widget.Button {
		for _, o := range test.LaidOutObjects(top) {
			if b, ok := o.(*widget.Button); ok && b.Text == text {
				return b
			}
		}
		t.Fatalf("no button %q", text)
		return nil
	}
	prev, next := button(g.t.T("det.prev")), button(g.t.T("det.next"))
	if !prev.Disabled() || next.Disabled() {
		t.Errorf("at the first copied paragraph: previous enabled %v, next enabled %v", !prev.Disabled(), !next.Disabled())
	}
	for k := 1; k < len(flagged); k++ {
		test.Tap(next)
		if got := string(g.report.detail.left.text); got != g.report.r.Paragraphs[flagged[k]].Text {
			t.Fatalf("after %d × next: shows %.20q, want paragraph %d", k, got, flagged[k])
		}
	}
	if !next.Disabled() || prev.Disabled() {
		t.Error("at the last copied paragraph next is enabled or previous disabled")
	}
	test.Tap(prev)
	if got := string(g.report.detail.left.text); got != g.report.r.Paragraphs[flagged[len(flagged)-2]].Text {
		t.Errorf("previous shows %.20q", got)
	}
}

// TestQuoteColourShared: copied text inside a quotation is marked in the quote colour the PDF and
// HTML use, report.QuoteColor.
func TestQuoteColourShared(t *testing.T) {
	g := checkedGUI(t, langZH)
	r := g.report.r
	p := &r.Paragraphs[paragraphWith(t, r, "有学者指出")]
	quoted := 0
	for _, m := range g.report.filter.marks(r, p) {
		if m.quoted {
			quoted += m.end - m.start
			if !inside([2]int{m.start, m.end}, p.Quotes) {
				t.Errorf("mark %+v is quoted outside the quotes %v", m, p.Quotes)
			}
		}
	}
	if quoted == 0 {
		t.Error("the copied quotation is not marked as quoted")
	}
	if quoteColor != sourceColor(report.QuoteColor) {
		t.Errorf("the app's quote colour %v is not the reports' %s", quoteColor, report.QuoteColor)
	}
}

// TestReportNoteRows: a footnote the check read as a paragraph of its own says so in its row, with
// its page when it has one, in either language.
func TestReportNoteRows(t *testing.T) {
	for _, lang := range []string{langZH, langEN} {
		g := newTestGUI(t, testLibrary(t), lang)
		r := &report.Report{Number: "TC-1", Sources: []report.Source{}, Paragraphs: []report.Paragraph{
			{Index: 0, Text: "The body paragraph that refers to notes.", Section: "body", Page: 2, Matches: []report.Match{}},
			{Index: 1, Text: "A footnote on the second page.", Section: "notes", Page: 2, Matches: []report.Match{}},
			{Index: 2, Text: "An endnote of a file without pages.", Section: "notes", Matches: []report.Match{}},
		}}
		g.report.show(r)
		g.tabs.SelectIndex(tabReport)
		g.win.Resize(fyne.NewSize(1200, 800))
		for text, want := range map[string]string{
			"The body paragraph": g.t.T("rep.page", 2),
			"A footnote":         g.t.T("rep.notePage", 2),
			"An endnote":         g.t.T("rep.note"),
		} {
			if got := findRow(t, g, text).page.Text; got != want {
				t.Errorf("%s: row of %q says %q, want %q", lang, text, got, want)
			}
		}
	}
}
