package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"thesischeck/extract"
	"thesischeck/report"
)

// TestExcludeSourceRecomputes: leaving a source out gives the figures of a check against the library
// without it, and a passage the excluded source shares with another one counts for the other.
func TestExcludeSourceRecomputes(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(libDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	reeds := libPara(t, "zh-wetland.txt", "芦苇、香蒲和菖蒲").text
	wetlandOnly := libPara(t, "zh-wetland.txt", "城市的肾脏").text
	libr := libPara(t, "zh-library.txt", "许多新建的图书馆").text
	// The tea thesis also quotes the wetland one's paragraph on reeds.
	a, b, c := read("zh-wetland.txt"), read("zh-library.txt"), read("zh-tea.txt")+"\n\n"+reeds+"\n"

	path := filepath.Join(t.TempDir(), "thesis.txt")
	text := "学位论文检测样本\n\n" + strings.Join(append([]string{reeds, wetlandOnly, libr}, originals...), "\n\n") + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	all := checkResult(t, libraryOf(t, a, b, c), path)
	without := checkResult(t, libraryOf(t, b, c), path).Report

	var wetlandID uint64
	for _, s := range all.Report.Sources {
		if s.Title == "d00" { // libraryOf names its files d00, d01, … in the order given
			wetlandID = s.ID
		}
	}
	if wetlandID == 0 || len(all.Report.Sources) < 2 {
		t.Fatalf("the full check did not find the wetland thesis among %+v", all.Report.Sources)
	}
	if all.With(nil) != all.Report {
		t.Error("With no exclusion is not the report itself")
	}
	got := all.With([]uint64{wetlandID})
	checkInvariants(t, got)
	if got.Similarity >= all.Report.Similarity {
		t.Errorf("similarity %.4f after leaving a source out, %.4f with it", got.Similarity, all.Report.Similarity)
	}
	if got.Number != all.Report.Number || !got.Created.Equal(all.Report.Created) {
		t.Error("the recomputed report has another number or time")
	}
	if len(got.ExcludedSources) != 1 || got.ExcludedSources[0].ID != wetlandID || got.ExcludedSources[0].Title != "d00" {
		t.Errorf("excluded sources %+v", got.ExcludedSources)
	}
	// The report says, where its figures are, what the exclusion took out of them.
	checkFiltered(t, got, all.Report, "1 source excluded by hand")
	figures := func(r *report.Report) []float64 {
		return []float64{r.Similarity, r.SimilarityExcludingQuotes, r.MaxSingleSource, float64(r.CopiedChars),
			float64(r.QuotedChars), float64(r.TemplateChars), float64(r.FlaggedParas), float64(len(r.Sources))}
	}
	if g, w := figures(got), figures(without); !equalFloats(g, w) {
		t.Errorf("figures without the source %v, a check without it %v", g, w)
	}
	sameDoc := map[string]string{"d01": "d00", "d02": "d01"} // b and c, in the library without a
	for i := range without.Sources {
		g, w := got.Sources[i], without.Sources[i]
		if sameDoc[g.Title] != w.Title || g.Similarity != w.Similarity || g.CopiedChars != w.CopiedChars {
			t.Errorf("source %d: %s %.4f %d, a check without it: %s %.4f %d", i, g.Title, g.Similarity, g.CopiedChars, w.Title, w.Similarity, w.CopiedChars)
		}
	}
	for i := range without.Paragraphs {
		g, w := got.Paragraphs[i], without.Paragraphs[i]
		if g.Status != w.Status || g.Similarity != w.Similarity || len(g.Matches) != len(w.Matches) {
			t.Errorf("paragraph %d: %s %.4f %d matches, a check without it: %s %.4f %d", i, g.Status, g.Similarity, len(g.Matches), w.Status, w.Similarity, len(w.Matches))
		}
	}
	// The reeds paragraph, held by both, now counts for the tea thesis.
	if p := findPara(t, got, reeds); p.Status != report.StatusCopied || len(p.Matches) == 0 {
		t.Errorf("the shared paragraph no longer counts: %+v", p)
	}
}

func equalFloats(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// TestRecomputeMinRun: a longer shortest match counts fewer characters, never more, every span left
// at least that long; the check's own or a shorter one changes nothing.
func TestRecomputeMinRun(t *testing.T) {
	lib := newLibrary(t)
	wetland := libPara(t, "zh-wetland.txt", "芦苇、香蒲和菖蒲")
	lightZH := strings.NewReplacer("最常见的", "最普遍的", "调查发现", "研究表明", "明显高于", "显著高于").Replace(wetland.text)
	path := filepath.Join(t.TempDir(), "thesis.txt")
	if err := os.WriteFile(path, []byte("学位论文检测样本\n\n"+lightZH+"\n\n"+strings.Join(originals, "\n\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := checkResult(t, lib, path)
	if res.Recompute(nil, 13) != res.Report || res.Recompute(nil, 5) != res.Report {
		t.Error("the check's own shortest match, or a shorter one, made a new report")
	}
	longest := 0
	for _, p := range res.Report.Paragraphs {
		for _, m := range p.Matches {
			for _, s := range m.Spans {
				longest = max(longest, s[1]-s[0])
			}
		}
	}
	if longest < 14 {
		t.Fatalf("fixture: no span longer than the default (%d)", longest)
	}
	prev := res.Report
	for _, minRun := range []int{20, longest, longest + 1} {
		r := res.Recompute(nil, minRun)
		checkInvariants(t, r)
		if r.CopiedChars > prev.CopiedChars || r.Settings.MinRunChars != minRun {
			t.Errorf("min run %d: %d copied (before %d), settings %d", minRun, r.CopiedChars, prev.CopiedChars, r.Settings.MinRunChars)
		}
		for _, p := range r.Paragraphs {
			for _, m := range p.Matches {
				for _, s := range m.Spans {
					if s[1]-s[0] < minRun {
						t.Errorf("min run %d: a span of %d left", minRun, s[1]-s[0])
					}
				}
			}
		}
		prev = r
	}
	if prev.CopiedChars != 0 || prev.Similarity != 0 {
		t.Errorf("longer than any run: %d copied, %.4f", prev.CopiedChars, prev.Similarity)
	}
	checkFiltered(t, prev, res.Report, fmt.Sprintf("copies shorter than %d characters (13 by default)", longest+1))
}

// checkFiltered asserts that r, filtered from full, carries one filtered warning naming what, with
// the characters the filter took out and full's figure.
func checkFiltered(t *testing.T, r, full *report.Report, what string) {
	t.Helper()
	var ws []report.Warning
	for _, w := range r.Warnings {
		if w.Kind == extract.WarnFiltered {
			ws = append(ws, w)
		}
	}
	want := fmt.Sprintf("counting them, the similarity is %.1f%% (%.1f%% here)", full.Similarity*100, r.Similarity*100)
	if len(ws) != 1 || ws[0].Count != full.CopiedChars-r.CopiedChars || !strings.Contains(ws[0].Message, what) || !strings.Contains(ws[0].Message, want) {
		t.Errorf("filtered warnings %+v, want one of %d characters naming %q and %q", ws, full.CopiedChars-r.CopiedChars, what, want)
	}
	for _, w := range full.Warnings {
		if w.Kind == extract.WarnFiltered {
			t.Errorf("the unfiltered report warns of filters: %+v", w)
		}
	}
}
