package prepare

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// Swapped characters (similarity.Swap) warn when minSwapChars characters of the sources are each
// swapped between minSwapContexts different characters before them and as many after them, in
// swapShare of the places where copied text has them at all (swapped, or kept as they are). The
// devset's zh S003 (34.8 %) with its ten commonest Han characters permuted among themselves, 18 % of
// its Han characters, reads as words still (the garbled warning passes it) and read 28.9 % with no
// warning: 是 stood for 的 19 times there, between 15 different characters before it and 16 after,
// and 的 was nowhere left as it was. A font can draw one character from several code points, or
// several from one, with two fonts: what a character was swapped for is left free. An editor's
// synonym of a two-character word keeps the other character beside the one changed (文件 → 文档 is
// 档 for 件 after 文, eight times in that S003), and a correction (的 → 地 where an adverb needs it)
// leaves most of the character's places as they were; none of the devset's 21 Chinese submissions,
// lightly and heavily edited, with synonyms, patchwork and traditional characters, had a character
// swapped between three different characters on both sides.
const (
	minSwapChars    = 3
	minSwapContexts = 3
	swapShare       = 0.5
)

// SwapTally gathers the swaps of a document's paragraphs, each place once however many texts it
// was aligned with, then (Suspects, Kept) the places where copied text keeps those characters. The
// zero value is empty.
type SwapTally struct {
	seen  map[[2]int32]bool // paragraph, rune offset
	chars map[rune]*swapped // by the source's character
}

type swapped struct {
	n           int
	kept        int
	into        map[rune]int // what it was swapped for, and how often
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
		t.seen, t.chars = map[[2]int32]bool{}, map[rune]*swapped{}
	}
	t.seen[at] = true
	c := t.chars[s.From]
	if c == nil {
		c = &swapped{into: map[rune]int{}, left: map[rune]bool{}, right: map[rune]bool{}, paras: map[int]bool{}, pages: map[int]bool{}}
		t.chars[s.From] = c
	}
	c.n++
	c.into[s.To]++
	c.left[s.Left], c.right[s.Right], c.paras[para] = true, true, true
	if page > 0 {
		c.pages[page] = true
	}
}

// Suspects are the source characters swapped between enough different characters on both sides:
// the caller counts where copied text keeps them (Kept), once each. Nil when there are none, as
// for nearly every document.
func (t *SwapTally) Suspects() map[rune]bool {
	var out map[rune]bool
	for r, c := range t.chars {
		if min(len(c.left), len(c.right)) >= minSwapContexts {
			if out == nil {
				out = map[rune]bool{}
			}
			out[r] = true
		}
	}
	return out
}

// Kept counts the places of text[span[0]:span[1]], copied text of paragraph para (aligned with a
// source), where it has a suspect character as it is, not where a swap put it there. A paragraph's
// spans are given once: overlapping ones count twice.
func (t *SwapTally) Kept(para int, text []rune, span [2]int, suspects map[rune]bool) {
	for i := max(span[0], 0); i < min(span[1], len(text)); i++ {
		if r := text[i]; suspects[r] && !t.seen[[2]int32{int32(para), int32(i)}] {
			t.chars[r].kept++
		}
	}
}

// Warning is the swapped-characters warning, when the swaps add up to one.
func (t *SwapTally) Warning() (extract.Warning, bool) {
	var froms []rune
	for r, c := range t.chars {
		if min(len(c.left), len(c.right)) >= minSwapContexts && float64(c.n) >= swapShare*float64(c.n+c.kept) {
			froms = append(froms, r)
		}
	}
	if len(froms) < minSwapChars {
		return extract.Warning{}, false
	}
	slices.SortFunc(froms, func(a, b rune) int {
		if d := t.chars[b].n - t.chars[a].n; d != 0 {
			return d
		}
		return int(a - b)
	})
	chars := 0
	paras, pages := map[int]bool{}, map[int]bool{}
	var examples []string
	for _, r := range froms {
		c := t.chars[r]
		chars += c.n
		maps.Copy(paras, c.paras)
		maps.Copy(pages, c.pages)
		if len(examples) < 5 {
			into := slices.SortedFunc(maps.Keys(c.into), func(a, b rune) int {
				if d := c.into[b] - c.into[a]; d != 0 {
					return d
				}
				return int(a - b)
			})
			var to []string
			for _, x := range into[:min(3, len(into))] {
				to = append(to, string(x))
			}
			examples = append(examples, fmt.Sprintf("%c→%s ×%d", r, strings.Join(to, "/"), c.n))
		}
	}
	ps, pgs := slices.Sorted(maps.Keys(paras)), slices.Sorted(maps.Keys(pages))
	return extract.Warning{Kind: extract.WarnSwapped, Count: chars, Pages: pgs, Paragraphs: ps,
		Message: fmt.Sprintf("%d characters of copied text stand for other characters of their sources, wherever the sources have them and whatever stands beside them (%s)%s: a font that draws other characters than the file holds does this (a way to defeat checkers), and so does a tool that swaps words by rote; if the file shows the sources' characters there, what a reader sees was not checked",
			chars, strings.Join(examples, ", "), extract.Where(pgs, ps))}, true
}
