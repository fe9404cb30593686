package extract

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"thesischeck/internal/hostile"
)

// A paragraph written in private-use characters, which an embedded font draws as the text it
// replaced, is named in a not_text warning; a bullet or a ligature of a symbol font is not.
func TestPrivateUseWarning(t *testing.T) {
	han := "芦苇、香蒲和菖蒲是北方城市湿地中最常见的挺水植物，它们的茎秆中空。"
	pua := strings.Map(func(r rune) rune {
		if r >= 0x4E00 && r <= 0x9FFF {
			return 0xE000 + r%0x1000
		}
		return r
	}, han)
	want := utf8.RuneCountInString(pua) - 3 // the punctuation is as it was
	cases := []struct {
		name  string
		body  string
		count int
		paras []int
	}{
		{"a paragraph in private use", hostile.Para(han) + hostile.Para(pua), want, []int{1}},
		{"bullets of a symbol font", hostile.Para("\uF0B7 "+han) + hostile.Para("\uF0A7 "+han), 0, nil},
		{"a ligature in a long paragraph", hostile.Para(strings.Repeat("The e\uF001ect of the \uF002ow. ", 4)), 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Bytes(context.Background(), "t.docx", hostile.DOCX(c.body, ""))
			if err != nil {
				t.Fatal(err)
			}
			w, ok := warningOf(doc, WarnNotText)
			if c.count == 0 {
				if ok {
					t.Errorf("warning %+v", w)
				}
				return
			}
			if !ok || w.Count != c.count || !reflect.DeepEqual(w.Paragraphs, c.paras) || !strings.Contains(w.Message, "private use") {
				t.Errorf("warning %+v (found %v), want %d characters in paragraphs %v", w, ok, c.count, c.paras)
			}
		})
	}
}

// privateOrUnassigned answers the blocks it answers first as Unicode's tables do, for every code
// point.
func TestPrivateOrUnassigned(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		slow := unicode.Is(unicode.Co, r) || !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C)
		if privateOrUnassigned(r) != slow {
			t.Fatalf("privateOrUnassigned(%U) = %v, the tables say %v", r, !slow, slow)
		}
	}
}
