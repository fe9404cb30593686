package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// docxWant is what a DOCX must give back: paragraphs that must be there (with their section,
// heading flag and notes), text that must appear nowhere (headers, footers, deleted or hidden
// text, note bodies glued into the body), and text that must appear exactly once.
type docxWant struct {
	paras  []Paragraph // matched by Text; Section, Heading and Notes compared
	absent []string
	once   []string
}

func checkDOCX(t *testing.T, doc *Document, want docxWant) {
	t.Helper()
	byText := map[string]Paragraph{}
	var all []string
	for _, p := range doc.Paragraphs {
		byText[p.Text] = p
		all = append(all, p.Text)
	}
	dump := "\n" + strings.Join(all, "\n")
	for _, w := range want.paras {
		p, ok := byText[w.Text]
		if !ok {
			t.Errorf("paragraph %q not extracted whole:%s", w.Text, dump)
			continue
		}
		if p.Section != w.Section || p.Heading != w.Heading {
			t.Errorf("%q: section %s heading %v, want %s %v", w.Text, p.Section, p.Heading, w.Section, w.Heading)
		}
		if !slices.Equal(p.Notes, w.Notes) {
			t.Errorf("%q: notes %q, want %q", w.Text, p.Notes, w.Notes)
		}
	}
	for _, s := range want.absent {
		for _, p := range doc.Paragraphs {
			if strings.Contains(p.Text, s) {
				t.Errorf("%q must not be body text, found in %q", s, p.Text)
			}
		}
	}
	for _, s := range want.once {
		n := 0
		for _, p := range doc.Paragraphs {
			n += strings.Count(p.Text, s)
		}
		if n != 1 {
			t.Errorf("%q appears %d times, want once", s, n)
		}
	}
}

// TestDOCXProducers reads DOCX files written by real producers (testdata/docx/src says how).
func TestDOCXProducers(t *testing.T) {
	tests := []struct {
		file string
		want docxWant
	}{
		{"libreoffice-zh.docx", docxWant{
			paras: []Paragraph{
				{Text: "面向学位论文的复制检测方法研究", Section: Front, Heading: true},
				{Text: "摘要", Section: Abstract, Heading: true},
				{Text: "第1章 绪论", Section: Body, Heading: true},
				{Text: "学术不端检测已经成为研究生培养的必要环节，各高校普遍要求论文在答辩前通过检测。", Section: Body,
					Notes: []string{"见教育部相关文件。", "尾注：检测比例各校不同。"}},
				// A line break inside a paragraph does not split it.
				{Text: "正文段落紧跟在文本框之后，换行之后的文字属于同一段落。", Section: Body},
				// Table cells: one paragraph each.
				{Text: "单元格甲", Section: Body},
				{Text: "单元格乙", Section: Body},
				{Text: "参考文献", Section: References, Heading: true},
				{Text: "[1] 王芳. 文本复制检测综述[J]. 计算机学报, 2019, 42(3): 1-20.", Section: References},
			},
			absent: []string{"页眉", "页脚", "见教育部相关文件", "检测比例各校不同"},
			once:   []string{"文本框中的说明文字只应出现一次。"},
		}},
		{"pandoc-zh.docx", docxWant{
			paras: []Paragraph{
				{Text: "文本复制检测是学术规范的重要保障。已有工作表明，局部敏感哈希能够在大规模语料上快速召回候选文档。",
					Section: Body, Notes: []string{"本文所称复制包括逐字复制与改写复制。"}},
				{Text: "SimHash", Section: Body},
				{Text: "0.94", Section: Body},
				{Text: "致谢", Section: Acknowledgements, Heading: true},
				{Text: "感谢导师的悉心指导。", Section: Acknowledgements},
			},
			absent: []string{"本文所称复制包括"},
		}},
		{"python-docx-en.docx", docxWant{
			paras: []Paragraph{
				{Text: "Abstract", Section: Abstract, Heading: true},
				{Text: "1.1 Background", Section: Body, Heading: true},
				{Text: "[1] A. Broder. On the resemblance and containment of documents. 1997.", Section: References},
				{Text: "The source code is available from the author.", Section: Appendix},
			},
			absent: []string{"DELETED TEXT", "HIDDEN WORDS"},
			once:   []string{"Inserted text stays."},
		}},
		// The body is one imported MHT page (w:altChunk).
		{"html-docx-js-zh.docx", docxWant{
			paras: []Paragraph{
				{Text: "第一章 绪论", Section: Body, Heading: true},
				{Text: "随着互联网技术的快速发展，网络教育已经成为高等教育的重要组成部分，越来越多的高校开始建设在线课程平台。", Section: Body},
				{Text: "Our own words about the survey.", Section: Body},
			},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			doc, err := File(filepath.Join("testdata", "docx", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Format != "docx" {
				t.Errorf("format %q", doc.Format)
			}
			checkDOCX(t, doc, tt.want)
		})
	}
}

// buildDOCX writes a minimal WordprocessingML package: parts by name, with the content types
// and relationships Word expects.
// checkTexts reads a document of data and compares its paragraphs' texts with want.
func checkTexts(t *testing.T, name string, data []byte, want []string) {
	t.Helper()
	doc, err := Bytes(context.Background(), name, data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range doc.Paragraphs {
		got = append(got, p.Text)
	}
	if !slices.Equal(got, want) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

func buildDOCX(t *testing.T, parts map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(parts[n]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const wNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`

func wPara(style, text string) string {
	ppr := ""
	if style != "" {
		ppr = `<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`
	}
	return `<w:p>` + ppr + `<w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
}

// thesisDOCX is an English thesis built by hand with the structures a checker must tell from
// body text: a running header and a footer with a page field, footnotes (with Word's separator
// notes), a table, a tab and a line break inside paragraphs, and a reference list.
func thesisDOCX(t *testing.T) []byte {
	body := wPara("Title", "Copying in Graduate Theses") +
		wPara("Heading1", "Abstract") +
		wPara("", "This thesis measures how often graduate theses reuse text without attribution.") +
		wPara("Heading1", "1 Introduction") +
		`<w:p><w:r><w:t xml:space="preserve">Checkers compare each paragraph with a library</w:t></w:r>` +
		`<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r>` +
		`<w:r><w:t xml:space="preserve"> and report the copied spans.</w:t></w:r></w:p>` +
		`<w:p><w:r><w:t>Results</w:t><w:tab/><w:t>differ by field,</w:t><w:br/><w:t>as the table shows.</w:t></w:r>` +
		`<w:r><w:footnoteReference w:id="2"/></w:r></w:p>` +
		`<w:tbl><w:tr><w:tc>` + wPara("", "Field") + `</w:tc><w:tc>` + wPara("", "Share copied") + `</w:tc></w:tr>` +
		`<w:tr><w:tc>` + wPara("", "Engineering") + `</w:tc><w:tc>` + wPara("", "12 percent") + `</w:tc></w:tr></w:tbl>` +
		wPara("Heading1", "References") +
		wPara("", "[1] A. Broder. On the resemblance and containment of documents. 1997.") +
		wPara("", "[2] S. Schleimer, D. Wilkerson, A. Aiken. Winnowing. SIGMOD 2003.") +
		`<w:sectPr><w:headerReference w:type="default" r:id="rIdheader"/><w:footerReference w:type="default" r:id="rIdfooter"/></w:sectPr>`
	styles := `<w:styles ` + wNS + `>` +
		`<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>` +
		`<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>` +
		`</w:styles>`
	footnotes := `<w:footnotes ` + wNS + `>` +
		`<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>` +
		`<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>` +
		`<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Libraries hold earlier theses and papers.</w:t></w:r></w:p></w:footnote>` +
		`<w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Figures from the pilot study.</w:t></w:r></w:p></w:footnote>` +
		`</w:footnotes>`
	return wordPackage(t, body, map[string]string{
		"styles":    styles,
		"footnotes": footnotes,
		"header":    `<w:hdr ` + wNS + `>` + wPara("Header", "Running Header Of Every Page") + `</w:hdr>`,
		"footer": `<w:ftr ` + wNS + `><w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r>` +
			`<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>` +
			`<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>7</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p></w:ftr>`,
	})
}

// wordPackage builds a DOCX from the body of word/document.xml and further parts by
// relationship type (styles, footnotes, numbering, header, footer), each linked from the
// document as Word links them (the header and footer as rIdheader and rIdfooter).
func wordPackage(t *testing.T, body string, parts map[string]string) []byte {
	t.Helper()
	rel := "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	files := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + rel + `officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml": `<?xml version="1.0" encoding="UTF-8"?><w:document ` + wNS + `><w:body>` + body + `</w:body></w:document>`,
	}
	rels := parts["relationships"] // more of the main part's relationships, as they are written
	for typ, xml := range parts {
		if typ == "relationships" {
			continue
		}
		if strings.Contains(typ, "/") { // a file of the package by its path, not a part of the document's
			files[typ] = xml
			continue
		}
		files["word/"+typ+".xml"] = xml
		rels += `<Relationship Id="rId` + typ + `" Type="` + rel + typ + `" Target="` + typ + `.xml"/>`
	}
	files["word/_rels/document.xml.rels"] = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels + `</Relationships>`
	return buildDOCX(t, files)
}

func TestDOCXThesisStructures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "thesis.docx")
	if err := os.WriteFile(path, thesisDOCX(t), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := File(path)
	if err != nil {
		t.Fatal(err)
	}
	checkDOCX(t, doc, docxWant{
		paras: []Paragraph{
			{Text: "Copying in Graduate Theses", Section: Front, Heading: true},
			{Text: "Abstract", Section: Abstract, Heading: true},
			{Text: "1 Introduction", Section: Body, Heading: true},
			{Text: "Checkers compare each paragraph with a library and report the copied spans.", Section: Body,
				Notes: []string{"Libraries hold earlier theses and papers."}},
			{Text: "Results differ by field, as the table shows.", Section: Body, Notes: []string{"Figures from the pilot study."}},
			{Text: "Field", Section: Body},
			{Text: "12 percent", Section: Body},
			{Text: "References", Section: References, Heading: true},
			{Text: "[2] S. Schleimer, D. Wilkerson, A. Aiken. Winnowing. SIGMOD 2003.", Section: References},
		},
		absent: []string{"Running Header", "Page", "Libraries hold", "pilot study"},
	})
	for _, p := range doc.Paragraphs {
		if p.Section == Body && !p.Heading && p.Chapter != "1 Introduction" {
			t.Errorf("%q: chapter %q", p.Text, p.Chapter)
		}
	}
}

// Broken packages are one clear error, never a panic.
func TestDOCXDamaged(t *testing.T) {
	good := thesisDOCX(t)
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"truncated zip", good[:len(good)/2], ErrCorrupt},
		{"zip without document", buildDOCX(t, map[string]string{"word/styles.xml": "<w:styles/>"}), ErrUnsupported},
		{"malformed xml", buildDOCX(t, map[string]string{"word/document.xml": `<w:document ` + wNS + `><w:body><w:p><w:r><w:t>unclosed`}), ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readDOCX(context.Background(), tt.data)
			if !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
}

// Revisions, placeholders and automatic numbering: what Word shows is what the checker reads.
func TestDOCXEdgeCases(t *testing.T) {
	styles := `<w:styles ` + wNS + `><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/>` +
		`<w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style></w:styles>`
	numbering := `<w:numbering ` + wNS + `><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/>` +
		`<w:numFmt w:val="chineseCounting"/><w:lvlText w:val="第%1章"/></w:lvl></w:abstractNum>` +
		`<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`
	heading := func(text string) string {
		return `<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>` +
			`<w:r><w:t>` + text + `</w:t></w:r></w:p>`
	}
	body := heading("绪论") +
		`<w:p><w:r><w:t xml:space="preserve">研究生论文的检测</w:t></w:r>` +
		`<w:moveFrom w:id="1" w:author="x"><w:r><w:t>移走的旧文字</w:t></w:r></w:moveFrom>` +
		`<w:moveTo w:id="2" w:author="x"><w:r><w:t>已经成为答辩前的必要环节</w:t></w:r></w:moveTo>` +
		`<w:r><w:t>。</w:t></w:r></w:p>` +
		`<w:sdt><w:sdtPr><w:showingPlcHdr/></w:sdtPr><w:sdtContent>` + wPara("", "单击此处输入文字。") + `</w:sdtContent></w:sdt>` +
		heading("相关工作") +
		wPara("", "已有的方法主要依靠指纹索引和序列对齐。")
	path := filepath.Join(t.TempDir(), "edge.docx")
	if err := os.WriteFile(path, wordPackage(t, body, map[string]string{"styles": styles, "numbering": numbering}), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := File(path)
	if err != nil {
		t.Fatal(err)
	}
	checkDOCX(t, doc, docxWant{
		paras: []Paragraph{
			{Text: "第一章 绪论", Section: Body, Heading: true},
			{Text: "研究生论文的检测已经成为答辩前的必要环节。", Section: Body},
			{Text: "第二章 相关工作", Section: Body, Heading: true},
		},
		absent: []string{"移走的旧文字", "单击此处"},
	})
	if p := doc.Paragraphs[len(doc.Paragraphs)-1]; p.Chapter != "第二章 相关工作" {
		t.Errorf("last paragraph in chapter %q", p.Chapter)
	}
}

// TestDOCXTableOfContents: a table of contents (a TOC field's result, a fldSimple, a content
// control of the table-of-contents gallery, paragraphs in TOC styles) and Word's placeholder
// prompts are left out; other text put there is read, since Word shows it. Copied paragraphs in
// any of those places read 0.0 % before, with no warning.
func TestDOCXTableOfContents(t *testing.T) {
	const prose = "Tidal flats look empty at first glance, a wide expanse of grey mud that the sea covers and uncovers twice a day."
	styles := `<w:styles ` + wNS + `><w:style w:type="paragraph" w:styleId="TOC1"><w:name w:val="toc 1"/></w:style></w:styles>`
	entry := func(text string) string {
		return `<w:p><w:r><w:t xml:space="preserve">` + strings.ReplaceAll(text, "\t", `</w:t></w:r><w:r><w:tab/></w:r><w:r><w:t>`) + `</w:t></w:r></w:p>`
	}
	entries := entry("Contents") + entry("1 Introduction\t1") + entry("2 Related work ........ 15") + entry("Abstract\tiv")
	field := func(inside string) string {
		return `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \o "1-3" \h </w:instrText></w:r>` +
			`<w:r><w:fldChar w:fldCharType="separate"/></w:r></w:p>` + inside + `<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`
	}
	gallery := func(inside string) string {
		return `<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/></w:docPartObj></w:sdtPr><w:sdtContent>` +
			inside + `</w:sdtContent></w:sdt>`
	}
	placeholder := func(inside string) string {
		return `<w:sdt><w:sdtPr><w:showingPlcHdr/></w:sdtPr><w:sdtContent>` + inside + `</w:sdtContent></w:sdt>`
	}
	styled := func(text string) string {
		return `<w:p><w:pPr><w:pStyle w:val="TOC1"/></w:pPr><w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
	}
	for _, tt := range []struct {
		name, body string
		want       []string
	}{
		{"a TOC field's entries", field(entries), nil},
		{"prose in a TOC field", field(wPara("", prose)), []string{prose}},
		{"a fldSimple TOC's entry", `<w:p><w:fldSimple w:instr="TOC \o"><w:r><w:t>1 Introduction 1</w:t></w:r></w:fldSimple></w:p>`, nil},
		{"prose in a fldSimple TOC", `<w:p><w:fldSimple w:instr="TOC \o"><w:r><w:t>` + prose + `</w:t></w:r></w:fldSimple></w:p>`, []string{prose}},
		{"a TOC control's entries", gallery(entries), nil},
		{"prose in a TOC control", gallery(entries + wPara("", prose)), []string{prose}},
		{"entries in a TOC style", styled("1 Introduction 1") + styled("Contents"), nil},
		{"prose in a TOC style", styled(prose), []string{prose}},
		{"Word's prompt", placeholder(wPara("", "Click or tap here to enter text.")), nil},
		{"prose as a placeholder", placeholder(wPara("", prose)), []string{prose}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := wPara("", "Own words.") + tt.body
			doc, err := Bytes(context.Background(), "toc.docx", wordPackage(t, body, map[string]string{"styles": styles}))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range doc.Paragraphs[1:] {
				got = append(got, p.Text)
			}
			if doc.Paragraphs[0].Text != "Own words." || !slices.Equal(got, tt.want) {
				t.Errorf("paragraphs %q, want %q after the first", append([]string{doc.Paragraphs[0].Text}, got...), tt.want)
			}
		})
	}
}

// TestDOCXAlternateContent: of mc:AlternateContent, the branch Word shows is read: the first
// choice whose namespaces Word knows, else the fallback. Reading the first choice whatever it
// required, a file read its choice's words while Word and LibreOffice showed its fallback's.
func TestDOCXAlternateContent(t *testing.T) {
	const mc = `xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`
	const wps = `xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"`
	alt := func(decl string, branches ...string) string {
		return `<mc:AlternateContent ` + mc + ` ` + decl + `>` + strings.Join(branches, "") + `</mc:AlternateContent>`
	}
	choice := func(requires, text string) string {
		return `<mc:Choice Requires="` + requires + `">` + wPara("", text) + `</mc:Choice>`
	}
	fallback := `<mc:Fallback>` + wPara("", "the fallback") + `</mc:Fallback>`
	for _, tt := range []struct {
		name, body, want string
	}{
		{"a namespace Word knows", alt(wps, choice("wps", "the choice"), fallback), "the choice"},
		{"a namespace Word does not know", alt(`xmlns:xyz="http://example.com/2024"`, choice("xyz", "the choice"), fallback), "the fallback"},
		{"a prefix not declared", alt("", choice("abc", "the choice"), fallback), "the fallback"},
		{"the second choice", alt(wps+` xmlns:xyz="http://example.com/2024"`, choice("xyz", "the first choice"), choice("wps", "the second choice"), fallback),
			"the second choice"},
		{"a known prefix declared again for another namespace", alt(wps, `<mc:Choice Requires="wps" xmlns:wps="http://example.com/2024">`+
			wPara("", "the choice")+`</mc:Choice>`, fallback), "the fallback"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Bytes(context.Background(), "alt.docx", wordPackage(t, tt.body, nil))
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Paragraphs) != 1 || doc.Paragraphs[0].Text != tt.want {
				t.Errorf("paragraphs %+v, want %q", doc.Paragraphs, tt.want)
			}
		})
	}
}

// TestDOCXMainPartByRelationship: the main part is the one the package's relationship names, as
// Word opens it, though a word/document.xml of other text lies beside it (it was read instead).
func TestDOCXMainPartByRelationship(t *testing.T) {
	doc := func(text string) string {
		return `<?xml version="1.0" encoding="UTF-8"?><w:document ` + wNS + `><w:body>` + wPara("", text) + `</w:body></w:document>`
	}
	data := buildDOCX(t, map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/word/main.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/main.xml"/></Relationships>`,
		"word/main.xml":     doc("The text Word shows."),
		"word/document.xml": doc("A decoy beside it."),
	})
	d, err := Bytes(context.Background(), "decoy.docx", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Paragraphs) != 1 || d.Paragraphs[0].Text != "The text Word shows." {
		t.Errorf("paragraphs %+v", d.Paragraphs)
	}
}

// TestDOCXDataBinding: a content control bound to a node of a custom XML part (or of the
// document's properties) shows that node's text, which Word puts in place of the text the control
// holds; a binding that cannot be followed leaves the held text. A file whose controls held the
// student's own words, bound to copied paragraphs, read as the student's words.
func TestDOCXDataBinding(t *testing.T) {
	const store = "{11111111-2222-3333-4444-555555555555}"
	bound := func(xpath, prefixes, held string, runLevel bool) string {
		pr := `<w:sdtPr><w:dataBinding w:prefixMappings="` + prefixes + `" w:xpath="` + xpath + `" w:storeItemID="` + store + `"/><w:text/></w:sdtPr>`
		if runLevel {
			return `<w:p>` + wRun("", "Before ") + `<w:sdt>` + pr + `<w:sdtContent>` + wRun("", held) + `</w:sdtContent></w:sdt>` + wRun("", " after.") + `</w:p>`
		}
		return `<w:sdt>` + pr + `<w:sdtContent>` + wPara("", held) + `</w:sdtContent></w:sdt>`
	}
	const ns = `xmlns:ns0='urn:thesis'`
	item := `<?xml version="1.0" encoding="UTF-8"?><ns0:thesis xmlns:ns0="urn:thesis" ns0:lang="en"><ns0:p>first</ns0:p>` +
		`<ns0:p>The copied paragraph Word shows.</ns0:p><ns0:title>A title</ns0:title></ns0:thesis>`
	for _, tt := range []struct {
		name, body string
		want       []string
	}{
		{"between paragraphs", bound("/ns0:thesis[1]/ns0:p[2]", ns, "Words held.", false), []string{"The copied paragraph Word shows."}},
		{"in a paragraph", bound("/ns0:thesis[1]/ns0:title[1]", ns, "held", true), []string{"Before A title after."}},
		{"an attribute", bound("/ns0:thesis[1]/@ns0:lang", ns, "held", true), []string{"Before en after."}},
		{"the document's title", `<w:sdt><w:sdtPr><w:dataBinding w:prefixMappings="xmlns:ns1='http://purl.org/dc/elements/1.1/' ` +
			`xmlns:ns0='http://schemas.openxmlformats.org/package/2006/metadata/core-properties'" w:xpath="/ns0:coreProperties[1]/ns1:title[1]" ` +
			`w:storeItemID="{6C3C8BC8-F283-45AE-878A-BAB7291924A1}"/></w:sdtPr><w:sdtContent>` + wPara("", "Held title") + `</w:sdtContent></w:sdt>`,
			[]string{"The Title In The Properties"}},
		{"a node that is not there", bound("/ns0:thesis[1]/ns0:p[9]", ns, "Words held.", false), []string{"Words held."}},
		{"a path this reader does not follow", bound("//ns0:p[last()]", ns, "Words held.", false), []string{"Words held."}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := wordPackage(t, tt.body, map[string]string{
				"customXml/item1.xml": item,
				"customXml/itemProps1.xml": `<?xml version="1.0" encoding="UTF-8"?><ds:datastoreItem ds:itemID="` + store +
					`" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"/>`,
				"customXml/_rels/item1.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
					`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps" Target="itemProps1.xml"/></Relationships>`,
				"docProps/core.xml": `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
					`xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The Title In The Properties</dc:title></cp:coreProperties>`,
			})
			checkTexts(t, "bound.docx", data, tt.want)
		})
	}
}

// TestDOCXCoveredPage: a picture of one colour (or a shape of one solid fill) the size of the
// page, in front of the text, hides the paragraphs of the page it is anchored on, where the
// document says where that page begins and ends and its text fits on it; behind the text, it is
// that page's background. The covered paragraphs padded out the figure before, and white text on
// a black picture behind it was taken as hidden.
func TestDOCXCoveredPage(t *testing.T) {
	pngOf := func(greys ...uint8) string {
		img := image.NewGray(image.Rect(0, 0, 40, 40))
		for i := range img.Pix {
			img.Pix[i] = greys[i%len(greys)]
		}
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	// placed is a paragraph anchoring content at place: from what (horizontally and down the page),
	// where, and how large, EMU.
	placed := func(behind, place, content string) string {
		var relH, relV, x, y, cx, cy string
		fmt.Sscan(place, &relH, &relV, &x, &y, &cx, &cy)
		return `<w:p><w:r><w:drawing><wp:anchor xmlns:wp="` + nsWP + `" behindDoc="` + behind + `"><wp:positionH relativeFrom="` + relH + `"><wp:posOffset>` + x + `</wp:posOffset></wp:positionH>` +
			`<wp:positionV relativeFrom="` + relV + `"><wp:posOffset>` + y + `</wp:posOffset></wp:positionV><wp:extent cx="` + cx + `" cy="` + cy + `"/><wp:wrapNone/><wp:docPr id="1" name="cover"/>` +
			`<a:graphic xmlns:a="` + nsA + `"><a:graphicData>` + content + `</a:graphicData></a:graphic></wp:anchor></w:drawing></w:r></w:p>`
	}
	anchor := func(behind, content string) string { return placed(behind, "page page 0 0 7560000 10692000", content) }
	// The text between the margins of the default page (A4, margins of 1800 and 1440 twips).
	const text = "margin margin 0 0 5274000 8863000"
	picture := `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:embed="rIdImg"/></pic:blipFill></pic:pic>`
	shape := `<wps:wsp xmlns:wps="` + nsWPS + `"><wps:spPr><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></wps:spPr></wps:wsp>`
	pageBreak := `<w:p><w:r><w:br w:type="page"/></w:r></w:p>`
	own := "Words of the student's own, padding out the figure where no reader sees them."
	white := `<w:p>` + wRun(`<w:color w:val="FFFFFF"/>`, own) + `</w:p>`
	shown := "A paragraph on the next page, which shows."
	for _, tt := range []struct {
		name, body, image string
		hidden            bool
	}{
		{"a white picture in front", anchor("0", picture) + wPara("", own) + pageBreak + wPara("", shown), pngOf(255), true},
		{"a white shape in front", anchor("0", shape) + wPara("", own) + pageBreak + wPara("", shown), pngOf(255), true},
		{"a white picture in front, on the last page", wPara("", shown) + pageBreak + anchor("0", picture) + wPara("", own), pngOf(255), true},
		// In front of the text, any opaque picture covers it, but for a picture of text (looked at
		// as pictures are); behind it, only a picture of one colour is the page's background.
		{"a picture of two colours in front", anchor("0", picture) + wPara("", own) + pageBreak + wPara("", shown), pngOf(255, 0), true},
		{"a photograph in front", anchor("0", picture) + wPara("", own) + pageBreak + wPara("", shown), string(encodePNG(t, photoPicture())), true},
		{"a picture of text in front", anchor("0", picture) + wPara("", own) + pageBreak + wPara("", shown), string(encodePNG(t, chinese(t, 16))), false},
		{"a see-through picture in front", anchor("0", picture) + wPara("", own) + pageBreak + wPara("", shown), seeThrough(t), false},
		{"a photograph behind", anchor("1", picture) + wPara("", own) + pageBreak + wPara("", shown), string(encodePNG(t, photoPicture())), false},
		// The size of the page's text, not of the page, as placed.
		{"a white shape over the text, from the margins", placed("0", text, shape) + wPara("", own) + pageBreak + wPara("", shown), pngOf(255), true},
		{"a white shape over the text, from the page", placed("0", "page page 1130000 900000 5300000 8900000", shape) + wPara("", own) + pageBreak + wPara("", shown), pngOf(255), true},
		{"a white shape over the text, from its paragraph at the top of the page", placed("0", "column paragraph 0 0 5274000 8863000", shape) + wPara("", own) + pageBreak + wPara("", shown),
			pngOf(255), true},
		{"a white shape from its paragraph lower down", wPara("", shown) + placed("0", "column paragraph 0 0 5274000 8863000", shape) + wPara("", own), pngOf(255), false},
		{"a white shape the page's size from its paragraph lower down", wPara("", "Words above it.") + placed("0", "column paragraph 0 3000000 7560000 10692000", shape) +
			wPara("", own) + pageBreak + wPara("", shown), pngOf(255), true},
		{"a white shape over half the text", placed("0", "margin margin 0 0 5274000 4400000", shape) + wPara("", own) + pageBreak + wPara("", shown), pngOf(255), false},
		{"a white shape beside the text", placed("0", "margin margin 2600000 0 5274000 8863000", shape) + wPara("", own) + pageBreak + wPara("", shown), pngOf(255), false},
		{"a white picture behind", anchor("1", picture) + wPara("", own) + pageBreak + wPara("", shown), pngOf(255), false},
		{"more text than a page holds", anchor("0", picture) + strings.Repeat(wPara("", own), 200) + pageBreak + wPara("", shown), pngOf(255), false},
		// Behind the text, the picture is the page's background: white text shows on black.
		{"white text on a black picture behind", anchor("1", picture) + white + pageBreak + wPara("", shown), pngOf(0), false},
		{"white text on a white picture behind", anchor("1", picture) + white + pageBreak + wPara("", shown), pngOf(255), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := wordPackage(t, tt.body, map[string]string{
				"word/media/image1.png": tt.image,
				"relationships":         `<Relationship Id="rIdImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/>`,
			})
			doc, err := Bytes(context.Background(), "covered.docx", data)
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			hidden := 0
			for _, p := range doc.Paragraphs {
				texts = append(texts, p.Text)
				for _, h := range p.Hidden {
					if (slices.Equal(h.Reasons, []string{HideCovered}) || slices.Equal(h.Reasons, []string{HideWhite})) && h.Text == own {
						hidden++
					}
				}
			}
			if covered := !slices.Contains(texts, own); covered != tt.hidden || tt.hidden && hidden != 1 {
				t.Errorf("paragraphs %q, %d covered pieces; want covered %v", texts, hidden, tt.hidden)
			}
		})
	}
}

// seeThrough is a PNG of black and white stripes with a pixel that lets what is under it through.
func seeThrough(t *testing.T) string {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 40))
	for i := range img.Pix {
		img.Pix[i] = uint8(255 * (i / 4 % 2))
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	img.Pix[3] = 0
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestDOCXHeaderParagraphs: a header's paragraphs longer than any running header are read, as
// body text after the body (Word grows the header to show them; copied paragraphs there read 0 %
// before), even in a document whose body ends with its references; short ones are not.
func TestDOCXHeaderParagraphs(t *testing.T) {
	long := "Tidal flats look empty at first glance, a wide expanse of grey mud that the sea covers and uncovers twice a day, and yet they teem."
	body := wPara("", "Own words of the body.") + wPara("Heading1", "References") + wPara("", "[1] A reference.") +
		`<w:sectPr><w:headerReference w:type="default" r:id="rIdheader"/><w:headerReference w:type="first" r:id="rIdheader"/></w:sectPr>`
	doc, err := Bytes(context.Background(), "header.docx", wordPackage(t, body, map[string]string{
		"styles": `<w:styles ` + wNS + `><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style></w:styles>`,
		"header": `<w:hdr ` + wNS + `>` + wPara("", "A Running Header") + wPara("", long) + `</w:hdr>`,
	}))
	if err != nil {
		t.Fatal(err)
	}
	var read []Paragraph
	for _, p := range doc.Paragraphs {
		if p.Text == long {
			read = append(read, p)
		}
		if p.Text == "A Running Header" {
			t.Errorf("the running header was read: %+v", p)
		}
	}
	if len(read) != 1 || read[0].Section != Body || !read[0].Counted() {
		t.Errorf("the long header paragraph: %+v (all: %+v)", read, doc.Paragraphs)
	}

	// The same paragraph cut into lines, each a paragraph of the header, is read too; two short
	// lines of a running header are not.
	lines := []string{long[:45], long[45:90], strings.TrimSpace(long[90:])}
	doc, err = Bytes(context.Background(), "header.docx", wordPackage(t, body, map[string]string{
		"header": `<w:hdr ` + wNS + `>` + wPara("", "A Running Header") + wPara("", lines[0]) + wPara("", lines[1]) + wPara("", lines[2]) + `</w:hdr>`,
		"footer": `<w:ftr ` + wNS + `>` + wPara("", "University of Somewhere, master's thesis") + wPara("", "Chapter 3: Tidal flats") + `</w:ftr>`,
	}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range doc.Paragraphs {
		if p.Chapter == marginsChapter {
			got = append(got, p.Text)
		}
	}
	if want := append([]string{"A Running Header"}, lines...); !reflect.DeepEqual(got, want) {
		t.Errorf("read from the header and footer %q, want %q", got, want)
	}
}

// A part that claims to inflate past the text limit is refused before it is inflated.
func TestDOCXTooLarge(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate,
		CompressedSize64: 2, UncompressedSize64: MaxTextBytes + 1})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte{3, 0})
	zw.Close()
	if _, err := readDOCX(context.Background(), buf.Bytes()); !errors.Is(err, ErrTooLarge) {
		t.Errorf("error %v, want ErrTooLarge", err)
	}
}

// TestDOCXSymbols: characters written as w:sym in an ordinary font are text Word and LibreOffice
// show (a paragraph so written read as nothing); a symbol font's glyphs (U+F000-U+F0FF) are not.
func TestDOCXSymbols(t *testing.T) {
	sym := func(font, text string) string {
		var b strings.Builder
		for _, r := range text {
			fmt.Fprintf(&b, `<w:sym w:font="%s" w:char="%04X"/>`, font, r)
		}
		return b.String()
	}
	body := `<w:p><w:r>` + sym("Times New Roman", "Tidal flats look empty") + `<w:t xml:space="preserve"> at first glance.</w:t></w:r></w:p>` +
		`<w:p><w:r><w:t xml:space="preserve">A tick </w:t><w:sym w:font="Wingdings" w:char="F0FC"/><w:t xml:space="preserve">and a word.</w:t></w:r></w:p>` +
		`<w:p><w:r><w:rPr><w:vanish/></w:rPr>` + sym("SimSun", "隐藏的符号") + `</w:r><w:r><w:t>看得见的文字。</w:t></w:r></w:p>`
	doc, err := Bytes(context.Background(), "sym.docx", wordPackage(t, body, nil))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range doc.Paragraphs {
		got = append(got, p.Text)
	}
	want := []string{"Tidal flats look empty at first glance.", "A tick and a word.", "看得见的文字。"}
	if !slices.Equal(got, want) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
}

// An equation's text is read where Word draws it: a paragraph typed into an equation (as plain
// text, m:nor) is read like any other, and its hidden runs are hidden.
func TestDOCXEquationText(t *testing.T) {
	const m = `xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"`
	mr := func(rpr, text string) string {
		return `<m:r><m:rPr><m:nor/></m:rPr>` + rpr + `<m:t xml:space="preserve">` + text + `</m:t></m:r>`
	}
	body := `<w:p><m:oMathPara ` + m + `><m:oMath>` + mr("", "Tidal flats look empty at first glance, ") +
		mr(`<w:rPr><w:vanish/></w:rPr>`, "junk") + mr("", "yet they feed more birds than any other coast.") + `</m:oMath></m:oMathPara></w:p>` +
		`<w:p><w:r><w:t xml:space="preserve">Energy is </w:t></w:r><m:oMath ` + m + `><m:r><m:t>E=m</m:t></m:r><m:sSup><m:e><m:r><m:t>c</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath><w:r><w:t>, as is known.</w:t></w:r></w:p>`
	doc, err := Bytes(context.Background(), "equation.docx", wordPackage(t, body, nil))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range doc.Paragraphs {
		got = append(got, p.Text)
	}
	want := []string{"Tidal flats look empty at first glance, yet they feed more birds than any other coast.", "Energy is E=mc2, as is known."}
	if !slices.Equal(got, want) {
		t.Errorf("paragraphs %q, want %q", got, want)
	}
	if len(doc.Paragraphs) > 0 && (len(doc.Paragraphs[0].Hidden) != 1 || doc.Paragraphs[0].Hidden[0].Text != "junk") {
		t.Errorf("hidden %+v, want the equation's hidden run", doc.Paragraphs[0].Hidden)
	}
}

// TestBlankFont: a font draws nothing a reader reads when its glyphs are empty, or specks a third
// of the em or less (testdata/fonts/inked.ttf with eight times the units per em, so that its
// outlines are an eighth of the size); at half the size it draws letters.
func TestBlankFont(t *testing.T) {
	font := func(name string, scale uint16) []byte {
		data, err := os.ReadFile(filepath.Join("testdata", "fonts", name))
		if err != nil {
			t.Fatal(err)
		}
		tables := int(binary.BigEndian.Uint16(data[4:]))
		for i := range tables {
			rec := data[12+16*i:]
			if string(rec[:4]) == "head" {
				at := int(binary.BigEndian.Uint32(rec[8:])) + 18 // unitsPerEm
				binary.BigEndian.PutUint16(data[at:], binary.BigEndian.Uint16(data[at:])*scale)
			}
		}
		return data
	}
	for _, tt := range []struct {
		name  string
		data  []byte
		blank bool
	}{
		{"empty glyphs", font("blank.ttf", 1), true},
		{"letters", font("inked.ttf", 1), false},
		{"letters an eighth of the em", font("inked.ttf", 8), true},
		{"letters half the em", font("inked.ttf", 2), false},
		{"capitals inked, the rest specks", font("specks.ttf", 1), false},
	} {
		if got := readFontProgram(tt.data).Blank(); got != tt.blank {
			t.Errorf("%s: blank %v, want %v", tt.name, got, tt.blank)
		}
	}
}

// TestFontUnseen: a letter or digit whose glyph is a speck draws nothing a reader reads, in a font
// whose other glyphs draw letters (testdata/fonts/specks.ttf: capitals inked, lower-case letters
// specks); a mark's glyph is a speck in any font. An empty glyph is unseen only when it is the one
// the file draws, not one found by character.
func TestFontUnseen(t *testing.T) {
	read := func(name string) *fontProgram {
		data, err := os.ReadFile(filepath.Join("testdata", "fonts", name))
		if err != nil {
			t.Fatal(err)
		}
		return readFontProgram(data)
	}
	specks, blank := read("specks.ttf"), read("blank.ttf")
	for _, tt := range []struct {
		font   *fontProgram
		r      rune
		exact  bool
		unseen bool
	}{
		{specks, 'z', false, true},
		{specks, 'z', true, true},
		{specks, 'Z', true, false},
		{specks, ',', true, false},
		{specks, '.', true, false},
		{blank, 'z', true, true},
		{blank, 'z', false, false},
		{blank, ' ', true, false},
	} {
		if got := tt.font.Unseen(tt.font.Glyph(tt.r), tt.r, tt.exact); got != tt.unseen {
			t.Errorf("%q (exact %v): unseen %v, want %v", tt.r, tt.exact, got, tt.unseen)
		}
	}
	// Ordinal indicators and modifier letters are marks, whatever their glyphs.
	z := specks.Glyph('z')
	for _, r := range "ªºˇ" {
		if specks.Unseen(z, r, true) {
			t.Errorf("%q drawn as a speck is unseen", r)
		}
	}
	if specks.Glyph('é') != 0 || specks.Unseen(0, 'é', false) {
		t.Errorf("a letter the font does not have: glyph %d", specks.Glyph('é'))
	}
}

// Junk typed between the words of a paragraph in a font the DOCX embeds, whose glyphs are all empty
// (testdata/fonts/blank.ttf, as Adobe Blank's), is hidden text; so is junk in lower-case letters
// that specks.ttf draws as specks, with its comma and spaces, where its capitals are read, in the
// same run too, and in that font as the theme's, named by a style or a run. Text in an embedded
// font that draws (inked.ttf), in one named nearer than the theme's, and in a blank font the
// document does not embed are read.
func TestDOCXBlankFont(t *testing.T) {
	const key = "{6C3B54C1-0B6E-4D5F-9A51-3A7E1D2C8B90}"
	odttf := func(name string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "fonts", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(deobfuscateFont(data, key)) // the obfuscation is its own inverse
	}
	rel := "http://schemas.openxmlformats.org/officeDocument/2006/relationships/font"
	fontTable := `<?xml version="1.0" encoding="UTF-8"?><w:fonts ` + wNS + `>` +
		`<w:font w:name="BlankTest"><w:embedRegular r:id="rIdF1" w:fontKey="` + key + `"/></w:font>` +
		`<w:font w:name="InkedTest"><w:embedRegular r:id="rIdF2" w:fontKey="` + key + `"/></w:font>` +
		`<w:font w:name="SpeckTest"><w:embedRegular r:id="rIdF3" w:fontKey="` + key + `"/></w:font>` +
		`<w:font w:name="Adobe Blank"/></w:fonts>`
	run := func(font, text string) string {
		return `<w:r><w:rPr><w:rFonts w:ascii="` + font + `" w:hAnsi="` + font + `"/></w:rPr><w:t xml:space="preserve">` + text + `</w:t></w:r>`
	}
	body := `<w:p>` + run("Calibri", "Tidal flats ") + run("BlankTest", "zephyr cobalt ") + run("Calibri", "look empty ") +
		run("InkedTest", "at first ") + run("Adobe Blank", "glance.") + `</w:p>` +
		`<w:p>` + run("Calibri", "The sea ") + run("SpeckTest", "quartz, nimbus ") + run("Calibri", "comes back ") +
		run("SpeckTest", "TWICE junk") + run("Calibri", " a day.") + `</w:p>` +
		// The theme's minor font, named by a style: a font named nearer is drawn instead.
		`<w:p><w:pPr><w:pStyle w:val="Themed"/></w:pPr><w:r><w:t xml:space="preserve">Sand bars </w:t></w:r>` +
		`<w:r><w:rPr><w:rFonts w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi"/></w:rPr><w:t xml:space="preserve">shift </w:t></w:r>` +
		run("Calibri", "with the tide.") + `</w:p>` +
		`<w:p><w:r><w:rPr><w:rFonts w:eastAsiaTheme="minorEastAsia"/></w:rPr><w:t xml:space="preserve">潮汐 </w:t></w:r>` + run("Calibri", "Ebb.") + `</w:p>`
	data := wordPackage(t, body, map[string]string{
		"fontTable": fontTable,
		"theme": `<?xml version="1.0" encoding="UTF-8"?><a:theme xmlns:a="` + nsA + `" name="T"><a:themeElements><a:fontScheme name="T">` +
			`<a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/><a:font script="Hans" typeface="DengXian Light"/></a:majorFont>` +
			`<a:minorFont><a:latin typeface="SpeckTest"/><a:ea typeface=""/><a:font script="Hans" typeface="BlankTest"/></a:minorFont>` +
			`</a:fontScheme></a:themeElements></a:theme>`,
		"styles": `<w:styles ` + wNS + `><w:style w:type="paragraph" w:styleId="Themed"><w:name w:val="Themed"/>` +
			`<w:rPr><w:rFonts w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi"/></w:rPr></w:style></w:styles>`,
		"word/_rels/fontTable.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rIdF1" Type="` + rel + `" Target="fonts/font1.odttf"/><Relationship Id="rIdF2" Type="` + rel + `" Target="fonts/font2.odttf"/>` +
			`<Relationship Id="rIdF3" Type="` + rel + `" Target="fonts/font3.odttf"/></Relationships>`,
		"word/fonts/font1.odttf": odttf("blank.ttf"),
		"word/fonts/font2.odttf": odttf("inked.ttf"),
		"word/fonts/font3.odttf": odttf("specks.ttf"),
	})
	doc, err := Bytes(context.Background(), "blank.docx", data)
	if err != nil {
		t.Fatal(err)
	}
	checkHidden(t, doc, []string{"Tidal flats look empty at first glance.", "The sea comes back TWICE a day.", "S with the tide.", "Ebb."},
		[]hiddenWant{{text: "zephyr cobalt", reasons: []string{HideBlankFont}, para: 0, offset: -1},
			{text: "quartz, nimbus", reasons: []string{HideBlankFont}, para: 1, offset: -1},
			{text: "junk", reasons: []string{HideBlankFont}, para: 1, offset: -1},
			{text: "and bars shift", reasons: []string{HideBlankFont}, para: 2, offset: -1},
			{text: "潮汐", reasons: []string{HideBlankFont}, para: 3, offset: -1}}, nil)
}
