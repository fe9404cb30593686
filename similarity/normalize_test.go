package similarity

import (
	"strings"
	"testing"
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
	}
	for _, in := range tests {
		orig := []rune(in)
		n := Normalize(in)
		if len(n.Orig) != len(n.Runes) {
			t.Fatalf("%q: %d runes, %d offsets", in, len(n.Runes), len(n.Orig))
		}
		for i, r := range n.Runes {
			o := n.Orig[i]
			if o < 0 || o >= len(orig) || (i > 0 && o <= n.Orig[i-1] && r != ' ') {
				t.Fatalf("%q: rune %d (%q) points at %d", in, i, r, o)
			}
			// The original character is the folded one, or a form of it.
			if got := Normalize(string(orig[o])).String(); got != "" && !strings.ContainsRune(got, r) && r != ' ' {
				t.Errorf("%q: normalised %q comes from %q, which normalises to %q", in, r, orig[o], got)
			}
		}
	}
}
