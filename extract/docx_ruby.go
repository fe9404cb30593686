package extract

import (
	"encoding/xml"
	"strconv"
	"strings"
)

// A phonetic guide (w:ruby, Word's 拼音指南) draws its guide text (w:rt) above its base text
// (w:rubyBase). Pinyin, zhuyin or kana over the characters they spell are no prose, and were left
// out; but a guide holds any text, and a paragraph written as guides over blank bases shows its
// words above an empty line while the checker read the blanks: the copied paragraphs of a thesis
// set so read 0.0 % with no warning. A reader reads the guides as a line of their own over the
// paragraph's, so they are read after its text, as a line: those over a base that shows no
// letters, and those holding Han characters (glosses, or junk over a copy, which then leaves the
// copy whole); a guide that only spells its base's sounds is left out.

// rubyState is the phonetic guide being read, in paragraph p.
type rubyState struct {
	p   *paraBuilder
	hps float64 // the guide text's size (w:hps), points; 0 when not given
	// While its w:rt is open (inGuide), what would be written into p goes into g instead; when it
	// closes, guide is g's visible text and guideHidden its hidden pieces, placed from guide's
	// start (taken). Written into p's line and cut out of it, each guide copied the line so far:
	// a paragraph of 160,000 guides took 4.3 s.
	inGuide     bool
	g           *paraBuilder
	guide       string
	guideHidden []*docxHidden
	taken       bool
	// where the base text begins in p
	baseLine, baseOff int
	nested            int // guides opened inside it, which are left out
}

// rubyStart handles the tags of a phonetic guide; handled is false for any other tag.
func (w *docxWalker) rubyStart(t xml.StartElement, inW func(string) bool) (handled bool) {
	switch t.Name.Local {
	case "ruby":
		if w.ruby != nil {
			w.ruby.nested++
		} else if p := w.top(); p != nil {
			w.ruby = &rubyState{p: p}
		}
	case "hps":
		if r := w.ruby; r != nil && inW("rubyPr") {
			if v, err := strconv.ParseFloat(attr(t, "val"), 64); err == nil && v > 0 {
				r.hps = v / 2
			}
		}
	case "rt":
		r := w.ruby
		if r == nil || r.p != w.top() || r.inGuide || r.taken || r.nested > 0 {
			return false // left out (docxWalker.start)
		}
		r.inGuide, r.g = true, &paraBuilder{outline: -1}
	case "rubyBase":
		if r := w.ruby; r != nil && r.p == w.top() {
			r.baseLine, r.baseOff = len(r.p.lines), r.p.cur.Len()
		}
	default:
		return false
	}
	return true
}

// guideEnd keeps the guide's text, written apart, when its w:rt closes, to be read after the
// paragraph if its base shows it is more than a spelling (rubyEnd).
func (w *docxWalker) guideEnd() {
	r := w.ruby
	if r == nil || !r.inGuide {
		return
	}
	r.inGuide, r.taken = false, true
	r.guide, r.guideHidden, r.g = r.g.cur.String(), r.g.hidden, nil
}

// rubyEnd keeps the guide's text to be read after its paragraph, when its w:ruby closes.
func (w *docxWalker) rubyEnd() {
	r := w.ruby
	if r != nil && r.nested > 0 {
		r.nested--
		return
	}
	w.ruby = nil
	if r == nil || !r.taken {
		return
	}
	p := r.p
	base := "letters" // a base broken over lines is text
	if cur := p.cur.String(); len(p.lines) == r.baseLine && r.baseOff <= len(cur) {
		base = cur[r.baseOff:]
	}
	if !strings.ContainsFunc(base, isLetterOrDigit) || strings.ContainsFunc(r.guide, isHan) {
		p.guides = append(p.guides, rubyGuide{r.guide, r.guideHidden})
	}
}

// rubyGuide is a guide's text read after its paragraph, and its hidden pieces.
type rubyGuide struct {
	text   string
	hidden []*docxHidden
}

// endGuides writes the guides kept for p as a line after its text, their hidden pieces placed in
// it.
func (p *paraBuilder) endGuides() {
	if len(p.guides) == 0 {
		return
	}
	p.breakLine()
	for _, g := range p.guides {
		at := p.cur.Len()
		p.cur.WriteString(g.text)
		for _, h := range g.hidden {
			h.line, h.off, h.seq = len(p.lines), h.off+at, p.nextWrite()
			p.hidden = append(p.hidden, h)
		}
	}
	p.guides = nil
}
