package extract

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"strings"
	"testing"
)

// TestDOCXGraphicHidden: the text of a chart or a SmartArt graphic that its DrawingML properties
// hide — white on what lies under it, 2 pt or less, no fill, no opacity, a deleted label — is
// hidden text, warned of, where white on a dark chart area, title box, highlight or node, a dark
// outline and half an opacity read. An embedded document drawn as an icon shows none of its text.
func TestDOCXGraphicHidden(t *testing.T) {
	const (
		a      = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`
		before = "Before the graphic."
		after  = "After it."
		junk   = "Junk words a reader cannot see"
		seen   = "Words a reader sees"
	)
	graphic := func(data string) string {
		return `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">` +
			`<wp:extent cx="5486400" cy="3200400"/><wp:docPr id="1" name="Graphic 1"/><a:graphic ` + a + `>` + data + `</a:graphic></wp:inline></w:drawing></w:r></w:p>`
	}
	chartRef := `<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdchart"/></a:graphicData>`
	smartRef := `<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rIddiagramData"/></a:graphicData>`
	run := func(rPr, text string) string { return `<a:r>` + rPr + `<a:t>` + text + `</a:t></a:r>` }
	fill := func(hex string) string { return `<a:solidFill><a:srgbClr val="` + hex + `"/></a:solidFill>` }
	white := `<a:rPr>` + fill("FFFFFF") + `</a:rPr>`
	// chart: a chart whose title's paragraph holds runs; title and area are put in its title and
	// chart space after the text, as Word writes them.
	chart := func(runs, title, area string) string {
		return `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ` + a + `><c:chart>` +
			`<c:title><c:tx><c:rich><a:bodyPr/><a:p>` + runs + `</a:p></c:rich></c:tx>` + title + `</c:title><c:plotArea/></c:chart>` + area + `</c:chartSpace>`
	}
	smart := func(spPr, rPr string) string {
		return `<?xml version="1.0" encoding="UTF-8"?><dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" ` + a + `><dgm:ptLst>` +
			`<dgm:pt modelId="1"><dgm:prSet/><dgm:spPr>` + spPr + `</dgm:spPr><dgm:t><a:bodyPr/><a:p>` + run(rPr, junk) + `</a:p></dgm:t></dgm:pt></dgm:ptLst>` +
			`<dgm:extLst><a:ext uri="http://schemas.microsoft.com/office/drawing/2008/diagram"><dsp:dataModelExt xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" relId="rIddiagramDrawing" minVer="http://schemas.openxmlformats.org/drawingml/2006/diagram"/></a:ext></dgm:extLst></dgm:dataModel>`
	}
	// drawn: the graphic's drawing part, a shape of the fill and style given holding the node's text.
	drawn := func(spPr, style string) string {
		return `<?xml version="1.0" encoding="UTF-8"?><dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" ` + a + `><dsp:spTree>` +
			`<dsp:sp modelId="{9}"><dsp:spPr>` + spPr + `</dsp:spPr><dsp:style>` + style + `</dsp:style><dsp:txBody><a:bodyPr/><a:p>` + run("", junk) + `</a:p></dsp:txBody></dsp:sp></dsp:spTree></dsp:drawing>`
	}
	hiddenTitle := func(reasons ...string) []hiddenWant {
		return []hiddenWant{{text: junk, reasons: reasons, para: 0, offset: len(before), apart: true}}
	}
	shown := []string{before, junk, after}
	for _, tc := range []struct {
		name   string
		data   string // the graphic's reference
		parts  map[string]string
		paras  []string
		hidden []hiddenWant
	}{
		{"a white title", chartRef, map[string]string{"chart": chart(run(white, junk), "", "")}, nil, hiddenTitle(HideWhite)},
		{"a 1-pt title", chartRef, map[string]string{"chart": chart(run(`<a:rPr sz="100"/>`, junk), "", "")}, nil, hiddenTitle(HideTiny)},
		{"a title of no fill", chartRef, map[string]string{"chart": chart(run(`<a:rPr><a:noFill/></a:rPr>`, junk), "", "")}, nil, hiddenTitle(HideTransparent)},
		{"a title of no opacity", chartRef, map[string]string{"chart": chart(run(`<a:rPr><a:solidFill><a:srgbClr val="000000"><a:alpha val="0"/></a:srgbClr></a:solidFill></a:rPr>`, junk), "", "")}, nil,
			hiddenTitle(HideTransparent)},
		{"a title of the theme's background colour", chartRef, map[string]string{"chart": chart(run(`<a:rPr><a:solidFill><a:schemeClr val="bg1"/></a:solidFill></a:rPr>`, junk), "", "")}, nil,
			hiddenTitle(HideWhite)},
		{"white by the chart's text properties", chartRef, map[string]string{"chart": chart(run(`<a:rPr lang="en-US"/>`, junk), "",
			`<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr>`+fill("FFFFFF")+`</a:defRPr></a:pPr><a:endParaRPr/></a:p></c:txPr>`)}, nil, hiddenTitle(HideWhite)},
		{"a white piece between words", chartRef, map[string]string{"chart": chart(run("", "Words ")+run(white, "junk ")+run("", "a reader sees"), "", "")},
			[]string{before, "Words a reader sees", after}, []hiddenWant{{text: "junk", reasons: []string{HideWhite}, para: 1, offset: len("Words ")}}},
		{"white on a black chart area", chartRef, map[string]string{"chart": chart(run(white, junk), "", `<c:spPr>`+fill("000000")+`</c:spPr>`)}, shown, nil},
		{"white on the title's dark box", chartRef, map[string]string{"chart": chart(run(white, junk), `<c:spPr>`+fill("1F3864")+`</c:spPr>`, "")}, shown, nil},
		{"white with a black outline", chartRef, map[string]string{"chart": chart(run(`<a:rPr>`+fill("FFFFFF")+`<a:ln w="9525">`+fill("000000")+`</a:ln></a:rPr>`, junk), "", "")}, shown, nil},
		{"white on a black highlight", chartRef, map[string]string{"chart": chart(run(`<a:rPr>`+fill("FFFFFF")+`<a:highlight><a:srgbClr val="000000"/></a:highlight></a:rPr>`, junk), "", "")}, shown, nil},
		{"black at half opacity", chartRef, map[string]string{"chart": chart(run(`<a:rPr><a:solidFill><a:srgbClr val="000000"><a:alpha val="50000"/></a:srgbClr></a:solidFill></a:rPr>`, junk), "", "")}, shown, nil},
		{"a deleted data label", chartRef, map[string]string{"chart": `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ` + a + `>` +
			`<c:chart><c:plotArea><c:barChart><c:ser><c:dLbls><c:dLbl><c:idx val="0"/><c:tx><c:rich><a:bodyPr/><a:p>` + run("", junk) + `</a:p></c:rich></c:tx></c:dLbl>` +
			`<c:delete val="1"/></c:dLbls></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>`}, nil, hiddenTitle(HideShape)},
		{"white category labels", chartRef, map[string]string{"chart": `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ` + a + `>` +
			`<c:chart><c:plotArea><c:barChart><c:ser><c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>` + junk + ` and more of them</c:v></c:pt></c:strCache></c:strRef></c:cat></c:ser></c:barChart>` +
			`<c:catAx><c:axId val="1"/><c:txPr><a:bodyPr/><a:p><a:pPr><a:defRPr>` + fill("FFFFFF") + `</a:defRPr></a:pPr></a:p></c:txPr></c:catAx></c:plotArea></c:chart></c:chartSpace>`}, nil,
			[]hiddenWant{{text: junk + " and more of them", reasons: []string{HideWhite}, para: 0, offset: len(before), apart: true}}},
		{"a white text box on a white chart", chartRef, map[string]string{"chart": chart(run("", seen), "", ""),
			"word/_rels/chart.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
				`<Relationship Id="rId1" Type="` + relPrefix + `chartUserShapes" Target="drawing1.xml"/></Relationships>`,
			"word/drawing1.xml": `<?xml version="1.0" encoding="UTF-8"?><c:userShapes xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:cdr="http://schemas.openxmlformats.org/drawingml/2006/chartDrawing" ` + a + `>` +
				`<cdr:relSizeAnchor><cdr:sp><cdr:spPr><a:noFill/></cdr:spPr><cdr:txBody><a:bodyPr/><a:p>` + run(white, junk) + `</a:p></cdr:txBody></cdr:sp></cdr:relSizeAnchor></c:userShapes>`},
			[]string{before, seen, after}, []hiddenWant{{text: junk, reasons: []string{HideWhite}, para: 1, offset: len(seen), apart: true}}},
		{"white on a SmartArt node's own fill", smartRef, map[string]string{"diagramData": smart("", white)}, shown, nil},
		{"white on a SmartArt node of no fill", smartRef, map[string]string{"diagramData": smart(`<a:noFill/>`, white)}, nil, hiddenTitle(HideWhite)},
		{"white on a white SmartArt node", smartRef, map[string]string{"diagramData": smart(fill("FFFFFF"), white)}, nil, hiddenTitle(HideWhite)},
		{"white on a dark SmartArt node", smartRef, map[string]string{"diagramData": smart(fill("1F3864"), white)}, shown, nil},
		{"white on a SmartArt node Word drew white", smartRef, map[string]string{"diagramData": smart("", white), "diagramDrawing": drawn(fill("FFFFFF"), "")}, nil, hiddenTitle(HideWhite)},
		{"white on a SmartArt node Word drew unfilled by its style", smartRef, map[string]string{"diagramData": smart("", white),
			"diagramDrawing": drawn("", `<a:fillRef idx="0"><a:schemeClr val="accent1"/></a:fillRef>`)}, nil, hiddenTitle(HideWhite)},
		{"white on a SmartArt node Word drew in an accent colour", smartRef, map[string]string{"diagramData": smart("", white),
			"diagramDrawing": drawn("", `<a:fillRef idx="1"><a:schemeClr val="accent1"/></a:fillRef>`)}, shown, nil},
		{"1 pt in a SmartArt node", smartRef, map[string]string{"diagramData": smart("", `<a:rPr sz="100"/>`)}, nil, hiddenTitle(HideTiny)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := wPara("", before) + graphic(tc.data) + wPara("", after)
			doc, err := Bytes(context.Background(), "graphic.docx", wordPackage(t, body, tc.parts))
			if err != nil {
				t.Fatal(err)
			}
			paras := tc.paras
			if paras == nil {
				paras = []string{before, after}
			}
			checkHidden(t, doc, paras, tc.hidden, nil)
		})
	}
	t.Run("a hidden paragraph after a graphic stands by the paragraph before it", func(t *testing.T) {
		body := wPara("", before) + graphic(chartRef) + wPara("", after) + `<w:p><w:r><w:rPr><w:vanish/></w:rPr><w:t>` + junk + `</w:t></w:r></w:p>`
		doc, err := Bytes(context.Background(), "graphic.docx", wordPackage(t, body, map[string]string{"chart": chart(run("", seen), "", "")}))
		if err != nil {
			t.Fatal(err)
		}
		checkHidden(t, doc, []string{before, seen, after}, []hiddenWant{{text: junk, reasons: []string{HideVanish}, para: 2, offset: len(after), apart: true}}, nil)
	})
	t.Run("an embedded document drawn as an icon", func(t *testing.T) {
		inner := string(wordPackage(t, wPara("", junk)+wPara("", seen), nil))
		for _, aspect := range []string{"Icon", "Content"} {
			body := wPara("", before) + `<w:p><w:r><w:object><v:shape id="o1"><v:imagedata r:id="rIdPreview"/></v:shape>` +
				`<o:OLEObject Type="Embed" ProgID="Word.Document.12" ShapeID="o1" DrawAspect="` + aspect + `" r:id="rIdChunk"/></w:object></w:r></w:p>` + wPara("", after)
			doc, err := Bytes(context.Background(), "object.docx", chunkDOCX(t, body, map[string]string{"rIdChunk": "embedded.docx"}, map[string]string{"embedded.docx": inner}))
			if err != nil {
				t.Fatal(err)
			}
			if aspect == "Content" {
				checkHidden(t, doc, []string{before, junk, seen, after}, nil, nil)
				continue
			}
			checkHidden(t, doc, []string{before, after}, []hiddenWant{
				{text: junk, reasons: []string{HideIcon}, para: 0, offset: len(before), apart: true},
				{text: seen, reasons: []string{HideIcon}, para: 0, offset: len(before), apart: true}}, nil)
		}
	})
}

// TestDOCXBoxUnderPicture: a text box under a picture in front of it that covers it whole shows
// nothing of its text when the picture has no see-through pixels, and shows it through one that has.
func TestDOCXBoxUnderPicture(t *testing.T) {
	pngOf := func(alpha uint8) string {
		img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
		for i := range img.Pix {
			img.Pix[i] = uint8(i * 7)
		}
		for i := 3; i < len(img.Pix); i += 4 {
			img.Pix[i] = 255
		}
		img.Pix[3] = alpha // one pixel: opaque or see-through
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	anchor := func(z, graphic string) string {
		return `<w:r><w:drawing><wp:anchor xmlns:wp="` + nsWP + `" relativeHeight="` + z + `"><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH>` +
			`<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="s"/>` +
			`<a:graphic xmlns:a="` + nsA + `"><a:graphicData>` + graphic + `</a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`
	}
	box := anchor("10", `<wps:wsp xmlns:wps="`+nsWPS+`"><wps:txbx><w:txbxContent>`+wPara("Body", "junk in a box")+`</w:txbxContent></wps:txbx></wps:wsp>`)
	pic := anchor("20", `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:embed="rIdPicture"/></pic:blipFill></pic:pic>`)
	body := wPara("Body", visible1) + `<w:p>` + box + pic + `</w:p>` + wPara("Body", visible2)
	rels := `<Relationship Id="rIdPicture" Type="` + relPrefix + `image" Target="media/p.png"/>`
	for _, tc := range []struct {
		name   string
		alpha  uint8
		paras  []string
		hidden []hiddenWant
	}{
		{"an opaque picture", 255, nil, []hiddenWant{{text: "junk in a box", reasons: []string{HideCovered}, para: 0, offset: len(visible1), apart: true}}},
		{"a picture with a see-through pixel", 0, []string{visible1, "junk in a box", visible2}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkDOCXHidden(t, body, map[string]string{"relationships": rels, "word/media/p.png": pngOf(tc.alpha)}, tc.paras, tc.hidden)
		})
	}
}

// TestDOCXCellOutsideRow: a table cell outside any row (a damaged table) in a table whose style
// shades its last row is read, not taken for a damaged file (it indexed row -1 of the count).
func TestDOCXCellOutsideRow(t *testing.T) {
	body := `<w:tbl><w:tblPr><w:tblStyle w:val="Striped"/><w:tblLook w:lastRow="1"/></w:tblPr>` +
		`<w:tc>` + wPara("Body", "A cell outside any row.") + `</w:tc><w:tr><w:tc>` + wPara("Body", "A cell in a row.") + `</w:tc></w:tr></w:tbl>`
	checkDOCXHidden(t, body, nil, []string{"A cell outside any row.", "A cell in a row."}, nil)
}

// TestDOCXCoveredParagraph: a white rectangle in front of the text, placed from the paragraph it
// is anchored in, across the text and down past that paragraph's last line, covers it, and the
// next ones it covers whole; a text box's own text shows. Shorter than the paragraph, half as
// wide, behind the text, or with the text wrapped round it, it covers nothing.
func TestDOCXCoveredParagraph(t *testing.T) {
	junk := strings.Repeat("风雨云雪霜", 18) // 90 characters: three lines at 12 pt across A4's text, 43.2 pt
	short := "短短的一行字。"                  // one line, from 53.2 to 67.6 pt; visible2 from 77.6 to 92 pt
	rect := func(behind string, cx, cy int, inside string) string {
		return `<w:r><w:drawing><wp:anchor xmlns:wp="` + nsWP + `" behindDoc="` + behind + `" relativeHeight="5"><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH>` +
			`<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="` + fmt.Sprint(cx) + `" cy="` + fmt.Sprint(cy) + `"/><wp:wrapNone/><wp:docPr id="1" name="r"/>` +
			`<a:graphic xmlns:a="` + nsA + `"><a:graphicData><wps:wsp xmlns:wps="` + nsWPS + `"><wps:spPr><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></wps:spPr>` +
			inside + `</wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`
	}
	body := func(drawing string) string {
		return wPara("Body", visible1) + `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + drawing + `<w:r><w:t>` + junk + `</w:t></w:r></w:p>` + wPara("Body", short) + wPara("Body", visible2)
	}
	covered := func(texts ...string) []hiddenWant {
		var out []hiddenWant
		for _, s := range texts {
			out = append(out, hiddenWant{text: s, reasons: []string{HideCovered}, para: 0, offset: -1, apart: true})
		}
		return out
	}
	all := []string{visible1, junk, short, visible2}
	boxed := `<wps:txbx><w:txbxContent>` + wPara("Body", "Boxed words.") + `</w:txbxContent></wps:txbx>`
	for _, tc := range []struct {
		name    string
		drawing string
		paras   []string
		hidden  []hiddenWant
	}{
		{"over the paragraph", rect("0", 5274000, 600000, ""), []string{visible1, short, visible2}, covered(junk)},
		{"over it and the next", rect("0", 5274000, 1000000, ""), []string{visible1, visible2}, covered(junk, short)},
		{"a text box over it", rect("0", 5274000, 600000, boxed), []string{visible1, "Boxed words.", short, visible2},
			[]hiddenWant{{text: junk, reasons: []string{HideCovered}, para: 1, offset: -1, apart: true}}},
		{"a text box over it and the next", rect("0", 5274000, 1000000, boxed), []string{visible1, "Boxed words.", visible2},
			[]hiddenWant{{text: junk, reasons: []string{HideCovered}, para: 1, offset: -1, apart: true}, {text: short, reasons: []string{HideCovered}, para: 1, offset: -1, apart: true}}},
		{"over its first line", rect("0", 5274000, 300000, ""), all, nil},
		{"over half its width", rect("0", 2637000, 600000, ""), all, nil},
		{"behind it", rect("1", 5274000, 600000, ""), all, nil},
		{"the text wrapped round it", strings.Replace(rect("0", 5274000, 600000, ""), "<wp:wrapNone/>", `<wp:wrapSquare wrapText="bothSides"/>`, 1), all, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkDOCXHidden(t, body(tc.drawing), nil, tc.paras, tc.hidden)
		})
	}
}
