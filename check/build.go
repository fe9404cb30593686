package check

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"thesischeck/extract"
	"thesischeck/report"
	"thesischeck/similarity"
)

// Status values of report paragraphs.
const (
	statusCopied   = "copied"
	statusQuoted   = "quoted"
	statusTemplate = "template"
	statusExcluded = "excluded"
)

// build settles which source each copied character is counted for (the longest copy first, so no
// character counts twice), then adds up the figures.
func (c *checker) build(doc *extract.Document, sha string, paras []paragraph) *report.Report {
	r := &report.Report{
		Created:  time.Now().UTC().Truncate(time.Second),
		Document: report.Document{Path: doc.Path, Title: doc.Title, SHA256: sha, Paragraphs: len(paras)},
		Settings: report.Settings{MinRunChars: c.opt.MinRunChars, MaxHamming: c.opt.MaxHamming, IncludeReferences: c.opt.IncludeReferences,
			IncludeFrontMatter: c.opt.IncludeFrontMatter},
		Sections: []report.SectionFigure{}, Sources: []report.Source{}, Paragraphs: []report.Paragraph{},
	}

	type srcTotal struct{ chars int }
	perSource := map[uint64]*srcTotal{}
	var dodges similarity.Dodges
	han := 0
	secIdx := map[string]int{}
	excluded := map[string]int{}
	allShingles := []uint32{}

	for i := range paras {
		p := &paras[i]
		text := []rune(p.src.Text)
		n := len(text)
		d := p.prep.Dodges
		if !p.src.Counted() {
			d.SpacedCJK = 0 // letter-spaced headings and title-page lines ("摘 要", "独 创 性 声 明") are typography
		}
		dodges.Add(d)
		han += hanCount(p.src.Text)
		allShingles = append(allShingles, similarity.Shingles(p.prep.Tokens)...)
		rp := report.Paragraph{
			Index: i, Text: p.src.Text, Section: string(p.src.Section), Chapter: p.src.Chapter,
			Heading: p.src.Heading, Page: p.src.Page, Notes: p.src.Notes, Matches: []report.Match{},
		}
		r.TotalChars += n
		owner := make([]int8, n) // 0 free, 1 template, 2 copied
		quotes := extract.QuotedSpans(p.src.Text)
		rp.Quotes = quotes
		copied, quoted, tmpl := 0, 0, 0
		sortFound(p.matches)
		for _, f := range p.matches {
			var own [][2]int
			for _, s := range f.spans {
				start := -1
				for k := s[0]; k <= s[1]; k++ {
					free := k < s[1] && k < n && owner[k] == 0
					if free && start < 0 {
						start = k
					}
					if !free && start >= 0 {
						own = append(own, [2]int{start, k})
						start = -1
					}
				}
			}
			chars := 0
			for _, s := range own {
				for k := s[0]; k < s[1]; k++ {
					if f.template {
						owner[k] = 1
					} else {
						owner[k] = 2
					}
				}
				chars += s[1] - s[0]
			}
			if chars < c.align.MinChars/2 {
				continue // a copy another source already accounts for
			}
			m := report.Match{
				SourcePath: "", SourceParagraph: f.ref.Para, SourceText: f.src.Text,
				Hamming: f.hamming, Jaccard: round(f.jaccard, 4),
				Spans: own, SourceSpans: f.srcSpans, CopiedChars: chars, Template: f.template,
			}
			src := c.sources[f.ref.Doc]
			m.SourcePath = src.info.Path
			m.Source = int(f.ref.Doc) // replaced by the source's rank below
			if f.template {
				tmpl += chars
				rp.TemplateMatches = append(rp.TemplateMatches, m)
				continue
			}
			copied += chars
			for _, s := range own {
				quoted += overlap(s, quotes)
			}
			if perSource[f.ref.Doc] == nil {
				perSource[f.ref.Doc] = &srcTotal{}
			}
			perSource[f.ref.Doc].chars += chars
			rp.Matches = append(rp.Matches, m)
		}
		switch {
		case !p.checked:
			rp.Status = statusExcluded
			excluded[exclusionReason(p.src)] += n
		case copied > 0 && quoted >= copied*9/10:
			rp.Status = statusQuoted
		case copied > 0:
			rp.Status = statusCopied
		case tmpl > 0:
			rp.Status = statusTemplate
		}
		if n > 0 {
			rp.Similarity = round(float64(copied)/float64(n), 4)
		}
		if copied > 0 {
			r.FlaggedParas++
		}
		r.CopiedChars += copied
		r.QuotedChars += quoted
		r.TemplateChars += tmpl

		name := sectionName(p.src)
		k, ok := secIdx[name]
		if !ok {
			k = len(r.Sections)
			secIdx[name] = k
			r.Sections = append(r.Sections, report.SectionFigure{Name: name, Section: string(p.src.Section)})
		}
		sf := &r.Sections[k]
		sf.Chars += n
		sf.CopiedChars += copied
		sf.Checked = sf.Checked || p.checked
		r.Paragraphs = append(r.Paragraphs, rp)
	}
	r.Document.Chars = r.TotalChars

	// Sources, ranked by what they account for.
	sig := similarity.MinHash(allShingles)
	ids := make([]uint64, 0, len(perSource))
	for id := range perSource {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if perSource[ids[i]].chars != perSource[ids[j]].chars {
			return perSource[ids[i]].chars > perSource[ids[j]].chars
		}
		return ids[i] < ids[j]
	})
	rank := map[uint64]int{}
	for i, id := range ids {
		src := c.sources[id]
		rank[id] = i
		share := 0.0
		if r.TotalChars > 0 {
			share = float64(perSource[id].chars) / float64(r.TotalChars)
		}
		r.Sources = append(r.Sources, report.Source{
			ID: id, Path: src.info.Path, Title: src.info.Title, Similarity: round(share, 4),
			CopiedChars: perSource[id].chars, Jaccard: round(sig.Jaccard(&src.sig), 4), Color: report.ColorFor(i),
		})
	}
	for i := range r.Paragraphs {
		for j := range r.Paragraphs[i].Matches {
			r.Paragraphs[i].Matches[j].Source = rank[uint64(r.Paragraphs[i].Matches[j].Source)]
		}
		for j := range r.Paragraphs[i].TemplateMatches {
			r.Paragraphs[i].TemplateMatches[j].Source = -1
		}
	}

	if r.TotalChars > 0 {
		t := float64(r.TotalChars)
		r.Similarity = round(float64(r.CopiedChars)/t, 4)
		r.SimilarityExcludingQuotes = round(float64(r.CopiedChars-r.QuotedChars)/t, 4)
		if len(r.Sources) > 0 {
			r.MaxSingleSource = r.Sources[0].Similarity
		}
	}
	for i := range r.Sections {
		if s := &r.Sections[i]; s.Chars > 0 {
			s.Similarity = round(float64(s.CopiedChars)/float64(s.Chars), 4)
		}
	}
	reasons := make([]string, 0, len(excluded))
	for k := range excluded {
		reasons = append(reasons, k)
	}
	sort.Strings(reasons)
	for _, k := range reasons {
		sec, why, _ := strings.Cut(k, "|")
		r.Excluded = append(r.Excluded, report.Exclusion{Section: sec, Chars: excluded[k], Reason: why})
	}
	if r.TemplateChars > 0 {
		why := fmt.Sprintf("boilerplate held by at least %d library documents or a template document; not counted", c.templateDocs[0])
		if c.kinds.known {
			why = fmt.Sprintf("boilerplate held by at least %d of the library's %d theses, %d of its %d other documents, or a template document; not counted",
				c.templateDocs[1], c.kinds.theses, c.templateDocs[0], c.kinds.docs)
		}
		r.Excluded = append(r.Excluded, report.Exclusion{Section: "template", Chars: r.TemplateChars, Reason: why})
	}
	if dodges.SpacedCJK < minSpacedWarning(han) {
		dodges.SpacedCJK = 0
	}
	for _, w := range doc.Warnings {
		r.Warnings = append(r.Warnings, report.Warning(w))
	}
	r.Warnings = append(r.Warnings, dodgeWarnings(dodges)...)
	h := sha256.Sum256([]byte(sha + r.Created.Format(time.RFC3339)))
	r.Number = "TC-" + r.Created.Format("20060102") + "-" + strings.ToUpper(hex.EncodeToString(h[:4]))
	return r
}

func exclusionReason(p extract.Paragraph) string {
	switch {
	case p.FrontMatter:
		return "front matter|front matter: title page, declarations and authorisations, signature and date lines, the same in every thesis of a school; not checked unless asked for"
	case p.Section == extract.References:
		return "references|reference list: not counted, as in CNKI's figure without references"
	default:
		return "headings|headings: too short and formulaic to count"
	}
}

func sectionName(p extract.Paragraph) string {
	if p.Section == extract.Body && p.Chapter != "" {
		return p.Chapter
	}
	return string(p.Section)
}

// overlap counts the characters of s inside any of spans.
func overlap(s [2]int, spans [][2]int) int {
	n := 0
	for _, q := range spans {
		lo, hi := max(s[0], q[0]), min(s[1], q[1])
		if hi > lo {
			n += hi - lo
		}
	}
	return n
}

// minSpacedWarning is how many dodging spaces between Chinese characters it takes to warn: more
// than a handful, and more in a long thesis (one in 500 Han characters), so that a stray spaced
// phrase does not cry wolf while a spaced-out paragraph still does.
func minSpacedWarning(han int) int { return max(10, han/500) }

func hanCount(s string) int {
	n := 0
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			n++
		}
	}
	return n
}

func dodgeWarnings(d similarity.Dodges) []report.Warning {
	var w []report.Warning
	if d.Invisible > 0 {
		w = append(w, report.Warning{Kind: "invisible", Count: d.Invisible,
			Message: fmt.Sprintf("%d invisible characters (zero-width or format characters): a common way to dodge checkers", d.Invisible)})
	}
	if d.Lookalike > 0 {
		w = append(w, report.Warning{Kind: "lookalike", Count: d.Lookalike,
			Message: fmt.Sprintf("%d look-alike letters (Cyrillic or Greek inside Latin words): a common way to dodge checkers", d.Lookalike)})
	}
	if d.SpacedCJK > 0 {
		w = append(w, report.Warning{Kind: "spaced", Count: d.SpacedCJK,
			Message: fmt.Sprintf("%d spaces between Chinese characters: a common way to dodge checkers", d.SpacedCJK)})
	}
	if d.Traditional > 0 {
		w = append(w, report.Warning{Kind: "traditional", Count: d.Traditional,
			Message: fmt.Sprintf("%d traditional Chinese characters, compared as simplified", d.Traditional)})
	}
	return w
}

func round(v float64, digits int) float64 {
	p := 1.0
	for i := 0; i < digits; i++ {
		p *= 10
	}
	return float64(int64(v*p+0.5)) / p
}
