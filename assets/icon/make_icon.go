//go:build ignore

// make_icon draws assets/icon.png (512×512): a blue rounded tile, a white page with text lines and
// the character 查 in Noto Sans SC Bold, and a magnifier over the page's lower right corner.
//
// Run assets/icon/make_icon.sh (or, from the repository root, go run assets/icon/make_icon.go once
// the module requires golang.org/x/image).
package main

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"log"
	"math"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

const size = 512

var (
	blueTop    = color.RGBA{0x2b, 0x6c, 0xd6, 0xff}
	blueBottom = color.RGBA{0x17, 0x45, 0x9c, 0xff}
	paper      = color.RGBA{0xff, 0xff, 0xff, 0xff}
	fold       = color.RGBA{0xc9, 0xd6, 0xea, 0xff}
	lineGrey   = color.RGBA{0xb8, 0xc2, 0xd0, 0xff}
	ink        = color.RGBA{0x1b, 0x2a, 0x41, 0xff}
	lensRim    = color.RGBA{0xf5, 0x9e, 0x0b, 0xff}
	lensGlass  = color.NRGBA{0xff, 0xf4, 0xd6, 0xf0}
	handle     = color.RGBA{0x7c, 0x4a, 0x03, 0xff}
	check      = color.RGBA{0x16, 0xa3, 0x4a, 0xff}
)

func main() {
	img := image.NewRGBA(image.Rect(0, 0, size, size))

	// Tile: a vertical gradient clipped by a rounded square.
	grad := image.NewRGBA(img.Bounds())
	for y := 0; y < size; y++ {
		t := float64(y) / size
		c := color.RGBA{lerp(blueTop.R, blueBottom.R, t), lerp(blueTop.G, blueBottom.G, t), lerp(blueTop.B, blueBottom.B, t), 0xff}
		for x := 0; x < size; x++ {
			grad.SetRGBA(x, y, c)
		}
	}
	fillPath(img, grad, func(z *vector.Rasterizer) { roundRect(z, 16, 16, 496, 496, 96) })

	// Page with a folded corner.
	fillPath(img, image.NewUniform(paper), func(z *vector.Rasterizer) {
		z.MoveTo(112, 72)
		z.LineTo(318, 72)
		z.LineTo(392, 146)
		z.LineTo(392, 440)
		z.LineTo(112, 440)
		z.ClosePath()
	})
	fillPath(img, image.NewUniform(fold), func(z *vector.Rasterizer) {
		z.MoveTo(318, 72)
		z.LineTo(318, 146)
		z.LineTo(392, 146)
		z.ClosePath()
	})
	for _, l := range [][3]float32{{140, 110, 290}, {140, 134, 270}, {140, 340, 250}, {140, 366, 230}, {140, 392, 200}} {
		fillPath(img, image.NewUniform(lineGrey), func(z *vector.Rasterizer) { roundRect(z, l[0], l[1], l[2], l[1]+12, 6) })
	}

	// 查 in the middle of the page.
	drawGlyph(img, "查", 150, 246, 290)

	// Magnifier: handle, rim (a ring), tinted glass, a check mark in the glass.
	cx, cy, r := float32(360), float32(360), float32(74)
	stroke(img, image.NewUniform(handle), cx+r*0.68, cy+r*0.68, 468, 468, 24)
	fillPath(img, image.NewUniform(lensGlass), func(z *vector.Rasterizer) { circle(z, cx, cy, r, false) })
	fillPath(img, image.NewUniform(lensRim), func(z *vector.Rasterizer) {
		circle(z, cx, cy, r+16, false)
		circle(z, cx, cy, r, true)
	})
	stroke(img, image.NewUniform(check), cx-38, cy+2, cx-12, cy+30, 15)
	stroke(img, image.NewUniform(check), cx-12, cy+30, cx+40, cy-28, 15)

	out, err := os.Create("assets/icon.png")
	if err != nil {
		log.Fatal(err)
	}
	if err := png.Encode(out, img); err != nil {
		log.Fatal(err)
	}
	if err := out.Close(); err != nil {
		log.Fatal(err)
	}
}

func lerp(a, b uint8, t float64) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*t) }

func fillPath(dst draw.Image, src image.Image, path func(*vector.Rasterizer)) {
	z := vector.NewRasterizer(size, size)
	path(z)
	z.Draw(dst, dst.Bounds(), src, image.Point{})
}

func roundRect(z *vector.Rasterizer, x0, y0, x1, y1, r float32) {
	const k = 0.5523 // cubic Bézier approximation of a quarter circle
	z.MoveTo(x0+r, y0)
	z.LineTo(x1-r, y0)
	z.CubeTo(x1-r+r*k, y0, x1, y0+r-r*k, x1, y0+r)
	z.LineTo(x1, y1-r)
	z.CubeTo(x1, y1-r+r*k, x1-r+r*k, y1, x1-r, y1)
	z.LineTo(x0+r, y1)
	z.CubeTo(x0+r-r*k, y1, x0, y1-r+r*k, x0, y1-r)
	z.LineTo(x0, y0+r)
	z.CubeTo(x0, y0+r-r*k, x0+r-r*k, y0, x0+r, y0)
	z.ClosePath()
}

// circle adds a circle; reverse winds it the other way so that it cuts a hole in an enclosing one.
func circle(z *vector.Rasterizer, cx, cy, r float32, reverse bool) {
	const n = 96
	for i := 0; i <= n; i++ {
		a := 2 * math.Pi * float64(i) / n
		if reverse {
			a = -a
		}
		x, y := cx+r*float32(math.Cos(a)), cy+r*float32(math.Sin(a))
		if i == 0 {
			z.MoveTo(x, y)
		} else {
			z.LineTo(x, y)
		}
	}
	z.ClosePath()
}

// stroke draws a line from (x0,y0) to (x1,y1) with round ends. The body and the two caps are filled
// one by one: in one path their windings could cancel where they overlap and leave holes.
func stroke(dst draw.Image, src image.Image, x0, y0, x1, y1, w float32) {
	dx, dy := x1-x0, y1-y0
	l := float32(math.Hypot(float64(dx), float64(dy)))
	nx, ny := -dy/l*w/2, dx/l*w/2
	fillPath(dst, src, func(z *vector.Rasterizer) {
		z.MoveTo(x0+nx, y0+ny)
		z.LineTo(x1+nx, y1+ny)
		z.LineTo(x1-nx, y1-ny)
		z.LineTo(x0-nx, y0-ny)
		z.ClosePath()
	})
	fillPath(dst, src, func(z *vector.Rasterizer) { circle(z, x0, y0, w/2, false) })
	fillPath(dst, src, func(z *vector.Rasterizer) { circle(z, x1, y1, w/2, false) })
}

func drawGlyph(dst draw.Image, s string, px float64, x, baseline int) {
	data, err := os.ReadFile("assets/fonts/NotoSansSC-Bold.ttf")
	if err != nil {
		log.Fatal(err)
	}
	f, err := opentype.Parse(data)
	if err != nil {
		log.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		log.Fatal(err)
	}
	d := &font.Drawer{Dst: dst, Src: image.NewUniform(ink), Face: face}
	w := d.MeasureString(s)
	d.Dot = fixed.Point26_6{X: fixed.I(x) - w/2, Y: fixed.I(baseline)}
	d.DrawString(s)
}
