package check

import (
	"context"
	"slices"
	"unicode/utf8"

	"thesischeck/extract"
	"thesischeck/internal/parallel"
	"thesischeck/similarity"
)

// Copied text cut into short paragraphs reads on the page as it did, but no piece is long enough
// to hold a copied run: set in a borderless table of eight characters a cell, or as lines of ten
// characters each ending its paragraph, the copied paragraphs of a thesis 60.4 % copied read
// 0.0 %, with no warning; cells of 20 characters 37.4 %. So runs of short checked paragraphs are
// also read together, as one text, and what that finds is given back to each paragraph: its part
// of the copy, and the part of the source that its words meet.

// fragmentChars: a checked paragraph or a heading of fewer characters is a fragment. Cells of 26 characters
// gave back 57.7 % of the 60.4 % above, each matched on its own.
const fragmentChars = 40

// maxRunRunes bounds a run's text, as extraction bounds a paragraph's (maxParagraphRunes): aligning
// it costs up to the square of its length, and giving each paragraph its part costs its paragraphs
// times the alignment's seeds. 99,000 paragraphs of a character each, in one run: 3.0 s.
const maxRunRunes = 4000

// fragmentRun is a run of fragments, paragraphs first..last, read as text: in each of texts (with
// its offsets), the text of paragraph first+k begins at rune offs[k].
type fragmentRun struct {
	first, last int
	texts       []joinedText
}

type joinedText struct {
	text string
	offs []int
}

// fragmentRuns finds the runs of two or more fragments (checked paragraphs, or headings outside the
// front matter and the reference list) in a row, of one section, that hold at least a shortest
// run's characters together. Their texts are joined as a reader reads them on: with no space
// between CJK characters, and between letters with a space (words in cells or lines of their own)
// and, read again, without one (letters a cell's edge cut a word at: "apt-g|et").
func fragmentRuns(ps []extract.Paragraph, o Options) []fragmentRun {
	var runs []fragmentRun
	fragment := func(p extract.Paragraph) bool {
		// A heading style can look like body text: lines of a copy styled as headings are
		// fragments too, and counted as filed (settle) when they copy running text.
		heading := p.Heading && !p.FrontMatter && p.Section != extract.References
		if !o.checks(p) && !heading {
			return false
		}
		n := similarity.CountStringUpTo(p.Text, fragmentChars)
		return n > 0 && n < fragmentChars
	}
	join := func(ps []extract.Paragraph, spaced bool) (joinedText, bool) {
		var text []rune
		var j joinedText
		cut := false // a space between letters was left out
		for _, p := range ps {
			t := []rune(p.Text)
			if n := len(text); n > 0 && !(similarity.IsCJK(text[n-1]) && similarity.IsCJK(t[0])) {
				if letterOrDigit(text[n-1]) && letterOrDigit(t[0]) && !spaced {
					cut = true
				} else {
					text = append(text, ' ')
				}
			}
			j.offs = append(j.offs, len(text))
			text = append(text, t...)
		}
		j.text = string(text)
		return j, cut
	}
	for i := 0; i < len(ps); {
		j, n := i, 0
		for j < len(ps) && fragment(ps[j]) && ps[j].Section == ps[i].Section && n < maxRunRunes {
			n += utf8.RuneCountInString(ps[j].Text) + 1
			j++
		}
		if j-i < 2 {
			i = max(j, i+1)
			continue
		}
		r := fragmentRun{first: i, last: j - 1}
		spaced, _ := join(ps[i:j], true)
		r.texts = append(r.texts, spaced)
		if tight, cut := join(ps[i:j], false); cut {
			r.texts = append(r.texts, tight)
		}
		if similarity.CountString(spaced.text) >= o.MinRunChars {
			runs = append(runs, r)
		}
		i = j
	}
	return runs
}

// matchFragments reads each run as one paragraph (each way it is joined) and gives each of its
// paragraphs its part of what that finds (pieces).
func (c *checker) matchFragments(ctx context.Context, paras []paragraph, runs []fragmentRun, seg *similarity.Segmenter, weights func(uint32) float32) error {
	pieces := make([][][]found, len(runs))
	err := parallel.For(ctx, len(runs), func(i int) {
		r := runs[i]
		pieces[i] = make([][]found, r.last-r.first+1)
		for _, t := range r.texts {
			joined := paragraph{src: extract.Paragraph{Text: t.text, Section: paras[r.first].src.Section}, checked: true, joined: true,
				prep: seg.PrepareWeighted(t.text, weights)}
			// A copy's runs are extended to sentences within each paragraph: a heading before a
			// copied sentence is no part of it.
			joined.pieces = cutAt(sentencePieces(joined.text()), t.offs)
			for _, f := range c.matchParagraph(&joined) {
				c.figure(&joined, &f) // the pieces give the run's figures
				for k := range pieces[i] {
					lo := t.offs[k]
					// text() keeps the paragraph's runes: runs share no paragraph, so no two
					// goroutines make them.
					if g, ok := f.piece(lo, lo+len(paras[r.first+k].text())); ok {
						pieces[i][k] = append(pieces[i][k], g)
					}
				}
			}
		}
	}, nil)
	if err != nil {
		return err
	}
	for i, r := range runs {
		for k, fs := range pieces[i] {
			paras[r.first+k].matches = append(paras[r.first+k].matches, fs...)
		}
	}
	return c.err
}

// cutAt cuts spans where a paragraph begins (offs).
func cutAt(spans [][2]int, offs []int) [][2]int {
	var out [][2]int
	for _, s := range spans {
		for _, o := range offs {
			if s[0] < o && o < s[1] {
				out = append(out, [2]int{s[0], o})
				s[0] = o
			}
		}
		out = append(out, s)
	}
	return out
}

// piece is the part of f, found in a joined run, that lies in the runes [lo, hi) of it: its spans
// there, moved to the paragraph's own offsets, and the words of the source that the alignment's
// seeds pair with its words (for a piece of punctuation only, what lies between the words paired
// on either side of it).
func (f found) piece(lo, hi int) (found, bool) {
	var spans [][2]int
	var runs []int
	for _, s := range f.spans {
		if a, b := max(s[0], lo), min(s[1], hi); a < b {
			spans = append(spans, [2]int{a - lo, b - lo})
			runs = append(runs, s[1]-s[0])
		}
	}
	if len(spans) == 0 {
		return found{}, false
	}
	var src [][2]int
	before, after := -1, -1 // where the source's words paired before lo end, and after hi begin
	for _, s := range f.seeds {
		switch {
		case s[0][0] < hi && s[0][1] > lo:
			src = append(src, s[1])
		case s[0][1] <= lo:
			before = max(before, s[1][1])
		case after < 0 || s[1][0] < after:
			after = s[1][0]
		}
	}
	if len(src) == 0 && (before >= 0 || after >= 0) {
		// At either end of the copy, as long as the piece.
		if n := utf8.RuneCountInString(f.src.Text); after < 0 {
			after = min(before+hi-lo, n)
		} else if before < 0 {
			before = max(after-(hi-lo), 0)
		}
		if after > before {
			src = append(src, [2]int{before, after})
		}
	}
	g := f
	g.spans, g.runs, g.seeds, g.fragment = spans, runs, nil, true
	if len(src) > 0 {
		g.srcSpans = joinWords([]rune(f.src.Text), similarity.MergeSpans(src, 0))
	}
	return g, true
}

// joinWords joins spans of text (sorted, apart) that only punctuation and spaces stand between.
func joinWords(text []rune, spans [][2]int) [][2]int {
	out := spans[:1]
	for _, s := range spans[1:] {
		last := &out[len(out)-1]
		if !slices.ContainsFunc(text[last[1]:s[0]], letterOrDigit) {
			last[1] = s[1]
			continue
		}
		out = append(out, s)
	}
	return out
}

// seedSpans are an alignment's seeds as rune spans of the two texts, a word at a time: each seed
// pairs a word bigram of a (tokens a) with one of b, its first words and its second.
func seedSpans(a, b []similarity.Token, al similarity.Alignment) [][2][2]int {
	var out [][2][2]int
	word := func(ts []similarity.Token, w int) [2]int { return [2]int{int(ts[w].Start), int(ts[w].End)} }
	for _, chain := range al.Seeds {
		for _, s := range chain {
			for d := 0; d < 2 && int(s.I)+d < len(a) && int(s.J)+d < len(b); d++ {
				out = append(out, [2][2]int{word(a, int(s.I)+d), word(b, int(s.J)+d)})
			}
		}
	}
	return out
}
