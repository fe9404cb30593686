package extract

// Hidden text in a Word document (see hidden.go): the run properties that hide text (w:vanish,
// w:specVanish, a colour that is the background's, w:sz of 2 pt or less), resolved through the
// document defaults and the paragraph and character styles as Word resolves them, and the
// backgrounds a run is read on (its own shading or highlight, the paragraph's, the table cell's,
// the text box's, the page's).

import (
	"cmp"
	"encoding/xml"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tri is an on/off property that a style or a run may leave unset.
type tri int8

const (
	triUnset tri = iota
	triOn
	triOff
)

func triOf(se xml.StartElement) tri {
	if onOff(se) {
		return triOn
	}
	return triOff
}

// docxColor is a colour as a document names it.
type docxColor struct {
	set   bool       // named at all (else inherited)
	none  bool       // no colour: no shading, "auto" text colour (black or white, whichever reads)
	known bool       // rgb holds it; a theme colour (until resolved) or a pattern is not known
	rgb   [3]float64 // 0–1
	// theme names a theme colour (docxTheme.resolve), lightened by tint or darkened by shade
	// (fractions; 0 for none).
	theme       string
	tint, shade float64
	mods        []colorMod // DrawingML transforms (lumMod, …), applied once resolved
}

func rgbColor(r, g, b float64) docxColor {
	return docxColor{set: true, known: true, rgb: [3]float64{r, g, b}}
}

var (
	docxWhite = rgbColor(1, 1, 1)
	docxBlack = rgbColor(0, 0, 0)
)

// hexColor reads "FF0000", "auto" or a colour name of VML ("red", "#ff0000").
func hexColor(v string) docxColor {
	v = strings.TrimPrefix(strings.TrimSpace(strings.ToLower(v)), "#")
	switch {
	case v == "" || v == "auto" || v == "none" || v == "transparent":
		return docxColor{set: true, none: true}
	case len(v) == 6:
		n, err := strconv.ParseUint(v, 16, 32)
		if err == nil {
			return rgbColor(float64(n>>16)/255, float64(n>>8&0xFF)/255, float64(n&0xFF)/255)
		}
	}
	if c, ok := namedColors[v]; ok {
		return c
	}
	return docxColor{set: true}
}

// namedColors are the colours w:highlight and VML name (ST_HighlightColor, CSS basics).
var namedColors = map[string]docxColor{
	"black": docxBlack, "white": docxWhite, "red": rgbColor(1, 0, 0), "green": rgbColor(0, 1, 0),
	"blue": rgbColor(0, 0, 1), "yellow": rgbColor(1, 1, 0), "cyan": rgbColor(0, 1, 1), "magenta": rgbColor(1, 0, 1),
	"darkblue": rgbColor(0, 0, 0.5), "darkcyan": rgbColor(0, 0.5, 0.5), "darkgreen": rgbColor(0, 0.5, 0),
	"darkmagenta": rgbColor(0.5, 0, 0.5), "darkred": rgbColor(0.5, 0, 0), "darkyellow": rgbColor(0.5, 0.5, 0),
	"darkgray": rgbColor(0.5, 0.5, 0.5), "lightgray": rgbColor(0.75, 0.75, 0.75), "gray": rgbColor(0.5, 0.5, 0.5),
	"silver": rgbColor(0.75, 0.75, 0.75), "lime": rgbColor(0, 1, 0), "navy": rgbColor(0, 0, 0.5),
	"none": {set: true, none: true},
}

// shading reads w:shd: the fill, or the pattern colour over it (solid, pctNN). Other patterns
// (stripes, grids) are not one colour.
func shading(se xml.StartElement) docxColor {
	fill := themedColor(se, "fill", "themeFill", "themeFillTint", "themeFillShade")
	val := attr(se, "val")
	switch {
	case val == "" || val == "clear" || val == "nil":
		if val == "nil" {
			return docxColor{set: true, none: true}
		}
		return fill
	case val == "solid":
		if c := themedColor(se, "color", "themeColor", "themeTint", "themeShade"); !c.none {
			return c
		}
		return docxBlack
	case strings.HasPrefix(val, "pct"):
		p, err := strconv.Atoi(strings.TrimPrefix(val, "pct"))
		if err != nil || p < 0 || p > 100 {
			break
		}
		fg, bg := hexColor(attr(se, "color")), fill
		if fg.none {
			fg = docxBlack
		}
		if bg.none {
			bg = docxWhite
		}
		if !fg.known || !bg.known {
			break
		}
		var mix [3]float64
		for i := range mix {
			mix[i] = bg.rgb[i] + (fg.rgb[i]-bg.rgb[i])*float64(p)/100
		}
		return rgbColor(mix[0], mix[1], mix[2])
	}
	return docxColor{set: true}
}

// runProps are the run properties that decide whether text shows.
type runProps struct {
	vanish, specVanish tri
	color              docxColor
	sz                 int // half-points; 0 unset
	scale              int // w:w, percent of the normal width; 0 unset
	// spacing is w:spacing, the room added after each character (negative: condensed), in
	// twentieths of a point; spacingSet tells 0 from unset.
	spacing        int
	spacingSet     bool
	shd, highlight docxColor
	fonts          [3]string // w:rFonts: ascii, hAnsi, eastAsia; "" unset
	// themeFonts are w:rFonts' asciiTheme, hAnsiTheme and eastAsiaTheme (minorHAnsi …), which
	// Word uses instead of the names (docxTheme.font).
	themeFonts [3]string
	// Complex script: text of a run marked w:cs or w:rtl, or in a complex script (Arabic, Hebrew,
	// …), takes w:szCs as its size, whatever w:sz says.
	szCs    int // half-points; 0 unset
	cs, rtl tri
	// position raises (or lowers) the run by half-points; positionSet tells 0 from unset.
	position    int
	positionSet bool
	// Word 2010's text effects, which Word shows instead of color (docx_effects.go).
	textFill, textOutline textPaint
	// vertAlign and combine shrink the run's characters below its size: to 2/3 as a superscript or
	// subscript (w:vertAlign), to 1/2 as two lines in one (w:eastAsianLayout w:combine); 1 when a
	// style or the run says not (a nearer one undoes a further one), 0 unset.
	vertAlign, combine float64
	// fit is w:fitText's width, twentieths of a point (0 unset): Word shrinks or widens the run's
	// characters, with those of the runs beside it in its group, to fill that width.
	fit int
	// relief: emboss, engrave (imprint) or a shadow, of Word's Font dialog (w:emboss, w:imprint,
	// w:shadow) or Word 2010's effects (w14:shadow, w14:glow): they draw in grey or colour beside
	// the letters, so text the colour of the page still shows (Word makes embossed text white).
	relief tri
}

// apply reads one child of a w:rPr; it reports whether it was one of the properties above.
func (r *runProps) apply(se xml.StartElement) bool {
	switch se.Name.Local {
	case "vanish":
		r.vanish = triOf(se)
	case "specVanish":
		r.specVanish = triOf(se)
	case "color":
		r.color = themedColor(se, "val", "themeColor", "themeTint", "themeShade")
	case "sz", "szCs":
		if n, err := strconv.Atoi(attr(se, "val")); err == nil && n >= 0 {
			if se.Name.Local == "sz" {
				r.sz = max(n, 1) // 0 is not "unset": a size of nothing
			} else {
				r.szCs = max(n, 1)
			}
		}
	case "cs":
		r.cs = triOf(se)
	case "emboss", "imprint", "shadow":
		if onOff(se) || r.relief != triOn {
			r.relief = triOf(se)
		}
	case "rtl":
		r.rtl = triOf(se)
	case "position":
		if n, err := strconv.Atoi(attr(se, "val")); err == nil {
			r.position, r.positionSet = n, true
		}
	case "w":
		if n, err := strconv.Atoi(strings.TrimSuffix(attr(se, "val"), "%")); err == nil && n >= 0 {
			r.scale = max(n, 1)
		}
	case "spacing":
		if n, err := strconv.Atoi(attr(se, "val")); err == nil {
			r.spacing, r.spacingSet = n, true
		}
	case "vertAlign":
		r.vertAlign = 1
		if v := attr(se, "val"); v == "superscript" || v == "subscript" {
			r.vertAlign = 2.0 / 3
		}
	case "eastAsianLayout":
		r.combine = 1
		if onOff2(se, "combine") {
			r.combine = 0.5
		}
	case "fitText":
		if n, err := strconv.Atoi(attr(se, "val")); err == nil && n >= 0 {
			r.fit = max(n, 1)
		}
	case "shd":
		r.shd = shading(se)
	case "highlight":
		r.highlight = hexColor(attr(se, "val"))
	case "rFonts":
		for i, a := range []string{"ascii", "hAnsi", "eastAsia"} {
			if v := attr(se, a); v != "" {
				r.fonts[i] = v
			}
			if v := attr(se, a+"Theme"); v != "" {
				r.themeFonts[i] = v
			}
		}
	default:
		return false
	}
	return true
}

// over returns r with every property o sets put over it; toggles too (o is direct formatting, or
// a nearer style in one basedOn chain).
func (r runProps) over(o runProps) runProps {
	if o.vanish != triUnset {
		r.vanish = o.vanish
	}
	if o.specVanish != triUnset {
		r.specVanish = o.specVanish
	}
	return r.overValues(o)
}

// overValues is over for the properties that are not toggles.
func (r runProps) overValues(o runProps) runProps {
	if o.color.set {
		r.color = o.color
	}
	if o.sz > 0 {
		r.sz = o.sz
	}
	if o.szCs > 0 {
		r.szCs = o.szCs
	}
	if o.cs != triUnset {
		r.cs = o.cs
	}
	if o.rtl != triUnset {
		r.rtl = o.rtl
	}
	if o.positionSet {
		r.position, r.positionSet = o.position, true
	}
	if o.textFill.set {
		r.textFill = o.textFill
	}
	if o.textOutline.set {
		r.textOutline = o.textOutline
	}
	if o.relief != triUnset {
		r.relief = o.relief
	}
	if o.scale > 0 {
		r.scale = o.scale
	}
	if o.spacingSet {
		r.spacing, r.spacingSet = o.spacing, true
	}
	if o.fit > 0 {
		r.fit = o.fit
	}
	if o.vertAlign > 0 {
		r.vertAlign = o.vertAlign
	}
	if o.combine > 0 {
		r.combine = o.combine
	}
	if o.shd.set {
		r.shd = o.shd
	}
	if o.highlight.set {
		r.highlight = o.highlight
	}
	for i, f := range o.fonts {
		switch {
		case o.themeFonts[i] != "":
			r.themeFonts[i] = o.themeFonts[i]
		case f != "":
			r.themeFonts[i] = "" // a font named nearer than a style's theme font is the one drawn
		}
		if f != "" {
			r.fonts[i] = f
		}
	}
	return r
}

// docDefaultsKey holds the document defaults (w:docDefaults) in a styleSheet: XML names cannot
// hold a NUL, so no style's id is this.
const docDefaultsKey = "\x00docDefaults"

// chainProps are the run properties a style gives, its own over those of the styles it is based
// on, and the shading its paragraph properties give.
func (ss styleSheet) chainProps(id string) (rp runProps, pshd docxColor) {
	var chain []*docxStyle
	for i := 0; i < 16 && id != ""; i++ {
		s := ss[id]
		if s == nil {
			break
		}
		chain = append(chain, s)
		id = s.basedOn
	}
	for i := len(chain) - 1; i >= 0; i-- {
		rp = rp.over(chain[i].rpr)
		if chain[i].pshd.set {
			pshd = chain[i].pshd
		}
	}
	return rp, pshd
}

// styledRun resolves the properties the styles give a run as Word does: document defaults, then
// the paragraph style, then the character style (the run's own go over them, with over). Toggles
// (vanish) follow ECMA-376 17.7.3: on in the defaults is on; else the paragraph and character
// styles' values (each the nearest in its basedOn chain) combine by exclusive or; the run's own
// setting is final.
func (ss styleSheet) styledRun(pStyle, rStyle string) runProps {
	eff := ss[docDefaultsKey].props()
	para, _ := ss.chainProps(pStyle)
	char, _ := ss.chainProps(rStyle)
	toggle := func(base, p, c tri) tri {
		if base == triOn || (p == triOn) != (c == triOn) {
			return triOn
		}
		return triOff
	}
	eff.vanish = toggle(eff.vanish, para.vanish, char.vanish)
	eff.specVanish = toggle(eff.specVanish, para.specVanish, char.specVanish)
	return eff.overValues(para).overValues(char)
}

func (s *docxStyle) props() runProps {
	if s == nil {
		return runProps{}
	}
	return s.rpr
}

// runPoints is the size a run with properties rp is drawn at, points: the narrower side of its em,
// after a superscript's or a combined line's shrinking; 0 when no size is given.
func runPoints(rp runProps) float64 {
	if rp.sz <= 0 {
		return 0
	}
	size := float64(rp.sz) / 2
	for _, f := range []float64{rp.vertAlign, rp.combine} {
		if f > 0 {
			size *= f
		}
	}
	if rp.scale > 0 && rp.scale < 100 {
		size = size * float64(rp.scale) / 100
	}
	return size
}

// runHide says why a run with properties rp, read on background back, cannot be seen.
func runHide(rp runProps, back docxColor) (why hideSet, size float64) {
	if rp.vanish == triOn || rp.specVanish == triOn {
		why |= hideVanish
	}
	points := runPoints(rp)
	if size = points; size > maxTinySize {
		size = 0
	} else if size > 0 {
		why |= hideTiny
	}
	// The fill: Word 2010's text fill if the run has one, else its colour; an outline of its own
	// (a text effect) can show text whose fill does not.
	var fillWhy hideSet
	onBack := hideBackground // of the background's colour
	if isWhite(back.rgb) {
		onBack = hideWhite
	}
	switch f := rp.textFill; {
	case f.set && f.transparent():
		fillWhy = hideTransparent
	case f.set && !f.shows(back),
		!f.set && rp.color.set && rp.color.known && back.known && colorsClose(rp.color.rgb, back.rgb):
		fillWhy = onBack
	case f.set && !f.reads(back, points),
		!f.set && rp.color.set && rp.color.known && back.known && faint(rp.color.rgb, back.rgb, points):
		fillWhy = hideFaint
	}
	// An outline too faint to read and of coverWidth or more covers the fill it is drawn round.
	em := points
	if em <= 0 {
		em = wordDefaultSize
	}
	if o := rp.textOutline; fillWhy == 0 && o.set && !o.none && o.alpha >= 0.95 && o.color.known && back.known &&
		float64(o.width) >= coverWidth*em*emuPerPoint && !o.reads(back, points) {
		fillWhy = onBack
	}
	if fillWhy != 0 && !(rp.textOutline.set && rp.textOutline.reads(back, points)) && rp.relief != triOn {
		why |= fillWhy
	}
	return why, size
}

// tableStyleShading reads a table style's w:tblStylePr (the formatting of some of its rows or
// cells): the shading it gives them, not set when it gives none.
func tableStyleShading(d *xml.Decoder) docxColor {
	var c docxColor
	eachStart(d, func(t xml.StartElement) { // a damaged style shades what it said before the damage
		if isW(t.Name) && t.Name.Local == "shd" {
			c = shading(t)
		}
	})
	return c
}

// docxHidden is hidden text in a paragraph being read: where it stood (a line of the paragraph
// and a byte offset into it) or, apart, after everything so far.
type docxHidden struct {
	line, off int
	seq       int // its place among the paragraph's writes (paraBuilder.writes), for hideSmall
	why       hideSet
	size      float64
	text      strings.Builder
	apart     []Hidden // pieces from elsewhere (a note) that stood here
}

// sizedText is a piece of a paragraph's visible text, bytes [from, to) of its line, drawn at pt
// points (0: no size given), written seq-th (paraBuilder.nextWrite).
type sizedText struct {
	line, from, to int
	pt             float64
	seq            int
}

// smallShare is the largest size, as a share of its paragraph's own size, of text no reader reads:
// at a third of 12-pt type, 4 pt, a run of junk between the words of a copy shows as specks
// between them. Junk words so set, black, between the words of zh-wild S004 (46.6 % with its
// white 1-pt junk) read 30.2 % with no warning at 3 and 4 pt, as junk in plain sight does (and at
// 5 pt, which is small print, and read). A superscript (two thirds) and a footnote's mark are
// larger; 2 pt or less is tiny whatever is around it (runHide).
const smallShare = 1.0 / 3

// maxSmallSize bounds the text smallShare hides, points: a third of 12-pt type. Else a word of
// giant letters put in a paragraph would make its own words small, and hide copied text that any
// reader reads.
const maxSmallSize = 4

// wordDefaultSize is the size Word gives text when neither the run, its styles nor the document's
// defaults do, points.
const wordDefaultSize = 10

// emuPerPoint is DrawingML's English Metric Units in a point, in which drawings are placed and sized.
const emuPerPoint = 12700

// bodyShare: a paragraph's own size is the largest that at least one in bodyShare of its
// characters are drawn at (a word set larger for emphasis is fewer; sizeTally.body).
const bodyShare = 10

// hideSmall takes out of the paragraph's lines, as hidden text (tiny, with its size), the visible
// text drawn at smallShare of the paragraph's own size or less, and at maxSmallSize or less. It
// returns the paragraph's own size and the characters it leaves drawn, for smallParagraphs.
func (p *paraBuilder) hideSmall() paraSize {
	line := func(i int) string {
		if i < len(p.lines) {
			return p.lines[i]
		}
		return p.cur.String()
	}
	points := func(t sizedText) float64 {
		if t.pt > 0 {
			return t.pt
		}
		return wordDefaultSize
	}
	// Characters weigh the sizes (utf8.RuneCountInString: letters alone cost a table lookup each,
	// and most paragraphs are of one size).
	var tally sizeTally
	for _, t := range p.sized {
		tally.add(points(t), utf8.RuneCountInString(line(t.line)[t.from:t.to]))
	}
	// Not the size most characters are drawn at: the junk may be more than the words around it.
	own := paraSize{pt: tally.ownSize(ownChars), chars: tally.total}
	if len(tally.sizes) < 2 {
		return own
	}
	var small []sizedText
	for _, t := range p.sized {
		if pt, s := points(t), line(t.line)[t.from:t.to]; pt > maxTinySize && pt <= min(own.pt*smallShare, maxSmallSize) &&
			strings.ContainsFunc(s, isLetterOrDigit) {
			small = append(small, t)
			own.chars -= utf8.RuneCountInString(s)
		}
	}
	// Cut out last first, so that the places of those before stay as they were.
	for i := len(small) - 1; i >= 0; i-- {
		t := small[i]
		l := line(t.line)
		end := t.to // and a space left doubled
		if t.from > 0 && t.to < len(l) && l[t.from-1] == ' ' && l[t.to] == ' ' {
			end++
		}
		if t.line < len(p.lines) {
			p.lines[t.line] = l[:t.from] + l[end:]
		} else {
			p.cur.Reset()
			p.cur.WriteString(l[:t.from] + l[end:])
		}
		for _, h := range p.hidden {
			if h.line == t.line && h.off >= t.to {
				h.off = t.from + max(h.off-end, 0)
			}
		}
		h := &docxHidden{line: t.line, off: t.from, why: hideTiny, size: t.pt, seq: t.seq}
		h.text.WriteString(l[t.from:t.to])
		p.hidden = append(p.hidden, h)
	}
	if len(small) > 0 {
		slices.SortStableFunc(p.hidden, func(a, b *docxHidden) int {
			return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.off, b.off), cmp.Compare(a.seq, b.seq))
		})
	}
	return own
}

// paraSize is a size, points, and how many characters are drawn at it.
type paraSize struct {
	pt    float64
	chars int
}

// sizeTally counts characters by the size they are drawn at: a paragraph's, a document's
// paragraphs' or a PDF line's, each of a few sizes.
type sizeTally struct {
	sizes []paraSize
	total int
}

func (t *sizeTally) add(pt float64, chars int) {
	t.total += chars
	if i := slices.IndexFunc(t.sizes, func(s paraSize) bool { return s.pt == pt }); i >= 0 {
		t.sizes[i].chars += chars
		return
	}
	t.sizes = append(t.sizes, paraSize{pt, chars})
}

// body is the own size of what was counted: the largest that at least one in bodyShare of the
// characters are drawn at (0 for none).
func (t *sizeTally) body() float64 {
	body := 0.0
	for _, s := range t.sizes {
		if s.chars*bodyShare >= t.total {
			body = max(body, s.pt)
		}
	}
	return body
}

// ownSize is the size that small print is judged beside: body, unless body is maxSmallSize or less
// and least characters or more are drawn at a larger size, then the largest such size. Junk more
// than nine times the text around it is the body: zh-thesis S004 (34.2 % as a DOCX) read 2.6 %
// with junk at 3 pt twelve times each paragraph's length after it, and 3.4 % with nine times the
// document's length in 3-pt paragraphs after it, with no warning.
func (t *sizeTally) ownSize(least int) float64 {
	body := t.body()
	if body > maxSmallSize {
		return body
	}
	for _, s := range t.sizes {
		if s.chars >= least {
			body = max(body, s.pt)
		}
	}
	return body
}

// ownChars and largeChars are the characters (ownSize's least) drawn at a size that make it the
// own size of a paragraph, and of a document, whose body is small print: any in a paragraph (its
// small print is hidden whichever way, in the paragraph or as a small paragraph), and in a
// document more than a title's, which would make a document shrunk whole small print.
const (
	ownChars   = 1
	largeChars = 200
)

// hiddenPieces returns the hidden text of a paragraph whose visible text is text, with rune
// offsets into text: each piece's place is marked in the lines, which are then joined as the text
// was, and the marks taken out.
func (p *paraBuilder) hiddenPieces(text string) []Hidden {
	lines := append(append([]string(nil), p.lines...), p.cur.String())
	marked := make([]string, len(lines))
	var pieces []*docxHidden
	for i, l := range lines {
		var b strings.Builder
		last := 0
		for _, h := range p.hidden {
			if h.line != i {
				continue
			}
			off := min(max(h.off, last), len(l))
			b.WriteString(l[last:off])
			b.WriteRune(hiddenMark)
			last = off
			pieces = append(pieces, h)
		}
		b.WriteString(l[last:])
		marked[i] = b.String()
	}
	stripped, at := takeMarks(linesText(marked))
	lead := utf8.RuneCountInString(stripped) - utf8.RuneCountInString(strings.TrimLeftFunc(stripped, unicode.IsSpace))
	n := utf8.RuneCountInString(text)
	var out []Hidden
	for i, h := range pieces {
		off := n
		if i < len(at) {
			off = min(max(at[i]-lead, 0), n)
		}
		if t := strings.Join(strings.Fields(h.text.String()), " "); t != "" {
			out = append(out, Hidden{Text: t, Reasons: h.why.names(), Size: h.size, Offset: off})
		}
		for _, a := range h.apart {
			a.Offset, a.Apart = off, true
			out = append(out, a)
		}
	}
	return out
}

// Namespaces of drawings: text boxes and shapes can be hidden, placed off the page, or filled with
// the colour of the text in them.
const (
	nsWP  = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
	nsA   = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsWPS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
	nsV   = "urn:schemas-microsoft-com:vml"
	nsDgm = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
	nsCdr = "http://schemas.openxmlformats.org/drawingml/2006/chartDrawing"
	nsC   = "http://schemas.openxmlformats.org/drawingml/2006/chart"
)

func inNS(n xml.Name, ns, prefix string) bool { return n.Space == ns || n.Space == prefix }

// docxShape is a drawing (wp:anchor, wp:inline) or a VML shape being read.
type docxShape struct {
	why        hideSet
	vml        bool
	posH, posV *int64 // offsets from what relH, relV name, EMU
	relH, relV string
	cx, cy     int64
	// In front of the text (not behindDoc, wrapNone), and what it shows: a picture (its
	// relationship id) or a solid, opaque fill (docx_cover.go).
	behind, wrapNone, solid bool
	fill                    docxColor // the solid fill's colour
	blip                    string
	// textHeight is the room its text box has for text, EMU, when the box does not grow to fit
	// its text (0: it does, or it holds none): Word shows no more text than fits.
	textHeight int64
	// z is its place in the order drawings are drawn (wp:anchor's relativeHeight, the highest
	// in front); host and firstSeq, the paragraph it is anchored in and the first paragraph its
	// text boxes begin (seqs, docx_cover.go).
	z              int64
	host, firstSeq int
	// A VML shape's outline colour and size, points (0 unknown), for its WordArt (docx_wordart.go).
	stroke     docxColor
	vmlW, vmlH float64
	vmlFloats  bool
}

// docxTable is an open table: its own shading and its style's, and where it stands.
type docxTable struct {
	shd docxColor
	// Its style's shading (styleSheet.tableStyle), which of its formats apply, the cells of each
	// of its rows (nil: not counted), and the row and the cell being read (cellShading).
	cellShd  docxColor
	conds    map[string]docxColor
	bands    [2]int // its style's band sizes, rows and columns (0: one)
	look     tableLook
	rows     []int
	at       int64 // where its start tag ends in its part (tableRows' key)
	row, col int
	rowExact float64 // the exact height of the row being read, points; 0 for none
	// left is where its left edge stands, EMU from the page's left edge (tablePlace); width, the sum
	// of its grid's columns (0 unknown).
	left, width int64
}

// docxBack is a background a run may be read on: a table cell's shading or a shape's fill.
type docxBack struct {
	c     docxColor
	shape bool
	ref   bool // a shape's fill is its style's fill reference's colour
}

func (w *docxWalker) startRun() {
	w.markEnd()
	w.runOff = w.elemOff
	w.run, w.runStyle, w.runWhy, w.runSize, w.runDone = runProps{}, "", 0, 0, false
	w.runNarrow = false
}

// hide says why the text being read cannot be seen, and its size when that is why.
func (w *docxWalker) hide() (hideSet, float64) {
	return w.hideText("")
}

// styledRun is what paragraph style pStyle and character style rStyle give a run, worked out once
// for each pair.
func (w *docxWalker) styledRun(pStyle, rStyle string) runProps {
	key := [2]string{pStyle, rStyle}
	styled, ok := w.styledRuns[key]
	if !ok {
		styled = w.styles.styledRun(pStyle, rStyle)
		w.styledRuns[key] = styled
	}
	return styled
}

// hideText is hide for the text s: Word sizes text in a complex script (Arabic, Hebrew, …) by the
// run's complex-script size, as it does all the text of a run marked so.
func (w *docxWalker) hideText(s string) (hideSet, float64) {
	if !w.runDone {
		style := ""
		if p := w.top(); p != nil {
			style = p.style
		}
		rp := w.styledRun(style, w.runStyle).over(w.run)
		rp.color = w.theme.resolve(rp.color)
		rp.textFill = rp.textFill.resolved(w.theme)
		rp.textOutline = rp.textOutline.resolved(w.theme)
		back := applyMods(w.theme.resolve(w.background(rp)))
		w.runWhy, w.runSize = runHide(rp, back)
		w.runWhyCS, w.runSizeCS = w.runWhy, w.runSize
		w.runPt = runPoints(rp)
		w.runPtCS = w.runPt
		if rp.szCs > 0 {
			cs := rp
			cs.sz = rp.szCs
			w.runWhyCS, w.runSizeCS = runHide(cs, back)
			w.runPtCS = runPoints(cs)
		}
		w.runCS = rp.cs == triOn || rp.rtl == triOn
		var extra hideSet
		w.runFonts = nil
		var fonts [3]string
		for i := range fonts {
			fonts[i] = w.theme.font(rp, i)
		}
		for i, f := range fonts {
			for _, p := range w.fonts[f] {
				if p.Blank() {
					extra |= hideBlankFont
				}
				if w.runFonts == nil {
					w.runFonts = new([3][]*fontProgram)
				}
				w.runFonts[i] = append(w.runFonts[i], p)
			}
		}
		if pictureFont(fonts[0]) && asciiAlnum(s) >= 3 {
			extra |= hideSymbols
		}
		// Raised or lowered by a page's height or more, the run is off the page whatever line
		// it is on.
		if pt := float64(rp.position) / 2; math.Abs(pt) >= float64(w.pageH)/emuPerPoint {
			extra |= hideOffPage
		}
		// In a table row, a frame or lines of an exact height less than half the text's size,
		// Word cuts the text off: a row a point high holds pages of words no one sees.
		size := 10.0 // Word's size when nothing gives one
		if rp.sz > 0 {
			size = float64(rp.sz) / 2
		}
		if h := w.exactHeight(); h > 0 && h < size/2 {
			extra |= hideClipped
		}
		f, ok := w.fits[w.runOff]
		if narrow := fitSize(rp, size, f, ok, s); narrow > 0 && !(narrow > maxTinySize) {
			extra |= hideTiny
			for _, sz := range []*float64{&w.runSize, &w.runSizeCS} {
				if *sz == 0 || narrow < *sz {
					*sz = narrow
				}
			}
		}
		if r := w.ruby; r != nil && r.inGuide && r.hps > 0 && r.hps <= maxTinySize {
			// a guide's text is drawn at its own size, whatever its runs say
			extra |= hideTiny
			w.runSize, w.runSizeCS = r.hps, r.hps
		}
		w.runNarrow = narrowSpaces(rp, size)
		if w.offColumn() {
			extra |= hideOffPage
		}
		if piled(rp, size, s) {
			extra |= hideStacked
		}
		w.runWhy |= extra
		w.runWhyCS |= extra
		w.runDone = true
	}
	why, size := w.runWhy, w.runSize
	if w.runCS || complexScript(s) {
		why, size = w.runWhyCS, w.runSizeCS
	}
	if w.ignoredDepth > 0 {
		why |= hideIgnored
	}
	for _, f := range w.fields {
		if !f.result {
			why |= hideField // a field's code: Word shows the field's result instead
		}
	}
	for _, s := range w.shapes {
		why |= s.why
	}
	return why, size
}

// exactHeight is the smallest exact height of the table rows, the text boxes, the frame and the
// lines the text being read is in, points; 0 for none.
func (w *docxWalker) exactHeight() float64 {
	h := 0.0
	for _, t := range w.tables {
		if t.rowExact > 0 && (h == 0 || t.rowExact < h) {
			h = t.rowExact
		}
	}
	for _, s := range w.shapes {
		if x := float64(s.textHeight) / emuPerPoint; x > 0 && (h == 0 || x < h) {
			h = x
		}
	}
	if p := w.top(); p != nil {
		line := p.lineExact
		if !p.lineSet {
			if s := w.styles.resolve(p.style, func(s *docxStyle) bool { return s.lineExactSet }); s != nil {
				line = s.lineExact
			}
		}
		for _, x := range []float64{p.frameExact, line} {
			if x > 0 && (h == 0 || x < h) {
				h = x
			}
		}
	}
	return h
}

// complexScript: s has a letter of a script Word formats as complex script: Hebrew, Arabic,
// Syriac, Thaana, N'Ko (U+0590–U+07FF), Thai (U+0E00–U+0E7F), and the Hebrew and Arabic
// presentation forms (U+FB1D–U+FDFF, U+FE70–U+FEFF). By their UTF-8 bytes: every character of
// a document passes here, and a Chinese one is told by its first byte.
func complexScript(s string) bool {
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b < 0xD6:
		case b <= 0xDF: // U+0580–U+07FF
			if b > 0xD6 || i+1 < len(s) && s[i+1] >= 0x90 {
				return true
			}
		case b == 0xE0: // U+0E00–U+0E7F: E0 B8 xx, E0 B9 xx
			if i+1 < len(s) && (s[i+1] == 0xB8 || s[i+1] == 0xB9) {
				return true
			}
		case b == 0xEF: // U+FB1D–U+FDFF: EF AC–B7; U+FE70–U+FEFF: EF B9–BB
			if i+1 < len(s) && (s[i+1] >= 0xAC && s[i+1] <= 0xB7 || s[i+1] >= 0xB9 && s[i+1] <= 0xBB) {
				return true
			}
		}
	}
	return false
}

// background is the colour a run with properties rp is read on.
func (w *docxWalker) background(rp runProps) docxColor {
	for _, c := range []docxColor{rp.shd, rp.highlight} {
		if c.set && !c.none {
			return c
		}
	}
	if p := w.top(); p != nil {
		shd := p.shd
		if !shd.set {
			var ok bool
			if shd, ok = w.styleShading[p.style]; !ok {
				_, shd = w.styles.chainProps(p.style)
				w.styleShading[p.style] = shd
			}
		}
		if shd.set && !shd.none {
			return shd
		}
	}
	for i := len(w.backs) - 1; i >= 0; i-- {
		if c := w.backs[i].c; c.set && !c.none {
			return c
		}
	}
	if p := w.top(); p != nil {
		if c, ok := w.onPage[p.seq]; ok {
			return c
		}
	}
	if w.page.set && !w.page.none {
		return w.page
	}
	return docxWhite
}

// shapeStart reads the parts of drawings and VML shapes that can hide their text; skip reports
// that the element was consumed.
func (w *docxWalker) shapeStart(d *xml.Decoder, t xml.StartElement) (skip bool, err error) {
	switch {
	case inNS(t.Name, nsWP, "wp"):
		return w.drawingStart(d, t)
	case inNS(t.Name, nsWPS, "wps") && t.Name.Local == "wsp":
		w.backs = append(w.backs, docxBack{shape: true})
	case inNS(t.Name, nsWPS, "wps") && t.Name.Local == "txbx":
		if s, b := w.topShape(), w.boxes[w.elemOff]; s != nil && b.known && !b.grows {
			s.textHeight = max(s.cy-b.insets, 1)
		}
	case inNS(t.Name, nsDgm, "dgm") && t.Name.Local == "relIds":
		w.diagram(t)
	case inNS(t.Name, nsC, "c") && t.Name.Local == "chart":
		w.chart(t)
	case inNS(t.Name, nsA, "a"):
		if t.Name.Local == "blip" {
			w.pictureStart(attr(t, "embed"))
			if s := w.topShape(); s != nil && s.blip == "" {
				s.blip = attr(t, "embed")
			}
		}
		w.fillStart(t)
	case inNS(t.Name, nsV, "v"):
		switch t.Name.Local {
		case "imagedata":
			w.pictureStart(attr(t, "id"))
		case "textpath":
			w.wordArt(t)
		case "textbox":
			// Unless it grows to fit them, a text box shows as many lines as its height holds,
			// less its insets (3.6 pt above and below by default).
			if s := w.topShape(); s != nil && s.vml && s.vmlH > 0 && !strings.Contains(vmlStyle(t), "mso-fit-shape-to-text:t") {
				in := strings.Split(attr(t, "inset"), ",")
				room := s.vmlH
				for _, i := range []int{1, 3} { // the top and bottom insets
					v, ok := 0.0, false
					if i < len(in) {
						v, ok = vmlLength(in[i])
					}
					if !ok {
						v = 3.6
					}
					room -= v
				}
				s.textHeight = max(int64(room*emuPerPoint), 1)
			}
		case "shape", "rect", "roundrect", "oval", "polyline":
			s := docxShape{vml: true}
			vmlShapeInk(&s, t)
			style := vmlStyle(t)
			if strings.Contains(style, "visibility:hidden") || strings.Contains(style, "display:none") {
				s.why |= hideShape
			}
			if s.vmlFloats && w.parent() != nsV+" group" && vmlPlace(&s, style) {
				s.why |= w.offPage(&s)
			}
			w.shapes = append(w.shapes, s)
			fill := docxWhite // VML fills shapes white unless told otherwise
			if c := attr(t, "fillcolor"); c != "" {
				fill = hexColor(c)
			}
			if f := strings.ToLower(attr(t, "filled")); f == "f" || f == "false" {
				fill = docxColor{set: true, none: true}
			}
			w.backs = append(w.backs, docxBack{c: fill, shape: true})
		}
	}
	return false, nil
}

// vmlStyle is a VML element's style attribute in lower case, its spaces taken out.
func vmlStyle(t xml.StartElement) string {
	return strings.ToLower(strings.ReplaceAll(attr(t, "style"), " ", ""))
}

// vmlPlace reads where a floating VML shape stands (its style, lower case, spaces taken out) into
// s, as a drawing's anchor says it: its offsets from what it is placed against (the page, else the
// column or the paragraph: margin-left and left, margin-top and top) and its size, EMU. It reports
// whether they were all read (lengths with units; a group's shapes count in the group's units).
func vmlPlace(s *docxShape, style string) bool {
	var h, v float64
	s.relH, s.relV = "column", "paragraph"
	for _, decl := range strings.Split(style, ";") {
		k, val, _ := strings.Cut(decl, ":")
		var f *float64
		switch k {
		case "margin-left", "left":
			f = &h
		case "margin-top", "top":
			f = &v
		case "mso-position-horizontal-relative":
			s.relH = val
		case "mso-position-vertical-relative":
			s.relV = val
		}
		if f != nil {
			n, ok := vmlLength(val)
			if !ok {
				return false
			}
			*f += n
		}
	}
	if s.vmlW <= 0 || s.vmlH <= 0 {
		return false
	}
	emu := func(pt float64) *int64 { n := int64(pt * emuPerPoint); return &n }
	s.posH, s.posV = emu(h), emu(v)
	s.cx, s.cy = *emu(s.vmlW), *emu(s.vmlH)
	return true
}

// vmlLength reads a VML length with its unit (pt, px, in, cm, mm) in points, or 0 alone.
func vmlLength(v string) (float64, bool) {
	v = strings.TrimSpace(v)
	if v == "0" {
		return 0, true
	}
	neg := strings.HasPrefix(v, "-")
	n, ok := cssPoints(strings.TrimPrefix(v, "-"))
	if !ok {
		return 0, false
	}
	n = max(n, 0) // cssPoints says -1 for nothing
	if neg {
		n = -n
	}
	return n, true
}

// pictureStart notes a picture (the relationship id of its part) unless its drawing is hidden.
func (w *docxWalker) pictureStart(id string) {
	for _, s := range w.shapes {
		if s.why != 0 {
			return
		}
	}
	if id != "" && len(w.pictureIDs) < maxPictures {
		w.pictureIDs = append(w.pictureIDs, id)
	}
}

// topShape is the innermost shape being read, or nil.
func (w *docxWalker) topShape() *docxShape {
	if n := len(w.shapes); n > 0 {
		return &w.shapes[n-1]
	}
	return nil
}

// drawingStart reads a DrawingML drawing's anchor: its place and size (off the page hides it) and
// whether it is hidden.
func (w *docxWalker) drawingStart(d *xml.Decoder, t xml.StartElement) (skip bool, err error) {
	s := w.topShape()
	switch t.Name.Local {
	case "anchor", "inline":
		host := -1
		if p := w.top(); p != nil {
			host = p.seq
		}
		z, _ := strconv.ParseInt(attr(t, "relativeHeight"), 10, 64)
		w.shapes = append(w.shapes, docxShape{behind: t.Name.Local == "inline" || onOff2(t, "behindDoc"), z: z, host: host, firstSeq: w.seqs})
	case "wrapNone":
		if s != nil {
			s.wrapNone = true
		}
	case "positionH", "positionV":
		if s != nil {
			if t.Name.Local == "positionH" {
				s.relH = attr(t, "relativeFrom")
			} else {
				s.relV = attr(t, "relativeFrom")
			}
		}
	case "posOffset":
		var v string
		if err := d.DecodeElement(&v, &t); err != nil {
			return true, err
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if s != nil && err == nil {
			if strings.HasSuffix(w.parent(), "positionH") {
				s.posH = &n
			} else {
				s.posV = &n
			}
		}
		return true, nil
	case "extent":
		if s != nil {
			s.cx, _ = strconv.ParseInt(attr(t, "cx"), 10, 64)
			s.cy, _ = strconv.ParseInt(attr(t, "cy"), 10, 64)
		}
	case "docPr":
		if s != nil {
			if onOff2(t, "hidden") {
				s.why |= hideShape
			}
			s.why |= w.offPage(s)
		}
	}
	return false, nil
}

// fillStart reads a DrawingML shape's fill, the background its text stands on.
func (w *docxWalker) fillStart(t xml.StartElement) {
	n := len(w.backs)
	if n == 0 || !w.backs[n-1].shape {
		return
	}
	b := &w.backs[n-1]
	if t.Name.Local == "fillRef" && strings.HasSuffix(w.parent(), " style") {
		// A shape without a fill of its own is filled by the theme's fill style its style
		// names, in the colour it gives: the first is a solid fill of it (Word's shapes: white
		// text on an accent colour); the others, gradients and the like, are not known.
		if !b.c.set {
			switch attr(t, "idx") {
			case "0":
			case "1":
				b.c, b.ref = docxColor{set: true}, true
			default:
				b.c = docxColor{set: true}
			}
		}
		return
	}
	// Where this element stands: in the shape's properties (or its fill reference), its fill, or
	// the fill's colour.
	var names [3]string
	for i := range names {
		if k := len(w.names) - 1 - i; k >= 0 {
			_, names[i], _ = strings.Cut(w.names[k], " ")
		}
	}
	inFill := names[0] == "spPr" || b.ref && names[0] == "fillRef"
	switch t.Name.Local {
	case "noFill":
		if names[0] == "spPr" {
			b.c = docxColor{set: true, none: true}
		}
	case "gradFill", "pattFill", "blipFill":
		if names[0] == "spPr" {
			b.c = docxColor{set: true}
		}
	case "srgbClr", "sysClr", "prstClr", "schemeClr", "scrgbClr", "hslClr":
		if names[0] == "solidFill" && names[1] == "spPr" || inFill {
			b.c = drawingColor(t) // a theme's colour is resolved where the fill is read on
		}
	case "lumMod", "lumOff", "shade", "tint", "alpha":
		if names[1] == "solidFill" && names[2] == "spPr" || b.ref && names[1] == "fillRef" {
			v, err := strconv.Atoi(attr(t, "val"))
			switch {
			case err != nil:
			case t.Name.Local != "alpha":
				b.c.mods = append(b.c.mods, colorMod{t.Name.Local, float64(v) / 100000})
			case v < 92000:
				// See-through: what shows is not known. Through 92 % or more of one colour, black
				// text on white differs by 8 % at most, as colorsClose takes for one colour: a white
				// rectangle of 93 % in front of a text box of junk hid nothing before.
				b.c = docxColor{set: true}
			}
		}
	}
}

func (w *docxWalker) shapeEnd(t xml.EndElement) {
	pop := func() {
		if n := len(w.shapes); n > 0 {
			w.shapes = w.shapes[:n-1]
		}
	}
	popBack := func() {
		if n := len(w.backs); n > 0 && w.backs[n-1].shape {
			w.backs = w.backs[:n-1]
		}
	}
	switch {
	case inNS(t.Name, nsWP, "wp") && (t.Name.Local == "anchor" || t.Name.Local == "inline"):
		if s := w.topShape(); s != nil && t.Name.Local == "anchor" {
			w.endAnchor(s)
		}
		pop()
	case inNS(t.Name, nsWPS, "wps") && t.Name.Local == "wsp":
		if n := len(w.backs); n > 0 {
			if b, s := w.backs[n-1], w.topShape(); s != nil && b.shape {
				if c := applyMods(w.theme.resolve(b.c)); c.set && c.known && !c.none {
					s.solid, s.fill = true, c
				}
			}
		}
		popBack()
	case inNS(t.Name, nsV, "v"):
		switch t.Name.Local {
		case "shape", "rect", "roundrect", "oval", "polyline":
			pop()
			popBack()
		}
	}
}

// offPage reports a drawing placed wholly outside the page: at an offset past the page's size
// from anything, or ending before the page's edge (half a page before any other reference, as
// no margin is that wide).
func (w *docxWalker) offPage(s *docxShape) hideSet {
	out := func(off *int64, rel string, ext, page int64) bool {
		if off == nil {
			return false
		}
		return *off >= page || *off+ext <= 0 && rel == "page" || *off+ext <= -page/2
	}
	if out(s.posH, s.relH, s.cx, w.pageW) || out(s.posV, s.relV, s.cy, w.pageH) {
		return hideOffPage
	}
	return 0
}

// piled reports whether the characters of text s in a run of size points with properties rp are
// condensed (w:spacing) until each covers three quarters of the one before it or more: junk so
// typed between the words of a copy is a smudge a character wide, as unreadable as letters of no
// width drawn on one spot in a PDF (pdfStacked). A Chinese character is taken as an em wide, any
// other as half an em, about a lower-case letter's width in Times or Calibri: text is hidden once
// condensed by 4.5 pt at 12 pt, where titles are condensed by a point or two at most.
func piled(rp runProps, size float64, s string) bool {
	if !rp.spacingSet || rp.spacing >= 0 {
		return false
	}
	width := 0.5
	for _, r := range s {
		if pdfWide(r) {
			width = 1
			break
		}
	}
	width *= size
	if rp.scale > 0 {
		width = width * float64(rp.scale) / 100
	}
	return float64(rp.spacing)/20 < -0.75*width
}

// narrowSpaces reports whether the spaces of a run of size points with properties rp are condensed
// to less than a tenth of an em, a gap a reader hardly sees (a word space is about a quarter of
// an em): Word's Condensed spacing on the spaces put inside every word of a copy split each word
// in two for the check (0.0 %). Its spaces are written as hair spaces, which Normalize reads off
// between two letters and warns of. The PDF reader takes a space glyph that narrow for none.
func narrowSpaces(rp runProps, size float64) bool {
	if !rp.spacingSet || rp.spacing >= 0 {
		return false
	}
	width := 0.25 * size
	if rp.scale > 0 {
		width = width * float64(rp.scale) / 100
	}
	return width+float64(rp.spacing)/20 < 0.1*size
}
