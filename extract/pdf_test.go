package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"thesischeck/internal/hostile"
)

const devsetDir = "../../shared/devset"

// squeeze removes white space and invisible format characters (U+200B…), which a PDF
// cannot carry and the truth texts sometimes contain.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}

func unpunct(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) {
			return -1
		}
		return r
	}, s)
}

type devTruth struct {
	Submissions []struct {
		Stem       string `json:"stem"`
		File       string `json:"file"`
		Paragraphs []struct {
			Label string `json:"label"`
			Text  string `json:"text"`
		} `json:"paragraphs"`
	} `json:"submissions"`
}

// TestPDFDevset checks extraction against the development set's truth: every truth
// paragraph of a PDF submission comes out as exactly one extracted paragraph, and no
// extracted paragraph is a running header or a page number.
func TestPDFDevset(t *testing.T) {
	if _, err := os.Stat(devsetDir); err != nil {
		t.Skip("development set not present")
	}
	corpora, _ := filepath.Glob(filepath.Join(devsetDir, "*", "truth.json"))
	if len(corpora) == 0 {
		t.Fatal("development set has no truth.json")
	}
	for _, tf := range corpora {
		dir := filepath.Dir(tf)
		raw, err := os.ReadFile(tf)
		if err != nil {
			t.Fatal(err)
		}
		var truth devTruth
		if err := json.Unmarshal(raw, &truth); err != nil {
			t.Fatal(err)
		}
		for _, sub := range truth.Submissions {
			if !strings.HasSuffix(sub.File, ".pdf") {
				continue
			}
			path := filepath.Join(dir, "submissions", sub.File)
			t.Run(filepath.Base(dir)+"/"+sub.File, func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				doc, err := readPDF(context.Background(), data)
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]bool{}
				for _, p := range doc.Paragraphs {
					got[squeeze(p.Text)] = true
					if pdfIsPageNumber(p.Text) {
						t.Errorf("page number left as a paragraph: %q (page %d)", p.Text, p.Page)
					}
				}
				headers := runningHeaderTexts(t, path)
				for _, p := range doc.Paragraphs {
					if headers[squeeze(p.Text)] {
						t.Errorf("running header left as a paragraph: %q", p.Text)
					}
				}
				var loose map[string]bool
				poppler := squeeze(pdftotext(t, path))
				found := 0
				for _, tp := range sub.Paragraphs {
					want := squeeze(tp.Text)
					if got[want] {
						found++
						continue
					}
					// LibreOffice sometimes drops a character when it writes the PDF (a full
					// stop hanging in the margin). When pdftotext does not find the text
					// either, the PDF lacks it: compare without punctuation.
					if !strings.Contains(poppler, want) {
						if loose == nil {
							loose = map[string]bool{}
							for s := range got {
								loose[unpunct(s)] = true
							}
						}
						if loose[unpunct(want)] {
							t.Logf("the PDF itself lacks some punctuation of %q", tp.Text)
							found++
							continue
						}
					}
					t.Errorf("truth paragraph (%s) not extracted whole: %q", tp.Label, tp.Text)
				}
				t.Logf("%s: %d/%d truth paragraphs extracted whole (%.1f%%)", sub.File, found, len(sub.Paragraphs),
					100*float64(found)/float64(len(sub.Paragraphs)))
			})
		}
	}
}

// runningHeaderTexts returns the first line of each page as pdftotext reads it when it is the
// same on at least two pages: an independent opinion on what the running header is.
func runningHeaderTexts(t *testing.T, path string) map[string]bool {
	t.Helper()
	out := pdftotext(t, path)
	count := map[string]int{}
	for _, page := range strings.Split(out, "\f") {
		for _, line := range strings.Split(page, "\n") {
			if s := squeeze(line); s != "" {
				count[s]++
				break
			}
		}
	}
	h := map[string]bool{}
	for s, n := range count {
		if n >= 2 {
			h[s] = true
		}
	}
	return h
}

// pdftotext runs poppler's pdftotext on path. It is a test dependency (poppler-utils), so a
// missing binary fails the test instead of skipping it.
func pdftotext(t testing.TB, path string, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Fatalf("pdftotext is needed by this test (apt-get install poppler-utils): %v", err)
	}
	out, err := exec.Command(bin, append(append([]string{"-enc", "UTF-8"}, args...), path, "-")...).Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", path, err)
	}
	return string(out)
}

// A PDF that pdfunite (poppler 22) made of two others: its trailer's /Size is smaller than the
// objects its xref table lists, /Root among them (the file was refused as damaged: "no pages").
// The text of both parts must come back, in order, each part on its own pages. (Paragraphs are not
// compared: the layout rules measure margins and line spacing over the whole file, and the two
// parts are set differently.)
func TestPDFMergedByPdfunite(t *testing.T) {
	bin, err := exec.LookPath("pdfunite")
	if err != nil {
		t.Fatalf("pdfunite is needed by this test (apt-get install poppler-utils): %v", err)
	}
	parts := []string{filepath.Join("testdata", "pdf", "en.pdf"), filepath.Join("testdata", "pdf", "zh.pdf")}
	merged := filepath.Join(t.TempDir(), "merged.pdf")
	if out, err := exec.Command(bin, parts[0], parts[1], merged).CombinedOutput(); err != nil {
		t.Fatalf("pdfunite: %v: %s", err, out)
	}
	doc, err := File(merged)
	if err != nil {
		t.Fatal(err)
	}
	text := func(ps []Paragraph) string {
		var b strings.Builder
		for _, p := range ps {
			b.WriteString(squeeze(p.Text))
		}
		return b.String()
	}
	enPages := pdfinfoPages(t, parts[0])
	i := slices.IndexFunc(doc.Paragraphs, func(p Paragraph) bool { return p.Page > enPages })
	if i < 0 {
		t.Fatalf("no paragraph after page %d, the last of %s", enPages, parts[0])
	}
	for k, got := range [][]Paragraph{doc.Paragraphs[:i], doc.Paragraphs[i:]} {
		want, err := File(parts[k])
		if err != nil {
			t.Fatal(err)
		}
		if g, w := text(got), text(want.Paragraphs); g != w {
			t.Errorf("%s: the merged file's pages give other text:\n got %.200q\nwant %.200q", parts[k], g, w)
		}
	}
}

// pdfinfoPages is the page count pdfinfo (poppler-utils) gives.
func pdfinfoPages(t *testing.T, path string) int {
	t.Helper()
	out, err := exec.Command("pdfinfo", path).Output()
	if err != nil {
		t.Fatalf("pdfinfo %s: %v", path, err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if n, ok := strings.CutPrefix(line, "Pages:"); ok {
			if v, err := strconv.Atoi(strings.TrimSpace(n)); err == nil {
				return v
			}
		}
	}
	t.Fatalf("pdfinfo %s: no page count", path)
	return 0
}

// pdfParagraphs on hand-made lines: a paragraph of one line that fills it, before an indented
// first line, is a paragraph of its own; a block indented as a whole, and an indented entry whose
// wrapped part ends short, are not split.
func TestPDFParagraphsIndentedLines(t *testing.T) {
	st := &pdfStats{body: 12, spacing: map[float64]float64{12: 20}, left: [2]float64{72, 72}, right: [2]float64{523, 523}}
	const margin, indent, full, short = 72.0, 96.0, 522.0, 300.0
	tests := []struct {
		name  string
		lines [][2]float64 // x0, x1 of each line, 20 pt apart
		want  []int        // lines per paragraph
	}{
		{"one-line paragraph, then a paragraph", [][2]float64{{indent, full}, {indent, full}, {margin, full}, {margin, short}}, []int{1, 3}},
		{"paragraph, paragraph", [][2]float64{{indent, full}, {margin, short}, {indent, full}, {margin, short}}, []int{2, 2}},
		{"block indented as a whole", [][2]float64{{indent, full}, {indent, full}, {indent, full}, {indent, short}}, []int{4}},
		{"indented entry wrapped once", [][2]float64{{indent, full}, {indent, short}, {margin, full}, {margin, short}}, []int{2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body []*pdfLine
			for i, x := range tt.lines {
				body = append(body, &pdfLine{page: 1, y: 700 - 20*float64(i), x0: x[0], x1: x[1], size: 12, firstW: 24,
					text: fmt.Sprintf("第%d行文字。", i+1)})
			}
			var got []int
			for _, p := range pdfParagraphs([][]*pdfLine{body}, st) {
				got = append(got, len(p.lines))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("lines per paragraph %v, want %v", got, tt.want)
			}
		})
	}
}

// Pages read on two goroutines, each with a reader of its own, give the document one reader gives;
// with no helper free the pages are read on one.
func TestPDFPagesInParallel(t *testing.T) {
	path := filepath.Join("testdata", "pdf", "long-pdftex.pdf")
	defer func(h chan struct{}) { pdfHelpers = h }(pdfHelpers)
	read := func(helpers int) *Document {
		pdfHelpers = make(chan struct{}, helpers)
		doc, err := File(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(pdfHelpers) != 0 {
			t.Errorf("%d helpers not given back", len(pdfHelpers))
		}
		return doc
	}
	one, two := read(0), read(1)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := pdfOpen(data)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := pdfPages(r)
	if err != nil {
		t.Fatal(err)
	}
	helpers, release := pdfTakeHelpers(len(pages))
	if helpers != 1 {
		t.Errorf("%d pages read with %d helpers of one free, want 1", len(pages), helpers)
	}
	if own, ok := pdfHelperPages(data, len(pages)); !ok || len(own) != len(pages) {
		t.Errorf("a helper's reader gave %d pages (ok %v), want %d", len(own), ok, len(pages))
	}
	if h, _ := pdfTakeHelpers(len(pages)); h != 0 {
		t.Errorf("%d helpers taken where none is free", h)
	}
	release()
	if h, release := pdfTakeHelpers(2*pdfParallelPages - 1); h != 0 {
		t.Errorf("%d pages read with %d helpers, want none", 2*pdfParallelPages-1, h)
		release()
	}
	if !reflect.DeepEqual(one, two) {
		t.Error("the pages read on two goroutines give another document than on one")
	}
}

// A bulleted list: each item's wrapped lines hang at its text, the bullets are not text, and the
// items of one list are one paragraph, as a plain-text file holds them; the paragraphs before and
// after it stay apart.
func TestPDFBulletedList(t *testing.T) {
	line := func(x, y float64, text string) string {
		return fmt.Sprintf("BT /F1 12 Tf %g %g Td (%s) Tj ET ", x, y, text)
	}
	item := func(y float64, text string) string {
		return line(89, y, "\x95") + line(107, y, text)
	}
	content := line(96, 700, "A paragraph before the list, long enough to be taken for body text.") +
		line(72, 686, "It ends here.") +
		item(660, "1. The first item of the list, which is long enough that it wraps") +
		line(107, 646, "onto a second line.") +
		item(620, "2. The second item.") +
		line(96, 594, "A paragraph after the list, long enough to be taken for body text.") +
		line(72, 580, "It ends here too.")
	doc, err := Bytes(context.Background(), "list.pdf", hiddenPDF(content))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range doc.Paragraphs {
		got = append(got, p.Text)
	}
	want := []string{
		"A paragraph before the list, long enough to be taken for body text. It ends here.",
		"1. The first item of the list, which is long enough that it wraps onto a second line. 2. The second item.",
		"A paragraph after the list, long enough to be taken for body text. It ends here too.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("paragraphs\n%q\nwant\n%q", got, want)
	}
}

// tally counts as a map of float64 does, NaN included, past its list too.
func TestTally(t *testing.T) {
	values := []float64{12, 12, 10.5, math.NaN(), 12, 9}
	for i := range 40 {
		values = append(values, float64(i%23), math.NaN())
	}
	var tl tally
	m := map[float64]int{}
	for _, v := range values {
		m[v]++
		if got, want := tl.add(v), m[v]; got != want {
			t.Fatalf("after %v: %d, a map says %d", v, got, want)
		}
	}
}

// unmappedPDF draws a paragraph in Helvetica and then glyphs in a composite font that has no
// ToUnicode map (Identity-H: its codes are glyph numbers, which say nothing of the characters);
// a reader sees the glyphs, the text has none of them.
func unmappedPDF(words string, glyphs int) []byte {
	var codes strings.Builder
	for i := range glyphs {
		fmt.Fprintf(&codes, "%04X", 0x21+i%90)
	}
	content := ""
	if words != "" {
		content = "BT /F1 12 Tf 72 700 Td (" + words + ") Tj ET\n"
	}
	content += "BT /F2 12 Tf 72 650 Td <" + codes.String() + "> Tj ET"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Type /Font /Subtype /Type0 /BaseFont /SimSun /Encoding /Identity-H /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2" +
			" /BaseFont /SimSun /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 500 >>] >>",
	}
	return pdfOfObjects(objs)
}

// TestPDFUnmapped: text drawn in a font that does not say which characters it draws (a paragraph
// hidden from checkers so) is warned of with its count and page; a few such glyphs among a page's
// text (a paper's mathematical symbols) are not; a PDF drawn only so is refused with that reason,
// not as a scan, unless they are as few as a scan's page number.
func TestPDFUnmapped(t *testing.T) {
	words := "Our own words about the survey and what it shows us today, in a paragraph that a reader sees."
	doc, err := Bytes(context.Background(), "unmapped.pdf", unmappedPDF(words, 80))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Paragraphs) != 1 || doc.Paragraphs[0].Text != words {
		t.Errorf("paragraphs %+v", doc.Paragraphs)
	}
	want := Warning{Kind: WarnUnmapped, Count: 80, Pages: []int{1},
		Message: "80 characters on page 1 are in fonts that do not say which characters they are (no Unicode map): their text is missing from the check"}
	if len(doc.Warnings) != 1 || !reflect.DeepEqual(doc.Warnings[0], want) {
		t.Errorf("warnings %+v, want %+v", doc.Warnings, want)
	}
	// Symbols: 12 among a page's text.
	doc, err = Bytes(context.Background(), "symbols.pdf", unmappedPDF(words, 12))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Warnings) != 0 {
		t.Errorf("a few symbols warned: %+v", doc.Warnings)
	}
	_, err = Bytes(context.Background(), "only.pdf", unmappedPDF("", 80))
	if !errors.Is(err, ErrUnmapped) || errors.Is(err, ErrNoText) || !strings.HasSuffix(err.Error(), "(no Unicode map): 80 characters") {
		t.Errorf("a PDF drawn only in such a font: %v", err)
	}
	// A scan whose page number is in such a font is a scan.
	if _, err = Bytes(context.Background(), "scan.pdf", unmappedPDF("", 3)); !errors.Is(err, ErrNoText) {
		t.Errorf("three such glyphs and no text: %v", err)
	}
}

// TestPDFAnnotationText: a paragraph shown in a text box annotation (Acrobat's Typewriter, Fill &
// Sign) is read where it stands, after the page's own text; a hidden one is not.
func TestPDFAnnotationText(t *testing.T) {
	own := "Our own introduction to the survey of the coast, written for this thesis."
	boxed := []string{"Tidal flats look empty at first glance, a wide expanse of grey mud", "that the sea covers and uncovers twice a day."}
	pdfWith := func(flags int) []byte {
		ap := fmt.Sprintf("BT /F1 10 Tf 12 TL 4 30 Td (%s) Tj T* (%s) Tj ET", boxed[0], boxed[1])
		content := "BT /F1 11 Tf 72 740 Td (" + own + ") Tj ET"
		return pdfOfObjects([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Annots [6 0 R] >>",
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
			"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
			fmt.Sprintf("<< /Type /Annot /Subtype /FreeText /F %d /Rect [72 660 540 700] /AP << /N 7 0 R >> >>", flags),
			fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 468 40] /Resources << /Font << /F1 5 0 R >> >> /Length %d >>\nstream\n%s\nendstream", len(ap), ap),
		})
	}
	doc, err := Bytes(context.Background(), "typewriter.pdf", pdfWith(4)) // 4: Print
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, p := range doc.Paragraphs {
		texts = append(texts, p.Text)
	}
	if got := strings.Join(texts, "\n"); !strings.Contains(got, own) || !strings.Contains(got, boxed[0]+" "+boxed[1]) {
		t.Errorf("paragraphs:\n%s", got)
	}
	if doc, err = Bytes(context.Background(), "hidden.pdf", pdfWith(2)); err != nil || len(doc.Paragraphs) != 1 || doc.Paragraphs[0].Text != own {
		t.Errorf("a hidden annotation: %+v %v", doc, err)
	}
}

// TestPDFAnnotationWithoutAppearance: a text box with no appearance stream shows its /Contents,
// and a text field its value /V, as viewers draw them (Poppler, Ghostscript and Acrobat make the
// appearance), wrapped in the annotation's rectangle in /DA's size; a single-line field shows one
// line. Both read as nothing before.
func TestPDFAnnotationWithoutAppearance(t *testing.T) {
	own := "Our own introduction to the survey of the coast, written for this thesis."
	boxed := "Tidal flats look empty at first glance, a wide expanse of grey mud that the sea covers and uncovers twice a day. " +
		"Yet a single square metre of that mud can hold thousands of small worms, snails and shellfish."
	for _, tt := range []struct {
		name, annot, want string
	}{
		{"a text box", "/Subtype /FreeText /Rect [72 500 540 700] /DA (/Helv 11 Tf 0 g) /Contents (" + boxed + ")", boxed},
		{"a multiline text field", "/Subtype /Widget /FT /Tx /Ff 4096 /Rect [72 500 540 700] /DA (/Helv 11 Tf 0 g) /V (" + boxed + ")", boxed},
		{"a single-line text field", "/Subtype /Widget /FT /Tx /Rect [72 680 540 700] /DA (/Helv 11 Tf 0 g) /V (" + boxed + ")",
			"Tidal flats look empty at first glance, a wide expanse of grey mud that the sea covers and"},
		{"a field's value inherited, in white", "/Subtype /Widget /Parent 7 0 R /Ff 4096 /Rect [72 500 540 700] /DA (/Helv 11 Tf 1 g)", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			content := "BT /F1 11 Tf 72 740 Td (" + own + ") Tj ET"
			doc, err := Bytes(context.Background(), "annot.pdf", pdfOfObjects([]string{
				"<< /Type /Catalog /Pages 2 0 R >>",
				"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
				"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Annots [6 0 R] >>",
				fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
				"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
				"<< /Type /Annot /F 4 " + tt.annot + " >>",
				"<< /FT /Tx /T (body) /V (" + boxed + ") >>",
			}))
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, p := range doc.Paragraphs {
				texts = append(texts, p.Text)
			}
			want := []string{own}
			if tt.want != "" {
				want = append(want, tt.want)
			}
			if !slices.Equal(texts, want) {
				t.Errorf("paragraphs %q, want %q", texts, want)
			}
			if tt.want == "" && (len(doc.Warnings) == 0 || doc.Warnings[0].Kind != WarnHidden) {
				t.Errorf("white text in a field: warnings %+v", doc.Warnings)
			}
		})
	}
}

// TestPDFExpandedSpacing: text set with expanded character spacing (Tc, as Word's Expanded spacing
// exports) reads as its words, with and without space glyphs, on a full line and on a short last
// line; before, every gap of 0.2 em or more was a space ("T i d a l f l a t s"). Text without
// such spacing is read as before.
func TestPDFExpandedSpacing(t *testing.T) {
	const words = "Tidal flats look empty at first glance, a wide expanse of grey mud"
	tj := "[(Tidal) -500 (flats) -500 (look) -500 (empty) -500 (at) -500 (first) -500 (glance,) -500 (a) -500 (wide) -500 (expanse) -500 (of) -500 (grey) -500 (mud)] TJ"
	for _, tt := range []struct{ name, content, want string }{
		{"space glyphs, 3 pt at 10", "BT /F1 10 Tf 3 Tc 72 700 Td (" + words + ") Tj 0 -14 Td (to feed.) Tj ET", words + " to feed."},
		{"word gaps by position, 2 pt at 10", "BT /F1 10 Tf 2 Tc 72 700 Td " + tj + " ET", words},
		{"no spacing", "BT /F1 10 Tf 72 700 Td (" + words + ") Tj 0 -14 Td (to feed.) Tj ET", words + " to feed."},
		{"no spacing, word gaps by position", "BT /F1 10 Tf 72 700 Td " + tj + " ET", words},
	} {
		doc, err := Bytes(context.Background(), "spaced.pdf", hostile.PDF([]hostile.Stream{{Data: []byte(tt.content)}}, nil))
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Paragraphs) != 1 || doc.Paragraphs[0].Text != tt.want {
			t.Errorf("%s: paragraphs %+v, want %q", tt.name, doc.Paragraphs, tt.want)
		}
	}
}

// TestPDFCondensedSpaces: a space put inside a word and condensed to nothing, as Word exports
// Condensed spacing (Tc on the space glyph) or as a kern takes back (TJ), is no word break: to a
// reader the word is whole. Condensed past its own width, the space draws the next letter left of
// where it starts, which sorted it after that letter: "Tid al fla ts" before. Text condensed as a
// whole by a little keeps its word spaces.
func TestPDFCondensedSpaces(t *testing.T) {
	split := func(space string) string {
		var b strings.Builder
		b.WriteString("BT /F1 10 Tf 72 700 Td ")
		for i, w := range strings.Fields("Tidal flats look empty at first glance") {
			if i > 0 {
				b.WriteString("( ) Tj ")
			}
			if len(w) > 4 {
				b.WriteString("(" + w[:3] + ") Tj " + space + " (" + w[3:] + ") Tj ")
			} else {
				b.WriteString("(" + w + ") Tj ")
			}
		}
		return b.String() + "ET"
	}
	for _, tt := range []struct{ name, content, want string }{
		{"Tc to a hair", split("-2.5 Tc ( ) Tj 0 Tc"), "Tidal flats look empty at first glance"},
		{"Tc past the space's width", split("-3 Tc ( ) Tj 0 Tc"), "Tidal flats look empty at first glance"},
		{"far past it", split("-6 Tc ( ) Tj 0 Tc"), "Tidal flats look empty at first glance"},
		{"a kern taking it back", split("[( ) 250] TJ"), "Tidal flats look empty at first glance"},
		{"a space condensed a little", split("-0.5 Tc ( ) Tj 0 Tc"), "Tid al fla ts look emp ty at fir st gla nce"},
		{"all condensed by 0.5 pt", "BT /F1 10 Tf -0.5 Tc 72 700 Td (Tidal flats look empty at first glance) Tj ET", "Tidal flats look empty at first glance"},
	} {
		doc, err := Bytes(context.Background(), "condensed.pdf", hostile.PDF([]hostile.Stream{{Data: []byte(tt.content)}}, nil))
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Paragraphs) != 1 || doc.Paragraphs[0].Text != tt.want {
			t.Errorf("%s: paragraphs %+v, want %q", tt.name, doc.Paragraphs, tt.want)
		}
	}
}

// TestPDFTurnedText: text drawn a quarter round (to be shown turned back by /Rotate) is read as its
// lines, whichever way it runs; before, each line was a column read one letter a line. So is text
// drawn turned a few degrees (a skewed page), which read as pieces of a few letters, and text drawn
// upside down, which read backwards.
func TestPDFTurnedText(t *testing.T) {
	const one, two = "Tidal flats look empty at first glance, a wide expanse", "of grey mud that the sea covers twice a day."
	text := "BT /F1 10 Tf 14 TL 72 540 Td (" + one + ") Tj T* (" + two + ") Tj ET"
	turned := func(deg, ex, ey float64) string {
		r := deg * math.Pi / 180
		return fmt.Sprintf("%.6f %.6f %.6f %.6f %.1f %.1f", math.Cos(r), math.Sin(r), -math.Sin(r), math.Cos(r), ex, ey)
	}
	for _, tt := range []struct{ name, cm string }{
		{"across", "1 0 0 1 0 0"},
		{"up", "0 1 -1 0 612 0"},
		{"down", "0 -1 1 0 0 792"},
		{"upside down", "-1 0 0 -1 612 792"},
		{"upside down and turned 2°", turned(182, 612, 792)},
		{"turned 1°", turned(1, 0, 0)},
		{"turned 4°", turned(4, 40, -20)},
		{"turned -3°", turned(-3, 0, 30)},
		{"turned 10°", turned(10, 100, -100)},
		{"up and turned 3°", turned(93, 612, 0)},
	} {
		doc, err := Bytes(context.Background(), "turned.pdf", hostile.PDF([]hostile.Stream{{Data: []byte("q " + tt.cm + " cm " + text + " Q")}}, nil))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(doc.Paragraphs) != 1 || doc.Paragraphs[0].Text != one+" "+two {
			t.Errorf("%s: paragraphs %+v", tt.name, doc.Paragraphs)
		}
	}
}

// TestPDFLinesDrawnBackwards: upright text drawn from the end of each line to its start, glyph by
// glyph, is read in its places, not taken for a page drawn upside down (it read backwards when the
// steps from glyph to glyph said which way a page runs back).
func TestPDFLinesDrawnBackwards(t *testing.T) {
	const line = "Tidal flats look empty at first glance yet they feed more birds"
	read := func(backwards bool) []string {
		var b strings.Builder
		for i := 0; i < 3; i++ {
			for j := range line {
				k := j
				if backwards {
					k = len(line) - 1 - j
				}
				fmt.Fprintf(&b, "BT /F1 11 Tf 1 0 0 1 %.2f %d Tm (%c) Tj ET ", 72+float64(k)*5.5, 600-14*i, line[k])
			}
		}
		doc, err := Bytes(context.Background(), "backwards.pdf", hostile.PDF([]hostile.Stream{{Data: []byte(b.String())}}, nil))
		if err != nil {
			t.Fatal(err)
		}
		return texts(doc)
	}
	if forwards, backwards := read(false), read(true); !slices.Equal(backwards, forwards) || strings.Contains(strings.Join(backwards, " "), "sdrib") {
		t.Errorf("drawn backwards %.80q, forwards %.80q", backwards, forwards)
	}
}

// TestPDFWavyLines: lines each drawn turned by an angle of their own, and letters each raised or
// lowered by a few points, are read as the lines a reader reads; before, they read as pieces of a
// few letters. A superscript stays where it is.
func TestPDFWavyLines(t *testing.T) {
	lines := []string{"Tidal flats look empty at first glance, a wide expanse of grey mud", "that the sea covers and uncovers twice a day, yet they teem",
		"with worms, snails and shellfish that feed more birds than", "any other coast, and the birds come back to them every spring."}
	var turned, raised strings.Builder
	for i, l := range lines {
		a := []float64{3, 1, 4, -2}[i] * math.Pi / 180 // the lines do not cross
		y := 600 - 24*float64(i)
		fmt.Fprintf(&turned, "BT /F1 11 Tf %.5f %.5f %.5f %.5f 72 %.1f Tm (%s) Tj ET ", math.Cos(a), math.Sin(a), -math.Sin(a), math.Cos(a), y, l)
		fmt.Fprintf(&raised, "BT /F1 11 Tf 72 %.1f Td ", y)
		for k, r := range l {
			fmt.Fprintf(&raised, "%d Ts (%c) Tj ", []int{3, -3, 1, -2, 0, 2, -1}[k%7], r)
		}
		raised.WriteString("ET ")
	}
	for _, tt := range []struct{ name, content string }{
		{"lines turned each their own way", turned.String()},
		{"letters raised and lowered", raised.String()},
	} {
		doc, err := Bytes(context.Background(), "wavy.pdf", hostile.PDF([]hostile.Stream{{Data: []byte(tt.content)}}, nil))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := texts(doc); strings.Join(got, " ") != strings.Join(lines, " ") {
			t.Errorf("%s: paragraphs %q", tt.name, got)
		}
	}
	// A footnote mark raised over its line is still a mark (left out of the line's text), not put
	// on the line.
	sup := "BT /F1 11 Tf 72 600 Td (" + lines[0] + ") Tj 4 Ts /F1 7 Tf (12) Tj 0 Ts /F1 11 Tf ( and more words after the mark.) Tj ET"
	doc, err := Bytes(context.Background(), "mark.pdf", hostile.PDF([]hostile.Stream{{Data: []byte(sup)}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(doc); !slices.Equal(got, []string{lines[0] + " and more words after the mark."}) {
		t.Errorf("a footnote mark: paragraphs %q", got)
	}
}

func texts(doc *Document) []string {
	var out []string
	for _, p := range doc.Paragraphs {
		out = append(out, p.Text)
	}
	return out
}

// A PDF encrypted with restrictions only (no password to open it: Acrobat's "restrict editing",
// many libraries' downloads) reads as the plain file does, whatever the cipher: RC4 of 40 bits
// (read as noise, "no text layer", before the object keys were cut to their length) and 128,
// AES-128, and AES-256 of revisions 5 and 6 (refused as "password protected" before). One that
// asks for a password to open is refused so.
func TestPDFEncryptedRestrictionsOnly(t *testing.T) {
	bin, err := exec.LookPath("qpdf")
	if err != nil {
		t.Fatalf("qpdf is needed by this test (apt-get install qpdf): %v", err)
	}
	src := filepath.Join("testdata", "pdf", "zh.pdf")
	plain, err := File(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		err  error
	}{
		{"RC4 40", []string{"--allow-weak-crypto", "--encrypt", "", "owner", "40", "--extract=n", "--"}, nil},
		{"RC4 128", []string{"--allow-weak-crypto", "--encrypt", "", "owner", "128", "--use-aes=n", "--extract=n", "--"}, nil},
		{"AES-128", []string{"--encrypt", "", "owner", "128", "--use-aes=y", "--extract=n", "--"}, nil},
		{"AES-256 R6", []string{"--encrypt", "", "owner", "256", "--extract=n", "--"}, nil},
		{"AES-256 R5", []string{"--encrypt", "", "owner", "256", "--force-R5", "--extract=n", "--"}, nil},
		{"AES-256 with a password to open", []string{"--encrypt", "secret", "owner", "256", "--"}, ErrEncrypted},
		{"RC4 40 with a password to open", []string{"--allow-weak-crypto", "--encrypt", "secret", "owner", "40", "--"}, ErrEncrypted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "encrypted.pdf")
			if msg, err := exec.Command(bin, append(tc.args, src, out)...).CombinedOutput(); err != nil {
				t.Fatalf("qpdf: %v: %s", err, msg)
			}
			doc, err := File(out)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(doc.Paragraphs, plain.Paragraphs) {
				t.Errorf("%d paragraphs, the plain file %d; first %.60q", len(doc.Paragraphs), len(plain.Paragraphs), doc.Paragraphs[0].Text)
			}
		})
	}
}
