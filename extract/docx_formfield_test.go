package extract

import (
	"context"
	"testing"
)

// TestDOCXDropDown: a drop-down form field shows its chosen entry, which Word writes as no result:
// the entry is read where the field stands (a copy set as drop-downs' entries read 0.0 %).
func TestDOCXDropDown(t *testing.T) {
	dropDown := func(rpr, list, result string) string {
		r := func(inner string) string { return `<w:r><w:rPr>` + rpr + `</w:rPr>` + inner + `</w:r>` }
		s := r(`<w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Dropdown1"/><w:enabled/><w:ddList>`+list+`</w:ddList></w:ffData></w:fldChar>`) +
			r(`<w:instrText xml:space="preserve"> FORMDROPDOWN </w:instrText>`)
		if result != "" {
			s += r(`<w:fldChar w:fldCharType="separate"/>`) + r(`<w:t>`+result+`</w:t>`)
		}
		return s + r(`<w:fldChar w:fldCharType="end"/>`)
	}
	para := func(runs string) string {
		return `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + wRun("", "Students who copy ") + runs + wRun("", " hide words.") + `</w:p>`
	}
	entries := `<w:listEntry w:val="a paragraph"/><w:listEntry w:val="another paragraph"/>`
	for _, tt := range []struct {
		name, body string
		want       []string
		hidden     []hiddenWant
	}{
		{"the first entry", para(dropDown("", entries, "")), []string{"Students who copy a paragraph hide words."}, nil},
		{"the entry chosen", para(dropDown("", `<w:result w:val="1"/>`+entries, "")), []string{"Students who copy another paragraph hide words."}, nil},
		{"the default entry", para(dropDown("", `<w:default w:val="1"/>`+entries, "")), []string{"Students who copy another paragraph hide words."}, nil},
		{"a result written is read instead", para(dropDown("", entries, "a result")), []string{"Students who copy a result hide words."}, nil},
		{"a hidden field", para(dropDown(`<w:vanish/>`, entries, "")), []string{"Students who copy  hide words."},
			[]hiddenWant{{text: "a paragraph", reasons: []string{HideVanish}, para: 0, offset: -1}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkDOCXHidden(t, tt.body, nil, tt.want, tt.hidden)
		})
	}
}

// TestDOCXCustomMark: a footnote reference's custom mark (a symbol or two) is not body text; a
// "mark" of words is, as Word shows it.
func TestDOCXCustomMark(t *testing.T) {
	const fn = `<w:footnotes ` + wNS + `><w:footnote w:id="1"><w:p><w:r><w:t>A note.</w:t></w:r></w:p></w:footnote></w:footnotes>`
	mark := func(rpr, text string) string {
		return `<w:r><w:rPr>` + rpr + `</w:rPr><w:footnoteReference w:customMarkFollows="1" w:id="1"/><w:t xml:space="preserve">` + text + `</w:t></w:r>`
	}
	para := func(runs string) string {
		return `<w:p>` + wRun("", "Students who copy ") + runs + wRun("", " hide words.") + `</w:p>`
	}
	for _, tt := range []struct {
		name, body string
		want       []string
		hidden     []hiddenWant
	}{
		{"a symbol", para(mark("", "*")), []string{"Students who copy  hide words."}, nil},
		{"注1", para(mark("", "注1")), []string{"Students who copy  hide words."}, nil},
		{"a copy as a mark", para(mark("", "a paragraph")), []string{"Students who copy a paragraph hide words."}, nil},
		{"three letters", para(mark("", "one")), []string{"Students who copy one hide words."}, nil},
		{"a white one", para(mark(`<w:color w:val="FFFFFF"/>`, "a paragraph")), []string{"Students who copy  hide words."},
			[]hiddenWant{{text: "a paragraph", reasons: []string{HideWhite}, para: 0, offset: -1}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Bytes(context.Background(), "mark.docx", wordPackage(t, tt.body, map[string]string{"footnotes": fn}))
			if err != nil {
				t.Fatal(err)
			}
			checkHidden(t, doc, tt.want, tt.hidden, nil)
		})
	}
}
