package check

import (
	"reflect"
	"testing"
	"unicode"

	"thesischeck/similarity"
)

// letterOrDigit's shortcuts answer as similarity.LetterLike does, for every code point.
func TestLetterOrDigit(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := letterOrDigit(r), similarity.LetterLike(r); got != want {
			t.Fatalf("letterOrDigit(%U) = %v, want %v", r, got, want)
		}
	}
}

func TestSentenceSpans(t *testing.T) {
	tests := []struct {
		name, text string
		runs, want [][2]int
	}{
		{"a run over most of a sentence takes it whole, its closing mark too",
			"第一句是学生自己写的。第二句几乎全部照抄来源，只换了一个词。", [][2]int{{11, 25}}, [][2]int{{11, 30}}},
		{"a run over less than half of a sentence stays as it is",
			"第一句是学生自己写的。这一句很长很长而其中只有一小段与来源相同而已。", [][2]int{{11, 16}}, [][2]int{{11, 16}}},
		{"English sentences end at a full stop before a space; closing quotes go with them",
			`He wrote his own opening. "Then he copied a sentence from the book, nearly all of it." And went on.`,
			[][2]int{{27, 70}}, [][2]int{{26, 86}}},
		{"runs in two sentences, both taken whole and merged",
			"甲乙丙丁戊己。庚辛壬癸子丑。寅卯辰巳。", [][2]int{{0, 4}, {7, 11}}, [][2]int{{0, 14}}},
		{"a cited quotation is a sentence of its own: the extension stays inside its marks",
			"已有研究指出：“茶叶出口带来的白银流入江南，改变了农户的收入结构。”[3]本文在此基础上讨论价格。", [][2]int{{8, 30}}, [][2]int{{8, 33}}},
		{"a full-width full stop before a space ends a sentence as a full stop does; not inside a number",
			"Ｗｅ ｗｒｏｔｅ ｉｔ．　Ｔｈｅｎ ３．１４ ｃｏｐｉｅｄ ａ ｌｏｎｇ ｓｅｎｔｅｎｃｅ．　Ｅｎｄ．", [][2]int{{13, 40}}, [][2]int{{13, 46}}},
		{"no runs", "一句话。", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := extendToSentences([]rune(tt.text), sentencePieces([]rune(tt.text)), tt.runs); !reflect.DeepEqual(got, tt.want) {
				rs := []rune(tt.text)
				var texts []string
				for _, s := range got {
					texts = append(texts, string(rs[s[0]:s[1]]))
				}
				t.Errorf("got %v %q, want %v", got, texts, tt.want)
			}
		})
	}
}
