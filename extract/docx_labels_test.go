package extract

import (
	"context"
	"testing"
)

// TestDOCXListLabels: a list label with words of its own is read before its paragraph's text (a
// copy typed as number formats read 0.0 %), formatted as Word formats it; numbers, bullets and
// brackets are not read into body text.
func TestDOCXListLabels(t *testing.T) {
	const copy1 = "深度学习是机器学习的一个分支，它以人工神经网络为架构。"
	level := func(text, rpr string) string {
		return `<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="` + text + `"/><w:rPr>` + rpr + `</w:rPr></w:lvl>`
	}
	numbering := func(lvl string, override string) string {
		return `<w:numbering ` + wNS + `><w:abstractNum w:abstractNumId="1">` + lvl + `</w:abstractNum>` +
			`<w:num w:numId="1"><w:abstractNumId w:val="1"/>` + override + `</w:num></w:numbering>`
	}
	item := func(markRPr, text string) string {
		return `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr><w:rPr>` + markRPr + `</w:rPr></w:pPr>` +
			`<w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
	}
	for _, tt := range []struct {
		name, numbering, body string
		want                  []string
		hidden                []hiddenWant
	}{
		{"a copy as the number format of an empty item", numbering(level(copy1, ""), ""), item("", " "), []string{copy1}, nil},
		{"a label with a word", numbering(level("Step %1:", ""), ""), item("", "mix the samples."), []string{"Step 1: mix the samples."}, nil},
		{"第%1条", numbering(level("第%1条", ""), ""), item("", "本办法适用于全校学生。"), []string{"第1条 本办法适用于全校学生。"}, nil},
		{"a number is not read", numbering(level("%1.", ""), ""), item("", "mix the samples."), []string{"mix the samples."}, nil},
		{"nor a bracketed one", numbering(level("[%1]", ""), ""), item("", "Smith, J. (2020). A book."), []string{"Smith, J. (2020). A book."}, nil},
		{"a list's own level", numbering(level("%1.", ""), `<w:lvlOverride w:ilvl="0">`+level(copy1, "")+`</w:lvlOverride>`), item("", ""), []string{copy1}, nil},
		{"white by its level", numbering(level("junk words %1", `<w:color w:val="FFFFFF"/>`), ""), item("", "mix the samples."),
			[]string{"mix the samples."}, []hiddenWant{{text: "junk words 1", reasons: []string{HideWhite}, para: 0, offset: 0}}},
		{"hidden by its paragraph mark", numbering(level("junk words %1", ""), ""), item(`<w:vanish/>`, "mix the samples."),
			[]string{"mix the samples."}, []hiddenWant{{text: "junk words 1", reasons: []string{HideVanish}, para: 0, offset: 0}}},
		{"its mark's white undone by its level", numbering(level("Step %1:", `<w:color w:val="000000"/>`), ""), item(`<w:color w:val="FFFFFF"/>`, "mix the samples."),
			[]string{"Step 1: mix the samples."}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Bytes(context.Background(), "list.docx", wordPackage(t, tt.body, map[string]string{"numbering": tt.numbering}))
			if err != nil {
				t.Fatal(err)
			}
			checkHidden(t, doc, tt.want, tt.hidden, nil)
		})
	}
}
