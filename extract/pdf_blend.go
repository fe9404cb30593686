package extract

import "math"

// pdfBlend is the colour that paint of colour s, blended by mode (a PDF blend mode, ISO 32000-1
// 11.3.5; "" or one this does not know: Normal) at full opacity, leaves on a backdrop of colour
// b, all in RGB from 0 to 1. A glyph is seen by what it leaves, not by its own colour: black text
// in Screen or Lighten, and text of any colour in Overlay, SoftLight or ColorDodge, leave white
// paper white.
func pdfBlend(mode string, b, s [3]float64) [3]float64 {
	var sep func(b, s float64) float64
	switch mode {
	case "Multiply":
		sep = func(b, s float64) float64 { return b * s }
	case "Screen":
		sep = screen
	case "Overlay":
		sep = func(b, s float64) float64 { return hardLight(s, b) }
	case "Darken":
		sep = math.Min
	case "Lighten":
		sep = math.Max
	case "ColorDodge":
		sep = func(b, s float64) float64 {
			switch {
			case b == 0:
				return 0
			case s >= 1:
				return 1
			}
			return min(1, b/(1-s))
		}
	case "ColorBurn":
		sep = func(b, s float64) float64 {
			switch {
			case b >= 1:
				return 1
			case s <= 0:
				return 0
			}
			return 1 - min(1, (1-b)/s)
		}
	case "HardLight":
		sep = hardLight
	case "SoftLight":
		sep = func(b, s float64) float64 {
			if s <= 0.5 {
				return b - (1-2*s)*b*(1-b)
			}
			d := math.Sqrt(b)
			if b <= 0.25 {
				d = ((16*b-12)*b + 4) * b
			}
			return b + (2*s-1)*(d-b)
		}
	case "Difference":
		sep = func(b, s float64) float64 { return math.Abs(b - s) }
	case "Exclusion":
		sep = func(b, s float64) float64 { return b + s - 2*b*s }
	case "Hue":
		return setLum(setSat(s, sat(b)), lum(b))
	case "Saturation":
		return setLum(setSat(b, sat(s)), lum(b))
	case "Color":
		return setLum(s, lum(b))
	case "Luminosity":
		return setLum(b, lum(s))
	default:
		return s
	}
	var out [3]float64
	for i := range out {
		out[i] = sep(b[i], s[i])
	}
	return out
}

func screen(b, s float64) float64 { return b + s - b*s }

func hardLight(b, s float64) float64 {
	if s <= 0.5 {
		return b * 2 * s
	}
	return screen(b, 2*s-1)
}

// The non-separable blend modes' helpers, as ISO 32000-1 11.3.5.3 defines them.

func lum(c [3]float64) float64 { return 0.3*c[0] + 0.59*c[1] + 0.11*c[2] }

func setLum(c [3]float64, l float64) [3]float64 {
	d := l - lum(c)
	for i := range c {
		c[i] += d
	}
	l = lum(c)
	n, x := min(c[0], c[1], c[2]), max(c[0], c[1], c[2])
	for i := range c {
		if n < 0 {
			c[i] = l + (c[i]-l)*l/(l-n)
		}
		if x > 1 {
			c[i] = l + (c[i]-l)*(1-l)/(x-l)
		}
	}
	return c
}

func sat(c [3]float64) float64 { return max(c[0], c[1], c[2]) - min(c[0], c[1], c[2]) }

func setSat(c [3]float64, s float64) [3]float64 {
	lo, hi := 0, 0
	for i := range c {
		if c[i] < c[lo] {
			lo = i
		}
		if c[i] > c[hi] {
			hi = i
		}
	}
	if lo == hi { // grey: every channel the same
		return [3]float64{}
	}
	mid := 3 - lo - hi
	var out [3]float64
	out[mid] = (c[mid] - c[lo]) * s / (c[hi] - c[lo])
	out[hi] = s
	return out
}
