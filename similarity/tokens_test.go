package similarity

import (
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"thesischeck/assets"
)

// Libraries store word hashes, so the hand-written hash must stay FNV-1a exactly.
func TestHashWordIsFNV1a(t *testing.T) {
	for _, w := range []string{"", "a", "the", "软件包", "管理器", "Ünïcödé", "𠮷野家", "2024"} {
		h := fnv.New32a()
		h.Write([]byte(w))
		if got, want := hashWord([]byte(w)), h.Sum32(); got != want {
			t.Errorf("%q: hashWord %08x, FNV-1a %08x", w, got, want)
		}
	}
}

// PrepareWeighted weighs the words as it is told and gives what Prepare then Reweight give.
func TestPrepareWeightedIsPrepareThenReweight(t *testing.T) {
	seg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	weight := func(h uint32) float32 { return float32(h%97) + 0.5 }
	for _, text := range []string{
		"软件包管理器是一个系统，用于安装、升级和删除软件。",
		"The package manager installs, upgrades and removes 42 programs; it keeps a list of them.",
		"混合 text 与 English words 以及 2024 年的数字。",
	} {
		want := seg.Prepare(text)
		wantSim := Reweight(want.Tokens, weight)
		got := seg.PrepareWeighted(text, weight)
		if got.SimHash != wantSim || !slices.Equal(got.Tokens, want.Tokens) || !slices.Equal(got.Grams, want.Grams) {
			t.Errorf("%q: PrepareWeighted differs from Prepare then Reweight", text)
		}
		if plain := seg.Prepare(text); plain.SimHash == wantSim {
			t.Errorf("%q: the weights changed no bit of the SimHash; the test cannot tell them apart", text)
		}
	}
}

// No character NeedsJieba says no to normalises into a CJK character, alone or between letters:
// such text never reaches jieba, whatever normalisation does to it.
func TestNeedsJiebaCoversNormalisation(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		s := "a" + string(r) + "b"
		if NeedsJieba(s) {
			continue
		}
		for _, n := range Normalize(s).Runes {
			if IsCJK(n) {
				t.Errorf("U+%04X normalises to CJK U+%04X, but NeedsJieba says no", r, n)
			}
		}
	}
	for _, s := range []string{"中文", "ｶﾀｶﾅ", "㈠", "\u1100\u1161", "가", "⼀"} {
		if !NeedsJieba(s) {
			t.Errorf("NeedsJieba(%q) = false", s)
		}
	}
}

// For text without CJK the Latin segmenter gives what the full one gives, weights included; given
// CJK it refuses rather than leave the words out.
func TestLatinSegmenterIsDefaultWithoutCJK(t *testing.T) {
	seg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"The package manager installs, upgrades and removes 42 programs; it keeps a list of them.",
		"Ünïcödé — “quoted” text, l’apostrophe, ﬁligree, Ｆｕｌｌｗｉｄｔｈ, e.g. 3.14 and x².",
		"",
	} {
		if NeedsJieba(text) {
			t.Fatalf("%q needs jieba", text)
		}
		want, got := seg.Prepare(text), Latin().Prepare(text)
		if !slices.Equal(got.Tokens, want.Tokens) || got.SimHash != want.SimHash || !slices.Equal(got.Grams, want.Grams) {
			t.Errorf("%q: the Latin segmenter's preparation differs", text)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("the Latin segmenter cut Chinese without jieba")
		}
	}()
	Latin().Prepare("中文")
}

// The stop set says yes to exactly the words of the stop words' file: every stop word and every
// word of jieba's dictionary (some of which share a stop word's bit, some a stop word's slot).
func TestStopSetIsItsFile(t *testing.T) {
	stop := stopWords()
	data, err := assets.Jieba.ReadFile("jieba/stop_words.utf8")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, w := range strings.Split(string(data), "\n") {
		if w = strings.TrimSpace(w); w != "" {
			want[strings.ToLower(w)] = true
		}
	}
	if len(want) < 1000 {
		t.Fatalf("%d stop words", len(want))
	}
	dict, err := assets.Jieba.ReadFile("jieba/jieba.dict.utf8")
	if err != nil {
		t.Fatal(err)
	}
	words := slices.Collect(maps.Keys(want))
	for _, l := range strings.Split(string(dict), "\n") {
		if w, _, ok := strings.Cut(l, " "); ok {
			words = append(words, strings.ToLower(w))
		}
	}
	sharedBit, sharedSlot, moved := 0, 0, 0
	for _, w := range words {
		h := hashWord([]byte(w))
		if got := stop.has([]byte(w), h); got != want[w] {
			t.Fatalf("%q: has %v, the file %v", w, got, want[w])
		}
		home := stop.slots[h%uint32(len(stop.slots))]
		switch {
		case want[w] && home != w:
			moved++
		case !want[w] && stop.bits[h>>6&(1<<10-1)]&(1<<(h&63)) != 0:
			sharedBit++
			if home != "" {
				sharedSlot++
			}
		}
	}
	if moved == 0 || sharedBit == 0 || sharedSlot == 0 {
		t.Errorf("stop words moved from their slot %d, other words sharing a bit %d and then a slot %d: a case went untested",
			moved, sharedBit, sharedSlot)
	}
}

// SpanHasher gives the hash of the span of the text's runes (runesSpanHash) for spans in order,
// out of order and past the end, over texts of ASCII in both cases, CJK, Greek capitals (not
// lowered), astral characters, U+FFFD, bytes that are not UTF-8, and three-byte sequences at the
// edges of validity (E0 and ED's limits, a continuation byte missing or wrong).
func TestSpanHasher(t *testing.T) {
	pieces := []string{"a", "Z", "q", " ", "中", "文", "Σ", "é", "😀", "\uFFFD", "\xff", "\xe4\xb8", "\x00", "7",
		"\xe0\xa0\x80", "\xe0\x80\x80", "\xed\x9f\xbf", "\xed\xa0\x80", "\xef\xbf\xbf", "\xe1\x80\xc0", "\xec\xbf"}
	rng := rand.New(rand.NewPCG(5, 6))
	hashed := 0
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(20) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		rs := []rune(text)
		sh := NewSpanHasher(text)
		start := int32(0)
		for range 8 {
			if rng.IntN(4) == 0 { // now and then a span before the last, or anywhere
				start = int32(rng.IntN(len(rs)+3)) - 1
			}
			end := start + int32(rng.IntN(6)) - 1
			got, ok := sh.Hash(start, end)
			valid := start >= 0 && start <= end && end <= int32(len(rs))
			if ok != valid {
				t.Fatalf("%q [%d, %d): ok %v, want %v", text, start, end, ok, valid)
			}
			if valid {
				hashed++
				if want := runesSpanHash(rs, start, end); got != want {
					t.Fatalf("%q [%d, %d): %08x, over the runes %08x", text, start, end, got, want)
				}
				start = end + int32(rng.IntN(3))
			}
		}
	}
	if hashed < 5000 {
		t.Fatalf("only %d spans hashed", hashed)
	}
}

// runesSpanHash is SpanHasher's hash computed the plain way, over the text's runes, as the library
// computed it before SpanHasher.
func runesSpanHash(text []rune, start, end int32) uint32 {
	h := uint32(2166136261)
	var buf [utf8.UTFMax]byte
	for _, r := range text[start:end] {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		if r < utf8.RuneSelf {
			h ^= uint32(r)
			h *= 16777619
			continue
		}
		for _, b := range buf[:utf8.EncodeRune(buf[:], r)] {
			h ^= uint32(b)
			h *= 16777619
		}
	}
	return h
}

// spanHash is SpanHasher's hash of one span.
func spanHash(text string, start, end int32) uint32 {
	s := NewSpanHasher(text)
	h, _ := s.Hash(start, end)
	return h
}

// A span's hash is the hash of the tokens whose characters normalisation only lowered in ASCII,
// and not of others: the library leaves the first kind's hashes out of its records.
func TestSpanHash(t *testing.T) {
	seg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		same bool
	}{
		{"paper", true}, {"PaPeR", true}, {"软件包", true}, {"2024", true},
		{"café", false},  // its mark read off
		{"pаper", false}, // Cyrillic а: a look-alike
		{"軟體", false}, {"ＡＢＣ", false}, {"ﬁle", false}, {"Ünï", false},
	} {
		n := int32(utf8.RuneCountInString(c.text))
		toks := seg.Tokens(Normalize(c.text))
		if len(toks) != 1 || toks[0].Start != 0 || toks[0].End != n {
			t.Fatalf("%q: tokens %+v, want one over the whole text", c.text, toks)
		}
		if got := spanHash(c.text, 0, n) == toks[0].Hash; got != c.same {
			t.Errorf("%q: the span's hash equals the token's hash: %v, want %v", c.text, got, c.same)
		}
	}
	if spanHash("x AB y", 2, 4) != hashWord([]byte("ab")) {
		t.Error("the hash of a span inside a text is not hashWord of its lowered word")
	}
}

// TestInLatinWord compares the ASCII shortcut with the Unicode predicate it stands for, for every
// rune, before a letter, a digit, a space and at the end.
func TestInLatinWord(t *testing.T) {
	want := func(rs []rune, j int) bool {
		r := rs[j]
		return (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) ||
			(r == '\'' && j+1 < len(rs) && unicode.IsLetter(rs[j+1]))) && !IsCJK(r)
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		for _, rs := range [][]rune{{'a', r, 'b'}, {'a', r, '1'}, {'a', r, ' '}, {'a', r, '中'}, {'a', r}} {
			if got := inLatinWord(rs, 1); got != want(rs, 1) {
				t.Fatalf("inLatinWord(%q, 1) = %v, want %v", rs, got, !got)
			}
		}
	}
}

// NumShingles counts the shingles Shingles makes, and AppendShingles appends the same after what
// it is given.
func TestNumShingles(t *testing.T) {
	for n := range 7 {
		toks := make([]Token, n)
		for i := range toks {
			toks[i].Hash = uint32(i * 7919)
		}
		sh := Shingles(toks)
		if len(sh) != NumShingles(toks) {
			t.Errorf("%d tokens: %d shingles, NumShingles %d", n, len(sh), NumShingles(toks))
		}
		if got := AppendShingles([]uint32{42}, toks); !slices.Equal(got, append([]uint32{42}, sh...)) {
			t.Errorf("%d tokens: AppendShingles %v, Shingles %v", n, got, sh)
		}
	}
}
