package extract

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"thesischeck/internal/screenshot"
)

// TestScannedLayer: a scanned page's text layer is compared with its picture (testdata/scanned,
// made by make.sh). Tesseract's layer (ocrmypdf) over a page of zh-thesis S001 and of en-thesis
// S000 matches; a layer of other text under the same pictures, invisible over them or covered by
// them, does not; one over a picture of two pixels cannot be compared with it.
func TestScannedLayer(t *testing.T) {
	for _, tt := range []struct {
		file string
		kind WarningKind
		text string
	}{
		{"", WarnLayer, "the text layer of scanned page 1 could not be compared with the scans"},
		{"zh-ocr.pdf", WarnScanned, "matches what they show"},
		{"en-ocr.pdf", WarnScanned, "matches what they show"},
		{"zh-fake.pdf", WarnLayer, "does not match what the scans show"},
		{"en-fake.pdf", WarnLayer, "does not match what the scans show"},
		{"en-covered.pdf", WarnLayer, "does not match what the scans show"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			var doc *Document
			var err error
			if tt.file == "" {
				doc, err = Bytes(context.Background(), "scan.pdf", hiddenPDF("q 500 0 0 80 60 640 cm /Im2 Do Q "+twoParagraphs("3 Tr", "", "")))
			} else {
				doc, err = File(filepath.Join("testdata", "scanned", tt.file))
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Paragraphs) == 0 {
				t.Fatal("no text read")
			}
			if err := doc.TextPictures(context.Background()); err != nil {
				t.Fatal(err)
			}
			var kinds []WarningKind
			var got *Warning
			for i, w := range doc.Warnings {
				kinds = append(kinds, w.Kind)
				if w.Kind == WarnScanned || w.Kind == WarnLayer {
					if got != nil {
						t.Errorf("two warnings of scans: %+v, %+v", *got, w)
					}
					got = &doc.Warnings[i]
				}
			}
			if got == nil || got.Kind != tt.kind || !strings.Contains(got.Message, tt.text) || !slices.Equal(got.Pages, []int{1}) {
				t.Errorf("warnings %v: %+v, want %s (%q) on page 1", kinds, got, tt.kind, tt.text)
			}
		})
	}
}

// TestPDFDeflatedJPEG: a JPEG deflated once more (/Filter [/FlateDecode /DCTDecode], as ocrmypdf
// writes its scans) is decoded.
func TestPDFDeflatedJPEG(t *testing.T) {
	var jpg, z bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 120, 90)), nil); err != nil {
		t.Fatal(err)
	}
	zw := zlib.NewWriter(&z)
	zw.Write(jpg.Bytes())
	zw.Close()
	content := "q 120 0 0 90 72 600 cm /Im1 Do Q"
	data := pdfOfObjects([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width 120 /Height 90 /ColorSpace /DeviceGray /BitsPerComponent 8"+
			" /Filter [/FlateDecode /DCTDecode] /Length %d >>\nstream\n%s\nendstream", z.Len(), z.String()),
	})
	r, err := pdfOpen(data)
	if err != nil {
		t.Fatal(err)
	}
	images := r.Page(1).Content().Images
	if len(images) != 1 {
		t.Fatalf("%d images", len(images))
	}
	decode, ok := pdfImage(images[0].XObject)
	if !ok {
		t.Fatal("not decodable")
	}
	img, err := decode()
	if err != nil || img.Bounds().Dx() != 120 || img.Bounds().Dy() != 90 {
		t.Fatalf("decoded %v, %v", img, err)
	}
}

// TestLayerOffPicture: a layer whose characters fall off the picture's samples is not compared.
func TestLayerOffPicture(t *testing.T) {
	img := screenshot.Latin(englishLines)
	var glyphs []layerGlyph
	for i, r := range strings.Repeat("words", 20) {
		x := 100 + 6*float64(i%50)
		y := 600 - 20*float64(i/50)
		glyphs = append(glyphs, layerGlyph{r: r, minX: x, maxX: x + 6, minY: y - 1.5, maxY: y + 10.5})
	}
	// The picture on the page's foot, the characters near its head.
	if v := pdfLayerMatch(img, [6]float64{400, 0, 0, 100, 100, 50}, glyphs); v != layerUnknown {
		t.Errorf("verdict %d, want unknown", v)
	}
	if v := pdfLayerMatch(img, [6]float64{400, 0, 0, 100, 100, 520}, glyphs); v == layerUnknown {
		t.Error("on the picture: unknown")
	}
}

// TestLayerWarnings: the pages whose layers match are named apart from those whose layers do not,
// or could not be compared, which are one warning.
func TestLayerWarnings(t *testing.T) {
	var layers [3][]int
	layers[layerMatches], layers[layerDiffers], layers[layerUnknown] = []int{4, 1}, []int{2}, []int{5, 3}
	ws := layerWarnings(layers)
	if len(ws) != 2 || ws[0].Kind != WarnScanned || !slices.Equal(ws[0].Pages, []int{1, 4}) || ws[1].Kind != WarnLayer ||
		!slices.Equal(ws[1].Pages, []int{2, 3, 5}) || ws[1].Count != 3 ||
		!strings.HasPrefix(ws[1].Message, "the text layer of scanned page 2 does not match what the scans show, and that of pages 3, 5 could not be compared with them:") {
		t.Errorf("warnings %+v", ws)
	}
}
