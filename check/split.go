package check

import (
	"context"

	"thesischeck/internal/parallel"
	"thesischeck/library"
	"thesischeck/similarity"
)

// A library paragraph cut in two, with the student's own sentence put between the halves, leaves
// one half in each of two neighbouring paragraphs. The longer half is found as any copy is; the
// other may be shorter than a run needs to be (a closing remark of a few words). Once a neighbour is
// known to copy a source paragraph, the rest of that paragraph — what follows the copied part when
// the neighbour comes before, what precedes it when it comes after — is looked for with a lower
// bar: splitMinChars letters shared near-verbatim, MinChars long or most of that rest.
const (
	splitMinChars = 6
	splitOverlap  = 0.9
)

// continuations credits the halves of split paragraphs to their source (see above); it runs after
// every paragraph has its matches. Each paragraph is looked at on its own, on all cores (it reads its
// neighbours' matches, which change only after): 0.08 s of a 312-page thesis's check on one core.
func (c *checker) continuations(paras []paragraph) {
	add := make([][]found, len(paras))
	parallel.For(context.Background(), len(paras), func(i int) {
		for _, j := range []int{i - 1, i + 1} {
			if j < 0 || j >= len(paras) || !paras[i].checked || !paras[j].checked {
				continue
			}
			for _, f := range paras[j].matches {
				if f.template || hasSource(paras[i].matches, f.ref) || hasSource(add[i], f.ref) {
					continue
				}
				if g, ok := c.continuation(&paras[i], f, j < i); ok {
					add[i] = append(add[i], g)
				}
			}
		}
	}, nil)
	for i, fs := range add {
		paras[i].matches = append(paras[i].matches, fs...)
	}
}

func hasSource(fs []found, ref library.ParaRef) bool {
	for _, f := range fs {
		if f.ref == ref {
			return true
		}
	}
	return false
}

// continuation looks in p for the part of f's source paragraph that f's copy did not take: what
// follows it when after is true (p comes after the paragraph that holds f), what precedes it else.
func (c *checker) continuation(p *paragraph, f found, after bool) (found, bool) {
	src := f.src.Tokens
	first, last := len(src), 0 // the source tokens f covers
	for _, s := range f.srcSpans {
		for k, t := range src {
			if int(t.Start) >= s[0] && int(t.End) <= s[1] {
				first, last = min(first, k), max(last, k+1)
			}
		}
	}
	lo, hi := 0, first
	if after {
		lo, hi = last, len(src)
	}
	if hi-lo < 1 || first >= last {
		return found{}, false
	}
	rest := src[lo:hi]
	opt := c.align
	opt.MinChars, opt.MinWords, opt.MinSentenceWords = splitMinChars, 2, 0
	// p's word pairs are its prep's, not made again for each neighbour's source: Grams of p and of
	// the rest took 23 % of the continuations' CPU (perf, four checks of a 313-page thesis).
	al := similarity.AlignGrams(p.prep.Tokens, rest, p.prep.Grams, similarity.Grams(rest), opt)
	if len(al.Pairs) == 0 { // most: the source's text is not decoded for nothing
		return found{}, false
	}
	ra, rb := p.text(), []rune(f.src.Text)
	var spans, srcSpans [][2]int
	restLetters := letters(rb[rest[0].Start:rest[len(rest)-1].End])
	for _, pr := range al.Pairs {
		// Stop words that seed nothing ("别将" before "它们删得太快了") join the run where both
		// texts have them.
		i0, i1, j0, j1 := pr[0][0], pr[0][1], pr[1][0], pr[1][1]
		for i0 > 0 && j0 > 0 && p.prep.Tokens[i0-1].Hash == rest[j0-1].Hash {
			i0, j0 = i0-1, j0-1
		}
		for i1 < len(p.prep.Tokens) && j1 < len(rest) && p.prep.Tokens[i1].Hash == rest[j1].Hash {
			i1, j1 = i1+1, j1+1
		}
		a, b := p.prep.Tokens[i0:i1], rest[j0:j1]
		s, t := ra[a[0].Start:a[len(a)-1].End], rb[b[0].Start:b[len(b)-1].End]
		n := letters(s)
		if n < splitMinChars || n < c.align.MinChars && 3*letters(t) < 2*restLetters || bigramOverlap(s, t) < splitOverlap {
			continue
		}
		spans = append(spans, [2]int{int(a[0].Start), int(a[len(a)-1].End)})
		srcSpans = append(srcSpans, [2]int{int(b[0].Start), int(b[len(b)-1].End)})
	}
	if len(spans) == 0 {
		return found{}, false
	}
	g := f
	g.spans, g.srcSpans = extendToSentences(ra, p.sentences(), spans), srcSpans
	g.hamming, g.jaccard, g.figured = -1, 0, false // p's own, made by figure
	return g, true
}
