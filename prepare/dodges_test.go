package prepare

import (
	"slices"
	"testing"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// TestDodgeWarnings: every trick warns from one; spaces between Chinese characters from ten, or one
// in 500 Han characters of a long text; traditional characters from ten.
func TestDodgeWarnings(t *testing.T) {
	cases := []struct {
		d    similarity.Dodges
		han  int
		want []extract.WarningKind
	}{
		{similarity.Dodges{}, 0, nil},
		{similarity.Dodges{Invisible: 1, Lookalike: 1}, 0, []extract.WarningKind{extract.WarnInvisible, extract.WarnLookalike}},
		{similarity.Dodges{SpacedCJK: 9}, 100, nil},
		{similarity.Dodges{SpacedCJK: 10}, 100, []extract.WarningKind{extract.WarnSpaced}},
		{similarity.Dodges{SpacedCJK: 19}, 10_000, nil},
		{similarity.Dodges{SpacedCJK: 20}, 10_000, []extract.WarningKind{extract.WarnSpaced}},
		{similarity.Dodges{SpacedLetters: 19}, 0, nil},
		{similarity.Dodges{SpacedLetters: 20}, 0, []extract.WarningKind{extract.WarnSpacedLetters}},
		{similarity.Dodges{Traditional: 9}, 100, nil},
		{similarity.Dodges{Traditional: 10}, 100_000, []extract.WarningKind{extract.WarnTraditional}},
	}
	for _, c := range cases {
		var got []extract.WarningKind
		for _, w := range DodgeWarnings(c.d, c.han) {
			got = append(got, w.Kind)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%+v in %d Han characters: %v, want %v", c.d, c.han, got, c.want)
		}
	}
}
