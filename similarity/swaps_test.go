package similarity

import (
	"slices"
	"testing"
)

// TestSwaps: a character between two seeds that differs from the other text's, with the same
// characters beside it, is a swap; two side by side, gaps of different lengths or longer than
// maxSwapGap, Latin letters and characters that compare as one are not.
func TestSwaps(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want []Swap
	}{
		{"one", "的研究是方法", "的研究的方法", []Swap{{At: 3, From: '的', To: '是', Left: '究', Right: '方'}}},
		{"at the ends", "是研究的方法是", "的研究的方法的", []Swap{{At: 0, From: '的', To: '是', Right: '研'}, {At: 6, From: '的', To: '是', Left: '法'}}},
		{"side by side", "研究探讨方法", "研究分析方法", nil},
		{"lengths differ", "研究是方法", "研究的的方法", nil},
		{"too long", "一二三四五六七八九是", "一二三四五六七八九的", nil},
		{"letters", "abc研究x方法", "abc研究y方法", nil},
		{"traditional", "研究這方法", "研究这方法", nil},
		{"radical", "研究⼈方法", "研究人方法", nil},
	}
	for _, tt := range tests {
		a, b := []rune(tt.a), []rune(tt.b)
		got := Swaps(a, 0, int32(len(a)), b, 0, int32(len(b)))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	// Only the stretch given is compared.
	a, b := []rune("是研究是方法"), []rune("的研究的方法")
	if got := Swaps(a, 1, 5, b, 1, 5); len(got) != 1 || got[0].At != 3 {
		t.Errorf("stretch 1-5: %+v", got)
	}
}

// TestSeedGaps: the stretches between the seeds of a chain where both texts have words between
// them.
func TestSeedGaps(t *testing.T) {
	al := Alignment{Seeds: [][]Seed{{{0, 0}, {1, 1}, {3, 3}, {6, 5}}, {{10, 20}, {12, 21}}}}
	var got [][4]int32
	SeedGaps(al, func(ia, ja, ib, jb int32) { got = append(got, [4]int32{ia, ja, ib, jb}) })
	want := [][4]int32{{2, 3, 2, 3}, {4, 6, 4, 5}}
	if !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

func TestSameChar(t *testing.T) {
	for _, tt := range []struct {
		x, y rune
		want bool
	}{{'鸟', '鸟', true}, {'鳥', '鸟', true}, {'過', '过', true}, {'\u2F08', '人', true}, {'的', '是', false}, {'了', '過', false}} {
		if got := SameChar(tt.x, tt.y); got != tt.want {
			t.Errorf("SameChar(%q, %q) = %v", tt.x, tt.y, got)
		}
	}
}
