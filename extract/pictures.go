package extract

// Pictures that show text. A screenshot of copied paragraphs pasted into a thesis (or a page
// printed to an image) is seen by its reader and not by a check, which reads the text layer: the
// figure would be lower than the truth with nothing said. Without OCR that text cannot be checked,
// but a picture of text looks like one — rows of glyphs at a regular height, on a plain ground,
// separated by blank rows — which a chart, a diagram or a photograph does not. The report then says
// which pictures show text and where, so that its reader can look at them.
//
// Decoding pictures costs time a library import does not need, so the extractors only note where
// each picture is and how to decode it; a check calls TextPictures.

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	_ "image/gif" // pictures of a DOCX
	"image/jpeg"
	_ "image/png"
	"io"
	"slices"
	"unicode"

	"github.com/ledongthuc/pdf"

	"thesischeck/internal/english"
)

// Bounds on the pictures looked at. Decoding and looking costs 14-25 ns a pixel (a PDF's 30 charts
// of 1.6 million pixels 0.7 s, a PNG of them in a DOCX 40 ms, a JPEG photograph of 6 million pixels
// 0.12 s), so a file of thousands of pictures, or of large ones, is looked at up to a budget: 1-1.6
// s of one core, beside the check's own work. A thesis's pictures, as Word saves them (220 ppi),
// have 1-2 million pixels each.
const (
	maxPicturesPixels = 64_000_000 // pixels decoded for one document, in all
	maxPicturePixels  = 1 << 26    // pixels of one picture (64 M: a page scanned at 600 dpi has 35 M)
	minPicturePixels  = 1 << 13    // smaller pictures (an icon, a logo) hold no paragraph
	maxPictureBytes   = 1 << 28    // samples of one picture: 64 M pixels of 4 components
	maxPictures       = 2000       // pictures noted for one document
)

// picture is a picture in a document, not yet decoded.
type picture struct {
	page int    // 1-based page of a PDF; 0 where pages are not known (DOCX)
	key  string // one image shown many times (a logo on every page) is decoded once
	// look decodes the picture and tells whether it shows text, and how many pixels it decoded.
	look func() (pixels int, text bool)
	// layer, instead, compares a scanned page's picture with the text layer over or under it
	// (pdfLayerMatch).
	layer func() (pixels int, v layerVerdict)
}

// pictureMatchesLayer decodes a picture and compares it with a text layer placed on it.
func pictureMatchesLayer(decode func() (image.Image, error), place [6]float64, glyphs []layerGlyph) (pixels int, v layerVerdict) {
	return judged(decode, func(img image.Image) layerVerdict { return pdfLayerMatch(img, place, glyphs) })
}

// TextPictures decodes the document's pictures and adds a warning when some of them show lines of
// text, which the check cannot read, or when there were more than it could look at. It is for a
// check (an import has no reader to warn), and may run while the paragraphs are checked: it
// changes only Warnings, and only once.
func (d *Document) TextPictures(ctx context.Context) error {
	return d.lookAtPictures(ctx, true)
}

// ScannedLayers compares the text layers of scanned pages with their pictures, as TextPictures
// does, and looks at no other picture: for a class's comparison, where looking at every picture of
// hundreds of submissions would cost seconds each, while a scan's layer is all the text there is
// to compare, and only scans have one.
func (d *Document) ScannedLayers(ctx context.Context) error {
	return d.lookAtPictures(ctx, false)
}

// lookAtPictures compares scans with their text layers and, when all, looks at the other
// pictures for text.
func (d *Document) lookAtPictures(ctx context.Context, all bool) error {
	showsText := map[string]bool{} // by key, the pictures looked at
	var pages []int
	var layers [3][]int // scanned pages, by layerVerdict
	shown, budget, unseen := 0, maxPicturesPixels, 0
	for _, p := range d.pictures {
		if err := ctx.Err(); err != nil {
			return err
		}
		if p.layer != nil {
			v := layerUnknown
			if budget > 0 {
				var used int
				used, v = lookAt(p.layer)
				budget -= used
			}
			if !slices.Contains(layers[v], p.page) {
				layers[v] = append(layers[v], p.page)
			}
			continue
		}
		if !all {
			continue
		}
		text, seen := showsText[p.key]
		if !seen {
			if budget <= 0 {
				unseen++
				showsText[p.key] = false
				continue
			}
			var used int
			used, text = lookAt(p.look)
			budget -= used
			showsText[p.key] = text
			if text {
				shown++
			}
		}
		if text && p.page > 0 && !slices.Contains(pages, p.page) {
			pages = append(pages, p.page)
		}
	}
	d.pictures = nil
	d.Warnings = append(d.Warnings, textPicturesWarnings(shown, pages, unseen)...)
	d.Warnings = append(d.Warnings, layerWarnings(layers)...)
	return nil
}

// layerWarnings say which scanned pages' text layers match their pictures (the text checked is
// what a reader sees), and which do not, or could not be compared with them (the text checked may
// be other text than the pages show).
func layerWarnings(layers [3][]int) []Warning {
	var ws []Warning
	if pages := layers[layerMatches]; len(pages) > 0 {
		slices.Sort(pages)
		ws = append(ws, Warning{Kind: WarnScanned, Count: len(pages), Pages: pages,
			Message: fmt.Sprintf("scanned %s: the text checked is the OCR text written with the scans, which matches what they show", pageList(pages))})
	}
	differ, unknown := layers[layerDiffers], layers[layerUnknown]
	if len(differ)+len(unknown) == 0 {
		return ws
	}
	slices.Sort(differ)
	slices.Sort(unknown)
	var what string
	switch {
	case len(unknown) == 0:
		what = fmt.Sprintf("the text layer of scanned %s does not match what the scans show", pageList(differ))
	case len(differ) == 0:
		what = fmt.Sprintf("the text layer of scanned %s could not be compared with the scans", pageList(unknown))
	default:
		what = fmt.Sprintf("the text layer of scanned %s does not match what the scans show, and that of %s could not be compared with them",
			pageList(differ), pageList(unknown))
	}
	pages := slices.Sorted(slices.Values(append(slices.Clone(differ), unknown...)))
	return append(ws, Warning{Kind: WarnLayer, Count: len(pages), Pages: pages,
		Message: what + ": the check reads that layer (OCR text), not the pictures a reader sees, so its figures may be of other text"})
}

// textPicturesWarnings say how many pictures show text and on which pages, and how many were not
// looked at.
func textPicturesWarnings(shown int, pages []int, unseen int) []Warning {
	var ws []Warning
	if shown > 0 {
		verb, where := "show", ""
		if shown == 1 {
			verb = "shows"
		}
		if len(pages) > 0 {
			slices.Sort(pages)
			where = " (" + pageList(pages) + ")"
		}
		ws = append(ws, Warning{Kind: WarnTextPictures, Count: shown, Pages: pages,
			Message: fmt.Sprintf("%s %s lines of text%s: text in pictures is not checked", english.Count(shown, "picture", "pictures"), verb, where)})
	}
	if unseen > 0 {
		verb := "were"
		if unseen == 1 {
			verb = "was"
		}
		ws = append(ws, Warning{Kind: WarnPicturesUnseen, Count: unseen,
			Message: fmt.Sprintf("%s %s not looked at for text (a check decodes %d million pixels of pictures at most)", english.Count(unseen, "picture", "pictures"), verb, maxPicturesPixels/1_000_000)})
	}
	return ws
}

// lookAt looks at a picture (a picture's look or layer). A parser's panic on a hostile image tells
// nothing: look's zero (no text, layerUnknown).
func lookAt[T any](look func() (int, T)) (pixels int, v T) {
	defer func() {
		if recover() != nil {
			pixels, v = 0, *new(T)
		}
	}()
	return look()
}

// judged decodes a picture and judges it, and says how many pixels it decoded. A picture that
// cannot be decoded (a format Go does not read, damage) tells nothing: judge's zero.
func judged[T any](decode func() (image.Image, error), judge func(image.Image) T) (pixels int, v T) {
	img, err := decode()
	if err != nil || img == nil {
		return 0, v
	}
	return img.Bounds().Dx() * img.Bounds().Dy(), judge(img)
}

// pictureShowsText decodes a picture and tells whether it shows text, and how many pixels it
// decoded.
func pictureShowsText(decode func() (image.Image, error)) (pixels int, shows bool) {
	return judged(decode, func(img image.Image) bool { return showsText(luminance(img)) })
}

// maxSide is the longest side a picture is looked at in: a line of text in a screenshot is 10-40
// pixels high, and still 5 or more after a scan at 600 dpi is sampled down to it.
const maxSide = 1600

// luminance samples img to at most maxSide pixels a side and returns the grey of each pixel,
// transparency laid on white as a page shows it.
func luminance(img image.Image) (w, h int, lum []uint8) {
	b := img.Bounds()
	step := max(1, (max(b.Dx(), b.Dy())+maxSide-1)/maxSide)
	w, h = b.Dx()/step, b.Dy()/step
	lum = make([]uint8, w*h)
	for y := range h {
		sy := b.Min.Y + y*step
		switch m := img.(type) {
		case *image.Gray:
			row := m.Pix[m.PixOffset(b.Min.X, sy):]
			if step == 1 {
				copy(lum[y*w:(y+1)*w], row)
				continue
			}
			for x := range w {
				lum[y*w+x] = row[x*step]
			}
		case *image.YCbCr:
			for x := range w {
				lum[y*w+x] = m.Y[m.YOffset(b.Min.X+x*step, sy)]
			}
		case *image.RGBA: // premultiplied: colour plus what shows through of the white
			for x := range w {
				i := m.PixOffset(b.Min.X+x*step, sy)
				white := 255 - uint32(m.Pix[i+3])
				lum[y*w+x] = luma(uint32(m.Pix[i])+white, uint32(m.Pix[i+1])+white, uint32(m.Pix[i+2])+white)
			}
		case *image.NRGBA:
			for x := range w {
				i := m.PixOffset(b.Min.X+x*step, sy)
				a := uint32(m.Pix[i+3])
				over := func(c uint8) uint32 { return (uint32(c)*a + 255*(255-a)) / 255 }
				lum[y*w+x] = luma(over(m.Pix[i]), over(m.Pix[i+1]), over(m.Pix[i+2]))
			}
		case *image.Paletted:
			greys := make([]uint8, len(m.Palette))
			for i, c := range m.Palette {
				r, g, bl, a := c.RGBA()
				white := 0xffff - a
				greys[i] = luma((r+white)>>8, (g+white)>>8, (bl+white)>>8)
			}
			for x := range w {
				if c := int(m.Pix[m.PixOffset(b.Min.X+x*step, sy)]); c < len(greys) {
					lum[y*w+x] = greys[c]
				}
			}
		default:
			for x := range w {
				r, g, bl, a := img.At(b.Min.X+x*step, sy).RGBA()
				white := 0xffff - a // alpha-premultiplied colour over white
				lum[y*w+x] = luma((r+white)>>8, (g+white)>>8, (bl+white)>>8)
			}
		}
	}
	return w, h, lum
}

// commonGrey is a picture's commonest grey (0–255) and how many of its pixels are within tol of it.
func commonGrey(lum []uint8, tol int) (grey, near int) {
	var hist [256]int
	for _, v := range lum {
		hist[v]++
	}
	for v := range hist {
		if hist[v] > hist[grey] {
			grey = v
		}
	}
	for v := max(0, grey-tol); v <= min(255, grey+tol); v++ {
		near += hist[v]
	}
	return grey, near
}

// plainLum reports whether a picture's greys are one grey, give or take 8 %, but for one pixel in
// 200 (a picture of nothing), and which grey.
func plainLum(lum []uint8) (grey int, plain bool) {
	grey, near := commonGrey(lum, 20)
	return grey, len(lum) > 0 && near >= len(lum)-len(lum)/200
}

// luma is the grey of an RGB colour of components 0-255 (weights 0.299, 0.587, 0.114 in 256ths).
func luma(r, g, b uint32) uint8 { return uint8((r*77 + g*150 + b*29) >> 8) }

// showsText tells whether a w×h grey picture shows at least three lines of text one after the
// other: bands of rows with ink, of one height give or take half, each a row of many separate
// marks across a good part of the width, on a ground of one colour. A chart's axis or a diagram's
// frame joins its rows into one tall band, and a photograph has no single ground.
func showsText(w, h int, lum []uint8) bool {
	if w*h < minPicturePixels/4 || w < 64 || h < 16 {
		return false
	}
	ground, near := commonGrey(lum, 24)
	if near*100 < len(lum)*55 {
		return false
	}
	var ink [256]bool
	for v := range ink {
		ink[v] = abs(v-ground) >= 80
	}
	rowInk := make([]int, h)
	for y := range h {
		for _, v := range lum[y*w : (y+1)*w] {
			if ink[v] {
				rowInk[y]++
			}
		}
	}
	speck := w / 400 // a row with no more ink than this is blank (noise of a scan)
	type band struct {
		top, bottom int
		text        bool
	}
	var bands []band
	var heights []int
	for y := 0; y < h; {
		if rowInk[y] <= speck {
			y++
			continue
		}
		b := band{top: y}
		for y < h && rowInk[y] > speck {
			y++
		}
		b.bottom = y
		b.text = textLine(w, lum[b.top*w:y*w], &ink)
		if b.text {
			heights = append(heights, y-b.top)
		}
		bands = append(bands, b)
	}
	if len(heights) < 3 {
		return false
	}
	slices.Sort(heights)
	m := heights[len(heights)/2]
	// Three lines in a row, as in a paragraph: a chart's title and its axis labels are lines of
	// text too, but its plot stands between them.
	run := 0
	for i, b := range bands {
		ht := b.bottom - b.top
		if !b.text || 2*ht < m || ht > 2*m || i > 0 && b.top-bands[i-1].bottom > 2*m {
			run = 0
		}
		if b.text && 2*ht >= m && ht <= 2*m {
			run++
		}
		if run >= 3 {
			return true
		}
	}
	return false
}

// textLine tells whether a band of rows with ink (band holds its rows, w pixels each) is a line of
// text: 4 to 80 pixels high, and across at least a quarter of the width at least six marks
// separated by blank columns, none much wider than the line is high (a word of joined letters is;
// a bar, a rule or a photograph's edge is wider).
func textLine(w int, band []uint8, ink *[256]bool) bool {
	h := len(band) / w
	if h < 4 || h > 80 {
		return false
	}
	marks, first, last, run, longest := 0, -1, -1, 0, 0
	for x := range w {
		on := false
		for y := range h {
			if ink[band[y*w+x]] {
				on = true
				break
			}
		}
		if !on {
			run = 0
			continue
		}
		if run == 0 {
			marks++
		}
		run++
		longest = max(longest, run)
		if first < 0 {
			first = x
		}
		last = x
	}
	return marks >= 6 && 4*(last-first+1) >= w && longest <= 8*h
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// --- PDF image XObjects --------------------------------------------------------------------------

// pdfPicture returns how to decode an image XObject, or false when it is not worth decoding
// (too few pixels) or cannot be (a filter Go has no decoder for: JBIG2, CCITT, JPEG 2000).
func pdfPicture(xo pdf.Value) (func() (image.Image, error), bool) {
	if xo.Key("Width").Int64()*xo.Key("Height").Int64() < minPicturePixels {
		return nil, false
	}
	return pdfImage(xo)
}

// pdfImage returns how to decode an image XObject of any size, or false when it cannot be decoded.
func pdfImage(xo pdf.Value) (func() (image.Image, error), bool) {
	w, h := int(xo.Key("Width").Int64()), int(xo.Key("Height").Int64())
	if w <= 0 || h <= 0 || w > maxPicturePixels/h {
		return nil, false
	}
	filter := xo.Key("Filter")
	params := xo.Key("DecodeParms")
	// A JPEG deflated once more (ocrmypdf writes its scans so): inflated, then decoded.
	inflate := false
	if filter.Kind() == pdf.Array && filter.Len() == 2 && filter.Index(0).Name() == "FlateDecode" && filter.Index(1).Name() == "DCTDecode" {
		filter, inflate = filter.Index(1), true
	}
	if filter.Kind() == pdf.Array {
		if filter.Len() != 1 {
			return nil, false
		}
		filter, params = filter.Index(0), params.Index(0)
	}
	switch {
	case filter.Kind() == pdf.Null || filter.Name() == "FlateDecode":
		flate := filter.Kind() != pdf.Null
		return func() (image.Image, error) { return pdfSamples(xo, w, h, flate, params) }, true
	case filter.Name() == "DCTDecode":
		return func() (image.Image, error) {
			rd, err := xo.RawReader()
			if err != nil {
				return nil, err
			}
			if inflate {
				if rd, err = zlib.NewReader(rd); err != nil {
					return nil, err
				}
			}
			raw, err := io.ReadAll(io.LimitReader(rd, maxPictureBytes+1))
			if err != nil {
				return nil, err
			}
			// The JPEG's own size, not the dictionary's, is what decoding costs.
			if cfg, err := jpeg.DecodeConfig(bytes.NewReader(raw)); err != nil || cfg.Width <= 0 ||
				cfg.Height <= 0 || cfg.Width > maxPicturePixels/cfg.Height {
				return nil, fmt.Errorf("a JPEG of %d×%d pixels", cfg.Width, cfg.Height)
			}
			return jpeg.Decode(bytes.NewReader(raw))
		}, true
	}
	return nil, false
}

// pdfSamples reads an image's samples (inflated, predicted rows undone) into a grey picture. Its
// colour space is the PDF reader's (pdf.ImageColorSpace), as painted colours are.
func pdfSamples(xo pdf.Value, w, h int, flate bool, params pdf.Value) (image.Image, error) {
	space := pdf.ImageColorSpace(xo)
	comps := space.Components()
	bpc := 1
	if !xo.Key("ImageMask").Bool() {
		bpc = int(xo.Key("BitsPerComponent").Int64())
	}
	switch {
	case comps == 0:
		return nil, fmt.Errorf("colour space %v", xo.Key("ColorSpace"))
	case bpc != 1 && bpc != 2 && bpc != 4 && bpc != 8 && bpc != 16:
		return nil, fmt.Errorf("%d bits per component", bpc)
	}
	rowBytes := (w*comps*bpc + 7) / 8
	if rowBytes > maxPictureBytes/h {
		return nil, fmt.Errorf("%d×%d pixels of %d components", w, h, comps)
	}
	rd, err := xo.RawReader()
	if err != nil {
		return nil, err
	}
	predictor := 1
	if flate {
		zr, err := zlib.NewReader(rd)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		rd = zr
		if p := params.Key("Predictor"); p.Kind() == pdf.Integer {
			predictor = int(p.Int64())
		}
	}
	var data []byte
	switch {
	case predictor >= 10:
		data, err = unpredictPNG(rd, rowBytes, h, max(1, comps*bpc/8))
	case predictor == 1:
		data = make([]byte, rowBytes*h)
		_, err = io.ReadFull(rd, data)
	default:
		return nil, fmt.Errorf("predictor %d", predictor)
	}
	if err != nil {
		return nil, err
	}
	// One component of at most 8 bits (grey, an index, a tint, a mask): a grey for each value.
	var greys []uint8
	if comps == 1 && bpc <= 8 {
		greys = make([]uint8, 1<<bpc)
		for v := range greys {
			greys[v] = colorGrey(space.Color([]float64{float64(v)}, float64(len(greys)-1)), float64(v)/float64(len(greys)-1))
		}
	}
	g := image.NewGray(image.Rect(0, 0, w, h))
	samples := make([]float64, comps)
	for y := range h {
		row, out := data[y*rowBytes:(y+1)*rowBytes], g.Pix[y*w:(y+1)*w]
		switch {
		case greys != nil && bpc == 8:
			for x := range out {
				out[x] = greys[row[x]]
			}
		case greys != nil:
			for x := range out {
				bit := x * bpc
				out[x] = greys[row[bit/8]>>(8-bpc-bit%8)&(1<<bpc-1)]
			}
		case bpc == 8 && comps == 3 && space.RGB():
			for x := range out {
				out[x] = luma(uint32(row[3*x]), uint32(row[3*x+1]), uint32(row[3*x+2]))
			}
		default: // 16 bits (read by their high byte), CMYK, spot colours
			for x := range out {
				for i := range samples {
					if bpc == 16 {
						samples[i] = float64(row[2*(x*comps+i)])
					} else {
						bit := (x*comps + i) * bpc
						samples[i] = float64(row[bit/8] >> (8 - bpc - bit%8) & (1<<bpc - 1))
					}
				}
				first := samples[0] / float64(min(1<<bpc, 256)-1)
				out[x] = colorGrey(space.Color(samples, float64(min(1<<bpc, 256)-1)), first)
			}
		}
	}
	return g, nil
}

// colorGrey is the grey (0-255) of a colour; of one the PDF reader cannot tell (a spot colour's
// tint), the grey its first sample would be as ink (tint, 0-1).
func colorGrey(c pdf.Color, tint float64) uint8 {
	if !c.Known {
		return uint8(255 * (1 - tint))
	}
	return luma(uint32(255*c.R), uint32(255*c.G), uint32(255*c.B))
}

// unpredictPNG reads h rows of rowBytes each, each after a byte naming its PNG filter, and undoes
// the filters (bpp: bytes per pixel, at least one).
func unpredictPNG(rd io.Reader, rowBytes, h, bpp int) ([]byte, error) {
	out := make([]byte, rowBytes*h)
	prev := make([]byte, rowBytes)
	var kind [1]byte
	for y := range h {
		row := out[y*rowBytes : (y+1)*rowBytes]
		if _, err := io.ReadFull(rd, kind[:]); err != nil {
			return nil, err
		}
		if _, err := io.ReadFull(rd, row); err != nil {
			return nil, err
		}
		switch kind[0] {
		case 1: // Sub
			for i := bpp; i < len(row); i++ {
				row[i] += row[i-bpp]
			}
		case 2: // Up
			for i := range row {
				row[i] += prev[i]
			}
		case 3: // Average
			for i := range row {
				left := 0
				if i >= bpp {
					left = int(row[i-bpp])
				}
				row[i] += byte((left + int(prev[i])) / 2)
			}
		case 4: // Paeth
			for i := range row {
				if i < bpp {
					row[i] += prev[i] // paeth(0, up, 0) is up
					continue
				}
				row[i] += paeth(row[i-bpp], prev[i], prev[i-bpp])
			}
		}
		prev = row
	}
	return out, nil
}

func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

// --- DOCX media ----------------------------------------------------------------------------------

// docxLook looks at a picture part of a DOCX: a PNG, JPEG or GIF by its pixels, an EMF by its text.
// Other formats (WMF, SVG, TIFF) are not looked at.
func docxLook(raw []byte) (pixels int, text bool) {
	if isEMF(raw) {
		return 0, emfShowsText(raw)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxPicturePixels/cfg.Height ||
		cfg.Width*cfg.Height < minPicturePixels {
		return 0, false
	}
	return pictureShowsText(func() (image.Image, error) {
		img, _, err := image.Decode(bytes.NewReader(raw))
		return img, err
	})
}

// An Enhanced Metafile is what Word pastes when text is pasted "as a picture": a list of drawing
// records, the text among them as strings (EMR_EXTTEXTOUTW, …A). Its text is not pixels, but it is
// not read as the document's text either.
const (
	emrHeader      = 1
	emrExtTextOutA = 83
	emrExtTextOutW = 84
	emfSignature   = 0x464D4520 // " EMF"
	emfMaxRecords  = 1 << 20
	emfLongRecord  = 15 // characters of a record that is a line of text rather than a label
	emfLinesOfText = 3
)

func isEMF(raw []byte) bool {
	return len(raw) >= 44 && binary.LittleEndian.Uint32(raw) == emrHeader &&
		binary.LittleEndian.Uint32(raw[40:]) == emfSignature
}

// emfShowsText tells whether a metafile draws three or more strings of 15 or more characters (not
// counting spaces): lines of pasted text. A chart pasted from a spreadsheet draws its labels, which
// are short.
func emfShowsText(raw []byte) bool {
	long := 0
	for off, n := 0, 0; off+8 <= len(raw) && n < emfMaxRecords; n++ {
		typ := binary.LittleEndian.Uint32(raw[off:])
		size := int(binary.LittleEndian.Uint32(raw[off+4:]))
		if size < 8 || size%4 != 0 || size > len(raw)-off {
			break
		}
		if rec := raw[off : off+size]; (typ == emrExtTextOutW || typ == emrExtTextOutA) && len(rec) >= 52 {
			chars := int(binary.LittleEndian.Uint32(rec[44:]))
			at := int(binary.LittleEndian.Uint32(rec[48:]))
			width := 1
			if typ == emrExtTextOutW {
				width = 2
			}
			if at >= 0 && chars >= 0 && chars <= len(rec) && at <= len(rec)-chars*width &&
				emfCharacters(rec[at:at+chars*width], width) >= emfLongRecord {
				if long++; long >= emfLinesOfText {
					return true
				}
			}
		}
		off += size
	}
	return false
}

// emfCharacters counts the characters of a record's string that are not spaces.
func emfCharacters(b []byte, width int) int {
	n := 0
	for i := 0; i+width <= len(b); i += width {
		c := rune(b[i])
		if width == 2 {
			c = rune(binary.LittleEndian.Uint16(b[i:]))
		}
		if c != 0 && !unicode.IsSpace(c) {
			n++
		}
	}
	return n
}
