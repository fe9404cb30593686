package similarity

import (
	"io/fs"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"thesischeck/assets"
)

func segmenter(t testing.TB) *Segmenter {
	t.Helper()
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
		dodges         Dodges
	}{
		// Spaces beside punctuation carry nothing for matching and are a cheap way to break n-grams.
		{"plain", "Hello, World", "hello,world", Dodges{}},
		{"zero width", "pla\u200bgia\u200drism", "plagiarism", Dodges{Invisible: 2}},
		// Characters Unicode says show nothing that are no format characters: the combining grapheme
		// joiner, a variation selector, Khmer's inherent vowel.
		{"default ignorable", "pla\u034fgia\ufe00ri\u17b4sm 湿\U000e0100地", "plagiarism湿地", Dodges{Invisible: 4}},
		// Hangul fillers are default-ignorable too, but drawn as wide as a letter: spaces.
		{"hangul fillers", "tidal\u3164flats\uffa0look\u115fempty 湿\u3164地", "tidal flats look empty湿地", Dodges{}},
		// Narrow spaces inside a word are read off; between words, digits or beside punctuation
		// they are spaces.
		{"narrow spaces in words", "ti\u200adal fl\u2009ats Lo\u202fok em\u2006pty\u2009a\u2008b", "tidal flats look emptyab", Dodges{NarrowSpaces: 6}},
		// Radicals drawn as whole characters are read as them: the supplement's by its table, the
		// Kangxi radicals by NFKC (⾧ is 長, then simplified).
		{"radicals", "⻓江⻢路⻚面 ⼀⼈⾧", "长江马路页面一人长", Dodges{Radicals: 6, Traditional: 1}},
		// Narrow spaces for the spaces between words are word spaces: read off, en S001 with thin
		// spaces between its words read 0.0 %, one long word.
		{"narrow word spaces", "the\u2009tide\u202fturns and ti\u200adal", "the tide turns and tidal", Dodges{NarrowSpaces: 1}},
		{"narrow spaces elsewhere", "1\u2009000 kg, 5\u202fkm\u2009; \u200aa", "1 000 kg,5 km;a", Dodges{}},
		// An emoji's presentation selector belongs to it; after a letter it is a dodge.
		{"emoji presentation", "done \u2714\ufe0f wet\ufe0fland", "done\u2714wetland", Dodges{Invisible: 1}},
		{"braille blank", "wet\u2800land 湿\u2800地\u2800被\u2800称", "wet land湿地被称", Dodges{SpacedCJK: 3}},
		// Words spaced out letter by letter: runs of six one-letter words or more count, all their
		// letters ("look" after the comma is too short a run); single letters of prose and short lists do not.
		{"spaced letters", "T i d a l f l a t s, l o o k", "t i d a l f l a t s,l o o k", Dodges{SpacedLetters: 10}},
		{"single letters of prose", "I saw a cat, options a b c d e and x y z", "i saw a cat,options a b c d e and x y z", Dodges{}},
		{"cyrillic lookalikes", "Тhе сat", "the cat", Dodges{Lookalike: 3}},
		// Look-alikes are folded everywhere (both sides of a comparison alike) but counted as a dodge
		// only inside a word that also has Latin letters.
		{"honest russian", "мир", "mиp", Dodges{}},
		// Small capitals and Cherokee's small letters, through what they look like.
		{"small capitals", "ᴛhe ᴀnd ꭺnd", "the and and", Dodges{Lookalike: 3}},
		// All 25 (X has none), as small caps generators write them; the IPA block's B, G, H, L, N, R
		// were missing, and K and M, which the data took for other letters. Counted, as any
		// look-alike, in words with a Latin letter (x, c).
		{"small caps text", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡxʏᴢ ʙʟᴀᴄᴋ ᴍᴀʀᴋɪɴɢ", "abcdefghijklmnopqrstuvwxyz black marking", Dodges{Lookalike: 25}},
		{"cyrillic small capitals", "вʟᴀcк мᴀʀкɪɴɢ", "black marking", Dodges{Lookalike: 4}},
		// Look-alikes Unicode does not list: Greek ε and η, Cyrillic є and п, the schwas.
		{"loose look-alikes", "thε εvεnt, єnd of thə οpεη plaп ɐnd", "the event,end of the open plan and", Dodges{Lookalike: 10}},
		// Marks are read off Latin letters and Han characters, precomposed or typed after them;
		// other scripts' marks are their letters.
		{"marks on letters", "thė ėffėct, café, ȧ", "the effect,cafe,a", Dodges{Marks: 5}},
		// I, |, 0 and 1 drawn for l and o, where they make English words of no words; numbers,
		// codes, names and identifiers keep them.
		{"letters as digits and bars", "heIp wiII he|p c0py l00k he11o Iike", "help will help copy look hello like", Dodges{Lookalike: 10}},
		// The inverted exclamation mark for i, anywhere in such a word; Spanish keeps its own.
		{"inverted exclamation for i", "¡nformat¡on d¡ff¡cult ¡n ¡ts, ¡Hola! ¡no ¡qué", "information difficult in its,¡hola!¡no¡que", Dodges{Lookalike: 6, Marks: 1}},
		// Mathematical signs drawn as letters in such words of four letters or more; formulas, and
		// shorter words (b∪t, R∪N in a set's formula), keep theirs.
		{"signs for letters", "∨ery ha∨e co∪p∣ing s∣ow b∪t p∨q A∪B R∪N x∣y", "very have coupling slow b∪t p∨q a∪b r∪n x∣y", Dodges{Lookalike: 5}},
		// A narrow space read off before a capital I read as l (it panicked: the I's place had moved).
		{"narrow spaces and capital I", "wea\u200ather heIp; Ti\u200adal fIows", "weather help;tidal flows", Dodges{NarrowSpaces: 2, Lookalike: 2}},
		{"digits and capitals that stay", "mp3 h1n1 10th getItem McIntosh DIY x86 a1 I am 2c0py Iowa Ion Into foo1 latin1", "mp3 h1n1 10th getitem mcintosh diy x86 a1 i am 2c0py iowa ion into foo1 latin1", Dodges{}},
		// Letter pairs drawn like one letter (rn, cl, vv) in words that read as English words with
		// them read, the fewest (governrnent's first rn is its own); the narrow space after a pair
		// keeps its place.
		{"letter pairs", "Frorn inforrnation, clata governrnent cornrnittee VVhen vve rnay e-rnail frorn\u2009the", "from information,data government committee when we may e-mail from the", Dodges{LetterPairs: 11}},
		// Words with such pairs as written (turn, clock, savvy), inflected (clays, cloner), names in
		// capitals (Clark), abbreviations (incl) and short words of the list (clen is no den) stay.
		{"letter pairs that stay", "turn clock savvy clays cloner Clark McLaren incl clen rnd vvv CL RN", "turn clock savvy clays cloner clark mclaren incl clen rnd vvv cl rn", Dodges{}},
		// Symbols and other scripts' digits drawn as letters; the lunate sigma before NFKC.
		{"symbols drawn as letters", "th℮ ϲat w०rk ⍺nd ०", "the cat work and o", Dodges{Lookalike: 4}},
		// Letters drawn with a stroke, hook or bar, which have no decomposition, as marks.
		{"letters with strokes", "thɇ øcɇan's łakɇ, Ø ƭ", "the ocean's lake,o t", Dodges{Marks: 7}},
		{"marks typed after", "the\u0307 cafe\u0301 本\u0332研 हिंदी", "the cafe本研हिंदी", Dodges{Marks: 3}},
		{"full width", "ＡＢＣ１２３", "abc123", Dodges{}},
		{"traditional", "軟體包", "软体包", Dodges{Traditional: 2}},
		{"spaced cjk", "软 件 包 管 理", "软件包管理", Dodges{SpacedCJK: 4}},
		// A mark after every Chinese character, in chains of six or more, is read off; a short list
		// of one-character items keeps its commas.
		{"interleaved", "研究·以·高·校·学·位·论文", "研究以高校学位论文", Dodges{Interleaved: 6}},
		{"interleaved digits", "本1研2究3以4高5校6为7背景", "本研究以高校为背景", Dodges{Interleaved: 7}},
		{"a short list", "金、木、水、火、土", "金,木,水,火,土", Dodges{}},
		// Marks put inside English words whose pieces are no words are read off; compounds,
		// contractions, possessives and abbreviations keep theirs.
		{"marks in words", "the plagi'arism of a docu-ment resea.rch in,to ca/mpaign", "the plagiarism of a document research into campaign", Dodges{SplitWords: 5}},
		{"words with marks", "don't, it's, we'll, a student's well-known co-operate e-mail e.g. u.s. and/or out/put state-of-the-art 9 a.m. 3d.ocument", "don't,it's,we'll,a student's well-known co-operate e-mail e.g.u.s.and/or out/put state-of-the-art 9 a.m.3d.ocument", Dodges{}},
		// Marks after every few characters, eight or more in a row, are read off (counted as a
		// dodge only when they stood inside words: CountMarksInWords); fewer are punctuation.
		{"marks every few characters", "本研，究以高，校学，生为，研究，对象，进行，了调，查分析", "本研究以高校学生为研究对象进行了调查分析", Dodges{}},
		{"a long list", "选取北京、上海、天津、重庆、广州、深圳、杭州、南京、武汉、成都等城市", "选取北京上海天津重庆广州深圳杭州南京武汉成都等城市", Dodges{}},
		{"a list of seven", "选取北京、上海、天津、重庆、广州、深圳、杭州、南京等城市", "选取北京,上海,天津,重庆,广州,深圳,杭州,南京等城市", Dodges{}},
		{"longer pieces", "本研究以，高校学生为，研究对象进行，了调查分析，本研究以，高校学生为，研究对象进行，了调查分析，本研究以", "本研究以,高校学生为,研究对象进行,了调查分析,本研究以,高校学生为,研究对象进行,了调查分析,本研究以", Dodges{}},
		{"cjk punctuation", "你好，世界。", "你好,世界.", Dodges{}},
		{"space next to latin kept", "使用 vim 编辑", "使用vim编辑", Dodges{}},
		{"ascii", "Say \"A-Z\" & {x_1}~@ #9;\tTab\x01Bell\x7fDel", "say\"a-z\"&{x_1}~@#9;tabbelldel", Dodges{Invisible: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Normalize(tt.in)
			if got := string(n.Runes); got != tt.want {
				t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if n.Dodges != tt.dodges {
				t.Errorf("dodges = %+v, want %+v", n.Dodges, tt.dodges)
			}
			orig := []rune(tt.in)
			for i, o := range n.Orig {
				if o < 0 || int(o) >= len(orig) || (i > 0 && o < n.Orig[i-1]) {
					t.Fatalf("Orig[%d] = %d: not a rising offset into %d runes", i, o, len(orig))
				}
			}
		})
	}
}

// Dodged text must match its clean source, with spans on the original characters.
func TestDodgedTextMatchesSource(t *testing.T) {
	s := segmenter(t)
	clean := "如果你希望尝试任一操作系统的一个新的图形桌面环境，我推荐在稳定版系统上使用虚拟化软件安全地运行多个桌面环境。"
	zw := strings.Join(strings.Split(clean, ""), "\u200b")
	// A paragraph long enough for longChains, with English words of its own.
	long := "每个文件、目录、命名管道（一种两个程序间共享数据的方法）或 Debian 系统上的物理设备都有一个叫做 inode 的数据结构，描述了其相关属性，例如拥有它的用户（所有者），它属于的组，最后一次访问时间，等等。"
	tests := []struct{ name, dodged string }{
		{"zero width", zw},
		{"traditional", "如果你希望嘗試任一作業系統的一個新的圖形桌面環境，我推薦在穩定版系統上使用虛擬化軟體安全地運行多個桌面環境。"},
		{"spaced", strings.Join(strings.Split(clean, ""), " ")},
		{"a comma every three characters", everyFew(clean, 3, "，")},
		{"a letter every three characters", everyFew(clean, 3, "q")},
		{"a digit every four characters", everyFew(clean, 4, "7")},
		{"a kana every two characters", everyFew(clean, 2, "の")},
		{"two letters every three characters", everyFew(clean, 3, "qz")},
		{"two kana every three characters", everyFew(clean, 3, "のを")},
		{"letters and marks in turn", everyFew(everyFew(clean, 6, "x"), 3, "·")},
		{"a letter every three characters, around the text's own English", everyFew(strings.Replace(clean, "操作系统", "操作系统（Debian）", 1), 3, "q")},
		{"four letters every three characters", everyFew(long, 3, "qzxk")},
		{"eight letters every two characters", everyFew(long, 2, "qzxkvjwb")},
		{"sixteen letters every three characters", everyFew(long, 3, "qzxkvjwbmpfhgtyd")},
		{"five digits every three characters", everyFew(long, 3, "73915")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := s.Prepare(clean)
			if strings.Contains(tt.dodged, "inode") {
				src = s.Prepare(long)
			}
			p := s.Prepare(tt.dodged)
			al := Align(p.Tokens, src.Tokens, DefaultAlign)
			if len(al.A) == 0 {
				t.Fatalf("no alignment between %q and its source", tt.dodged)
			}
			spans := RuneSpans(p.Tokens, al.A)
			rs := []rune(tt.dodged)
			covered := 0
			for _, sp := range spans {
				covered += sp[1] - sp[0]
			}
			if covered < len(rs)*8/10 {
				t.Errorf("spans %v cover %d of %d characters", spans, covered, len(rs))
			}
			last := spans[len(spans)-1]
			if last[1] > len(rs) {
				t.Errorf("span %v beyond the text (%d runes)", last, len(rs))
			}
		})
	}
	// A letter every six characters chains past the text's own commas (but for the last, before
	// no Chinese character).
	if n := Normalize(everyFew(long+long, 6, "q")); strings.Count(string(n.Runes), "q") > 1 {
		t.Errorf("a letter every six characters: %q keeps letters put in", string(n.Runes))
	}
	lat := "The committee approved the budget after a long debate about the new library building."
	dodged := strings.NewReplacer("e", "е", "o", "о", "a", "а").Replace(lat) // Cyrillic е, о, а
	al := Align(s.Prepare(dodged).Tokens, s.Prepare(lat).Tokens, DefaultAlign)
	if al.MatchedA < 10 {
		t.Errorf("look-alike letters: %d words matched, want the whole sentence", al.MatchedA)
	}
}

// everyFew puts mark after every n Han characters of text.
func everyFew(text string, n int, mark string) string {
	var b strings.Builder
	k := 0
	for _, r := range text {
		b.WriteRune(r)
		if isHan(r) {
			if k++; k%n == 0 {
				b.WriteString(mark)
			}
		}
	}
	return b.String()
}

// TestMarksInWords: of the marks read off chains, those that stood inside the words cut are the
// dodge; a list's stand between words.
func TestMarksInWords(t *testing.T) {
	s := segmenter(t)
	clean := "如果你希望尝试任一操作系统的一个新的图形桌面环境，我推荐在稳定版系统上使用虚拟化软件安全地运行多个桌面环境。"
	if d := s.Prepare(everyFew(clean, 3, "，")).Dodges; d.Interleaved < 8 {
		t.Errorf("a comma every three characters: %d inside words, want most of the 16", d.Interleaved)
	}
	if d := s.Prepare("本文选取北京、上海、天津、重庆、广州、深圳、杭州、南京、武汉、成都等十个城市作为样本。").Dodges; d.Interleaved != 0 {
		t.Errorf("a list of ten cities: %d marks inside words, want none", d.Interleaved)
	}
	if d := s.Prepare(everyFew(clean, 3, "q")).Dodges; d.Interleaved < 6 {
		t.Errorf("a letter every three characters: %d inside words, want most of the 16", d.Interleaved)
	}
}

// TestLettersAmongHan: letters, digits and kana that a text's own words put between Han characters
// are kept, where the same put after every few characters are read off (TestDodgedTextMatchesSource).
func TestLettersAmongHan(t *testing.T) {
	for _, text := range []string{
		"设函数f在区间i上连续且f在点x处可导并且g在点y处连续则h在点z处可导且k在点w处可微",
		"本研究选取α粒子和β粒子及γ射线作为对象，研究了x光和b超以及ct在医学中的应用",
		"第1步第2步第3步第4步第5步第6步第7步第8步第9步第10步",
		"国の政府の予算の半分を地方の自治体に配分し、国民の生活の安定を図ることが求められている。",
		"首先用apt安装gcc和make，再从GitHub下载源码，用cmake生成Makefile后执行make编译，最后在Linux和macOS上运行测试并检查结果是否一致",
		"用ls命令列出文件，用cd命令切换目录，用cp命令复制文件，用mv命令移动文件，用rm命令删除文件，用mkdir命令创建目录，用chmod命令修改权限，用grep命令搜索文本，用tar命令打包文件",
	} {
		if n := Normalize(text); len(n.Runes) != utf8.RuneCountInString(text) || n.Interleaved != 0 {
			t.Errorf("Normalize(%q) = %q (%d read off), want every character", text, string(n.Runes), n.Interleaved)
		}
	}
}

func TestTokens(t *testing.T) {
	s := segmenter(t)
	tests := []struct {
		in   string
		want []string
	}{
		{"我们使用软件包管理系统", []string{"我们", "使用", "软件包", "管理系统"}},
		{"Don't split ls -l", []string{"Don't", "split", "ls", "l"}},
		{"版本 2.7 的 Fyne", []string{"版本", "2", "7", "的", "Fyne"}},
		// A word with a letter pair read as one letter spans the pair as written, at its end too.
		{"frorn rnany systerns", []string{"frorn", "rnany", "systerns"}},
	}
	for _, tt := range tests {
		got := s.Words(tt.in)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("Words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func randomText(r *rand.Rand, words []string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[r.Intn(len(words))])
	}
	return b.String()
}

var vocabulary = strings.Fields(`river mountain library student thesis method result analysis network protocol kernel
module package system archive mirror desktop window language compiler memory process thread signal
channel buffer record index query table column value number letter paper journal chapter section
figure model theory practice history culture economy market policy court law nation city village`)

func TestSimHashProperties(t *testing.T) {
	s := segmenter(t)
	r := rand.New(rand.NewSource(1))
	same, far := 0, 0
	for i := 0; i < 50; i++ {
		text := randomText(r, vocabulary, 80)
		a := s.Prepare(text)
		if b := s.Prepare(text); a.SimHash != b.SimHash {
			t.Fatal("SimHash is not deterministic")
		}
		// One word of eighty changed: a few bits at most.
		words := strings.Fields(text)
		words[40] = "zebra"
		if d := Hamming(a.SimHash, s.Prepare(strings.Join(words, " ")).SimHash); d <= 6 {
			same++
		}
		// An unrelated paragraph: about half the bits.
		if d := Hamming(a.SimHash, s.Prepare(randomText(r, vocabulary, 80)).SimHash); d >= 12 {
			far++
		}
	}
	if same < 45 {
		t.Errorf("one changed word kept the fingerprint within 6 bits in only %d of 50 cases", same)
	}
	if far < 45 {
		t.Errorf("unrelated paragraphs were 12+ bits apart in only %d of 50 cases", far)
	}
}

func TestHammingAndBlocks(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 1000; i++ {
		a := r.Uint64()
		b := a
		k := r.Intn(4)
		for _, bit := range r.Perm(64)[:k] {
			b ^= 1 << bit
		}
		if Hamming(a, b) != k {
			t.Fatalf("Hamming = %d, want %d", Hamming(a, b), k)
		}
		ba, bb := Blocks(a), Blocks(b)
		equal := 0
		for j := range ba {
			if ba[j] == bb[j] {
				equal++
			}
		}
		if equal == 0 {
			t.Fatalf("distance %d but no equal block: the pigeonhole rule is broken", k)
		}
	}
}

func TestMinHashEstimatesJaccard(t *testing.T) {
	tests := []struct{ shared, onlyA, onlyB int }{{1000, 0, 0}, {500, 500, 500}, {200, 800, 800}, {0, 1000, 1000}}
	for _, tt := range tests {
		var a, b []uint32
		for i := 0; i < tt.shared; i++ {
			a, b = append(a, uint32(i)), append(b, uint32(i))
		}
		for i := 0; i < tt.onlyA; i++ {
			a = append(a, uint32(1e6+i))
		}
		for i := 0; i < tt.onlyB; i++ {
			b = append(b, uint32(2e6+i))
		}
		want := float64(tt.shared) / float64(tt.shared+tt.onlyA+tt.onlyB)
		sa, sb := MinHash(a), MinHash(b)
		if got := sa.Jaccard(&sb); got < want-0.12 || got > want+0.12 {
			t.Errorf("Jaccard estimate %.3f, true %.3f", got, want)
		}
	}
	if p := CandidateProbability(0.4); p < 0.99 {
		t.Errorf("documents at Jaccard 0.4 are candidates with probability %.3f", p)
	}
	if p := CandidateProbability(0.02); p > 0.05 {
		t.Errorf("documents at Jaccard 0.02 are candidates with probability %.3f", p)
	}
}

func TestWinnowGuarantee(t *testing.T) {
	s := segmenter(t)
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 100; i++ {
		shared := randomText(r, vocabulary, 6)
		a := s.Prepare(randomText(r, vocabulary, 30) + " " + shared + " " + randomText(r, vocabulary, 30))
		b := s.Prepare(randomText(r, vocabulary, 20) + " " + shared + " " + randomText(r, vocabulary, 20))
		kept := map[uint32]bool{}
		for _, g := range Winnow(b.Grams, 4) {
			kept[g] = true
		}
		found := false
		for _, g := range a.Grams {
			found = found || kept[g]
		}
		if !found {
			t.Fatalf("a shared run of 6 words left no winnowed gram: %q", shared)
		}
	}
}

func TestAlign(t *testing.T) {
	s := segmenter(t)
	src := "Tsunami are so shallow in comparison with their length that in the open ocean they are hardly detectable. " +
		"Their amplitude sometimes is as little as two feet from trough to crest. Usually it is only when they approach " +
		"shallow water on the shore that they build up to their terrifying heights."
	tests := []struct {
		name     string
		text     string
		copied   string // a passage that must lie inside the spans
		wantNone bool
	}{
		{"verbatim", src, "open ocean they are hardly detectable", false},
		{"edited", "Tsunami are so shallow compared with their length that in the open sea they are barely detectable. " +
			"Usually it is only when they approach shallow water near the shore that they build up to terrifying heights.",
			"approach shallow water", false},
		{"partial", "The harbour was quiet that morning. Their amplitude sometimes is as little as two feet from trough to crest. Nobody expected anything.",
			"as little as two feet", false},
		{"unrelated with common phrases", "In the open, the length of the debate was shallow, and the committee did not approach the matter.", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := s.Prepare(tt.text), s.Prepare(src)
			al := Align(a.Tokens, b.Tokens, DefaultAlign)
			if tt.wantNone {
				if len(al.A) != 0 {
					t.Fatalf("unrelated text aligned: %v", RuneSpans(a.Tokens, al.A))
				}
				return
			}
			if len(al.A) == 0 || len(al.B) == 0 {
				t.Fatal("no alignment")
			}
			rs := []rune(tt.text)
			at := strings.Index(tt.text, tt.copied)
			start := len([]rune(tt.text[:at]))
			end := start + len([]rune(tt.copied))
			inside := false
			for _, sp := range RuneSpans(a.Tokens, al.A) {
				if sp[0] <= start && end <= sp[1] && sp[1] <= len(rs) {
					inside = true
				}
			}
			if !inside {
				t.Errorf("%q not inside spans %v", tt.copied, RuneSpans(a.Tokens, al.A))
			}
		})
	}
}

func TestGramJaccardSet(t *testing.T) {
	if j := GramJaccardSet(SortedSet([]uint32{3, 1, 2}), []uint32{2, 3, 4}); j != 0.5 {
		t.Errorf("GramJaccardSet = %v, want 0.5", j)
	}
	if j := GramJaccardSet(nil, nil); j != 0 {
		t.Errorf("GramJaccardSet of empty sets = %v", j)
	}
}

func BenchmarkPrepare(b *testing.B) {
	s := segmenter(b)
	text := strings.Repeat("如果你希望尝试任一操作系统的一个新的图形桌面环境，我推荐在稳定版系统上使用虚拟化软件。", 4)
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		s.Prepare(text)
	}
}

// Libraries store signatures: MinHash's values may never change, or old and new documents would no
// longer compare.
func TestMinHashValuesFixed(t *testing.T) {
	sig := MinHash([]uint32{1, 2, 3, 0xdeadbeef, 42})
	if got, want := [5]uint32{sig[0], sig[1], sig[63], sig[64], sig[127]}, [5]uint32{0x34e0d449, 0x2ea781c8, 0x6406d77, 0x1fd5a034, 0xde6d220}; got != want {
		t.Errorf("signature values %#x, want %#x", got, want)
	}
	if empty := MinHash(nil); empty[0] != math.MaxUint32 || empty[127] != math.MaxUint32 {
		t.Errorf("an empty set gives %#x…%#x, want all ones", empty[0], empty[127])
	}
}

// gramPositions gives each gram's positions in increasing order, at most maxRepeats of them, and
// none for a gram that is absent or zero (no gram); grams whose low bits collide (7, 23, 39 in a
// table of 16 slots) are told apart.
func TestGramPositions(t *testing.T) {
	grams := []uint32{7, 3, 7, 0, 9, 7, 3, 7, 23, 39, 23}
	positions := func(p *gramPositions, g uint32) []int32 {
		defer p.release()
		var out []int32
		for j := p.first(g); j >= 0; j = p.next[j] {
			out = append(out, j)
		}
		return out
	}
	for _, tt := range []struct {
		maxRepeats int
		gram       uint32
		want       []int32
	}{
		{0, 7, []int32{0, 2, 5, 7}},
		{3, 7, []int32{0, 2, 5}},
		{0, 3, []int32{1, 6}},
		{1, 9, []int32{4}},
		{0, 0, nil},
		{0, 8, nil},
		{0, 10, nil},
		{0, 23, []int32{8, 10}},
		{0, 39, []int32{9}},
		{0, 55, nil},
	} {
		if got := positions(newGramPositions(grams, tt.maxRepeats), tt.gram); !slices.Equal(got, tt.want) {
			t.Errorf("gram %d, at most %d: positions %v, want %v", tt.gram, tt.maxRepeats, got, tt.want)
		}
	}
}

// minHashReference is MinHash as first written: every shingle, every hash function, one by one.
func minHashReference(shingles []uint32) Signature {
	var sig Signature
	for i := range sig {
		sig[i] = math.MaxUint32
	}
	for _, sh := range shingles {
		x := uint32(mix64(uint64(sh)))
		for i := range sig {
			if v := hashMul[i]*x + hashAdd[i]; v < sig[i] {
				sig[i] = v
			}
		}
	}
	return sig
}

// MinHash gives the signature the plain loop gives, for every number of shingles (blocks of 256
// and what is left).
func TestMinHashIsReference(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for n := range 40 {
		sh := make([]uint32, n*n) // up to 1,521: several blocks
		for i := range sh {
			sh[i] = rng.Uint32()
		}
		want := minHashReference(sh)
		if MinHash(sh) != want {
			t.Fatalf("%d shingles: signatures differ", len(sh))
		}
		// The loop for processors without AVX2, wherever the test runs.
		var sig Signature
		for i := range sig {
			sig[i] = math.MaxUint32
		}
		xs := make([]uint32, len(sh))
		for i, s := range sh {
			xs[i] = uint32(mix64(uint64(s)))
		}
		if minHashGeneric(&sig, xs); sig != want {
			t.Fatalf("%d shingles: minHashGeneric's signature differs", len(sh))
		}
	}
}

func BenchmarkMinHash(b *testing.B) {
	sh := make([]uint32, 3000) // a document of 30 paragraphs
	for i := range sh {
		sh[i] = uint32(i) * 2654435761
	}
	for b.Loop() {
		MinHash(sh)
	}
}

// BenchmarkPrepareSamples prepares the sample texts' paragraphs (Chinese and English prose), the
// per-paragraph work of an import.
func BenchmarkPrepareSamples(b *testing.B) {
	s := segmenter(b)
	var paras []string
	size := 0
	err := fs.WalkDir(assets.Sample, "sample", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".txt") {
			return err
		}
		data, err := assets.Sample.ReadFile(p)
		for _, para := range strings.Split(string(data), "\n\n") {
			paras = append(paras, para)
			size += len(para)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, p := range paras {
			s.PrepareWeighted(p, func(uint32) float32 { return 1 })
		}
	}
}

// simHashReference is SimHash as first written: one token, one bit at a time.
func simHashReference(toks []Token) uint64 {
	var v [64]float32
	for _, t := range toks {
		if t.Weight == 0 {
			continue
		}
		h := mix64(uint64(t.Hash))
		for b := 0; b < 64; b++ {
			if h>>b&1 == 1 {
				v[b] += t.Weight
			} else {
				v[b] -= t.Weight
			}
		}
	}
	var f uint64
	for b := 0; b < 64; b++ {
		if v[b] > 0 {
			f |= 1 << b
		}
	}
	return f
}

// randomTokens are n tokens with weights of every size, zero and negative ones among them, so that
// rounding in the sums decides some bits.
func randomTokens(rng *rand.Rand, n int) []Token {
	toks := make([]Token, n)
	for i := range toks {
		toks[i].Hash = rng.Uint32()
		switch rng.Intn(6) {
		case 0:
			toks[i].Weight = 0
		case 1:
			toks[i].Weight = float32(rng.NormFloat64())
		case 2:
			toks[i].Weight = float32(rng.Float64() * 1e-3)
		default:
			toks[i].Weight = float32(rng.Float64() * 20)
		}
	}
	return toks
}

// SimHash gives the fingerprint the plain loop gives, to the bit, and so does the loop for
// processors without AVX2; its sums too, not only their signs.
func TestSimHashIsReference(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for n := range 300 {
		toks := randomTokens(rng, n)
		if got, want := SimHash(toks), simHashReference(toks); got != want {
			t.Fatalf("%d tokens: SimHash %016x, the plain loop %016x", n, got, want)
		}
		var hs []uint64
		var ws []float32
		var want [64]float32
		for _, tok := range toks {
			if tok.Weight != 0 {
				hs, ws = append(hs, mix64(uint64(tok.Hash))), append(ws, tok.Weight)
			}
		}
		simHashGeneric(&want, hs, ws)
		var got [64]float32
		for len(hs) > 0 { // in blocks, as SimHash gives them
			k := min(len(hs), 128)
			simHashBlock(&got, hs[:k], ws[:k])
			hs, ws = hs[k:], ws[k:]
		}
		for b := range got {
			if math.Float32bits(got[b]) != math.Float32bits(want[b]) {
				t.Fatalf("%d tokens: sum of bit %d is %v, the plain loop's %v", n, b, got[b], want[b])
			}
		}
	}
}

func BenchmarkSimHash(b *testing.B) {
	toks := randomTokens(rand.New(rand.NewSource(1)), 100) // a paragraph
	for b.Loop() {
		SimHash(toks)
	}
}
