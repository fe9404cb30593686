package similarity

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Chars counts a paragraph's characters as a reader sees them. Every figure is a share of
// characters, so text no reader sees must not count, or it pads a document out: 20 zero-width
// spaces after every character of a thesis's own paragraphs brought one 60.2 % copied down to
// 6.7 % (100 of them: 1.5 %), and 200 spaces after each of its commas and full stops, which no
// warning names (in a tiny font, a blank line to a reader), to 19.9 %. So a format character, or
// another that Unicode says shows nothing, counts for none (the "invisible" warning names them),
// nor does a combining mark (IsMark: one character with its accent or underline is one to a
// reader), and a run of spaces counts once, and not at all at either end of the text or between
// two CJK characters or punctuation marks (Chinese has no spaces there: spaced out, it reads the
// same, as the check reads it, see dropSpaces). A space beside a Latin word in Chinese text
// ("在 aptitude 中") counts, as before.
//
// Chars[k] is the count of the runes before rune k; a text of n runes has n+1 entries.
type Chars []int32

// CountChars counts text's characters.
func CountChars(text []rune) Chars {
	c := make(Chars, len(text)+1)
	var cnt counter
	run := -1 // the first space of the run whose count is not settled yet
	for k, r := range text {
		c[k] = int32(cnt.n)
		if isNarrowSpace(r) && narrowGap(text, k) {
			r = ' ' // a word space drawn narrow, which Normalize keeps
		}
		kind := kindOf(r)
		if cnt.addKind(r, kind) {
			// The run's first space counted: so do the runes after it.
			for j := run + 1; j <= k; j++ {
				c[j]++
			}
		}
		switch kind {
		case runeNone:
		case runeBlank:
			if run < 0 {
				run = k
			}
		default:
			run = -1
		}
	}
	c[len(text)] = int32(cnt.n)
	return c
}

// CountString is CountChars(text).Total(), without the counts of its parts.
func CountString(text string) int { return CountStringUpTo(text, -1) }

// CountStringUpTo is CountString, at most limit (when limit ≥ 0): to tell whether a paragraph is
// shorter than limit, the characters past it need no counting.
func CountStringUpTo(text string, limit int) int {
	var cnt counter
	for _, r := range text {
		if isNarrowSpace(r) { // whether it is a word space (narrowGap) takes the words around it
			n := CountChars([]rune(text)).Total()
			if limit >= 0 {
				return min(n, limit)
			}
			return n
		}
		if limit >= 0 && cnt.n >= limit {
			return limit
		}
		cnt.add(r)
	}
	if limit >= 0 {
		return min(cnt.n, limit)
	}
	return cnt.n
}

// counter counts characters rune by rune. A run of spaces is settled at the next rune that is
// neither a space nor invisible, which tells whether it stands between two words.
type counter struct {
	n       int
	prev    rune // the last rune counted; 0 before the first
	pending bool // spaces since prev
	narrow  bool // and all of them narrow (isNarrowSpace): between two letters, they count none
}

// add counts r, and reports whether the run of spaces before it counted (for one).
func (c *counter) add(r rune) bool { return c.addKind(r, kindOf(r)) }

// addKind is add of r, whose kindOf is kind.
func (c *counter) addKind(r rune, kind int) bool {
	switch kind {
	case runeNone:
	case runeBlank:
		c.narrow = isNarrowSpace(r) && (c.narrow || !c.pending)
		c.pending = c.n > 0
	default:
		space := c.pending && !(cjkSide(c.prev) && cjkSide(r)) && !(c.narrow && latinLetter(c.prev) && latinLetter(r))
		if space {
			c.n++
		}
		c.n++
		c.prev, c.pending, c.narrow = r, false, false
		return space
	}
	return false
}

// How a rune counts: as nothing (invisible, or a combining mark), as room between words (a blank),
// or as a character.
const (
	runeChar = iota
	runeNone
	runeBlank
)

// kindOf tells how r counts. ASCII is told without Unicode's tables (in a 313-page thesis's check
// they were 1 % of the CPU, counting its characters): its control characters are invisible but
// tab, line feed and carriage return, which are blanks with the space. The common Chinese
// characters (CJK Unified Ideographs) and the punctuation of Chinese text (CJK symbols before the
// tone marks, full-width forms of ASCII) are told without the tables too, which took 122 ns a
// character to answer (BenchmarkCountChars). TestKindOf compares every code point with the tables.
func kindOf(r rune) int {
	switch {
	case r == ' ' || r == '\t' || r == '\n' || r == '\r':
		return runeBlank
	case r < ' ' || r == 0x7F:
		return runeNone
	case r < utf8.RuneSelf:
		return runeChar
	case plainHan(r), r >= 0x3001 && r <= 0x3029, isFullwidthASCII(r):
		return runeChar
	case isInvisible(r), IsMark(r):
		return runeNone
	case isBlank(r):
		return runeBlank
	}
	return runeChar
}

// cjkSide reports CJK characters, and the punctuation and full-width forms of CJK text, but for
// the full-width letters and digits: words as their ASCII forms are (Normalize reads them so), the
// spaces between them word spaces. Counted as CJK, English written in full-width letters (ＴＨＥ
// ＴＩＤＥ) lost every space from its count, and a copy so written of en S001 read 50.1 % for
// 44.4 %.
func cjkSide(r rune) bool {
	return IsCJK(r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF && !fullwidthAlnum(r)
}

// fullwidthAlnum reports the full-width forms of the ASCII letters and digits.
func fullwidthAlnum(r rune) bool {
	a := r - fullwidthOffset
	return isFullwidthASCII(r) && (asciiLetter(a) || '0' <= a && a <= '9')
}

// IsMark reports a combining mark: part of the character before it, never a character of its own.
func IsMark(r rune) bool { return unicode.In(r, unicode.Mn, unicode.Me) }

// LetterLike reports a letter or digit, or a symbol that Normalize reads as letters or digits (ⓐ,
// ①, ⒜, ℮): a copy written in circled letters is read as its words, and must count as many
// letters as they have (a run measured in unicode.IsLetter had none, and a copy so written read
// 18.8 % for 44.4 %).
func LetterLike(r rune) bool {
	if unicode.IsLetter(r) || unicode.IsDigit(r) {
		return true
	}
	if r < utf8.RuneSelf || !unicode.In(r, unicode.So, unicode.No) {
		return false
	}
	if _, ok := confusables[r]; ok {
		return true
	}
	for _, c := range norm.NFKC.String(string(r)) {
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			return true
		}
	}
	return false
}

// Written counts the runes of text[s[0]:s[1]] but combining marks: a copy's characters as it was
// written (invisible ones and spaces too, which count inside copied text; see check's counted).
func Written(text []rune, s [2]int) int {
	lo, hi := max(s[0], 0), min(s[1], len(text))
	if hi <= lo {
		return 0
	}
	n := 0
	for _, r := range text[lo:hi] {
		if !IsMark(r) {
			n++
		}
	}
	return n
}

// isBlank reports the characters drawn as empty room: spaces, the Braille pattern blank and the
// Hangul fillers.
func isBlank(r rune) bool { return unicode.IsSpace(r) || r == '\u2800' || isFiller(r) }

// Total is the text's count.
func (c Chars) Total() int { return int(c[len(c)-1]) }

// Counts reports whether rune k counts.
func (c Chars) Counts(k int) bool { return c[k+1] > c[k] }

// In counts the characters of the runes [s[0], s[1]), clamped to the text.
func (c Chars) In(s [2]int) int {
	lo, hi := max(s[0], 0), min(s[1], len(c)-1)
	if hi <= lo {
		return 0
	}
	return int(c[hi] - c[lo])
}
