package check

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
	"strings"
	"time"

	"thesischeck/extract"
	"thesischeck/internal/english"
	"thesischeck/internal/parallel"
	"thesischeck/prepare"
	"thesischeck/report"
	"thesischeck/similarity"
)

// build is the story after alignment, one named pass each: every paragraph's characters are settled
// among its sources, the longest copy first so that no character counts twice (settle); the
// paragraphs add up to the document's and the sections' figures (tally.add); the sources are ranked
// by what they account for (rankSources); then the figures, what was left out and why (leftOut), and
// what the text hid or dodged (warnings).
func (c *checker) build(doc *extract.Document, sha string, paras []paragraph) *report.Report {
	r := c.newReport(doc, sha, len(paras))
	// Each paragraph settles on its own, on all cores (finding its quotations is most of it: 0.05 s of
	// a 312-page thesis on one core); the tally adds them up in order.
	cites := extract.DocumentCitations(doc.Paragraphs)
	settles := make([]settled, len(paras))
	parallel.For(context.Background(), len(paras), func(i int) { settles[i] = c.settle(i, &paras[i], cites) }, nil)
	t := newTally()
	for i := range paras {
		t.add(r, &paras[i], settles[i])
	}
	if suspects := t.swaps.Suspects(); suspects != nil {
		for i := range paras {
			for _, sp := range keptIn(&paras[i]) {
				t.swaps.Kept(i, paras[i].text(), sp, suspects) // report paragraph i: tally.add adds one a paragraph
			}
		}
	}
	r.Document.Chars = r.TotalChars
	c.rankSources(r, t)
	figures(r)
	c.leftOut(r, t.excluded)
	r.Warnings = warnings(doc, t, r)
	docs := c.kinds.docs
	if c.kinds.known {
		docs += c.kinds.theses
	}
	if w, ok := foreign(t.long, t.sharing, docs); ok {
		r.Warnings = append(r.Warnings, w)
	}
	if w, ok := c.sameFile(r, sha); ok {
		r.Warnings = append(r.Warnings, w)
	}
	r.Number = reportNumber(sha, r.Created)
	return r
}

func (c *checker) newReport(doc *extract.Document, sha string, paras int) *report.Report {
	r := &report.Report{
		Created:  time.Now().UTC().Truncate(time.Second),
		Document: report.Document{Path: doc.Path, Title: doc.Title, SHA256: sha, Paragraphs: paras},
		Settings: report.Settings{MinRunChars: c.opt.MinRunChars, MaxHamming: c.opt.MaxHamming, IncludeReferences: c.opt.IncludeReferences,
			IncludeFrontMatter: c.opt.IncludeFrontMatter},
		Sections: []report.SectionFigure{}, Sources: []report.Source{}, Paragraphs: []report.Paragraph{},
	}
	return r
}

// settled is one paragraph after ownership: its report line, the library document each of its
// Matches came from (a match's Source is a rank, known only when every paragraph is settled), and
// its characters by what they count as.
type settled struct {
	para                     report.Paragraph
	docs                     []uint64
	copied, quoted, template int
	// uncited: copied characters in quotation marks whose citations point at nothing the document
	// cites (extract.Citations), counted as copied; marks are those citations.
	uncited int
	marks   []string
	// filed: a paragraph left out as a heading, a reference entry or front matter that copies the
	// running text of library documents, and is counted (see filedCopy).
	filed bool
	// chars: the paragraph's characters as the figures count them (see counted).
	chars int
	// fragmented: copied characters that only reading the paragraph with its neighbours found
	// (fragments.go).
	fragmented int
}

// filedCopy is how much of a paragraph left out as a heading, a reference entry or front matter must
// copy the running text of library documents (extract.RunningText) for it to be counted: half of it,
// and two shortest runs. A real entry shares its title with a library paragraph that cites the work,
// a few words; copied paragraphs filed under a reference-list or declaration heading, labelled [12]
// or styled as headings, are copied whole.
func (c *checker) filedCopy(copied, n int) bool {
	return copied*2 >= n && copied >= 2*c.align.MinChars
}

// settle gives each character of a paragraph to at most one source: its matches in order, longest
// copy first, each taking the characters no earlier match took. Quotations count as quoted only
// when cites holds what their citations point at.
func (c *checker) settle(i int, p *paragraph, cites *extract.Citations) settled {
	n := len(p.text())
	quotes, uncited, marks := cites.Spans(p.src.Text)
	s := settled{para: report.Paragraph{
		Index: i, Text: p.src.Text, Section: string(p.src.Section), Chapter: p.src.Chapter,
		Heading: p.src.Heading, Page: p.src.Page, Notes: p.src.Notes, Matches: []report.Match{},
		Quotes: quotes,
	}}
	owned := make([]bool, n)
	matches := p.matches
	if !p.checked {
		// Only copies of running text count here: an entry that a library document's reference list
		// holds too, or a declaration other theses make, stays left out.
		matches = nil
		for _, f := range p.matches {
			if !f.template && extract.RunningText(f.src.Section, f.src.Heading, f.src.Text) {
				matches = append(matches, f)
			}
		}
	}
	sortFound(matches)
	// What an article or a book of the library holds is a copy of it, however many theses share
	// it: three students who copied one source make no boilerplate of it for a fourth. Boilerplate
	// takes only the runs no such match holds, in running text: a declaration that a school's
	// guide holds too stays boilerplate.
	var held []bool
	for _, f := range matches {
		if !f.other {
			continue
		}
		if held == nil {
			if !extract.RunningText(string(p.src.Section), p.src.Heading, p.src.Text) {
				break
			}
			held = make([]bool, n)
		}
		claim(held, f.spans)
	}
	for _, f := range matches {
		spans := f.spans
		if f.template && held != nil {
			spans = claim(slices.Clone(held), spans)
		}
		own := claim(owned, spans)
		chars := 0
		for _, r := range own {
			chars += similarity.Written(p.text(), r)
		}
		if chars == 0 || !f.fragment && chars < c.align.MinChars/2 {
			continue // a copy another source already accounts for (a fragment's part is short)
		}
		c.figure(p, &f)
		m := report.Match{
			SourcePath: c.sources[f.ref.Doc].info.Path, SourceParagraph: f.ref.Para, SourceText: f.src.Text,
			Hamming: f.hamming, Jaccard: round(f.jaccard, 4),
			Spans: own, SourceSpans: f.srcSpans, CopiedChars: chars, Template: f.template,
		}
		if f.template {
			m.Source = -1
			s.template += chars
			s.para.TemplateMatches = append(s.para.TemplateMatches, m)
			continue
		}
		s.copied += chars
		if f.fragment {
			s.fragmented += chars
		}
		for _, r := range own {
			s.quoted += overlap(p.text(), r, s.para.Quotes)
			s.uncited += overlap(p.text(), r, uncited)
		}
		s.para.Matches = append(s.para.Matches, m)
		s.docs = append(s.docs, f.ref.Doc)
	}
	cc := similarity.CountChars(p.text())
	s.chars = counted(p.text(), cc, owned)
	if !p.checked {
		// A heading that is a fragment of a copy read with its neighbours counts whatever its length.
		if s.filed = c.filedCopy(s.copied, s.chars) || s.fragmented > 0; !s.filed {
			s = settled{para: s.para, chars: cc.Total()}
			s.para.Matches, s.para.TemplateMatches = []report.Match{}, nil
		}
	}
	switch {
	case !p.checked && !s.filed:
		s.para.Status = report.StatusExcluded
	case s.copied > 0 && s.quoted >= s.copied*9/10:
		s.para.Status = report.StatusQuoted
	case s.copied > 0:
		s.para.Status = report.StatusCopied
	case s.template > 0:
		s.para.Status = report.StatusTemplate
	}
	if s.chars > 0 {
		s.para.Similarity = round(float64(s.copied)/float64(s.chars), 4)
	}
	if s.uncited > 0 {
		s.marks = marks
	}
	return s
}

// counted is how many characters of a paragraph's text (its counts cc) the figures count, owned
// those that its matches took: what a reader sees (similarity.Chars), and inside copied text every
// character but combining marks, the copy as it was written (similarity.Written: one disguised with
// zero-width characters counts them, as before): text no reader sees never lowers a figure.
func counted(text []rune, cc similarity.Chars, owned []bool) int {
	n := cc.Total()
	for k, o := range owned {
		if o && !cc.Counts(k) && !similarity.IsMark(text[k]) {
			n++
		}
	}
	return n
}

// claim returns the runs of spans that no earlier match owns, and owns them.
func claim(owned []bool, spans [][2]int) [][2]int {
	var own [][2]int
	for _, s := range spans {
		start := -1
		for k := s[0]; k <= s[1]; k++ {
			free := k < s[1] && k < len(owned) && !owned[k]
			if free && start < 0 {
				start = k
			}
			if !free && start >= 0 {
				own = append(own, [2]int{start, k})
				start = -1
			}
		}
	}
	for _, r := range own {
		for k := r[0]; k < r[1]; k++ {
			owned[k] = true
		}
	}
	return own
}

// tally is what the paragraphs add up to beyond the report's own totals.
type tally struct {
	perSource  map[uint64]int // copied characters each library document accounts for
	matchDocs  [][]uint64     // for each report paragraph, settled.docs
	sections   map[string]int // a section's name → its index in Report.Sections
	excluded   map[exclusion]int
	dodges     similarity.Dodges
	han        int      // Han characters, which the spaced-characters warning is measured against
	shingles   []uint32 // the document's, for its Jaccard similarity with each source
	garbled    []prepare.Garbled
	swaps      prepare.SwapTally
	uncited    uncitedQuotes
	filed      charsIn // counted though left out as headings, entries or front matter (settled.filed)
	fragmented charsIn // found only by reading fragments together (settled.fragmented)
	// long and sharing count the checked paragraphs long enough to hold a copy, and those of them
	// that share a word pair with the library at all (foreign).
	long, sharing int
	// seen holds the words of the checked paragraphs not copied, and repeated those that say again
	// word for word what one before said.
	seen     map[uint64]bool
	repeated charsIn
	// boilerplate: running text (extract.RunningText: not front matter, headings, entries, nor a
	// declaration front matter did not take in) not counted as boilerplate.
	boilerplate charsIn
}

// charsIn are characters a warning counts, and the report paragraphs that hold them.
type charsIn struct {
	chars int
	paras []int // indices into Report.Paragraphs
}

func (c *charsIn) add(chars, para int) {
	c.chars += chars
	c.paras = append(c.paras, para)
}

// atLeast is c when it is share of total characters or more, else none.
func (c charsIn) atLeast(share float64, total int) charsIn {
	if float64(c.chars) < share*float64(total) {
		return charsIn{}
	}
	return c
}

// warning is a warning of kind naming them, its message format taking their count first; none
// when there are none.
func (c charsIn) warning(kind extract.WarningKind, format string, args ...any) (report.Warning, bool) {
	if c.chars == 0 {
		return report.Warning{}, false
	}
	return report.Warning{Kind: kind, Count: c.chars, Paragraphs: c.paras, Message: fmt.Sprintf(format, append([]any{c.chars}, args...)...)}, true
}

// uncitedQuotes are the copied characters in quotation marks whose citations point at nothing.
type uncitedQuotes struct {
	charsIn
	marks []string
}

// exclusion is a part of the document left out, and why.
type exclusion struct{ section, reason string }

func newTally() *tally {
	return &tally{perSource: map[uint64]int{}, sections: map[string]int{}, excluded: map[exclusion]int{}, seen: map[uint64]bool{}}
}

// add counts one settled paragraph into the report's totals, its section's figure and the tally.
func (t *tally) add(r *report.Report, p *paragraph, s settled) {
	n := s.chars
	d := p.prep.Dodges
	if !p.src.Counted() {
		// Letter-spaced headings and title-page lines ("摘 要", "独 创 性 声 明", "A B S T R A C T")
		// are typography.
		d.SpacedCJK, d.SpacedLetters = 0, 0
	}
	t.dodges.Add(d)
	t.han += similarity.HanCount(p.src.Text)
	if p.garbled {
		t.garbled = append(t.garbled, prepare.Garbled{Index: len(r.Paragraphs), Chars: n, Page: p.src.Page})
	}
	for _, f := range p.matches {
		for _, sw := range f.swaps {
			t.swaps.Add(sw, len(r.Paragraphs), p.src.Page)
		}
	}
	t.shingles = append(t.shingles, similarity.Shingles(p.prep.Tokens)...)
	if !p.checked && !s.filed {
		t.excluded[exclusionOf(p.src)] += n
	}
	if p.checked && n >= 2*similarity.DefaultAlign.MinChars { // long enough to hold a copy
		t.long++
		t.sharing += b2i(p.shares)
	}
	if s.fragmented > 0 {
		t.fragmented.add(s.fragmented, len(r.Paragraphs))
	}
	if p.checked && s.copied == 0 && n >= fragmentChars && len(p.prep.Tokens) > 0 {
		if key := wordsKey(p.prep.Tokens); t.seen[key] {
			t.repeated.add(n, len(r.Paragraphs))
		} else {
			t.seen[key] = true
		}
	}
	if s.filed {
		t.filed.add(s.copied, len(r.Paragraphs))
	}
	if p.checked && s.template > 0 && extract.RunningText(string(p.src.Section), p.src.Heading, p.src.Text) {
		t.boilerplate.add(s.template, len(r.Paragraphs))
	}
	for k, doc := range s.docs {
		t.perSource[doc] += s.para.Matches[k].CopiedChars
	}
	t.matchDocs = append(t.matchDocs, s.docs)

	r.TotalChars += n
	if s.copied > 0 {
		r.FlaggedParas++
	}
	r.CopiedChars += s.copied
	r.QuotedChars += s.quoted
	if s.uncited > 0 {
		t.uncited.add(s.uncited, len(r.Paragraphs))
		for _, m := range s.marks {
			if !slices.Contains(t.uncited.marks, m) {
				t.uncited.marks = append(t.uncited.marks, m)
			}
		}
	}
	r.TemplateChars += s.template

	name := sectionName(p.src)
	k, ok := t.sections[name]
	if !ok {
		k = len(r.Sections)
		t.sections[name] = k
		r.Sections = append(r.Sections, report.SectionFigure{Name: name, Section: string(p.src.Section)})
	}
	sf := &r.Sections[k]
	sf.Chars += n
	sf.CopiedChars += s.copied
	sf.Checked = sf.Checked || p.checked || s.filed
	r.Paragraphs = append(r.Paragraphs, s.para)
}

// rankSources lists the sources by the characters they account for (ties by document id, so the
// order is the same on every run) and points every match at its source's rank.
func (c *checker) rankSources(r *report.Report, t *tally) {
	sig := similarity.MinHash(t.shingles)
	ids := make([]uint64, 0, len(t.perSource))
	for id := range t.perSource {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if t.perSource[ids[i]] != t.perSource[ids[j]] {
			return t.perSource[ids[i]] > t.perSource[ids[j]]
		}
		return ids[i] < ids[j]
	})
	rank := make(map[uint64]int, len(ids))
	for i, id := range ids {
		src := c.sources[id]
		rank[id] = i
		share := 0.0
		if r.TotalChars > 0 {
			share = float64(t.perSource[id]) / float64(r.TotalChars)
		}
		r.Sources = append(r.Sources, report.Source{
			ID: id, Path: src.info.Path, Title: src.info.Title, Similarity: round(share, 4),
			CopiedChars: t.perSource[id], Jaccard: round(sig.Jaccard(&src.sig), 4), Color: report.ColorFor(i),
		})
	}
	for i, docs := range t.matchDocs {
		for k, doc := range docs {
			r.Paragraphs[i].Matches[k].Source = rank[doc]
		}
	}
}

// figures turns the counted characters into the report's shares.
func figures(r *report.Report) {
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
}

// leftOut writes down the parts not checked (in a fixed order) and the boilerplate not counted.
func (c *checker) leftOut(r *report.Report, excluded map[exclusion]int) {
	parts := make([]exclusion, 0, len(excluded))
	for e := range excluded {
		parts = append(parts, e)
	}
	sort.Slice(parts, func(i, j int) bool {
		if parts[i].section != parts[j].section {
			return parts[i].section < parts[j].section
		}
		return parts[i].reason < parts[j].reason
	})
	for _, e := range parts {
		r.Excluded = append(r.Excluded, report.Exclusion{Section: e.section, Chars: excluded[e], Reason: e.reason})
	}
	if r.TemplateChars > 0 {
		why := fmt.Sprintf("boilerplate held by at least %d library documents or a template document; not counted", c.templateDocs[0])
		if c.kinds.known {
			// A kind with fewer documents than the rule asks for holds no boilerplate: not said.
			var held []string
			for k, kind := range []struct {
				n    int
				name string
			}{{c.kinds.theses, "the library's %d theses"}, {c.kinds.docs, "its %d other documents"}} {
				if need := c.templateDocs[1-k]; kind.n >= need {
					held = append(held, fmt.Sprintf("%d of "+kind.name, need, kind.n))
				}
			}
			why = fmt.Sprintf("boilerplate held by at least %s; not counted", strings.Join(append(held, "a template document"), ", or "))
		}
		r.Excluded = append(r.Excluded, report.Exclusion{Section: "template", Chars: r.TemplateChars, Reason: why})
	}
}

// warnings are extraction's (text changed, dropped or hidden), then the text left out when it is
// most of it, then the dodges the check saw through, then what would have made a figure lower than
// the text is: quotation marks whose citations point at nothing, cited quotations that are much of
// the text, copies filed as headings, reference entries or front matter.
func warnings(doc *extract.Document, t *tally, r *report.Report) []report.Warning {
	var ws []report.Warning
	for _, w := range doc.Warnings {
		ws = append(ws, report.Warning(w))
	}
	if w, ok := leftOutWarning(t.excluded, r.TotalChars); ok {
		ws = append(ws, w)
	}
	for _, w := range prepare.DodgeWarnings(t.dodges, t.han, r.TotalChars) {
		ws = append(ws, report.Warning(w))
	}
	for _, w := range prepare.GarbledWarning(t.garbled) {
		ws = append(ws, report.Warning(w))
	}
	if w, ok := t.swaps.Warning(); ok {
		ws = append(ws, report.Warning(w))
	}
	if w, ok := t.uncited.warning(); ok {
		ws = append(ws, w)
	}
	if w, ok := quotedWarning(r); ok {
		ws = append(ws, w)
	}
	if w, ok := t.filed.warning(extract.WarnFiled,
		"%d characters filed as headings, reference entries or front matter copy the running text of library documents: checked and counted"); ok {
		ws = append(ws, w)
	}
	if w, ok := t.repeated.atLeast(repeatedShare, r.TotalChars).warning(extract.WarnRepeated,
		"%d characters (%s) repeat paragraphs found earlier in the document word for word: counted as written, they make its figures lower than saying it once would give",
		english.Count(len(t.repeated.paras), "paragraph", "paragraphs")); ok {
		ws = append(ws, w)
	}
	if w, ok := t.boilerplate.atLeast(boilerplateShare, r.TotalChars).warning(extract.WarnBoilerplate,
		"%d characters of the running text (%s) were not counted as boilerplate (text many library documents share, or a template document holds): a passage several students copied from one source reads the same way; see the paragraphs marked as boilerplate",
		english.Count(len(t.boilerplate.paras), "paragraph", "paragraphs")); ok {
		ws = append(ws, w)
	}
	if w, ok := t.fragmented.warning(extract.WarnFragmented,
		"%d copied characters stand in paragraphs of fewer than %d characters (table cells, short lines) that match only when read together: a copy cut into pieces too short to check one by one",
		fragmentChars); ok {
		ws = append(ws, w)
	}
	return ws
}

// repeatedShare is the least share of a document's characters in paragraphs that repeat earlier
// ones word for word (checked, not copied) that warns. A thesis may say a paragraph of its abstract
// again in its conclusion; thirty copies of one paragraph of its own brought a copied thesis's
// 100 % down to 18.9 %, and nothing said why.
const repeatedShare = 0.1

// boilerplateShare is the least share of a document's characters in running text not counted as
// boilerplate that warns. Boilerplate is what a quarter of the library's theses (three at least)
// hold, or a template document: a school's declaration, a stock footnote (the devset's running
// text holds 43 characters of it at most, 0.4 % of a thesis). But three students who copied one
// source make it boilerplate for a fourth: a thesis copying three paragraphs of an article that
// three of a library's twelve theses had copied too read 0.0 %, nothing said, when the article was
// not in the library; and a source added as a template makes a copy of it read 0.0 % too.
const boilerplateShare = 0.01

// wordsKey is a hash of a paragraph's words, the same for paragraphs that say the same words
// whatever their spacing, punctuation or look-alike letters.
func wordsKey(toks []similarity.Token) uint64 {
	h := fnv.New64a()
	var b [4]byte
	for _, t := range toks {
		binary.LittleEndian.PutUint32(b[:], t.Hash)
		h.Write(b[:])
	}
	return h.Sum64()
}

// foreign warns when under a tenth of the checked paragraphs long enough to hold a copy (long, ten
// at least) share a single indexed word pair with the library (sharing): a library in another
// language than the thesis, or of another field, can find nothing in it, and its 0 % reads as a
// clean result. A Chinese thesis against a library of English documents shares none; the devset's
// submissions against their libraries share with every paragraph.
func foreign(long, sharing, docs int) (report.Warning, bool) {
	if long < 10 || sharing*10 >= long {
		return report.Warning{}, false
	}
	return report.Warning{Kind: extract.WarnForeign, Count: long - sharing, Message: fmt.Sprintf(
		"%d of %d paragraphs share not a single word pair with any of the library's %d documents: it holds little text like this document (another language or field), so its figures say little",
		long-sharing, long, docs)}, true
}

// sameFile warns when a source is the very file checked (the same SHA-256): the thesis itself added
// to the library before it was checked, which then finds it copied from itself, or another
// student's file handed in as it is. Only the person checking can tell which.
func (c *checker) sameFile(r *report.Report, sha string) (report.Warning, bool) {
	for _, s := range r.Sources {
		if sha == "" || c.sources[s.ID].info.SHA256 != sha {
			continue
		}
		msg := fmt.Sprintf("library document %d (%s) is this very file (the same SHA-256) and accounts for %.1f%% of it (%d characters): "+
			"if it is this thesis itself, leave it out (--exclude-source %d, or untick it in the app)", s.ID, s.Path, 100*s.Similarity, s.CopiedChars, s.ID)
		return report.Warning{Kind: extract.WarnSameFile, Count: s.CopiedChars, Message: msg}, true
	}
	return report.Warning{}, false
}

// maxQuoted is the share of a text that cited quotations found in sources may make up without a
// warning. The figure excluding quotes (去除引用) leaves them all out, however many: a thesis made
// of cited quotations reads 0 % by it, and a school's rules may judge by that figure. The devset's
// theses quote at most 17.8 % of their text.
const maxQuoted = 0.25

// quotedWarning warns when cited quotations found in sources make up more than maxQuoted of r.
func quotedWarning(r *report.Report) (report.Warning, bool) {
	if r.TotalChars == 0 || float64(r.QuotedChars) <= maxQuoted*float64(r.TotalChars) {
		return report.Warning{}, false
	}
	var paras []int
	for i, p := range r.Paragraphs {
		if p.Status == report.StatusQuoted {
			paras = append(paras, i)
		}
	}
	msg := fmt.Sprintf("cited quotations found in sources make up %.1f%% of the text (%d of %d characters): the figure excluding quotes leaves them all out",
		100*float64(r.QuotedChars)/float64(r.TotalChars), r.QuotedChars, r.TotalChars)
	return report.Warning{Kind: extract.WarnQuoted, Count: r.QuotedChars, Message: msg, Paragraphs: paras}, true
}

// warning says that quotation marks did not make copied text quoted: their citations point at
// nothing in the reference list or the notes.
func (u uncitedQuotes) warning() (report.Warning, bool) {
	marks := u.marks
	if len(marks) > 3 {
		marks = append(marks[:3:3], "…")
	}
	return u.charsIn.warning(extract.WarnUncited,
		"%d copied characters stand in quotation marks whose citations (%s) point at nothing in the reference list or the notes: counted as copied, not as quoted",
		strings.Join(marks, ", "))
}

// leftOutWarning warns when more than half of the text was left out of the check (references,
// headings, front matter: what the options leave out). The figures are then of the smaller rest, and
// a 0 % of nothing checked must not read as a clean thesis. In a thesis these parts are a fifth of
// the text or less (the devset's theses: 8-20 %).
func leftOutWarning(excluded map[exclusion]int, total int) (report.Warning, bool) {
	n := 0
	var parts []string
	for e, c := range excluded {
		n += c
		if !slices.Contains(parts, e.section) {
			parts = append(parts, e.section)
		}
	}
	if total == 0 || 2*n <= total {
		return report.Warning{}, false
	}
	sort.Strings(parts)
	what := strings.Join(parts, ", ")
	msg := fmt.Sprintf("%d of the %d characters were left out of the check (%s): the figures are of the rest", n, total, what)
	if n == total {
		msg = fmt.Sprintf("all %d characters were left out of the check (%s): nothing was checked", n, what)
	}
	return report.Warning{Kind: extract.WarnLeftOut, Count: n, Message: msg}, true
}

// reportNumber names a report for people ("TC-20261127-1A2B3C4D"): the day, and a hash of the
// document and the moment.
func reportNumber(sha string, created time.Time) string {
	h := sha256.Sum256([]byte(sha + created.Format(time.RFC3339)))
	return "TC-" + created.Format("20060102") + "-" + strings.ToUpper(hex.EncodeToString(h[:4]))
}

func exclusionOf(p extract.Paragraph) exclusion {
	switch {
	case p.FrontMatter:
		return exclusion{"front matter", "front matter: title page, declarations and authorisations, signature and date lines, the same in every thesis of a school; not checked unless asked for"}
	case p.Section == extract.References:
		return exclusion{"references", "reference list: not counted, as in CNKI's figure without references"}
	default:
		return exclusion{"headings", "headings: too short and formulaic to count"}
	}
}

func sectionName(p extract.Paragraph) string {
	if p.Section == extract.Body && p.Chapter != "" {
		return p.Chapter
	}
	return string(p.Section)
}

// overlap counts the characters of text (as similarity.Written counts them) that s shares with
// spans.
func overlap(text []rune, s [2]int, spans [][2]int) int {
	n := 0
	for _, q := range spans {
		n += similarity.Written(text, [2]int{max(s[0], q[0]), min(s[1], q[1])})
	}
	return n
}

func round(v float64, digits int) float64 {
	p := 1.0
	for i := 0; i < digits; i++ {
		p *= 10
	}
	return float64(int64(v*p+0.5)) / p
}
