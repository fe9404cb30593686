// Package hostile builds small files shaped to cost a reader time or memory — a footnote referred
// to 20,000 times, q operators nested 100,000 deep, a stream that inflates to gigabytes — for the
// tests and fuzz seeds of the readers that must stay bounded on them. Every file is made in
// milliseconds, so that none has to be committed.
package hostile

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"fmt"
	"strings"
)

// PDF writes a PDF of one page per content stream, with Helvetica as /F1, the given form
// XObjects as /X0, /X1, … in every page's and form's resources, and each stream stored as given:
// a stream whose filter is "FlateDecode" must already be zlib data.
func PDF(pages []Stream, forms []Stream) []byte {
	var b bytes.Buffer
	var offsets []int
	obj := func(body string, stream []byte) int {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s", len(offsets), body)
		if stream != nil {
			fmt.Fprintf(&b, "\nstream\n")
			b.Write(stream)
			b.WriteString("\nendstream")
		}
		b.WriteString("\nendobj\n")
		return len(offsets)
	}
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	// Objects 1 and 2 are the catalog and the page tree; pages, forms and font follow.
	nPages := len(pages)
	font := 3
	firstForm := font + 1
	firstContent := firstForm + len(forms)
	firstPage := firstContent + nPages
	var xobjects strings.Builder
	for i := range forms {
		fmt.Fprintf(&xobjects, "/X%d %d 0 R ", i, firstForm+i)
	}
	res := fmt.Sprintf("<< /Font << /F1 %d 0 R >> /XObject << %s>> >>", font, xobjects.String())
	kids := make([]string, nPages)
	for i := range pages {
		kids[i] = fmt.Sprintf("%d 0 R", firstPage+i)
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>", nil)
	obj(fmt.Sprintf("<< /Type /Pages /Count %d /Kids [%s] >>", nPages, strings.Join(kids, " ")), nil)
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", nil)
	for _, f := range forms {
		obj(fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources %s /Length %d%s >>", res, len(f.Data), f.filter()), f.Data)
	}
	for _, p := range pages {
		obj(fmt.Sprintf("<< /Length %d%s >>", len(p.Data), p.filter()), p.Data)
	}
	for i := range pages {
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources %s /Contents %d 0 R >>", res, firstContent+i), nil)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// Stream is the data of a content stream and its filter ("" or "FlateDecode").
type Stream struct {
	Data   []byte
	Filter string
}

func (s Stream) filter() string {
	if s.Filter == "" {
		return ""
	}
	return " /Filter /" + s.Filter
}

// Text is a content stream that shows each line of text in Helvetica 12 pt, one under the other.
func Text(lines ...string) string {
	var b strings.Builder
	b.WriteString("BT /F1 12 Tf 72 720 Td 14 TL\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "(%s) Tj T*\n", l)
	}
	b.WriteString("ET\n")
	return b.String()
}

// DeepSaves is a page whose text stands inside n nested q operators.
func DeepSaves(n int) []byte {
	content := strings.Repeat("q ", n) + Text("Deep inside saved graphics states.") + strings.Repeat("Q ", n)
	return PDF([]Stream{{Data: []byte(content)}}, nil)
}

// NestedForms is a page that draws form X0, which draws X1, … down to X(depth-1), which shows
// text.
func NestedForms(depth int) []byte {
	forms := make([]Stream, depth)
	for i := range forms {
		if i == depth-1 {
			forms[i] = Stream{Data: []byte(Text("The innermost form."))}
		} else {
			forms[i] = Stream{Data: []byte(fmt.Sprintf("/X%d Do", i+1))}
		}
	}
	return PDF([]Stream{{Data: []byte("/X0 Do")}}, forms)
}

// FormFanOut is a page that draws a small form n times.
func FormFanOut(n int) []byte {
	page := Stream{Data: Zlib(bytes.Repeat([]byte("/X0 Do\n"), n)), Filter: "FlateDecode"}
	return PDF([]Stream{page}, []Stream{{Data: []byte("0 0 m")}})
}

// StreamBomb is a page whose content stream inflates to mib MiB of spaces after a line of text,
// from a file of about mib KB.
func StreamBomb(mib int) []byte { return StreamBombs(1, mib) }

// StreamBombs is pages such pages.
func StreamBombs(pages, mib int) []byte {
	var z bytes.Buffer
	z.Write([]byte{0x78, 0xDA}) // zlib header: deflate, best compression
	fw, _ := flate.NewWriter(&z, flate.BestCompression)
	fw.Write([]byte(Text("A page that never ends.")))
	fw.Flush()
	seg := deflateSegment(1 << 20)
	for i := 0; i < mib; i++ {
		z.Write(seg)
	}
	// No final block or checksum: a reader that got this far would fail on the end anyway.
	streams := make([]Stream, pages)
	for i := range streams {
		streams[i] = Stream{Data: z.Bytes(), Filter: "FlateDecode"}
	}
	return PDF(streams, nil)
}

// deflateSegment is deflate blocks for n spaces, not final, ending on a byte boundary (Flush), so
// that copies of it can follow each other: a fresh writer's blocks refer back only into their own
// data.
func deflateSegment(n int) []byte {
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestCompression)
	fw.Write(bytes.Repeat([]byte{' '}, n))
	fw.Flush()
	return buf.Bytes()
}

// Zlib compresses data in the zlib format FlateDecode expects.
func Zlib(data []byte) []byte {
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	zw.Write(data)
	zw.Close()
	return z.Bytes()
}

const wNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`

// DOCX builds a Word document from the inner XML of its body and, when not empty, of its
// footnotes part.
func DOCX(body, footnotes string) []byte { return docx(body, footnotes, "") }

// StyledDOCX is a DOCX of body paragraphs (w:p elements) and a styles part holding styles (w:style
// elements).
func StyledDOCX(body, styles string) []byte { return docx(body, "", styles) }

func docx(body, footnotes, styles string) []byte {
	rel := "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	files := [][2]string{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + rel + `officeDocument" Target="word/document.xml"/></Relationships>`},
		{"word/document.xml", `<?xml version="1.0" encoding="UTF-8"?><w:document ` + wNS + `><w:body>` + body + `</w:body></w:document>`},
	}
	rels := ""
	if footnotes != "" {
		files = append(files, [2]string{"word/footnotes.xml", `<?xml version="1.0" encoding="UTF-8"?><w:footnotes ` + wNS + `>` + footnotes + `</w:footnotes>`})
		rels = `<Relationship Id="rIdFn" Type="` + rel + `footnotes" Target="footnotes.xml"/>`
	}
	if styles != "" {
		files = append(files, [2]string{"word/styles.xml", `<?xml version="1.0" encoding="UTF-8"?><w:styles ` + wNS + `>` + styles + `</w:styles>`})
		rels += `<Relationship Id="rIdSt" Type="` + rel + `styles" Target="styles.xml"/>`
	}
	files = append(files, [2]string{"word/_rels/document.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels + `</Relationships>`})
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: f[0], Method: zip.Deflate})
		w.Write([]byte(f[1]))
	}
	zw.Close()
	return buf.Bytes()
}

// Para is a body paragraph of text, followed by references to the given footnotes.
func Para(text string, footnotes ...int) string {
	var b strings.Builder
	b.WriteString(`<w:p><w:r><w:t xml:space="preserve">` + text + `</w:t></w:r>`)
	for _, id := range footnotes {
		fmt.Fprintf(&b, `<w:r><w:footnoteReference w:id="%d"/></w:r>`, id)
	}
	b.WriteString(`</w:p>`)
	return b.String()
}

// FootnoteBomb is a DOCX of a few KB whose one footnote, of paras paragraphs, is referred to
// refs times from the body.
func FootnoteBomb(paras, refs int) []byte {
	var note strings.Builder
	note.WriteString(`<w:footnote w:id="1">`)
	for i := 0; i < paras; i++ {
		fmt.Fprintf(&note, `<w:p><w:r><w:t>Footnote paragraph %d repeats the same long sentence about sources and citation practice.</w:t></w:r></w:p>`, i)
	}
	note.WriteString(`</w:footnote>`)
	var body strings.Builder
	body.WriteString(Para("A body paragraph that refers to one footnote again and again."))
	ids := make([]int, refs)
	for i := range ids {
		ids[i] = 1
	}
	body.WriteString(Para("Here it is referred to many times.", ids...))
	return DOCX(body.String(), note.String())
}
