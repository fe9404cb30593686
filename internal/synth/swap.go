package synth

import (
	"cmp"
	"maps"
	"slices"
	"strings"
)

// SwapCommon writes each of the n commonest Han characters of text (ties in code point order) as
// the next of them, the last as the first: what a checker reads of text set in a font made to draw
// a few characters in place of one another. It returns the text so written and, for each of those
// characters, the one written for it.
func SwapCommon(text string, n int) (string, map[rune]rune) {
	counts := map[rune]int{}
	for _, r := range text {
		if r >= 0x4E00 && r <= 0x9FFF {
			counts[r]++
		}
	}
	common := slices.SortedFunc(maps.Keys(counts), func(a, b rune) int { return cmp.Or(counts[b]-counts[a], cmp.Compare(a, b)) })
	common = common[:min(n, len(common))]
	held := map[rune]rune{}
	for i, r := range common {
		held[r] = common[(i+1)%len(common)]
	}
	return strings.Map(func(r rune) rune { return cmp.Or(held[r], r) }, text), held
}
