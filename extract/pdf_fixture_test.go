package extract

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fodtPara is a paragraph as the LibreOffice source of a test PDF writes it.
type fodtPara struct {
	text    string
	heading bool
	notes   []string
}

// fodtSource is what a .fodt says the PDF made from it must give back.
type fodtSource struct {
	paras  []fodtPara
	header string // the running header's text
}

// readFODT reads the body paragraphs (text:p, text:h) of a flat ODF document, with their
// footnotes apart, and the running header of its master page.
func readFODT(t *testing.T, path string) fodtSource {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const textNS = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
	const styleNS = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
	var src fodtSource
	var cur *fodtPara
	var b, note strings.Builder
	const officeNS = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
	inBody, inHeader, inNote, inCitation := false, false, false, false
	dec := xml.NewDecoder(f)
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch {
			case e.Name.Space == officeNS && e.Name.Local == "text":
				inBody = true
			case e.Name.Space == styleNS && e.Name.Local == "header":
				inHeader = true
			case e.Name.Space == textNS && e.Name.Local == "note":
				inNote = true
				note.Reset()
			case e.Name.Space == textNS && e.Name.Local == "note-citation":
				inCitation = true
			case e.Name.Space == textNS && (e.Name.Local == "p" || e.Name.Local == "h") && !inNote && inBody:
				// The title counts as a heading: it is not running text.
				cur = &fodtPara{heading: e.Name.Local == "h"}
				for _, a := range e.Attr {
					if a.Name.Local == "style-name" && a.Value == "Title" {
						cur.heading = true
					}
				}
				b.Reset()
			case e.Name.Space == textNS && e.Name.Local == "s":
				if inNote {
					note.WriteByte(' ')
				} else {
					b.WriteByte(' ')
				}
			}
		case xml.EndElement:
			switch {
			case e.Name.Space == officeNS && e.Name.Local == "text":
				inBody = false
			case e.Name.Space == styleNS && e.Name.Local == "header":
				inHeader = false
			case e.Name.Space == textNS && e.Name.Local == "note":
				inNote = false
				cur.notes = append(cur.notes, strings.TrimSpace(note.String()))
			case e.Name.Space == textNS && e.Name.Local == "note-citation":
				inCitation = false
			case e.Name.Space == textNS && (e.Name.Local == "p" || e.Name.Local == "h") && !inNote && cur != nil:
				cur.text = strings.TrimSpace(b.String())
				src.paras = append(src.paras, *cur)
				cur = nil
			}
		case xml.CharData:
			switch {
			case inHeader:
				src.header += string(e)
			case inCitation:
			case inNote:
				note.Write(e)
			case cur != nil:
				b.Write(e)
			}
		}
	}
	if len(src.paras) == 0 || src.header == "" {
		t.Fatalf("%s: no paragraphs or no running header read", path)
	}
	return src
}

// TestPDFThesisFixtures checks PDFs that LibreOffice made from the .fodt sources beside them
// (testdata/pdf/make.sh): a running header, a page-number footer, numbered chapter headings and
// a footnote, in Chinese and in English. Every source paragraph must come back whole, in order,
// on the page pdftotext finds it on; no header, footer or page number may come out as a
// paragraph; the footnote is a note of the paragraph that cites it, not text.
func TestPDFThesisFixtures(t *testing.T) {
	pageNumber := regexp.MustCompile(`^(第\s*\d+\s*页|Page \d+ of \d+|\d+)$`)
	for _, name := range []string{"zh", "en"} {
		t.Run(name, func(t *testing.T) {
			src := readFODT(t, filepath.Join("testdata", "pdf", name+".fodt"))
			pdfPath := filepath.Join("testdata", "pdf", name+".pdf")
			doc, err := File(pdfPath)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range doc.Paragraphs {
				got = append(got, p.Text)
				if pageNumber.MatchString(strings.TrimSpace(p.Text)) {
					t.Errorf("page number or footer left as a paragraph: %q", p.Text)
				}
				for _, n := range src.paras {
					for _, note := range n.notes {
						if strings.Contains(squeeze(p.Text), squeeze(note)[:min(len(squeeze(note)), 30)]) {
							t.Errorf("footnote text inside paragraph %q", p.Text)
						}
					}
				}
			}
			if len(doc.Paragraphs) != len(src.paras) {
				t.Fatalf("%d paragraphs, want %d:\n%s", len(doc.Paragraphs), len(src.paras), strings.Join(got, "\n"))
			}
			headerSeen := 0
			chapter := ""
			pageOf := pdfPageFinder(t, pdfPath)
			for i, want := range src.paras {
				p := doc.Paragraphs[i]
				if squeeze(p.Text) != squeeze(want.text) {
					t.Errorf("paragraph %d = %q\nwant %q", i, p.Text, want.text)
					continue
				}
				if !strings.ContainsFunc(want.text, pdfWide) && p.Text != want.text {
					// Latin text: the words must stay apart exactly as written.
					t.Errorf("paragraph %d spacing: %q\nwant %q", i, p.Text, want.text)
				}
				if p.Text == src.header {
					headerSeen++
				}
				if p.Heading != want.heading {
					t.Errorf("paragraph %d %q: heading %v, want %v", i, p.Text, p.Heading, want.heading)
				}
				if want.heading && i > 0 {
					chapter = want.text
				}
				if !want.heading && i > 0 && p.Chapter != chapter {
					t.Errorf("paragraph %d: chapter %q, want %q", i, p.Chapter, chapter)
				}
				if fmt.Sprint(p.Notes) != fmt.Sprint(want.notes) && !(len(p.Notes) == 0 && len(want.notes) == 0) {
					t.Errorf("paragraph %d: notes %q, want %q", i, p.Notes, want.notes)
				}
				if page := pageOf(want.text); p.Page != page {
					t.Errorf("paragraph %d %q: page %d, want %d", i, p.Text[:min(len(p.Text), 30)], p.Page, page)
				}
			}
			// The English title reads like the running header; it must come out once, as
			// the title, and the header on every page not at all.
			if headerSeen > 1 {
				t.Errorf("running header %q came out %d times", src.header, headerSeen)
			}
			if got, want := doc.Paragraphs[len(doc.Paragraphs)-1].Page, 3; got != want {
				t.Errorf("last paragraph on page %d, want %d", got, want)
			}
		})
	}
}

// pdfPageFinder returns the page (by pdftotext, page by page) on which a paragraph's first
// characters stand: an independent opinion on the pages the extractor reports.
func pdfPageFinder(t *testing.T, path string) func(text string) int {
	t.Helper()
	pages := strings.Split(pdftotext(t, path), "\f")
	for i := range pages {
		pages[i] = squeeze(pages[i])
	}
	return func(text string) int {
		head := []rune(squeeze(text))
		head = head[:min(len(head), 12)]
		for i, p := range pages {
			if strings.Contains(p, string(head)) {
				return i + 1
			}
		}
		return 0
	}
}
