package check

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// wholeSentence is the share of a sentence's letters that copied runs must cover for the whole
// sentence to count as copied, as CNKI marks copied sentences: a sentence copied with every few words
// changed is copied whole, its changed words and its closing punctuation too, while the runs
// alignment finds stop at each changed word.
const wholeSentence = 0.5

// sentencePieces are the sentences of text cut at its cited quotations, what extendToSentences
// extends runs to. A paragraph aligned to several sources has them made once (paragraph.sentences).
func sentencePieces(text []rune) [][2]int {
	return splitAtQuotes(sentenceBounds(text), extract.QuotedSpans(string(text)))
}

// extendToSentences extends runs (rune spans of text, sorted, not overlapping) to the sentences
// of pieces (sentencePieces(text)) they cover mostly, and returns them merged. A cited quotation is
// a sentence of its own (its text without the marks), so that a quoted passage stays quoted. Only
// the copy's runs are extended: the source's mark the text it shares.
func extendToSentences(text []rune, pieces, runs [][2]int) [][2]int {
	if len(runs) == 0 {
		return runs
	}
	out := append([][2]int(nil), runs...)
	for _, s := range pieces {
		total, covered := 0, 0
		for k := s[0]; k < s[1]; k++ {
			if !letterOrDigit(text[k]) {
				continue
			}
			total++
			for _, r := range runs {
				if k >= r[0] && k < r[1] {
					covered++
					break
				}
			}
		}
		if total > 0 && covered > 0 && float64(covered) >= wholeSentence*float64(total) {
			out = append(out, s)
		}
	}
	return similarity.MergeSpans(out, 0)
}

// splitAtQuotes cuts sentences where cited quotations (marks included) begin and end, the
// quotations' inner text being pieces of their own.
func splitAtQuotes(sentences, quotes [][2]int) [][2]int {
	if len(quotes) == 0 {
		return sentences
	}
	var out [][2]int
	for _, s := range sentences {
		at := s[0]
		for _, q := range quotes {
			if q[1] <= at || q[0] >= s[1] {
				continue
			}
			if q[0] > at {
				out = append(out, [2]int{at, q[0]})
			}
			if in := [2]int{max(at, q[0]+1), min(s[1], q[1]-1)}; in[1] > in[0] {
				out = append(out, in)
			}
			at = min(s[1], q[1])
		}
		if at < s[1] {
			out = append(out, [2]int{at, s[1]})
		}
	}
	return out
}

// closers are the quotes and brackets that close after a sentence's final mark.
const closers = "”’\"')）]】」』"

// letterOrDigit is similarity.LetterLike, answering ASCII and the CJK Unified Ideographs (all
// letters) without the tables' search: extendToSentences asks it of every character of a
// paragraph for each source found in it.
func letterOrDigit(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return 'a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9'
	case 0x4E00 <= r && r <= 0x9FFF:
		return true
	}
	return similarity.LetterLike(r)
}

// sentenceBounds splits text into sentences, each with its closing punctuation and the closing
// quotes or brackets after it; spaces between sentences belong to none. A full-width full stop ends
// one as a full stop does (English in full-width forms had no sentences: its copied runs were
// extended to whole paragraphs).
func sentenceBounds(text []rune) [][2]int {
	var out [][2]int
	start := -1
	for i := 0; i < len(text); i++ {
		r := text[i]
		if start < 0 {
			if unicode.IsSpace(r) {
				continue
			}
			start = i
		}
		end := strings.ContainsRune("。！？!?；;", r) ||
			(r == '.' || r == '．') && (i+1 == len(text) || unicode.IsSpace(text[i+1]) || strings.ContainsRune(closers, text[i+1]))
		if !end && i+1 < len(text) {
			continue
		}
		j := i + 1
		for j < len(text) && strings.ContainsRune(closers, text[j]) {
			j++
		}
		out = append(out, [2]int{start, j})
		start, i = -1, j-1
	}
	return out
}
