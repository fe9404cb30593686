package similarity

// A check segments one document, and jieba's cost there is not cutting but loading: cppjieba builds
// a trie of the dictionary's 349,000 words (0.55-0.9 s) of which a 40-paragraph text meets a few
// thousand. ForTexts hands jieba a dictionary of only the words the texts can hold, and the words
// come out the same, because of how cppjieba uses its dictionary (deps/cppjieba: DictTrie.hpp,
// Trie.hpp, MPSegment.hpp):
//   - it looks words up only by walking the trie from each character of the text it cuts, so a
//     word that is no substring of that text is never met;
//   - a word weighs log(freq/sum) with sum over the whole dictionary, a character it does not know
//     weighs the least weight, and a user word without a frequency the median one.
// So the kept words are written with filler entries that bring the sum, the least, the greatest
// and the median frequency back to the whole dictionary's, in words of characters jieba is never
// given (it only sees runs of IsCJK characters).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/yanyiwu/gojieba"

	"thesischeck/assets"
	"thesischeck/internal/parallel"
)

// loaded is Default's segmenter once it has loaded.
var loaded atomic.Pointer[Segmenter]

// ForTexts returns a segmenter for texts (paragraphs before Normalize): Default's when it is loaded,
// else one whose dictionary holds only the words the texts may hold (about 50 ms to load instead of
// 0.55-0.9 s). Both cut every text into the same words; given a text it was not made for, the
// smaller one cuts what its dictionary cannot answer for with Default's (loading it). Close it when
// done.
func ForTexts(texts []string) (*Segmenter, error) { return ForTextsWhile(texts, nil) }

// ForTextsWhile is ForTexts that starts meanwhile (when not nil) on a goroutine of its own as jieba
// begins to load, on one core: work that waits for a core while the dictionary is made on all of
// them. It starts it at once when the whole dictionary is loaded already, before loading it when
// the text dictionary cannot stand for it, and not at all when ForTexts fails before.
func ForTextsWhile(texts []string, meanwhile func()) (*Segmenter, error) {
	start := func() {
		if meanwhile != nil {
			go meanwhile()
		}
	}
	if s := loaded.Load(); s != nil {
		start()
		return s, nil
	}
	s, err := textSegmenter(texts, start)
	if errors.Is(err, errWholeDict) {
		start()
		return Default()
	}
	return s, err
}

// errWholeDict means a text dictionary cannot stand for the whole one (its frequencies are not of
// the shape fillers handles); the whole dictionary is used instead.
var errWholeDict = errors.New("the dictionary needs to be loaded whole")

// textSegmenter returns a segmenter whose dictionary holds only the words texts may hold. It calls
// start as jieba begins to load it.
func textSegmenter(texts []string, start func()) (*Segmenter, error) {
	f, made := filterOf(texts)
	dir, err := unpackDicts()
	if err != nil {
		return nil, fmt.Errorf("segmenter: %w", err)
	}
	dict, words, err := textDict(f)
	if err != nil {
		return nil, err
	}
	hmm, err := textHMM(f)
	if err != nil {
		return nil, err
	}
	removeStale(dir)
	paths := make([]string, 0, len(dictFiles))
	for _, data := range [][]byte{dict, hmm} {
		p, err := writeTextDict(dir, data)
		if err != nil {
			return nil, err
		}
		defer os.Remove(p) // cppjieba reads its files while NewJieba runs, never after
		paths = append(paths, p)
	}
	for _, name := range dictFiles[2:] {
		paths = append(paths, filepath.Join(dir, name))
	}
	start()
	j, err := newJieba(paths)
	if err != nil {
		return nil, err
	}
	return &Segmenter{jieba: j, stop: stopWords(), only: f, words: words, made: made}, nil
}

// textDictPattern names the text dictionaries and models textSegmenter writes, each removed once
// jieba has read it.
const textDictPattern = "text-dict*.utf8"

// writeTextDict writes data to a new file in dir and returns its path.
func writeTextDict(dir string, data []byte) (string, error) {
	tmp, err := os.CreateTemp(dir, textDictPattern)
	if err != nil {
		return "", fmt.Errorf("segmenter: %w", err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("segmenter: %w", err)
	}
	return tmp.Name(), nil
}

// textHMM returns jieba's HMM model with the emission probabilities of the characters f holds
// only: jieba asks the model about the characters of the runs f passes, and gives any other the
// least probability, which a character it is not asked about never needs. The model lists 35,224
// (character, state) probabilities; parsing them all was 10 of the 16-18 ms cppjieba took to load
// the text dictionary of the 313-page thesis (its 3,219 kept: 6 ms).
func textHMM(f *runFilter) ([]byte, error) {
	data, err := assets.Jieba.ReadFile("jieba/" + dictFiles[1])
	if err != nil {
		return nil, fmt.Errorf("segmenter: %w", err)
	}
	out := make([]byte, 0, len(data))
	model := 0 // the model's lines so far: the start probabilities, four of transitions, then the emissions
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue // as cppjieba reads the model
		}
		if model++; model <= 5 {
			out = append(append(out, t...), '\n')
			continue
		}
		// A state's probabilities, "字:-8.1,…": the first is always kept, as cppjieba refuses an
		// empty line.
		for i := 0; len(t) > 0; i++ {
			e, rest, _ := bytes.Cut(t, []byte{','})
			t = rest
			if r, _ := utf8.DecodeRune(e); i == 0 || f.hasChar(r) {
				if i > 0 {
					out = append(out, ',')
				}
				out = append(out, e...)
			}
		}
		out = append(out, '\n')
	}
	return out, nil
}

// removeStale removes the text dictionaries of processes that ended before removing theirs (killed
// while jieba loaded): a few minutes old, no process is still reading them.
func removeStale(dir string) {
	old, _ := filepath.Glob(filepath.Join(dir, textDictPattern))
	for _, f := range old {
		if st, err := os.Stat(f); err == nil && time.Since(st.ModTime()) > 10*time.Minute {
			os.Remove(f)
		}
	}
}

// Close frees the jieba instance of a segmenter from ForTexts; Default's and Latin's stay.
func (s *Segmenter) Close() {
	if s.only != nil && s.jieba != nil {
		s.jieba.Free()
		s.jieba = nil
	}
}

// cutter returns the jieba instance that cuts run: the segmenter's own when its dictionary holds
// every word run may hold, else Default's.
func (s *Segmenter) cutter(run []rune) *gojieba.Jieba {
	if s.only == nil || s.only.passes(run) {
		return s.jieba
	}
	full, err := Default()
	if err != nil {
		// ForTexts unpacked and loaded the same files moments before; only a lost cache folder
		// gets here, and tokens cannot return an error.
		panic(fmt.Sprintf("similarity: %v", err))
	}
	return full.jieba
}

// runFilter remembers the characters and the pairs of neighbouring characters of CJK runs, a bit
// for each in tables indexed by a hash. It passes a word whose characters and pairs all have their
// bits: every word of the runs it was given, and a few others, which do no harm. A run it passes
// has every word of it passed too (a word's characters and pairs are the run's).
type runFilter struct {
	chars [1 << 16 / 64]uint64
	pairs [1 << 21 / 64]uint64
}

func charBit(r rune) uint32 { return uint32(r) * 0x9E3779B1 >> 16 }

func pairBit(a, b rune) uint64 {
	return (uint64(a)<<21 | uint64(b)) * 0x9E3779B97F4A7C15 >> (64 - 21)
}

// add adds the CJK runs of normalised runes.
func (f *runFilter) add(rs []rune) {
	for i, r := range rs {
		if !IsCJK(r) {
			continue
		}
		c := charBit(r)
		f.chars[c/64] |= 1 << (c % 64)
		if i+1 < len(rs) && IsCJK(rs[i+1]) {
			p := pairBit(r, rs[i+1])
			f.pairs[p/64] |= 1 << (p % 64)
		}
	}
}

// filterOf returns the runFilter of texts, normalised on every core (on one, 22 ms of a 313-page
// thesis's command-line check, every other core idle), and the texts normalised, which the
// fingerprints of the same texts take instead of normalising them again (the 313-page thesis's
// 1,800 paragraphs were normalised twice: 1.1 % of its check's CPU each time), unless they hold
// more than maxMadeRunes characters in all.
//
// Each core takes the next few texts when done with its last: texts dealt in turn, the thesis's
// paragraphs of English and of Chinese alternated, and one core had twice the other's characters
// (perf: 5 ms of the 14 with one core idle).
func filterOf(texts []string) (*runFilter, map[string]Normalized) {
	fs := make([]runFilter, min(runtime.NumCPU(), max(len(texts), 1)))
	norms := make([]Normalized, len(texts))
	const batch = 8
	var next atomic.Int64
	var wg sync.WaitGroup
	for k := range fs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				from := int(next.Add(batch)) - batch
				if from >= len(texts) {
					return
				}
				for i := from; i < min(from+batch, len(texts)); i++ {
					norms[i] = Normalize(texts[i])
					fs[k].add(norms[i].Runes)
				}
			}
		}()
	}
	wg.Wait()
	f := &fs[0]
	for _, o := range fs[1:] {
		for i, w := range o.chars {
			f.chars[i] |= w
		}
		for i, w := range o.pairs {
			f.pairs[i] |= w
		}
	}
	runes := 0
	for _, n := range norms {
		runes += len(n.Runes)
	}
	if runes > maxMadeRunes {
		return f, nil
	}
	made := make(map[string]Normalized, len(texts))
	for i, t := range texts {
		made[t] = norms[i]
	}
	return f, made
}

// maxMadeRunes bounds the characters of the texts a segmenter keeps normalised: 8 bytes each (a
// rune and its offset), 32 MB at most, where a thesis of 300 pages holds about 700,000.
const maxMadeRunes = 4 << 20

// hasChar reports whether r may be one of the texts' characters (a false yes now and then: the
// filter is bits of hashes).
func (f *runFilter) hasChar(r rune) bool {
	c := charBit(r)
	return f.chars[c/64]&(1<<(c%64)) != 0
}

func (f *runFilter) passes(word []rune) bool {
	for i, r := range word {
		if !f.hasChar(r) {
			return false
		}
		if i > 0 {
			if p := pairBit(word[i-1], r); f.pairs[p/64]&(1<<(p%64)) == 0 {
				return false
			}
		}
	}
	return true
}

// freqStats are what cppjieba takes from the frequencies of a whole dictionary.
type freqStats struct {
	n             int
	sum, min, max uint64
}

func (st *freqStats) add(f uint64) {
	if st.n == 0 || f < st.min {
		st.min = f
	}
	st.max = max(st.max, f)
	st.n++
	st.sum += f
}

// wholeDict are the figures of the embedded jieba.dict.utf8 (dictsSum names it) that fillers makes
// a text dictionary keep: the frequencies' count, sum, least and greatest, and their median (the
// one at index n/2 in increasing order). They are the file's, not the text's, so a text
// dictionary's scan reads only the lines it may keep; TestWholeDictFigures counts them again from
// the file, and checks the sum is below 2^53, past which cppjieba's sum in doubles is not exact.
var wholeDict = struct {
	all    freqStats
	median uint64
}{freqStats{n: 348982, sum: 60101983, min: 2, max: 883634}, 3}

// textDict returns jieba's dictionary file with only the lines whose words f passes, in their
// order, and fillers that make the whole dictionary's frequency figures; and those words.
func textDict(f *runFilter) ([]byte, *wordSet, error) { return textDictIn(f, 8*runtime.NumCPU()) }

// textDictIn is textDict scanning the lines in n pieces, each cut at a line's end, on every core
// (parallel.For: a core takes the next piece when done with its last), the pieces' results joined
// in order: one core took 22 ms of a thesis's command-line check, every other core idle. The lines
// are not alike (those whose first character the text lacks are passed over unread): in two
// halves, one core stood idle for about a third of the scan (perf).
func textDictIn(f *runFilter, n int) ([]byte, *wordSet, error) {
	data, err := assets.Jieba.ReadFile("jieba/" + dictFiles[0])
	if err != nil {
		return nil, nil, fmt.Errorf("segmenter: %w", err)
	}
	chunks := make([][]byte, n)
	for i := range chunks {
		end := len(data)
		if i < len(chunks)-1 {
			end = len(data) / (len(chunks) - i)
			if nl := bytes.IndexByte(data[end:], '\n'); nl >= 0 {
				end += nl + 1
			} else {
				end = len(data)
			}
		}
		chunks[i], data = data[:end], data[end:]
	}
	pieces := make([]dictScan, n)
	parallel.For(context.Background(), n, func(i int) { pieces[i].scan(chunks[i], f) }, nil)
	var (
		keptFreqs []uint64
		out       []byte
		words     []uint32
	)
	for _, p := range pieces {
		if p.err != nil {
			return nil, nil, p.err
		}
		keptFreqs = append(keptFreqs, p.keptFreqs...)
		out = append(out, p.out...)
		words = append(words, p.words...)
	}
	fill, ok := fillers(wholeDict.all, wholeDict.median, keptFreqs)
	if !ok {
		return nil, nil, errWholeDict
	}
	for i, freq := range fill {
		// Words of private-use characters: IsCJK says no to them, so jieba is never given one.
		out = fmt.Appendf(out, "%c%c %d x\n", 0xF0000+i/4096, 0xF0000+i%4096, freq)
	}
	user, _ := assets.Jieba.ReadFile("jieba/user.dict.utf8") // jieba loads it beside either dictionary
	return out, newWordSet(lineWords(words, user)), nil
}

// dictScan is what textDict takes from a piece of the dictionary's lines: the lines, frequencies
// and words a runFilter passes.
type dictScan struct {
	keptFreqs []uint64
	out       []byte
	words     []uint32
	err       error
}

func (d *dictScan) scan(data []byte, f *runFilter) {
	var word []rune
	// A plain loop over the bytes: the 349,000 lines took 50 ms through bufio.Scanner, bytes.Cut
	// and strconv, more than jieba then takes to load the kept ones; 20-30 ms so. A line whose
	// first character the texts do not hold is passed over unread (wholeDict has the figures of
	// every line): most of them, even for a 300-page thesis (160,396 of the 348,982 lines begin
	// with one of its characters; 104,398 for 40 paragraphs).
	for len(data) > 0 {
		var line []byte
		if r, _ := utf8.DecodeRune(data); !f.hasChar(r) {
			_, data = cutLine(data)
			continue
		}
		line, data = cutLine(data)
		sp := bytes.IndexByte(line, ' ')
		if sp < 0 {
			d.err = errWholeDict
			return
		}
		freq, ok := parseFreq(line[sp+1:])
		if !ok {
			d.err = errWholeDict // not a frequency fillers can add up to exactly
			return
		}
		word = word[:0]
		for w := line[:sp]; len(w) > 0; {
			r, size := utf8.DecodeRune(w)
			word, w = append(word, r), w[size:]
		}
		if f.passes(word) {
			d.keptFreqs = append(d.keptFreqs, freq)
			d.out = append(append(d.out, line...), '\n')
			d.words = appendWord(d.words, line[:sp])
		}
	}
}

// parseFreq reads the frequency column of a dictionary line (what follows the word): digits, then
// a space and the tag. false for anything else, or 0.
func parseFreq(b []byte) (uint64, bool) {
	var v uint64
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9' && v < 1<<50:
			v = v*10 + uint64(c-'0')
		case c == ' ' && i > 0:
			return v, v > 0
		default:
			return 0, false
		}
	}
	return 0, false
}

// fillers returns frequencies that, added to kept, give a dictionary the sum, least, greatest and
// median frequency of all (median: the one at index n/2 of the frequencies in increasing order,
// as cppjieba picks it); false if it finds none.
func fillers(all freqStats, median uint64, kept []uint64) ([]uint64, bool) {
	var k freqStats
	var r0 ranks
	for _, f := range kept {
		k.add(f)
		r0.add(f, median, 1)
	}
	var base []uint64
	if k.n == 0 || k.min != all.min {
		base = append(base, all.min)
	}
	if k.n == 0 || k.max != all.max {
		base = append(base, all.max)
	}
	need := all.sum - k.sum
	for _, f := range base {
		if f > need {
			return nil, false
		}
		need -= f
		r0.add(f, median, 1)
	}
	// d entries of the median, then the rest in entries of the greatest, and what remains.
	for d := uint64(0); d*median <= need && d <= uint64(all.n); d++ {
		rest := need - d*median
		q, r := rest/all.max, rest%all.max
		var tail []uint64
		switch {
		case r >= all.min:
			tail = append(tail, r)
		case r > 0 && q > 0: // too small to stand alone: one greatest entry splits with it
			q--
			tail = append(tail, all.max+r-all.min, all.min)
		case r > 0:
			continue
		}
		rk := r0
		rk.add(median, median, int(d))
		rk.add(all.max, median, int(q))
		for _, f := range tail {
			rk.add(f, median, 1)
		}
		if rk.below <= rk.n/2 && rk.n/2 < rk.below+rk.at {
			out := base
			for range d {
				out = append(out, median)
			}
			for range q {
				out = append(out, all.max)
			}
			return append(out, tail...), true
		}
	}
	return nil, false
}

// ranks counts frequencies against a median: the one at index n/2 in increasing order is the
// median when below <= n/2 < below+at.
type ranks struct{ n, below, at int }

func (r *ranks) add(f, median uint64, times int) {
	r.n += times
	switch {
	case f < median:
		r.below += times
	case f == median:
		r.at += times
	}
}

// cutLine splits data after its first line (the line without its '\n').
func cutLine(data []byte) (line, rest []byte) {
	if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
		return data[:nl], data[nl+1:]
	}
	return data, nil
}
