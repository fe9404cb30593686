package check

import (
	"fmt"
	"slices"
	"strings"

	"thesischeck/extract"
	"thesischeck/internal/english"
	"thesischeck/report"
)

// Result is a finished check with every alignment it found, before the longest copy settled which
// source each character counts for. Leaving a source out (the student's own earlier paper, as
// Turnitin and CNKI's 去除本人已发表文献 do) settles again what the others found: a passage that both
// the excluded source and another one hold still counts, for the other.
//
// A Result is read-only once made; With may be called from any goroutine.
type Result struct {
	Report *report.Report // every source counted

	c     *checker
	doc   *extract.Document
	sha   string
	paras []paragraph
}

// With returns the report of the check without the library documents excluded (report.Source.ID):
// every figure recomputed from what the check found, the same report number and time, and the
// excluded sources recorded in Report.ExcludedSources. No excluded source gives Report itself. It
// costs what building the report did (no search, no alignment); the figures equal a check against
// the library without those documents, except where leaving them out of the library would have
// changed what counts as boilerplate or which candidates the search kept. It reads nothing from the
// library, which may be closed by then.
func (r *Result) With(excluded []uint64) *report.Report { return r.Recompute(excluded, 0) }

// Recompute is With counting, besides, only copied runs of at least minRun characters (0, or no
// more than the check's own, changes nothing): the report's figures and its marks then agree
// with the longer shortest match a reader asked for. Report.Settings.MinRunChars says which.
func (r *Result) Recompute(excluded []uint64, minRun int) *report.Report {
	if minRun <= r.c.opt.MinRunChars {
		minRun = 0
	}
	if len(excluded) == 0 && minRun == 0 {
		return r.Report
	}
	out := make([]paragraph, len(r.paras))
	for i, p := range r.paras {
		p.matches = slices.DeleteFunc(slices.Clone(p.matches), func(f found) bool {
			return slices.Contains(excluded, f.ref.Doc)
		})
		if minRun > 0 {
			p.matches = longRuns(p.matches, minRun)
		}
		out[i] = p
	}
	rep := r.c.build(r.doc, r.sha, out)
	if minRun > 0 {
		rep.Settings.MinRunChars = minRun
	}
	// The same check, told differently: its number, time and library stay (the library may have
	// changed, or closed, since).
	rep.Created, rep.Number, rep.Library = r.Report.Created, r.Report.Number, r.Report.Library
	ids := slices.Clone(excluded)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for _, id := range ids {
		x := report.ExcludedSource{ID: id}
		if s, ok := r.c.sources[id]; ok { // one the check found nothing in has no title at hand
			x.Title = s.info.Title
		}
		rep.ExcludedSources = append(rep.ExcludedSources, x)
	}
	if w, ok := filteredWarning(r.Report, rep, minRun); ok {
		rep.Warnings = append(rep.Warnings, w)
	}
	return rep
}

// longRuns keeps of each alignment the copied runs of at least minRun characters (a fragment's part
// of a run found across paragraphs: that run's), and the alignments that keep any.
func longRuns(fs []found, minRun int) []found {
	out := fs[:0]
	for _, f := range fs {
		var spans [][2]int
		for k, s := range f.spans {
			n := s[1] - s[0]
			if f.fragment {
				n = f.runs[k]
			}
			if n >= minRun {
				spans = append(spans, s)
			}
		}
		if f.spans, f.runs = spans, nil; len(spans) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// filteredWarning says what the filters a reader set (sources excluded, a longer shortest match)
// took out of the figures of full, and what the figures are without the filters: a report handed
// on with a filter that brings 86.6 % down to 0.0 % says so where its figures are, not only in its
// settings. "Counting them": "the figures leave out 2 sources excluded by hand: without them the
// similarity is 22.1 % (9.4 % here)" read as if leaving the sources out gave 22.1 %.
func filteredWarning(full, rep *report.Report, minRun int) (report.Warning, bool) {
	n := full.CopiedChars - rep.CopiedChars
	if n <= 0 && rep.Similarity >= full.Similarity {
		return report.Warning{}, false
	}
	var what []string
	if k := len(rep.ExcludedSources); k > 0 {
		what = append(what, english.Count(k, "source", "sources")+" excluded by hand")
	}
	if minRun > 0 {
		what = append(what, fmt.Sprintf("copies shorter than %d characters (%d by default)", minRun, full.Settings.MinRunChars))
	}
	return report.Warning{Kind: extract.WarnFiltered, Count: max(n, 0), Message: fmt.Sprintf(
		"the figures leave out %s: counting them, the similarity is %.1f%% (%.1f%% here), excluding quotes %.1f%%, largest single source %.1f%%, %s copied",
		strings.Join(what, " and "), full.Similarity*100, rep.Similarity*100, full.SimilarityExcludingQuotes*100, full.MaxSingleSource*100,
		english.Count(max(n, 0), "character more", "characters more"))}, true
}
