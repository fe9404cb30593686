package extract

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestReadingOrder(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		moved          int
	}{
		{"no override", "plain text, \u202Bembedded\u202C and \u2067isolated\u2069", "plain text, \u202Bembedded\u202C and \u2067isolated\u2069", 0},
		{"paragraph", "\u202Etxet deipoc\u202C", "copied text", 11},
		{"word by word", "\u202Edeipoc\u202C \u202Etxet\u202C.", "copied text.", 10},
		{"inside a sentence", "We saw \u202Estalf ladit\u202C at dawn.", "We saw tidal flats at dawn.", 11},
		{"unclosed: to the paragraph's end", "前言\u202E。本文的制复", "前言复制的文本。", 6},
		{"LRO inside RLO keeps its order", "\u202Eab\u202Dcd\u202Cef\u202C", "fecdba", 4},
		{"RLO inside RLE", "x\u202B\u202Ecba\u202C\u202Cy", "xabcy", 3},
		{"RLO inside RLI", "x\u2067\u202Ecba\u202C\u2069y", "xabcy", 3},
		{"LRO alone moves nothing", "\u202Dabc\u202C", "abc", 0},
		{"PDI closes the embeddings in its isolate", "\u2067\u202Eba\u2069dc", "abdc", 2},
		{"stray closers", "\u202C\u2069\u202Ecba", "abc", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, moved, pos := readingOrder(c.in)
			if got != c.want || moved != c.moved {
				t.Errorf("readingOrder(%q) = %q, %d moved; want %q, %d", c.in, got, moved, c.want, c.moved)
			}
			if pos != nil && len(pos) != len([]rune(c.in))+1 {
				t.Errorf("%d offsets for %d runes", len(pos), len([]rune(c.in)))
			}
		})
	}
	// Deeper than a renderer goes: the embeddings past 125 are ignored, not a panic or a wrong
	// order of what is inside the ones kept.
	deep := strings.Repeat("\u202E", 200) + "cba" + strings.Repeat("\u202C", 200)
	if got, _, _ := readingOrder(deep); got != "abc" && got != "cba" {
		t.Errorf("200 nested overrides read %q", got)
	}
}

// A copied paragraph stored back to front between overrides is read as shown, and said to be; the
// hidden text inside it keeps its place in the reordered text.
func TestReversedText(t *testing.T) {
	text := "Tidal flats look empty at first glance, yet they feed more birds than any other coast."
	rev := []rune(text)
	slices.Reverse(rev)
	in := "My own opening sentence stands first.\n\n\u202E" + string(rev) + "\u202C\n\nAnd my own last one."
	doc, err := Bytes(context.Background(), "reversed.txt", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Paragraphs) != 3 || doc.Paragraphs[1].Text != text {
		t.Fatalf("paragraphs %+v", doc.Paragraphs)
	}
	var w *Warning
	for i := range doc.Warnings {
		if doc.Warnings[i].Kind == WarnReversed {
			w = &doc.Warnings[i]
		}
	}
	if w == nil || w.Count != len(rev) || !slices.Equal(w.Paragraphs, []int{1}) || !strings.Contains(w.Message, "paragraph 2") {
		t.Fatalf("warnings %+v, want %d characters reversed in paragraph 2", doc.Warnings, len(rev))
	}

	// The same in Word: a w:bdo element overrides the direction of the runs in it (no character
	// in the text says so), and its hidden run stays hidden.
	body := `<w:p><w:r><w:t xml:space="preserve">Seen: </w:t></w:r><w:bdo w:val="rtl"><w:r><w:t>` + string(rev[:30]) + `</w:t></w:r>` +
		`<w:r><w:rPr><w:vanish/></w:rPr><w:t>junk</w:t></w:r><w:r><w:t>` + string(rev[30:]) + `</w:t></w:r></w:bdo>` +
		`<w:r><w:t xml:space="preserve"> (end)</w:t></w:r></w:p>`
	doc, err = Bytes(context.Background(), "bdo.docx", wordPackage(t, body, nil))
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Paragraphs[0]
	if want := "Seen: " + text + " (end)"; p.Text != want {
		t.Fatalf("w:bdo paragraph %q, want %q", p.Text, want)
	}
	if len(p.Hidden) != 1 || p.Hidden[0].Text != "junk" {
		t.Fatalf("hidden %+v", p.Hidden)
	}
	// Stored after the first 30 characters of the reversed text, it is shown before its last 30.
	if off := p.Hidden[0].Offset; off != len("Seen: ")+len(rev)-30 {
		t.Errorf("hidden text at %d, want %d", off, len("Seen: ")+len(rev)-30)
	}
}
