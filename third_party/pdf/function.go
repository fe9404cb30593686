// PATCH (new file): PDF functions (ISO 32000-1, 7.10), so that a spot colour's tint, a shading's
// colours and a soft mask can be turned into what a reader sees. Without them a tint was guessed
// (0 is white), and a file could draw visible text in a tint of 0 that its function makes black
// (taken as hidden) or hidden text in a tint that its function makes white (taken as visible).

package pdf

import (
	"math"
	"strconv"
)

// function is a PDF function of m inputs and n outputs. eval returns false when it cannot be
// evaluated (a malformed function, or one past the bounds below).
type function interface {
	eval(in []float64) ([]float64, bool)
}

const (
	// maxFunctionDepth bounds the nesting of stitching functions and of a calculator's blocks.
	maxFunctionDepth = 8
	// maxSampleBytes bounds the samples of a type 0 function read (a tint transform has a few
	// hundred bytes; a shading's a few KB).
	maxSampleBytes = 1 << 20
	// maxCalculatorOps bounds the operators a type 4 function runs for one evaluation, and its
	// program's size.
	maxCalculatorOps = 1 << 14
	maxCalculatorLen = 64 << 10
	// maxFunctionParts bounds the functions read for one (a stitching function's parts, arrays):
	// parts shared at every level would otherwise be read 256^8 times.
	maxFunctionParts = 1024
)

// loadFunction reads the function v: a dictionary or stream, or an array of functions of one
// output each (as a shading's /Function may be). It returns nil when it cannot.
func loadFunction(v Value) function {
	budget := maxFunctionParts
	return loadFunctionDepth(v, 0, &budget)
}

func loadFunctionDepth(v Value, depth int, budget *int) (f function) {
	if *budget--; depth > maxFunctionDepth || *budget < 0 {
		return nil
	}
	defer func() {
		if recover() != nil { // a damaged stream
			f = nil
		}
	}()
	if v.Kind() == Array {
		var fs funcArray
		for i := 0; i < v.Len() && i < 32; i++ {
			g := loadFunctionDepth(v.Index(i), depth+1, budget)
			if g == nil {
				return nil
			}
			fs = append(fs, g)
		}
		if len(fs) == 0 {
			return nil
		}
		return fs
	}
	domain := floats(v.Key("Domain"))
	if len(domain) < 2 || len(domain)%2 != 0 {
		return nil
	}
	rng := floats(v.Key("Range"))
	switch v.Key("FunctionType").Int64() {
	case 0:
		return loadSampled(v, domain, rng)
	case 2:
		c0, c1 := floats(v.Key("C0")), floats(v.Key("C1"))
		if v.Key("C0").IsNull() {
			c0 = []float64{0}
		}
		if v.Key("C1").IsNull() {
			c1 = []float64{1}
		}
		if len(c0) != len(c1) || len(c0) == 0 {
			return nil
		}
		return &expFunc{domain: domain[:2], c0: c0, c1: c1, n: v.Key("N").Float64(), rng: rng}
	case 3:
		s := &stitchFunc{domain: domain[:2], bounds: floats(v.Key("Bounds")), encode: floats(v.Key("Encode"))}
		fv := v.Key("Functions")
		for i := 0; i < fv.Len() && i < 256; i++ {
			g := loadFunctionDepth(fv.Index(i), depth+1, budget)
			if g == nil {
				return nil
			}
			s.fns = append(s.fns, g)
		}
		if len(s.fns) == 0 || len(s.bounds) != len(s.fns)-1 || len(s.encode) != 2*len(s.fns) {
			return nil
		}
		return s
	case 4:
		if v.Kind() != Stream || len(rng) < 2 {
			return nil
		}
		prog := readAtMost(v, maxCalculatorLen+1)
		if len(prog) > maxCalculatorLen {
			return nil
		}
		code, ok := parseCalculator(prog)
		if !ok {
			return nil
		}
		return &calcFunc{domain: domain, rng: rng, code: code}
	}
	return nil
}

func floats(v Value) []float64 {
	if v.Kind() != Array {
		return nil
	}
	out := make([]float64, 0, v.Len())
	for i := 0; i < v.Len() && i < 1024; i++ {
		out = append(out, v.Index(i).Float64())
	}
	return out
}

func clamp(x, lo, hi float64) float64 {
	if math.IsNaN(x) {
		return lo
	}
	return math.Min(math.Max(x, lo), hi)
}

// clampOut clamps outputs to a range (none when the range is shorter than the outputs).
func clampOut(out, rng []float64) []float64 {
	for i := range out {
		if 2*i+1 < len(rng) {
			out[i] = clamp(out[i], rng[2*i], rng[2*i+1])
		}
	}
	return out
}

func interpolate(x, x0, x1, y0, y1 float64) float64 {
	if x1 == x0 {
		return y0
	}
	return y0 + (x-x0)*(y1-y0)/(x1-x0)
}

type funcArray []function

func (fs funcArray) eval(in []float64) ([]float64, bool) {
	var out []float64
	for _, f := range fs {
		o, ok := f.eval(in)
		if !ok || len(o) == 0 {
			return nil, false
		}
		out = append(out, o[0])
	}
	return out, true
}

// expFunc is a type 2 function: C0 + x^N × (C1 − C0).
type expFunc struct {
	domain, c0, c1, rng []float64
	n                   float64
}

func (f *expFunc) eval(in []float64) ([]float64, bool) {
	if len(in) < 1 {
		return nil, false
	}
	x := clamp(in[0], f.domain[0], f.domain[1])
	p := math.Pow(x, f.n)
	if math.IsNaN(p) || math.IsInf(p, 0) {
		return nil, false
	}
	out := make([]float64, len(f.c0))
	for i := range out {
		out[i] = f.c0[i] + p*(f.c1[i]-f.c0[i])
	}
	return clampOut(out, f.rng), true
}

// stitchFunc is a type 3 function: one of its functions on each part of the domain.
type stitchFunc struct {
	domain, bounds, encode []float64
	fns                    []function
}

func (f *stitchFunc) eval(in []float64) ([]float64, bool) {
	if len(in) < 1 {
		return nil, false
	}
	x := clamp(in[0], f.domain[0], f.domain[1])
	k := 0
	for k < len(f.bounds) && x >= f.bounds[k] {
		k++
	}
	lo, hi := f.domain[0], f.domain[1]
	if k > 0 {
		lo = f.bounds[k-1]
	}
	if k < len(f.bounds) {
		hi = f.bounds[k]
	}
	return f.fns[k].eval([]float64{interpolate(x, lo, hi, f.encode[2*k], f.encode[2*k+1])})
}

// sampledFunc is a type 0 function: a table of samples, read at the nearest sample (a tint's
// appearance is all a caller needs, and tables are fine-grained).
type sampledFunc struct {
	domain, encode, decode []float64
	size                   []int
	n                      int
	samples                []float64 // 0–1, n per sample, the first input varying fastest
}

func loadSampled(v Value, domain, rng []float64) function {
	m, n := len(domain)/2, len(rng)/2
	size := floats(v.Key("Size"))
	bps := int(v.Key("BitsPerSample").Int64())
	if v.Kind() != Stream || n == 0 || len(size) != m || m > 4 {
		return nil
	}
	switch bps {
	case 1, 2, 4, 8, 12, 16, 24, 32:
	default:
		return nil
	}
	f := &sampledFunc{domain: domain, n: n, encode: floats(v.Key("Encode")), decode: floats(v.Key("Decode"))}
	count := 1
	for _, s := range size {
		if s < 1 || s > maxSampleBytes {
			return nil
		}
		f.size = append(f.size, int(s))
		count *= int(s)
		if count > maxSampleBytes {
			return nil
		}
	}
	if len(f.encode) != 2*m {
		f.encode = nil
		for _, s := range f.size {
			f.encode = append(f.encode, 0, float64(s-1))
		}
	}
	if len(f.decode) != 2*n {
		f.decode = rng[:2*n]
	}
	bits := count * n * bps
	if bits/8 > maxSampleBytes {
		return nil
	}
	data := readAtMost(v, (bits+7)/8)
	if len(data)*8 < bits {
		return nil
	}
	maxV := math.Pow(2, float64(bps)) - 1
	f.samples = make([]float64, count*n)
	pos := 0
	for i := range f.samples {
		var x uint64
		for b := 0; b < bps; b++ {
			x = x<<1 | uint64(data[pos>>3]>>(7-pos&7)&1)
			pos++
		}
		f.samples[i] = float64(x) / maxV
	}
	return f
}

func (f *sampledFunc) eval(in []float64) ([]float64, bool) {
	if len(in) < len(f.size) {
		return nil, false
	}
	idx, stride := 0, 1
	for i, s := range f.size {
		x := clamp(in[i], f.domain[2*i], f.domain[2*i+1])
		e := interpolate(x, f.domain[2*i], f.domain[2*i+1], f.encode[2*i], f.encode[2*i+1])
		k := int(math.Round(clamp(e, 0, float64(s-1))))
		idx += k * stride
		stride *= s
	}
	out := make([]float64, f.n)
	for j := range out {
		out[j] = interpolate(f.samples[idx*f.n+j], 0, 1, f.decode[2*j], f.decode[2*j+1])
	}
	return out, true
}

// calcFunc is a type 4 function: a program of the PostScript calculator language.
type calcFunc struct {
	domain, rng []float64
	code        []calcOp
}

// calcOp is a number, an operator, or an if/ifelse with its blocks.
type calcOp struct {
	op        string // "" for a number
	num       float64
	then, els []calcOp
}

func parseCalculator(prog []byte) ([]calcOp, bool) {
	toks := calcTokens(prog)
	if len(toks) == 0 || toks[0] != "{" {
		return nil, false
	}
	code, rest, ok := parseBlock(toks[1:], 0)
	return code, ok && len(rest) == 0
}

func calcTokens(prog []byte) []string {
	var toks []string
	for i := 0; i < len(prog); {
		c := prog[i]
		switch {
		case c == '{' || c == '}':
			toks = append(toks, string(c))
			i++
		case c == '%':
			for i < len(prog) && prog[i] != '\n' && prog[i] != '\r' {
				i++
			}
		case isSpace(c):
			i++
		default:
			j := i
			for j < len(prog) && !isSpace(prog[j]) && prog[j] != '{' && prog[j] != '}' && prog[j] != '%' {
				j++
			}
			toks = append(toks, string(prog[i:j]))
			i = j
		}
	}
	return toks
}

// parseBlock parses the operators up to the "}" closing a block, and returns what follows it.
func parseBlock(toks []string, depth int) ([]calcOp, []string, bool) {
	if depth > maxFunctionDepth {
		return nil, nil, false
	}
	var code []calcOp
	var blocks [][]calcOp
	for len(toks) > 0 {
		t := toks[0]
		toks = toks[1:]
		switch t {
		case "}":
			return code, toks, len(blocks) == 0
		case "{":
			b, rest, ok := parseBlock(toks, depth+1)
			if !ok {
				return nil, nil, false
			}
			blocks, toks = append(blocks, b), rest
		case "if":
			if len(blocks) != 1 {
				return nil, nil, false
			}
			code, blocks = append(code, calcOp{op: "if", then: blocks[0]}), nil
		case "ifelse":
			if len(blocks) != 2 {
				return nil, nil, false
			}
			code, blocks = append(code, calcOp{op: "ifelse", then: blocks[0], els: blocks[1]}), nil
		default:
			if len(blocks) > 0 {
				return nil, nil, false
			}
			if x, err := strconv.ParseFloat(t, 64); err == nil {
				code = append(code, calcOp{num: x})
			} else {
				code = append(code, calcOp{op: t})
			}
		}
	}
	return nil, nil, false
}

func (f *calcFunc) eval(in []float64) ([]float64, bool) {
	m := len(f.domain) / 2
	if len(in) < m {
		return nil, false
	}
	st := &calcStack{}
	for i := 0; i < m; i++ {
		st.push(clamp(in[i], f.domain[2*i], f.domain[2*i+1]))
	}
	if !st.run(f.code) || st.err {
		return nil, false
	}
	n := len(f.rng) / 2
	if len(st.v) < n {
		return nil, false
	}
	return clampOut(append([]float64(nil), st.v[len(st.v)-n:]...), f.rng), true
}

// calcStack runs calculator code. Booleans are 1 and 0; integers are numbers of integral value.
type calcStack struct {
	v   []float64
	ops int
	err bool
}

func (s *calcStack) push(x float64) {
	if len(s.v) >= 100 {
		s.err = true
		return
	}
	s.v = append(s.v, x)
}

func (s *calcStack) pop() float64 {
	if len(s.v) == 0 {
		s.err = true
		return 0
	}
	x := s.v[len(s.v)-1]
	s.v = s.v[:len(s.v)-1]
	return x
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func (s *calcStack) run(code []calcOp) bool {
	for _, c := range code {
		if s.ops++; s.ops > maxCalculatorOps || s.err {
			return false
		}
		if c.op == "" {
			s.push(c.num)
			continue
		}
		if !s.do(c) {
			return false
		}
	}
	return true
}

func (s *calcStack) do(c calcOp) bool {
	switch c.op {
	case "if":
		if s.pop() != 0 {
			return s.run(c.then)
		}
		return true
	case "ifelse":
		if s.pop() != 0 {
			return s.run(c.then)
		}
		return s.run(c.els)
	case "true", "false":
		s.push(b2f(c.op == "true"))
		return true
	case "pop":
		s.pop()
		return true
	case "dup":
		x := s.pop()
		s.push(x)
		s.push(x)
		return true
	case "exch":
		b, a := s.pop(), s.pop()
		s.push(b)
		s.push(a)
		return true
	case "copy":
		n := int(s.pop())
		if n < 0 || n > len(s.v) {
			return false
		}
		for _, x := range s.v[len(s.v)-n:] {
			s.push(x)
		}
		return true
	case "index":
		n := int(s.pop())
		if n < 0 || n >= len(s.v) {
			return false
		}
		s.push(s.v[len(s.v)-1-n])
		return true
	case "roll":
		j, n := int(s.pop()), int(s.pop())
		if n < 0 || n > len(s.v) {
			return false
		}
		if n > 0 {
			part := s.v[len(s.v)-n:]
			j = ((j % n) + n) % n
			rolled := append(append([]float64(nil), part[n-j:]...), part[:n-j]...)
			copy(part, rolled)
		}
		return true
	}
	if f, ok := calcUnary[c.op]; ok {
		s.push(f(s.pop()))
		return true
	}
	if f, ok := calcBinary[c.op]; ok {
		b, a := s.pop(), s.pop()
		s.push(f(a, b))
		return true
	}
	return false
}

var calcUnary = map[string]func(float64) float64{
	"abs": math.Abs, "neg": func(x float64) float64 { return -x },
	"ceiling": math.Ceil, "floor": math.Floor, "round": func(x float64) float64 { return math.Floor(x + 0.5) },
	"truncate": math.Trunc, "cvi": math.Trunc, "cvr": func(x float64) float64 { return x },
	"sqrt": math.Sqrt, "sin": func(x float64) float64 { return math.Sin(x * math.Pi / 180) },
	"cos": func(x float64) float64 { return math.Cos(x * math.Pi / 180) },
	"ln":  math.Log, "log": math.Log10,
	"not": func(x float64) float64 { return b2f(x == 0) },
}

var calcBinary = map[string]func(a, b float64) float64{
	"add": func(a, b float64) float64 { return a + b }, "sub": func(a, b float64) float64 { return a - b },
	"mul": func(a, b float64) float64 { return a * b }, "div": func(a, b float64) float64 { return a / b },
	"idiv": func(a, b float64) float64 { return math.Trunc(a / b) }, "mod": math.Mod,
	"exp": math.Pow, "atan": func(a, b float64) float64 {
		d := math.Atan2(a, b) * 180 / math.Pi
		if d < 0 {
			d += 360
		}
		return d
	},
	"eq": func(a, b float64) float64 { return b2f(a == b) }, "ne": func(a, b float64) float64 { return b2f(a != b) },
	"gt": func(a, b float64) float64 { return b2f(a > b) }, "ge": func(a, b float64) float64 { return b2f(a >= b) },
	"lt": func(a, b float64) float64 { return b2f(a < b) }, "le": func(a, b float64) float64 { return b2f(a <= b) },
	"and": func(a, b float64) float64 { return float64(int64(a) & int64(b)) },
	"or":  func(a, b float64) float64 { return float64(int64(a) | int64(b)) },
	"xor": func(a, b float64) float64 { return float64(int64(a) ^ int64(b)) },
	"bitshift": func(a, b float64) float64 {
		if b >= 0 {
			return float64(int64(a) << min(uint(b), 63))
		}
		return float64(int64(a) >> min(uint(-b), 63))
	},
}
