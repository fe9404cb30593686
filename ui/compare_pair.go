package ui

import (
	"fmt"
	"image/color"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/compare"
	"thesischeck/similarity"
)

// pairView shows two documents side by side: the paragraphs their fragments join, every fragment
// marked word by word (the words both sides have strongly, the words the copier changed pale), the
// current fragment in its own colour, with buttons to go to the next and previous one.
type pairView struct {
	t       tr
	res     *compare.Result
	p       compare.Pair
	cur     int
	words   [][2][][2]int // per fragment, the rune spans of the words both sides have, A's and B's
	sides   [2]*pairSide
	counter *widget.Label
	content fyne.CanvasObject
}

// pairSide is one document's column: its paragraphs that hold fragments, in order.
type pairSide struct {
	doc    int
	scroll *container.Scroll
	box    *fyne.Container
	texts  map[int]*markedText // by paragraph
	row    map[int]fyne.CanvasObject
}

// Colours of the fragments: the current one, the others.
var (
	currentFragment = color.NRGBA{0x1e, 0x88, 0xe5, 0xff}
	otherFragment   = color.NRGBA{0xe5, 0x39, 0x35, 0xff}
)

func newPairView(t tr, res *compare.Result, p compare.Pair) *pairView {
	v := &pairView{t: t, res: res, p: p}
	if seg, err := similarity.Default(); err == nil { // loaded: the comparison used it
		for _, f := range p.Fragments {
			a, b := res.WordMarks(seg, p, f)
			v.words = append(v.words, [2][][2]int{a, b})
		}
	}
	for k, doc := range []int{p.A, p.B} {
		v.sides[k] = v.newSide(k, doc)
	}
	v.counter = widget.NewLabel("")
	prev := widget.NewButtonWithIcon(t.T("cmp.prev"), theme.NavigateBackIcon(), func() { v.show(v.cur - 1) })
	next := widget.NewButtonWithIcon(t.T("cmp.next"), theme.NavigateNextIcon(), func() { v.show(v.cur + 1) })
	next.IconPlacement = widget.ButtonIconTrailingText
	figs := widget.NewLabel(t.T("cmp.pairFig", percent(p.Similarity), percent(p.AShare), percent(p.BShare), len(p.Fragments), p.SharedChars))
	figs.Truncation = fyne.TextTruncateEllipsis
	bar := container.NewBorder(nil, nil, container.NewHBox(prev, v.counter, next), nil, figs)
	column := func(s *pairSide) fyne.CanvasObject {
		head := boldText(docLabel(t, res, s.doc))
		head.Truncation = fyne.TextTruncateEllipsis
		return container.NewBorder(head, nil, nil, nil, s.scroll)
	}
	v.content = container.NewBorder(bar, nil, nil, nil, container.NewGridWithColumns(2, column(v.sides[0]), column(v.sides[1])))
	v.show(0)
	return v
}

func (v *pairView) newSide(k, doc int) *pairSide {
	s := &pairSide{doc: doc, box: container.NewVBox(), texts: map[int]*markedText{}, row: map[int]fyne.CanvasObject{}}
	s.scroll = container.NewVScroll(s.box)
	var paras []int
	for _, f := range v.p.Fragments {
		para := f.APara
		if k == 1 {
			para = f.BPara
		}
		if _, ok := s.texts[para]; !ok {
			s.texts[para] = nil
			paras = append(paras, para)
		}
	}
	sort.Ints(paras)
	for _, para := range paras {
		m := newMarkedText()
		m.onWidth = s.scroll.Refresh
		num := widget.NewLabel(fmt.Sprint(para + 1))
		num.SizeName = theme.SizeNameCaptionText
		num.Importance = widget.LowImportance
		row := container.NewBorder(nil, nil, container.NewVBox(num), nil, m)
		s.texts[para], s.row[para] = m, row
		s.box.Add(row)
		s.box.Add(widget.NewSeparator())
	}
	return s
}

// show makes fragment k the current one: marks it in its colour and scrolls both sides to it.
func (v *pairView) show(k int) {
	n := len(v.p.Fragments)
	if n == 0 {
		v.counter.SetText(v.t.T("cmp.fragment", 0, 0))
		return
	}
	v.cur = (k%n + n) % n
	v.counter.SetText(v.t.T("cmp.fragment", v.cur+1, n))
	for side, s := range v.sides {
		byPara := map[int][]mark{}
		for i, f := range v.p.Fragments {
			para, span := f.APara, f.ASpan
			if side == 1 {
				para, span = f.BPara, f.BSpan
			}
			c := otherFragment
			if i == v.cur {
				c = currentFragment
			}
			byPara[para] = append(byPara[para], v.fragmentMarks(i, side, span, c)...)
		}
		for para, m := range s.texts {
			m.Set(v.res.Documents[s.doc].Paragraphs[para].Text, tidyMarks(byPara[para]), false)
		}
		f := v.p.Fragments[v.cur]
		para := f.APara
		if side == 1 {
			para = f.BPara
		}
		if row := s.row[para]; row != nil {
			s.scroll.Offset = fyne.NewPos(0, row.Position().Y)
			s.scroll.Refresh()
		}
	}
}

// fragmentMarks marks fragment i on one side: its words both sides have strongly, the rest of its
// span pale; without word marks (no segmenter) the whole span.
func (v *pairView) fragmentMarks(i, side int, span [2]int, c color.NRGBA) []mark {
	if i >= len(v.words) || len(v.words[i][side]) == 0 {
		return []mark{{start: span[0], end: span[1], color: c}}
	}
	var out []mark
	at := span[0]
	for _, w := range v.words[i][side] {
		if w[0] > at {
			out = append(out, mark{start: at, end: w[0], color: c, weak: true})
		}
		out = append(out, mark{start: w[0], end: w[1], color: c})
		at = max(at, w[1])
	}
	if at < span[1] {
		out = append(out, mark{start: at, end: span[1], color: c, weak: true})
	}
	return out
}

// tidyMarks sorts marks and cuts overlaps off the later ones (fragments of repeated phrases may
// cover the same words of one side): markedText wants them apart.
func tidyMarks(ms []mark) []mark {
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].start < ms[j].start })
	out := ms[:0]
	end := 0
	for _, m := range ms {
		m.start = max(m.start, end)
		if m.start >= m.end {
			continue
		}
		out = append(out, m)
		end = m.end
	}
	return out
}

// openPair shows a pair side by side in a dialog.
func (s *compareScreen) openPair(p compare.Pair) {
	v := newPairView(s.g.t, s.res, p)
	title := s.g.t.T("cmp.pair", docLabel(s.g.t, s.res, p.A), docLabel(s.g.t, s.res, p.B))
	d := dialog.NewCustom(title, s.g.t.T("common.close"), v.content, s.g.win)
	d.Resize(fyne.NewSize(min(s.g.win.Canvas().Size().Width-40, 1400), min(s.g.win.Canvas().Size().Height-40, 900)))
	d.Show()
	s.pairView = v
	v.show(0) // laid out now: scroll to the first fragment
}
