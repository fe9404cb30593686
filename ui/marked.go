package ui

import (
	"image/color"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/report"
)

// mark highlights the runes [start, end) of a text in a source's colour. Fyne's RichText has no
// background colour, so markedText draws its own rectangles behind the words.
type mark struct {
	start, end int
	color      color.NRGBA
	// weak marks are drawn pale and not underlined: the words a copier changed inside a passage
	// copied, around the words that stayed.
	weak bool
	// quoted marks are copied text inside a proper quotation: drawn pale, underlined in the quote
	// colour that the PDF and HTML reports use too.
	quoted bool
}

// quoteColor is report.QuoteColor.
var quoteColor = sourceColor(report.QuoteColor)

// markedText is wrapped text with highlighted ranges. It lays its lines out itself so that a list can
// ask for the height of any paragraph at any width without building widgets (see heightFor).
type markedText struct {
	widget.BaseWidget
	text   []rune
	marks  []mark // sorted by start, not overlapping
	muted  bool   // template or excluded text, drawn grey
	italic bool
	// onWidth runs when the width changes, so a Scroll holding the text can ask for its new height.
	onWidth func()
}

func newMarkedText() *markedText {
	m := &markedText{}
	m.ExtendBaseWidget(m)
	return m
}

// Set replaces the text and marks.
func (m *markedText) Set(text string, marks []mark, muted bool) {
	m.text = []rune(text)
	m.marks = marks
	m.muted = muted
	m.Refresh()
}

func (m *markedText) CreateRenderer() fyne.WidgetRenderer {
	return &markedRenderer{m: m}
}

// Resize tells onWidth when the width changed.
func (m *markedText) Resize(size fyne.Size) {
	old := m.Size().Width
	m.BaseWidget.Resize(size)
	if size.Width != old && m.onWidth != nil {
		m.onWidth()
	}
}

// MinSize is the height at the current width, so the widget grows in a VBox or Scroll.
func (m *markedText) MinSize() fyne.Size {
	w := m.Size().Width
	if w <= 0 {
		w = 400
	}
	return fyne.NewSize(40, textHeight(m.text, w))
}

// textMetrics measures the bundled font once per rune at the app's text size.
type textMetrics struct {
	size   float32
	line   float32 // line height
	glyph  float32 // height of one line of text, centred in line
	widths map[rune]float32
}

var metrics *textMetrics

func currentMetrics() *textMetrics {
	size := theme.TextSize()
	if metrics == nil || metrics.size != size {
		h := fyne.MeasureText("国Ag", size, fyne.TextStyle{}).Height
		metrics = &textMetrics{size: size, line: h * 1.3, glyph: h, widths: map[rune]float32{}}
	}
	return metrics
}

func (tm *textMetrics) advance(r rune) float32 {
	if w, ok := tm.widths[r]; ok {
		return w
	}
	w := fyne.MeasureText(string(r), tm.size, fyne.TextStyle{}).Width
	tm.widths[r] = w
	return w
}

// wrapLines breaks text into lines no wider than width: between any two CJK characters, after
// spaces, and inside a word only when the word alone is too wide. It returns [start, end) rune ranges.
func wrapLines(text []rune, width float32, tm *textMetrics) [][2]int {
	var lines [][2]int
	start, lastBreak := 0, -1
	var x float32
	for i := 0; i < len(text); i++ {
		r := text[i]
		if r == '\n' {
			lines = append(lines, [2]int{start, i})
			start, lastBreak, x = i+1, -1, 0
			continue
		}
		if i > start && (isCJK(r) || isCJK(text[i-1]) || text[i-1] == ' ') {
			lastBreak = i
		}
		w := tm.advance(r)
		if x+w > width && i > start {
			brk := i
			if lastBreak > start && !isCJK(r) && r != ' ' {
				brk = lastBreak
			}
			lines = append(lines, [2]int{start, brk})
			start, lastBreak = brk, -1
			for start < len(text) && text[start] == ' ' {
				start++
			}
			x = 0
			for k := start; k <= i && k < len(text); k++ {
				x += tm.advance(text[k])
			}
			continue
		}
		x += w
	}
	if start < len(text) || len(lines) == 0 {
		lines = append(lines, [2]int{start, len(text)})
	}
	return lines
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		(r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef)
}

// textHeight is the height of text wrapped at width, padding included.
func textHeight(text []rune, width float32) float32 {
	tm := currentMetrics()
	n := len(wrapLines(text, width-2*theme.InnerPadding(), tm))
	return float32(n)*tm.line + 2*theme.InnerPadding()
}

type markedRenderer struct {
	m       *markedText
	objects []fyne.CanvasObject
	texts   []*canvas.Text
	rects   []*canvas.Rectangle
	size    fyne.Size
}

func (r *markedRenderer) Destroy() {}

func (r *markedRenderer) MinSize() fyne.Size { return r.m.MinSize() }

func (r *markedRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *markedRenderer) Refresh() {
	r.build(r.size)
	canvas.Refresh(r.m)
}

func (r *markedRenderer) Layout(size fyne.Size) {
	if size != r.size {
		r.build(size)
	}
}

// build lays the text out at size: per line, a rectangle and underline behind each marked range and
// one canvas.Text per run of equal style.
func (r *markedRenderer) build(size fyne.Size) {
	r.size = size
	m := r.m
	tm := currentMetrics()
	pad := theme.InnerPadding()
	th := m.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	fg := th.Color(theme.ColorNameForeground, v)
	if m.muted {
		fg = th.Color(colorMuted, v)
	}
	nt, nr := 0, 0
	text := func(s string, x, y float32) {
		if nt == len(r.texts) {
			r.texts = append(r.texts, canvas.NewText("", fg))
		}
		t := r.texts[nt]
		nt++
		t.Text, t.Color, t.TextSize = s, fg, tm.size
		t.TextStyle = fyne.TextStyle{Italic: m.italic}
		t.Move(fyne.NewPos(x, y+(tm.line-tm.glyph)/2))
		t.Resize(t.MinSize())
	}
	rect := func(c color.Color, x, y, w, h float32) {
		if nr == len(r.rects) {
			r.rects = append(r.rects, canvas.NewRectangle(c))
		}
		b := r.rects[nr]
		nr++
		b.FillColor = c
		b.Move(fyne.NewPos(x, y))
		b.Resize(fyne.NewSize(w, h))
	}
	width := size.Width - 2*pad
	if width <= 0 {
		width = 400
	}
	y := pad
	for _, ln := range wrapLines(m.text, width, tm) {
		x := pad
		for _, run := range splitRuns(ln, m.marks) {
			var w float32
			for _, c := range m.text[run.start:run.end] {
				w += tm.advance(c)
			}
			if run.mark != nil {
				c := run.mark.color
				switch {
				case run.mark.weak:
					rect(color.NRGBA{c.R, c.G, c.B, 0x22}, x, y+1, w, tm.line-2)
				case run.mark.quoted:
					rect(color.NRGBA{c.R, c.G, c.B, 0x28}, x, y+1, w, tm.line-2)
					rect(quoteColor, x, y+tm.line-3, w, 2)
				default:
					rect(color.NRGBA{c.R, c.G, c.B, 0x5a}, x, y+1, w, tm.line-2)
					rect(c, x, y+tm.line-3, w, 2)
				}
			}
			text(string(m.text[run.start:run.end]), x, y)
			x += w
		}
		y += tm.line
	}
	r.objects = r.objects[:0]
	for _, b := range r.rects[:nr] {
		r.objects = append(r.objects, b)
	}
	for _, t := range r.texts[:nt] {
		r.objects = append(r.objects, t)
	}
}

// textRun is a piece of one line inside or outside a mark.
type textRun struct {
	start, end int
	mark       *mark
}

func splitRuns(line [2]int, marks []mark) []textRun {
	var out []textRun
	pos := line[0]
	for i := range marks {
		mk := &marks[i]
		if mk.end <= pos || mk.start >= line[1] {
			continue
		}
		s, e := max(mk.start, pos), min(mk.end, line[1])
		if s > pos {
			out = append(out, textRun{pos, s, nil})
		}
		out = append(out, textRun{s, e, mk})
		pos = e
	}
	if pos < line[1] || len(out) == 0 {
		out = append(out, textRun{pos, line[1], nil})
	}
	return out
}
