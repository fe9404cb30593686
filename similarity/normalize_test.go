package similarity

import (
	"math/bits"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Spaces between Han characters are dropped wherever they stand, but counted as a dodge only in
// chains of spacedChain or more: real text has one or two where a link or a cross-reference was.
func TestSpacedCJKCount(t *testing.T) {
	tests := []struct {
		name, in, want string
		spaced         int
	}{
		{"link left a space", "详细说明 参见 桌面配置项规范。", "详细说明参见桌面配置项规范.", 0},
		{"two in a row", "注意 在 第 2.1.4 节中", "注意在第2.1.4节中", 0},
		{"next to latin and digits", "使用 dpkg 命令在 2024 年 安装", "使用dpkg命令在2024年安装", 0},
		{"letter-spaced pair", "摘 要", "摘要", 0},
		{"ideographic spaces", "姓名\u3000\u3000张三", "姓名张三", 0},
		{"spaced out", "软 件 包 管 理", "软件包管理", 4},
		{"spaced words", "学位 论文 是 研究生 培养 的 重要 环节", "学位论文是研究生培养的重要环节", 7},
		{"punctuation ends a chain", "软 件 包 管，理 系 统", "软件包管,理系统", 3},
		{"two chains", "甲 乙 丙 丁。一般的文字，戊 己 庚 辛", "甲乙丙丁.一般的文字,戊己庚辛", 6},
		{"a sentence spaced word by word", "本文 的 方法 与 已有 工作 不同", "本文的方法与已有工作不同", 6},
		{"hangul word spacing is not counted", "한국어 문장 은 띄어쓰기 를 한다", "한국어문장은띄어쓰기를한다", 0},
		{"traditional spaced", "軟 體 包 管 理", "软体包管理", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Normalize(tt.in)
			if got := string(n.Runes); got != tt.want {
				t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if n.SpacedCJK != tt.spaced {
				t.Errorf("SpacedCJK = %d, want %d", n.SpacedCJK, tt.spaced)
			}
		})
	}
}

// Every normalised rune points back at the original rune it came from, whatever was removed or
// folded around it.
func TestNormalizeOffsets(t *testing.T) {
	tests := []string{
		"软 件\u200b包 管\u200d理",
		"Тhе сat sat on the mаt",
		"軟體包，ＡＢＣ　１２３。",
		"pla\u00adgia\u200brism — “quoted”",
		"frorn the inforrnation\u2009vvith clata",
	}
	for _, in := range tests {
		orig := []rune(in)
		n := Normalize(in)
		if len(n.Orig) != len(n.Runes) {
			t.Fatalf("%q: %d runes, %d offsets", in, len(n.Runes), len(n.Orig))
		}
		for i, r := range n.Runes {
			o := n.Orig[i]
			if o < 0 || int(o) >= len(orig) || (i > 0 && o <= n.Orig[i-1] && r != ' ') {
				t.Fatalf("%q: rune %d (%q) points at %d", in, i, r, o)
			}
			// The original character is the folded one, or a form of it, or the first of a letter
			// pair read as it.
			if pair := int(o)+1 < len(orig) && unicode.ToLower(pairRead(orig[o], orig[o+1])) == r; pair {
				continue
			}
			if got := Normalize(string(orig[o])).String(); got != "" && !strings.ContainsRune(got, r) && r != ' ' {
				t.Errorf("%q: normalised %q comes from %q, which normalises to %q", in, r, orig[o], got)
			}
		}
	}
}

// Normalize copies plainHan runes straight through; every other step must leave them alone.
func TestPlainHanUntouched(t *testing.T) {
	for r := rune(0x4E00); r <= 0x9FFF; r++ {
		if !plainHan(r) {
			t.Fatalf("%U: not plainHan", r)
		}
		_, punct := punctFold[r]
		_, conf := confusables[r]
		if isInvisible(r) || punct || conf || norm.NFKC.String(string(r)) != string(r) ||
			!unicode.Is(unicode.Han, r) || unicode.IsSpace(r) || unicode.ToLower(r) != r {
			t.Fatalf("%U: some step of Normalize changes it or misreads it", r)
		}
	}
}

// toSimplified converts only the spans that start at a rune some dictionary key begins with; a rune
// outside the set must convert to itself, and span conversion must equal whole-text conversion.
func TestToSimplifiedSpans(t *testing.T) {
	toSimplified(nil)
	if t2sErr != nil || t2sFirst == nil {
		t.Fatalf("opencc: %v, key set built: %v", t2sErr, t2sFirst != nil)
	}
	starts := 0
	for r := rune(0x2E80); r <= 0x9FFF; r++ {
		if t2sStarts(r) {
			starts++
			continue
		}
		if out, err := t2s.Convert(string(r)); err != nil || out != string(r) {
			t.Fatalf("%U: not a key start, but converts to %q (%v)", r, out, err)
		}
	}
	all := 0
	for _, w := range t2sFirst {
		all += bits.OnesCount64(w)
	}
	if starts < 3500 || all < 4000 {
		t.Fatalf("only %d runes (%d of them CJK) begin a key; TSCharacters alone has 4,113", all, starts)
	}
	texts := []string{
		"软件包管理器是一个系统，用于安装软件。",
		"軟體包管理器是一個系統，用於安裝、升級和刪除軟件。這裡的後台程序一目瞭然。",
		"前面是简体的文字，没有繁体，很长很长的一段话；然后是繁體的詞語：乾燥、頭髮、發展。最後還是簡體的结尾部分",
		"English text with 中文 and 繁體 mixed, 1234.",
		"一目瞭然" + strings.Repeat("简体", 20) + "於是" + strings.Repeat("文", 9) + "後來",
		"有序後的結果明瞭，文錦覆阱以免藉口，二噁英；有序列表，文字以及一个明显的名字",
		"",
	}
	for _, text := range texts {
		rs := []rune(text)
		got := toSimplified(rs)
		want := []rune(text)
		wantN := toSimplifiedWhole(want)
		if got != wantN || string(rs) != string(want) {
			t.Errorf("%q: spans give %q (%d changed), whole text %q (%d)", text, string(rs), got, string(want), wantN)
		}
	}
}

// Every common ideograph is Han to Unicode's tables: plainHan may answer for them (Normalize, IsCJK).
func TestPlainHanIsHan(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if plainHan(r) && !unicode.Is(unicode.Han, r) {
			t.Fatalf("U+%04X is plainHan but not Han", r)
		}
	}
}

func TestDropsSpace(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		if got, want := dropsSpace(r), IsCJK(r) || isPunct(r); got != want {
			t.Fatalf("dropsSpace(U+%04X) = %v, want %v", r, got, want)
		}
	}
}

// The fullwidth forms Normalize maps by an offset are those NFKC maps to ASCII, each to what NFKC
// gives: every rune of the Halfwidth and Fullwidth Forms block is tried.
func TestFullwidthASCII(t *testing.T) {
	for r := rune(0xFF00); r <= 0xFFEF; r++ {
		nfkc := norm.NFKC.String(string(r))
		ascii := len(nfkc) == 1 && nfkc[0] > ' ' && nfkc[0] < 0x7F
		if isFullwidthASCII(r) != ascii || ascii && string(r-fullwidthOffset) != nfkc {
			t.Errorf("%U: NFKC %q, isFullwidthASCII %v", r, nfkc, isFullwidthASCII(r))
		}
	}
}

// Normalize and the character counts take any text: no panic, every rune's offset in the text and
// in order, and CountString agreeing with CountChars. A narrow space read off before a capital I
// read as l panicked (the I's index had moved).
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"wea\u200ather heIp; Ti\u200adal fIows", "the\u2009tide\u202fturns", "heIp wiII he|p c0py l00k he11o Iike",
		"ᴛʜᴇ ʀᴇᴀꜱᴏɴꜱ th℮ ϲat w०rk", "软 件\u200b包 管\u200d理", "本1研2究3以4高5校6为7背景", "plagi'arism docu-ment",
		"T i d a l f l a t s", "\u202ereversed\u202c", "frorn inforrnation\u2009vvvith ancl", "¡nformat¡on ¡Hola ∨ery co∪p∣ing R∪N", "ﬁne ⓐⓑⓒ ①", "", "I", "0", "a\u2009", "\u2009a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if len(n.Orig) != len(n.Runes) {
			t.Fatalf("%q: %d runes, %d offsets", s, len(n.Runes), len(n.Orig))
		}
		for i, o := range n.Orig {
			if o < 0 || int(o) >= n.Len || i > 0 && o < n.Orig[i-1] {
				t.Fatalf("%q: rune %d points at %d (of %d)", s, i, o, n.Len)
			}
		}
		if got, want := CountString(s), CountChars([]rune(s)).Total(); got != want {
			t.Fatalf("%q: CountString %d, CountChars %d", s, got, want)
		}
	})
}
