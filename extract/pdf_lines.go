package extract

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// pdfPage is one page's lines, top to bottom.
type pdfPage struct {
	num   int
	box   pdf.Rect
	lines []pdfLine
	// The text lacks what came after damage in the content, or past the glyphs a page may draw.
	damaged, truncated bool
	loose              []pdfLooseHidden // hidden text that stood in no line
	pictures           []picture        // images that may show text (pictures.go)
	unmapped, glyphs   int              // visible glyphs their font gives no character for; all visible
	outlined           int              // lines of text drawn as outlines (pdfOutlinedLines)
	unseen             int              // pictures over its text not looked at (pdfPhotoOver's budget)
	// sizes counts its visible glyphs by size. Its fine print (pdfSmall) is drawn at fineSize or
	// less, and alt is the page laid out without it, when its lines read fine letters and digits
	// fewer.
	sizes    sizeTally
	fine     int
	fineSize float64
	alt      *pdfPage
}

// pdfLine is one line of text rebuilt from glyphs that share a baseline.
type pdfLine struct {
	page     int
	y        float64 // baseline, points from the bottom of the page
	x0, x1   float64 // left and right ends of the ink
	size     float64 // font size of most of its characters
	bold     bool    // most characters are bold
	text     string  // words, with single spaces; note markers removed
	lead     string  // a note marker the line starts with ("1", "①", "[2]", "*"), kept in text
	leadRaw  string  // the marker as written at the start of text
	marks    []string
	endSpace bool    // ended with a real space glyph (the producer kept the word break)
	firstW   float64 // width of the text before the first place the line could have broken
	bullet   string  // the list bullet the line started with, taken out of text
	hang     float64 // of a bulleted line: where the text after the bullet starts
	hidden   []pdfLineHidden
	pos      []pdfPos // where each glyph's text starts, while hidden glyphs are being placed
	// colLeft and colRight bound the column of a page set in two (pdf_columns.go); 0 across the page.
	colLeft, colRight float64
}

// pdfPos is where a glyph stood (x) and where its text starts in the line's text: before the
// space written ahead of it, if any.
type pdfPos struct {
	x   float64
	off int
}

// Thresholds, in ems of the font size.
const (
	pdfLineTolerance = 0.5  // |ΔY| beyond which a glyph starts another line
	pdfWordGap       = 0.2  // a gap this wide between Latin glyphs is a word space
	pdfInsideGlyph   = 0.15 // a space glyph this far inside the glyph before it is no space
	pdfMixedGap      = 0.45 // between CJK and Latin, where producers add spacing of their own
	pdfColumnGap     = 3.0  // a gap this wide splits a line into separate pieces
)

// pdfBuildLines groups a page's glyphs into lines: by baseline, then left to right. It costs
// O(n log n) in the number of glyphs. With hidden glyphs, each line keeps its glyph positions
// (pos), and the room hidden text takes in a line does not split it into columns. It keeps the
// glyphs it reads in glyphs itself, which it leaves changed: a copy was a sixth of what reading a
// thesis allocated.
func pdfBuildLines(glyphs []pdf.Text, page int, hidden []pdfHiddenGlyph) []pdfLine {
	var boxes []pdfHiddenBox // non-nil when there are hidden glyphs
	if len(hidden) > 0 {
		boxes = pdfHiddenBoxes(hidden)
	}
	gs := glyphs[:0]
	for _, g := range glyphs {
		if g.FontSize <= 0.5 || math.IsNaN(g.X) || math.IsNaN(g.Y) || math.IsInf(g.X, 0) || math.IsInf(g.Y, 0) {
			continue
		}
		r, _ := utf8.DecodeRuneInString(g.S)
		switch {
		case r == 0, r == utf8.RuneError, r == '\uFFFE', r == '\uFEFF':
			continue
		case unicode.IsSpace(r):
			g.S = " "
		case unicode.IsControl(r):
			continue
		}
		if r >= '\uFB00' && r <= '\uFB06' { // a map lookup for every glyph cost more than the rest of this loop
			g.S = pdfLigatures[r]
		}
		gs = append(gs, g)
	}
	if len(gs) == 0 {
		return nil
	}
	idx := byBaseline(gs)

	var lines []pdfLine
	var cur []pdf.Text
	refY, refSize := 0.0, 0.0
	gutter := pdfFindGutter(gs, idx)
	if len(hidden) > 0 && gutter.ok {
		// Hidden glyphs take room (a blank font's junk keeps its advances): a column of gaps they
		// leave is no gutter.
		all := slices.Clone(gs)
		for _, h := range hidden {
			all = append(all, h.g)
		}
		gutter = pdfFindGutter(all, byBaseline(all))
	}
	var left, right []pdfLine // of two columns (pdf_columns.go), down to a line across the page
	column := func(ls []pdfLine, x0, x1 float64) []pdfLine {
		for i := range ls {
			ls[i].colLeft, ls[i].colRight = x0, x1
		}
		return ls
	}
	flushColumns := func() {
		lines = append(append(lines, left...), right...)
		left, right = left[:0], right[:0]
	}
	flush := func() {
		if len(cur) == 0 {
			return
		}
		if !gutter.ok {
			lines = append(lines, pdfMakeLines(cur, page, boxes)...)
		} else if l, r, cross := gutter.split(cur); cross {
			flushColumns()
			lines = append(lines, pdfMakeLines(cur, page, boxes)...)
		} else {
			if len(l) > 0 {
				left = append(left, column(pdfMakeLines(l, page, boxes), gutter.colLeft, gutter.x0)...)
			}
			if len(r) > 0 {
				right = append(right, column(pdfMakeLines(r, page, boxes), gutter.x1, gutter.colRight)...)
			}
		}
		cur = cur[:0]
	}
	for _, i := range idx {
		g := gs[i]
		if len(cur) > 0 && refY-g.Y > pdfLineTolerance*max(refSize, g.FontSize) {
			flush()
		}
		if len(cur) == 0 || g.FontSize > refSize && g.S != " " {
			refY, refSize = g.Y, g.FontSize
		}
		cur = append(cur, g)
	}
	flush()
	flushColumns()
	return lines
}

// byBaseline is the order of gs by baseline, top first; the stream order breaks ties.
func byBaseline(gs []pdf.Text) []int {
	idx := make([]int, len(gs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return gs[idx[a]].Y > gs[idx[b]].Y })
	return idx
}

var pdfLigatures = map[rune]string{
	'\uFB00': "ff", '\uFB01': "fi", '\uFB02': "fl", '\uFB03': "ffi", '\uFB04': "ffl", '\uFB05': "st", '\uFB06': "st",
}

// pdfMakeLines orders one baseline's glyphs left to right and writes them out as text, split
// into pieces where a gap is wide enough to separate columns or table cells.
func pdfMakeLines(gs []pdf.Text, page int, hidden []pdfHiddenBox) []pdfLine {
	// Most lines come left to right already; sorting them anyway, through sort's reflection
	// swapper, cost a tenth of building the lines.
	if !slices.IsSortedFunc(gs, func(a, b pdf.Text) int { return cmp.Compare(a.X, b.X) }) {
		sort.SliceStable(gs, func(a, b int) bool { return gs[a].X < gs[b].X })
	}
	// Drop the second copy of glyphs drawn twice to fake bold or a shadow.
	out := gs[:0]
	for _, g := range gs {
		if n := len(out); n > 0 {
			p := out[n-1]
			if p.S == g.S && math.Abs(p.X-g.X) < 0.1*g.FontSize && math.Abs(p.Y-g.Y) < 0.1*g.FontSize && g.S != " " {
				continue
			}
		}
		out = append(out, g)
	}
	gs = out
	size := pdfDominantSize(gs)
	base := pdfBaseline(gs, size)
	withPos := hidden != nil
	spans := pdfHiddenSpans(hidden, base, size)

	var lines []pdfLine
	start := 0
	for i := 1; i <= len(gs); i++ {
		if i < len(gs) {
			end := gs[i-1].X + pdfAdvance(gs[i-1])
			gap := gs[i].X - end
			if gap >= pdfColumnGap*size && len(spans) > 0 {
				gap -= pdfCovered(spans, end, gs[i].X)
			}
			if gap < pdfColumnGap*size || gs[i-1].S == " " && gap < 2*pdfColumnGap*size {
				continue
			}
		}
		if l, ok := pdfLineText(gs[start:i], page, size, base, withPos); ok {
			lines = append(lines, l)
		}
		start = i
	}
	return lines
}

// pdfDominantSize is the font size of most characters (spaces not counted).
func pdfDominantSize(gs []pdf.Text) float64 {
	var count tally
	best, bestN := 0.0, -1
	for _, g := range gs {
		if g.S == " " {
			continue
		}
		s := math.Round(g.FontSize*2) / 2
		if n := count.add(s); n > bestN || n == bestN && s > best {
			best, bestN = s, n
		}
	}
	if bestN < 0 {
		return gs[0].FontSize
	}
	return best
}

// pdfBaseline is the Y most glyphs of the dominant size sit on.
func pdfBaseline(gs []pdf.Text, size float64) float64 {
	var count tally
	best, bestN := gs[0].Y, 0
	for _, g := range gs {
		if math.Abs(g.FontSize-size) > 0.5 || g.S == " " {
			continue
		}
		if n := count.add(math.Round(g.Y*4) / 4); n > bestN {
			best, bestN = g.Y, n
		}
	}
	return best
}

// tally counts values: the few sizes or baselines of a line, where a map made for every line of a
// 312-page thesis was a third of building its lines (pprof). Past tallyList values (a line of
// glyphs each of its own size) it counts in a map.
type tally struct {
	keys []float64
	n    []int
	many map[float64]int
}

const tallyList = 16

// add counts one more v and returns how many there are now; 0 for NaN, as a map would count it
// (NaN is no key a lookup finds).
func (t *tally) add(v float64) int {
	if v != v {
		return 0
	}
	if t.many != nil {
		t.many[v]++
		return t.many[v]
	}
	for i, k := range t.keys {
		if k == v {
			t.n[i]++
			return t.n[i]
		}
	}
	if len(t.keys) == tallyList {
		t.many = make(map[float64]int, 2*tallyList)
		for i, k := range t.keys {
			t.many[k] = t.n[i]
		}
		t.many[v] = 1
		return 1
	}
	t.keys, t.n = append(t.keys, v), append(t.n, 1)
	return 1
}

// pdfAdvance is a glyph's width, estimated from its character where the font gave none.
func pdfAdvance(g pdf.Text) float64 {
	if g.W > 0 {
		return g.W
	}
	r, _ := utf8.DecodeRuneInString(g.S)
	switch {
	case pdfWide(r):
		return g.FontSize
	case r == ' ':
		return 0.25 * g.FontSize
	}
	return 0.5 * g.FontSize
}

// pdfLetterGap is the spacing a line puts between the letters of its words: the median gap between
// neighbouring Latin letters when eight pairs or more neighbour, the smallest when two to seven do
// (a paragraph's last line, "f e e d ."), and 0 when that is not positive. Text set with expanded
// character spacing (Word: Font, Advanced, Spacing: Expanded; a PDF's Tc) has that gap after every
// glyph, and a word space is that much wider than a letter's. Measured from 0, a paragraph expanded
// by 3 points at 11 read as single letters ("h a b i t a t s o n t h e"), matching nothing.
func pdfLetterGap(gs []pdf.Text) float64 {
	var buf [128]float64
	gaps := buf[:0]
	for i := 1; i < len(gs); i++ {
		a, b := &gs[i-1], &gs[i]
		ra, _ := utf8.DecodeLastRuneInString(a.S)
		rb, _ := utf8.DecodeRuneInString(b.S)
		if pdfWide(ra) || pdfWide(rb) || !unicode.IsLetter(ra) || !unicode.IsLetter(rb) { // CJK answers first
			continue
		}
		gaps = append(gaps, b.X-(a.X+pdfAdvance(*a)))
	}
	if len(gaps) < 2 {
		return 0
	}
	slices.Sort(gaps)
	if len(gaps) < 8 {
		return max(gaps[0], 0)
	}
	return max(gaps[len(gaps)/2], 0)
}

// pdfWide reports whether r is a CJK character or full-width punctuation, between which
// no spaces are written.
func pdfWide(r rune) bool {
	switch {
	case r < 0x2E80:
		return false
	case r >= 0x4E00 && r <= 0x9FFF: // CJK Unified Ideographs, all Han: most of a Chinese text
		return true
	case r >= 0x3000 && r <= 0x303F, r >= 0xFF00 && r <= 0xFFEF, r >= 0x3040 && r <= 0x30FF:
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana)
}

// Line-breaking rules of CJK typesetting (and Latin punctuation): no line starts with the
// first set, none ends with the second.
const (
	pdfNoBreakBefore = "，。、；：？！）》」』】〉〕”’…—·,.;:?!)]}%％‰"
	pdfNoBreakAfter  = "（《「『【〈〔“‘([{"
)

// pdfMarkRune reports whether r may be part of a note marker.
func pdfMarkRune(r rune) bool {
	switch {
	case r >= '0' && r <= '9', r == '*', r == '†', r == '‡', r == '§', r == '[', r == ']', r == ',', r == '-', r == '–',
		r == '(', r == ')', r == '（', r == '）', r == '〔', r == '〕':
		return true
	case r >= '①' && r <= '⑳', r >= '⑴' && r <= '⒇', r >= '❶' && r <= '❿', r >= '¹' && r <= '³', r >= '⁰' && r <= '⁹':
		return true
	}
	return false
}

// pdfRaisedRun is the run of raised small glyphs from gs[i] on: where it ends, its text, and
// whether every glyph of it can be part of a note marker.
func pdfRaisedRun(gs []pdf.Text, i int, size, base float64) (j int, mark string, ok bool) {
	var b strings.Builder
	ok = true
	for j = i; j < len(gs) && gs[j].S != " " && gs[j].FontSize < 0.85*size && gs[j].Y-base > 0.15*size; j++ {
		r, _ := utf8.DecodeRuneInString(gs[j].S)
		if !pdfMarkRune(r) {
			ok = false
		}
		b.WriteString(gs[j].S)
	}
	return j, b.String(), ok
}

// addMark records a raised note marker. At the start of the line it is a footnote's own number,
// printed raised at the start of the note: it becomes the line's lead and stays in the text (keep);
// elsewhere it refers to notes and is taken out.
func (l *pdfLine) addMark(mark string, atStart bool) (keep bool) {
	m := strings.Trim(mark, "[](),-–（）〔〕")
	if atStart {
		l.lead, l.leadRaw = m, mark
		return true
	}
	l.marks = append(l.marks, strings.FieldsFunc(m, func(r rune) bool { return r == ',' })...)
	return false
}

// pdfLineText writes one piece of a line. Raised small glyphs that look like note markers are
// taken out of the text and listed in marks; a marker at the very start stays (it is how
// a footnote begins) and is recorded in lead.
func pdfLineText(gs []pdf.Text, page int, size, base float64, withPos bool) (pdfLine, bool) {
	l := pdfLine{page: page, y: base, size: size, x0: math.Inf(1), x1: math.Inf(-1)}
	var b strings.Builder
	var prev *pdf.Text
	pendingSpace := false
	boldN, n := 0, 0
	unitDone, unitEnd := false, 0.0
	letterGap := pdfLetterGap(gs)
	for i := 0; i < len(gs); i++ {
		g := &gs[i]
		if g.S == " " {
			// A "space" that does not move the next glyph on is a zero-width character
			// (LibreOffice maps U+200B and friends to a space glyph) and separates nothing.
			if i+1 < len(gs) && gs[i+1].X-g.X < 0.1*g.FontSize {
				continue
			}
			// Nor does one drawn well inside the glyph before it: a space condensed past its own
			// width (Word's Condensed spacing, Tc) draws the next letter a little left of it, which
			// sorts before it ("Tid al" for a "Tidal" a reader sees).
			if prev != nil && prev.X+pdfAdvance(*prev)-g.X > pdfInsideGlyph*g.FontSize {
				continue
			}
			pendingSpace = b.Len() > 0
			continue
		}
		// A superscript: smaller and raised. Collect the run of them.
		if g.FontSize < 0.85*size && g.Y-base > 0.15*size {
			if j, mark, ok := pdfRaisedRun(gs, i, size, base); ok {
				if l.addMark(mark, b.Len() == 0) {
					b.WriteString(mark)
					pendingSpace = true
				}
				// Keep the geometry going so the next gap is measured from the marker.
				for k := i; k < j; k++ {
					l.x0 = min(l.x0, gs[k].X)
					l.x1 = max(l.x1, gs[k].X+pdfAdvance(gs[k]))
				}
				prev = &gs[j-1]
				i = j - 1
				continue
			}
		}
		r, _ := utf8.DecodeRuneInString(g.S)
		if prev != nil && b.Len() > 0 {
			gap := g.X - (prev.X + pdfAdvance(*prev))
			pr, _ := utf8.DecodeLastRuneInString(prev.S)
			em := max(min(prev.FontSize, g.FontSize), 0.5*size)
			switch {
			case pendingSpace:
				// The producer wrote a space; keep it unless both sides are CJK and the
				// space is really just spacing between them.
			case pdfWide(pr) && pdfWide(r):
			case pdfWide(pr) || pdfWide(r):
				pendingSpace = gap > pdfMixedGap*em+letterGap
			default:
				pendingSpace = gap > pdfWordGap*em+letterGap
			}
		}
		if !unitDone && prev != nil && b.Len() > 0 {
			pr, _ := utf8.DecodeLastRuneInString(prev.S)
			// Be conservative (a longer first word means fewer false paragraph ends):
			// break only at spaces and between two CJK characters.
			unitDone = pendingSpace || pdfWide(pr) && pdfWide(r) && !strings.ContainsRune(pdfNoBreakBefore, r) && !strings.ContainsRune(pdfNoBreakAfter, pr)
		}
		if !unitDone {
			unitEnd = g.X + pdfAdvance(*g)
		}
		if withPos {
			l.pos = append(l.pos, pdfPos{g.X, b.Len()})
		}
		if n == 1 && pendingSpace {
			l.hang = g.X
		}
		if pendingSpace && b.Len() > 0 {
			b.WriteByte(' ')
		}
		pendingSpace = false
		b.WriteString(g.S)
		l.x0 = min(l.x0, g.X)
		l.x1 = max(l.x1, g.X+pdfAdvance(*g))
		if g.Bold {
			boldN++
		}
		n++
		prev = g
	}
	if n == 0 {
		return l, false
	}
	l.endSpace = len(gs) > 0 && gs[len(gs)-1].S == " "
	l.firstW = unitEnd - l.x0
	l.bold = boldN*10 >= n*8
	l.text = b.String()
	pdfTakeBullet(&l)
	if l.lead == "" {
		l.lead, l.leadRaw = pdfLeadMarker(l.text)
	}
	return l, true
}

// pdfTakeBullet takes a list bullet set off by a space from the start of a line's text: it is
// the list's decoration, not text (DOCX numbering gives none either), and tells where the item's
// text hangs (l.hang: its wrapped lines start there).
func pdfTakeBullet(l *pdfLine) {
	r, size := utf8.DecodeRuneInString(l.text)
	if !pdfBullet(r) || len(l.text) <= size+1 || l.text[size] != ' ' || l.hang <= l.x0 || l.lead != "" {
		l.hang = 0
		return
	}
	cut := size + 1
	l.bullet, l.text = string(r), l.text[cut:]
	for i := range l.pos {
		l.pos[i].off = max(l.pos[i].off-cut, 0)
	}
}

// pdfBullet reports whether r is a list bullet: a dot, box, diamond, arrow or tick, or a symbol
// font's glyph (Wingdings, Symbol and OpenSymbol bullets map to the Private Use Area). "*" and
// "-" are not: they also start footnotes and dashes.
func pdfBullet(r rune) bool {
	return strings.ContainsRune("•◦▪▫●○■□◆◇►▶▸➢➤✓✔❖", r) || r >= '\uE000' && r <= '\uF8FF'
}

// pdfLeadMarker finds a note marker written at normal height at the start of a line and set
// off by a space or a gap: "1 参见…", "[2] See…", "① …", "* …".
func pdfLeadMarker(text string) (mark, raw string) {
	end := 0
	for i, r := range text {
		if !pdfMarkRune(r) {
			end = i
			break
		}
		end = i + utf8.RuneLen(r)
	}
	if end == 0 || end > 6 {
		return "", ""
	}
	m := text[:end]
	rest := text[end:]
	if rest == "" {
		return "", ""
	}
	if !strings.HasPrefix(rest, " ") {
		// A circled number or a bracket stands out by itself; a plain digit needs a gap.
		r, _ := utf8.DecodeRuneInString(m)
		if !(r >= '①' && r <= '⑳' || r == '[' || r == '*' || r == '†' || r == '‡') {
			return "", ""
		}
	}
	raw = m
	m = strings.Trim(m, "[](),-–（）〔〕")
	if m == "" || strings.ContainsAny(m, ",-–") {
		return "", ""
	}
	return m, raw
}
