package extract

// Hidden text: words a file holds where a reader cannot see them (white on white, 1-point type,
// an invisible render mode, Word's hidden formatting …). Students put junk words between the words
// of a copied paragraph that way: on paper the paragraph reads as its source, to a checker it is
// nonsense. The readers leave such text out of the paragraphs and keep it in Paragraph.Hidden, and
// the document gets a "hidden" warning saying how much, where and why.

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Why text is hidden (Hidden.Reasons).
const (
	HideWhite       = "white"       // white (or nearly) on the white page
	HideBackground  = "background"  // the colour of the shading or box under it
	HideTiny        = "tiny"        // 2 pt or smaller, or a third of its Word paragraph's or PDF line's size
	HideInvisible   = "invisible"   // PDF text render mode 3 (no paint) or 7 (clip only)
	HideTransparent = "transparent" // fully transparent paint, or a colour that puts no ink down
	HideOffPage     = "offpage"     // outside the page's visible box
	HideClipped     = "clipped"     // outside its clipping path
	HideCovered     = "covered"     // painted over by an opaque box
	HideLayer       = "layer"       // in a PDF layer (optional content) that is off
	HideVanish      = "vanish"      // Word's hidden formatting (w:vanish, w:specVanish)
	HideField       = "field"       // in the code of a field, which Word does not show
	HideShape       = "shape"       // in a text box or shape that is hidden
	HideIgnored     = "ignored"     // in markup of an ignorable namespace no one knows, which Word skips
	// HideBlended: PDF text whose blend mode (Screen, Lighten, Overlay …) leaves its backdrop as it
	// was: black text in Screen does not show on white.
	HideBlended = "blended"
	// HideStacked: letters piled on one spot: in a PDF, of no width and drawn where others are
	// (junk typed between the words of a copy in a font whose glyphs are empty and take no room),
	// in Word condensed until each covers most of the one before (piled), a pile no reader can read.
	HideStacked = "stacked"
	// HideBlankFont: in an embedded font (a PDF's program, a DOCX's font part) whose glyphs are all
	// empty.
	HideBlankFont = "blankfont"
	// HideSymbols: letters and digits in a font of pictures (Wingdings, Webdings …), which draws a
	// plane or a telephone for each: junk so typed shows as pictures between the words of a copy.
	HideSymbols = "symbols"
	// HideIcon: in an embedded document that Word draws as an icon.
	HideIcon = "icon"
	// HideFaint: of a colour too light (or too dark) beside what is under it to be read, though
	// not its colour (faint): yellow on white.
	HideFaint = "faint"
)

// hideSet is a set of the reasons above, in this order.
type hideSet uint32

var hideNames = []string{HideWhite, HideBackground, HideTiny, HideInvisible, HideTransparent, HideOffPage,
	HideClipped, HideCovered, HideLayer, HideVanish, HideField, HideShape, HideStacked, HideBlankFont, HideIgnored, HideBlended, HideSymbols, HideIcon, HideFaint}

const (
	hideWhite hideSet = 1 << iota
	hideBackground
	hideTiny
	hideInvisible
	hideTransparent
	hideOffPage
	hideClipped
	hideCovered
	hideLayer
	hideVanish
	hideField
	hideShape
	hideStacked
	hideBlankFont
	hideIgnored
	hideBlended
	hideSymbols
	hideIcon
	hideFaint
)

func (h hideSet) names() []string {
	var out []string
	for i, n := range hideNames {
		if h&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// hideLabels say a reason in the warning's message; tiny is said with the size instead.
var hideLabels = map[string]string{
	HideWhite: "white", HideBackground: "the background's colour", HideInvisible: "invisible render mode",
	HideTransparent: "transparent", HideOffPage: "off the page", HideClipped: "clipped away",
	HideCovered: "covered by a box", HideLayer: "in a hidden layer", HideVanish: "hidden formatting",
	HideField: "inside a field code", HideShape: "in a hidden shape",
	HideStacked: "letters piled on one spot", HideBlankFont: "in an embedded font that draws nothing, or only specks",
	HideIgnored: "in markup Word ignores", HideBlended: "blended into what is under it", HideFaint: "too faint to read",
	HideSymbols: "letters in a font of pictures", HideIcon: "in an embedded document shown as an icon",
}

// Hidden is a piece of text a reader cannot see, left out of its paragraph's text.
type Hidden struct {
	Text    string   `json:"text"`
	Reasons []string `json:"reasons"`        // Hide… constants
	Size    float64  `json:"size,omitempty"` // the point size, when it is too small to read
	Page    int      `json:"page,omitempty"`
	// Offset is the rune offset into the paragraph's text where the hidden text stood. Apart says
	// that it stood apart, in a line or paragraph of its own after (or, at 0, before) that place.
	Offset int  `json:"offset"`
	Apart  bool `json:"apart,omitempty"`
}

// hiddenChars counts the characters of hidden text, white space left out.
func hiddenChars(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// colorsClose reports whether text of colour a cannot be read on colour b: no channel differs by
// more than 8 % (20 of 255). Word's lightest grey that people use for text (D9D9D9, 15 % darker
// than white) differs by 15 %; F2F2F2 (5 %) cannot be told from white on paper.
func colorsClose(a, b [3]float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 0.08 {
			return false
		}
	}
	return true
}

func isWhite(c [3]float64) bool { return colorsClose(c, whiteRGB) }

var whiteRGB = [3]float64{1, 1, 1}

// faint reports whether text of colour a, size points (0: not known), cannot be read on colour b
// though their colours differ (colorsClose): their contrast (WCAG's ratio of luminances) is under
// faintContrast, or under faintSmallContrast and the text is faintSize or smaller. Readers read by
// luminance: yellow on white (1.07) or a pale yellow (1.03), whose blue differs by a fifth or
// more, shows as a smear, and zh-thesis S004 (34.2 % as a DOCX, 34.3 % as a PDF) with a line of
// junk after each paragraph in them read 17.1 % and 20.1 %, with no warning; in light grey
// (#E0E0E0) at 5 pt, 17.1 % and 10.1 %.
func faint(a, b [3]float64, size float64) bool {
	c := contrast(a, b)
	return c < faintContrast || size > 0 && size <= faintSize && c < faintSmallContrast
}

// legible reports whether text of colour a, size points, can be read on colour b: their colours
// differ (colorsClose) and not faintly.
func legible(a, b [3]float64, size float64) bool { return !colorsClose(a, b) && !faint(a, b, size) }

// coverWidth is the width of an outline, in ems of its text, that covers the letters it is stroked
// round: a stroke covers half its width on each side of a glyph's outline, and the stems of a
// bold face are 0.15 em or less. A line of 12-pt black junk after each paragraph of zh-thesis S004
// (34.2 % as a DOCX) with Word's Text Outline, white, of 3 pt read 17.1 %, with no warning. Word's
// default outline is 0.75 pt.
const coverWidth = 0.2

// faintContrast is the contrast of the lightest grey colorsClose takes for white (#EBEBEB, 1.19):
// any colour as faint is as unreadable. Cyan on white is 1.25, a 10 % grey 1.25.
// faintSmallContrast and faintSize: small print needs more to be read; #D0D0D0 is 1.54, the
// light grey a chart's scale may be drawn in (#BFBFBF) 1.84.
const (
	faintContrast      = 1.2
	faintSmallContrast = 1.5
	faintSize          = 6
)

// contrast is WCAG 2's contrast ratio of colours a and b (sRGB, 0 to 1): 1 for the same
// luminance, 21 for black on white.
func contrast(a, b [3]float64) float64 {
	la, lb := relLuminance(a), relLuminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// relLuminance is the relative luminance of sRGB colour c.
func relLuminance(c [3]float64) float64 {
	lin := func(v float64) float64 {
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c[0]) + 0.7152*lin(c[1]) + 0.0722*lin(c[2])
}

// maxTinySize is the largest type, in points, taken as too small to read (w:sz ≤ 4 in Word).
// Subscripts of 9-pt body text are 5–6 pt; nobody reads 2-pt type.
const maxTinySize = 2

// hiddenWarning sums up the hidden text of a document's paragraphs: how many characters, why and
// where. It returns nil when there is none.
func hiddenWarning(doc *Document) []Warning {
	var all []Hidden
	pages := map[int]bool{}
	var paras []int
	for i, p := range doc.Paragraphs {
		if len(p.Hidden) == 0 {
			continue
		}
		paras = append(paras, i)
		for _, h := range p.Hidden {
			all = append(all, h)
			switch {
			case h.Page > 0:
				pages[h.Page] = true
			case p.Page > 0:
				pages[p.Page] = true
			}
		}
	}
	total, why := hiddenSummary(all)
	if total == 0 {
		return nil
	}
	w := Warning{Kind: WarnHidden, Count: total, Paragraphs: paras}
	for p := range pages {
		w.Pages = append(w.Pages, p)
	}
	sort.Ints(w.Pages)
	w.Message = fmt.Sprintf("%d characters of hidden text (%s) were left out", total, why) + Where(w.Pages, paras)
	return []Warning{w}
}

// Where says where a warning's finds are, for its message: ", on pages 2, 5" when pages are known,
// else ", in paragraphs 3, 9" (paras are indices, said from 1), else nothing.
func Where(pages, paras []int) string {
	switch {
	case len(pages) > 0:
		return ", on " + pageList(pages)
	case len(paras) > 0:
		return ", in " + wordFor(len(paras), "paragraph") + " " + intList(paras, 1)
	}
	return ""
}

// hiddenSummary counts the characters of hidden pieces and says why they are hidden, the reason
// that hides the most characters first: "white, 1 pt".
func hiddenSummary(hs []Hidden) (total int, why string) {
	byReason := map[string]int{}
	tiny := 0.0
	for _, h := range hs {
		n := hiddenChars(h.Text)
		total += n
		for _, r := range h.Reasons {
			byReason[r] += n
		}
		if slices.Contains(h.Reasons, HideTiny) {
			tiny = max(tiny, h.Size)
		}
	}
	reasons := make([]string, 0, len(byReason))
	for r := range byReason {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(a, b int) bool {
		if byReason[reasons[a]] != byReason[reasons[b]] {
			return byReason[reasons[a]] > byReason[reasons[b]]
		}
		return slices.Index(hideNames, reasons[a]) < slices.Index(hideNames, reasons[b])
	})
	labels := make([]string, len(reasons))
	for i, r := range reasons {
		labels[i] = hideLabels[r]
		if r == HideTiny {
			labels[i] = tinyLabel(tiny)
		}
	}
	return total, strings.Join(labels, ", ")
}

// tinyLabel says the size of tiny text: "1 pt", or "2 pt or smaller" when no size is known.
func tinyLabel(size float64) string {
	if size <= 0 {
		return strconv.Itoa(maxTinySize) + " pt or smaller"
	}
	return strconv.FormatFloat(max(0.5, math.Round(size*2)/2), 'f', -1, 64) + " pt"
}

// wordFor is word in the plural unless n is 1 (plural, in decode.go, also gives the number).
func wordFor(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// intList writes at most ten numbers (plus base each): "3, 4, 9 …".
func intList(xs []int, base int) string {
	var b strings.Builder
	for i, x := range xs {
		if i == 10 {
			b.WriteString(" …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(x + base))
	}
	return b.String()
}

// allHiddenError is the error for a file without paragraphs that does hold hidden text: all of
// it is hidden, which the user must hear rather than "no text".
func allHiddenError(doc *Document, err error) error {
	total, why := hiddenSummary(doc.unplacedHidden)
	if total == 0 {
		return err
	}
	return fmt.Errorf("%w: %d characters (%s)", ErrAllHidden, total, why)
}

// attachOrphans gives hidden pieces that stood outside any paragraph to the paragraph before them
// (or the first, for pieces before every paragraph): at its end, or at its start, marked Apart.
// Each orphan's after is the index of the paragraph it followed, -1 for none. It returns the
// pieces it could not place, there being no paragraph.
func attachOrphans(ps []Paragraph, orphans []orphanHidden) (unplaced []Hidden) {
	for _, o := range orphans {
		if len(ps) == 0 {
			unplaced = append(unplaced, o.Hidden)
			continue
		}
		h := o.Hidden
		h.Apart = true
		i := o.after
		if i < 0 {
			i, h.Offset = 0, 0
		} else {
			i = min(i, len(ps)-1)
			h.Offset = utf8.RuneCountInString(ps[i].Text)
		}
		ps[i].Hidden = append(ps[i].Hidden, h)
		if i == 0 && h.Offset == 0 {
			sort.SliceStable(ps[0].Hidden, func(a, b int) bool { return ps[0].Hidden[a].Offset < ps[0].Hidden[b].Offset })
		}
	}
	return unplaced
}

// orphanHidden is hidden text that stood outside every paragraph, after paragraph after.
type orphanHidden struct {
	Hidden
	after int
}

// hiddenMark stands for a piece of hidden text inside a paragraph's raw text while it is cleaned
// up, so that its place is known in the result. It is a noncharacter: no file's text holds it
// (readers drop it).
const hiddenMark = '\uFDD0'

// takeMarks removes the hidden marks from s and returns where they stood, as rune offsets.
func takeMarks(s string) (string, []int) {
	var b strings.Builder
	var at []int
	n := 0
	for _, r := range s {
		if r == hiddenMark {
			at = append(at, n)
			continue
		}
		b.WriteRune(r)
		n++
	}
	return b.String(), at
}

// sortHidden orders a paragraph's hidden pieces by their offsets at, which it sorts with them.
func sortHidden(hs []Hidden, at []int) {
	if sort.IntsAreSorted(at) {
		return
	}
	idx := make([]int, len(hs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return at[idx[a]] < at[idx[b]] })
	h2, a2 := make([]Hidden, len(hs)), make([]int, len(at))
	for i, j := range idx {
		h2[i], a2[i] = hs[j], at[j]
	}
	copy(hs, h2)
	copy(at, a2)
}

// roomy reports whether hidden text for reasons why still takes its room on the page: white or
// covered junk, say, leaves a gap, and a space typed in it parts the words on either side; text
// Word's hidden formatting or a field's code hides, or that stands elsewhere, leaves none.
func roomy(why hideSet) bool {
	const none = hideVanish | hideField | hideShape | hideIgnored | hideOffPage | hideClipped
	return why&none == 0
}

// spaceAfterGap returns the space that parts visible text s from the text before it, cur, where
// roomy hidden text with spaces in it stood between them (*gap, which it clears): hidden junk typed
// with the spaces around it would otherwise join the words on either side.
func spaceAfterGap(gap *bool, cur, s string) string {
	if !*gap {
		return ""
	}
	*gap = false
	cur = strings.TrimRight(cur, string(hiddenMark))
	if cur == "" || s == "" || strings.HasSuffix(cur, " ") || strings.HasPrefix(s, " ") || strings.HasSuffix(cur, "\t") {
		return ""
	}
	return " "
}

func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// countRunes counts the runes of s that f holds for.
func countRunes(s string, f func(rune) bool) int {
	n := 0
	for _, r := range s {
		if f(r) {
			n++
		}
	}
	return n
}

func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }
