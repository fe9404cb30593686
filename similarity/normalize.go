package similarity

import (
	"bytes"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/longbridgeapp/opencc"
	"golang.org/x/text/unicode/norm"
)

// Normalized is a paragraph in the form that fingerprints and alignment compare: Unicode NFKC,
// format characters removed, look-alike letters folded onto the letters they imitate, traditional
// Chinese converted to simplified, punctuation unified, spaces between CJK characters dropped, lower
// case. Orig[i] is the rune offset in the original text that Runes[i] came from, so that every span
// found in the normalised text can be reported in the characters the user wrote.
type Normalized struct {
	Runes []rune
	Orig  []int32 // int32 as Token's offsets: half the memory of int, for every rune of an import
	Len   int     // runes in the original text
	Dodges
	// dropped are the original offsets of the marks dropMarkChains read off, for CountMarksInWords.
	dropped []int32
	// paired are the original offsets of the second letters of the pairs readLetterPairs read as
	// one (the n of rn), whose first letters' offsets Orig gives: a token ending in such a letter
	// ends after the pair (widenPaired).
	paired []int32
}

// Dodges counts the tricks a text carries that are used to get past checkers.
type Dodges struct {
	Invisible int // zero-width and other format characters
	Lookalike int // Cyrillic/Greek/… letters inside Latin words
	// LetterPairs counts the letter pairs drawn like one letter read as it (readLetterPairs: frorn
	// as from). Apart from Lookalike: a name or another language's word may read so (ahern as
	// ahem), where a look-alike letter inside a Latin word is always a trick.
	LetterPairs int
	Traditional int // traditional characters converted to simplified
	SpacedCJK   int // spaces between Han characters in runs of spaced-out words (see dropSpaces)
	// Interleaved counts the characters put between single Han characters, one after each, in
	// chains of interleaveChain or more (本·研·究·以·高·校: dropInterleaved), and the marks put
	// inside words every few characters (本研，究以高，校: dropMarkChains, CountMarksInWords).
	Interleaved int
	// SpacedLetters counts the letters of runs of spacedLetterRun or more one-letter words in a
	// row ("t i d a l f l a t s"): Latin text spaced out letter by letter, whose words match nothing.
	SpacedLetters int
	// Marks counts the marks read off letters and Chinese characters (é, ė, a line under 中):
	// English with a dot over every few letters matched nothing.
	Marks int
	// NarrowSpaces counts the hair, thin and other narrow spaces read off between two letters
	// (isNarrowSpace).
	NarrowSpaces int
	// Radicals counts the CJK radicals read as the characters they are drawn as (⻓ as 长, ⼀ as 一).
	Radicals int
	// SplitWords counts the marks read off inside English words, between pieces that are no words
	// (plagi'arism, docu-ment: dropSplitWords).
	SplitWords int
}

// Add sums two counts.
func (d *Dodges) Add(o Dodges) {
	d.Invisible += o.Invisible
	d.Lookalike += o.Lookalike
	d.LetterPairs += o.LetterPairs
	d.Traditional += o.Traditional
	d.SpacedCJK += o.SpacedCJK
	d.Interleaved += o.Interleaved
	d.SpacedLetters += o.SpacedLetters
	d.Marks += o.Marks
	d.NarrowSpaces += o.NarrowSpaces
	d.Radicals += o.Radicals
	d.SplitWords += o.SplitWords
}

var punctFold = map[rune]rune{
	'。': '.', '、': ',', '“': '"', '”': '"', '‘': '\'', '’': '\'', '「': '"', '」': '"', '『': '"', '』': '"',
	'《': '<', '》': '>', '〈': '<', '〉': '>', '【': '[', '】': ']', '〔': '[', '〕': ']', '—': '-', '–': '-',
	'…': '.', '·': '.', '・': '.', '～': '~', '\u3000': ' ', '\u00a0': ' ',
	'\u2800': ' ', // the Braille pattern blank, drawn as a space but no space to Unicode
}

// Normalize prepares text for comparison. It is safe for concurrent use.
func Normalize(text string) Normalized { return normalize(text, nil, nil) }

// normalize is Normalize into the memory of runeBuf and origBuf, grown as needed.
func normalize(text string, runeBuf []rune, origBuf []int32) Normalized {
	count := utf8.RuneCountInString(text)
	n := Normalized{Len: count, Runes: slices.Grow(runeBuf[:0], count), Orig: slices.Grow(origBuf[:0], count)}
	var orig []rune  // the text as runes, made only for a look-alike letter's neighbours
	var narrow []int // the narrow spaces between two letters, by index in n.Runes
	var glyphs []int // I, |, 0 and 1 that may be l and o (readLetterGlyphs), by index in n.Runes
	var pairs []int  // rn, cl and vv that may be m, d and w (readLetterPairs), by their first letter's index
	hasHan := false
	var buf [8]rune
	var enc [utf8.UTFMax]byte
	i := -1 // the rune's offset
	prev := rune(0)
	for at, r := range text {
		i++
		before := prev
		prev = r
		if plainHan(r) {
			hasHan = true
			n.Runes = append(n.Runes, r)
			n.Orig = append(n.Orig, int32(i))
			continue
		}
		if r >= ' ' && r < 0x7f { // printable ASCII: only upper case changes
			if k := len(glyphs) - 1; r == 'I' && (asciiLower(before) || before == 'I' && k >= 0 && glyphs[k] == len(n.Runes)-1 ||
				isWordEdge(before) && at+1 < len(text) && asciiLower(rune(text[at+1]))) ||
				(r == '|' || r == '0' || r == '1') && asciiLetter(before) {
				glyphs = append(glyphs, len(n.Runes)) // maybe an l or o: readLetterGlyphs
			}
			if pairRead(before, r) != 0 {
				pairs = append(pairs, len(n.Runes)-1) // the pair's first letter, just appended
			}
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			n.Runes = append(n.Runes, r)
			n.Orig = append(n.Orig, int32(i))
			continue
		}
		if isFiller(r) {
			r = ' '
		}
		if glyphLetter(r) != 0 {
			glyphs = append(glyphs, len(n.Runes)) // maybe the letter it is drawn like: readLetterGlyphs
		}
		if isInvisible(r) {
			if !presentationSelector(r, before) {
				n.Invisible++
			}
			continue
		}
		if isNarrowSpace(r) && latinLetter(before) {
			if next, _ := utf8.DecodeRuneInString(text[at+utf8.RuneLen(r):]); latinLetter(next) {
				narrow = append(narrow, len(n.Runes)) // a space for now: readOffNarrowSpaces
				n.Runes = append(n.Runes, ' ')
				n.Orig = append(n.Orig, int32(i))
				continue
			}
		}
		if k := len(n.Runes); k > 0 && IsMark(r) && marked(n.Runes[k-1]) {
			n.Marks++ // a mark typed after its letter, which NFKC of one rune does not compose
			continue
		}
		if r >= 0x2E80 && r <= 0x2FDF {
			if f, ok := radicals[r]; ok {
				r = f
				n.Radicals++
			} else if isKangxi(r) {
				n.Radicals++ // NFKC reads it below
			}
		}
		out := buf[:0]
		if r < 0x80 {
			out = append(out, r)
		} else if f, ok := punctFold[r]; ok {
			out = append(out, f)
		} else if isFullwidthASCII(r) {
			// NFKC's own answer (TestFullwidthASCII) for Chinese text's commas, colons and
			// brackets, which went through NFKC.Append: 0.38 of 33 s of CPU importing 10,000
			// generated documents.
			out = append(out, r-fullwidthOffset)
		} else if k := utf8.EncodeRune(enc[:], r); norm.NFKC.QuickSpan(enc[:k]) == k {
			out = append(out, r) // already NFKC: most text, and no string to allocate
		} else if _, ok := confusables[r]; ok {
			out = append(out, r) // folded below: NFKC makes Greek's lunate sigma ϲ, drawn as c, a final sigma
		} else {
			var nf [64]byte // NFKC expands a character to at most 18 (U+FDFA): no allocation
			for _, c := range string(norm.NFKC.Append(nf[:0], enc[:k]...)) {
				out = append(out, c)
			}
		}
		for _, c := range out {
			if b := latinBase(c); b != 0 {
				c = b
				n.Marks++
			}
			if c >= 0x80 {
				if f, ok := punctFold[c]; ok {
					c = f
				} else if f, ok := confusables[c]; ok {
					if orig == nil {
						orig = []rune(text)
					}
					if latinNeighbour(orig, i) {
						n.Lookalike++
					}
					c = f
				}
			}
			if unicode.Is(unicode.Han, c) {
				hasHan = true
			}
			if unicode.IsSpace(c) {
				c = ' '
			}
			n.Runes = append(n.Runes, unicode.ToLower(c))
			n.Orig = append(n.Orig, int32(i))
		}
	}
	// In this order: each takes indices of n.Runes, which readLetterPairs and readOffNarrowSpaces
	// shorten.
	n.readLetterGlyphs(glyphs)
	if read := n.readLetterPairs(pairs); len(read) > 0 {
		n.paired = n.dropRunes(read)
		narrow = shiftPast(narrow, read)
	}
	n.readOffNarrowSpaces(narrow)
	if hasHan {
		n.Traditional = toSimplified(n.Runes)
	}
	n.dropSpaces()
	if hasHan {
		n.dropInterleaved()
		n.dropMarkChains()
	}
	n.dropSplitWords()
	n.countSpacedLetters()
	return n
}

// interleaveChain is the fewest characters put between single Han characters in a row that are
// read off them. A dot or a dash after every Chinese character of a copied paragraph (本·研·究)
// matched nothing (2.7 %, with a garbled warning); a list of one-character items is shorter (金、
// 木、水、火、土), and a longer one (the ten heavenly stems) loses only its marks for matching.
const interleaveChain = 6

// dropInterleaved drops the characters of chains of interleaveChain or more that stand each
// between two single Han characters (not spaces: dropSpaces has those), and counts them.
func (n *Normalized) dropInterleaved() {
	rs := n.Runes
	w := 0
	for i := 0; i < len(rs); {
		j, seps := i, 0
		for j+2 < len(rs) && isHanRune(rs[j]) && rs[j+1] != ' ' && !isHanRune(rs[j+1]) && isHanRune(rs[j+2]) {
			j += 2
			seps++
		}
		if seps >= interleaveChain {
			for k := i; k <= j; k += 2 {
				rs[w], n.Orig[w] = rs[k], n.Orig[k]
				w++
			}
			n.Interleaved += seps
			i = j + 1
			continue
		}
		rs[w], n.Orig[w] = rs[i], n.Orig[i]
		w++
		i++
	}
	n.Runes, n.Orig = rs[:w], n.Orig[:w]
}

// markChain is the fewest marks, each after a few Han characters (markSegment or fewer), in a row
// that are read off them. A comma, a dot or a 、 after every two, three or four characters of zh S003
// (34.8 %) made jieba cut other words than the source's: 21.8, 26.8 and 28.5 %, with a garbled
// warning on 11, 1 and 2 of its paragraphs. Lists of two-character items and verse of four-character
// lines run to ten or so ("北京、上海、…", 诗经): they lose their marks for matching, which cuts the
// same words, and CountMarksInWords counts no dodge in them, their marks standing between words.
const (
	markChain   = 8
	markSegment = 4
)

// dropMarkChains drops the punctuation and symbols, and the letters and digits (insertable), that
// stand between Han characters in chains (shortChains: of markChain places or more, each after
// markSegment Han characters or fewer, up to maxInserted letters at a place; longChains), and keeps
// their original offsets in n.dropped. Two marks may stand together at a place (one put beside the
// text's own comma). Letters and marks chain together, so that a trick mixing them is read off as
// either alone is.
func (n *Normalized) dropMarkChains() {
	places := chainPlaces(n.Runes, kanaInserted(n.Runes))
	if len(places) < markChain {
		return
	}
	drop := shortChains.find(n.Runes, places, nil)
	drop = longChains.find(n.Runes, places, drop)
	slices.Sort(drop)
	n.dropped = n.dropRunes(slices.Compact(drop))
}

// place is a run of rs[from:to] between two Han characters that a chain may hold: one or two marks
// (a mark beside the text's own comma), up to 32 letters or digits (insertable) with them:
// "x", "xq", "·x，".
type place struct{ from, to, letters int }

// chainPlaces returns the places of rs.
func chainPlaces(rs []rune, kana bool) []place {
	var out []place
	for k := 1; k+1 < len(rs); k++ {
		r := rs[k]
		if plainHan(r) || !isHanRune(rs[k-1]) {
			continue
		}
		to, got := k, 0
		for ; to < len(rs) && to-k < 2+got; to++ {
			if c := rs[to]; !isChainMark(c) {
				if got == longChains.letters || !insertable(c, kana) || rs[to-1] == '第' && unicode.IsDigit(c) { // 第3章: an ordinal
					break
				}
				got++
			}
		}
		if to == k || to >= len(rs) || !isHanRune(rs[to]) {
			continue
		}
		out = append(out, place{k, to, got})
		k = to - 1
	}
	return out
}

// chainRule says which chains of places dropMarkChains reads off.
type chainRule struct {
	letters  int  // the most letters at a place
	segment  int  // the most Han characters between two places
	aside    int  // the most other characters between two places
	min      int  // the fewest places in a chain
	lettered bool // only places that hold letters: marks stand between them
}

// shortChains reads off marks and short runs of letters (maxInserted); longChains runs of up to
// 32, in chains of sixteen places that hold letters or more, the marks between them standing
// aside. Four, five or eight letters after every three characters of zh S003 (34.8 %) read 10.3 %,
// 9.9 % and 8.9 % under shortChains alone, the first two with no warning, nine to 24 letters 8.7 %
// down to 7.0 % with a garbled warning; a letter after every six 30.4 %, its chains of eight cut by
// the text's own commas. Longer runs are more junk than text: 32 letters read 32.3 %, 40 6.3 %, both
// with a garbled warning. Technical prose names a command or a file every few characters
// (用apt安装gcc和make …) for a sentence or two, ten places in a row in TestLettersAmongHan's; junk
// runs through a paragraph. Some of its places fall beside the text's own English words (叫做wydd
// inode的数据), which are no places, so that two places may be eight Han characters and 24 other
// characters apart: with shortChains' four and twelve the four letters read 31.9 %, now 36.5 % (the
// letters inside the copy count as copied). 围城 (245,689 characters) and the devset's 63 Chinese
// documents lose nothing more to longChains; chains of its commas so far apart would have taken
// 1,373 characters of 25 paragraphs of dialogue from 围城.
var (
	shortChains = chainRule{letters: maxInserted, segment: markSegment, aside: chainAside, min: markChain}
	longChains  = chainRule{letters: 32, segment: 2 * markSegment, aside: 2 * chainAside, min: 2 * markChain, lettered: true}
)

// find appends to drop the indices of rs of the chains of places the rule reads off.
func (rule chainRule) find(rs []rune, places []place, drop []int) []int {
	var chain []place // the places of the chain being read
	end := func() {
		if len(chain) >= rule.min {
			for _, c := range chain {
				for k := c.from; k < c.to; k++ {
					drop = append(drop, k)
				}
			}
		}
		chain = chain[:0]
	}
	for _, p := range places {
		if p.letters > rule.letters || rule.lettered && p.letters == 0 {
			continue // no place of this rule's: what stands between the places beside it
		}
		if m := len(chain); m > 0 && !rule.between(rs, chain[m-1].to, p.from) {
			end()
		}
		chain = append(chain, p)
	}
	end()
	return drop
}

// dropRunes takes the runes at the indices at (rising) out of n and returns their original offsets.
func (n *Normalized) dropRunes(at []int) []int32 {
	if len(at) == 0 {
		return nil
	}
	rs, orig := n.Runes, n.Orig
	var offsets []int32
	w, d := 0, 0
	for i := range rs {
		if d < len(at) && at[d] == i {
			offsets = append(offsets, orig[i])
			d++
			continue
		}
		rs[w], orig[w] = rs[i], orig[i]
		w++
	}
	n.Runes, n.Orig = rs[:w], orig[:w]
	return offsets
}

// insertable reports a letter or digit that dropMarkChains reads off when it stands between Han
// characters in a chain, as it reads marks: a letter after every three characters of zh S003
// (34.8 %) read 11.5 % with no warning (a digit the same, kana 11.6 %), jieba cutting the words at
// each. Kana count only when kanaInserted says they are no Japanese.
func insertable(r rune, kana bool) bool {
	if r < 0x80 { // normalised: lower case
		return 'a' <= r && r <= 'z' || '0' <= r && r <= '9'
	}
	if isKana(r) {
		return kana
	}
	return !isHanRune(r) && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// maxInserted is the most letters put in at one place that dropMarkChains reads off: two letters
// after every three characters of zh S003 read 11.4 % where one read as the copy, three 10.8 %.
// A text's own abbreviations (ai, ct, 5g) and numbers stand between Han characters too, but seldom
// in chains of eight a few characters apart. Longer runs look as the names of commands and files do
// in technical prose (用apt安装gcc和make, GitHub, cmake), whose sentences chain so: reading those
// off would leave such a text its function words to match on. longChains reads them off in longer
// chains.
const maxInserted = 3

func isKana(r rune) bool { return r >= 0x3040 && r <= 0x30FF }

// kanaInserted reports whether the kana of rs stand alone, as letters put between Chinese characters
// do, rather than in the runs of Japanese, whose particles (の, を, に) stand alone between kanji
// but whose endings and loanwords (ます, ている, テスト) run: fewer pairs of kana side by side than
// a quarter of the lone ones, or characters only Chinese writes (simplifiedOnly).
func kanaInserted(rs []rune) bool {
	alone, pairs := 0, 0
	for k, r := range rs {
		if !isKana(r) {
			continue
		}
		if k+1 < len(rs) && isKana(rs[k+1]) {
			pairs++
		} else if k == 0 || !isKana(rs[k-1]) {
			alone++
		}
	}
	if alone+pairs == 0 || 4*pairs < alone {
		return alone > 0
	}
	chinese := 0
	for _, r := range rs {
		if plainHan(r) && strings.ContainsRune(simplifiedOnly, r) {
			if chinese++; chinese == 2 {
				return true
			}
		}
	}
	return false
}

// simplifiedOnly are common characters of simplified Chinese that Japanese does not write (it has
// 這, 個, 說 or 説 …): two of them say a text is Chinese, whatever kana stand in it, so that kana put
// in pairs are read off too (kanaInserted).
const simplifiedOnly = "们这个么说为对时发过经还进动实现开关种样让给从问题东车门间无书见认识语话请谁读写电网络设计业产务员总统议边两众专历"

// between reports whether rs[from:to], between two places of a chain, holds one to rule.segment Han
// characters, and besides them at most rule.aside other characters: the English word or the
// bracket that a text's own lines hold between two marks put in (组（UPG）。每当 is three Han
// characters). Letters put after every three characters of zh S003 read in chains of seven or
// fewer between its own English words and brackets, where only Han characters could stand
// between two marks: 29.6 % for the copy's 34.8 %; 34.5 % with shortChains alone, 35.4 % with
// longChains (the letters inside the copy count as copied).
func (rule chainRule) between(rs []rune, from, to int) bool {
	han := 0
	for _, r := range rs[from:to] {
		if isHanRune(r) {
			han++
		}
	}
	return han >= 1 && han <= rule.segment && to-from-han <= rule.aside
}

// chainAside is the most characters other than Han that may stand between two places of a short
// chain.
const chainAside = 12

// isChainMark reports the punctuation and symbols dropMarkChains reads off: not letters, digits or
// spaces.
func isChainMark(r rune) bool {
	if r < 0x80 { // normalised: lower case
		return r > ' ' && !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	}
	return !isHanRune(r) && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsSpace(r)
}

// CountMarksInWords adds to n.Interleaved the marks dropMarkChains read off that stood inside a
// word of toks, the words cut from n: put there to break the words a checker cuts, where a list's
// or a verse's marks stand between words.
func (n *Normalized) CountMarksInWords(toks []Token) {
	if len(n.dropped) == 0 {
		return
	}
	t := 0
	for _, m := range n.dropped {
		for t < len(toks) && toks[t].End <= m {
			t++
		}
		if t < len(toks) && toks[t].Start < m { // and m < End: the word spans the mark's place
			n.Interleaved++
		}
	}
}

// readOffNarrowSpaces reads off the narrow spaces at (indices of n.Runes, spaces between two
// letters), and counts them, but word gaps (narrowGap). A thin or punctuation space for every space
// of en S001 (44.4 %), each read off, made the copy one long word (0.0 %); a hair space inside each
// long word (wea ther, ab out) is still read off.
func (n *Normalized) readOffNarrowSpaces(at []int) {
	if len(at) == 0 {
		return
	}
	drop := at[:0]
	for _, k := range at {
		if !narrowGap(n.Runes, k) {
			drop = append(drop, k)
		}
	}
	n.NarrowSpaces += len(drop)
	n.dropRunes(drop)
}

// readLetterGlyphs reads the capital I (lowered to i), |, 0 and 1 at (indices of n.Runes, each
// after a letter, or a capital I that begins a word in lower case) as the l and o they are drawn
// like, in the words of four letters or more they make English words of that are none as written:
// heIp, he|p and he1p are help, c0py is copy; mp3, h1n1, a1, foo1 and getItem stay. In a
// sans-serif font a capital I is an l to a reader: every l of a copy as I read 39.7 % for 44.4 %,
// every o as 0 29.3 %, with no warning. The punctuation and mathematical signs of glyphLetter,
// anywhere in such a word, are read as the letters they are drawn like (¡nformat¡on, ∨ery; every
// i written as ¡ read 20.7 %, every l as ∣ 37.9 %), ¡ also in words of two or three letters (¡n:
// in), where a set's R∪N stays. Each counts as a look-alike.
func (n *Normalized) readLetterGlyphs(at []int) {
	if len(at) == 0 {
		return // the word list is not loaded for text with none
	}
	rs := n.Runes
	glyph := func(k int) bool { _, ok := slices.BinarySearch(at, k); return ok }
	as := func(k int) rune { // what rs[k] reads as, in a word of letter glyphs
		switch {
		case rs[k] == '0':
			return 'o'
		case rs[k] == '|' || rs[k] == '1' || rs[k] == 'i' && glyph(k):
			return 'l'
		case glyphLetter(rs[k]) != 0:
			return glyphLetter(rs[k])
		}
		return rs[k]
	}
	english := englishWords()
	end := -1 // the end of the last word read
	for _, k := range at {
		if k < end {
			continue
		}
		from, to := k, k+1
		for from > 0 && asciiLower(rs[from-1]) {
			from--
		}
		for to < len(rs) && (asciiLower(rs[to]) || rs[to] == '0' || rs[to] == '1' || rs[to] == '|' || glyphLetter(rs[to]) != 0) {
			to++
		}
		end = to
		// A word whose glyphs are all ¡, which no number, code or formula holds, is read from two
		// letters (¡n, ¡s: in, is).
		least := 2
		for j := from; j < to && least == 2; j++ {
			if rs[j] != '¡' && glyph(j) {
				least = 4
			}
		}
		var written, read [64]byte
		if to-from < least || to-from > len(written) || from > 0 && !isWordEdge(rs[from-1]) || to < len(rs) && !isWordEdge(rs[to]) ||
			rs[to-1] == '0' || rs[to-1] == '1' {
			continue // short (a1 is no al), a number at its end (foo1 is no fool), glued to a number or a code
		}
		for j := from; j < to; j++ {
			written[j-from], read[j-from] = byte(rs[j]), byte(as(j))
		}
		if !english.has(hashWord(read[:to-from])) || english.has(hashWord(written[:to-from])) {
			continue
		}
		for j := from; j < to; j++ {
			if c := as(j); c != rs[j] {
				rs[j] = c
				n.Lookalike++
			}
		}
	}
}

// glyphLetter is the letter that punctuation or a mathematical sign outside the look-alike table
// is drawn like (¡ as i, ∣ and Hebrew's paseq as l, ∨ as v, ∪ as u), or 0. Not in the table, which
// folds everywhere: ¡ opens Spanish sentences, and p∨q and A∪B are formulas; readLetterGlyphs
// reads them only inside words that read as English words so.
func glyphLetter(r rune) rune {
	switch r {
	case '¡':
		return 'i'
	case '∣', '׀':
		return 'l'
	case '∨':
		return 'v'
	case '∪':
		return 'u'
	}
	return 0
}

// pairRead is the letter that the letters a and b, as written, are drawn like together in most
// fonts (rn as m, cl as d, vv or VV as w), or 0. Only pairs in lower case: Cl and RN look like
// none.
func pairRead(a, b rune) rune {
	switch {
	case a == 'r' && b == 'n':
		return 'm'
	case a == 'c' && b == 'l':
		return 'd'
	case a == 'v' && b == 'v', a == 'V' && b == 'V':
		return 'w'
	}
	return 0
}

// maxPairs bounds the pairs readLetterPairs tries in one word (each subset of them, fewest first).
const maxPairs = 4

// readLetterPairs reads the letter pairs at (indices of n.Runes of their first letters: rn, cl,
// vv) as the m, d and w they are drawn like, in the words of three letters or more they make
// English words of that are none as written, reading the fewest that do: frorn is from, clata
// data, vvith with, governrnent government; turn, clock, savvy and the name Clark stay. Every m of
// en S001 (44.4 %) written as rn read 41.6 %, every d as cl 40.5 %, every w as vv 43.2 %, all three
// 28.8 %, with no warning. Each pair read counts in n.LetterPairs, its letter taking the pair's
// first place; it returns the places of the second letters, to be read off.
func (n *Normalized) readLetterPairs(at []int) (second []int) {
	if len(at) == 0 {
		return nil
	}
	rs := n.Runes
	english := englishWords()
	var buf [64]byte
	for i := 0; i < len(at); {
		from, to := at[i], at[i]+2
		for from > 0 && asciiLower(rs[from-1]) {
			from--
		}
		for to < len(rs) && asciiLower(rs[to]) {
			to++
		}
		j := i
		for j < len(at) && at[j] < to {
			j++
		}
		ps := at[i:j] // the word's pairs
		i = j
		if to-from < 3 || to-from > len(buf) || len(ps) > maxPairs || from > 0 && !isWordEdge(rs[from-1]) ||
			to < len(rs) && !isWordEdge(rs[to]) || inflected(english, appendRunes(buf[:0], rs[from:to])) {
			continue
		}
		read := 0 // the subset of ps read, as a bit set
	fewest:
		for k := 1; k <= len(ps); k++ {
			for set := 1; set < 1<<len(ps); set++ {
				// A set of overlapping pairs (vvv) reads as the set without the second, which has
				// fewer pairs and was tried first.
				if bits.OnesCount(uint(set)) != k {
					continue
				}
				if w := pairsRead(buf[:0], rs[from:to], ps, from, set); readsAs(english, w) {
					read = set
					break fewest
				}
			}
		}
		for b, p := range ps {
			if read&(1<<b) != 0 {
				rs[p] = pairRead(rs[p], rs[p+1])
				second = append(second, p+1)
				n.LetterPairs++
			}
		}
	}
	return second
}

// readsAs reports whether w, a word with letter pairs read, is a word to read it as: a word of the
// list of four letters or more, or a stop word (vve is we, rnay may, ancl and). Not a shorter word
// of the list: incl, the abbreviation, is no ind, nor clen den.
func readsAs(english *wordSet, w []byte) bool {
	h := hashWord(w)
	return len(w) >= 4 && english.has(h) || latin().stop.has(w, h)
}

// inflected reports whether w (lower case) is an English word of the word list, or one with an
// ending the list leaves out for many words (clays, cloner): no word to read otherwise (clays is
// no days).
func inflected(english *wordSet, w []byte) bool {
	if english.has(hashWord(w)) {
		return true
	}
	for _, e := range [...]struct{ end, base string }{{"s", ""}, {"es", ""}, {"ies", "y"}, {"d", ""}, {"ed", ""}, {"ied", "y"},
		{"ing", ""}, {"ing", "e"}, {"r", ""}, {"er", ""}, {"rs", ""}, {"ers", ""}, {"ly", ""}, {"st", ""}, {"est", ""}} {
		stem, ok := bytes.CutSuffix(w, []byte(e.end))
		if ok && len(stem) >= 3 && english.has(hashWord(append(stem[:len(stem):len(stem)], e.base...))) {
			return true
		}
	}
	return false
}

// pairsRead appends to buf the word w (ASCII, starting at index from) with the pairs of ps in set
// read as their letters.
func pairsRead(buf []byte, w []rune, ps []int, from, set int) []byte {
	b := 0
	for k := 0; k < len(w); k++ {
		for b < len(ps) && ps[b]-from < k {
			b++
		}
		if b < len(ps) && ps[b]-from == k && set&(1<<b) != 0 {
			buf = append(buf, byte(pairRead(w[k], w[k+1])))
			k++
			continue
		}
		buf = append(buf, byte(w[k]))
	}
	return buf
}

// shiftPast moves the indices at (increasing) back past the places read off before them (gone,
// increasing), as dropRunes shortens n.Runes.
func shiftPast(at, gone []int) []int {
	d := 0
	for i, k := range at {
		for d < len(gone) && gone[d] < k {
			d++
		}
		at[i] = k - d
	}
	return at
}

// narrowGap reports whether the narrow space rs[k], between two letters, stands between two English
// words whose letters together make none: a word space drawn narrow, not one put inside a word.
// Chars counts what Normalize keeps.
func narrowGap(rs []rune, k int) bool {
	from, to := k, k+1
	for from > 0 && asciiLetter(rs[from-1]) {
		from--
	}
	for to < len(rs) && asciiLetter(rs[to]) {
		to++
	}
	var buf [64]byte
	left := k - from
	if left == 0 || to == k+1 || left+to-k-1 > len(buf) {
		return false
	}
	joined := buf[:0]
	for j := from; j < to; j++ {
		if j != k {
			joined = append(joined, byte(rs[j]|0x20)) // lower case
		}
	}
	english := englishWords()
	return english.has(hashWord(joined[:left])) && english.has(hashWord(joined[left:])) && !english.has(hashWord(joined))
}

func asciiLetter(r rune) bool { return 'a' <= r|0x20 && r|0x20 <= 'z' }

// dropSplitWords reads off the marks put inside English words: a word of letters joined by single
// marks (an apostrophe, a hyphen, a dot …) whose pieces are no English words, though the letters
// together are one (plagi'arism, docu-ment, resea.rch). A mark in the middle of every long word of
// en S003 (36.7 %) read 11.1 % with no warning (apostrophes) and 4.9 % with a garbled one (dots,
// hyphens, commas, slashes). Compounds, contractions and possessives keep their marks (splitWord).
func (n *Normalized) dropSplitWords() {
	rs := n.Runes
	var drop []int // marks to read off, by index in rs
	var pieces [][2]int
	for k := 1; k+1 < len(rs); k++ {
		if r := rs[k]; asciiLower(r) || r == ' ' || plainHan(r) || !asciiLower(rs[k-1]) || !asciiLower(rs[k+1]) || !isChainMark(r) {
			continue
		}
		// The word the mark stands in: letter runs joined by single marks, from the start of the
		// run before it.
		from := k - 1
		for from > 0 && asciiLower(rs[from-1]) {
			from--
		}
		if from > 0 && !isWordEdge(rs[from-1]) {
			continue // glued to something else: a number, an address
		}
		pieces = pieces[:0]
		i := from
		for {
			j := i
			for j < len(rs) && asciiLower(rs[j]) {
				j++
			}
			pieces = append(pieces, [2]int{i, j})
			if j+1 < len(rs) && isChainMark(rs[j]) && asciiLower(rs[j+1]) {
				i = j + 1
				continue
			}
			i = j
			break
		}
		if (i == len(rs) || isWordEdge(rs[i])) && splitWord(rs, pieces) {
			for _, p := range pieces[1:] {
				drop = append(drop, p[0]-1)
			}
		}
		k = i
	}
	n.SplitWords += len(drop)
	n.dropRunes(drop)
}

// splitWord reports whether the pieces of rs, joined by the marks between them, make an English
// word of four letters or more together that they are not apart: some piece is no word of three
// letters or more (bird's-eye and the like stay). Pieces joined by a hyphen are a word apart when
// the last is one (co-operate, re-use, e-mail: cooperate, reuse and email are words, but so are
// operate, use and mail; docu-ment is not). An apostrophe before s, t, d, m, ll, re or ve is a
// possessive or a contraction (a student's is not students).
func splitWord(rs []rune, pieces [][2]int) bool {
	var buf [64]byte
	joined := buf[:0]
	english := englishWords()
	words, hyphen, last := 0, false, false
	for i, p := range pieces {
		start := len(joined)
		for _, r := range rs[p[0]:p[1]] {
			joined = append(joined, byte(r))
		}
		if len(joined) > len(buf) {
			return false // no word of the list is that long
		}
		piece := joined[start:]
		if i > 0 {
			switch rs[p[0]-1] {
			case '-', '\u2010', '\u2011':
				hyphen = true
			case '\'', '\u2019':
				switch string(piece) {
				case "s", "t", "d", "m", "ll", "re", "ve":
					return false
				}
			}
		}
		last = english.has(hashWord(piece))
		if last && len(piece) >= 3 {
			words++
		}
	}
	if hyphen && last || words == len(pieces) {
		return false
	}
	return len(joined) >= 4 && english.has(hashWord(joined))
}

func asciiLower(r rune) bool { return 'a' <= r && r <= 'z' }

// isWordEdge reports what may stand before or after a word: not a letter or a digit.
func isWordEdge(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// isHanRune is isHan answering the common ideographs first.
func isHanRune(r rune) bool { return plainHan(r) || isHan(r) }

// spacedLetterRun is the fewest one-letter words in a row that count as text spaced out letter by
// letter: a list's "a b c", a formula's "x y z" are shorter.
const spacedLetterRun = 6

// countSpacedLetters adds to SpacedLetters the letters of runs of spacedLetterRun or more one-letter
// Latin words, each one space after the last. It asks latinLetter once a rune (the pass was 2.4 % of
// preparing the sample texts).
func (n *Normalized) countSpacedLetters() {
	rs := n.Runes
	if len(rs) == 0 {
		return
	}
	run, last := 0, -1 // letters in the current run; where its last letter stands
	end := func() {
		if run >= spacedLetterRun {
			n.SpacedLetters += run
		}
		run = 0
	}
	prev, cur := false, latinLetter(rs[0]) // whether the runes before and at i are letters
	for i := range rs {
		next := i+1 < len(rs) && latinLetter(rs[i+1])
		switch {
		case !cur:
		case prev || next:
			end() // a letter of a longer word
		default:
			if !(i >= 2 && last == i-2 && rs[i-1] == ' ') {
				end()
			}
			run++
			last = i
		}
		prev, cur = cur, next
	}
	end()
}

// latinLetter reports a letter that is not CJK; normalised text has ASCII ones in lower case.
func latinLetter(r rune) bool {
	switch {
	case r < 0x80:
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	case plainHan(r): // most of Chinese text, answered before the tables are searched
		return false
	}
	return unicode.IsLetter(r) && !IsCJK(r)
}

// marked reports the runes whose combining marks are read off: Latin letters (in normalised text,
// ASCII ones in lower case) and Han characters. Other scripts' marks (Devanagari's vowel signs,
// Arabic's vowels) are their letters.
func marked(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || isHanRune(r) }

// latinBase returns the ASCII letter a precomposed Latin letter with marks is made of (é, ė, ȧ: e,
// e, a), or that a letter drawn with a stroke, hook or bar on it is (ø, ɇ: o, e; decorated), or 0.
func latinBase(r rune) rune {
	if f, ok := decorated[r]; ok {
		return f
	}
	if !(r >= 0xC0 && r <= 0x24F || r >= 0x1E00 && r <= 0x1EFF) {
		return 0
	}
	var buf [16]byte
	var enc [utf8.UTFMax]byte
	d := norm.NFD.Append(buf[:0], enc[:utf8.EncodeRune(enc[:], r)]...)
	base, size := utf8.DecodeRune(d)
	if size == len(d) || base >= 0x80 || !unicode.IsLetter(base) {
		return 0
	}
	for _, m := range string(d[size:]) {
		if !unicode.Is(unicode.Mn, m) {
			return 0
		}
	}
	return base
}

// Fullwidth forms of ASCII 0x21-0x7E, which NFKC turns into the ASCII characters.
const fullwidthOffset = 0xFF01 - 0x21

func isFullwidthASCII(r rune) bool { return r >= 0xFF01 && r <= 0xFF5E }

// plainHan reports the common CJK ideographs, which every step of Normalize keeps as they are (NFKC,
// folds, lower case) but the conversion to simplified: the bulk of Chinese text skips those steps.
func plainHan(r rune) bool { return r >= 0x4E00 && r <= 0x9FFF }

// isInvisible reports format characters (zero-width space, joiners, BOM, soft hyphen, bidi marks) and
// the other characters Unicode says show nothing (Default_Ignorable_Code_Point: the combining
// grapheme joiner U+034F, Khmer's inherent vowels, variation selectors), which break a word without
// a gap a reader can see; and control characters. Not the Hangul fillers (isFiller).
func isInvisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) && !isFiller(r) ||
		unicode.Is(unicode.Variation_Selector, r) || (unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r')
}

// isNarrowSpace reports the spaces narrower than a word space: six-per-em, punctuation, thin and
// hair spaces, the narrow no-break space and the mathematical space. Between two letters (where
// no typography puts one: they go between digits, before units, beside punctuation) they split a
// word with a gap a reader barely sees: English with a hair space in every word read 0.0 % with
// nothing said, each half of a word matching nothing. Normalize reads them off there.
func isNarrowSpace(r rune) bool {
	return r == 0x2006 || r == 0x2008 || r == 0x2009 || r == 0x200A || r == 0x202F || r == 0x205F
}

// isKangxi reports the Kangxi radicals, each drawn as the ideograph NFKC maps it to (U+2F00 ⼀ is 一).
// Those of the CJK Radicals Supplement that NFKC leaves as they are are in the radicals table.
func isKangxi(r rune) bool { return r >= 0x2F00 && r <= 0x2FDF }

// isFiller reports the Hangul fillers. Unicode calls them default-ignorable, but Word (Uniscribe)
// and HarfBuzz draw them as blank glyphs as wide as a letter, so to a reader they are spaces: an
// English passage with U+3164 for every space reads as the source and, its fillers dropped as
// invisible, was one long word to the check (0.0 %). Normalize and Chars take them for spaces
// (old Korean's conjoining jamo, where a filler stands for a missing letter, is not a thesis's).
func isFiller(r rune) bool { return r == 0x115F || r == 0x1160 || r == 0x3164 || r == 0xFFA0 }

// presentationSelector reports the variation selectors that choose how an emoji or a symbol is drawn
// (U+FE0E text, U+FE0F emoji): after one (✔️), they are part of it, not a dodge.
func presentationSelector(r, prev rune) bool {
	return (r == '\uFE0E' || r == '\uFE0F') && !unicode.IsLetter(prev) && !unicode.IsDigit(prev)
}

// latinNeighbour reports whether the letter at i stands in a word that also has ASCII letters — the
// mark of a look-alike swap, as opposed to honest Russian or Greek text.
func latinNeighbour(text []rune, i int) bool {
	for _, step := range []int{-1, 1} {
		for j := i + step; j >= 0 && j < len(text) && unicode.IsLetter(text[j]); j += step {
			if text[j] < 0x80 {
				return true
			}
		}
	}
	return false
}

// spacedChain is how many spaces in a row between Han characters make a dodge. Real Chinese text
// has a stray space where a link or a cross-reference was ("参见 桌面配置项规范", "注意 在 第 2.1 节"),
// never more than two in a row in our corpora; spacing out a passage to break n-grams gives one
// between every character or word.
const spacedChain = 3

// dropSpaces removes spaces next to CJK characters (students put them there to break n-grams) and
// collapses runs of spaces. It counts the spaces between Han characters that stand in chains of at
// least spacedChain: those are the dodge, the others typography.
func (n *Normalized) dropSpaces() {
	w := 0
	chain, lastGapEnd := 0, -1 // spaces in the current chain; where its last Han character was written
	endChain := func() {
		if chain >= spacedChain {
			n.SpacedCJK += chain
		}
		chain = 0
	}
	// Up to the first space every rune stays where it is: most Chinese paragraphs have none.
	for w < len(n.Runes) && n.Runes[w] != ' ' {
		w++
	}
	for i := w; i < len(n.Runes); i++ {
		c := n.Runes[i]
		if c == ' ' {
			if w == 0 {
				continue
			}
			j := i
			for j < len(n.Runes) && n.Runes[j] == ' ' {
				j++
			}
			if j == len(n.Runes) {
				break
			}
			if IsCJK(n.Runes[w-1]) && IsCJK(n.Runes[j]) {
				if isHan(n.Runes[w-1]) && isHan(n.Runes[j]) {
					if !n.hanRunSince(lastGapEnd, w) {
						endChain()
					}
					chain++
					lastGapEnd = w
				}
				i = j - 1
				continue
			}
			if dropsSpace(n.Runes[w-1]) || dropsSpace(n.Runes[j]) {
				i = j - 1
				continue
			}
			n.Runes[w], n.Orig[w] = ' ', n.Orig[i]
			w++
			i = j - 1
			continue
		}
		n.Runes[w], n.Orig[w] = c, n.Orig[i]
		w++
	}
	endChain()
	n.Runes, n.Orig = n.Runes[:w], n.Orig[:w]
}

// hanRunSince reports whether the written runes from..to-1 are all Han: the word between two
// spaces of a chain.
func (n *Normalized) hanRunSince(from, to int) bool {
	if from < 0 {
		return false
	}
	for k := from; k < to; k++ {
		if !isHan(n.Runes[k]) {
			return false
		}
	}
	return true
}

func isHan(r rune) bool { return r >= 0x2E80 && unicode.Is(unicode.Han, r) }

// IsCJK reports Han characters, kana and hangul. The common ideographs, most of Chinese text, are
// answered before the tables are searched (it is asked of every character a word splits at).
func IsCJK(r rune) bool {
	return plainHan(r) || r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r))
}

func isPunct(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }

// dropsSpace reports a character beside which a space is dropped: CJK or punctuation. ASCII, the
// neighbours of most spaces, is answered from a table (the test compares it with the functions).
func dropsSpace(r rune) bool {
	if r < 0x80 {
		return asciiPunct[r]
	}
	return IsCJK(r) || isPunct(r)
}

var asciiPunct = func() (t [0x80]bool) {
	for r := range t {
		t[r] = isPunct(rune(r))
	}
	return t
}()

var (
	t2sOnce  sync.Once
	t2s      *opencc.OpenCC
	t2sErr   error
	t2sFirst []uint64 // bit set of the runes some key of the dictionaries begins with; nil: use Convert alone
	t2sChar  sync.Map // rune → rune, for texts whose phrase conversion changes length
)

// t2sWindow is how many runes OpenCC's Convert looks ahead for a phrase: no match is longer.
const t2sWindow = 10

func loadT2S() {
	t2s, t2sErr = opencc.New("t2s")
	if t2sErr != nil || len(t2s.DictChains) != 1 {
		return // a chain of several conversions would see text the first one changed
	}
	var first []uint64
	for _, d := range t2s.DictChains[0].Dicts {
		if d.Trie == nil {
			return
		}
		for _, id := range d.Trie.PrefixPredict(nil, 0) {
			k, err := d.Trie.Key(id)
			if err != nil {
				return
			}
			r, _ := utf8.DecodeRune(k)
			for int(r>>6) >= len(first) {
				first = append(first, 0)
			}
			first[r>>6] |= 1 << (r & 63)
		}
	}
	t2sFirst = first
}

// t2sStarts reports whether some dictionary key begins with r: a quick test before t2sMatch.
func t2sStarts(r rune) bool {
	return r >= 0 && int(r>>6) < len(t2sFirst) && t2sFirst[r>>6]&(1<<(r&63)) != 0
}

// t2sMatch reports whether some dictionary key is a prefix of w, as Convert looks it up.
func t2sMatch(w []rune) bool {
	var buf [t2sWindow * utf8.UTFMax]byte
	b := buf[:0]
	for _, r := range w {
		b = utf8.AppendRune(b, r)
	}
	for _, d := range t2s.DictChains[0].Dicts {
		if len(d.Trie.PrefixMatch(b, 1)) > 0 {
			return true
		}
	}
	return false
}

// Preload makes what Normalize makes on its first call (OpenCC's traditional-to-simplified
// dictionaries: about 4 ms on one core), for a caller with a core to spare before its first text;
// Normalize waits for it if it is still being made.
func Preload() { t2sOnce.Do(loadT2S) }

// toSimplified converts traditional Chinese in place and returns how many characters changed. OpenCC
// converts by phrase (better than by character); when a phrase changes the text's length, the
// conversion falls back to one character at a time so that offsets stay aligned.
//
// Convert scans left to right and, where a dictionary key is a prefix of the next t2sWindow runes,
// replaces the longest; elsewhere it copies one rune. So only the spans from such a place to
// t2sWindow runes after the last one that follows within reach can change, and converting those
// spans alone gives the same text at a fraction of the cost: most Chinese text has none.
func toSimplified(rs []rune) int {
	Preload()
	if t2sErr != nil {
		return 0
	}
	if t2sFirst == nil {
		return toSimplifiedWhole(rs)
	}
	type span struct{ from, to int }
	var spans []span
	for i, r := range rs {
		end := min(i+t2sWindow, len(rs))
		if !t2sStarts(r) || !t2sMatch(rs[i:end]) {
			continue
		}
		if k := len(spans) - 1; k >= 0 && i < spans[k].to {
			spans[k].to = end
		} else {
			spans = append(spans, span{i, end})
		}
	}
	outs := make([][]rune, len(spans))
	for k, s := range spans {
		conv, err := t2s.Convert(string(rs[s.from:s.to]))
		if err != nil {
			return 0
		}
		outs[k] = []rune(conv)
		if len(outs[k]) != s.to-s.from {
			return toSimplifiedWhole(rs)
		}
	}
	changed := 0
	for k, s := range spans {
		for i, c := range outs[k] {
			if rs[s.from+i] != c {
				rs[s.from+i] = c
				changed++
			}
		}
	}
	return changed
}

// toSimplifiedWhole converts the whole text at once, for texts where a phrase changes the length.
func toSimplifiedWhole(rs []rune) int {
	conv, err := t2s.Convert(string(rs))
	if err != nil {
		return 0
	}
	out := []rune(conv)
	changed := 0
	if len(out) == len(rs) {
		for i := range rs {
			if rs[i] != out[i] {
				rs[i] = out[i]
				changed++
			}
		}
		return changed
	}
	for i, r := range rs {
		if !unicode.Is(unicode.Han, r) {
			continue
		}
		if s := simplifiedRune(r); s != r {
			rs[i] = s
			changed++
		}
	}
	return changed
}

func simplifiedRune(r rune) rune {
	if v, ok := t2sChar.Load(r); ok {
		return v.(rune)
	}
	s := r
	if conv, err := t2s.Convert(string(r)); err == nil {
		if c := []rune(conv); len(c) == 1 {
			s = c[0]
		}
	}
	t2sChar.Store(r, s)
	return s
}

// HanCount is the number of Han characters in s.
func HanCount(s string) int {
	n := 0
	for _, r := range s {
		if isHan(r) {
			n++
		}
	}
	return n
}

// String shows the normalised text (for tests and debugging).
func (n Normalized) String() string { return strings.TrimSpace(string(n.Runes)) }
