package similarity

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"thesischeck/assets"
)

// textDictSamples are texts that reach the corners of jieba's dictionary: the user dictionary's
// words (one with a frequency, some with the median weight), characters jieba does not know
// (weighed with the least weight, cut by the HMM), traditional characters, kana, hangul and
// mixed scripts.
var textDictSamples = []string{
	"软件包管理器是一个系统，用于安装、升级和删除软件。它记录了每个软件包的版本。",
	"云计算和区块链是蓝翔的韩玉鉴赏课上讨论的题目，云计算平台的区块链应用。",
	"臺灣的軟體開發者們使用這個套件管理器來安裝與升級程式。",
	"𠮷野家的𪚥字与𡈽字很少见，䶮和㐀也是。",
	"日本語のテキストとひらがなを混ぜた文章，한국어 문장도 있습니다。",
	"The package manager 软件包管理器 installs 42 programs，第3章第4节。",
	"我们研究了基于深度学习的中文分词方法，提出了一种新的模型，并在多个数据集上进行了实验。",
	"他说：“这是一个很好的主意！”然后就走了……",
}

// devsetTexts returns the paragraphs of the development set's UTF-8 text files that hold Chinese
// (none when the set is absent).
func devsetTexts(t *testing.T) []string {
	files, _ := filepath.Glob("../../shared/devset/zh*/*/*.txt")
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(data) {
			continue
		}
		for _, p := range strings.Split(string(data), "\n") {
			if NeedsJieba(p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// A segmenter made for some texts cuts each of them into Default's words, though its dictionary
// holds a small part of the whole, and prepares each as Default does from the normalised text it
// kept.
func TestTextSegmenterCutsAsDefault(t *testing.T) {
	full, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	dev := devsetTexts(t)
	if _, err := os.Stat("../../shared/devset"); err == nil && len(dev) == 0 {
		t.Fatal("no Chinese text found in the development set")
	}
	sets := [][]string{textDictSamples}
	for i := 0; i < len(dev); i += 40 { // documents of 40 paragraphs, as a check might see
		sets = append(sets, dev[i:min(i+40, len(dev))])
	}
	sets = append(sets, dev) // and the whole set at once
	for n, texts := range sets {
		seg, err := textSegmenter(texts, func() {})
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			norm := Normalize(text)
			if got, want := seg.Tokens(norm), full.Tokens(norm); !slices.Equal(got, want) {
				t.Fatalf("set %d: %q:\nwords %q\nwant  %q", n, text, seg.Words(text), full.Words(text))
			}
			// Prepare takes the text as ForTexts normalised it (Segmenter.made).
			if _, ok := seg.made[text]; !ok {
				t.Fatalf("set %d: %q was not kept normalised", n, text)
			}
			if got, want := seg.Prepare(text), full.Prepare(text); !reflect.DeepEqual(got, want) {
				t.Fatalf("set %d: %q prepared as\n%+v\nwant\n%+v", n, text, got, want)
			}
			if !seg.only.passes(norm.Runes[:0]) {
				t.Fatal("an empty run must pass")
			}
		}
		seg.Close()
	}
	t.Logf("%d sets, %d devset paragraphs", len(sets), len(dev))
}

// The dictionary of a short text is a small part of the whole, with the whole one's figures.
func TestTextDictIsSmall(t *testing.T) {
	f := new(runFilter)
	for _, text := range textDictSamples {
		f.add(Normalize(text).Runes)
	}
	dict, _, err := textDict(f)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile("../assets/jieba/jieba.dict.utf8")
	if err != nil {
		t.Fatal(err)
	}
	kept, all := bytes.Count(dict, []byte("\n")), bytes.Count(whole, []byte("\n"))
	if kept == 0 || kept > all/20 {
		t.Errorf("the text dictionary has %d lines of the whole's %d", kept, all)
	}
	if a, b := dictFigures(t, dict), dictFigures(t, whole); a != b {
		t.Errorf("text dictionary's figures %+v, the whole's %+v", a, b)
	}
	for _, w := range []string{"软件包", "管理器", "云计算", "臺灣"} {
		if !bytes.Contains(dict, []byte("\n"+w+" ")) && !bytes.HasPrefix(dict, []byte(w+" ")) {
			if bytes.Contains(whole, []byte("\n"+w+" ")) {
				t.Errorf("%s is in the whole dictionary but not in the text's", w)
			}
		}
	}
}

// The dictionary's lines scanned in any number of pieces give the same text dictionary, and the
// filter made on every core is the one made on one.
func TestTextDictPieces(t *testing.T) {
	texts := append(slices.Clone(textDictSamples), devsetTexts(t)...)
	one := new(runFilter)
	for _, text := range texts {
		one.add(Normalize(text).Runes)
	}
	f, made := filterOf(texts)
	if *f != *one {
		t.Fatal("filterOf's filter is not the one made text by text")
	}
	for _, text := range texts {
		if n, ok := made[text]; !ok || !reflect.DeepEqual(n, Normalize(text)) {
			t.Fatalf("filterOf kept %+v (%v) of %q, not its Normalize", n, ok, text)
		}
	}
	want, wantWords, err := textDictIn(one, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Its lines are the whole dictionary's whose words the filter passes, in order, then the
	// fillers (private-use words): the lines passed over unread are none of those.
	whole, err := assets.Jieba.ReadFile("jieba/" + dictFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	var passing []byte
	for _, line := range strings.SplitAfter(string(whole), "\n") {
		if w, _, ok := strings.Cut(line, " "); ok && one.passes([]rune(w)) {
			passing = append(passing, line...)
		}
	}
	if !bytes.HasPrefix(want, passing) || len(passing) == 0 {
		t.Fatalf("the text dictionary does not begin with the %d bytes of passing lines", len(passing))
	}
	for _, line := range strings.SplitAfter(string(want[len(passing):]), "\n") {
		if r, _ := utf8.DecodeRuneInString(line); line != "" && (r < 0xF0000 || r > 0xFFFFD) {
			t.Fatalf("after the passing lines, %q", line)
		}
	}
	for _, n := range []int{2, 3, 7, 16} {
		got, words, err := textDictIn(one, n)
		if err != nil || !bytes.Equal(got, want) || !slices.Equal(words.slots, wantWords.slots) {
			t.Errorf("%d pieces: %d bytes (err %v), one piece %d", n, len(got), err, len(want))
		}
	}
}

// figures is what cppjieba takes from a dictionary's frequencies: their sum, least, greatest and
// the one at index n/2 in increasing order.
type figures struct{ sum, min, max, median uint64 }

func figuresOf(freqs []uint64) figures {
	s := slices.Clone(freqs)
	slices.Sort(s)
	var sum uint64
	for _, f := range s {
		sum += f
	}
	return figures{sum, s[0], s[len(s)-1], s[len(s)/2]}
}

func dictFigures(t *testing.T, dict []byte) figures {
	var freqs []uint64
	for _, line := range strings.Split(strings.TrimSuffix(string(dict), "\n"), "\n") {
		fs := strings.Fields(line)
		if len(fs) != 3 {
			t.Fatalf("line %q: %d fields", line, len(fs))
		}
		var f uint64
		for _, c := range fs[1] {
			f = f*10 + uint64(c-'0')
		}
		freqs = append(freqs, f)
	}
	return figuresOf(freqs)
}

// fillers brings any part of a dictionary back to the whole one's figures.
func TestFillers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		n := 1 + rng.IntN(3000)
		all := make([]uint64, n)
		for i := range all {
			switch rng.IntN(4) {
			case 0:
				all[i] = 2 + rng.Uint64N(3)
			case 1:
				all[i] = 2 + rng.Uint64N(50)
			default:
				all[i] = 2 + rng.Uint64N(1+rng.Uint64N(100000))
			}
		}
		var kept []uint64
		share := rng.Float64()
		for _, f := range all {
			if rng.Float64() < share {
				kept = append(kept, f)
			}
		}
		var st freqStats
		for _, f := range all {
			st.add(f)
		}
		want := figuresOf(all)
		fill, ok := fillers(st, want.median, kept)
		if !ok {
			t.Fatalf("trial %d: no fillers for %d of %d", trial, len(kept), n)
		}
		if got := figuresOf(append(slices.Clone(kept), fill...)); got != want {
			t.Fatalf("trial %d: %d kept of %d, with fillers %+v, want %+v", trial, len(kept), n, got, want)
		}
	}
}

// A text the segmenter was not made for is cut by Default's dictionary, so its words are right too.
func TestTextSegmenterOtherText(t *testing.T) {
	full, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	seg, err := textSegmenter(textDictSamples[:1], func() {})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	other := Normalize(textDictSamples[6])
	if seg.only.passes(other.Runes) {
		t.Fatal("the filter passes a text it was not given")
	}
	if got, want := seg.Tokens(other), full.Tokens(other); !slices.Equal(got, want) {
		t.Errorf("words %q, want %q", seg.Words(textDictSamples[6]), full.Words(textDictSamples[6]))
	}
}

// A text dictionary left behind by a process killed while jieba read it is removed by the next
// one once it is old; the segmenter's own is removed as soon as jieba has read it.
func TestTextDictFilesRemoved(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	dir, err := unpackDicts()
	if err != nil {
		t.Fatal(err)
	}
	stale, fresh := filepath.Join(dir, "text-dict1.utf8"), filepath.Join(dir, "text-dict2.utf8")
	for _, f := range []string{stale, fresh} {
		if err := os.WriteFile(f, []byte("x 1 n\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	seg, err := textSegmenter(textDictSamples[:1], func() {})
	if err != nil {
		t.Fatal(err)
	}
	seg.Close()
	left, _ := filepath.Glob(filepath.Join(dir, textDictPattern))
	if !slices.Equal(left, []string{fresh}) {
		t.Errorf("text dictionaries left: %v, want only %s", left, fresh)
	}
}

// dictsSum names the dictionaries' folder by their content: a changed dictionary must not meet a
// stale copy unpacked by an older binary.
func TestDictsSum(t *testing.T) {
	h := sha256.New()
	for _, f := range dictFiles {
		if err := copyDict(h, f); err != nil {
			t.Fatal(err)
		}
	}
	if sum := hex.EncodeToString(h.Sum(nil))[:16]; sum != dictsSum {
		t.Errorf("the dictionaries' SHA-256 starts %s: set dictsSum to it", sum)
	}
}

// ForTextsWhile starts what it is given, once (as jieba loads a text dictionary, or at once when
// the whole one is loaded), and the segmenter it returns cuts as one made without it.
func TestForTextsWhile(t *testing.T) {
	var started atomic.Int32
	done := make(chan struct{})
	seg, err := ForTextsWhile(textDictSamples, func() {
		started.Add(1)
		close(done)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("meanwhile was not started")
	}
	if n := started.Load(); n != 1 {
		t.Fatalf("meanwhile started %d times", n)
	}
	plain, err := textSegmenter(textDictSamples, func() {})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	for _, text := range textDictSamples {
		if got, want := seg.Words(text), plain.Words(text); !slices.Equal(got, want) {
			t.Fatalf("%q: %q, without meanwhile %q", text, got, want)
		}
	}
}

// textHMM keeps the model's start and transition lines and, of its four states' emission lines,
// the first probability and those of the characters the filter holds: every one the whole model
// has for them, none other.
func TestTextHMM(t *testing.T) {
	f := new(runFilter)
	f.add(Normalize("韩玉鉴赏课上讨论的题目").Runes)
	whole, err := assets.Jieba.ReadFile("jieba/hmm_model.utf8")
	if err != nil {
		t.Fatal(err)
	}
	hmm, err := textHMM(f)
	if err != nil {
		t.Fatal(err)
	}
	model := func(b []byte) (lines []string) {
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && l[0] != '#' {
				lines = append(lines, l)
			}
		}
		return lines
	}
	want, got := model(whole), model(hmm)
	if len(want) != 9 || len(got) != 9 || !slices.Equal(got[:5], want[:5]) {
		t.Fatalf("the model's lines:\n%q\nwant the first five of\n%q", got, want)
	}
	for i := 5; i < 9; i++ {
		all := strings.Split(want[i], ",")
		var keep []string
		for k, e := range all {
			if r, _ := utf8.DecodeRuneInString(e); k == 0 || f.hasChar(r) {
				keep = append(keep, e)
			}
		}
		kept := strings.Split(got[i], ",")
		if !slices.Equal(kept, keep) || len(keep) < 2 || len(keep) > len(all)/10 {
			t.Errorf("state %d: kept %d of %d probabilities, want %d: %q", i-5, len(kept), len(all), len(keep), kept)
		}
		for _, r := range "韩玉鉴赏课上讨论的题目" {
			e := string(r) + ":"
			if strings.Contains(","+want[i], ","+e) != strings.Contains(","+got[i], ","+e) {
				t.Errorf("state %d: %c's probability lost", i-5, r)
			}
		}
	}
}

// wholeDict holds the figures of the embedded dictionary, which a text dictionary's scan no longer
// reads whole: counted again here, line by line, and within what fillers and cppjieba need.
func TestWholeDictFigures(t *testing.T) {
	data, err := assets.Jieba.ReadFile("jieba/" + dictFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	all := wholeDict.all
	n, f := strings.Count(string(data), "\n"), dictFigures(t, data)
	if all.n != n || f != (figures{all.sum, all.min, all.max, wholeDict.median}) {
		t.Fatalf("the embedded dictionary has %d lines, figures %+v: set wholeDict (%+v, median %d) to them", n, f, all, wholeDict.median)
	}
	if all.sum >= 1<<53 || all.min == 0 {
		t.Fatalf("figures %+v: a text dictionary cannot stand for this one", all)
	}
}
