package extract

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pdfStats are the measurements of a document's body text that the layout rules compare
// against.
type pdfStats struct {
	body     float64             // font size of most of the text
	bodyBold bool                // the body text itself is bold
	spacing  map[float64]float64 // usual baseline distance, by rounded font size
	left     [2]float64          // left margin of body lines, on odd [1] and even [0] pages
	right    [2]float64          // right end of full body lines
}

func pdfRoundSize(s float64) float64 { return math.Round(s*2) / 2 }

// pdfMeasure finds the body font size, line spacing and margins by taking the most common
// values, so that title pages, tables and notes do not skew them.
func pdfMeasure(pages []*pdfPage) *pdfStats {
	st := &pdfStats{spacing: map[float64]float64{}}
	sizeChars := map[float64]int{}
	for _, p := range pages {
		for _, l := range p.lines {
			sizeChars[pdfRoundSize(l.size)] += utf8.RuneCountInString(l.text)
		}
	}
	st.body = pdfModeKey(sizeChars, 10)
	boldN, allN := 0, 0
	spacings := map[float64]map[float64]int{}
	lefts := [2]map[float64]int{{}, {}}
	var rights [2][]float64
	for _, p := range pages {
		for i, l := range p.lines {
			sz := pdfRoundSize(l.size)
			if i > 0 {
				q := p.lines[i-1]
				dy := q.y - l.y
				if pdfRoundSize(q.size) == sz && dy > 0.8*sz && dy < 3.5*sz {
					if spacings[sz] == nil {
						spacings[sz] = map[float64]int{}
					}
					spacings[sz][math.Round(dy*2)/2]++
				}
			}
			if math.Abs(sz-st.body) > 0.5 {
				continue
			}
			allN++
			if l.bold {
				boldN++
			}
			lefts[p.num%2][math.Round(l.x0)]++
			rights[p.num%2] = append(rights[p.num%2], l.x1)
		}
	}
	st.bodyBold = boldN*2 > allN
	for sz, h := range spacings {
		st.spacing[sz] = pdfModeKey(h, 1.2*sz)
	}
	for par := 0; par < 2; par++ {
		if len(lefts[par]) == 0 {
			lefts[par], rights[par] = lefts[1-par], rights[1-par]
		}
		st.left[par] = pdfModeKey(lefts[par], 72)
		r := rights[par]
		sort.Float64s(r)
		if len(r) > 0 {
			st.right[par] = r[len(r)*49/50]
		} else {
			st.right[par] = 540
		}
	}
	return st
}

// pdfModeKey returns the key with the largest count (the larger key on ties), or def.
func pdfModeKey(h map[float64]int, def float64) float64 {
	best, n := def, 0
	for k, c := range h {
		if c > n || c == n && k > best {
			best, n = k, c
		}
	}
	return best
}

func (st *pdfStats) lineSpacing(size float64) float64 {
	if s, ok := st.spacing[pdfRoundSize(size)]; ok {
		return s
	}
	return 1.2 * size
}

// headingStyle reports whether a line is set larger or bolder than the body text.
func (st *pdfStats) headingStyle(l *pdfLine) bool {
	return l.size >= 1.15*st.body || l.bold && !st.bodyBold && l.size >= 0.95*st.body
}

// layoutPDF turns the pages' lines into paragraphs: running headers, footers and page
// numbers are dropped, footnotes become the notes of the paragraph that cites them, and
// lines are joined across wraps and page breaks. Hidden text goes to the paragraph it stood in
// or next to; the hidden text no paragraph could take is returned too.
func layoutPDF(pages []*pdfPage) ([]Paragraph, []Hidden) {
	st := pdfMeasure(pages)
	body := make([][]*pdfLine, len(pages))
	for i, p := range pages {
		for j := range p.lines {
			body[i] = append(body[i], &p.lines[j])
		}
	}
	pdfDropFurniture(pages, body, st)
	notes := make([][]pdfNote, len(pages))
	for i := range pages {
		body[i], notes[i] = pdfTakeFootnotes(body[i], st)
	}
	paras := pdfParagraphs(body, st)
	pdfAttachNotes(paras, pages, notes)
	out := make([]Paragraph, 0, len(paras))
	for _, p := range paras {
		if p.Text != "" {
			out = append(out, p.Paragraph)
		}
	}
	return out, pdfLooseHiddenText(pages, paras, out)
}

// pdfLooseHiddenText gives the hidden text that is in no paragraph (in no line, or in a running
// header or a footnote) to the paragraph before it, and returns what found none, there being no
// paragraph.
func pdfLooseHiddenText(pages []*pdfPage, paras []*pdfPara, out []Paragraph) []Hidden {
	type at struct {
		page int
		y    float64
		para int // index in out
	}
	var lines []at
	inPara := map[*pdfLine]bool{}
	k := -1
	for _, p := range paras {
		if p.Text != "" {
			k++
		}
		for _, l := range p.lines {
			inPara[l] = true
			if k >= 0 {
				lines = append(lines, at{l.page, l.y, k})
			}
		}
	}
	var orphans []orphanHidden
	add := func(page int, y float64, h Hidden) {
		// The first line after the hidden text in reading order; the paragraph before that one
		// had it last.
		i := sort.Search(len(lines), func(i int) bool {
			return lines[i].page > page || lines[i].page == page && lines[i].y <= y
		})
		after := -1
		if i > 0 {
			after = lines[i-1].para
		}
		orphans = append(orphans, orphanHidden{Hidden: h, after: after})
	}
	for _, pg := range pages {
		for _, h := range pg.loose {
			add(pg.num, h.y, h.Hidden)
		}
		for i := range pg.lines {
			l := &pg.lines[i]
			if !inPara[l] {
				for _, h := range l.hidden {
					add(pg.num, l.y, h.Hidden)
				}
			}
		}
	}
	sort.SliceStable(orphans, func(a, b int) bool { return orphans[a].after < orphans[b].after })
	return attachOrphans(out, orphans)
}

// ---- running headers, footers, page numbers ----

var (
	pdfPageNumberRE = regexp.MustCompile(`(?i)^(page|p\.|pg\.?)?\s*[-–—~·•(\[]*\s*(\d{1,4}|[ivxlcdm]{1,8})\s*[-–—~·•)\]]*\s*((of|/|／)\s*\d{1,4})?$`)
	pdfCNPageRE     = regexp.MustCompile(`^(共\s*[\d一二三四五六七八九十百〇零]+\s*页\s*[,，]?\s*)?第\s*[\d一二三四五六七八九十百〇零]+\s*页(\s*[,，/／]?\s*共\s*[\d一二三四五六七八九十百〇零]+\s*页)?$`)
	pdfRomanRE      = regexp.MustCompile(`(?i)^m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$`)
)

// pdfIsPageNumber reports whether a line is nothing but a page number.
func pdfIsPageNumber(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	if pdfCNPageRE.MatchString(s) {
		return true
	}
	m := pdfPageNumberRE.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	num := m[2]
	if num[0] < '0' || num[0] > '9' {
		return pdfRomanRE.MatchString(num)
	}
	return true
}

// pdfFurnitureKey is a line's text with digits and spaces removed, so that "Page 3" and
// "Page 4", or "第三章 绪论 5" and "第三章 绪论 6", compare equal.
func pdfFurnitureKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsDigit(r) || unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pdfDropFurniture removes running headers and footers (lines near the top or bottom edge
// that repeat at the same height on other pages, digits aside) and bare page numbers.
func pdfDropFurniture(pages []*pdfPage, body [][]*pdfLine, st *pdfStats) {
	type cand struct {
		page int
		line *pdfLine
	}
	edge := func(p *pdfPage, l *pdfLine) int {
		h := p.box.Max.Y - p.box.Min.Y
		switch {
		case l.y > p.box.Max.Y-0.16*h:
			return 1
		case l.y < p.box.Min.Y+0.16*h:
			return -1
		}
		return 0
	}
	groups := map[string][]cand{}
	drop := map[*pdfLine]bool{}
	for i, p := range pages {
		ls := body[i]
		for j, l := range ls {
			e := edge(p, l)
			// Only the outermost lines can be furniture: two at each end.
			if e == 0 || e == 1 && j > 1 || e == -1 && j < len(ls)-2 {
				continue
			}
			if l.size > 1.15*st.body {
				continue
			}
			if pdfIsPageNumber(l.text) {
				drop[l] = true
				continue
			}
			k := pdfFurnitureKey(l.text)
			if k == "" {
				continue
			}
			key := strconv.Itoa(e) + "\x00" + k
			groups[key] = append(groups[key], cand{i, l})
		}
	}
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		// Repeated at the same height on at least two pages.
		for a := range g {
			pagesAt := map[int]bool{g[a].page: true}
			for b := range g {
				if math.Abs(g[a].line.y-g[b].line.y) < math.Max(2, 0.3*g[a].line.size) {
					pagesAt[g[b].page] = true
				}
			}
			if len(pagesAt) >= 2 {
				drop[g[a].line] = true
			}
		}
	}
	for i := range body {
		kept := body[i][:0]
		for _, l := range body[i] {
			if !drop[l] {
				kept = append(kept, l)
			}
		}
		body[i] = kept
	}
}

// ---- footnotes ----

type pdfNote struct {
	mark string
	text string
}

// pdfTakeFootnotes splits the notes off the bottom of a page: a run of lines in a smaller
// font than the body, under body text, whose first line starts with a note marker.
func pdfTakeFootnotes(ls []*pdfLine, st *pdfStats) ([]*pdfLine, []pdfNote) {
	small := func(l *pdfLine) bool { return l.size <= 0.9*st.body }
	k := len(ls)
	for k > 0 && small(ls[k-1]) {
		k--
	}
	if k == 0 || k == len(ls) {
		return ls, nil
	}
	// Footnotes are cited: some marker must be raised in the text above.
	cited := map[string]bool{}
	for _, l := range ls[:k] {
		for _, m := range l.marks {
			cited[m] = true
		}
	}
	// The topmost marker line in the small run starts the notes; small lines above it
	// (a caption, a table) stay in the body.
	top := -1
	for i := k; i < len(ls); i++ {
		if ls[i].lead == "" {
			pdfCitedLead(ls[i], cited)
		}
		if ls[i].lead != "" {
			top = i
			break
		}
	}
	if top < 0 {
		return ls, nil
	}
	var notes []pdfNote
	var cur *pdfNote
	var curLast *pdfLine
	startX := ls[top].x0
	prevNum := -1
	for _, l := range ls[top:] {
		starts := false
		if l.lead == "" && cur != nil {
			pdfCitedLead(l, cited)
		}
		if l.lead != "" {
			n, err := strconv.Atoi(l.lead)
			switch {
			case cur == nil:
				starts = true
			case err == nil:
				// Numbered notes go up by one; "2019 年…" on a continuation line does not.
				starts = prevNum >= 0 && n == prevNum+1 && math.Abs(l.x0-startX) < 0.5*l.size
			default:
				starts = math.Abs(l.x0-startX) < 0.5*l.size
			}
			if starts {
				if err == nil {
					prevNum = n
				} else {
					prevNum = -1
				}
			}
		}
		if starts {
			notes = append(notes, pdfNote{mark: l.lead, text: strings.TrimSpace(strings.TrimPrefix(l.text, l.leadRaw))})
			cur, curLast = &notes[len(notes)-1], l
			continue
		}
		cur.text += pdfJoiner(curLast, l, nil) + l.text
		curLast = l
	}
	// Without a cited marker, take the run for notes only when it sits under running text,
	// not under a heading ("参考文献" set small) and is not numbered like a reference list ("[1]").
	for _, n := range notes {
		if cited[n.mark] {
			return ls[:top], notes
		}
	}
	above := ls[top-1]
	if st.headingStyle(above) || above.size <= 0.9*st.body || strings.HasPrefix(ls[top].leadRaw, "[") {
		return ls, nil
	}
	return ls[:top], notes
}

// pdfCitedLead sets the lead of a note line whose number LibreOffice writes at normal height
// and without a gap ("1关于…", "1A detailed…"), which pdfLeadMarker cannot tell from text: the
// number counts as a marker when the text above cites it raised.
func pdfCitedLead(l *pdfLine, cited map[string]bool) {
	end := 0
	for end < len(l.text) && end < 3 && l.text[end] >= '0' && l.text[end] <= '9' {
		end++
	}
	if end > 0 && end < len(l.text) && cited[l.text[:end]] {
		l.lead, l.leadRaw = l.text[:end], l.text[:end]
	}
}

// pdfAttachNotes gives each page's notes to the paragraph on that page that carries the
// note's marker, or else to the last paragraph on that page.
func pdfAttachNotes(paras []*pdfPara, pages []*pdfPage, notes [][]pdfNote) {
	for i, ns := range notes {
		page := pages[i].num
		for _, n := range ns {
			var target *pdfPara
			for _, p := range paras {
				if !p.onPage(page) {
					continue
				}
				for _, m := range p.marks[page] {
					if m == n.mark {
						target = p
					}
				}
				if target != nil {
					break
				}
			}
			if target == nil {
				for _, p := range paras {
					if p.onPage(page) && !p.Heading {
						target = p
					}
				}
			}
			if target == nil {
				for _, p := range paras {
					if p.Page <= page {
						target = p
					}
				}
			}
			if target == nil && len(paras) > 0 {
				target = paras[0]
			}
			if target != nil && n.text != "" {
				target.Notes = append(target.Notes, cleanPDFText(n.text))
			}
		}
	}
}

// ---- paragraphs ----

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
	left, right := st.left[st.side(l.page)], st.right[st.side(p.page)]
	width := right - st.left[st.side(p.page)]
	// First-line indentation.
	if l.x0 > left+0.8*em && (!samePage || l.x0 > p.x0+0.8*em) && !(p == first && math.Abs(p.x0-st.left[st.side(p.page)]) < 0.5*em && samePage) {
		return true, "indent"
	}
	// Indented as the first line before it, which was a paragraph of its own that filled its
	// line: l fills its line too and the line after it is back at the margin, so l was a first
	// line. (A block indented as a whole goes on at the same indent; the wrapped part of a
	// hanging entry ends short.)
	if samePage && p == first && l.x0 > left+0.8*em && math.Abs(l.x0-p.x0) < 0.3*em && l.x1 > right-2*em &&
		next != nil && next.x0 < st.left[st.side(next.page)]+0.5*em {
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
	words := pdfWords(body)
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
			text.WriteString(pdfJoiner(prev, l, words))
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
func pdfJoiner(p, l *pdfLine, words map[string]bool) string {
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
func pdfDropHyphen(p, l *pdfLine, words map[string]bool, auto bool) bool {
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
	case words[hl+tl]:
		return true
	case words[hl+"-"+tl]:
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

// cleanPDFText drops NULs and soft hyphens and collapses runs of white space.
func cleanPDFText(s string) string {
	t, _ := cleanPDFTextAt(s, nil)
	return t
}

// cleanPDFTextAt is cleanPDFText that also maps byte offsets into s (ascending) to rune offsets
// into the result; an offset in white space maps to the end of the word before it.
func cleanPDFTextAt(s string, at []int) (string, []int) {
	var b strings.Builder
	var out []int
	if len(at) > 0 {
		out = make([]int, len(at))
	}
	k, n := 0, 0
	space := false
	for i, r := range s {
		for ; k < len(at) && at[k] <= i; k++ {
			out[k] = n
		}
		switch {
		case r == 0 || r == '\u00ad':
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	for ; k < len(at); k++ {
		out[k] = n
	}
	return b.String(), out
}
