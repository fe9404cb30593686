package extract

import (
	"math"
	"testing"
)

// TestPDFBlend checks the blend modes against values worked out by hand from ISO 32000-1 11.3.5.
func TestPDFBlend(t *testing.T) {
	grey := func(v float64) [3]float64 { return [3]float64{v, v, v} }
	white, black, red := grey(1), grey(0), [3]float64{1, 0, 0}
	tests := []struct {
		mode    string
		b, s    [3]float64
		want    [3]float64
		comment string
	}{
		{"", white, black, black, "Normal: the paint's own colour"},
		{"NoSuchMode", white, black, black, "a mode no one knows is Normal"},
		{"Screen", white, black, white, ""},
		{"Screen", grey(0.5), grey(0.5), grey(0.75), ""},
		{"Multiply", grey(0.5), grey(0.5), grey(0.25), ""},
		{"Multiply", white, red, red, ""},
		{"Overlay", white, red, white, "any colour leaves white white"},
		{"Overlay", grey(0.25), grey(0.5), grey(0.25), "Multiply(0.5, 2×0.25)"},
		{"Darken", grey(0.3), grey(0.6), grey(0.3), ""},
		{"Lighten", white, black, white, ""},
		{"ColorDodge", grey(0.5), grey(0.5), white, ""},
		{"ColorDodge", black, grey(0.9), black, ""},
		{"ColorBurn", grey(0.5), grey(0.5), black, ""},
		{"ColorBurn", white, black, white, ""},
		{"HardLight", grey(0.5), white, white, ""},
		{"HardLight", grey(0.5), grey(0.25), grey(0.25), ""},
		{"SoftLight", grey(0.25), white, grey(0.5), "D(0.25) = 0.5"},
		{"SoftLight", white, black, white, ""},
		{"Difference", white, black, white, ""},
		{"Difference", grey(0.75), grey(0.25), grey(0.5), ""},
		{"Exclusion", white, black, white, ""},
		{"Exclusion", grey(0.5), grey(0.5), grey(0.5), ""},
		{"Luminosity", white, black, black, ""},
		{"Color", white, red, white, ""},
		{"Color", grey(0.5), red, [3]float64{1, 0.5 - 0.3*0.5/0.7, 0.5 - 0.3*0.5/0.7}, "clipped to 1"},
		{"Hue", white, red, white, ""},
		{"Saturation", grey(0.5), red, grey(0.5), "a grey has no hue to saturate"},
	}
	for _, tt := range tests {
		got := pdfBlend(tt.mode, tt.b, tt.s)
		for i := range got {
			if math.Abs(got[i]-tt.want[i]) > 1e-9 {
				t.Errorf("pdfBlend(%q, %v, %v) = %v, want %v %s", tt.mode, tt.b, tt.s, got, tt.want, tt.comment)
				break
			}
		}
	}
}
