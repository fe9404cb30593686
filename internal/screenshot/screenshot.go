// Package screenshot draws lines of text as a screenshot of a paragraph shows them, and puts such
// pictures in a PDF, for the tests of what a check says of text shown in pictures (students paste
// screenshots of copied paragraphs so that no checker reads them). Files are made in milliseconds,
// so none has to be committed.
package screenshot

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"thesischeck/assets"
)

// Picture draws lines of text in face, fg on bg, w pixels wide and lineHeight pixels a line.
func Picture(lines []string, face font.Face, fg, bg color.Color, w, lineHeight int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, lineHeight*(len(lines)+1)))
	draw.Draw(img, img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	d := font.Drawer{Dst: img, Src: image.NewUniform(fg), Face: face}
	for i, l := range lines {
		d.Dot = fixed.P(10, lineHeight*(i+1))
		d.DrawString(l)
	}
	return img
}

// Latin draws lines of Latin text black on white in a 7×13 pixel font, as a small screenshot does.
func Latin(lines []string) *image.RGBA {
	return Picture(lines, basicfont.Face7x13, color.Black, color.White, 10+7*longest(lines), 18)
}

// Chinese draws lines of Chinese text black on white in Noto Sans SC of the given pixel size.
func Chinese(lines []string, size float64) (*image.RGBA, error) {
	f, err := opentype.Parse(assets.FontRegular)
	if err != nil {
		return nil, err
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	return Picture(lines, face, color.Black, color.White, 20+int(size)*longest(lines), int(size*1.45)), nil
}

func longest(lines []string) int {
	n := 0
	for _, l := range lines {
		n = max(n, len([]rune(l)))
	}
	return n
}

// PNG encodes a picture as PNG.
func PNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	err := png.Encode(&b, img)
	return b.Bytes(), err
}

// PDF writes a PDF whose first page holds text (Latin, in Helvetica) and then a page for each
// picture (PNG or JPEG), 420 pt wide, with a caption under it; over, when set, is written over the
// first picture, as OCR text lies over a scan.
func PDF(text, over string, pictures ...[]byte) ([]byte, error) {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetFont("Helvetica", "", 11)
	f.AddPage()
	f.MultiCell(0, 14, text, "", "L", false)
	for i, p := range pictures {
		f.AddPage()
		name := "picture" + string(rune('a'+i))
		kind := "PNG"
		if bytes.HasPrefix(p, []byte{0xff, 0xd8}) {
			kind = "JPG"
		}
		f.RegisterImageOptionsReader(name, fpdf.ImageOptions{ImageType: kind}, bytes.NewReader(p))
		f.ImageOptions(name, 60, 80, 420, 0, false, fpdf.ImageOptions{ImageType: kind}, 0, "")
		if i == 0 && over != "" {
			f.SetXY(70, 90)
			f.MultiCell(400, 14, over, "", "L", false)
		}
		f.SetXY(60, 400)
		f.MultiCell(0, 14, "Figure: what the picture shows, in a caption of our own.", "", "L", false)
	}
	var b bytes.Buffer
	err := f.Output(&b)
	return b.Bytes(), err
}
