package extract

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

type pdfPara struct {
	Paragraph
	first, last int              // pages of the first and last line
	marks       map[int][]string // note markers cited, by page
	lines       []*pdfLine
	hiddenAt    []int // byte offsets of Hidden's pieces in the text before it is cleaned
}

func (p *pdfPara) onPage(n int) bool { return n >= p.first && n <= p.last }

var (
	pdfNumberedRE  = regexp.MustCompile(`(?i)^(第\s*[一二三四五六七八九十百\d]+\s*[章节篇部]|(chapter|section|part|appendix|附录)\s*[\dIVXivxA-Z一二三四五六七八九十]+|\d{1,2}(\.\d{1,2}){0,3}\.?\s+\S|[一二三四五六七八九十]+\s*[、.．]|[(（][一二三四五六七八九十]+[)）])`)
	pdfSentenceEnd = "。！？.!?；;：:…"
	pdfListItemRE  = regexp.MustCompile(`^(\[\d{1,3}\]|[(（]\d{1,3}[)）]|\d{1,3}[.、)]\s|[①-⑳]|[•·▪●◦■□◆◇▶►✓*\-–]\s)`)
)

func (st *pdfStats) side(page int) int { return page % 2 }

// pdfNumberedHeading reports whether text reads like a numbered heading by itself:
// 第一章 绪论, 1.2 Related work, Chapter 3.
func pdfNumberedHeading(text string) bool {
	t := strings.TrimSpace(text)
	if utf8.RuneCountInString(t) > 60 || !pdfNumberedRE.MatchString(t) {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(t)
	return !strings.ContainsRune("。，,；;：:、", r) && !(r == '.' && !strings.HasSuffix(strings.Fields(t)[0], "."))
}

func pdfEndsSentence(text string) bool {
	t := strings.TrimRight(text, " \"'”’」』)）]】")
	if t == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(t)
	return strings.ContainsRune(pdfSentenceEnd, r)
}

// startsParagraph decides whether line l begins a new paragraph after line p; first is
// the first line of the paragraph p belongs to, next the line after l (nil at the end).
func (st *pdfStats) startsParagraph(p, l, first, next *pdfLine) bool {
	b, why := st.startsParagraph1(p, l, first, next)
	if b && os.Getenv("PDFDEBUG") != "" {
		fmt.Fprintf(os.Stderr, "BREAK %s | %q | %q\n", why, p.text, l.text)
	}
	return b
}

func (st *pdfStats) startsParagraph1(p, l, first, next *pdfLine) (bool, string) {
	ph, lh := st.headingStyle(p), st.headingStyle(l)
	if ph != lh || math.Abs(p.size-l.size) > 0.75 || p.bold != l.bold && (ph || lh) {
		return true, "style"
	}
	samePage := p.page == l.page
	em := l.size
	if samePage {
		dy := p.y - l.y
		if dy <= 0.3*em || dy > 1.45*st.lineSpacing(l.size) {
			return true, "gap"
		}
	}
	if ph && lh {
		return !samePage, "heading" // a heading wrapped onto a second line
	}
	if b, why, ok := listBreak(l, first); ok {
		return b, why
	}
	left, _ := st.margins(l)
	pLeft, right := st.margins(p)
	width := right - pLeft
	// First-line indentation.
	if l.x0 > left+0.8*em && (!samePage || l.x0 > p.x0+0.8*em) && !(p == first && math.Abs(p.x0-pLeft) < 0.5*em && samePage) {
		return true, "indent"
	}
	// Indented as the first line before it, which was a paragraph of its own that filled its
	// line: l fills its line too and the line after it is back at the margin, so l was a first
	// line. (A block indented as a whole goes on at the same indent; the wrapped part of a
	// hanging entry ends short.)
	if samePage && p == first && l.x0 > left+0.8*em && math.Abs(l.x0-p.x0) < 0.3*em && l.x1 > right-2*em &&
		next != nil && next.x0 < nextLeft(st, next)+0.5*em {
		return true, "indent after a one-line paragraph"
	}
	// Back to the margin after an indented line that was not a first line (a block
	// quote, a hanging-indent entry).
	if samePage && p != first && l.x0 < p.x0-0.8*em {
		return true, "outdent"
	}
	// A line that stops short although the next line's first word would have fitted
	// was ended on purpose: the paragraph ends there.
	last, _ := utf8.DecodeLastRuneInString(p.text)
	if last != '-' && last != '\u00ad' && right-p.x1 > l.firstW+em {
		if os.Getenv("PDFDEBUG") != "" {
			fmt.Fprintf(os.Stderr, "FIT right=%.1f p.x1=%.1f firstW=%.1f | %q | %q\n", right, p.x1, l.firstW, p.text, l.text)
		}
		return true, "fit"
	}
	// A list or reference entry after a finished sentence: "[3] Smith, J. …", "2. …", "• …".
	if pdfEndsSentence(p.text) && pdfListItemRE.MatchString(l.text) {
		return true, "item"
	}
	if pdfEndsSentence(p.text) && pdfNumberedHeading(l.text) && l.x1 < right-0.3*width {
		return true, "numbered"
	}
	return false, ""
}

// margins are the left and right edges of the text a line stands in: its column's on a page set in
// two, else the page's.
func (st *pdfStats) margins(l *pdfLine) (left, right float64) {
	if l.colRight > 0 {
		return l.colLeft, l.colRight
	}
	return st.left[st.side(l.page)], st.right[st.side(l.page)]
}

func nextLeft(st *pdfStats, l *pdfLine) float64 {
	left, _ := st.margins(l)
	return left
}

// listBreak decides a line in or after a bulleted list (pdfTakeBullet); ok is false when the
// usual rules are to decide. An item's wrapped lines hang where its text starts. The items of
// one list, bulleted alike at one indent, are one block: the paragraph a list is written from, as
// a plain-text file holds a list in one paragraph; an item by itself can be too short to be
// found copied.
func listBreak(l, first *pdfLine) (brk bool, why string, ok bool) {
	em := l.size
	switch {
	case l.bullet != "":
		if first.bullet == l.bullet && math.Abs(l.x0-first.x0) < 0.5*em {
			return false, "", true
		}
		return true, "bullet", true
	case first.bullet != "" && math.Abs(l.x0-first.hang) < 0.5*em:
		return false, "", true
	}
	return false, "", false
}

// pdfParagraphs joins the body lines of all pages into paragraphs.
func pdfParagraphs(body [][]*pdfLine, st *pdfStats) []*pdfPara {
	// The words are made only when a line ends in a hyphen that may be dropped: a Chinese
	// thesis has none, and making them was a third of laying out its pages, on one core while the
	// other waited (reading a 313-page thesis: 0.171-0.181 s, 0.142-0.154 s with the words left
	// unmade; the best of nine reads in each of three alternated runs).
	words := sync.OnceValue(func() map[string]bool { return pdfWords(body) })
	auto := pdfHyphenates(body)
	var paras []*pdfPara
	var cur *pdfPara
	var prev, first *pdfLine
	var text strings.Builder
	finish := func() {
		if cur == nil {
			return
		}
		sortHidden(cur.Hidden, cur.hiddenAt)
		cur.Text, cur.hiddenAt = cleanPDFTextAt(text.String(), cur.hiddenAt)
		for i, at := range cur.hiddenAt {
			cur.Hidden[i].Offset = at
		}
		cur.Heading = st.isHeading(cur)
		paras = append(paras, cur)
		cur = nil
		text.Reset()
	}
	var lines []*pdfLine
	for _, ls := range body {
		lines = append(lines, ls...)
	}
	for i, l := range lines {
		var next *pdfLine
		if i+1 < len(lines) {
			next = lines[i+1]
		}
		if cur == nil || st.startsParagraph(prev, l, first, next) {
			finish()
			cur = &pdfPara{Paragraph: Paragraph{Page: l.page}, first: l.page, marks: map[int][]string{}}
			first = l
		} else {
			text.WriteString(pdfJoiner(prev, l))
			if strings.HasSuffix(text.String(), "-") && pdfDropHyphen(prev, l, words, auto) {
				s := text.String()
				text.Reset()
				text.WriteString(s[:len(s)-1])
			}
		}
		for _, h := range l.hidden {
			cur.Hidden = append(cur.Hidden, h.Hidden)
			cur.hiddenAt = append(cur.hiddenAt, text.Len()+h.off)
		}
		text.WriteString(l.text)
		cur.last = l.page
		cur.lines = append(cur.lines, l)
		if len(l.marks) > 0 {
			cur.marks[l.page] = append(cur.marks[l.page], l.marks...)
		}
		prev = l
	}
	finish()
	return paras
}

// isHeading: a short paragraph set larger or bolder than the body, or a short line by
// itself numbered like a heading.
func (st *pdfStats) isHeading(p *pdfPara) bool {
	n := utf8.RuneCountInString(p.Text)
	if n == 0 || n > 120 || len(p.lines) > 3 {
		return false
	}
	styled := true
	for _, l := range p.lines {
		if !st.headingStyle(l) {
			styled = false
		}
	}
	if styled && !pdfEndsSentence(p.Text) || styled && n <= 40 {
		return true
	}
	return len(p.lines) == 1 && pdfNumberedHeading(p.Text)
}

// pdfJoiner is what goes between two wrapped lines: nothing between CJK characters or after
// a hyphen, a space between words.
func pdfJoiner(p, l *pdfLine) string {
	last, _ := utf8.DecodeLastRuneInString(p.text)
	next, _ := utf8.DecodeRuneInString(l.text)
	switch {
	case last == '\u00ad':
		return ""
	case last == '-' || last == '\u2010':
		return ""
	case last == '/' || last == '—' || last == '–':
		return ""
	case p.endSpace:
		return " "
	case pdfWide(last) || pdfWide(next):
		return ""
	}
	return " "
}

// pdfDropHyphen decides whether a line-final hyphen was only hyphenation. The next line
// must go on in lower case. Then the document decides: the joined word written elsewhere
// says hyphenation, the hyphenated compound written elsewhere says a real hyphen. Without
// such evidence, auto is the guess for the whole document (does it hyphenate at all?),
// and in a document that does not, two halves that are words of their own ("awe",
// "inspiring") are taken for a compound.
func pdfDropHyphen(p, l *pdfLine, words func() map[string]bool, auto bool) bool {
	head := pdfLastWord(strings.TrimSuffix(p.text, "-"))
	tail := pdfFirstWord(l.text)
	if head == "" || tail == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(tail)
	h, _ := utf8.DecodeLastRuneInString(head)
	if !unicode.IsLower(r) || !unicode.IsLetter(h) {
		return false
	}
	hl, tl := strings.ToLower(head), strings.ToLower(tail)
	switch {
	case words()[hl+tl]:
		return true
	case words()[hl+"-"+tl]:
		return false
	case auto:
		return true
	}
	return false
}

// pdfHyphenates guesses whether a document was set with automatic hyphenation: more
// than 2% of its Latin lines end in a hyphen after a letter. Without it, a line-final
// hyphen is part of a compound that happened to fall at the line end, which is rare.
func pdfHyphenates(body [][]*pdfLine) bool {
	hyph, latin := 0, 0
	for _, ls := range body {
		for _, l := range ls {
			letters := 0
			for _, r := range l.text {
				if r < 0x250 && unicode.IsLetter(r) {
					letters++
				}
			}
			if letters < 10 {
				continue
			}
			latin++
			t := strings.TrimSuffix(l.text, "-")
			if len(t) < len(l.text) {
				if r, _ := utf8.DecodeLastRuneInString(t); unicode.IsLetter(r) {
					hyph++
				}
			}
		}
	}
	return hyph >= 2 && hyph*50 > latin
}

func pdfLastWord(s string) string {
	i := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	return strings.TrimLeft(s[i+1:], "-")
}

func pdfFirstWord(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	if i < 0 {
		return s
	}
	return s[:i]
}

// pdfWords is the set of lower-case words (and hyphenated compounds) written inside
// lines, not split at a line end, for deciding what a line-final hyphen was.
func pdfWords(body [][]*pdfLine) map[string]bool {
	words := map[string]bool{}
	var prev *pdfLine
	for _, ls := range body {
		for _, l := range ls {
			fields := strings.Fields(l.text)
			for i, f := range fields {
				if i == len(fields)-1 && strings.HasSuffix(f, "-") {
					continue
				}
				if i == 0 && prev != nil && strings.HasSuffix(prev.text, "-") {
					continue
				}
				w := strings.ToLower(strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) }))
				if w == "" {
					continue
				}
				words[w] = true
				if strings.Contains(w, "-") {
					for _, part := range strings.Split(w, "-") {
						if part != "" {
							words[part] = true
						}
					}
				}
			}
			prev = l
		}
	}
	return words
}
