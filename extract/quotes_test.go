package extract

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// quoted marks the expected spans of a test text with ⟦ and ⟧ (which are removed before the test
// runs), so that a case reads as the text it checks.
func quoted(marked string) (string, [][2]int) {
	var b strings.Builder
	var spans [][2]int
	n, start := 0, 0
	for _, r := range marked {
		switch r {
		case '⟦':
			start = n
		case '⟧':
			spans = append(spans, [2]int{start, n})
		default:
			b.WriteRune(r)
			n++
		}
	}
	return b.String(), spans
}

func TestQuotedSpans(t *testing.T) {
	tests := []struct {
		name   string
		marked string
	}{
		{"Chinese quotation with a numeric citation after it",
			`有研究指出，⟦“一些命令，比如 /usr/bin/dash，它缺少命令行历史编辑能力，但在 rlwrap 下运行就能够增加这样的功能。”⟧[10]`},
		{"citing phrase with a citation before the quotation",
			`文献[10]认为，⟦“为让这些查看器和虚拟文件特征生效，可查看的文件不能够被设置为可执行。”⟧`},
		{"citation range and list",
			`⟦“局部敏感哈希能够在亚线性时间内完成近邻检索。”⟧[3-5]，另见⟦“指纹方法对局部改写的鲁棒性有限，需要结合对齐。”⟧[1,2]`},
		{"full-width and tortoise-shell brackets",
			`⟦“局部敏感哈希能够在亚线性时间内完成近邻检索。”⟧［7］与⟦「指纹方法对局部改写的鲁棒性有限，需要结合对齐。」⟧〔8〕`},
		{"superscript citation",
			`⟦“局部敏感哈希能够在亚线性时间内完成近邻检索。”⟧^12`},
		{"author-year citations",
			`As Smith notes, ⟦"fingerprinting alone cannot locate the copied spans inside a paragraph"⟧ (Smith et al., 2019, p. 3).`},
		{"Chinese author-year in full-width parentheses",
			`⟦“复制检测需要兼顾速度与精度，二者往往难以同时满足。”⟧（王芳，2019）`},
		{"English straight quotes with a nested TeX-style quotation",
			`As one study puts it, ⟦"City Controller Alexander Hemphill charged Tuesday that the bids were rigged to the advantage of a company which had "an inside track'' with the city."⟧ [30]`},
		{"citing phrase with author and year",
			`Smith (2019) argues that ⟦"alignment is what turns candidate documents into evidence of copying"⟧, and we agree.`},
		{"a block quote is one span",
			`⟦“学术规范是学术共同体的基本约定。违反学术规范的行为，不仅损害个人声誉，也损害整个学术共同体的信誉。”⟧[4]`},
		{"corner brackets with a citation after a full stop",
			`⟦「复制检测系统应当给出可解释的证据，而不仅仅是一个数字。」⟧。[6]`},
		{"citation before the quotation",
			`如文献[2]：⟦“指纹方法对局部改写的鲁棒性有限，需要结合序列对齐来定位复制片段。”⟧`},
		// Not quotations.
		{"short quoted terms", `Esc 被称为 meta 键，有时候也称之为 "M-"。在 ~/muttrc 中设定 "hostname" 和 "from" 变量。`},
		{"long quoted text without a citation", `你可以尝试在运行程序的时候加上 "--sync --debug-all-the-things" 选项来获得栈帧信息。`},
		{"quoted text with a citation but too short", `所谓“指纹”[3]是一种紧凑表示。`},
		{"apostrophes are not quotation marks", `The program 'preview1' received an X Window System error, and the user's file wasn't saved [2].`},
		{"unclosed quotation", `他说：“这句话没有结束，而且后面跟着引用[5]`},
		{"empty", ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, want := quoted(tc.marked)
			got := QuotedSpans(text)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("QuotedSpans(%q)\n got %v %s\nwant %v", text, got, show(text, got), want)
			}
		})
	}
}

func show(text string, spans [][2]int) string {
	rs := []rune(text)
	var parts []string
	for _, s := range spans {
		if s[0] >= 0 && s[1] <= len(rs) && s[0] <= s[1] {
			parts = append(parts, string(rs[s[0]:s[1]]))
		}
	}
	return fmt.Sprintf("%q", parts)
}

func TestQuotedSpansAreRunesAndOrdered(t *testing.T) {
	text := `甲说“这是第一段很长的引用文字内容。”[1]，乙说“这是第二段很长的引用文字内容。”[2]`
	spans := QuotedSpans(text)
	if len(spans) != 2 {
		t.Fatalf("got %v", spans)
	}
	rs := []rune(text)
	for i, s := range spans {
		if rs[s[0]] != '“' || rs[s[1]-1] != '”' {
			t.Errorf("span %d %q does not run from mark to mark", i, string(rs[s[0]:s[1]]))
		}
		if i > 0 && s[0] < spans[i-1][1] {
			t.Errorf("spans overlap: %v", spans)
		}
	}
}

func FuzzQuotedSpans(f *testing.F) {
	for _, s := range []string{`有研究指出，“一些命令缺少命令行历史编辑能力。”[10]`, `"a "b'' c" [1]`, `“”「」‘’''""`, "``x'' (Wang, 2019)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := utf8.RuneCountInString(s)
		last := 0
		for _, sp := range QuotedSpans(s) {
			if sp[0] < last || sp[1] <= sp[0] || sp[1] > n {
				t.Fatalf("bad span %v in %q (runes %d)", sp, s, n)
			}
			last = sp[1]
		}
	})
}

// endsCite, the test before reCiteBefore, never refuses a text the pattern matches: random texts
// of citation marks, the characters around them and others.
func TestEndsCite(t *testing.T) {
	pieces := []string{"[12]", "［3］", "〔4〕", "^5", "^[6]", "¹²", "(Wang, 2019)", "（王芳，2019）", "(1998a)", "]", ")", "7",
		" ", "\u3000", "\u00a0", "\t", "\n", "\v", ":", "：", ",", "，", ";", "。", "文献", "认为", "a", "(", "[", "2019"}
	r := rand.New(rand.NewPCG(7, 11))
	matched := 0
	for range 50000 {
		var b strings.Builder
		for range r.IntN(7) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		rs := []rune(b.String())
		if reCiteBefore.MatchString(string(rs)) {
			matched++
			if !endsCite(rs) {
				t.Fatalf("endsCite refuses %q, which reCiteBefore matches", string(rs))
			}
		}
	}
	if matched < 5000 {
		t.Fatalf("only %d of 50,000 texts end in a citation: the pieces are off", matched)
	}
}
