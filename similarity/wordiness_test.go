package similarity

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode"
)

const (
	wetland = "湿地被称为城市的肾脏，它能够截留地表径流中的泥沙和污染物，缓解暴雨带来的洪涝压力，并在干旱季节向河道补充水源。" +
		"与人工修建的排水设施相比，湿地依靠植物根系和微生物完成净化过程，运行成本低，而且可以长期保持稳定。"
	tides = "Tidal flats look empty at first glance, but the mud holds an enormous number of worms, snails and " +
		"small crustaceans. Twice a day the sea covers them and brings in fresh food, and twice a day it drains " +
		"away again, which is why so many shorebirds stop here on their long journeys between the Arctic and " +
		"the south. A single square metre of mud can feed a bird for hours."
)

// scrambled maps the Han characters of text to one another in a random permutation (seed), as a
// font whose glyphs were swapped among themselves reads.
func scrambled(text string, seed int64) string {
	var chars []rune
	seen := map[rune]bool{}
	for _, r := range text {
		if unicode.Is(unicode.Han, r) && !seen[r] {
			seen[r] = true
			chars = append(chars, r)
		}
	}
	to := map[rune]rune{}
	for i, j := range rand.New(rand.NewSource(seed)).Perm(len(chars)) {
		to[chars[i]] = chars[j]
	}
	return strings.Map(func(r rune) rune {
		if m, ok := to[r]; ok {
			return m
		}
		return r
	}, text)
}

// swapLetters exchanges the letters of each pair, in both cases, as a Latin font that draws a few
// letters as others reads.
func swapLetters(text string, pairs ...string) string {
	to := map[rune]rune{}
	for _, p := range pairs {
		a, b := rune(p[0]), rune(p[1])
		to[a], to[b], to[unicode.ToUpper(a)], to[unicode.ToUpper(b)] = b, a, unicode.ToUpper(b), unicode.ToUpper(a)
	}
	return strings.Map(func(r rune) rune {
		if m, ok := to[r]; ok {
			return m
		}
		return r
	}, text)
}

// rot13 is a substitution of letters, as a Latin font with swapped glyphs reads.
func rot13(text string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case 'A' <= r && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, text)
}

func wordiness(s *Segmenter, text string) Wordiness {
	return s.Wordiness([]rune(text), s.Tokens(Normalize(text)))
}

func TestWordiness(t *testing.T) {
	s := segmenter(t)
	code := strings.Repeat("$ qemu-img create -f qcow2 disk.qcow2 5G && ls -l /var/lib/libvirt/images/disk.qcow2 # 5368709120 bytes\n", 5)
	tests := []struct {
		name    string
		text    string
		garbled bool
	}{
		{"Chinese as written", wetland, false},
		{"Chinese, characters swapped among themselves", scrambled(wetland, 1), true},
		{"Chinese, swapped otherwise", scrambled(wetland, 2), true},
		{"Chinese in traditional characters", "濕地被稱為城市的腎臟，它能夠截留地表徑流中的泥沙和污染物，緩解暴雨帶來的洪澇壓力，並在乾旱季節向河道補充水源。與人工修建的排水設施相比，濕地依靠植物根系和微生物完成淨化過程。", false},
		{"Chinese too short to judge", scrambled(wetland[:60], 3), false},
		{"English prose", tides, false},
		{"English, letters swapped", rot13(tides), true},
		{"English too short to judge", rot13("The tide comes in twice a day and covers the flats."), false},
		// "the", "of", "and" and "to" stay stop words; most other words stop being English.
		{"English, three pairs of letters swapped", swapLetters(tides, "cl", "du", "mp"), true},
		{"English, three other pairs", swapLetters(tides, "mp", "gy", "bv"), true},
		{"English, rare letters swapped", swapLetters(tides, "kq", "vx", "jz"), false},
		{"English, names and acronyms", "The survey teams of Zhangjiakou, Qinhuangdao and Xiamen met the WWF and IUCN " +
			"delegates from Reykjavik, Tromso and Ushuaia at the station, where Dr Nkemelu and Prof Wojciechowski " +
			"showed them the data that the teams had collected over the last ten years on the flats.", false},
		{"French: few English stop words", "La ville moderne se transforme rapidement sous l'effet de la croissance " +
			"démographique et des nouvelles technologies. Les chercheurs observent que les habitants des grandes " +
			"agglomérations passent de plus en plus de temps dans les transports, tandis que les espaces verts " +
			"diminuent, ce qui pose des questions importantes pour la santé publique.", false},
		{"a command listing: few stop words, but not prose", code, false},
		{"a command listing, letters swapped", rot13(code), false},
	}
	for _, tt := range tests {
		w := wordiness(s, tt.text)
		if got := w.Garbled(); got != tt.garbled {
			t.Errorf("%s: %+v Garbled() = %v, want %v", tt.name, w, got, tt.garbled)
		}
	}
	// The counts themselves, on text whose words are known.
	w := wordiness(s, "城市湿地 the wetland of a city")
	if w.Han != 4 || w.HanInWords != 4 || w.Words != 5 || w.StopWords != 3 || w.Letters != 17 || w.Visible != 21 || w.Lower != 0 {
		t.Errorf("counts %+v", w)
	}
	// English words are counted in a paragraph judged as English: lower-case ones, and of them
	// those the word list holds.
	if w := wordiness(s, tides); w.Lower < 50 || w.LowerKnown*100 < w.Lower*95 {
		t.Errorf("English prose: %d lower-case words, %d English", w.Lower, w.LowerKnown)
	}
	if w := wordiness(s, swapLetters(tides, "cl", "du", "mp")); w.LowerKnown*10 > w.Lower*8 {
		t.Errorf("letters swapped: %d lower-case words, %d English", w.Lower, w.LowerKnown)
	}
	// Latin's segmenter has no dictionary: it counts English only.
	if w := wordiness(Latin(), rot13(tides)); !w.Garbled() || w.Han != 0 {
		t.Errorf("Latin segmenter: %+v", w)
	}
}

// GarbledTogether judges short paragraphs together: nearly without words in a document whose short
// paragraphs are so too; not one such paragraph among ordinary ones, nor too few characters.
func TestGarbledTogether(t *testing.T) {
	short := func(han, inWords int) Wordiness { return Wordiness{Han: han, HanInWords: inWords, Visible: han} }
	repeat := func(w Wordiness, n int) []Wordiness {
		out := make([]Wordiness, n)
		for i := range out {
			out[i] = w
		}
		return out
	}
	for _, c := range []struct {
		name string
		ws   []Wordiness
		want []bool
	}{
		{"short paragraphs of no words", repeat(short(30, 0), 8), []bool{true, true, true, true, true, true, true, true}},
		{"short paragraphs of words", repeat(short(30, 15), 8), make([]bool, 8)},
		{"one without words among ordinary ones", append(repeat(short(30, 15), 7), short(30, 0)), make([]bool, 8)},
		{"too few characters together", repeat(short(30, 0), 6), make([]bool, 6)},
		{"under 10 characters is not judged", append(repeat(short(30, 0), 8), short(9, 0)),
			[]bool{true, true, true, true, true, true, true, true, false}},
		{"a long paragraph is judged alone", []Wordiness{short(80, 30), short(80, 40)}, []bool{true, false}},
	} {
		if got := GarbledTogether(c.ws); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
