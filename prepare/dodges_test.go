package prepare

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// TestDodgeWarnings: every trick warns from one; spaces between Chinese characters from ten, or one
// in 500 Han characters of a long text; traditional characters from ten; marks on letters from 20
// and one in a hundred characters; narrow spaces inside words and radicals from ten.
func TestDodgeWarnings(t *testing.T) {
	cases := []struct {
		d          similarity.Dodges
		han, chars int
		want       []extract.WarningKind
	}{
		{similarity.Dodges{}, 0, 0, nil},
		{similarity.Dodges{Invisible: 1, Lookalike: 1}, 0, 0, []extract.WarningKind{extract.WarnInvisible, extract.WarnLookalike}},
		{similarity.Dodges{SpacedCJK: 9}, 100, 0, nil},
		{similarity.Dodges{SpacedCJK: 10}, 100, 0, []extract.WarningKind{extract.WarnSpaced}},
		{similarity.Dodges{SpacedCJK: 19}, 10_000, 0, nil},
		{similarity.Dodges{SpacedCJK: 20}, 10_000, 0, []extract.WarningKind{extract.WarnSpaced}},
		{similarity.Dodges{SpacedLetters: 19}, 0, 0, nil},
		{similarity.Dodges{SpacedLetters: 20}, 0, 0, []extract.WarningKind{extract.WarnSpacedLetters}},
		{similarity.Dodges{Traditional: 9}, 100, 0, nil},
		{similarity.Dodges{Traditional: 10}, 100_000, 0, []extract.WarningKind{extract.WarnTraditional}},
		{similarity.Dodges{Interleaved: 9}, 100, 0, nil},
		{similarity.Dodges{Interleaved: 10}, 100, 0, []extract.WarningKind{extract.WarnInterleaved}},
		{similarity.Dodges{Marks: 19}, 0, 100, nil},
		{similarity.Dodges{Marks: 20}, 0, 2000, []extract.WarningKind{extract.WarnMarks}},
		{similarity.Dodges{Marks: 99}, 0, 10_000, nil},
		{similarity.Dodges{Marks: 100}, 500, 10_000, []extract.WarningKind{extract.WarnMarks}},
		{similarity.Dodges{NarrowSpaces: 9}, 0, 100, nil},
		{similarity.Dodges{NarrowSpaces: 10}, 0, 100_000, []extract.WarningKind{extract.WarnNarrowSpaces}},
		{similarity.Dodges{SplitWords: 9}, 0, 100, nil},
		{similarity.Dodges{SplitWords: 10}, 0, 20_000, []extract.WarningKind{extract.WarnSplitWords}},
		{similarity.Dodges{SplitWords: 10}, 0, 20_002, nil},
		{similarity.Dodges{LetterPairs: 9}, 0, 100, nil},
		{similarity.Dodges{LetterPairs: 10}, 0, 100_000, []extract.WarningKind{extract.WarnLookalike}},
		{similarity.Dodges{Radicals: 9}, 100, 100, nil},
		{similarity.Dodges{Radicals: 10}, 100_000, 100_000, []extract.WarningKind{extract.WarnRadicals}},
	}
	for _, c := range cases {
		var got []extract.WarningKind
		for _, w := range DodgeWarnings(c.d, c.han, c.chars) {
			got = append(got, w.Kind)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%+v in %d Han characters: %v, want %v", c.d, c.han, got, c.want)
		}
	}
}

// Letter pairs read as one letter (rn as m) count as look-alikes once there are enough of them.
func TestLetterPairsCountAsLookalikes(t *testing.T) {
	for _, c := range []struct {
		d    similarity.Dodges
		want int
	}{
		{similarity.Dodges{Lookalike: 2, LetterPairs: 9}, 2},
		{similarity.Dodges{Lookalike: 2, LetterPairs: 10}, 12},
	} {
		w := DodgeWarnings(c.d, 0, 1000)
		if len(w) != 1 || w[0].Kind != extract.WarnLookalike || w[0].Count != c.want || !strings.Contains(w[0].Message, fmt.Sprint(c.want)) {
			t.Errorf("%+v: %+v, want one look-alike warning of %d", c.d, w, c.want)
		}
	}
}
