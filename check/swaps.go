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
