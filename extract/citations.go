package extract

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Citations is what a document cites: its reference list and its notes. A quotation is left out of
// the figure excluding quotes (去除引用) only when its citation mark points at one of them, as CNKI
// counts a passage as cited only when the work stands in the thesis's reference list. A mark that
// points at nothing — [99] under a list of twelve, (Wang, 2019) with no Wang of 2019, any mark in a
// document with no reference list or notes — makes quotation marks around copied text a way to a
// clean figure.
type Citations struct {
	entries []string // the reference list's entries and the notes, folded to lower case
	// last is the highest number a citation may name: the number of entries (the labels [12] or
	// 12. counted, as a paragraph may hold several entries run together, and Word's automatic
	// numbering none) or of notes, whichever is higher.
	last int
}

// DocumentCitations gathers what paragraphs (a document's, notes kept with their paragraphs or
// as paragraphs of their own) cite.
func DocumentCitations(paras []Paragraph) *Citations {
	c := &Citations{}
	listed, notes := 0, 0
	labels := map[int]bool{}
	for _, p := range paras {
		for _, n := range p.Notes {
			notes++
			c.entries = append(c.entries, strings.ToLower(n))
		}
		switch {
		case p.Section == Notes:
			notes++
		case p.Section == References && !p.Heading:
			listed++
			for _, m := range reEntryLabel.FindAllStringSubmatch(p.Text, -1) {
				if n, err := strconv.Atoi(m[1] + m[2]); err == nil {
					labels[n] = true
				}
			}
		default:
			continue
		}
		c.entries = append(c.entries, strings.ToLower(p.Text))
	}
	c.last = max(len(labels), listed, notes)
	return c
}

// reEntryLabel finds the labels of reference entries: [12] or ［12］ anywhere (a paragraph may hold
// several entries run together), 12. or (12) at the start.
var reEntryLabel = regexp.MustCompile(`[\[［〔]\s*(\d{1,4})\s*[\]］〕]|^\s*[(（]?(\d{1,4})[)）.．、]`)

// Spans returns the cited quotations of text (QuotedSpans) whose citation marks point at an
// entry of the reference list or a note, and those whose marks point at nothing, each sorted and
// merged. The marks of the second are returned too, for the warning.
func (c *Citations) Spans(text string) (cited, uncited [][2]int, marks []string) {
	for _, q := range quotations(text) {
		ok := false
		for _, m := range q.marks {
			if c.resolves(m) {
				ok = true
				break
			}
		}
		if ok {
			cited = append(cited, q.span)
		} else {
			uncited = append(uncited, q.span)
			marks = append(marks, q.marks[0])
		}
	}
	cited = mergeQuotes(cited)
	// A quotation nested in a cited one is cited.
	var rest [][2]int
	for _, u := range uncited {
		inside := false
		for _, s := range cited {
			if u[0] >= s[0] && u[1] <= s[1] {
				inside = true
				break
			}
		}
		if !inside {
			rest = append(rest, u)
		}
	}
	return cited, mergeQuotes(rest), marks
}

var (
	reMarkNumbers = regexp.MustCompile(`\d{1,4}`)
	reMarkYear    = regexp.MustCompile(`(?:19|20)\d\d`)
	reMarkRange   = regexp.MustCompile(`(\d{1,4})\s*[-–—~～]\s*(\d{1,4})`)
	// Names in an author–year mark: capitalised Latin words, runs of two to four Han characters.
	reMarkName = regexp.MustCompile(`\p{Lu}[\p{L}'’-]+|\p{Han}{2,4}`)
)

// notNames are capitalised words of author–year marks that name no author.
var notNames = map[string]bool{"et": true, "al": true, "and": true, "in": true, "see": true, "cf": true,
	"ed": true, "eds": true, "pp": true, "vol": true, "no": true, "ibid": true, "eg": true, "ie": true}

// resolves tells whether a citation mark (citePattern, or a citing phrase's name and year) points
// at something the document cites.
func (c *Citations) resolves(mark string) bool {
	if year := reMarkYear.FindString(mark); year != "" && strings.ContainsAny(mark, "(（") {
		return c.authorYear(mark, year)
	}
	numbers := reMarkNumbers.FindAllString(mark, -1)
	if len(numbers) == 0 {
		var b strings.Builder // superscript digits
		for _, r := range mark {
			if d := superscriptDigit(r); d >= 0 {
				b.WriteByte(byte('0' + d))
			}
		}
		numbers = []string{b.String()}
	}
	// The ends of a range are what it names; a reference list of twelve holds [3-5].
	if m := reMarkRange.FindStringSubmatch(mark); m != nil {
		numbers = []string{m[1], m[2]}
	}
	for _, s := range numbers {
		n, err := strconv.Atoi(s)
		if err != nil || !c.numbered(n) {
			return false
		}
	}
	return true
}

func superscriptDigit(r rune) int {
	switch {
	case r == '⁰':
		return 0
	case r == '¹':
		return 1
	case r == '²':
		return 2
	case r == '³':
		return 3
	case r >= '⁴' && r <= '⁹':
		return int(r-'⁴') + 4
	}
	return -1
}

// numbered tells whether the document cites something numbered n.
func (c *Citations) numbered(n int) bool { return n > 0 && n <= c.last }

// authorYear tells whether an entry holds the year of an author–year mark and one of its names
// (any entry of that year when the mark names no one).
func (c *Citations) authorYear(mark, year string) bool {
	var names []string
	for _, n := range reMarkName.FindAllString(mark, -1) {
		// 王芳等 is 王芳 and others.
		n = strings.ToLower(strings.TrimSuffix(strings.TrimRightFunc(n, func(r rune) bool { return !unicode.IsLetter(r) }), "等"))
		if !notNames[n] && n != "" {
			names = append(names, n)
		}
	}
	for _, e := range c.entries {
		if !strings.Contains(e, year) {
			continue
		}
		if len(names) == 0 {
			return true
		}
		for _, n := range names {
			if strings.Contains(e, n) {
				return true
			}
		}
	}
	return false
}
