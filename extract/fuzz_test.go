package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"thesischeck/internal/hostile"
	"thesischeck/internal/screenshot"
)

// Fuzz targets for the three readers, through Bytes as the library and the check call them. The
// seed corpus is the real and broken files in testdata/ (testdata/bad holds truncated, damaged,
// encrypted, image-only and hostile files) and the hostile shapes of internal/hostile, made small. Whatever the bytes: no panic, no hang, and either an
// error naming the file or paragraphs of valid, non-empty text within the limits.

func addSeeds(f *testing.F, patterns ...string) {
	n := 0
	for _, pat := range patterns {
		paths, err := filepath.Glob(filepath.Join("testdata", pat))
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			if len(data) > 64<<10 {
				continue // big seeds slow every mutation down; the small ones cover the formats
			}
			f.Add(data)
			n++
		}
	}
	if n == 0 {
		f.Fatalf("no seeds for %v", patterns)
	}
}

func fuzzReader(t *testing.T, name string, data []byte) {
	doc, err := Bytes(context.Background(), name, data)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "extract "+name+": ") || strings.Contains(err.Error(), "\n") {
			t.Fatalf("error %q: want one line starting with the file name", err)
		}
		return
	}
	if len(doc.Paragraphs) == 0 || len(doc.Paragraphs) > MaxParagraphs {
		t.Fatalf("%d paragraphs and no error", len(doc.Paragraphs))
	}
	total := 0
	for i, p := range doc.Paragraphs {
		if strings.TrimSpace(p.Text) == "" || !utf8.ValidString(p.Text) || strings.ContainsRune(p.Text, 0) {
			t.Fatalf("paragraph %d is empty, not UTF-8 or holds NUL: %q", i, p.Text)
		}
		if utf8.RuneCountInString(p.Text) > maxParagraphRunes+200 { // a numbering label may be added
			t.Fatalf("paragraph %d has %d runes", i, utf8.RuneCountInString(p.Text))
		}
		total += len(p.Text)
		n := utf8.RuneCountInString(p.Text)
		for _, h := range p.Hidden {
			if h.Offset < 0 || h.Offset > n || strings.TrimSpace(h.Text) == "" || !utf8.ValidString(h.Text) || len(h.Reasons) == 0 {
				t.Fatalf("paragraph %d of %d runes: hidden piece %+v", i, n, h)
			}
		}
	}
	if total > MaxDocText+MaxParagraphs*8 {
		t.Fatalf("%d bytes of text", total)
	}
	if err := doc.TextPictures(context.Background()); err != nil {
		t.Fatalf("pictures: %v", err)
	}
}

func FuzzPDF(f *testing.F) {
	addSeeds(f, "bad/[!g]*.pdf", "bad/good.pdf", "bad/*.docx", "pdf/*.pdf") // not glyphs.pdf: a second an exec
	// The hostile shapes, each just past a bound (or inside it) so that an exec stays cheap.
	f.Add(hostile.DeepSaves(1100))
	f.Add(hostile.DeepSaves(50))
	f.Add(hostile.NestedForms(20))
	f.Add(hostile.NestedForms(4))
	f.Add(hostile.FormFanOut(20_000))
	f.Add(hostile.StreamBomb(2))
	f.Add(damagedStreamPDF())
	// Pages that hide text every way the reader knows, and draw boxes, images, forms and clips.
	f.Add(hiddenPDF(twoParagraphs("0.2 0.4 0.6 rg 60 690 500 30 re f 1 g", "3 Tr (a) Tj 0 Tr /F1 1 Tf (b) Tj /F1 12 Tf",
		"q 0 0 5 5 re W n BT /F1 12 Tf 72 680 Td (c) Tj ET Q /OC /oc1 BDC BT /F1 12 Tf -400 680 Td (d) Tj ET EMC")))
	f.Add(hiddenPDF("q 612 0 0 792 0 0 cm /Im1 Do Q " + twoParagraphs("3 Tr /GS0 gs", "0 0 0 0 k (e) Tj", "1 g 70 676 200 16 re f")))
	f.Add(unmappedPDF("Our own words.", 60)) // glyphs of a font that says no character
	// Pictures: a screenshot of text (a PNG, its rows predicted) on the second page.
	if png, err := screenshot.PNG(screenshot.Latin([]string{"one line of text", "and another one", "and a third"})); err == nil {
		if pdf, err := screenshot.PDF("Our own words.", "", png); err == nil {
			f.Add(pdf)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReader(t, "fuzz.pdf", data) })
}

func FuzzDOCX(f *testing.F) {
	addSeeds(f, "docx/*.docx", "bad/*.docx")
	f.Add(hostile.FootnoteBomb(5, 200))
	f.Add(hostile.DOCX(hostile.Para("Two notes.", 1, 2, 1), `<w:footnote w:id="1"><w:p><w:r><w:t>One.</w:t></w:r></w:p></w:footnote><w:footnote w:id="2"><w:p><w:r><w:t>Two.</w:t></w:r></w:p></w:footnote>`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReader(t, "fuzz.docx", data) })
}

func FuzzTXT(f *testing.F) {
	addSeeds(f, "txt/*", "bad/*.txt")
	zh := strings.Repeat("论文复制检测方法研究，本文提出一种结合指纹与对齐的方法。\n", 20)
	f.Add([]byte(zh + "\xFF"))                               // UTF-8 and a stray byte
	f.Add([]byte(zh[:90] + "\xFF" + zh[90:]))                // one in the middle
	f.Add([]byte(zh[:91] + zh[93:]))                         // a character cut in two
	f.Add([]byte("caf\xe9 \x93quoted\x94 and \xe4\xb8\xad")) // Windows-1252 with a UTF-8 character
	f.Add([]byte(strings.Repeat("\ue000\ue001 ", 50)))       // private use
	f.Add([]byte(strings.Repeat("\xa4\xa4\xa4\xe5 ", 100)))  // Big5
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReader(t, "fuzz.txt", data) })
}

// TestSplitLong: a text with no line breaks is cut into pieces of at most maxParagraphRunes, at
// sentence ends where there are some, and nothing is lost.
func TestSplitLong(t *testing.T) {
	sentence := "这是一个没有换行的很长的句子，它会一直写下去。"
	cases := []struct {
		name, text string
		sentences  bool // every piece should end a sentence
	}{
		{"chinese sentences", strings.Repeat(sentence, 2000), true},
		{"english words", strings.Repeat("word after word ", 3000), false},
		{"no spaces", strings.Repeat("字", 9001), false},
		{"short", "一段话。", true},
	}
	for _, c := range cases {
		ps := splitLong([]Paragraph{{Text: c.text, Page: 3, Notes: []string{"note"}}})
		var joined strings.Builder
		for i, p := range ps {
			n := utf8.RuneCountInString(p.Text)
			if n == 0 || n > maxParagraphRunes {
				t.Errorf("%s: piece %d has %d runes", c.name, i, n)
			}
			if c.sentences && !strings.HasSuffix(p.Text, "。") {
				t.Errorf("%s: piece %d ends %q, not at a sentence end", c.name, i, p.Text[len(p.Text)-6:])
			}
			if p.Page != 3 || (i == 0) != (len(p.Notes) == 1) {
				t.Errorf("%s: piece %d: page %d, notes %v", c.name, i, p.Page, p.Notes)
			}
			joined.WriteString(p.Text)
		}
		squash := func(s string) string { return strings.ReplaceAll(s, " ", "") }
		if squash(joined.String()) != squash(c.text) {
			t.Errorf("%s: text lost in the pieces", c.name)
		}
	}
}
