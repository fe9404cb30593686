package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"thesischeck/extract"
	"thesischeck/report"
	"thesischeck/similarity"
)

// A font that draws other characters than the file holds ("字体加密") can be made for a few common
// characters only: the text as read then still reads as words (similarity.Wordiness passes it), and
// the copied runs break at every swapped character. The devset's zh S003 (34.8 %) with its ten
// commonest Han characters permuted among themselves, 18 % of its Han characters, read 28.9 % with
// no warning. What gives it away is the alignment with the sources: where a copied run goes on
// after one character, that character stands for the source's, the same way wherever it occurs,
// in words of every kind (是 for 的 19 times there, between 15 different characters before it and
// 16 after). An editor's changes are not so: a synonym of a two-character word keeps the other
// character (文件 → 文档 is 档 for 件 after 文, eight times in that S003), and the devset's 21
// Chinese submissions, lightly and heavily edited, with synonyms, patchwork and traditional
// characters, had no character swapped the same way between three different characters on both
// sides.

// swap is a character of a checked paragraph that stands alone for another of its source in a
// copied run: the characters on either side are the source's.
type swap struct {
	at          int32 // rune offset in the checked paragraph
	from, to    rune  // the source's character, the checked paragraph's
	left, right rune  // the characters beside it (0 at an end of the paragraph)
}

// maxSwapGap bounds the characters between two seeds of a chain that are compared one by one: a
// swapped character breaks the word pairs on both sides, and the words around it.
const maxSwapGap = 8

// swaps returns the single characters by which the checked paragraph a (its runes and
// tokens ta) differs from its source b inside the chains of al: between two seeds where both
// texts have as many characters. b is a string, made runes only where there is such a gap (a
// verbatim copy's seeds overlap).
func swaps(a []rune, b string, ta, tb []similarity.Token, al similarity.Alignment) []swap {
	var rb []rune
	var out []swap
	for _, seeds := range al.Seeds {
		for k := 1; k < len(seeds); k++ {
			s1, s2 := seeds[k-1], seeds[k]
			if s2.I <= s1.I+1 || s2.J <= s1.J+1 {
				continue
			}
			a0, a1 := ta[s1.I+1].End, ta[s2.I].Start
			b0, b1 := tb[s1.J+1].End, tb[s2.J].Start
			n := a1 - a0
			if n <= 0 || n > maxSwapGap || b1-b0 != n || int(a1) > len(a) {
				continue
			}
			if rb == nil {
				rb = []rune(b)
			}
			if int(b1) > len(rb) {
				continue
			}
			for i := a0; i < a1; i++ {
				x, y := rb[b0+i-a0], a[i]
				if x == y || !similarity.IsCJK(x) || !similarity.IsCJK(y) ||
					i > a0 && !sameChar(a[i-1], rb[b0+i-a0-1]) || i < a1-1 && !sameChar(a[i+1], rb[b0+i-a0+1]) || sameChar(x, y) {
					continue
				}
				s := swap{at: i, from: x, to: y}
				if i > 0 {
					s.left = a[i-1]
				}
				if int(i)+1 < len(a) {
					s.right = a[i+1]
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// sameChar reports characters a check reads as one: a traditional character and its simplified
// form, a Kangxi radical and its ideograph. A copy in traditional characters is no font's doing.
func sameChar(x, y rune) bool {
	return x == y || slices.Equal(similarity.Normalize(string(x)).Runes, similarity.Normalize(string(y)).Runes)
}

// Swapped characters warn when minSwapPairs source characters each stand swapped for one character
// in minSwapContexts different characters before and after it, that character standing for no
// other (a font draws one glyph for one character), in swapShare of the places where that source
// character was swapped at all.
const (
	minSwapPairs    = 3
	minSwapContexts = 3
	swapShare       = 0.75
)

// swapTally gathers the swaps of a report's paragraphs.
type swapTally struct {
	pairs map[[2]rune]*swapPair
	from  map[rune]int           // swaps of each source character
	into  map[rune]map[rune]bool // the source characters each character stood for
}

type swapPair struct {
	n           int
	left, right map[rune]bool
	paras       []int // report paragraphs, in order
	pages       []int
}

// add takes the swaps of p, report paragraph para, once each however many sources hold them.
func (t *swapTally) add(p *paragraph, para int) {
	var seen map[int32]bool
	for _, f := range p.matches {
		for _, s := range f.swaps {
			if seen[s.at] {
				continue
			}
			if seen == nil {
				seen = map[int32]bool{}
			}
			seen[s.at] = true
			if t.pairs == nil {
				t.pairs, t.from, t.into = map[[2]rune]*swapPair{}, map[rune]int{}, map[rune]map[rune]bool{}
			}
			k := [2]rune{s.from, s.to}
			sp := t.pairs[k]
			if sp == nil {
				sp = &swapPair{left: map[rune]bool{}, right: map[rune]bool{}}
				t.pairs[k] = sp
			}
			sp.n++
			sp.left[s.left], sp.right[s.right] = true, true
			if len(sp.paras) == 0 || sp.paras[len(sp.paras)-1] != para {
				sp.paras = append(sp.paras, para)
				if p.src.Page > 0 {
					sp.pages = append(sp.pages, p.src.Page)
				}
			}
			t.from[s.from]++
			if t.into[s.to] == nil {
				t.into[s.to] = map[rune]bool{}
			}
			t.into[s.to][s.from] = true
		}
	}
}

// warning is the swapped-characters warning, if the swaps add up to one.
func (t *swapTally) warning() (report.Warning, bool) {
	var keys [][2]rune
	for k, sp := range t.pairs {
		if min(len(sp.left), len(sp.right)) >= minSwapContexts && float64(sp.n) >= swapShare*float64(t.from[k[0]]) &&
			len(t.into[k[1]]) == 1 {
			keys = append(keys, k)
		}
	}
	if len(keys) < minSwapPairs {
		return report.Warning{}, false
	}
	slices.SortFunc(keys, func(a, b [2]rune) int {
		if d := t.pairs[b].n - t.pairs[a].n; d != 0 {
			return d
		}
		return int(a[0] - b[0])
	})
	chars := 0
	paras, pages := map[int]bool{}, map[int]bool{}
	var examples []string
	for _, k := range keys {
		sp := t.pairs[k]
		chars += sp.n
		for _, p := range sp.paras {
			paras[p] = true
		}
		for _, p := range sp.pages {
			pages[p] = true
		}
		if len(examples) < 5 {
			examples = append(examples, fmt.Sprintf("%c→%c ×%d", k[0], k[1], sp.n))
		}
	}
	ps, pgs := slices.Sorted(maps.Keys(paras)), slices.Sorted(maps.Keys(pages))
	return report.Warning{Kind: extract.WarnSwapped, Count: chars, Pages: pgs, Paragraphs: ps,
		Message: fmt.Sprintf("%d characters of copied text stand for other characters of their sources the same way wherever they occur (%s)%s: a font that draws other characters than the file holds does this (a way to defeat checkers), and so does a tool that swaps words by rote; if the file shows the sources' characters there, what a reader sees was not checked",
			chars, strings.Join(examples, ", "), extract.Where(pgs, ps))}, true
}
