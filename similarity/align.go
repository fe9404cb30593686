package similarity

import (
	"slices"
	"sync"
)

// Grams returns the hash of each word bigram of toks: gram i covers tokens i and i+1. A bigram of
// two stop words says nothing about copying and gets 0, which callers skip.
func Grams(toks []Token) []uint32 {
	if len(toks) < 2 {
		if len(toks) == 1 && !toks[0].Stop {
			return []uint32{gramHash(toks[0].Hash, 0)}
		}
		return nil
	}
	g := make([]uint32, len(toks)-1)
	for i := range g {
		if toks[i].Stop && toks[i+1].Stop {
			continue
		}
		g[i] = gramHash(toks[i].Hash, toks[i+1].Hash)
	}
	return g
}

func gramHash(a, b uint32) uint32 {
	h := uint32(mix64(uint64(a)<<32 | uint64(b)))
	if h == 0 {
		h = 1
	}
	return h
}

// Winnow selects the grams a library keeps in its index: the smallest hash of every window of w
// consecutive grams (Schleimer, Wilkerson and Aiken, 2003). Any run of w+1 words that two texts share
// contains a selected gram, so querying with all grams of a text finds every such run while the index
// holds about 2/(w+1) of the grams. The result is sorted and without duplicates.
func Winnow(grams []uint32, w int) []uint32 {
	var out []uint32
	for i := 0; i+w <= len(grams) || (i == 0 && len(grams) > 0); i++ {
		end := i + w
		if end > len(grams) {
			end = len(grams)
		}
		var min uint32
		for _, g := range grams[i:end] {
			if g != 0 && (min == 0 || g < min) {
				min = g
			}
		}
		// Neighbouring windows mostly share their minimum: keeping it once leaves about 2/(w+1) of
		// the grams to sort instead of all of them.
		if min != 0 && (len(out) == 0 || out[len(out)-1] != min) {
			out = append(out, min)
		}
	}
	return SortedSet(out)
}

// SortedSet sorts s and removes duplicates and zeros, in place.
func SortedSet(s []uint32) []uint32 {
	slices.Sort(s)
	w := 0
	for i, v := range s {
		if v == 0 || (i > 0 && v == s[i-1]) {
			continue
		}
		s[w] = v
		w++
	}
	return s[:w]
}

// AlignOptions tune Align.
type AlignOptions struct {
	// MaxGap is the number of unmatched words allowed between two seeds of one copied run: edits,
	// inserted words and swapped synonyms leave gaps, and a run that bridges them is still one copy.
	MaxGap int
	// MinChars is the fewest characters of matched words (not numbers, punctuation or spaces) a run
	// needs to count as copied.
	MinChars int
	// MinWords is the fewest matched words a run needs.
	MinWords int
	// MinSentenceWords is the fewest words of a run that is a whole sentence of a (from its first
	// word to its last): a short sentence copied whole is a copy, a stock phrase inside a sentence
	// ("the jury failed to reach a verdict") is not. Such a run needs twice MinChars. 0: no exception.
	MinSentenceWords int
	// MaxRepeats bounds the occurrences in b of one bigram that seed: a bigram b repeats more often
	// pairs with its first MaxRepeats occurrences only. Whole documents of repetitive text would
	// otherwise cost time quadratic in their length. 0 means no limit.
	MaxRepeats int
}

// DefaultAlign are the settings the checker uses: runs of at least 13 characters (CNKI's rule of
// thumb for Chinese) and 8 matched words (a short English clause; 6 for a whole sentence), bridging up
// to 6 changed words. No real paragraph repeats a word pair 32 times; a hostile one must not cost
// quadratic time.
var DefaultAlign = AlignOptions{MaxGap: 6, MinChars: 13, MinWords: 8, MinSentenceWords: 6, MaxRepeats: 32}

// Alignment is the copied text shared by two paragraphs, as token index ranges [start, end) in each.
type Alignment struct {
	A, B     [][2]int
	MatchedA int // words of A inside the kept chains
	// Pairs are the kept chains before merging: each chain's token range in a and the range it matched
	// in b, so that a side-by-side view can show which run of b each run of a came from.
	Pairs [][2][2]int
	// Seeds are the seeds of each kept chain, in the order of Pairs: where the run of a meets the run
	// of b word for word, for a caller that cuts a chain where either text changes paragraph.
	Seeds [][]Seed
}

// Seed is a word bigram shared by the two texts: at word I of a and word J of b.
type Seed struct{ I, J int32 }

// chain is a run of seeds that lie along one diagonal of the two texts, give or take MaxGap.
type chain struct {
	seeds  []Seed
	words  int // words of a covered by the seeds
	chars  int // characters of the covered words that are not numbers
	lastI  int32
	lastJ  int32
	coverI int32 // a's words are covered up to here (exclusive)
}

// Align finds the runs of a that are copied from b, tolerant of reordered sentences, inserted and
// deleted words and swapped synonyms. Seeds are shared word bigrams (not both stop words). Seeds are
// chained when they follow each other in both texts with at most MaxGap words between them and a
// similar shift, so words that two unrelated texts share by chance, scattered over both, never add
// up to a run; each sentence moved elsewhere forms a chain of its own. Chains with too few words or
// characters are dropped; the rest, merged where they touch, are the copied runs.
func Align(a, b []Token, opt AlignOptions) Alignment {
	return AlignGrams(a, b, Grams(a), Grams(b), opt)
}

// AlignGrams is Align for a caller that has the paragraphs' Grams already: a check aligns each
// paragraph with a dozen candidates.
func AlignGrams(a, b []Token, ga, gb []uint32, opt AlignOptions) Alignment {
	if len(ga) == 0 || len(gb) == 0 {
		return Alignment{}
	}
	pos := newGramPositions(gb, opt.MaxRepeats)
	defer pos.release()
	gap := int32(opt.MaxGap)
	var chains []*chain
	var open []*chain // chains that may still grow: their last seed is within reach of i
	for i, g := range ga {
		if g == 0 {
			continue
		}
		i := int32(i)
		w := 0
		for _, c := range open {
			if i-c.lastI <= gap+1 {
				open[w] = c
				w++
			}
		}
		open = open[:w]
		for j := pos.first(g); j >= 0; j = pos.next[j] {
			var best *chain
			bestShift := gap + 1
			for _, c := range open {
				di, dj := i-c.lastI, j-c.lastJ
				if di <= 0 || dj <= 0 || dj > gap+2 {
					continue
				}
				if shift := abs32(dj - di); shift < bestShift {
					best, bestShift = c, shift
				}
			}
			if best == nil {
				best = &chain{coverI: i}
				chains = append(chains, best)
				open = append(open, best)
			}
			best.seeds = append(best.seeds, Seed{i, j})
			from := max(i, best.coverI)
			for k := from; k < i+2 && int(k) < len(a); k++ {
				if !a[k].Num {
					best.chars += int(a[k].End - a[k].Start)
				}
			}
			best.words += int(i + 2 - from)
			best.coverI = i + 2
			best.lastI, best.lastJ = i, j
		}
	}
	var ra, rb [][2]int
	var seeds [][]Seed
	matched := 0
	for _, c := range chains {
		first, last := c.seeds[0], c.seeds[len(c.seeds)-1]
		endA := min(int(last.I)+2, len(a))
		if !opt.keep(c, a[first.I], a[endA-1]) {
			continue
		}
		matched += c.words
		lo, hi := first.J, last.J
		for _, s := range c.seeds {
			lo, hi = min(lo, s.J), max(hi, s.J)
		}
		startA, startB, endB := int(first.I), int(lo), min(int(hi)+2, len(b))
		// Words both texts have at a run's edges join it: stop words seed nothing, so a copied
		// sentence's first "在" or last "的" was left out of it.
		if first.J == lo {
			for startA > 0 && startB > 0 && a[startA-1].Hash == b[startB-1].Hash {
				startA, startB = startA-1, startB-1
			}
		}
		if last.J == hi {
			for endA < len(a) && endB < len(b) && a[endA].Hash == b[endB].Hash {
				endA, endB = endA+1, endB+1
			}
		}
		ra = append(ra, [2]int{startA, endA})
		rb = append(rb, [2]int{startB, endB})
		seeds = append(seeds, c.seeds)
	}
	if len(ra) == 0 {
		return Alignment{}
	}
	pairs := make([][2][2]int, len(ra))
	for k := range ra {
		pairs[k] = [2][2]int{ra[k], rb[k]}
	}
	return Alignment{A: MergeSpans(ra, opt.MaxGap), B: MergeSpans(rb, opt.MaxGap), MatchedA: matched, Pairs: pairs, Seeds: seeds}
}

// gramPositions finds where each gram of a paragraph stands: an open-addressing table of grams
// (already hashes, so their low bits are the slot), each with its positions chained in increasing
// order. Most alignments are of candidates that share a gram or two with the query and nothing
// more: a map built for each of them was a tenth of a check's CPU, sorted pairs half of that.
type gramPositions struct {
	keys       []uint32 // the gram in each slot, 0 for an empty one
	head, tail []int32  // first and last position of the slot's gram
	count      []int32  // positions chained for the slot's gram
	next       []int32  // the next position of the same gram, -1 after the last
	used       []int32  // slots in use, to clear them
	mask       uint32
	maxRepeats int32
}

var positionsPool = sync.Pool{New: func() any { return new(gramPositions) }}

// newGramPositions indexes grams, keeping the first maxRepeats positions of each (all when
// maxRepeats ≤ 0). Give it back with release.
func newGramPositions(grams []uint32, maxRepeats int) *gramPositions {
	p := positionsPool.Get().(*gramPositions)
	size := 16
	for size < 2*len(grams) {
		size *= 2
	}
	if len(p.keys) < size {
		p.keys = make([]uint32, size)
		p.head, p.tail, p.count = make([]int32, size), make([]int32, size), make([]int32, size)
	}
	p.mask = uint32(size - 1)
	p.maxRepeats = int32(maxRepeats)
	p.next = append(p.next[:0], make([]int32, len(grams))...)
	for j, g := range grams {
		p.next[j] = -1
		if g == 0 {
			continue
		}
		k := p.slot(g)
		switch {
		case p.keys[k] == 0:
			p.keys[k] = g
			p.head[k], p.tail[k], p.count[k] = int32(j), int32(j), 1
			p.used = append(p.used, int32(k))
		case p.maxRepeats <= 0 || p.count[k] < p.maxRepeats:
			p.next[p.tail[k]] = int32(j)
			p.tail[k] = int32(j)
			p.count[k]++
		}
	}
	return p
}

// slot is where g is, or the empty slot where it would go.
func (p *gramPositions) slot(g uint32) uint32 {
	k := g & p.mask
	for p.keys[k] != 0 && p.keys[k] != g {
		k = (k + 1) & p.mask
	}
	return k
}

// first is the first position of g, -1 when it is absent; next[j] follows.
func (p *gramPositions) first(g uint32) int32 {
	if k := p.slot(g); g != 0 && p.keys[k] == g {
		return p.head[k]
	}
	return -1
}

func (p *gramPositions) release() {
	for _, k := range p.used {
		p.keys[k] = 0
	}
	p.used = p.used[:0]
	positionsPool.Put(p)
}

// keep reports whether a chain that starts at word first and ends at word last is long enough to
// count as copied.
func (opt AlignOptions) keep(c *chain, first, last Token) bool {
	if c.words >= opt.MinWords && c.chars >= opt.MinChars {
		return true
	}
	return opt.MinSentenceWords > 0 && c.words >= opt.MinSentenceWords && c.chars >= 2*opt.MinChars &&
		first.Sentence&SentenceStart != 0 && last.Sentence&SentenceEnd != 0
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// RuneSpans turns token runs into rune offsets [start, end) of the original text.
func RuneSpans(t []Token, rs [][2]int) [][2]int {
	out := make([][2]int, 0, len(rs))
	for _, r := range rs {
		out = append(out, [2]int{int(t[r[0]].Start), int(t[r[1]-1].End)})
	}
	return out
}

// GramJaccardSet is the Jaccard similarity of two paragraphs' sets of word bigrams, the first's
// as SortedSet made them: a check compares one paragraph with many and sorts its bigrams once.
func GramJaccardSet(sa, b []uint32) float64 {
	sb := SortedSet(slices.Clone(b))
	if len(sa) == 0 && len(sb) == 0 {
		return 0
	}
	i, j, inter := 0, 0, 0
	for i < len(sa) && j < len(sb) {
		switch {
		case sa[i] == sb[j]:
			inter++
			i++
			j++
		case sa[i] < sb[j]:
			i++
		default:
			j++
		}
	}
	return float64(inter) / float64(len(sa)+len(sb)-inter)
}
