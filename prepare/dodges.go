package prepare

import (
	"fmt"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// minTraditional is the fewest traditional characters that warn.
const minTraditional = 10

// minMarks is the fewest marks read off letters that warn, and marksShare the least share of the
// text's characters: an English thesis names Gödel and quotes a café; a dot over every tenth
// letter is a trick.
const (
	minMarks   = 20
	marksShare = 0.01
)

// minNarrowSpaces is the fewest narrow spaces inside words that warn: one may be a slip of the
// keyboard (or of a paste from a typeset page), ten in a row of words are a trick.
const minNarrowSpaces = 10

// minSplitWords is the fewest marks read off inside English words that warn, and splitWordsShare
// the least share of the text's characters: hyphenated compounds whose second part is no word
// (ante-bellum, teen-ager, half-hearted) make up to four in the devset's English documents of
// 20,000 characters, one in 5,000; the trick puts one in every long word, one in 30.
const (
	minSplitWords   = 10
	splitWordsShare = 1.0 / 2000
)

// minRadicals is the fewest radicals read as characters that warn: a thesis on Chinese script
// names a few (部首⺡); a text with them for the characters they look like has dozens.
const minRadicals = 10

// minLetterPairs is the fewest letter pairs read as one letter (rn as m) that warn, as look-alikes:
// a name or another language's word may read as an English one (ahern as ahem, evvers as ewers: up
// to four in a file of 776 English files on the development machine); a copy so written has one
// in every few words.
const minLetterPairs = 10

// minSpacedLetters is the fewest letters spaced apart that warn: a few words' worth, not a list's
// "a b c d e f".
const minSpacedLetters = 20

// DodgeWarnings are the warnings of the tricks that normalising a document's text undid (d, summed
// over its paragraphs; han is the Han characters of the same paragraphs), for a check's report and
// a comparison's documents alike. Spaces between Chinese characters warn only past a handful, and
// past one in 500 Han characters in a long text, so that a stray spaced phrase does not cry wolf
// while a spaced-out paragraph still does; traditional characters past a handful too (a name or a
// title quoted in them is no trick; a paragraph converted has dozens); marks on letters past minMarks
// and marksShare of chars, the characters of the same paragraphs.
func DodgeWarnings(d similarity.Dodges, han, chars int) []extract.Warning {
	var w []extract.Warning
	if d.Invisible > 0 {
		w = append(w, extract.Warning{Kind: extract.WarnInvisible, Count: d.Invisible,
			Message: fmt.Sprintf("%d invisible characters (zero-width or format characters): a common way to dodge checkers", d.Invisible)})
	}
	if lookalike := d.Lookalike + pairsPast(d.LetterPairs); lookalike > 0 {
		w = append(w, extract.Warning{Kind: extract.WarnLookalike, Count: lookalike,
			Message: fmt.Sprintf("%d look-alike letters (Cyrillic or Greek letters, small capitals, symbols, digits or letter pairs such as rn for m drawn as letters inside Latin words): a common way to dodge checkers", lookalike)})
	}
	if d.SpacedCJK >= max(10, han/500) {
		w = append(w, extract.Warning{Kind: extract.WarnSpaced, Count: d.SpacedCJK,
			Message: fmt.Sprintf("%d spaces between Chinese characters: a common way to dodge checkers", d.SpacedCJK)})
	}
	if d.Interleaved >= max(10, han/500) {
		w = append(w, extract.Warning{Kind: extract.WarnInterleaved, Count: d.Interleaved,
			Message: fmt.Sprintf("%d characters put between Chinese characters inside words (本·研·究, 本研，究以高，校, 本研xq究以高qz校), read without them: a way to dodge checkers", d.Interleaved)})
	}
	if d.SpacedLetters >= minSpacedLetters {
		w = append(w, extract.Warning{Kind: extract.WarnSpacedLetters, Count: d.SpacedLetters,
			Message: fmt.Sprintf("%d letters spaced apart (w o r d s read one letter at a time, which match nothing): a common way to dodge checkers", d.SpacedLetters)})
	}
	if d.Marks >= minMarks && float64(d.Marks) >= marksShare*float64(chars) {
		w = append(w, extract.Warning{Kind: extract.WarnMarks, Count: d.Marks,
			Message: fmt.Sprintf("%d marks on letters or Chinese characters (é, a dot over a letter, a line under a character), read without them: added to plain words, a way to dodge checkers; names and words of other languages carry them too", d.Marks)})
	}
	if d.NarrowSpaces >= minNarrowSpaces {
		w = append(w, extract.Warning{Kind: extract.WarnNarrowSpaces, Count: d.NarrowSpaces,
			Message: fmt.Sprintf("%d hair or thin spaces inside words (a gap a reader hardly sees, which splits each word in two), read without them: a way to dodge checkers", d.NarrowSpaces)})
	}
	if d.SplitWords >= minSplitWords && float64(d.SplitWords) >= splitWordsShare*float64(chars) {
		w = append(w, extract.Warning{Kind: extract.WarnSplitWords, Count: d.SplitWords,
			Message: fmt.Sprintf("%d marks put inside English words (plagi'arism, docu-ment), read without them: a way to dodge checkers", d.SplitWords)})
	}
	if d.Radicals >= minRadicals {
		w = append(w, extract.Warning{Kind: extract.WarnRadicals, Count: d.Radicals,
			Message: fmt.Sprintf("%d radicals drawn as whole Chinese characters (⻓ for 长), read as those characters: a way to dodge checkers; a text about Chinese script names radicals too", d.Radicals)})
	}
	if d.Traditional >= minTraditional {
		w = append(w, extract.Warning{Kind: extract.WarnTraditional, Count: d.Traditional,
			Message: fmt.Sprintf("%d traditional Chinese characters, compared as simplified", d.Traditional)})
	}
	return w
}

// pairsPast is n letter pairs read as one letter, or 0 under minLetterPairs.
func pairsPast(n int) int {
	if n < minLetterPairs {
		return 0
	}
	return n
}
