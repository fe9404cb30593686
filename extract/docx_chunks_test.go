package extract

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// chunkDOCX builds a DOCX whose body is body, with parts (name under word/ → content) that the
// document's relationships reach by id.
func chunkDOCX(t *testing.T, body string, rels map[string]string, parts map[string]string) []byte {
	t.Helper()
	files := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`,
		"_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + relPrefix + `officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml": `<?xml version="1.0" encoding="UTF-8"?><w:document ` + wNS +
			` xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:v="urn:schemas-microsoft-com:vml"><w:body>` + body + `</w:body></w:document>`,
	}
	var rs strings.Builder
	for id, target := range rels {
		rs.WriteString(`<Relationship Id="` + id + `" Type="` + relPrefix + `aFChunk" Target="` + target + `"/>`)
	}
	files["word/_rels/document.xml.rels"] = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rs.String() + `</Relationships>`
	for name, content := range parts {
		files["word/"+name] = content
	}
	return buildDOCX(t, files)
}

const (
	chunkBefore = "我们自己写的第一段文字，在导入的部分之前。"
	chunkAfter  = "我们自己写的最后一段文字，在导入的部分之后。"
	chunkCopied = "随着互联网技术的快速发展，网络教育已经成为高等教育的重要组成部分，越来越多的高校开始建设在线课程平台。"
)

// TestDOCXChunks: the text of parts Word shows in place — an HTML page, an MHT archive, plain text
// or a DOCX imported with w:altChunk, a Word document embedded as an object — is read where it
// stands, headings marked, hidden and script text not; a part that cannot be read (RTF, a Word
// document nested too deep) is warned of, the rest read.
func TestDOCXChunks(t *testing.T) {
	altChunk := wPara("", chunkBefore) + `<w:altChunk r:id="rIdChunk"/>` + wPara("", chunkAfter)
	page := "<html><head><title>不是正文</title><style>p {color: red}</style></head><body>\n<h1>第一章 绪论</h1>\n<p>随着互联网技术的快速发展，网络教育已经成为\n高等教育的重要组成部分，越来越多的高校开始建设在线课程平台。</p>" +
		"<div style=\"display: none\">藏起来的文字不读</div><script>var x = 1;</script></body></html>"
	mht := "MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/html; charset=\"utf-8\"\r\n" +
		"Content-Transfer-Encoding: quoted-printable\r\n\r\n<html><body><p>=E9=9A=8F=E7=9D=80=E4=BA=92=E8=81=94=E7=BD=91=E6=8A=80=E6=9C=AF</p></body></html>\r\n--B--\r\n"
	inner := string(wordPackage(t, wPara("", chunkCopied), nil))
	object := wPara("", chunkBefore) + `<w:p><w:r><w:object><v:shape id="o1"><v:imagedata r:id="rIdPreview"/></v:shape>` +
		`<o:OLEObject Type="Embed" ProgID="Word.Document.12" ShapeID="o1" r:id="rIdChunk"/></w:object></w:r></w:p>` + wPara("", chunkAfter)
	deep := string(chunkDOCX(t, `<w:altChunk r:id="rIdChunk"/>`, map[string]string{"rIdChunk": "inner.docx"}, map[string]string{"inner.docx": inner}))
	deeper := string(chunkDOCX(t, `<w:altChunk r:id="rIdChunk"/>`, map[string]string{"rIdChunk": "deep.docx"}, map[string]string{"deep.docx": deep}))
	cases := []struct {
		name, body, part, content string
		want                      []string
		headings                  []bool
		warn                      string
	}{
		{"HTML", altChunk, "afchunk.htm", page, []string{chunkBefore, "第一章 绪论", chunkCopied, chunkAfter}, []bool{false, true, false, false}, ""},
		{"MHT", altChunk, "afchunk.mht", mht, []string{chunkBefore, "随着互联网技术", chunkAfter}, nil, ""},
		// End tags left out, and the page in GBK as its <meta> says.
		{"sloppy GBK HTML", altChunk, "afchunk.htm", "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\"><title>x</title><body><p>" + gbk(t, chunkCopied) + "<p>" + gbk(t, "第二段"),
			[]string{chunkBefore, chunkCopied, "第二段", chunkAfter}, nil, ""},
		{"text", altChunk, "afchunk.txt", chunkCopied + "\n", []string{chunkBefore, chunkCopied, chunkAfter}, nil, ""},
		{"DOCX", altChunk, "afchunk.docx", inner, []string{chunkBefore, chunkCopied, chunkAfter}, nil, ""},
		{"two deep", altChunk, "afchunk.docx", deep, []string{chunkBefore, chunkCopied, chunkAfter}, nil, ""},
		{"embedded Word document", object, "embeddings/doc1.docx", inner, []string{chunkBefore, chunkCopied, chunkAfter}, nil, ""},
		{"RTF", altChunk, "afchunk.rtf", `{\rtf1\ansi copied text}`, []string{chunkBefore, chunkAfter}, nil, "1 imported or embedded part Word shows could not be read: word/afchunk.rtf (RTF)"},
		{"three deep", altChunk, "afchunk.docx", deeper, []string{chunkBefore, chunkAfter}, nil, "a Word document inside 2 others"},
		// Elements opened and never closed make the HTML parser take the square of the page's
		// length; paragraphs whose ends HTML implies do not pile up.
		{"HTML nested 20,000 deep", altChunk, "afchunk.htm", "<html><body>" + strings.Repeat("<a><b></p>", 10000) + chunkCopied, []string{chunkBefore, chunkAfter}, nil,
			"word/afchunk.htm (an HTML page whose elements nest more than 1000 deep)"},
		{"HTML of 5,000 paragraphs never closed", altChunk, "afchunk.htm", "<html><body>" + strings.Repeat("<p>段", 5000) + "<p>" + chunkCopied,
			append(append([]string{chunkBefore}, slices.Repeat([]string{"段"}, 5000)...), chunkCopied, chunkAfter), nil, ""},
	}
	for _, c := range cases {
		data := chunkDOCX(t, c.body, map[string]string{"rIdChunk": c.part}, map[string]string{c.part: c.content})
		doc, err := Bytes(context.Background(), c.name+".docx", data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		var headings []bool
		for _, p := range doc.Paragraphs {
			got = append(got, p.Text)
			headings = append(headings, p.Heading)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: paragraphs %q, want %q", c.name, got, c.want)
		}
		if c.headings != nil && !reflect.DeepEqual(headings, c.headings) {
			t.Errorf("%s: headings %v, want %v", c.name, headings, c.headings)
		}
		var warned []string
		for _, w := range doc.Warnings {
			if w.Kind == WarnUnreadableParts {
				warned = append(warned, w.Message)
			}
		}
		switch {
		case c.warn == "" && len(warned) > 0:
			t.Errorf("%s: warned %q", c.name, warned)
		case c.warn != "" && (len(warned) != 1 || !strings.Contains(warned[0], c.warn)):
			t.Errorf("%s: warnings %q, want one with %q", c.name, warned, c.warn)
		}
	}
}

func gbk(t *testing.T, s string) string {
	t.Helper()
	out, err := simplifiedchinese.GBK.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDOCXChunksBounded: parts that inflate past what one document may hold, in text or in bytes,
// fail the file as too large instead of taking gigabytes.
func TestDOCXChunksBounded(t *testing.T) {
	megabyte := strings.Repeat("x", 1<<20)
	for _, c := range []struct {
		name    string
		parts   int
		content string
	}{
		{"text", 5, strings.Repeat("文字很多的一段。", 1<<20/24) + "\n"},                     // 5 × 1 MB of text: past 4 MB
		{"bytes", 65, "<html><body><p>短</p><!-- " + megabyte + " --></body></html>"}, // 65 MB of pages, a character of text each
	} {
		var body strings.Builder
		rels, parts := map[string]string{}, map[string]string{}
		for i := range c.parts {
			id := fmt.Sprintf("rId%d", i)
			body.WriteString(`<w:altChunk r:id="` + id + `"/>`)
			rels[id] = fmt.Sprintf("chunk%d.htm", i)
			parts[rels[id]] = c.content
		}
		_, err := Bytes(context.Background(), c.name+".docx", chunkDOCX(t, body.String(), rels, parts))
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v, want ErrTooLarge", c.name, err)
		}
	}
}

// A SmartArt graphic's text is read where the graphic stands: a paragraph typed into one of its
// boxes is on the page (Word draws it), and read 0 % when only the document's own paragraphs were.
func TestDOCXSmartArt(t *testing.T) {
	const dgm = `xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`
	graphic := func(hidden string) string {
		return `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">` +
			`<wp:extent cx="5486400" cy="3200400"/><wp:docPr id="1" name="Diagram 1"` + hidden + `/>` +
			`<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram">` +
			`<dgm:relIds ` + dgm + ` r:dm="rIddiagramData" r:lo="rIdL" r:qs="rIdQ" r:cs="rIdC"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
	}
	node := func(id, text string) string {
		return `<dgm:pt modelId="` + id + `"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>` + text + `</a:t></a:r></a:p></dgm:t></dgm:pt>`
	}
	data := `<?xml version="1.0" encoding="UTF-8"?><dgm:dataModel ` + dgm + `><dgm:ptLst>` +
		`<dgm:pt modelId="0" type="doc"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></dgm:t></dgm:pt>` +
		node("1", "Tidal flats look empty at first glance, yet they feed more birds than any other coast.") +
		node("2", "Short label") + `</dgm:ptLst><dgm:cxnLst/></dgm:dataModel>`
	for _, tc := range []struct {
		name   string
		hidden string
		want   []string
	}{
		{"shown", "", []string{"Before the graphic.", "Tidal flats look empty at first glance, yet they feed more birds than any other coast.", "Short label", "After it."}},
		{"hidden", ` hidden="1"`, []string{"Before the graphic.", "After it."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := wPara("", "Before the graphic.") + graphic(tc.hidden) + wPara("", "After it.")
			checkTexts(t, "smartart.docx", wordPackage(t, body, map[string]string{"diagramData": data}), tc.want)
		})
	}
}

// TestDOCXChunkHiddenHTML: text an imported HTML page hides by its styles, inline or by its style
// sheets — white, a size of 2 pt or less, mso-hide:all, display:none, visibility:hidden — is its
// paragraph's hidden text, warned of; white on a background and larger sizes are read.
func TestDOCXChunkHiddenHTML(t *testing.T) {
	page := func(head, body string) string {
		return "<html><head>" + head + "</head><body>" + body + "</body></html>"
	}
	const a, b = "Students who copy a paragraph ", "hide words between its words."
	span := func(style, text string) string {
		return "<p>" + a + `<span style="` + style + `">` + text + "</span>" + b + "</p>"
	}
	inline := func(text string, reasons ...string) []hiddenWant {
		return []hiddenWant{{text: text, reasons: reasons, para: 0, offset: len(a)}}
	}
	for _, tt := range []struct {
		name, page string
		paras      []string
		hidden     []hiddenWant
	}{
		{"white", page("", span("color:#FFFFFF", "junk words")), nil, inline("junk words", HideWhite)},
		// Any colour as light, by name, number or rgb(): only white by name was known.
		{"nearly white", page("", span("color:#FEFEFE", "junk words")), nil, inline("junk words", HideWhite)},
		{"ivory", page("", span("color: Ivory", "junk words")), nil, inline("junk words", HideWhite)},
		{"yellow by rgb()", page("", span("color:rgb(255, 255, 0)", "junk words")), nil, inline("junk words", HideFaint)},
		{"grey is visible", page("", span("color:#808080", "seen ")), []string{a + "seen " + b}, nil},
		{"1 pt", page("", span("font-size:1.0pt", "junk words")), nil, inline("junk words", HideTiny)},
		{"no size", page("", span("font-size: 0", "junk words")), nil, inline("junk words", HideTiny)},
		{"Word's hidden text", page("", span("mso-hide:all", "junk words")), nil, inline("junk words", HideVanish)},
		{"white by a font tag", page("", "<p>"+a+`<font color="white">junk words</font>`+b+"</p>"), nil, inline("junk words", HideWhite)},
		{"a hidden paragraph", page("", "<p>"+a+b+`</p><p style="visibility:hidden">junk paragraph</p>`), nil,
			[]hiddenWant{{text: "junk paragraph", reasons: []string{HideVanish}, para: 0, offset: len(a + b), apart: true}}},
		{"white on a cell's background", page("", `<table><tr><td style="background:#1F3864"><span style="color:white">seen</span></td></tr></table>`+span("", "")),
			[]string{"seen", a + b}, nil},
		{"white on a class's background", page("<style>.dark{background:black}</style>", `<table><tr><td class="dark"><span style="color:white">seen</span></td></tr></table>`+span("", "")),
			[]string{"seen", a + b}, nil},
		{"white on the body's background", page("<style>body{background-color:#333}</style>", span("color:white", "seen ")), []string{a + "seen " + b}, nil},
		{"white where a style sheet gives another element a background", page("<style>.dark{background:black}</style>", span("color:white", "junk words")), nil,
			inline("junk words", HideWhite)},
		{"3 pt", page("", span("font-size:3pt", "seen ")), []string{a + "seen " + b}, nil},
		{"a tenth of an em", page("", span("font-size:0.1em", "junk words")), nil, inline("junk words", HideTiny)},
		{"5 % of 20 pt", page("", "<p>"+a+`<span style="font-size:20pt"><span style="font-size:5%">junk words</span></span>`+b+"</p>"), nil, inline("junk words", HideTiny)},
		{"half of 2 pt by a class", page("<style>.s{font-size:.5em}</style>", "<p>"+a+`<span style="font-size:2pt"><span class="s">junk words</span></span>`+b+"</p>"), nil,
			inline("junk words", HideTiny)},
		{"a tenth of the page's size, inside larger text", page("", "<p>"+a+`<span style="font-size:40pt"><span style="font-size:0.1rem">junk words</span></span>`+b+"</p>"), nil,
			inline("junk words", HideTiny)},
		{"40 % of the page's 12 pt", page("", span("font-size:40%", "seen ")), []string{a + "seen " + b}, nil},
		{"white junk with its spaces parts the words", page("", `<p>Students who copy<span style="color:white"> junk </span>a paragraph</p>`),
			[]string{"Students who copy a paragraph"}, []hiddenWant{{text: "junk", reasons: []string{HideWhite}, offset: len("Students who copy")}}},
		// The page's style sheets, by the cascade: class, descendant and id selectors, specificity
		// over order, inline styles over both, at-rules passed over.
		{"white by a class", page("<style>.j{color:#fff}</style>", "<p>"+a+`<span class="j">junk words</span>`+b+"</p>"), nil, inline("junk words", HideWhite)},
		{"hidden by a descendant selector", page("<style>p span.k { display: none }</style>", "<p>"+a+`<span class="k">junk words</span>`+b+"</p>"), nil,
			inline("junk words", HideVanish)},
		{"1 pt by an id", page("<style>#x{font-size:1pt}</style>", "<p>"+a+`<span id="x">junk words</span>`+b+"</p>"), nil, inline("junk words", HideTiny)},
		{"a class's hiding undone by a more specific rule", page("<style>span#x{visibility:visible} .k{visibility:hidden}</style>",
			"<p>"+a+`<span class="k" id="x">seen </span>`+b+"</p>"), []string{a + "seen " + b}, nil},
		{"a class's size undone inline", page("<style>.k{font-size:1pt}</style>", "<p>"+a+`<span class="k" style="font-size:12pt">seen </span>`+b+"</p>"),
			[]string{a + "seen " + b}, nil},
		// Ruby, as a DOCX's phonetic guides: a copy in rt over nothing read, junk in rt over a copy
		// read after it, pinyin and rp left out.
		{"a copy as ruby text over nothing", page("", "<p>"+a+"<ruby><rt>"+b+"</rt></ruby></p>"), nil, nil},
		{"junk ruby text over a copy", page("", "<p><ruby>"+a+"<rp>(</rp><rt>的一是</rt><rp>)</rp></ruby>"+b+"</p>"),
			[]string{a + b + " 的一是"}, nil},
		{"pinyin over its characters", page("", "<p>"+a+"<ruby>汉<rt>hàn</rt>字<rt>zì</rt></ruby>"+b+"</p>"), []string{a + "汉字" + b}, nil},
		{"a rule for print only is passed over", page("<style>@media print { .k { display: none } }</style>", "<p>"+a+`<span class="k">seen </span>`+b+"</p>"),
			[]string{a + "seen " + b}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := chunkDOCX(t, `<w:altChunk r:id="rIdChunk"/>`, map[string]string{"rIdChunk": "afchunk.htm"}, map[string]string{"afchunk.htm": tt.page})
			doc, err := Bytes(context.Background(), "chunk.docx", data)
			if err != nil {
				t.Fatal(err)
			}
			paras := tt.paras
			if paras == nil {
				paras = []string{a + b}
			}
			checkHidden(t, doc, paras, tt.hidden, nil)
		})
	}
}

// TestCSSSelector: complex selectors are matched as cascadia matches them (on small pages, where
// its way is quick), and a page nested a thousand deep is matched at all (cascadia's descendant
// matching did not end there in 20 s).
func TestCSSSelector(t *testing.T) {
	pages := []string{
		`<div id="x"><p class="a">one <span class="k">two</span></p><ul><li>a</li><li class="b">b<span>c</span></li></ul><p><b><span class="k">d</span></b></p></div>`,
		`<table><tr><td class="dark"><span>w</span></td><td><p>x</p><p class="a">y</p><p>z</p></td></tr></table><section><p>q</p><span class="k">r</span></section>`,
	}
	selectors := []string{"p span.k", "div > p", "p + ul", "p ~ p", "ul li span", "#x p.a", "td.dark span", "div   p   span", "section>span.k", "li.b>span", "p[class='a']", "*", "td p ~ p"}
	for _, page := range pages {
		root, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range selectors {
			sel, ok := parseSelector(s)
			if !ok {
				t.Fatalf("%q not read", s)
			}
			c, err := cascadia.Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			got, want := sel.matchAll(root), cascadia.QueryAll(root, c)
			if !slices.Equal(got, want) {
				t.Errorf("%q on %.40q: %d elements, cascadia %d", s, page, len(got), len(want))
			}
			if sel.spec != c.Specificity() {
				t.Errorf("%q: specificity %v, cascadia %v", s, sel.spec, c.Specificity())
			}
		}
	}
	for _, s := range []string{"> p", "p >", "p::before", "a:unknown-thing"} {
		if _, ok := parseSelector(s); ok {
			t.Errorf("%q read", s)
		}
	}
	deep, err := html.Parse(strings.NewReader(strings.Repeat("<div>", 990) + "<span>text</span>"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"p div div div", "div div div span", "div > div > div ~ span"} {
		sel, _ := parseSelector(s)
		want := map[string]int{"p div div div": 0, "div div div span": 1, "div > div > div ~ span": 0}[s]
		if got := len(sel.matchAll(deep)); got != want {
			t.Errorf("%q on 990 divs: %d elements, want %d", s, got, want)
		}
	}
}

// TestDOCXChart: a chart's title and axis titles, and the text boxes drawn on it, are read where
// the chart stands (copied paragraphs made the titles of charts read 0.0 %), and so are its
// category labels when they are words, not a chart's short ones; a hidden chart shows nothing.
func TestDOCXChart(t *testing.T) {
	const a = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`
	rich := func(text string) string {
		return `<c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>` + text + `</a:t></a:r></a:p></c:rich></c:tx>`
	}
	chart := `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ` + a + `><c:chart>` +
		`<c:title>` + rich("Tidal flats look empty at first glance, yet they feed more birds than any other coast.") + `</c:title>` +
		`<c:plotArea><c:barChart><c:ser><c:cat><c:strRef><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>a category label</c:v></c:pt></c:strCache></c:strRef></c:cat>` +
		`</c:ser></c:barChart><c:valAx><c:title>` + rich("Birds a day") + `</c:title><c:txPr><a:bodyPr/><a:p><a:pPr/><a:endParaRPr/></a:p></c:txPr></c:valAx></c:plotArea></c:chart></c:chartSpace>`
	shapes := `<?xml version="1.0" encoding="UTF-8"?><c:userShapes xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:cdr="http://schemas.openxmlformats.org/drawingml/2006/chartDrawing" ` + a + `>` +
		`<cdr:relSizeAnchor><cdr:sp><cdr:txBody><a:bodyPr/><a:p><a:r><a:t>A text box on the chart.</a:t></a:r></a:p></cdr:txBody></cdr:sp></cdr:relSizeAnchor></c:userShapes>`
	shapesRels := `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="` + relPrefix + `chartUserShapes" Target="drawing1.xml"/></Relationships>`
	graphic := func(hidden string) string {
		return `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">` +
			`<wp:extent cx="5486400" cy="3200400"/><wp:docPr id="1" name="Chart 1"` + hidden + `/>` +
			`<a:graphic ` + a + `><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">` +
			`<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdchart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
	}
	// A chart of category labels, as a chart shows them (short) or as a copy typed into them.
	labelled := func(axis string, labels ...string) string {
		var pts strings.Builder
		for i, l := range labels {
			pts.WriteString(`<c:pt idx="` + strconv.Itoa(i) + `"><c:v>` + l + `</c:v></c:pt>`)
		}
		return `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart><c:plotArea><c:barChart><c:ser>` +
			`<c:cat><c:strRef><c:strCache>` + pts.String() + `</c:strCache></c:strRef></c:cat></c:ser></c:barChart>` +
			`<c:catAx><c:axId val="1"/>` + axis + `</c:catAx></c:plotArea></c:chart></c:chartSpace>`
	}
	const long = "Tidal flats look empty at first glance, yet they feed more birds than any other coast."
	years := []string{"2015", "2016", "2017", "2018", "2019", "2020", "2021", "2022", "2023", "2024", "2025", "2026"}
	pieces := []string{"Tidal flats look", "empty at first", "glance, yet they", "feed more birds", "than any other", "coast, and more", "than any river", "and birds come back", "every spring."}
	for _, tc := range []struct {
		name  string
		chart string
		want  []string
	}{
		{"short labels not read", labelled("", years...), []string{"Before the chart.", "After it."}},
		{"a label of words read", labelled("", long, "b"), []string{"Before the chart.", long, "b", "After it."}},
		{"labels of words together read", labelled("", pieces...), append(append([]string{"Before the chart."}, pieces...), "After it.")},
		{"its axis deleted", labelled(`<c:delete val="1"/>`, long), []string{"Before the chart.", "After it."}},
		{"its labels set to none", labelled(`<c:tickLblPos val="none"/>`, long), []string{"Before the chart.", "After it."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := wPara("", "Before the chart.") + graphic("") + wPara("", "After it.")
			checkTexts(t, "chart.docx", wordPackage(t, body, map[string]string{"chart": tc.chart}), tc.want)
		})
	}
	for _, tc := range []struct {
		name, hidden string
		shapes       bool
		want         []string
	}{
		{"shown", "", false, []string{"Before the chart.", "Tidal flats look empty at first glance, yet they feed more birds than any other coast.", "Birds a day", "After it."}},
		{"with a text box", "", true, []string{"Before the chart.", "Tidal flats look empty at first glance, yet they feed more birds than any other coast.", "Birds a day", "A text box on the chart.", "After it."}},
		{"hidden", ` hidden="1"`, true, []string{"Before the chart.", "After it."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parts := map[string]string{"chart": chart}
			if tc.shapes {
				parts["word/_rels/chart.xml.rels"], parts["word/drawing1.xml"] = shapesRels, shapes
			}
			body := wPara("", "Before the chart.") + graphic(tc.hidden) + wPara("", "After it.")
			checkTexts(t, "chart.docx", wordPackage(t, body, parts), tc.want)
		})
	}
}

// TestHTMLRubyOfManyGuides: a ruby of many guides is read whole, its base's letters judged once for
// all of them (judged again for each, a ruby of 20,000 took 8 s, and this one would take half an
// hour).
func TestHTMLRubyOfManyGuides(t *testing.T) {
	const n = 300_000
	page := "<html><body><p><ruby>" + strings.Repeat("字<rt>zì</rt>", n) + "</ruby></p></body></html>"
	ps := htmlParagraphs([]byte(page))
	if len(ps) != 1 || ps[0].Text != strings.Repeat("字", n) {
		t.Fatalf("%d paragraphs, want the ruby's base alone, its pinyin left out", len(ps))
	}
}
