package check

import (
	"unicode"

	"thesischeck/similarity"
)

// Evidence: an alignment of two paragraphs is taken as copying when it holds a run that really is
// in the source (MinChars or more whose character bigrams the source run shares at closeOverlap or
// more), a long run (longRun × MinChars, however reworded: a paraphrased sentence), or two runs.
// One short run that only resembles its source — an instruction two manuals word alike, "请先按住
// Ctrl 键，然后单击页码字段" against "按住 Ctrl 键的同时单击该字段" — is no reason to flag a paragraph.
// Copied sentences with a word or two swapped keep three quarters of their bigrams and more.
const (
	closeOverlap = 0.75
	longRun      = 2
)

// convincing reports whether an alignment of a (text ra) with b (text textB) is evidence of
// copying. textB is made runes only for a single run: most alignments have two or more.
func (c *checker) convincing(ra []rune, textB string, a, b []similarity.Token, al similarity.Alignment) bool {
	if len(al.A) >= 2 {
		return true
	}
	var rb []rune
	for _, run := range al.A {
		lo, hi := -1, -1 // the source tokens the run's chains matched
		for _, p := range al.Pairs {
			if p[0][0] >= run[0] && p[0][1] <= run[1] {
				if lo < 0 || p[1][0] < lo {
					lo = p[1][0]
				}
				hi = max(hi, p[1][1])
			}
		}
		if lo < 0 {
			return true // no chain to measure it by: keep what Align kept
		}
		if rb == nil {
			rb = []rune(textB)
		}
		s, t := ra[a[run[0]].Start:a[run[1]-1].End], rb[b[lo].Start:b[hi-1].End]
		n := letters(s)
		if n >= longRun*c.align.MinChars || n >= c.align.MinChars && bigramOverlap(s, t) >= closeOverlap {
			return true
		}
	}
	return false
}

// letters counts the letters and digits of s (letterOrDigit): what a run's length is measured in.
func letters(s []rune) int {
	n := 0
	for _, r := range s {
		if letterOrDigit(r) {
			n++
		}
	}
	return n
}

// bigramOverlap is the share of the character bigrams of the shorter of two texts that the other
// has, on their normalised letters and digits (so that traditional characters, look-alike letters
// and invisible characters in a copy do not hide what it shares).
func bigramOverlap(s, t []rune) float64 {
	bs, bt := bigramSet(s), bigramSet(t)
	if len(bs) == 0 || len(bt) == 0 {
		return 0
	}
	if len(bs) > len(bt) {
		bs, bt = bt, bs
	}
	shared := 0
	for g := range bs {
		if bt[g] {
			shared++
		}
	}
	return float64(shared) / float64(len(bs))
}

func bigramSet(s []rune) map[[2]rune]bool {
	var rs []rune
	for _, r := range similarity.Normalize(string(s)).Runes {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			rs = append(rs, r)
		}
	}
	out := make(map[[2]rune]bool, len(rs))
	for i := 0; i+1 < len(rs); i++ {
		out[[2]rune{rs[i], rs[i+1]}] = true
	}
	return out
}
