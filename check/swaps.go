package check

import "thesischeck/similarity"

// swaps returns the characters of the checked paragraph a (its runes and tokens ta) that stand
// alone for others of its source b inside the chains of al (similarity.Swaps), for the swapped
// warning (prepare.SwapTally). b is made runes only where there is a gap to compare: a verbatim
// copy's seeds overlap.
func swaps(a []rune, b string, ta, tb []similarity.Token, al similarity.Alignment) []similarity.Swap {
	var rb []rune
	var out []similarity.Swap
	similarity.SeedGaps(al, func(ia, ja, ib, jb int32) {
		a0, a1, b0, b1 := ta[ia].End, ta[ja].Start, tb[ib].End, tb[jb].Start
		if a1-a0 != b1-b0 {
			return
		}
		if rb == nil {
			rb = []rune(b)
		}
		out = append(out, similarity.Swaps(a, a0, a1, rb, b0, b1)...)
	})
	return out
}

// keptSpans returns the rune spans of the words of a (its tokens ta) that the seeds of al cover:
// where a copy has its source's characters as they are.
func keptSpans(ta []similarity.Token, al similarity.Alignment) [][2]int {
	words, _ := similarity.SeedSpans(al)
	out := make([][2]int, len(words))
	for i, w := range words {
		out[i] = [2]int{int(ta[w[0]].Start), int(ta[min(int(w[1]), len(ta))-1].End)}
	}
	return out
}

// keptIn are the spans of p where a source of it has its characters as they are (found.kept), merged
// over its matches: where the swaps' source characters are counted as kept
// (prepare.SwapTally.Kept), once each.
func keptIn(p *paragraph) [][2]int {
	var spans [][2]int
	for _, f := range p.matches {
		spans = append(spans, f.kept...)
	}
	return similarity.MergeSpans(spans, 0)
}
