package similarity

import "slices"

// Swap is a character of one text that stands alone for another of a text it is aligned with: the
// characters on either side are the other text's. A font made to draw a few common characters as
// others ("字体加密" for a few characters only) leaves such characters in what a checker reads, the
// same way wherever they stand, where an editor's synonym changes a word.
type Swap struct {
	At          int32 // rune offset of the character in the first text
	From, To    rune  // the other text's character, the first text's
	Left, Right rune  // the first text's characters beside it (0 at an end of the text)
}

// maxSwapGap bounds the characters between two seeds that Swaps compares one by one: a swapped
// character breaks the word pairs on both sides of it, and the words around it.
const maxSwapGap = 8

// SeedGaps calls f for each two seeds that follow each other in a chain of al with words between
// them in both texts: the words ia and ja of a (the last of the first seed's pair and the first of
// the second's) and ib and jb of b. What lies between them is what the copy changed there.
func SeedGaps(al Alignment, f func(ia, ja, ib, jb int32)) {
	for _, seeds := range al.Seeds {
		for k := 1; k < len(seeds); k++ {
			s1, s2 := seeds[k-1], seeds[k]
			if s2.I > s1.I+1 && s2.J > s1.J+1 {
				f(s1.I+1, s2.I, s1.J+1, s2.J)
			}
		}
	}
}

// Swaps returns the swaps of a[a0:a1] against b[b0:b1], the characters between two seeds
// (SeedGaps): none unless both hold as many characters, at most maxSwapGap; a Chinese, Japanese or
// Korean character of a that differs from b's where its neighbours do not (SameChar).
func Swaps(a []rune, a0, a1 int32, b []rune, b0, b1 int32) []Swap {
	n := a1 - a0
	if n <= 0 || n > maxSwapGap || b1-b0 != n || a0 < 0 || b0 < 0 || int(a1) > len(a) || int(b1) > len(b) {
		return nil
	}
	var out []Swap
	for k := range n {
		x, y := b[b0+k], a[a0+k]
		if x == y || !IsCJK(x) || !IsCJK(y) || k > 0 && !SameChar(a[a0+k-1], b[b0+k-1]) ||
			k < n-1 && !SameChar(a[a0+k+1], b[b0+k+1]) || SameChar(x, y) {
			continue
		}
		s := Swap{At: a0 + k, From: x, To: y}
		if a0+k > 0 {
			s.Left = a[a0+k-1]
		}
		if int(a0+k)+1 < len(a) {
			s.Right = a[a0+k+1]
		}
		out = append(out, s)
	}
	return out
}

// SameChar reports characters that compare as one: a traditional character and its simplified
// form, a Kangxi radical and its ideograph. A copy in traditional characters is no font's doing.
func SameChar(x, y rune) bool {
	return x == y || slices.Equal(Normalize(string(x)).Runes, Normalize(string(y)).Runes)
}

// SeedSpans returns the stretches of words of each text that the seeds of al cover (a seed is a
// word pair both texts have as they are), as word ranges [start, end), in order, merged where they
// touch: in a, then in b.
func SeedSpans(al Alignment) (a, b [][2]int32) {
	for _, seeds := range al.Seeds {
		for _, s := range seeds {
			a = appendSpan(a, s.I)
			b = appendSpan(b, s.J)
		}
	}
	return MergeSpans(a, 0), MergeSpans(b, 0)
}

// appendSpan adds the word pair at w to spans, extending the last span when it reaches w.
func appendSpan(spans [][2]int32, w int32) [][2]int32 {
	if n := len(spans); n > 0 && w >= spans[n-1][0] && w <= spans[n-1][1] {
		spans[n-1][1] = max(spans[n-1][1], w+2)
		return spans
	}
	return append(spans, [2]int32{w, w + 2})
}

// MergeSpans sorts spans [start, end) and joins, in place, those that overlap or lie at most gap
// apart.
func MergeSpans[T int | int32](s [][2]T, gap T) [][2]T {
	if len(s) == 0 {
		return s
	}
	slices.SortFunc(s, func(a, b [2]T) int { return int(a[0] - b[0]) })
	out := s[:1]
	for _, r := range s[1:] {
		last := &out[len(out)-1]
		if r[0] <= last[1]+gap {
			last[1] = max(last[1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}
