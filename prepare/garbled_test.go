package prepare

import (
	"slices"
	"strings"
	"testing"

	"thesischeck/extract"
)

func TestGarbledWarning(t *testing.T) {
	if w := GarbledWarning([]Garbled{{1, 120, 2}, {2, 70, 2}}); w != nil {
		t.Errorf("190 characters warned: %+v", w)
	}
	if w := GarbledWarning(nil); w != nil {
		t.Errorf("nothing garbled warned: %+v", w)
	}
	w := GarbledWarning([]Garbled{{1, 120, 2}, {2, 70, 2}, {3, 60, 5}})
	if len(w) != 1 || w[0].Kind != extract.WarnGarbled || w[0].Count != 250 || !slices.Equal(w[0].Pages, []int{2, 5}) ||
		!slices.Equal(w[0].Paragraphs, []int{1, 2, 3}) || !strings.HasPrefix(w[0].Message, "3 paragraphs (250 characters, on pages 2, 5) read as almost no words") {
		t.Fatalf("warning %+v", w)
	}
	// Without pages (a TXT), the paragraphs are named, from 1.
	if w := GarbledWarning([]Garbled{{0, 80, 0}, {1, 120, 0}}); len(w) != 1 || w[0].Pages != nil || !strings.Contains(w[0].Message, "(200 characters, in paragraphs 1, 2)") {
		t.Fatalf("warning %+v", w)
	}
}
