package extract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
