package check

import (
	"cmp"
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"thesischeck/extract"
	"thesischeck/internal/synth"
	"thesischeck/report"
	"thesischeck/similarity"
)

// TestSwaps: the characters by which a copy differs from its source one at a time, between
// characters of the source's, inside a copied run; not two characters changed side by side (a
// synonym), nor a verbatim copy.
func TestSwaps(t *testing.T) {
	seg, err := similarity.Default()
	if err != nil {
		t.Fatal(err)
	}
	const src = "城市湿地是许多水鸟迁徙途中的重要停歇地，也是城市居民亲近自然的去处。近年来，随着城市扩张，湿地面积不断减少，水质也受到了污染。"
	tests := []struct {
		name, copy string
		want       []string // source character, then the copy's, at each swap
	}{
		{"verbatim", src, nil},
		{"one swapped", strings.Replace(src, "重要停歇地", "重要停歇是", 1), []string{"地是"}},
		{"two swapped", strings.Replace(strings.Replace(src, "水鸟迁徙途中的", "水鸟迁徙途中是", 1), "不断减少", "不断减小", 1), []string{"的是", "少小"}},
		{"side by side", strings.Replace(src, "亲近自然", "接触自然", 1), nil},
	}
	for _, tt := range tests {
		a, b := similarity.Normalize(tt.copy), similarity.Normalize(src)
		ta, tb := seg.Tokens(a), seg.Tokens(b)
		al := similarity.Align(ta, tb, similarity.DefaultAlign)
		var got []string
		for _, s := range swaps([]rune(tt.copy), src, ta, tb, al) {
			if []rune(tt.copy)[s.At] != s.To {
				t.Errorf("%s: swap at %d is %c, the copy has %c", tt.name, s.At, s.To, []rune(tt.copy)[s.At])
			}
			got = append(got, string([]rune{s.From, s.To}))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: swaps %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestSwappedCharacters: the library's Chinese paragraphs copied through a font that draws its
// commonest characters as one another (the file holds each as the next of them), or through fonts
// that draw three of them from one code point, warn of swapped characters; copied as they are,
// with each of their commonest two-character words changed in one character (an editor's
// synonyms), or with their three commonest characters changed at a third of their places (an
// editor's corrections), they do not.
func TestSwappedCharacters(t *testing.T) {
	lib := newLibrary(t)
	var paras []string
	for _, data := range zhLibrary(t) {
		for _, p := range strings.Split(data, "\n\n") {
			if p = strings.TrimSpace(p); len([]rune(p)) >= 60 && !strings.Contains(p, "声明") {
				paras = append(paras, p)
			}
		}
	}
	text := strings.Join(paras, "\n\n")
	common := commonest(text, func(rs []rune) bool { return len(rs) == 1 }, 3)
	pairs := commonest(text, func(rs []rune) bool { return len(rs) == 2 }, 5)
	check := func(name string, mapping func(string) string) (*report.Report, *report.Warning) {
		r := checkData(t, lib, nil, name+".txt", []byte(mapping(text)+"\n"))
		checkInvariants(t, r)
		return r, warning(r, extract.WarnSwapped)
	}

	verbatim, w := check("verbatim", func(s string) string { return s })
	if w != nil || verbatim.Similarity < 0.9 {
		t.Errorf("verbatim: similarity %.3f, swapped %+v", verbatim.Similarity, w)
	}
	r, w := check("cipher", func(s string) string { swapped, _ := synth.SwapCommon(s, 6); return swapped })
	_, cipher := synth.SwapCommon(text, 6)
	if w == nil || w.Count < 9 || len(w.Paragraphs) < 2 || r.Similarity >= verbatim.Similarity {
		t.Errorf("the six commonest characters each drawn as the next (%q): similarity %.3f, swapped %+v", cipher, r.Similarity, w)
	} else {
		for _, p := range w.Paragraphs {
			if !strings.ContainsFunc(r.Paragraphs[p].Text, func(c rune) bool { _, ok := cipher[c]; return ok }) {
				t.Errorf("paragraph %d named holds no swapped character: %s", p, r.Paragraphs[p].Text)
			}
		}
	}
	// Synonyms: the second character of each common two-character word, changed the same way
	// wherever the word stands.
	_, w = check("synonyms", func(s string) string {
		for i, p := range pairs {
			s = strings.ReplaceAll(s, string(p), string([]rune{p[0], '甲' + rune(i)}))
		}
		return s
	})
	if w != nil {
		t.Errorf("the %d commonest words %q with a character changed: swapped %+v", len(pairs), pairs, w)
	}
	// Three characters drawn from one code point, with as many fonts: each is swapped.
	r, w = check("one code", func(s string) string {
		return strings.Map(func(c rune) rune {
			if c == common[0][0] || c == common[1][0] || c == common[2][0] {
				return '乙'
			}
			return c
		}, s)
	})
	if w == nil || !strings.Contains(w.Message, string(common[0])+"→乙") {
		t.Errorf("three characters %q written as one: similarity %.3f, swapped %+v", common[:3], r.Similarity, w)
	}
	// An editor's corrections: the three commonest characters each changed at a third of their
	// places (where the sentence wants another), kept as they are at the others.
	_, w = check("corrections", func(s string) string {
		seen := map[rune]int{}
		return strings.Map(func(c rune) rune {
			for i, x := range common[:3] {
				if c == x[0] {
					if seen[c]++; seen[c]%3 == 0 {
						return '丙' + rune(i)
					}
				}
			}
			return c
		}, s)
	})
	if w != nil {
		t.Errorf("the three commonest characters changed at a third of their places: swapped %+v", w)
	}
}

// TestSwappedPDF: testdata/swapped/swapped.pdf shows the library's Chinese paragraphs while its font
// draws six common characters in place of one another (make.sh): the check reads the swapped text
// and says so, on the page that holds it, without calling it garbled (it reads as words).
func TestSwappedPDF(t *testing.T) {
	r, err := File(context.Background(), newLibrary(t), "testdata/swapped/swapped.pdf", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := warning(r, extract.WarnSwapped)
	if w == nil || w.Count < 9 || !slices.Equal(w.Pages, []int{1}) || garbled(r) != nil {
		t.Errorf("similarity %.3f, warnings %+v", r.Similarity, r.Warnings)
	}
	if w != nil && !strings.Contains(w.Message, "的→") {
		t.Errorf("the commonest character's swap is not among the examples: %s", w.Message)
	}
}

// zhLibrary returns the texts of the test library's Chinese documents.
func zhLibrary(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, f := range []string{"zh-wetland.txt", "zh-library.txt", "zh-tea.txt"} {
		data, err := os.ReadFile(filepath.Join(libDir, f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(data))
	}
	return out
}

// commonest returns the n commonest Han character strings of text that keep says are of the
// length wanted: single characters, or two in a row.
func commonest(text string, keep func([]rune) bool, n int) [][]rune {
	counts := map[string]int{}
	rs := []rune(text)
	for i := range rs {
		for j := i + 1; j <= min(i+2, len(rs)); j++ {
			if w := rs[i:j]; keep(w) && !strings.ContainsFunc(string(w), func(c rune) bool { return c < 0x4E00 || c > 0x9FFF }) {
				counts[string(w)]++
			}
		}
	}
	ws := slices.SortedFunc(maps.Keys(counts), func(a, b string) int { return cmp.Or(counts[b]-counts[a], strings.Compare(a, b)) })
	var out [][]rune
	for _, w := range ws[:min(n, len(ws))] {
		out = append(out, []rune(w))
	}
	return out
}
