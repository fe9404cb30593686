package prepare

import (
	"slices"
	"strings"
	"testing"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// TestSwapTally: three source characters each swapped between three different characters on both
// sides, in half their places or more, warn, whatever they were swapped for, each place once;
// fewer, in fewer contexts, or kept as they are in most places, do not.
func TestSwapTally(t *testing.T) {
	// add swaps from → to once in each context of ctx, in paragraph para from offset base.
	add := func(tl *SwapTally, from rune, to string, ctx string, para int, base int32) {
		tos := []rune(to)
		for i, c := range []rune(ctx) {
			tl.Add(similarity.Swap{At: base + int32(i), From: from, To: tos[i%len(tos)], Left: c, Right: c}, para, para+1)
		}
	}
	three := func(tl *SwapTally) {
		add(tl, '的', "是", "甲乙丙丁", 0, 0)
		add(tl, '一', "件", "甲乙丙", 1, 0)
		add(tl, '有', "系", "甲乙丙", 2, 0)
	}
	// kept counts text as copied text of paragraph 5 where the source's characters stand as they are.
	kept := func(tl *SwapTally, text string) {
		tl.Kept(5, []rune(text), [2]int{0, len([]rune(text))}, tl.Suspects())
	}
	tests := []struct {
		name    string
		fill    func(*SwapTally)
		want    int    // characters warned of; 0: no warning
		example string // in the message
	}{
		{"three swapped", three, 10, "的→是 ×4, 一→件 ×3, 有→系 ×3"},
		{"counted once", func(tl *SwapTally) {
			three(tl)
			add(tl, '的', "是", "甲乙丙丁", 0, 0) // the same places, from a second source
		}, 10, "的→是 ×4"},
		{"two", func(tl *SwapTally) {
			add(tl, '的', "是", "甲乙丙丁", 0, 0)
			add(tl, '一', "件", "甲乙丙", 1, 0)
		}, 0, ""},
		{"two contexts", func(tl *SwapTally) {
			add(tl, '的', "是", "甲乙丙丁", 0, 0)
			add(tl, '一', "件", "甲乙丙", 1, 0)
			add(tl, '有', "系", "甲甲乙", 2, 0)
		}, 0, ""},
		{"into one", func(tl *SwapTally) {
			add(tl, '的', "件", "甲乙丙丁", 0, 0)
			add(tl, '一', "件", "甲乙丙", 1, 0)
			add(tl, '有', "件", "甲乙丙", 2, 0)
		}, 10, "的→件 ×4, 一→件 ×3, 有→件 ×3"},
		{"into many", func(tl *SwapTally) {
			add(tl, '的', "是个了", "甲乙丙丁戊己", 0, 0)
			add(tl, '一', "件", "甲乙丙", 1, 0)
			add(tl, '有', "系", "甲乙丙", 2, 0)
		}, 12, "的→个/了/是 ×6"},
		{"kept elsewhere", func(tl *SwapTally) {
			three(tl)
			kept(tl, "的的的的的一") // 的 swapped in 4 places of 9
		}, 0, ""},
		{"kept less", func(tl *SwapTally) {
			three(tl)
			kept(tl, "的的的的一一一有有有是件系") // each swapped in half its places or more
		}, 10, "的→是 ×4"},
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
			!strings.Contains(w.Message, tt.example)) {
			t.Errorf("%s: %+v", tt.name, w)
		}
	}
	// A place swapped is not kept, though the character there is a suspect one (swapped in).
	var tl SwapTally
	three(&tl)
	add(&tl, '是', "的", "甲乙丙丁戊", 3, 0)
	tl.Kept(3, []rune("的的的的的"), [2]int{0, 5}, tl.Suspects())
	if w, ok := tl.Warning(); !ok || w.Count != 15 {
		t.Errorf("swapped places counted as kept: %v %+v", ok, w)
	}
	var empty SwapTally
	if _, ok := empty.Warning(); ok || empty.Suspects() != nil {
		t.Error("an empty tally warns, or has suspects")
	}
}
