// PATCH (new file): tests of how Content reports the painting of glyphs (paint.go).

package pdf

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
)

// paintPDF is a one-page PDF (612 × 792) drawing content, with resources for every case below:
// Helvetica (/F1), opacity 0 (/GS0), a line width of 40 (/GSW), a layer that is off (/oc1), forms that show "A" (/Fm1 with
// the page as its box, /Fm2 with a box of 10 × 10 at the origin), a grey image (/Im1), and colour
// spaces (/Sep: the /None colorant; /Idx: white and black by index). pageExtra goes into the
// page's dictionary.
func paintPDF(content, pageExtra string) []byte {
	form := "BT /F1 12 Tf 72 700 Td (A) Tj ET"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [6 0 R] /D << /OFF [6 0 R] >> >> >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " + pageExtra + " /Contents 4 0 R /Resources << /Font << /F1 5 0 R >>" +
			" /ExtGState << /GS0 << /ca 0 /CA 0 >> /GSW << /LW 40 >> >> /Properties << /oc1 6 0 R >>" +
			" /XObject << /Fm1 7 0 R /Fm2 8 0 R /Im1 9 0 R >>" +
			" /ColorSpace << /Sep [/Separation /None /DeviceGray 10 0 R] /Idx [/Indexed /DeviceRGB 1 <FFFFFF000000>] >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Type /OCG /Name (off) >>",
		fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Length %d >>\nstream\n%s\nendstream", len(form), form),
		fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /Font << /F1 5 0 R >> >> /Length %d >>\nstream\n%s\nendstream", len(form), form),
		"<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 1 >>\nstream\n\x80\nendstream",
		"<< /FunctionType 2 /Domain [0 1] /C0 [1] /C1 [0] /N 1 >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// TestContentPaint: each glyph says how it is painted and on what, whatever operators set that.
func TestContentPaint(t *testing.T) {
	const show = "BT /F1 12 Tf 72 700 Td (A) Tj ET"
	white, black := Color{1, 1, 1, true}, Color{0, 0, 0, true}
	blueish := Color{0.2, 0.4, 0.6, true}
	tests := []struct {
		name    string
		content string
		check   func(t *testing.T, g glyph)
	}{
		{"black by default, on the white page", show, func(t *testing.T, g glyph) {
			want(t, "fill", g.Paint.Fill, black)
			want(t, "back", g.Back.Color, white)
			want(t, "mode", g.Paint.Mode, 0)
			want(t, "alpha", g.Paint.FillAlpha, 1.0)
		}},
		{"white by rg", "1 1 1 rg " + show, func(t *testing.T, g glyph) { want(t, "fill", g.Paint.Fill, white) }},
		{"white by g", "1 g " + show, func(t *testing.T, g glyph) { want(t, "fill", g.Paint.Fill, white) }},
		{"white by k", "0 0 0 0 k " + show, func(t *testing.T, g glyph) { want(t, "fill", g.Paint.Fill, white) }},
		{"yellow by k", "0 0 1 0 k " + show, func(t *testing.T, g glyph) { want(t, "fill", g.Paint.Fill, Color{1, 1, 0, true}) }},
		{"white by index", "/Idx cs 0 sc " + show, func(t *testing.T, g glyph) { want(t, "fill", g.Paint.Fill, white) }},
		{"black by index", "/Idx cs 1 sc " + show, func(t *testing.T, g glyph) { want(t, "fill", g.Paint.Fill, black) }},
		{"the None colorant paints nothing", "/Sep cs 1 scn " + show, func(t *testing.T, g glyph) { want(t, "alpha", g.Paint.FillAlpha, 0.0) }},
		{"a spot tint is not converted", "/DeviceGray cs 0.3 sc /Sep cs " + show, func(t *testing.T, g glyph) {
			want(t, "known", g.Paint.Fill.Known || g.Paint.FillAlpha != 0, false)
		}},
		{"fully transparent", "/GS0 gs " + show, func(t *testing.T, g glyph) { want(t, "alpha", g.Paint.FillAlpha, 0.0) }},
		{"render mode 3", "BT 3 Tr /F1 12 Tf 72 700 Td (A) Tj ET", func(t *testing.T, g glyph) { want(t, "mode", g.Paint.Mode, 3) }},
		{"on a box drawn before", "0.2 0.4 0.6 rg 50 650 300 100 re f 1 g " + show, func(t *testing.T, g glyph) {
			want(t, "back", g.Back.Color, blueish)
			want(t, "covered", g.Covered, false)
		}},
		{"on a box drawn as a path of lines", "0.2 0.4 0.6 rg 50 650 m 350 650 l 350 750 l 50 750 l h f " + show, func(t *testing.T, g glyph) {
			want(t, "back", g.Back.Color, blueish)
		}},
		// A shape of other lines than a box's: where it holds the glyph's centre (PATCH: region.shape).
		{"on a round shape", "0.2 0.4 0.6 rg 50 650 m 350 650 l 350 750 350 750 50 750 c h f " + show, func(t *testing.T, g glyph) {
			want(t, "back", g.Back.Color, blueish)
		}},
		{"beside a triangle, in its box: the page", "0.2 0.4 0.6 rg 50 750 m 350 750 l 350 650 l h f " + show, func(t *testing.T, g glyph) {
			want(t, "back", g.Back.Color, white)
		}},
		{"covered by an ellipse drawn after", show + " 1 g 50 700 m 50 740 130 750 200 750 c 270 750 350 740 350 700 c 350 660 270 650 200 650 c 130 650 50 660 50 700 c h f",
			func(t *testing.T, g glyph) { want(t, "covered", g.Covered, true) }},
		{"on a translucent box: unknown", "/GS0 gs 0 g 50 650 300 100 re f " + "BT /F1 12 Tf 72 700 Td (A) Tj ET", func(t *testing.T, g glyph) {
			want(t, "back known", g.Back.Color.Known, false)
		}},
		{"a box elsewhere", "0 g 300 100 100 100 re f " + show, func(t *testing.T, g glyph) { want(t, "back", g.Back.Color, white) }},
		{"covered by a box drawn after", show + " 1 g 50 650 300 100 re f", func(t *testing.T, g glyph) { want(t, "covered", g.Covered, true) }},
		{"a stroked box covers nothing", show + " 1 g 50 650 300 100 re S", func(t *testing.T, g glyph) { want(t, "covered", g.Covered, false) }},
		// A thick line of one colour drawn over the glyph covers it (w, an ExtGState's LW, the CTM's
		// scale); a strikethrough, a diagonal or a translucent line does not.
		{"covered by a thick line drawn after", show + " 1 G 40 w 50 704 m 350 704 l S", func(t *testing.T, g glyph) { want(t, "covered", g.Covered, true) }},
		{"covered by a thick line down the page", show + " 1 G 40 w 76 600 m 76 800 l S", func(t *testing.T, g glyph) { want(t, "covered", g.Covered, true) }},
		{"covered by a line made thick by the CTM", show + " q 20 0 0 20 0 0 cm 1 G 2 w 2.5 35.2 m 17.5 35.2 l S Q", func(t *testing.T, g glyph) {
			want(t, "covered", g.Covered, true)
		}},
		{"covered by a line an ExtGState makes thick", show + " /GSW gs 1 G 50 704 m 350 704 l S", func(t *testing.T, g glyph) { want(t, "covered", g.Covered, true) }},
		{"a strikethrough covers nothing", show + " 0 G 1.2 w 50 704 m 350 704 l S", func(t *testing.T, g glyph) { want(t, "covered", g.Covered, false) }},
		{"a thick diagonal covers nothing", show + " 1 G 40 w 50 690 m 350 720 l S", func(t *testing.T, g glyph) { want(t, "covered", g.Covered, false) }},
		{"a translucent thick line covers nothing", show + " /GS0 gs 1 G 40 w 50 704 m 350 704 l S", func(t *testing.T, g glyph) { want(t, "covered", g.Covered, false) }},
		{"a box in a layer that is off covers nothing", show + " /OC /oc1 BDC 1 g 50 650 300 100 re f EMC", func(t *testing.T, g glyph) { want(t, "covered", g.Covered, false) }},
		{"nor is it under the text", "/OC /oc1 BDC 0 g 50 650 300 100 re f EMC " + show, func(t *testing.T, g glyph) { want(t, "back", g.Back.Color, white) }},
		{"on an image", "q 612 0 0 792 0 0 cm /Im1 Do Q " + show, func(t *testing.T, g glyph) {
			want(t, "on image", g.Back.Image, true)
			want(t, "back known", g.Back.Color.Known, false)
		}},
		{"under an image drawn after it", show + " q 612 0 0 792 0 0 cm /Im1 Do Q", func(t *testing.T, g glyph) {
			want(t, "on image", g.Back.Image, true)
		}},
		{"clipped", "q 0 0 10 10 re W n " + show + " Q", func(t *testing.T, g glyph) {
			want(t, "clip", g.Paint.Clip, Rect{Point{0, 0}, Point{10, 10}})
		}},
		{"a clip without a path clips nothing", "q W n " + show + " Q", func(t *testing.T, g glyph) { want(t, "clip", g.Paint.Clip, noClip) }},
		{"clip restored by Q", "q 0 0 10 10 re W n Q " + show, func(t *testing.T, g glyph) { want(t, "clip", g.Paint.Clip, noClip) }},
		{"in a layer that is off", "/OC /oc1 BDC " + show + " EMC", func(t *testing.T, g glyph) { want(t, "off", g.Paint.Off, true) }},
		{"after the layer", "/OC /oc1 BDC EMC " + show, func(t *testing.T, g glyph) { want(t, "off", g.Paint.Off, false) }},
		{"scaled by the CTM", "2 0 0 2 0 0 cm BT /F1 0.5 Tf 36 350 Td (A) Tj ET", func(t *testing.T, g glyph) {
			want(t, "height", g.Paint.Height, 1.0)
			want(t, "width", g.Paint.Width, 1.0)
		}},
		{"squeezed by Tz", "BT /F1 12 Tf 10 Tz 72 700 Td (A) Tj ET", func(t *testing.T, g glyph) {
			want(t, "height", g.Paint.Height, 12.0)
			want(t, "width", math.Round(g.Paint.Width*100)/100, 1.2)
		}},
		{"a form inherits the fill", "1 g /Fm1 Do", func(t *testing.T, g glyph) { want(t, "fill", g.Paint.Fill, white) }},
		{"a form is clipped to its box", "/Fm2 Do", func(t *testing.T, g glyph) {
			want(t, "clip", g.Paint.Clip, Rect{Point{0, 0}, Point{10, 10}})
		}},
		{"clip-only text, nothing painted through", "q BT 7 Tr /F1 12 Tf 72 700 Td (A) Tj ET Q 0 g 0 0 612 792 re f", func(t *testing.T, g glyph) {
			want(t, "mode", g.Paint.Mode, 7)
		}},
		{"clip-only text painted through", "q BT 7 Tr /F1 12 Tf 72 700 Td (A) Tj ET 0 0 1 rg 0 0 612 792 re f Q", func(t *testing.T, g glyph) {
			want(t, "mode", g.Paint.Mode, 0)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := paintPDF(tt.content, "")
			r, err := NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			c := r.Page(1).Content()
			if len(c.Text) != 1 || c.Text[0].S != "A" {
				t.Fatalf("glyphs %+v, want one A", c.Text)
			}
			g := c.Text[0]
			tt.check(t, glyph{g, &c.Paints[g.Paint], &c.Backdrops[g.Back]})
		})
	}
}

// glyph is a Text with its Paint and Backdrop looked up.
type glyph struct {
	Text
	Paint *Paint
	Back  *Backdrop
}

func want[T comparable](t *testing.T, what string, got, w T) {
	t.Helper()
	if got != w {
		t.Errorf("%s: %v, want %v", what, got, w)
	}
}

// A Content's Text given back with Recycle is filled by the Reader's next Content, which reads the
// same glyphs; a Content after that, nothing given back, has a Text of its own.
func TestContentRecycle(t *testing.T) {
	data := paintPDF("0 g BT /F1 12 Tf 72 700 Td (AB) Tj ET", "")
	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	p := r.Page(1)
	first := p.Content()
	want := slices.Clone(first.Text)
	if len(want) != 2 {
		t.Fatalf("glyphs %+v, want A and B", want)
	}
	p.Recycle(first)
	second := p.Content()
	if !reflect.DeepEqual(second.Text, want) {
		t.Errorf("after Recycle: glyphs %+v, want %+v", second.Text, want)
	}
	if &second.Text[0] != &first.Text[0] {
		t.Error("the next Content did not fill the Text given back")
	}
	if third := p.Content(); &third.Text[0] == &second.Text[0] {
		t.Error("two Contents share their Text with nothing given back")
	}
}

// A hostile page that paints more areas than are remembered leaves later glyphs' backgrounds
// unknown (never "white"), and stays fast.
func TestContentManyRegions(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("0 g ")
	for i := 0; i < maxRegions+10; i++ {
		fmt.Fprintf(&b, "%d 0 5 5 re f ", i%600)
	}
	b.WriteString("0 g 0 0 612 792 re f 0 g BT /F1 12 Tf 72 700 Td (A) Tj ET")
	data := paintPDF(b.String(), "")
	r, err := NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	c := r.Page(1).Content()
	if len(c.Text) != 1 || c.Backdrops[c.Text[0].Back].Color.Known {
		t.Errorf("glyphs %+v, want one on an unknown background", c.Text)
	}
}

func TestCropBox(t *testing.T) {
	tests := []struct {
		extra string
		want  Rect
	}{
		{"", Rect{Point{0, 0}, Point{612, 792}}},
		{"/CropBox [10 20 700 500]", Rect{Point{10, 20}, Point{612, 500}}}, // inside the media box
		{"/CropBox [500 20 10 700]", Rect{Point{10, 20}, Point{500, 700}}}, // corners in any order
		{"/CropBox [700 800 900 900]", Rect{Point{0, 0}, Point{612, 792}}}, // outside: the media box
	}
	for _, tt := range tests {
		data := paintPDF("BT ET", tt.extra)
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Page(1).CropBox(); got != tt.want {
			t.Errorf("%q: crop box %v, want %v", tt.extra, got, tt.want)
		}
	}
}

// TestContentShapes: the subpaths of filled paths that are not only rectangles are listed by their
// boxes (curves by their control points), clipped; rectangles, strokes, layers that are off and
// fills that paint nothing are not.
func TestContentShapes(t *testing.T) {
	glyph := "10 10 m 10 20 16 20 16 10 c h 17 10 m 18 20 l 19 10 l h f\n"
	tests := []struct {
		name, content string
		want          []Rect
	}{
		{"two subpaths", glyph, []Rect{{Point{10, 10}, Point{16, 20}}, {Point{17, 10}, Point{19, 20}}}},
		{"moved by the matrix", "1 0 0 1 100 200 cm " + glyph, []Rect{{Point{110, 210}, Point{116, 220}}, {Point{117, 210}, Point{119, 220}}}},
		{"clipped", "0 0 18 100 re W n " + glyph, []Rect{{Point{10, 10}, Point{16, 20}}, {Point{17, 10}, Point{18, 20}}}},
		{"a rectangle beside a curve", "0 0 5 5 re 10 10 m 10 20 16 20 16 10 c f\n", []Rect{{Point{0, 0}, Point{5, 5}}, {Point{10, 10}, Point{16, 20}}}},
		{"rectangles only", "0 0 5 5 re 10 10 5 5 re f\n", nil},
		{"stroked", "10 10 m 10 20 16 20 16 10 c S\n", nil},
		{"in a layer that is off", "/OC /oc1 BDC " + glyph + "EMC\n", nil},
		{"transparent", "/GS0 gs " + glyph, nil},
		{"the None colorant", "/Sep cs 1 scn " + glyph, nil},
	}
	for _, tt := range tests {
		data := paintPDF(tt.content, "")
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Page(1).Content().Shapes; !slices.Equal(got, tt.want) {
			t.Errorf("%s: shapes %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestContentAnnotations: the appearance of a visible annotation is drawn on the page, fitted to
// its rectangle (a form showing "A" at 72, 700 on a 612 × 792 box, in a rectangle half as large);
// hidden ones, links and an appearance state that is not on are not.
func TestContentAnnotations(t *testing.T) {
	const annot = "/Annots [<< /Type /Annot /Subtype /FreeText /Rect [0 0 306 396] %s >>]"
	tests := []struct {
		name, extra string
		want        int
	}{
		{"a text box", "/AP << /N 7 0 R >>", 1},
		{"hidden", "/F 2 /AP << /N 7 0 R >>", 0},
		{"not on screen", "/F 32 /AP << /N 7 0 R >>", 0},
		{"a state that is on", "/AS /On /AP << /N << /On 7 0 R /Off 8 0 R >> >>", 1},
		{"a state with no appearance", "/AS /Off /AP << /N << /On 7 0 R >> >>", 0},
		{"in a layer that is off", "/OC 6 0 R /AP << /N 7 0 R >>", 0},
		{"without an appearance", "", 0},
	}
	for _, tt := range tests {
		data := paintPDF("", fmt.Sprintf(annot, tt.extra))
		r, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		c := r.Page(1).Content()
		visible := 0
		for _, g := range c.Text {
			if !c.Paints[g.Paint].Off {
				visible++
			}
		}
		if visible != tt.want {
			t.Errorf("%s: %d glyphs seen, want %d", tt.name, visible, tt.want)
			continue
		}
		if tt.want == 1 {
			g := c.Text[0]
			if g.S != "A" || math.Abs(g.X-36) > 0.01 || math.Abs(g.Y-350) > 0.01 || math.Abs(g.FontSize-6) > 0.01 {
				t.Errorf("%s: glyph %+v, want A at 36, 350 in 6 pt", tt.name, g)
			}
		}
	}
}
