package extract

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/transform"
)

func paragraphTexts(doc *Document) []string {
	var out []string
	for _, p := range doc.Paragraphs {
		out = append(out, p.Text)
	}
	return out
}

// The same short text, saved in every encoding the TXT reader accepts.
var sampleParagraphs = []string{
	"论文复制检测方法研究",
	"摘要",
	"本文提出一种结合指纹与对齐的复制检测方法，能够快速定位复制片段。",
	"第一章 绪论",
	"Debian 是一个自由的操作系统，由志愿者共同开发。",
}

func TestReadTXTEncodings(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"utf8.txt", sampleParagraphs},
		{"utf8-bom.txt", sampleParagraphs},
		{"utf16le.txt", sampleParagraphs},
		{"utf16be.txt", sampleParagraphs},
		{"gbk.txt", sampleParagraphs},
		{"crlf.txt", sampleParagraphs},
		{"gb18030.txt", []string{"生僻字𠀀与欧元符号€都能读出。", "第二段落。"}},
		{"cp1252.txt", []string{"The “quick” brown fox — café owner’s dog.", "Second paragraph."}},
		{"oneline.txt", []string{
			"第一章 绪论",
			"学术不端检测已经成为研究生培养的必要环节，各高校普遍要求学位论文在答辩之前通过检测系统的检查，检测结果作为是否允许答辩的重要依据，这对检测系统的速度和准确性都提出了很高的要求。",
			"现有系统大多依赖指纹索引，先用紧凑的指纹找出候选文档，再逐段比对定位复制片段，最后汇总为检测报告。",
			"1.1 研究背景",
			"近年来学位论文数量快速增长。",
		}},
		{"wrapped.txt", []string{
			"Plagiarism detection systems compare a submission with a large library of earlier work and report the passages that were copied without attribution.",
			"Fingerprints make the comparison fast: each document is reduced to a small set of hashes that can be looked up in an index.",
		}},
		{"indented.txt", []string{
			"学术不端检测已经成为研究生培养的必要环节，各高校普遍要求学位论文在答辩之前通过检测。",
			"现有系统大多依赖指纹索引，先找出候选文档，再逐段比对定位复制片段。",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "txt", tc.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := Sniff(data, tc.file); got != "txt" {
				t.Fatalf("Sniff = %q, want txt", got)
			}
			doc, err := File(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := paragraphTexts(doc); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("paragraphs\n got %q\nwant %q", got, tc.want)
			}
			if doc.Format != "txt" || doc.Path != path {
				t.Errorf("format %q path %q", doc.Format, doc.Path)
			}
		})
	}
}

// cleanText's scans in front of its replacer miss none of the replacer's patterns: texts made of
// them and of their look-alikes (the same lead bytes, other characters) come out as the replacer
// makes them.
func TestCleanTextScans(t *testing.T) {
	pieces := []string{"a", "中", "\n", "\r", "\r\n", "\x00", "\f", "\v", "\u0085", "\u2028", "\u2029", "\u00a9", "\u201c", "\u2027", "\u202a"}
	rng := rand.New(rand.NewPCG(1, 2))
	changed := 0
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(6) + 1 {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		want := lineEnds.Replace(text)
		if got := cleanText(text); got != want {
			t.Fatalf("cleanText(%q) = %q, the replacer makes %q", text, got, want)
		}
		if want != text {
			changed++
		}
	}
	if changed < 1000 {
		t.Fatalf("only %d of 5000 texts had something to replace", changed)
	}
}

func TestReadTXTStripsNUL(t *testing.T) {
	doc, err := File(filepath.Join("testdata", "txt", "nul.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.Paragraphs {
		if strings.ContainsRune(p.Text, 0) {
			t.Errorf("NUL left in %q", p.Text)
		}
	}
	if !strings.HasPrefix(doc.Paragraphs[0].Text, "前文后文：") {
		t.Errorf("first paragraph %q", doc.Paragraphs[0].Text)
	}
}

func TestBinaryIsNotText(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "txt", "binary.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if looksLikeText(data) {
		t.Error("looksLikeText accepted a PNG")
	}
	if got := Sniff(data, "picture.txt"); got != "" {
		t.Errorf("Sniff = %q for binary data named .txt", got)
	}
	_, err = Bytes(context.Background(), "picture.txt", data)
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("Bytes error %v, want ErrUnsupported", err)
	}
	// A Word 97-2003 file: the user is told how to make one that can be read.
	doc := append([]byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"), make([]byte, 4096)...)
	_, err = Bytes(context.Background(), "thesis.doc", doc)
	if !errors.Is(err, ErrOldOffice) || err.Error() != "extract thesis.doc: "+ErrOldOffice.Error() {
		t.Errorf("a .doc file: %v", err)
	}
	// A DOCX saved with a password to open is a compound file too, whose directory (128-byte entries
	// named in UTF-16LE) holds the encrypted package: it is refused as password protected, not as a
	// .doc to save as DOCX.
	entry := func(name string) []byte {
		e := make([]byte, 128)
		for i, r := range name {
			e[2*i] = byte(r)
		}
		e[64] = byte(2*len(name) + 2)
		return e
	}
	enc := append([]byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"), make([]byte, 504)...)
	for _, n := range []string{"Root Entry", "EncryptionInfo", "EncryptedPackage", "\x06DataSpaces"} {
		enc = append(enc, entry(n)...)
	}
	_, err = Bytes(context.Background(), "thesis.docx", append(enc, make([]byte, 4096)...))
	if !errors.Is(err, ErrEncrypted) || errors.Is(err, ErrOldOffice) {
		t.Errorf("a DOCX with a password to open: %v", err)
	}
}

func TestLooksLikeText(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want bool
	}{
		{"ascii", []byte("plain text\nwith lines\n"), true},
		{"utf-8 Chinese", []byte("中文文本。\n"), true},
		{"utf-16 with BOM", []byte{0xFF, 0xFE, 'a', 0, 'b', 0}, true},
		{"utf-16 without BOM", []byte{'a', 0, 'b', 0, 'c', 0, 'd', 0}, false},
		{"control bytes", []byte("\x01\x02\x03\x04abc"), false},
		{"short, a stray byte", []byte("Security updates arrive through the stable archive\xff; they install overnight.\n"), true},
		{"short, two stray bytes", []byte("Security updates arrive\xff through the stable archive\xff; they install overnight.\n"), false},
		{"empty", nil, false},
		// A sample cut inside a multi-byte character is still text.
		{"cut rune", append([]byte(strings.Repeat("中文", 40000)), 0xE4, 0xB8), true},
	}
	for _, tc := range tests {
		if got := looksLikeText(tc.data); got != tc.want {
			t.Errorf("%s: looksLikeText = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestParagraphLines(t *testing.T) {
	tests := []struct {
		name  string
		block []string
		want  int
	}{
		{"single line", []string{"one"}, 1},
		{"short lines are separate", []string{"Title", "Author Name", "2024"}, 3},
		{"long lines are paragraphs", []string{strings.Repeat("长", 90), strings.Repeat("文", 90)}, 2},
		{"wrapped lines join", []string{strings.Repeat("word ", 14) + "end", strings.Repeat("more ", 14) + "text", "last line"}, 1},
		{"short line ends a wrapped paragraph", []string{strings.Repeat("word ", 14) + "end", "short.", strings.Repeat("next ", 14) + "para"}, 2},
	}
	for _, tc := range tests {
		if got := len(paragraphLines(tc.block)); got != tc.want {
			t.Errorf("%s: %d paragraphs, want %d", tc.name, got, tc.want)
		}
	}
}

func TestJoinLines(t *testing.T) {
	tests := []struct {
		lines []string
		want  string
	}{
		{[]string{"中文换行", "不加空格"}, "中文换行不加空格"},
		{[]string{"English words", "get a space"}, "English words get a space"},
		{[]string{"hyphen-", "ated word"}, "hyphenated word"},
		{[]string{"Well-", "Known"}, "Well-Known"},
		{[]string{"page 3 -", "and more"}, "page 3 - and more"},
		{[]string{"混合 text", "继续"}, "混合 text继续"},
	}
	for _, tc := range tests {
		if got := joinLines(tc.lines); got != tc.want {
			t.Errorf("joinLines(%q) = %q, want %q", tc.lines, got, tc.want)
		}
	}
}

// TestDecodeText: the reading chosen for text in each encoding, with bytes that are not valid in
// it, and for data no encoding reads as text.
func TestDecodeText(t *testing.T) {
	utf8zh := testdata(t, "txt", "utf8.txt")
	gbk := testdata(t, "txt", "gbk.txt")
	clean := cleanText(string(utf8zh))
	zh := strings.Repeat(string(utf8zh), 20) // 4.5 KB, as a short library document
	mid := strings.Index(zh, "指纹")           // a character boundary in the middle
	english := strings.Repeat("Plagiarism detection compares a submission with a library of earlier work.\n", 40)
	trad := strings.Repeat("論文複製檢測方法研究，本文提出一種結合指紋與對齊的方法。\n", 30)
	big5, _, _ := transform.Bytes(traditionalchinese.Big5.NewEncoder(), []byte(trad))
	pua := strings.Repeat("\ue001\ue002\ue003 ", 200)
	cases := []struct {
		name     string
		data     []byte
		want     string // the text, when it is read
		refuse   bool
		replaced int   // bytes replaced, with a WarnReplaced warning
		offsets  []int // the offsets the warning names
	}{
		{"utf-8", utf8zh, clean, false, 0, nil},
		{"utf-8 and 0xFF appended", append(bytes.Clone(utf8zh), 0xFF), clean + "\uFFFD", false, 1, []int{len(utf8zh)}},
		{"utf-8 and 0xFF in the middle", []byte(zh[:mid] + "\xFF" + zh[mid:]), cleanText(zh[:mid] + "\uFFFD" + zh[mid:]), false, 1, []int{mid}},
		{"utf-8 and a character cut in two", []byte(zh[:mid+1] + zh[mid+3:]), cleanText(zh[:mid] + "\uFFFD" + zh[mid+3:]), false, 1, []int{mid}},
		{"utf-8 with BOM and a stray byte", append([]byte("\xEF\xBB\xBF"+zh), 0x80), cleanText(zh) + "\uFFFD", false, 1, []int{3 + len(zh)}},
		{"ascii and 0xFF appended", []byte(english + "\xFF"), english + "\uFFFD", false, 1, []int{len(english)}},
		{"gbk", gbk, cleanText(string(utf8zh)), false, 0, nil},
		{"windows-1252", []byte("The \x93quick\x94 brown fox \x97 caf\xe9 owner\x92s dog."), "The “quick” brown fox — café owner’s dog.", false, 0, nil},
		{"big5", big5, cleanText(trad), false, 0, nil},
		{"big5, one line", big5[:len(big5)/30], cleanText(trad[:len(trad)/30]), false, 0, nil},
		{"private use", []byte(pua), "", true, 0, nil},
		{"utf-8, bad every 20 bytes", everyNth([]byte(zh), 20), "", true, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, warnings, err := decodeText(c.data)
			if c.refuse {
				if !errors.Is(err, ErrEncoding) || !errors.Is(err, ErrUnsupported) {
					t.Fatalf("err = %v, want ErrEncoding", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if text != c.want {
				t.Errorf("text\n got %q\nwant %q", firstRunes(text, 80), firstRunes(c.want, 80))
			}
			var got Warning
			for _, w := range warnings {
				if w.Kind == WarnReplaced {
					got = w
				}
			}
			if got.Count != c.replaced {
				t.Errorf("warnings %+v, want %d replaced", warnings, c.replaced)
			}
			for _, o := range c.offsets {
				if !strings.Contains(got.Message, "at byte "+strconv.Itoa(o)) {
					t.Errorf("warning %q does not name offset %d", got.Message, o)
				}
			}
		})
	}
}

// everyNth puts a 0xFF byte after every n bytes of data.
func everyNth(data []byte, n int) []byte {
	var out []byte
	for i := 0; i < len(data); i += n {
		out = append(out, data[i:min(i+n, len(data))]...)
		out = append(out, 0xFF)
	}
	return out
}

func firstRunes(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

// TestReadTXTDevsetLegacy: the devset's GBK library documents read as GB18030 decodes them, as
// before the readings were compared, and without warnings.
func TestReadTXTDevsetLegacy(t *testing.T) {
	if _, err := os.Stat(devsetDir); err != nil {
		t.Skip("development set not present")
	}
	files, _ := filepath.Glob(filepath.Join(devsetDir, "*", "*", "*.txt"))
	legacy := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if utf8.Valid(data) {
			continue
		}
		legacy++
		want, _, err := transform.Bytes(simplifiedchinese.GB18030.NewDecoder(), data)
		if err != nil {
			t.Fatal(err)
		}
		text, warnings, err := decodeText(data)
		if err != nil || text != cleanText(string(want)) || len(warnings) > 0 {
			t.Errorf("%s: err %v, %d warnings, text as GB18030: %v", f, err, len(warnings), text == cleanText(string(want)))
		}
	}
	if legacy == 0 {
		t.Error("no legacy-encoded text in the devset")
	}
}
