package extract

import "testing"

// TestDOCXWordArt: the text of VML WordArt is read where it stands, in its line or as a paragraph
// of its own when its shape floats, and is hidden when its shape is, when it is drawn in the page's
// colour with no outline, or when its shape is a point high.
func TestDOCXWordArt(t *testing.T) {
	const v = `xmlns:v="urn:schemas-microsoft-com:vml"`
	art := func(shapeAttrs, pathAttrs, text string) string {
		return `<w:r><w:pict ` + v + `><v:shape type="#_x0000_t136" ` + shapeAttrs + `><v:textpath ` + pathAttrs +
			` style="font-family:&quot;SimSun&quot;" string="` + text + `"/></v:shape></w:pict></w:r>`
	}
	para := func(runs string) string { return `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + runs + `</w:p>` }
	const a, b, c = "Deep learning ", "is a branch of machine learning", " built on neural networks."
	line := func(shapeAttrs, pathAttrs string) string {
		return para(wRun("", a) + art(shapeAttrs, pathAttrs, b) + wRun("", c))
	}
	inline := `style="width:300pt;height:15pt" fillcolor="black" stroked="f"`
	hiddenAt := func(reasons ...string) []hiddenWant {
		return []hiddenWant{{text: b, reasons: reasons, para: 0, offset: len(a)}}
	}
	tests := []struct {
		name   string
		body   string
		paras  []string
		hidden []hiddenWant
	}{
		{"in its line", line(inline, ""), []string{a + b + c}, nil},
		{"floating: a paragraph of its own", line(`style="position:absolute;margin-left:10pt;width:300pt;height:15pt" fillcolor="black"`, ""),
			[]string{b, a + c}, nil},
		{"VML's white fill with its black outline", line(`style="width:300pt;height:15pt"`, ""), []string{a + b + c}, nil},
		{"white letters on a white page", line(`style="width:300pt;height:15pt" fillcolor="white" stroked="f"`, ""),
			[]string{a + c}, hiddenAt(HideWhite)},
		{"white letters outlined in white", line(`style="width:300pt;height:15pt" fillcolor="#FFFFFF" strokecolor="white"`, ""),
			[]string{a + c}, hiddenAt(HideWhite)},
		{"no fill and no outline", line(`style="width:300pt;height:15pt" filled="f" stroked="f"`, ""),
			[]string{a + c}, hiddenAt(HideWhite)},
		{"a shape a point high", line(`style="width:300pt;height:1pt" fillcolor="black"`, ""),
			[]string{a + c}, hiddenAt(HideTiny)},
		{"a hidden shape", line(`style="visibility:hidden;width:300pt;height:15pt" fillcolor="black"`, ""),
			[]string{a + c}, hiddenAt(HideShape)},
		{"a text path turned off", line(inline, `on="f"`), []string{a + c}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkDOCXHidden(t, tt.body, nil, tt.paras, tt.hidden)
		})
	}
}
