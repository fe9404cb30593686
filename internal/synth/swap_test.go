package synth

import "testing"

func TestSwapCommon(t *testing.T) {
	got, held := SwapCommon("的的的是是在 a的", 2)
	if want := "是是是的的在 a是"; got != want || len(held) != 2 || held['的'] != '是' || held['是'] != '的' {
		t.Errorf("%q %q, want %q", got, held, want)
	}
	// Ties in code point order: 在 (U+5728) before 的 (U+7684).
	if got, _ := SwapCommon("的在", 2); got != "在的" {
		t.Errorf("ties: %q", got)
	}
	if got, held := SwapCommon("abc", 3); got != "abc" || len(held) != 0 {
		t.Errorf("no Han: %q %v", got, held)
	}
}
