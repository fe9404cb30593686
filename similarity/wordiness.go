package similarity

import (
	"bytes"
	"compress/gzip"
	"io"
	"sync"
	"unicode"
	"unicode/utf8"

	"thesischeck/assets"
)

// Wordiness counts how much of a text reads as words of its language. A file whose fonts draw
// other characters than it holds (a PDF font with a scrambled ToUnicode map, a DOCX with an
// embedded font whose glyphs are swapped: "字体加密", which some 降重 services sell) shows its reader
// ordinary text while a checker reads a substitution cipher of it, which matches nothing. What is
// read then is not words: few of its Chinese characters fall into dictionary words, few of its
// English words are the function words every English sentence is full of.
type Wordiness struct {
	Han        int // Han characters in words
	HanInWords int // of them, those in dictionary words of two or more characters
	Words      int // Latin-script words
	StopWords  int // of them, stop words ("the", "of", "which" …)
	Letters    int // Latin-script letters in words
	Visible    int // characters that are not white space
	// Lower counts the words of a paragraph Garbled judges as English that are written in lower-case
	// letters a-z alone (names, acronyms and words with other letters are not), LowerKnown those of
	// them that the English word list holds (assets.EnglishWords).
	Lower, LowerKnown int
}

// Wordiness measures a text from its tokens (Tokens or UnweightedTokens of its Normalize, so that
// no second cut is needed: a comparison spent a quarter more time cutting every text again). jieba
// cuts with its HMM, which joins characters no dictionary word holds into words of their own; those
// are told from dictionary words by the dictionary's word list.
func (s *Segmenter) Wordiness(text []rune, toks []Token) Wordiness {
	var out Wordiness
	for _, r := range text {
		if !unicode.IsSpace(r) {
			out.Visible++
		}
	}
	var words *wordSet
	for _, t := range toks {
		if int(t.End) > len(text) || t.Start >= t.End {
			continue // tokens of another text
		}
		han, letters := 0, 0
		for _, r := range text[t.Start:t.End] {
			switch {
			case plainHan(r) || isHan(r):
				han++
			case latinLetter(r):
				letters++
			}
		}
		switch {
		case han > 0:
			out.Han += han
			if han < 2 {
				break
			}
			if words == nil {
				words = s.dictWords()
			}
			if words.has(t.Hash) {
				out.HanInWords += han
			}
		case letters > 0:
			out.Words++
			out.Letters += letters
			if t.Stop && !t.Num {
				out.StopWords++
			}
		}
	}
	if out.judgedEnglish() {
		english := englishWords()
		for _, t := range toks {
			if int(t.End) <= len(text) && t.Start < t.End && lowerASCII(text[t.Start:t.End]) {
				out.Lower++
				if english.has(t.Hash) {
					out.LowerKnown++
				}
			}
		}
	}
	return out
}

// judgedEnglish reports a paragraph Garbled judges by its English words: 40 words or more, 85 %
// of its visible characters letters of them.
func (w Wordiness) judgedEnglish() bool {
	return w.Words >= 40 && w.Letters*100 >= w.Visible*85
}

// lowerASCII reports a word of lower-case letters a-z alone.
func lowerASCII(rs []rune) bool {
	for _, r := range rs {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// englishWords is the set of the English word list's words (assets.EnglishWords), made on first
// use: 74,989 words, hashed as a token's Hash is (hashWord of the lower-case word).
var englishWords = sync.OnceValue(loadEnglishWords)

// loadEnglishWords makes englishWords' set: 6.6 ms on one core (a benchmark of it), once a
// process, and only for a text with a paragraph judged as English.
func loadEnglishWords() *wordSet {
	var hashes []uint32
	if zr, err := gzip.NewReader(bytes.NewReader(assets.EnglishWords)); err == nil {
		data, _ := io.ReadAll(zr)
		for len(data) > 0 {
			var line []byte
			line, data = cutLine(data)
			if len(line) > 0 {
				hashes = append(hashes, hashWord(line))
			}
		}
	}
	return newWordSet(hashes)
}

// Garbled reports a paragraph long enough to judge that reads as almost no words. The bounds come
// from the development set's 721 paragraphs of 60 Han characters or more and 2,756 of 40 English
// words or more, read as they are and with each character (Chinese) or letter (English) of a
// document mapped to another:
//
//   - Chinese: dictionary words hold 0.60-0.94 of the Han characters of the paragraphs as read
//     (0.67 at the first percentile); at most 0.25 with each character mapped to a random one of the
//     1,344 the set uses, 0.29 to one of its 500 commonest, 0.06 to any; six passages of classical
//     prose and poetry 0.35-0.73. A paragraph under 0.45 is garbled: 93 % of those with half of the
//     characters mapped (median 0.25), 61 % of those with three in ten (median 0.42).
//   - English: stop words are 0.09-0.76 of the words of prose as read (0.32 at the first
//     percentile), 0 to 0.14 with the letters permuted (0.05 at the 95th percentile). Code, command
//     lines and file listings hold few stop words too (0-0.05), but many digits and signs: only a
//     paragraph whose visible characters are 85 % Latin letters or more is judged (prose 0.92 at
//     the fifth percentile, permuted prose the same). Under 0.06 is garbled.
func (w Wordiness) Garbled() bool {
	switch {
	case w.Han >= 60:
		return w.HanInWords*100 < w.Han*45
	case w.judgedEnglish():
		return w.StopWords*100 < w.Words*6 ||
			w.StopWords*100 >= w.Words*minEnglishStops && w.Lower >= minLowerWords && (w.Lower-w.LowerKnown)*100 > w.Lower*maxUnknownShare
	}
	return false
}

// An English paragraph is garbled too when its stop words are English enough (minEnglishStops % of
// its words or more) but more than maxUnknownShare % of its words in lower-case letters
// (minLowerWords of them at least) are not English words (assets.EnglishWords): a font made to draw
// a few letters as others, which leaves "the", "of" and "to" alone, read the devset's en S002
// (37.4 %) with c, d and m swapped with l, u and p as 0.0 %, and with m, g and b swapped with p, y
// and v as 8.5 %, both with no warning, while 0.27 of their words at least were stop words. Of
// the lower-case words of 2,885 English paragraphs (the devset's 101 English documents, compare's
// test prose, this project's README and docs): median 0 not English, 7.1 % at the 99th percentile,
// 25.4 % at most (spellings of Shakespeare's day); of those two swaps' 31 paragraphs, 29-60 % and
// 16-49 %. Other languages written in Latin letters hold few English stop words (French 0.11,
// German 0, Latin 0.09 in a test) and are left to the stop-word test.
const (
	minEnglishStops = 20
	minLowerWords   = 20
	maxUnknownShare = 30
)

// GarbledTogether tells which of a document's paragraphs (their Wordiness, in order) read as
// almost no words: those Garbled says so of, and the short ones it cannot judge alone (10 to 59 Han
// characters) that are nearly without dictionary words — under 15 % of their characters, not
// Garbled's 45 % — when the document's short paragraphs together are too (200 Han characters at
// least). Text whose fonts draw other characters than the file holds is so throughout: the
// devset's zh L000 with each character replaced by the next code point, line by line, had 4
// paragraphs of 60 Han characters or more, all Garbled, and 21 shorter ones with 0-3 % of their
// characters in words, which Garbled passed (the check matched 22.6 %, from its untouched commands,
// and warned of 6 paragraphs). The same document as written: its short paragraphs 10-66 %, 47 %
// together.
func GarbledTogether(ws []Wordiness) []bool {
	out := make([]bool, len(ws))
	short := func(w Wordiness) bool { return w.Han >= 10 && w.Han < 60 }
	han, inWords := 0, 0
	for i, w := range ws {
		out[i] = w.Garbled()
		if short(w) {
			han += w.Han
			inWords += w.HanInWords
		}
	}
	if han < 200 || inWords*100 >= han*15 {
		return out
	}
	for i, w := range ws {
		if short(w) && w.HanInWords*100 < w.Han*15 {
			out[i] = true
		}
	}
	return out
}

// wordSet holds the hashWord of dictionary words of two or more characters, in open addressing: a
// binary search of the 349,000 sorted hashes of the whole dictionary missed the caches at every
// step (7 % of the CPU of comparing 200 submissions), a slot is read in one or two.
type wordSet struct {
	slots []uint32 // a power of two, at most half full; 0 is an empty slot
	zero  bool     // a word whose hash is 0
}

// newWordSet makes the set of hashes.
func newWordSet(hashes []uint32) *wordSet {
	n := 16
	for n < 2*len(hashes) {
		n *= 2
	}
	ws := &wordSet{slots: make([]uint32, n)}
	for _, h := range hashes {
		if h == 0 {
			ws.zero = true
			continue
		}
		i := ws.slot(h)
		ws.slots[i] = h
	}
	return ws
}

// slot is where h is, or the empty slot where it would go.
func (ws *wordSet) slot(h uint32) uint32 {
	mask := uint32(len(ws.slots) - 1)
	for i := h * 0x9E3779B1 >> 7 & mask; ; i = (i + 1) & mask {
		if s := ws.slots[i]; s == 0 || s == h {
			return i
		}
	}
}

func (ws *wordSet) has(h uint32) bool {
	if h == 0 {
		return ws.zero
	}
	return ws.slots[ws.slot(h)] == h
}

// appendWord appends the hash of w, a dictionary line's word, when it has two characters or more.
func appendWord(hashes []uint32, w []byte) []uint32 {
	if utf8.RuneCount(w) >= 2 {
		hashes = append(hashes, hashWord(w))
	}
	return hashes
}

// dictWords is the words of the segmenter's dictionary: a text dictionary's own (ForTexts), or the
// whole one's.
func (s *Segmenter) dictWords() *wordSet {
	if s.only != nil {
		return s.words
	}
	return wholeDictWords()
}

// wholeDictWords lists jieba's dictionary and user dictionary once, when a text is first measured
// against them (the app, a large comparison).
var wholeDictWords = sync.OnceValue(func() *wordSet {
	var hashes []uint32
	for _, f := range []string{dictFiles[0], "user.dict.utf8"} {
		data, _ := assets.Jieba.ReadFile("jieba/" + f)
		hashes = lineWords(hashes, data)
	}
	return newWordSet(hashes)
})

// lineWords appends the hashes of the words of a jieba dictionary file's lines (the word, then a
// space).
func lineWords(hashes []uint32, data []byte) []uint32 {
	for len(data) > 0 {
		var line []byte
		line, data = cutLine(data)
		if sp := bytes.IndexByte(line, ' '); sp >= 0 {
			line = line[:sp]
		}
		hashes = appendWord(hashes, bytes.TrimSpace(line))
	}
	return hashes
}
