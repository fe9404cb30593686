package lcs

import (
	"reflect"
	"testing"
)

func TestPairs(t *testing.T) {
	tests := []struct {
		a, b string
		want [][2]int
	}{
		{"", "abc", nil},
		{"abc", "abc", [][2]int{{0, 0}, {1, 1}, {2, 2}}},
		{"abcbdab", "bdcaba", [][2]int{{1, 0}, {4, 1}, {5, 3}, {6, 4}}}, // "bdab", one of the longest (4)
		{"xay", "zaw", [][2]int{{1, 1}}},
		{"ab", "cd", nil},
	}
	for _, tt := range tests {
		a, b := []rune(tt.a), []rune(tt.b)
		got := Pairs(len(a), len(b), func(i, j int) bool { return a[i] == b[j] })
		for k, p := range got {
			if a[p[0]] != b[p[1]] || (k > 0 && (p[0] <= got[k-1][0] || p[1] <= got[k-1][1])) {
				t.Errorf("%q %q: pair %v is not part of a common subsequence", tt.a, tt.b, p)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q %q: %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
