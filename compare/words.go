package compare

import (
	"sort"

	"thesischeck/internal/lcs"
	"thesischeck/similarity"
)

// maxWordCells bounds the table of the word-level comparison of a fragment (words of one side times
// words of the other); a longer fragment marks the words found anywhere on the other side instead.
const maxWordCells = 1 << 20

// WordMarks compares the two sides of fragment f of pair p word by word and returns, for each side,
// the rune spans (into its paragraph's text) of the words that stand in both, in order: their
// longest common subsequence by normalised word. What is left unmarked inside a fragment is what the
// copier changed. seg is similarity.Default(), loaded.
func (r *Result) WordMarks(seg *similarity.Segmenter, p Pair, f Fragment) (a, b [][2]int) {
	ta, offA, okA := r.fragmentTokens(seg, p.A, f.APara, f.ASpan)
	tb, offB, okB := r.fragmentTokens(seg, p.B, f.BPara, f.BSpan)
	if !okA || !okB || len(ta) == 0 || len(tb) == 0 {
		return nil, nil
	}
	inA, inB := commonWords(ta, tb)
	return wordSpans(ta, inA, offA), wordSpans(tb, inB, offB)
}

// fragmentTokens segments one side of a fragment; it says false for a span outside the paragraph.
func (r *Result) fragmentTokens(seg *similarity.Segmenter, doc, para int, sp [2]int) ([]similarity.Token, int, bool) {
	if doc < 0 || doc >= len(r.Documents) || para < 0 || para >= len(r.Documents[doc].Paragraphs) {
		return nil, 0, false
	}
	text := []rune(r.Documents[doc].Paragraphs[para].Text)
	if sp[0] < 0 || sp[0] >= sp[1] || sp[1] > len(text) {
		return nil, 0, false
	}
	return seg.UnweightedTokens(similarity.Normalize(string(text[sp[0]:sp[1]]))), sp[0], true
}

// commonWords marks the words of a and b in their longest common subsequence, or, when the two are
// too long for the table, the words of each found anywhere in the other.
func commonWords(a, b []similarity.Token) ([]bool, []bool) {
	inA, inB := make([]bool, len(a)), make([]bool, len(b))
	if len(a)*len(b) > maxWordCells {
		has := func(ts []similarity.Token) map[uint32]bool {
			m := map[uint32]bool{}
			for _, t := range ts {
				m[t.Hash] = true
			}
			return m
		}
		ha, hb := has(a), has(b)
		for i, t := range a {
			inA[i] = hb[t.Hash]
		}
		for j, t := range b {
			inB[j] = ha[t.Hash]
		}
		return inA, inB
	}
	for _, p := range lcs.Pairs(len(a), len(b), func(i, j int) bool { return a[i].Hash == b[j].Hash }) {
		inA[p[0]], inB[p[1]] = true, true
	}
	return inA, inB
}

// wordSpans joins the marked words into rune spans, offset by off; words next to each other (only
// spaces or punctuation between) make one span.
func wordSpans(ts []similarity.Token, in []bool, off int) [][2]int {
	var out [][2]int
	for i, t := range ts {
		if !in[i] {
			continue
		}
		s := [2]int{off + int(t.Start), off + int(t.End)}
		if n := len(out); n > 0 && i > 0 && in[i-1] {
			out[n-1][1] = s[1]
			continue
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
