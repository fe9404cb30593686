package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sectionWalk is one pass over the paragraphs.
type sectionWalk struct {
	sections []Section
	heading  []bool
	chapters []string
	anchor   int // first paragraph of the abstract or body reached from front matter; -1 if none
}

// walker is walkSections' state as it reads the paragraphs in order.
type walker struct {
	ps    []Paragraph
	info  []paraInfo
	start Section
	res   sectionWalk

	state   Section
	chapter string
	lastNum int // the last chapter's number, to tell a chapter heading from a numbered line

	toc      bool            // inside a table of contents
	tocSeen  map[string]bool // its entries, so that the same heading after it is the heading
	keywords bool            // the abstract's key words were read: running text now is the body
	abstract int             // runes of the abstract so far
	// refsOdd is the first of a run of paragraphs in References that do not look like entries;
	// beforeRefs the section the references followed.
	refsOdd    int
	beforeRefs Section

	bodyStarted bool // an abstract comes before the body, never inside it
	// A declaration after the body started (at the end of a thesis, or a second thesis merged into
	// one PDF) is front matter only for as long as a declaration runs: afterBody is the section it
	// interrupted, frontProse the running text under it that declares nothing.
	afterBody  Section
	frontProse int
}

// walkSections assigns sections in reading order, starting in the given section: a table of
// contents is passed over, headings move the walk from section to section, and running text that
// no heading announced is placed by what it reads like.
func walkSections(ps []Paragraph, info []paraInfo, start Section) sectionWalk {
	n := len(ps)
	w := &walker{
		ps: ps, info: info, start: start, state: start, refsOdd: -1, beforeRefs: Body, afterBody: Body,
		tocSeen: map[string]bool{}, bodyStarted: start == Body,
		res: sectionWalk{sections: make([]Section, n), heading: make([]bool, n), chapters: make([]string, n), anchor: -1},
	}
	for i := 0; i < n; i++ {
		t := strings.TrimSpace(ps[i].Text)
		if w.toc && w.inContents(i, t) {
			continue
		}
		if w.heading(i, t) {
			continue
		}
		w.res.sections[i] = w.state
		w.res.chapters[i] = w.chapter
	}
	return w.res
}

func (w *walker) enter(i int, s Section) {
	if w.res.anchor < 0 && (s == Abstract || s == Body) && w.start == Front {
		w.res.anchor = i
	}
	if s == Body {
		w.bodyStarted = true
	}
	w.state = s
}

// inContents places paragraph i while a table of contents runs, and reports whether it belongs to
// it; when it does not, the contents have ended.
func (w *walker) inContents(i int, t string) bool {
	in := w.info[i]
	if in.kind == kTOCLine || in.kind == kContents || (!in.prose && reTrailPage.MatchString(t) && !bareNumber(t)) {
		w.res.sections[i] = Front
		w.res.heading[i] = in.kind == kContents
		w.tocSeen[tocKey(t)] = true
		return true
	}
	switch {
	case in.prose:
		w.toc = false // the body began under a heading we did not recognise
		if w.state == Front || w.state == Abstract {
			w.enter(i, Body)
		}
	case in.heading && in.kind != kText:
		if !w.tocSeen[tocKey(t)] && tocEntryAhead(w.info, i) {
			w.res.sections[i] = Front
			w.tocSeen[tocKey(t)] = true
			return true
		}
		w.toc = false
	default:
		w.res.sections[i] = Front
		return true
	}
	return false
}

// heading moves the walk by paragraph i's kind, and reports whether it placed the paragraph itself
// (lines of a table of contents).
func (w *walker) heading(i int, t string) bool {
	in := w.info[i]
	switch in.kind {
	case kTOCLine:
		w.res.sections[i] = Front
		return true
	case kAbstract, kAbstractStart:
		if !w.bodyStarted {
			w.enter(i, Abstract)
			w.keywords, w.abstract = false, 0
			w.res.heading[i] = in.kind == kAbstract
		} else if in.kind == kAbstract {
			w.res.heading[i] = true
		}
	case kKeywords:
		if w.state == Abstract {
			w.keywords = true
		}
	case kContents:
		w.toc = true
		w.tocSeen = map[string]bool{}
		w.res.heading[i] = true
		w.res.sections[i] = Front
		return true
	case kFront:
		if w.bodyStarted && w.state != Front {
			w.afterBody, w.frontProse = w.state, 0
		}
		w.state = Front
		w.res.heading[i] = true
	case kChapter:
		w.chapterHeading(i, t)
	case kSection:
		w.res.heading[i] = true
	case kReferences:
		if w.state != References {
			w.beforeRefs = w.state
		}
		w.state = References
		w.refsOdd = -1
		w.res.heading[i] = true
	case kAcknowledgements:
		w.state = Acknowledgements
		w.res.heading[i] = true
	case kAppendix:
		w.state = Appendix
		w.res.heading[i] = true
	case kText:
		w.text(i, t)
	}
	return false
}

// chapterHeading starts the body (or its next chapter) at a chapter heading, unless a weak one (a
// numbered line) does not follow the last chapter's number.
func (w *walker) chapterHeading(i int, t string) {
	in := w.info[i]
	ok := !in.weak || in.num == w.lastNum+1
	if w.state == Front && w.bodyStarted && in.num == 1 {
		ok, w.lastNum = true, 0 // a second document's first chapter, after its front matter
	}
	if w.state == Front && in.num == 0 && !bodyStarters[in.key] && !w.ps[i].Heading {
		ok = false // "结论" before any chapter is not where a body starts
	}
	if !ok {
		w.res.heading[i] = !in.weak
		return
	}
	w.enter(i, Body)
	w.chapter = t
	if in.num > 0 {
		w.lastNum = in.num
	} else {
		w.lastNum++
	}
	w.res.heading[i] = true
}

// text places running text that no heading announced by what it reads like.
func (w *walker) text(i int, t string) {
	in := w.info[i]
	switch w.state {
	case Front:
		// Past what any declaration holds, running text that declares nothing is the body (or
		// whatever the declaration interrupted) under headings we did not recognise.
		if w.bodyStarted && in.prose && !declareMarks.in(t) {
			if w.frontProse += in.runes; w.frontProse > maxDeclarationRunes {
				w.state = w.afterBody
			}
		}
	case Abstract:
		w.abstract += in.runes
		// After the key words, or far past any abstract's length, running text is the body under a
		// heading we did not recognise.
		if in.prose && (w.keywords || w.abstract > 6000) {
			w.enter(i, Body)
		}
	case References:
		if !in.prose || referenceLike(t) || in.runes <= 100 {
			w.refsOdd = -1
			return
		}
		if w.refsOdd < 0 {
			w.refsOdd = i
		} else if w.beforeRefs == Body || w.beforeRefs == Appendix {
			// Two long paragraphs that cite nothing: the list has ended.
			for j := w.refsOdd; j < i; j++ {
				if w.res.sections[j] == References && !w.res.heading[j] {
					w.res.sections[j] = w.beforeRefs
					w.res.chapters[j] = w.chapter
				}
			}
			w.state = w.beforeRefs
		}
	}
}

// frontProven reports whether the walk that began in front matter found a landmark that proves
// there was front matter: an abstract or chapter heading early in the document, with little running
// text before it that is not a declaration.
func (w sectionWalk) frontProven(ps []Paragraph, info []paraInfo) bool {
	if w.anchor < 0 {
		return false
	}
	total, before, prose := 0, 0, 0
	for i, p := range ps {
		total += info[i].runes
		if i < w.anchor {
			before += info[i].runes
			if w.sections[i] == Front && info[i].prose && info[i].runes >= 150 && !declareMarks.in(p.Text) {
				prose++
			}
		}
	}
	return before*3 <= total && prose <= 4
}

// bareNumber reports whether a heading is only its number ("Chapter 3", "第三章"), which is not a
// title followed by a page number.
func bareNumber(t string) bool {
	return strings.TrimSpace(trimNumPrefix(strings.TrimSpace(t))) == ""
}

// tocEntryAhead reports whether the heading at i is followed, before any running text, by another
// chapter-level line: then it is an entry of a table of contents that has no page numbers.
func tocEntryAhead(info []paraInfo, i int) bool {
	for j := i + 1; j < len(info) && j <= i+200; j++ {
		in := info[j]
		if in.prose {
			return false
		}
		switch in.kind {
		case kChapter, kReferences, kAcknowledgements, kAppendix, kAbstract, kTOCLine:
			return true
		}
	}
	return false
}

// tocKey is a heading without its page number and leaders, to match a TOC entry with its heading.
func tocKey(t string) string {
	t = reTOCLine.ReplaceAllString(t, "")
	t = reTrailPage.ReplaceAllStringFunc(t, func(s string) string { r, _ := utf8.DecodeRuneInString(s); return string(r) })
	var b strings.Builder
	for _, r := range t {
		if !unicode.IsSpace(r) && r != '.' && r != '…' && r != '·' {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

var reRefMarks = regexp.MustCompile(`(?i)` + entryLabel + `|\[[JMDCNRSPZAGEBKOL](/OL)?\]|\b(19|20)\d\d\b|et al\.|doi|pp\.|vol\.|\bIn:|出版社|学报|期刊|大学学报`)

// referenceLike reports whether a paragraph reads like an entry of a reference list.
func referenceLike(t string) bool { return reRefMarks.MatchString(t) }

// RunningText reports whether a paragraph a document holds in section (a Section's string) is its
// running text: a counted section, not a heading, and reading neither as an entry of a reference
// list (one the structure did not find, in a library document) nor as a declaration.
func RunningText(section string, heading bool, text string) bool {
	switch Section(section) {
	case Body, Abstract, Notes, Appendix, Acknowledgements:
	default:
		return false
	}
	return !heading && RunningProse(text)
}

// RunningProse reports whether text reads neither as an entry of a reference list nor as a
// declaration.
func RunningProse(text string) bool {
	return !declareMarks.in(text) && !((reLabelStart.MatchString(text) || entryMarks.in(text)) && utf8.RuneCountInString(text) <= maxEntryRunes)
}

// ReferenceEntry reports whether text reads as an entry of a reference list by more than a label
// ("[21]" makes no entry of a copied paragraph): a document type ([J], [M]), et al., pp., a
// publisher or a journal, in no more than maxEntryRunes.
func ReferenceEntry(text string) bool {
	return entryMarks.in(text) && utf8.RuneCountInString(text) <= maxEntryRunes
}

// entryLabel is an entry's label at its start: [12], ［12］, 〔12〕, "12. ".
const entryLabel = `^\s*(\[\d+\]|［\d+］|〔\d+〕|\d+[.．、]\s)`

// maxEntryRunes is longer than nearly any entry.
const maxEntryRunes = 400
