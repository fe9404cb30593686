package prepare

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// Swapped characters (similarity.Swap) warn when minSwapPairs characters of the sources each
// stand swapped for one character in minSwapContexts different characters before it and as many
// after it, that character standing for no other (a font draws one glyph for one character), in
// swapShare of the places where that source character was swapped at all. The devset's zh S003
// (34.8 %) with its ten commonest Han characters permuted among themselves, 18 % of its Han
// characters, reads as words still (the garbled warning passes it) and read 28.9 % with no warning:
// 是 stood for 的 19 times there, between 15 different characters before it and 16 after. An
// editor's synonym of a two-character word keeps the other character (文件 → 文档 is 档 for 件 after
// 文, eight times in that S003), and none of the devset's 21 Chinese submissions, lightly and
// heavily edited, with synonyms, patchwork and traditional characters, had a character swapped the
// same way between three different characters on both sides.
const (
	minSwapPairs    = 3
	minSwapContexts = 3
	swapShare       = 0.75
)

// SwapTally gathers the swaps of a document's paragraphs, each place once however many texts it
// was aligned with. The zero value is empty.
type SwapTally struct {
	seen  map[[2]int32]bool // paragraph, rune offset
	pairs map[[2]rune]*swapPair
	from  map[rune]int           // swaps of each source character
	into  map[rune]map[rune]bool // the source characters each character stood for
}

type swapPair struct {
	n           int
	left, right map[rune]bool
	paras       map[int]bool
	pages       map[int]bool
}

// Add takes swap s of paragraph para (an index, as Garbled's) on page (0 when the format has none).
func (t *SwapTally) Add(s similarity.Swap, para, page int) {
	at := [2]int32{int32(para), s.At}
	if t.seen[at] {
		return
	}
	if t.seen == nil {
		t.seen, t.pairs, t.from, t.into = map[[2]int32]bool{}, map[[2]rune]*swapPair{}, map[rune]int{}, map[rune]map[rune]bool{}
	}
	t.seen[at] = true
	k := [2]rune{s.From, s.To}
	p := t.pairs[k]
	if p == nil {
		p = &swapPair{left: map[rune]bool{}, right: map[rune]bool{}, paras: map[int]bool{}, pages: map[int]bool{}}
		t.pairs[k] = p
	}
	p.n++
	p.left[s.Left], p.right[s.Right], p.paras[para] = true, true, true
	if page > 0 {
		p.pages[page] = true
	}
	t.from[s.From]++
	if t.into[s.To] == nil {
		t.into[s.To] = map[rune]bool{}
	}
	t.into[s.To][s.From] = true
}

// Warning is the swapped-characters warning, when the swaps add up to one.
func (t *SwapTally) Warning() (extract.Warning, bool) {
	var keys [][2]rune
	for k, p := range t.pairs {
		if min(len(p.left), len(p.right)) >= minSwapContexts && float64(p.n) >= swapShare*float64(t.from[k[0]]) &&
			len(t.into[k[1]]) == 1 {
			keys = append(keys, k)
		}
	}
	if len(keys) < minSwapPairs {
		return extract.Warning{}, false
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
		p := t.pairs[k]
		chars += p.n
		maps.Copy(paras, p.paras)
		maps.Copy(pages, p.pages)
		if len(examples) < 5 {
			examples = append(examples, fmt.Sprintf("%c→%c ×%d", k[0], k[1], p.n))
		}
	}
	ps, pgs := slices.Sorted(maps.Keys(paras)), slices.Sorted(maps.Keys(pages))
	return extract.Warning{Kind: extract.WarnSwapped, Count: chars, Pages: pgs, Paragraphs: ps,
		Message: fmt.Sprintf("%d characters of copied text stand for other characters of their sources the same way wherever they occur (%s)%s: a font that draws other characters than the file holds does this (a way to defeat checkers), and so does a tool that swaps words by rote; if the file shows the sources' characters there, what a reader sees was not checked",
			chars, strings.Join(examples, ", "), extract.Where(pgs, ps))}, true
}
