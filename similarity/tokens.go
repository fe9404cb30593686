package similarity

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/yanyiwu/gojieba"

	"thesischeck/assets"
)

// Token is one word of a normalised paragraph. Start and End are rune offsets into the original
// (not normalised) text, so a run of tokens maps straight to the characters a user sees.
type Token struct {
	Hash       uint32 // FNV-1a of the normalised word; stable across runs and machines
	Start, End int32
	Stop       bool    // a stop word or a number: too common to seed a match on its own
	Num        bool    // a number: not counted as copied text on its own
	Weight     float32 // IDF weight for SimHash; 0 for stop words
	Sentence   uint8   // SentenceStart, SentenceEnd: where the token stands in its sentence
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
// instance costs about 130 MB and a second to load, and its Cut is safe for concurrent use.
type Segmenter struct {
	jieba *gojieba.Jieba
	stop  map[string]bool
	idf   map[string]float32
	idfMu sync.Once
	dir   string
}

var (
	segOnce sync.Once
	seg     *Segmenter
	segErr  error
)

// Default returns the process's segmenter, loading jieba's dictionaries on first use (about a
// second). Call it off the UI goroutine.
func Default() (*Segmenter, error) {
	segOnce.Do(func() { seg, segErr = newSegmenter() })
	return seg, segErr
}

// dictFiles are the five files gojieba reads, in the order NewJieba takes them.
var dictFiles = []string{"jieba.dict.utf8", "hmm_model.utf8", "user.dict.utf8", "idf.utf8", "stop_words.utf8"}

func newSegmenter() (s *Segmenter, err error) {
	dir, err := unpackDicts()
	if err != nil {
		return nil, fmt.Errorf("segmenter: %w", err)
	}
	paths := make([]string, len(dictFiles))
	for i, f := range dictFiles {
		paths[i] = filepath.Join(dir, f)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("segmenter: jieba: %v", r)
		}
	}()
	s = &Segmenter{jieba: gojieba.NewJieba(paths...), dir: dir, stop: map[string]bool{}}
	data, _ := assets.Jieba.ReadFile("jieba/stop_words.utf8")
	for _, w := range strings.Split(string(data), "\n") {
		if w = strings.TrimSpace(w); w != "" {
			s.stop[strings.ToLower(w)] = true
		}
	}
	return s, nil
}

// unpackDicts writes the embedded dictionaries once into the user's cache folder: cppjieba reads
// only real files, and the paths gojieba computes at build time do not exist on a user's machine.
// The folder is named by the content's hash, so a changed dictionary never meets a stale copy.
func unpackDicts() (string, error) {
	h := sha256.New()
	for _, f := range dictFiles {
		data, err := assets.Jieba.ReadFile("jieba/" + f)
		if err != nil {
			return "", err
		}
		h.Write(data)
	}
	sum := hex.EncodeToString(h.Sum(nil))[:16]
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "thesischeck", "dict-"+sum)
	if ok := dictsPresent(dir); ok {
		return dir, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, f := range dictFiles {
		data, _ := assets.Jieba.ReadFile("jieba/" + f)
		tmp, err := os.CreateTemp(dir, f+".tmp*")
		if err != nil {
			return "", err
		}
		if _, err := tmp.Write(data); err != nil {
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

func dictsPresent(dir string) bool {
	for _, f := range dictFiles {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			return false
		}
		emb, err := fs.Stat(assets.Jieba, "jieba/"+f)
		if err != nil || emb.Size() != st.Size() {
			return false
		}
	}
	return true
}

// Tokens splits a normalised paragraph into words.
func (s *Segmenter) Tokens(n Normalized) []Token {
	rs := n.Runes
	toks := make([]Token, 0, len(rs)/2)
	boundary := true
	add := func(start, end int) {
		w := string(rs[start:end])
		t := Token{Hash: hashWord(w), Start: int32(n.Orig[start]), End: int32(n.Orig[end-1] + 1), Stop: s.stop[w]}
		if isNumber(rs[start:end]) {
			t.Stop, t.Num = true, true
		}
		if !t.Stop {
			t.Weight = s.IDF(w)
		}
		if boundary {
			t.Sentence = SentenceStart
			boundary = false
		}
		toks = append(toks, t)
	}
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case IsCJK(r):
			j := i
			for j < len(rs) && IsCJK(rs[j]) {
				j++
			}
			pos := i
			for _, w := range s.jieba.Cut(string(rs[i:j]), true) {
				k := len([]rune(w))
				if k == 0 {
					continue
				}
				add(pos, pos+k)
				pos += k
			}
			i = j
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := i + 1
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || unicode.Is(unicode.Mn, rs[j]) ||
				(rs[j] == '\'' && j+1 < len(rs) && unicode.IsLetter(rs[j+1]))) && !IsCJK(rs[j]) {
				j++
			}
			add(i, j)
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
	return toks
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
// know; the table is read on first use.
func (s *Segmenter) IDF(word string) float32 {
	s.idfMu.Do(func() {
		s.idf = map[string]float32{}
		data, err := assets.Jieba.ReadFile("jieba/idf.utf8")
		if err != nil {
			return
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			line := sc.Text()
			if i := strings.LastIndexByte(line, ' '); i > 0 {
				if v, err := strconv.ParseFloat(line[i+1:], 32); err == nil {
					s.idf[line[:i]] = float32(v)
				}
			}
		}
	})
	if v, ok := s.idf[word]; ok {
		return v
	}
	return 11.7 // about the median of jieba's table: an unseen word is as telling as a typical one
}

func hashWord(w string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(w))
	return h.Sum32()
}

// Prepared is a paragraph ready to compare: its words, SimHash and word bigrams.
type Prepared struct {
	Tokens  []Token
	SimHash uint64
	Grams   []uint32
	Dodges  Dodges
}

// Prepare normalises, segments and fingerprints one paragraph.
func (s *Segmenter) Prepare(text string) Prepared {
	n := Normalize(text)
	toks := s.Tokens(n)
	return Prepared{Tokens: toks, SimHash: SimHash(toks), Grams: Grams(toks), Dodges: n.Dodges}
}

func isNumber(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
