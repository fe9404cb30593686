package extract

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"thesischeck/internal/screenshot"
)

// Lines of a copied paragraph, as a screenshot of it shows them.
var (
	englishLines = []string{
		"The results of the survey show that students who",
		"plan their revision early score higher on average,",
		"and that the effect holds across all four faculties",
		"even after controlling for prior attainment and age.",
		"We discuss the implications for teaching below.",
	}
	chineseLines = []string{
		"随着互联网技术的快速发展，网络教育已经成为高等",
		"教育的重要组成部分，越来越多的高校开始建设在线",
		"课程平台，学生可以随时随地进行学习，这种学习方",
		"式打破了时间和空间的限制，提高了学习的效率。",
	}
)

// chartPicture is a line chart: axes, a curve, tick labels and a title.
func chartPicture() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 600, 400))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	for y := 30; y < 360; y++ {
		img.Set(50, y, color.Black)
	}
	for x := 50; x < 580; x++ {
		img.Set(x, 360, color.Black)
		y := 200 + int(120*math.Sin(float64(x)/40))
		img.Set(x, y, color.RGBA{200, 0, 0, 255})
		img.Set(x, y+1, color.RGBA{200, 0, 0, 255})
	}
	d := font.Drawer{Dst: img, Src: image.Black, Face: basicfont.Face7x13}
	for i, label := range []string{"0", "10", "20", "30", "40", "50"} {
		d.Dot = fixed.P(45+i*100, 380)
		d.DrawString(label)
	}
	d.Dot = fixed.P(200, 20)
	d.DrawString("Figure 3. Growth of enrolment")
	return img
}

// photoPicture is a photograph's smooth shades with noise: no ground of one colour.
func photoPicture() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 500, 350))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range 350 {
		for x := range 500 {
			v := uint8(60 + x/4 + y/5 + r.IntN(30))
			img.Set(x, y, color.RGBA{v, v / 2, 255 - v, 255})
		}
	}
	return img
}

// flowchartPicture is three boxes with a word each, joined by arrows.
func flowchartPicture() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 400, 420))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	d := font.Drawer{Dst: img, Src: image.Black, Face: basicfont.Face7x13}
	for i, word := range []string{"Collect data", "Clean and code", "Fit the model"} {
		top := 20 + i*140
		for x := 100; x <= 300; x++ {
			img.Set(x, top, color.Black)
			img.Set(x, top+60, color.Black)
		}
		for y := top; y <= top+60; y++ {
			img.Set(100, y, color.Black)
			img.Set(300, y, color.Black)
		}
		d.Dot = fixed.P(150, top+35)
		d.DrawString(word)
		if i < 2 {
			for y := top + 60; y < top+140; y++ {
				img.Set(200, y, color.Black)
			}
		}
	}
	return img
}

func chinese(t *testing.T, size float64) *image.RGBA {
	t.Helper()
	img, err := screenshot.Chinese(chineseLines, size)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	b, err := screenshot.PNG(img)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func picturePDF(t *testing.T, over string, pictures ...[]byte) []byte {
	t.Helper()
	b, err := screenshot.PDF(strings.Repeat("Our own words about the survey and what it shows. ", 12), over, pictures...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestShowsText: pictures of lines of text (English, Chinese, dark mode, a scan's grey) show text;
// a chart, a photograph, a flow chart and a single line do not.
func TestShowsText(t *testing.T) {
	grey := screenshot.Picture(englishLines, basicfont.Face7x13, color.Gray{70}, color.Gray{225}, 420, 18)
	for i := range grey.Pix { // a scan's noise
		grey.Pix[i] = uint8(min(255, max(0, int(grey.Pix[i])+(i*7919%17)-8)))
	}
	cases := []struct {
		name string
		img  image.Image
		want bool
	}{
		{"English", screenshot.Latin(englishLines), true},
		{"Chinese", chinese(t, 18), true},
		{"dark mode", screenshot.Picture(englishLines, basicfont.Face7x13, color.Gray{220}, color.RGBA{30, 30, 40, 255}, 420, 18), true},
		{"grey scan", grey, true},
		{"large", chinese(t, 40), true},
		{"chart", chartPicture(), false},
		{"photograph", photoPicture(), false},
		{"flow chart", flowchartPicture(), false},
		{"one line", screenshot.Latin(englishLines[:1]), false},
		{"blank", image.NewGray(image.Rect(0, 0, 300, 200)), false},
	}
	for _, c := range cases {
		w, h, lum := luminance(c.img)
		if got := showsText(w, h, lum); got != c.want {
			t.Errorf("%s: shows text %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTextPicturesPDF: a PDF's pictures of text (PNG in colour, indexed and grey, its rows predicted;
// JPEG) are warned of
// with their pages, also under a word of text; a chart is not, nor a picture under text of its own
// (a scan with its OCR text); extraction alone (an import) does not look.
func TestTextPicturesPDF(t *testing.T) {
	text := encodePNG(t, screenshot.Latin(englishLines))
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, chinese(t, 18), &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	chart := encodePNG(t, chartPicture())
	latin := screenshot.Latin(englishLines)
	paletted := image.NewPaletted(latin.Bounds(), color.Palette{color.White, color.Black, color.RGBA{200, 0, 0, 255}})
	draw.Draw(paletted, paletted.Bounds(), latin, image.Point{}, draw.Src)
	gray := image.NewGray(latin.Bounds())
	draw.Draw(gray, gray.Bounds(), latin, image.Point{}, draw.Src)
	cases := []struct {
		name  string
		pdf   []byte
		count int
		pages []int
	}{
		{"indexed and grey", picturePDF(t, "", encodePNG(t, paletted), encodePNG(t, gray)), 2, []int{2, 3}},
		{"CMYK, uncompressed", cmykPicturePDF(latin), 1, []int{1}},
		{"text pictures", picturePDF(t, "", text, chart, jpg.Bytes()), 2, []int{2, 4}},
		{"chart only", picturePDF(t, "", chart), 0, nil},
		{"scan under its text", picturePDF(t, strings.Join(englishLines, " "), text), 0, nil},
		{"a label on it", picturePDF(t, "Screenshot", text), 1, []int{2}},
	}
	for _, c := range cases {
		doc, err := Bytes(context.Background(), c.name+".pdf", c.pdf)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if hasWarning(doc, WarnTextPictures) {
			t.Errorf("%s: warned before TextPictures", c.name)
		}
		if err := doc.TextPictures(context.Background()); err != nil {
			t.Fatal(err)
		}
		checkTextPictures(t, c.name, doc, c.count, c.pages)
	}
}

// TestTextPicturesDOCX: a DOCX's picture of text is warned of, once however often it is shown; a
// chart, and a picture of text in a hidden drawing, are not.
func TestTextPicturesDOCX(t *testing.T) {
	text := encodePNG(t, chinese(t, 18))
	chart := encodePNG(t, chartPicture())
	inline := func(id string) string {
		return `<w:p><w:r><w:drawing><wp:inline xmlns:wp="` + nsWP + `"><wp:extent cx="5000000" cy="2000000"/>` +
			`<a:graphic xmlns:a="` + nsA + `"><a:graphicData><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
			`<pic:blipFill><a:blip r:embed="` + id + `"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
	}
	hidden := strings.Replace(inline("rIdText"), `<wp:extent`, `<wp:docPr id="1" name="p" hidden="1"/><wp:extent`, 1)
	cases := []struct {
		name  string
		body  string
		count int
	}{
		{"text twice and a chart", inline("rIdText") + wPara("", "我们自己的文字。") + inline("rIdChart") + inline("rIdText"), 1},
		{"chart", inline("rIdChart") + wPara("", "我们自己的文字。"), 0},
		{"hidden", hidden + wPara("", "我们自己的文字。"), 0},
		{"pasted as a picture (EMF)", inline("rIdEMF") + wPara("", "我们自己的文字。"), 1},
	}
	for _, c := range cases {
		rels := `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rIdText" Type="` + relPrefix + `image" Target="media/image1.png"/>` +
			`<Relationship Id="rIdChart" Type="` + relPrefix + `image" Target="/word/media/image2.png"/>` +
			`<Relationship Id="rIdEMF" Type="` + relPrefix + `image" Target="media/image3.emf"/></Relationships>`
		files := map[string]string{
			"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
				`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
				`<Default Extension="png" ContentType="image/png"/></Types>`,
			"_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
				`<Relationship Id="rId1" Type="` + relPrefix + `officeDocument" Target="word/document.xml"/></Relationships>`,
			"word/document.xml":            `<?xml version="1.0" encoding="UTF-8"?><w:document ` + wNS + `><w:body>` + c.body + `</w:body></w:document>`,
			"word/_rels/document.xml.rels": rels,
			"word/media/image1.png":        string(text),
			"word/media/image2.png":        string(chart),
			"word/media/image3.emf":        string(emf(chineseLines...)),
		}
		doc, err := Bytes(context.Background(), c.name+".docx", buildDOCX(t, files))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := doc.TextPictures(context.Background()); err != nil {
			t.Fatal(err)
		}
		checkTextPictures(t, c.name, doc, c.count, nil)
	}
}

func hasWarning(doc *Document, kind WarningKind) bool {
	for _, w := range doc.Warnings {
		if w.Kind == kind {
			return true
		}
	}
	return false
}

func checkTextPictures(t *testing.T, name string, doc *Document, count int, pages []int) {
	t.Helper()
	var got *Warning
	for i, w := range doc.Warnings {
		if w.Kind == WarnTextPictures {
			got = &doc.Warnings[i]
		}
	}
	switch {
	case count == 0 && got != nil:
		t.Errorf("%s: warned %q", name, got.Message)
	case count > 0 && got == nil:
		t.Errorf("%s: no warning of pictures of text; warnings %+v", name, doc.Warnings)
	case count > 0 && (got.Count != count || !slices.Equal(got.Pages, pages) || !strings.Contains(got.Message, "not checked")):
		t.Errorf("%s: warning %+v, want %d pictures on pages %v", name, *got, count, pages)
	}
}

// blankPicture is a large white picture that costs no memory.
type blankPicture struct{ w, h int }

func (b blankPicture) ColorModel() color.Model { return color.GrayModel }
func (b blankPicture) Bounds() image.Rectangle { return image.Rect(0, 0, b.w, b.h) }
func (b blankPicture) At(x, y int) color.Color { return color.White }

// TestTextPicturesBudget: pictures past the pixels a check decodes are counted as not looked at,
// and said so; a picture shown twice is looked at once; the warning's words agree with its numbers.
func TestTextPicturesBudget(t *testing.T) {
	text := screenshot.Latin(englishLines)
	pic := func(page int, key string, img image.Image) picture {
		return picture{page: page, key: key, look: func() (int, bool) {
			return pictureShowsText(func() (image.Image, error) { return img, nil })
		}}
	}
	big := blankPicture{8000, maxPicturesPixels / 8000}
	cases := []struct {
		name     string
		pictures []picture
		count    int
		message  string
		unseen   int
	}{
		{"none", nil, 0, "", 0},
		{"one, shown twice", []picture{pic(2, "a", text), pic(3, "a", text)}, 1,
			"1 picture shows lines of text (pages 2, 3): text in pictures is not checked", 0},
		{"two pages", []picture{pic(2, "a", text), pic(5, "b", text), pic(5, "c", text), pic(6, "d", big)}, 3,
			"3 pictures show lines of text (pages 2, 5): text in pictures is not checked", 0},
		{"past the budget", []picture{pic(1, "a", big), pic(2, "b", text)}, 0, "", 1},
		{"text, then past it", []picture{pic(1, "a", text), pic(1, "b", big), pic(2, "c", text), pic(3, "d", text)}, 1,
			"1 picture shows lines of text (page 1): text in pictures is not checked", 2},
	}
	for _, c := range cases {
		doc := &Document{pictures: c.pictures}
		if err := doc.TextPictures(context.Background()); err != nil {
			t.Fatal(err)
		}
		var text, unseen *Warning
		for i, w := range doc.Warnings {
			switch w.Kind {
			case WarnTextPictures:
				text = &doc.Warnings[i]
			case WarnPicturesUnseen:
				unseen = &doc.Warnings[i]
			}
		}
		switch {
		case c.message == "" && text != nil:
			t.Errorf("%s: warned %+v", c.name, *text)
		case c.message != "" && (text == nil || text.Count != c.count || text.Message != c.message):
			t.Errorf("%s: warnings %+v, want count %d, %q", c.name, doc.Warnings, c.count, c.message)
		}
		wantUnseen := fmt.Sprintf("%d pictures were not looked at for text (a check decodes 64 million pixels of pictures at most)", c.unseen)
		if c.unseen == 1 {
			wantUnseen = "1 picture was not looked at for text (a check decodes 64 million pixels of pictures at most)"
		}
		switch {
		case c.unseen == 0 && unseen != nil:
			t.Errorf("%s: warned %+v", c.name, *unseen)
		case c.unseen > 0 && (unseen == nil || unseen.Count != c.unseen || unseen.Message != wantUnseen):
			t.Errorf("%s: warnings %+v, want %q", c.name, doc.Warnings, wantUnseen)
		}
		n := len(doc.Warnings)
		if doc.TextPictures(context.Background()); len(doc.Warnings) != n {
			t.Errorf("%s: warned again when looked at twice", c.name)
		}
	}
}

// emf builds an Enhanced Metafile that draws each string with EMR_EXTTEXTOUTW, as Word's "paste as
// picture" of text does.
func emf(strs ...string) []byte {
	le := binary.LittleEndian
	header := make([]byte, 88)
	le.PutUint32(header, emrHeader)
	le.PutUint32(header[4:], 88)
	le.PutUint32(header[40:], emfSignature)
	out := header
	for _, str := range strs {
		u := utf16.Encode([]rune(str))
		rec := make([]byte, 76+(2*len(u)+3)/4*4)
		le.PutUint32(rec, emrExtTextOutW)
		le.PutUint32(rec[4:], uint32(len(rec)))
		le.PutUint32(rec[44:], uint32(len(u)))
		le.PutUint32(rec[48:], 76)
		for i, c := range u {
			le.PutUint16(rec[76+2*i:], c)
		}
		out = append(out, rec...)
	}
	eof := make([]byte, 20)
	le.PutUint32(eof, 14)
	le.PutUint32(eof[4:], 20)
	return append(out, eof...)
}

// TestEMFShowsText: a metafile that draws lines of text shows text; a chart's short labels, two
// lines, and damaged records (sizes and offsets past the end) do not, and do not panic.
func TestEMFShowsText(t *testing.T) {
	labels := emf("2019", "2020", "2021", "2022", "Enrolment", "Thousands", "Arts", "Science")
	damaged := emf(englishLines...)
	binary.LittleEndian.PutUint32(damaged[88+48:], 1<<30) // the first string's offset
	binary.LittleEndian.PutUint32(damaged[88+4:], 1<<30)  // the first record's size
	cases := []struct {
		name string
		raw  []byte
		want bool
	}{
		{"lines", emf(englishLines...), true},
		{"Chinese lines", emf(chineseLines...), true},
		{"labels", labels, false},
		{"two lines", emf(englishLines[:2]...), false},
		{"damaged", damaged, false},
		{"truncated", emf(englishLines...)[:200], false},
	}
	for _, c := range cases {
		if !isEMF(c.raw) {
			t.Fatalf("%s: not taken for an EMF", c.name)
		}
		if _, got := docxLook(c.raw); got != c.want {
			t.Errorf("%s: shows text %v, want %v", c.name, got, c.want)
		}
	}
}

// BenchmarkLookAtPicture: decoding and looking at a PNG chart of 1600×1000 pixels (a figure as
// Word saves it at 220 ppi) and at a screenshot of a paragraph.
func BenchmarkLookAtPicture(b *testing.B) {
	chart := image.NewRGBA(image.Rect(0, 0, 1600, 1000))
	draw.Draw(chart, chart.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(chart, image.Rect(200, 100, 1400, 900), photoPicture(), image.Point{}, draw.Src)
	text, err := screenshot.Chinese(append(slices.Clone(chineseLines), chineseLines...), 28)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		img  image.Image
	}{{"chart", chart}, {"screenshot", text}} {
		raw, err := screenshot.PNG(c.img)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				docxLook(raw)
			}
		})
	}
}

// TestTextPicturesProducers: in the DOCX and the PDF LibreOffice wrote of a screenshot of a
// paragraph, a chart and a flow chart (testdata/pictures), only the screenshot shows text.
func TestTextPicturesProducers(t *testing.T) {
	for _, c := range []struct {
		file  string
		pages []int
	}{{"libreoffice-figures.docx", nil}, {"libreoffice-figures.pdf", []int{1}}} {
		doc, err := File(filepath.Join("testdata", "pictures", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := doc.TextPictures(context.Background()); err != nil {
			t.Fatal(err)
		}
		checkTextPictures(t, c.file, doc, 1, c.pages)
	}
}

// cmykPicturePDF is a page of a line of text and img, an uncompressed DeviceCMYK image (black ink
// only).
func cmykPicturePDF(img *image.RGBA) []byte {
	b := img.Bounds()
	samples := make([]byte, 0, 4*b.Dx()*b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			samples = append(samples, 0, 0, 0, byte(255-luma(r>>8, g>>8, bl>>8)))
		}
	}
	content := "BT /F1 11 Tf 60 720 Td (Our own words about the survey and what it shows.) Tj ET q 420 0 0 108 60 500 cm /Im1 Do Q"
	return pdfOfObjects([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceCMYK /BitsPerComponent 8 /Length %d >>\nstream\n%s\nendstream",
			b.Dx(), b.Dy(), len(samples), samples),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
	})
}

// TestPDFPageUnderPicture: visible words under an opaque picture the page's size, drawn after them,
// are covered when the picture shows no lines of text (a page of junk under a photograph, in front
// of it); under a picture of text they are its scan's OCR layer, and read.
func TestPDFPageUnderPicture(t *testing.T) {
	const own, junk = "Our own words about the survey and what it shows.", "junk words padding out the figure"
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, photoPicture(), &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		picture []byte
		kind    string
		covered bool
		budget  int64 // photoPixels; 0: as it is
	}{
		{"a photograph", jpg.Bytes(), "JPG", true, 0},
		{"a chart", encodePNG(t, chartPicture()), "PNG", true, 0},
		{"a scan of text", encodePNG(t, screenshot.Latin(englishLines)), "PNG", false, 0},
		// Past the pixels a document's pictures over text are decoded to, the text under them is
		// read, and a warning says so.
		{"a photograph past the budget", jpg.Bytes(), "JPG", false, 1000},
	}
	defer func(p int64) { photoPixels = p }(photoPixels)
	for _, c := range cases {
		photoPixels = maxPicturesPixels
		if c.budget > 0 {
			photoPixels = c.budget
		}
		f := fpdf.New("P", "pt", "A4", "")
		f.SetFont("Helvetica", "", 11)
		f.AddPage()
		f.MultiCell(0, 14, own, "", "L", false)
		f.AddPage()
		f.MultiCell(0, 14, junk, "", "L", false)
		f.RegisterImageOptionsReader("p", fpdf.ImageOptions{ImageType: c.kind}, bytes.NewReader(c.picture))
		f.ImageOptions("p", 0, 0, 595.28, 841.89, false, fpdf.ImageOptions{ImageType: c.kind}, 0, "")
		var b bytes.Buffer
		if err := f.Output(&b); err != nil {
			t.Fatal(err)
		}
		doc, err := Bytes(context.Background(), c.name+".pdf", b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		var texts, hidden []string
		for _, p := range doc.Paragraphs {
			texts = append(texts, p.Text)
			for _, h := range p.Hidden {
				hidden = append(hidden, h.Text+" "+strings.Join(h.Reasons, ","))
			}
		}
		wantText, wantHidden := own+" "+junk, []string(nil) // one paragraph, run on over the page
		if c.covered {
			wantText, wantHidden = own, []string{junk + " " + HideCovered}
		}
		if got := strings.Join(texts, " "); got != wantText || !slices.Equal(hidden, wantHidden) {
			t.Errorf("%s: text %q, hidden %q; want %q, %q", c.name, got, hidden, wantText, wantHidden)
		}
		if unseen := slices.IndexFunc(doc.Warnings, func(w Warning) bool { return w.Kind == WarnPicturesUnseen }); (unseen >= 0) != (c.budget > 0) ||
			unseen >= 0 && !slices.Equal(doc.Warnings[unseen].Pages, []int{2}) {
			t.Errorf("%s: warnings %+v, want one of pictures not looked at, on page 2, only past the budget", c.name, doc.Warnings)
		}
	}
}
