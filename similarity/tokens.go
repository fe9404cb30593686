package similarity

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/yanyiwu/gojieba"

	"thesischeck/assets"
)

// Token is one word of a normalised paragraph. Start and End are rune offsets into the original
// (not normalised) text, so a run of tokens maps straight to the characters a user sees.
type Token struct {
	Hash       uint32 // FNV-1a of the normalised word; stable across runs and machines
	Start, End int32
	Weight     float32 // IDF weight for SimHash; 0 for stop words
	// The one-byte fields last: 20 bytes a token instead of the 24 the order Stop, Num, Weight,
	// Sentence took (a class of a thousand twenty-page submissions holds 13 million tokens).
	Stop     bool  // a stop word or a number: too common to seed a match on its own
	Num      bool  // a number: not counted as copied text on its own
	Sentence uint8 // SentenceStart, SentenceEnd: where the token stands in its sentence
}

// Token.Sentence bits. Only the checked text needs them (Align asks whether a short run is a whole
// sentence), so the library does not store them.
const (
	SentenceStart = 1 << iota
	SentenceEnd
)

// sentenceEnd reports punctuation that ends a sentence, after normalisation folded full-width forms.
func sentenceEnd(r rune) bool {
	switch r {
	case '.', '!', '?', ';', '\n', '…':
		return true
	}
	return false
}

// Segmenter splits normalised text into words: jieba for Chinese (HMM on, for words not in the
// dictionary), letters and digits for Latin script. One instance serves the whole process: a gojieba
// instance costs about 130 MB and 0.7 s to load (1.5 s without huge pages: internal/hugepages), and
// its Cut is safe for concurrent use.
type Segmenter struct {
	jieba *gojieba.Jieba
	stop  *stopSet
	only  *runFilter // from ForTexts: jieba's dictionary holds only the words this passes
	words *wordSet   // from ForTexts: the words of its dictionary (Wordiness)
	// made holds the texts ForTexts normalised to make its dictionary, which PrepareWeighted
	// takes instead of normalising them again. Read-only once the segmenter is returned.
	made map[string]Normalized
}

var (
	segOnce sync.Once
	seg     *Segmenter
	segErr  error
)

// Default returns the process's segmenter, loading jieba's dictionaries on first use (0.7 s). Call
// it off the UI goroutine.
func Default() (*Segmenter, error) {
	segOnce.Do(func() {
		if seg, segErr = newSegmenter(); segErr == nil {
			loaded.Store(seg)
		}
	})
	return seg, segErr
}

// dictFiles are the five files gojieba reads, in the order NewJieba takes them. Its keyword extractor
// is never used, so instead of the 6 MB IDF table (a quarter of the start-up, and Segmenter.IDF
// reads it anyway) it gets idfStub: segmentation does not read it.
var dictFiles = []string{"jieba.dict.utf8", "hmm_model.utf8", "user.dict.utf8", idfStub, "stop_words.utf8"}

// idfStub is one well-formed line: the extractor wants at least one and a positive average.
const idfStub = "idf-stub.utf8"

var idfStubData = []byte("的 1\n")

// openDict opens one of dictFiles. Its content is read as a stream: a copy of the 5 MB dictionary
// on every start cost 60-100 ms before jieba could begin to load.
func openDict(f string) (io.ReadCloser, error) {
	if f == idfStub {
		return io.NopCloser(bytes.NewReader(idfStubData)), nil
	}
	return assets.Jieba.Open("jieba/" + f)
}

// copyDict copies one of dictFiles to w.
func copyDict(w io.Writer, f string) error {
	r, err := openDict(f)
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = io.Copy(w, r)
	return err
}

func dictSize(f string) (int64, error) {
	if f == idfStub {
		return int64(len(idfStubData)), nil
	}
	st, err := fs.Stat(assets.Jieba, "jieba/"+f)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

func newSegmenter() (*Segmenter, error) {
	dir, err := unpackDicts()
	if err != nil {
		return nil, fmt.Errorf("segmenter: %w", err)
	}
	paths := make([]string, len(dictFiles))
	for i, f := range dictFiles {
		paths[i] = filepath.Join(dir, f)
	}
	go loadIDF() // on the other core while cppjieba builds its trie on this one
	j, err := newJieba(paths)
	if err != nil {
		return nil, err
	}
	return &Segmenter{jieba: j, stop: stopWords()}, nil
}

// newJieba loads jieba from dictionary files, its panics returned as errors.
func newJieba(paths []string) (j *gojieba.Jieba, err error) {
	defer func() {
		if r := recover(); r != nil {
			j, err = nil, fmt.Errorf("segmenter: jieba: %v", r)
		}
	}()
	return gojieba.NewJieba(paths...), nil
}

// stopSet is jieba's stop words in a table by their word hashes, with a bit for each hash in front:
// most words are not stop words, and the bit tells them at one load from memory where the map
// lookup hashed the word once more (7 % of an import's CPU went to the lookup and its closure). The
// words themselves, about 1,500, sit in open addressing by the hash tokens has made anyway: a
// map[string]bool behind the bits still hashed every frequent English word (the, of, and) once more,
// 0.78 of 34 s of CPU importing 10,000 documents.
type stopSet struct {
	bits  [1 << 10]uint64 // by the low 16 bits of hashWord
	slots [1 << 12]string // by the low 12 bits, the next free slot on a collision
}

func stopWords() *stopSet {
	stop := &stopSet{}
	data, _ := assets.Jieba.ReadFile("jieba/stop_words.utf8")
	for _, w := range strings.Split(string(data), "\n") {
		if w = strings.TrimSpace(w); w != "" {
			w = strings.ToLower(w)
			h := hashWord([]byte(w))
			stop.bits[h>>6&(1<<10-1)] |= 1 << (h & 63)
			stop.slots[stop.slot([]byte(w), h)] = w
		}
	}
	return stop
}

// has reports whether w, whose hashWord is h, is a stop word.
func (s *stopSet) has(w []byte, h uint32) bool {
	return s.bits[h>>6&(1<<10-1)]&(1<<(h&63)) != 0 && s.slots[s.slot(w, h)] != ""
}

// slot is the slot that holds w, whose hashWord is h, or the free one where it would go.
func (s *stopSet) slot(w []byte, h uint32) uint32 {
	for i := h; ; i++ {
		if k := i % uint32(len(s.slots)); s.slots[k] == "" || s.slots[k] == string(w) {
			return k
		}
	}
}

var latin = sync.OnceValue(func() *Segmenter { return &Segmenter{stop: stopWords()} })

// Latin returns a segmenter for texts NeedsJieba says no to, without jieba's dictionary (about 1 ms
// to make instead of 0.6-0.9 s): the same words, stop words and weights as Default's, since those
// texts never reach jieba. Given a text that holds CJK characters once normalised, it panics.
func Latin() *Segmenter { return latin() }

// NeedsJieba reports whether text may hold CJK characters once normalised (see Normalize), which
// only Default's segmenter can split: a character of jiebaBlocks. The test tries every character.
func NeedsJieba(text string) bool {
	for _, r := range text {
		if r >= 0x1100 && unicode.Is(jiebaBlocks, r) {
			return true
		}
	}
	return false
}

// jiebaBlocks are the blocks that hold CJK characters (IsCJK) or characters normalisation turns into
// them: Hangul jamo (which compose into syllables), radicals, CJK symbols, kana, Bopomofo, enclosed
// and compatibility ideographs, half-width kana and Hangul, ideographic symbols (Tangut marks, U+16FE0),
// and the supplementary ideographs. Not
// the full-width forms of ASCII, the Latin ligatures (ﬁ) or emoji, which English text holds too.
var jiebaBlocks = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x1100, Hi: 0x11FF, Stride: 1},
		{Lo: 0x2E80, Hi: 0x9FFF, Stride: 1},
		{Lo: 0xA960, Hi: 0xA97F, Stride: 1},
		{Lo: 0xAC00, Hi: 0xD7FF, Stride: 1},
		{Lo: 0xF900, Hi: 0xFAFF, Stride: 1},
		{Lo: 0xFE30, Hi: 0xFE4F, Stride: 1},
		{Lo: 0xFF61, Hi: 0xFFDC, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x16FE0, Hi: 0x16FFF, Stride: 1},
		{Lo: 0x1AFF0, Hi: 0x1B16F, Stride: 1},
		{Lo: 0x1F200, Hi: 0x1F2FF, Stride: 1},
		{Lo: 0x20000, Hi: 0x3FFFF, Stride: 1},
	},
}

// unpackDicts writes the dictionaries once into the user's cache folder: cppjieba reads only real
// files, and the paths gojieba computes at build time do not exist on a user's machine. The folder
// is named by the content's hash, so a changed dictionary never meets a stale copy.
func unpackDicts() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "thesischeck", "dict-"+dictsSum)
	if ok := dictsPresent(dir); ok {
		return dir, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, f := range dictFiles {
		tmp, err := os.CreateTemp(dir, f+".tmp*")
		if err != nil {
			return "", err
		}
		if err := copyDict(tmp, f); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return "", err
		}
		if err := tmp.Close(); err != nil {
			return "", err
		}
		if err := os.Rename(tmp.Name(), filepath.Join(dir, f)); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// dictsSum is the start of the SHA-256 of dictFiles' contents, which names their folder: a
// constant, because hashing the 11 MB took 12-14 ms of every command-line check of Chinese text.
// TestDictsSum fails when the dictionaries change and it does not.
const dictsSum = "ebb60345c12ca309"

func dictsPresent(dir string) bool {
	for _, f := range dictFiles {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			return false
		}
		size, err := dictSize(f)
		if err != nil || size != st.Size() {
			return false
		}
	}
	return true
}

// Tokens splits a normalised paragraph into words.
func (s *Segmenter) Tokens(n Normalized) []Token { return s.tokens(n, nil) }

// UnweightedTokens is Tokens without the IDF weights only SimHash uses (every Weight is 0): looking
// the words up was a tenth of the CPU of reading a class for compare, which makes no SimHash.
func (s *Segmenter) UnweightedTokens(n Normalized) []Token {
	return s.tokens(n, func(uint32) float32 { return 0 })
}

// tokens is Tokens with the words weighted by weight (nil: jieba's IDF table).
func (s *Segmenter) tokens(n Normalized, weight func(hash uint32) float32) []Token {
	return s.appendTokens(make([]Token, 0, len(n.Runes)/2), n, weight)
}

// appendTokens appends the tokens of n to toks.
func (s *Segmenter) appendTokens(toks []Token, n Normalized, weight func(hash uint32) float32) []Token {
	from := len(toks)
	rs := n.Runes
	boundary := true
	var w []byte   // the word in UTF-8, reused: map lookups with string(w) do not allocate
	var run []byte // a CJK run in UTF-8 for jieba, reused
	var t Token
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case IsCJK(r):
			j := i
			for j < len(rs) && IsCJK(rs[j]) {
				j++
			}
			pos := i
			if s.jieba == nil {
				panic("similarity: the Latin segmenter was given CJK text; NeedsJieba must say yes to it")
			}
			run = appendRunes(run[:0], rs[i:j])
			// Cut copies the run for jieba and returns substrings of it, read before run is
			// reused: no string allocated for every run (1.3 % of an import's CPU).
			for _, word := range s.cutter(rs[i:j]).Cut(unsafe.String(unsafe.SliceData(run), len(run)), true) {
				k := utf8.RuneCountInString(word)
				if k == 0 {
					continue
				}
				w = append(w[:0], word...)
				t = s.token(rs[pos:pos+k], n.Orig[pos:pos+k], w, weight)
				t.Sentence, boundary = sentenceStartBit(boundary), false
				toks = append(toks, t)
				pos += k
			}
			i = j
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := i + 1
			for j < len(rs) && inLatinWord(rs, j) {
				j++
			}
			w = appendRunes(w[:0], rs[i:j])
			t = s.token(rs[i:j], n.Orig[i:j], w, weight)
			t.Sentence, boundary = sentenceStartBit(boundary), false
			toks = append(toks, t)
			i = j
		default:
			if sentenceEnd(r) && len(toks) > 0 && !boundary {
				toks[len(toks)-1].Sentence |= SentenceEnd
				boundary = true
			}
			i++
		}
	}
	if len(toks) > 0 {
		toks[len(toks)-1].Sentence |= SentenceEnd
	}
	widenPaired(toks[from:], n.paired)
	return toks
}

// widenPaired moves the end of each token of toks that ends in a letter read from a letter pair
// past the pair's second letter (frorn read as from: its m has the r's place, paired the n's), so
// that a token's span holds the characters the student wrote for it.
func widenPaired(toks []Token, paired []int32) {
	if len(paired) == 0 {
		return
	}
	for i := range toks {
		if _, ok := slices.BinarySearch(paired, toks[i].End); ok {
			toks[i].End++
		}
	}
}

// inLatinWord reports whether rs[j] continues the letters and digits before it: a letter, digit or
// combining mark that is not CJK, or an apostrophe before a letter. ASCII, most of it, is answered
// without the Unicode tables.
func inLatinWord(rs []rune, j int) bool {
	r := rs[j]
	switch {
	case 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9':
		return true
	case r == '\'':
		return j+1 < len(rs) && unicode.IsLetter(rs[j+1])
	case r < utf8.RuneSelf:
		return false
	}
	return (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)) && !IsCJK(r)
}

func appendRunes(b []byte, rs []rune) []byte {
	for _, r := range rs {
		b = utf8.AppendRune(b, r)
	}
	return b
}

// sentenceStartBit is the Sentence bits of a word that comes at a sentence's boundary or not.
func sentenceStartBit(boundary bool) uint8 {
	if boundary {
		return SentenceStart
	}
	return 0
}

// token makes the token of the word rs (orig: its runes' offsets in the original text, w: it in
// UTF-8), weighted by weight (nil: jieba's IDF table). A function of plain values, not a closure
// over tokens' variables: the closure's stores to them went through write barriers (4 % of
// preparing a paragraph).
func (s *Segmenter) token(rs []rune, orig []int32, w []byte, weight func(hash uint32) float32) Token {
	h := hashWord(w)
	t := Token{Hash: h, Start: orig[0], End: orig[len(orig)-1] + 1, Stop: s.stop.has(w, h)}
	if isNumber(rs) {
		t.Stop, t.Num = true, true
	}
	switch {
	case t.Stop: // stop words and numbers weigh nothing
	case weight != nil:
		t.Weight = weight(t.Hash)
	default:
		t.Weight = s.idfOf(w)
	}
	return t
}

// Words returns the words of text as the user wrote them (original characters), for display and
// tests.
func (s *Segmenter) Words(text string) []string {
	orig := []rune(text)
	var out []string
	for _, t := range s.Tokens(Normalize(text)) {
		out = append(out, string(orig[t.Start:t.End]))
	}
	return out
}

// IDF returns jieba's inverse document frequency for a word, or the median for words it does not
// know; the table is read while jieba loads, or on first use.
func (s *Segmenter) IDF(word string) float32 { return s.idfOf([]byte(word)) }

func (s *Segmenter) idfOf(word []byte) float32 {
	idf := loadIDF()
	if v, ok := idf.words[maphash.Bytes(idf.seed, word)]; ok {
		return v
	}
	return 11.7 // about the median of jieba's table: an unseen word is as telling as a typical one
}

// idfWords is about the number of words in jieba's IDF table (258,826), to size the map once.
const idfWords = 260_000

// idfTable is jieba's IDF table, one for the process: Default's and Latin's segmenters share it.
type idfTable struct {
	words map[uint64]float32 // by the word's maphash: a map of 260,000 strings is scanned by every GC
	seed  maphash.Seed
}

// loadIDF reads jieba's IDF table, once. Words are keyed by a 64-bit hash: two of the table's
// words share one with a chance of about 2e-9.
var loadIDF = sync.OnceValue(func() *idfTable {
	t := &idfTable{seed: maphash.MakeSeed(), words: make(map[uint64]float32, idfWords)}
	f, err := assets.Jieba.Open("jieba/idf.utf8")
	if err != nil {
		return t
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		if i := bytes.LastIndexByte(line, ' '); i > 0 {
			if v, err := strconv.ParseFloat(string(line[i+1:]), 32); err == nil {
				t.words[maphash.Bytes(t.seed, line[:i])] = float32(v)
			}
		}
	}
	return t
})

// hashWord is 32-bit FNV-1a, written out so that hashing a word allocates nothing.
func hashWord(w []byte) uint32 {
	h := uint32(2166136261)
	for _, b := range w {
		h ^= uint32(b)
		h *= 16777619
	}
	return h
}

// SpanHasher gives the Hash a token of a span of a text (rune offsets, as Token's) has when
// normalisation changed nothing of its characters but ASCII upper case: hashWord of their UTF-8
// with 'A'-'Z' lowered, nothing else. The library stores a token's hash only when it differs
// from this (traditional characters, look-alikes, NFKC forms...), so it must never change: stored
// tokens would read back with other hashes. It walks the text's bytes once while the spans come in
// order (a paragraph's tokens do): decoding the text into runes and each span's runes back into
// UTF-8 took 11.6 s of the 440 s of CPU importing 100,000 documents, and a twentieth of a thesis
// check's, in the library's records.
type SpanHasher struct {
	text string
	pos  int   // byte offset of rune number n
	n    int32 // runes before pos
}

// NewSpanHasher returns a SpanHasher of text.
func NewSpanHasher(text string) SpanHasher { return SpanHasher{text: text} }

// Hash returns the hash of runes [start, end) of the text, or false when start < 0, start > end or
// the text has fewer than end runes (a byte that is not UTF-8 is a rune U+FFFD, as in []rune of
// the text). A span before the last one asked starts the walk again.
func (s *SpanHasher) Hash(start, end int32) (uint32, bool) {
	if start < 0 || start > end {
		return 0, false
	}
	if start < s.n {
		s.pos, s.n = 0, 0
	}
	for ; s.n < start; s.n++ {
		if s.pos >= len(s.text) {
			return 0, false
		}
		if s.text[s.pos] < utf8.RuneSelf {
			s.pos++
		} else if s.han3() {
			s.pos += 3
		} else {
			_, k := utf8.DecodeRuneInString(s.text[s.pos:])
			s.pos += k
		}
	}
	h := uint32(2166136261)
	for ; s.n < end; s.n++ {
		if s.pos >= len(s.text) {
			return 0, false
		}
		if c := s.text[s.pos]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			h ^= uint32(c)
			h *= 16777619
			s.pos++
			continue
		}
		if s.han3() {
			h = (h ^ uint32(s.text[s.pos])) * 16777619
			h = (h ^ uint32(s.text[s.pos+1])) * 16777619
			h = (h ^ uint32(s.text[s.pos+2])) * 16777619
			s.pos += 3
			continue
		}
		r, k := utf8.DecodeRuneInString(s.text[s.pos:])
		b := s.text[s.pos : s.pos+k]
		if r == utf8.RuneError && k == 1 {
			b = "\uFFFD" // a byte that is not UTF-8 is U+FFFD among the text's runes
		}
		for i := 0; i < len(b); i++ {
			h ^= uint32(b[i])
			h *= 16777619
		}
		s.pos += k
	}
	return h, true
}

// han3 reports whether the text at pos is a three-byte character whose first byte allows any
// continuation (E1-EC, EE-EF: U+1000-U+CFFF and U+E000-U+FFFF, Chinese among them), so that its
// bytes are the character without decoding it: utf8.DecodeRuneInString was a third of Hash on
// Chinese records. Others (E0 and ED, which exclude overlong forms and surrogates; two and four
// bytes) are decoded.
func (s *SpanHasher) han3() bool {
	t := s.text
	i := s.pos
	if i+2 >= len(t) {
		return false
	}
	c := t[i]
	return (c >= 0xE1 && c <= 0xEC || c == 0xEE || c == 0xEF) && t[i+1]&0xC0 == 0x80 && t[i+2]&0xC0 == 0x80
}

// Prepared is a paragraph ready to compare: its words, SimHash and word bigrams.
type Prepared struct {
	Tokens  []Token
	SimHash uint64
	Grams   []uint32
	Dodges  Dodges
	Runes   int // the characters of the text, as Normalize counted them
}

// Prepare normalises, segments and fingerprints one paragraph.
func (s *Segmenter) Prepare(text string) Prepared { return s.PrepareWeighted(text, nil) }

// PrepareWeighted is Prepare with the words weighted by weight (nil: jieba's IDF table), such as
// the weights a library learned from its own paragraphs: the same as Prepare then Reweight, but
// without looking every word up in jieba's table first.
func (s *Segmenter) PrepareWeighted(text string, weight func(hash uint32) float32) Prepared {
	sc := scratches.Get().(*scratch)
	defer scratches.Put(sc)
	n, ok := s.made[text]
	if !ok {
		n = normalize(text, sc.runes, sc.orig)
		sc.runes, sc.orig = n.Runes, n.Orig
	}
	sc.toks = s.appendTokens(sc.toks[:0], n, weight)
	toks := make([]Token, len(sc.toks))
	copy(toks, sc.toks)
	n.CountMarksInWords(toks)
	return Prepared{Tokens: toks, SimHash: SimHash(toks), Grams: Grams(toks), Dodges: n.Dodges, Runes: n.Len}
}

// scratch is the memory PrepareWeighted needs only while it runs: the normalised text and the
// tokens before they are copied out at their number. Allocated anew for each paragraph, with room
// for a token every two characters (three times too many for English), they were 35 % of the
// bytes an import allocated (pprof of 4,000 generated documents, 2.34 GB in all).
type scratch struct {
	runes []rune
	orig  []int32
	toks  []Token
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

func isNumber(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
