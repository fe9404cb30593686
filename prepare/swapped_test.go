package prepare

import (
	"slices"
	"strings"
	"testing"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// TestSwapTally: three characters each swapped for one other between three different characters
// on both sides warn, with the places once each; fewer, in fewer contexts, swapped into a character
// that stands for two, or swapped one way in only some places, do not.
func TestSwapTally(t *testing.T) {
	// add swaps from → to once in each context of ctx, in paragraph para at offsets from base.
	add := func(tl *SwapTally, from, to rune, ctx string, para int, base int32) {
		for i, c := range []rune(ctx) {
			tl.Add(similarity.Swap{At: base + int32(i), From: from, To: to, Left: c, Right: c}, para, para+1)
		}
	}
	tests := []struct {
		name string
		fill func(*SwapTally)
		want int // characters warned of; 0: no warning
	}{
		{"three swapped", func(tl *SwapTally) {
			add(tl, '的', '是', "甲乙丙丁", 0, 0)
			add(tl, '一', '件', "甲乙丙", 1, 0)
			add(tl, '有', '系', "甲乙丙", 2, 0)
		}, 10},
		{"counted once", func(tl *SwapTally) {
			add(tl, '的', '是', "甲乙丙丁", 0, 0)
			add(tl, '的', '是', "甲乙丙丁", 0, 0) // the same places, from a second source
			add(tl, '一', '件', "甲乙丙", 1, 0)
			add(tl, '有', '系', "甲乙丙", 2, 0)
		}, 10},
		{"two", func(tl *SwapTally) {
			add(tl, '的', '是', "甲乙丙丁", 0, 0)
			add(tl, '一', '件', "甲乙丙", 1, 0)
		}, 0},
		{"two contexts", func(tl *SwapTally) {
			add(tl, '的', '是', "甲乙丙丁", 0, 0)
			add(tl, '一', '件', "甲乙丙", 1, 0)
			add(tl, '有', '系', "甲甲乙", 2, 0)
		}, 0},
		{"into one", func(tl *SwapTally) {
			add(tl, '的', '是', "甲乙丙丁", 0, 0)
			add(tl, '一', '件', "甲乙丙", 1, 0)
			add(tl, '有', '件', "甲乙丙", 2, 0)
			add(tl, '在', '中', "甲乙丙", 3, 0)
		}, 0},
		{"inconsistent", func(tl *SwapTally) {
			add(tl, '的', '是', "甲乙丙丁", 0, 0)
			add(tl, '一', '件', "甲乙丙", 1, 0)
			add(tl, '有', '系', "甲乙丙", 2, 0)
			add(tl, '有', '中', "甲乙", 3, 0) // 有 is 系 in three places of five
		}, 0},
	}
	for _, tt := range tests {
		var tl SwapTally
		tt.fill(&tl)
		w, ok := tl.Warning()
		if got := map[bool]int{true: w.Count}[ok]; got != tt.want {
			t.Errorf("%s: %v %+v, want %d characters", tt.name, ok, w, tt.want)
			continue
		}
		if ok && (w.Kind != extract.WarnSwapped || !slices.Equal(w.Paragraphs, []int{0, 1, 2}) || !slices.Equal(w.Pages, []int{1, 2, 3}) ||
			!strings.Contains(w.Message, "的→是 ×4, 一→件 ×3, 有→系 ×3")) {
			t.Errorf("%s: %+v", tt.name, w)
		}
	}
	var empty SwapTally
	if _, ok := empty.Warning(); ok {
		t.Error("an empty tally warns")
	}
}
