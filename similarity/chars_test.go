package similarity

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
)

func TestCountChars(t *testing.T) {
	tests := []struct {
		name, text string
		want       int
	}{
		{"Chinese", "本研究以高校为背景。", 10},
		{"English words", "the tide turns", 14},
		{"a run of spaces is one word space", "the    tide\t \u00a0turns", 14},
		{"spaces at either end", "  the tide  ", 8},
		{"zero-width characters", "本\u200b研\u200d究\ufeff以", 4},
		{"variation selectors and tags", "本\ufe00研\U000e0100究\U000e0041", 3},
		{"Hangul fillers and the Braille blank", "本\u3164研\u2800究 以", 4},
		{"a Hangul filler between words", "tidal\u3164flats", 11},
		{"narrow spaces inside words", "ti\u200adal fl\u2009\u200aats", 11},
		{"narrow spaces between digits and words", "1\u2009000 kg\u2009;\u200aa b\u2009 c", 16},
		// As Normalize reads them: a word space drawn narrow (narrowGap) counts as one.
		{"narrow spaces between words", "the\u2009tide\u202fturns", 14},
		{"spaces between Chinese characters", "本 研 究　以", 4},
		{"beside Chinese punctuation", "研究，   以 the tide", 13},
		{"Latin words in Chinese text", "在 aptitude 中", 12},
		// Full-width letters and digits are words as ASCII's are; full-width punctuation is CJK's.
		{"full-width words", "ＴＨＥ ＴＩＤＥ　ｔｕｒｎｓ ２", 16},
		{"full-width words in Chinese text", "在 ａｐｔｉｔｕｄｅ 中，　以", 14},
		{"soft hyphen and bidi marks", "ti\u00addal\u200e flats", 11},
		{"combining marks", "cafe\u0301 本\u0332研\u0332", 7},
		{"only spaces", "   ", 0},
		{"empty", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := CountChars([]rune(tt.text))
			if got := c.Total(); got != tt.want {
				t.Errorf("CountChars(%q) = %d, want %d", tt.text, got, tt.want)
			}
			if got := c.In([2]int{-3, len([]rune(tt.text)) + 5}); got != tt.want {
				t.Errorf("In(all, clamped) = %d, want %d", got, tt.want)
			}
		})
	}
}

// A span counts what it holds: the spaces and invisible characters inside it are counted as in
// the whole text, and the two halves of a text add up to it.
func TestCharsIn(t *testing.T) {
	text := []rune("the  tide\u200b turns 本 研究")
	c := CountChars(text)
	for k := 0; k <= len(text); k++ {
		if a, b := c.In([2]int{0, k}), c.In([2]int{k, len(text)}); a+b != c.Total() {
			t.Fatalf("at %d: %d + %d != %d", k, a, b, c.Total())
		}
	}
	if got := c.In([2]int{0, 5}); got != 4 { // "the  ": three letters and one space
		t.Errorf("In(0,5) = %d, want 4", got)
	}
	if got := c.In([2]int{0, 3}) + c.In([2]int{5, 9}) + c.In([2]int{7, 4}); got != 7 {
		t.Errorf("In of three spans, one empty = %d, want 7", got)
	}
	marked := []rune("cafe\u0301 \u200b本\u0332")
	if got := Written(marked, [2]int{0, len(marked)}); got != 7 { // c a f e, the space, U+200B, 本
		t.Errorf("Written = %d, want 7", got)
	}
	if got := Written(marked, [2]int{5, 2}); got != 0 {
		t.Errorf("Written of an empty span = %d", got)
	}
}

func TestCountString(t *testing.T) {
	for _, text := range []string{"", "  ", "the  tide\u200b turns 本 研究", "本\u3000研，  以 aptitude", " \u200b a", "the\u2009tide ti\u200adal"} {
		want := CountChars([]rune(text)).Total()
		if got := CountString(text); got != want {
			t.Errorf("CountString(%q) = %d, CountChars says %d", text, got, want)
		}
		for limit := range want + 3 {
			if got := CountStringUpTo(text, limit); got != min(want, limit) {
				t.Errorf("CountStringUpTo(%q, %d) = %d, want %d", text, limit, got, min(want, limit))
			}
		}
	}
}

// TestKindOf: kindOf tells every rune as Unicode's tables do.
func TestKindOf(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := runeChar
		switch {
		case isInvisible(r), IsMark(r):
			want = runeNone
		case isBlank(r):
			want = runeBlank
		}
		if got := kindOf(r); got != want {
			t.Fatalf("kindOf(%U) = %d, want %d", r, got, want)
		}
	}
}

// A Chinese paragraph with its punctuation, and an English one: counted as a report counts them.
func BenchmarkCountChars(b *testing.B) {
	for _, text := range []string{
		strings.Repeat("如果你希望尝试任一操作系统的一个新的图形桌面环境，我推荐在稳定版系统上使用虚拟化软件。", 6),
		strings.Repeat("If you want to try a new graphical desktop environment of any operating system, use a virtual machine. ", 4),
	} {
		rs := []rune(text)
		b.Run(fmt.Sprintf("%d runes", len(rs)), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				CountChars(rs)
			}
		})
	}
}

func TestLetterLike(t *testing.T) {
	for _, tt := range []struct {
		r    rune
		want bool
	}{
		{'a', true}, {'7', true}, {'中', true}, {'ᴀ', true}, {'ⓐ', true}, {'Ⓩ', true}, {'①', true},
		{'⒜', true}, {'🄰', true}, {'²', true}, {'℮', true}, {'⍺', true},
		{' ', false}, {',', false}, {'。', false}, {'★', false}, {'→', false}, {'©', false}, {'\u200b', false},
	} {
		if got := LetterLike(tt.r); got != tt.want {
			t.Errorf("LetterLike(%q) = %v, want %v", tt.r, got, tt.want)
		}
	}
}
