// PATCH (new file): tests of PDF functions (function.go).

package pdf

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestCalculator(t *testing.T) {
	tests := []struct {
		prog       string
		domain, in []float64
		rng        []float64
		want       []float64 // nil: cannot be evaluated
	}{
		{"{ pop 1 }", []float64{0, 1}, []float64{0.3}, []float64{0, 1}, []float64{1}},
		{"{ 1 exch sub }", []float64{0, 1}, []float64{0.25}, []float64{0, 1}, []float64{0.75}},
		{"{ dup 0.5 gt { pop 1 } { pop 0 } ifelse }", []float64{0, 1}, []float64{0.7}, []float64{0, 1}, []float64{1}},
		{"{ dup 0.5 gt { pop 1 } { pop 0 } ifelse }", []float64{0, 1}, []float64{0.2}, []float64{0, 1}, []float64{0}},
		{"{ dup 0.5 lt { pop 0.5 } if } % a comment\n", []float64{0, 1}, []float64{0.2}, []float64{0, 1}, []float64{0.5}},
		{"{ 3 1 roll }", []float64{0, 1, 0, 1, 0, 1}, []float64{0.1, 0.2, 0.3}, []float64{0, 1, 0, 1, 0, 1}, []float64{0.3, 0.1, 0.2}},
		{"{ 1 index }", []float64{0, 1, 0, 1}, []float64{0.1, 0.2}, []float64{0, 1, 0, 1}, []float64{0.2, 0.1}},
		{"{ 0.5 mul 0.25 add 2 exp }", []float64{0, 1}, []float64{1}, []float64{0, 1}, []float64{0.5625}},
		{"{ 2 mul }", []float64{0, 1}, []float64{0.9}, []float64{0, 1}, []float64{1}}, // clamped to the range
		{"{ 2 mul }", []float64{0, 1}, []float64{-3}, []float64{-1, 1}, []float64{0}}, // input clamped to the domain
		{"{ dup 0 eq exch 1 eq or { 1 } { 0 } ifelse }", []float64{0, 1}, []float64{1}, []float64{0, 1}, []float64{1}},
		{"{ pop 1", []float64{0, 1}, []float64{0}, []float64{0, 1}, nil},                              // not closed
		{"{ 1 { pop } }", []float64{0, 1}, []float64{0}, []float64{0, 1}, nil},                        // a block without if
		{"{ pop 1 } 2", []float64{0, 1}, []float64{0}, []float64{0, 1}, nil},                          // past the program
		{"{ pop moveto }", []float64{0, 1}, []float64{0}, []float64{0, 1}, nil},                       // not a calculator operator
		{"{ pop pop }", []float64{0, 1}, []float64{0}, []float64{0, 1}, nil},                          // stack underflow
		{"{ " + strings.Repeat("1 ", 200) + "}", []float64{0, 1}, []float64{0}, []float64{0, 1}, nil}, // overflow
	}
	for _, tt := range tests {
		code, ok := parseCalculator([]byte(tt.prog))
		var got []float64
		if ok {
			got, ok = (&calcFunc{domain: tt.domain, rng: tt.rng, code: code}).eval(tt.in)
		}
		if tt.want == nil {
			if ok {
				t.Errorf("%q of %v = %v, want an error", tt.prog, tt.in, got)
			}
			continue
		}
		if !ok || !slices.EqualFunc(got, tt.want, func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }) {
			t.Errorf("%q of %v = %v, %v; want %v", tt.prog, tt.in, got, ok, tt.want)
		}
	}
}

func TestFunctionKinds(t *testing.T) {
	exp := func(c0, c1 float64) dict {
		return dict{"FunctionType": int64(2), "Domain": array{0.0, 1.0}, "C0": array{c0}, "C1": array{c1}, "N": 1.0}
	}
	// nest(n) is a stitching function of 256 parts, each the same function nested n-1 deep.
	var nest func(n int) object
	nest = func(n int) object {
		if n == 0 {
			return exp(0, 1)
		}
		inner := nest(n - 1)
		parts, bounds, encode := array{}, array{}, array{}
		for i := 0; i < 256; i++ {
			parts = append(parts, inner)
			encode = append(encode, 0.0, 1.0)
			if i > 0 {
				bounds = append(bounds, float64(i)/256)
			}
		}
		return dict{"FunctionType": int64(3), "Domain": array{0.0, 1.0}, "Bounds": bounds, "Encode": encode, "Functions": parts}
	}
	tests := []struct {
		name string
		fn   object
		in   float64
		want []float64 // nil: not loaded
	}{
		{"exponential", exp(0.2, 1), 0.5, []float64{0.6}},
		{"exponential, defaults", dict{"FunctionType": int64(2), "Domain": array{0.0, 1.0}, "N": 2.0}, 0.5, []float64{0.25}},
		{"stitching, first part", dict{"FunctionType": int64(3), "Domain": array{0.0, 1.0}, "Bounds": array{0.5},
			"Encode": array{0.0, 1.0, 0.0, 1.0}, "Functions": array{exp(0, 0), exp(1, 1)}}, 0.2, []float64{0}},
		{"stitching, second part", dict{"FunctionType": int64(3), "Domain": array{0.0, 1.0}, "Bounds": array{0.5},
			"Encode": array{0.0, 1.0, 0.0, 1.0}, "Functions": array{exp(0, 0), exp(1, 1)}}, 0.7, []float64{1}},
		{"an array of functions", array{exp(0, 1), exp(1, 0)}, 0.25, []float64{0.25, 0.75}},
		{"stitching with bounds missing", dict{"FunctionType": int64(3), "Domain": array{0.0, 1.0},
			"Encode": array{0.0, 1.0, 0.0, 1.0}, "Functions": array{exp(0, 0), exp(1, 1)}}, 0.7, nil},
		{"an unknown type", dict{"FunctionType": int64(7), "Domain": array{0.0, 1.0}}, 0.5, nil},
		{"no domain", dict{"FunctionType": int64(2), "C0": array{0.0}, "C1": array{1.0}, "N": 1.0}, 0.5, nil},
		{"parts shared at every level, past the bound", nest(8), 0.5, nil},
		{"a calculator that is not a stream", dict{"FunctionType": int64(4), "Domain": array{0.0, 1.0}, "Range": array{0.0, 1.0}}, 0.5, nil},
	}
	for _, tt := range tests {
		f := loadFunction(testValue(tt.fn))
		if tt.want == nil {
			if f != nil {
				t.Errorf("%s: loaded %#v", tt.name, f)
			}
			continue
		}
		if f == nil {
			t.Errorf("%s: not loaded", tt.name)
			continue
		}
		got, ok := f.eval([]float64{tt.in})
		if !ok || !slices.EqualFunc(got, tt.want, func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }) {
			t.Errorf("%s of %v = %v, %v; want %v", tt.name, tt.in, got, ok, tt.want)
		}
	}
}
