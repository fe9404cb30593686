// PATCH (new file): how text is painted, so that a caller can tell text a reader sees from text
// that is in the file but not on the page (white on white, under a box of its own colour, in
// an invisible render mode, transparent, clipped away, in a layer that is off). Upstream kept
// none of the graphics state beyond the text matrix.

package pdf

import (
	"math"
	"slices"
)

// Color is a colour as RGB, each component 0–1. Known is false for a colour this package does
// not convert (a pattern, a spot colour's tint, a Lab colour, an image): a caller should take
// such a colour as different from any other.
type Color struct {
	R, G, B float32
	Known   bool
}

// Paint is how a run of glyphs is drawn.
type Paint struct {
	Mode         int     // text rendering mode (Tr): 3 paints nothing, 7 only adds to the clip
	Fill, Stroke Color   // the colours of the fill and of the outline
	FillAlpha    float64 // constant opacity of the fill (ExtGState /ca), 0 when its colour paints nothing
	StrokeAlpha  float64 // the same for the outline (/CA)
	// The em's height and width in points after Tf, Tz, Tm, the CTM and a Type 3 font's matrix,
	// where Text.FontSize leaves out the last.
	Height, Width float64
	Clip          Rect // bounding box of the clipping path, in default user space
	Off           bool // in optional content (a layer) that is off when the file is opened
	// Blend is the blend mode (ExtGState /BM) the glyphs are painted with, "" for Normal (PATCH):
	// black text in Screen or Lighten, or text of any colour in Overlay, leaves a white backdrop
	// white.
	Blend string
	// LineWidth is the width of the outline on the page, in points (PATCH): a thick one of the
	// page's colour stroked over a glyph's fill (render mode 2) covers it.
	LineWidth float64
}

// white reports a known colour no channel of which is 8 % from white: white to a reader (PATCH).
func (c Color) white() bool { return c.Known && min(c.R, c.G, c.B) >= 0.92 }

var (
	colorWhite = Color{1, 1, 1, true}
	colorBlack = Color{0, 0, 0, true}
	// noClip is the clip of a state that has none: larger than any page.
	noClip = Rect{Point{-1e9, -1e9}, Point{1e9, 1e9}}
)

// maxRegions bounds the painted areas remembered on one page. Past it, a glyph's background
// is unknown (so no glyph after it is taken as hidden by its colour): a hostile page cannot
// make the search for backgrounds cost glyphs × areas without bound.
const maxRegions = 2048

// Backdrop is what a glyph is drawn on.
type Backdrop struct {
	Color Color // white for the page; unknown for images, shadings, translucent paint and shapes other than rectangles
	Image bool  // an image (a scanned page under its OCR text)
	// Picture is the image's number in Content.Images counted from 1 (PATCH), so that a caller can
	// look at what is under a glyph; 0 for an inline image or one not recorded.
	Picture int32
	// Paper: nothing painted under the glyph, the page itself (PATCH). The page group is isolated:
	// a blend mode blends with what the page painted, not with the paper.
	Paper bool
	// Veil is what translucent rectangles of one colour painted over the glyph later amount to
	// (PATCH), as one of colour Veil.Color and opacity Veil.Alpha; Alpha 0 for none. A white box
	// of 95 % opacity over a line of text leaves it #F2F2F2 on white.
	Veil Veil
}

// Veil is a colour laid over what is under it at an opacity (PATCH).
type Veil struct {
	Color Color
	Alpha float32
}

// over returns v laid over w, v on top: the veil the two amount to.
func (v Veil) over(w Veil) Veil {
	a := v.Alpha + (1-v.Alpha)*w.Alpha
	if a <= 0 {
		return Veil{}
	}
	mix := func(x, y float32) float32 { return (v.Alpha*x + (1-v.Alpha)*w.Alpha*y) / a }
	return Veil{Color: Color{mix(v.Color.R, w.Color.R), mix(v.Color.G, w.Color.G), mix(v.Color.B, w.Color.B), true}, Alpha: a}
}

// region is an area painted on the page, in default user space.
type region struct {
	box   Rect
	seq   int // glyphs drawn before it
	back  Backdrop
	cover bool // an opaque rectangle of one colour: it hides glyphs drawn before it
	veil  Veil // a translucent rectangle of one colour (PATCH): it veils glyphs drawn before it
	// shape is a filled path's outline (PATCH), when it is not only rectangles: the region lies
	// under or over a glyph only where the shape holds the glyph's centre (by its fill rule,
	// evenOdd or nonzero). A white rounded rectangle or ellipse in front of text hides it.
	shape   [][]Point
	points  int // in shape
	evenOdd bool
	// whole: a stroked line (PATCH), which lies under or over a glyph only where it spans the
	// whole glyph: a strikethrough or a rule through a line of text hides nothing.
	whole bool
}

type csKind uint8

const (
	csGray csKind = iota
	csRGB
	csCMYK
	csIndexed
	csSpot    // Separation or DeviceN: tints of named colorants
	csLab     // CIE L*a*b*
	csPattern // Pattern: the colour is what a pattern paints
	csOther
)

// colorSpace is what Content needs of a colour space to turn operands into a Color.
type colorSpace struct {
	kind   csKind
	n      int         // components
	base   *colorSpace // of an Indexed space
	lookup []byte      // of an Indexed space: n bytes per index
	none   bool        // Separation /None: paints nothing
	all    bool        // Separation /All: every colorant, so the tint is a shade of black
	// A spot space's alternate space and tint transform, which viewers show it by (PATCH); a
	// Pattern space's underlying space, for patterns that take their colour from scn.
	alt  *colorSpace
	tint function
}

var (
	spaceGray    = &colorSpace{kind: csGray, n: 1}
	spaceRGB     = &colorSpace{kind: csRGB, n: 3}
	spaceCMYK    = &colorSpace{kind: csCMYK, n: 4}
	spaceOther   = &colorSpace{kind: csOther}
	spacePattern = &colorSpace{kind: csPattern}
)

// colorSpaceOf resolves a colour space operand: a device space's name, or a name in the
// resources' /ColorSpace dictionary (resolved once a Reader: paintCache).
func colorSpaceOf(v, res Value) *colorSpace {
	if v.Kind() == Name {
		switch v.Name() {
		case "DeviceGray", "G", "CalGray":
			return spaceGray
		case "DeviceRGB", "RGB", "CalRGB":
			return spaceRGB
		case "DeviceCMYK", "CMYK":
			return spaceCMYK
		case "Pattern":
			return spacePattern
		}
		pc, key := res.r.paintCache(), nameKey{res.ptr, v.Name()}
		if cs, ok := pc.spaces[key]; ok {
			return cs
		}
		cs := colorSpaceValue(res.Key("ColorSpace").Key(v.Name()), 0)
		if pc != nil {
			pc.spaces[key] = cs
		}
		return cs
	}
	return colorSpaceValue(v, 0)
}

// paintCache holds what a Reader resolved of colour spaces, patterns and soft masks, by the
// resources (or graphics state) they are named in and their name.
type paintCache struct {
	spaces   map[nameKey]*colorSpace
	patterns map[nameKey]patternPaint
	masks    map[nameKey]maskPaint
}

type nameKey struct {
	in   objptr
	name string
}

type patternPaint struct {
	c            Color
	paints, text bool
}

// paintCache returns the Reader's cache, made on first use; nil for no Reader.
func (r *Reader) paintCache() *paintCache {
	if r == nil {
		return nil
	}
	if r.paints == nil {
		r.paints = &paintCache{spaces: map[nameKey]*colorSpace{}, patterns: map[nameKey]patternPaint{}, masks: map[nameKey]maskPaint{}}
	}
	return r.paints
}

func colorSpaceValue(v Value, depth int) *colorSpace {
	if depth > 4 {
		return spaceOther
	}
	if v.Kind() == Name {
		return colorSpaceOf(v, Value{})
	}
	if v.Kind() != Array || v.Len() == 0 {
		return spaceOther
	}
	switch v.Index(0).Name() {
	case "CalGray":
		return spaceGray
	case "CalRGB":
		return spaceRGB
	case "ICCBased":
		s := v.Index(1)
		switch s.Key("N").Int64() {
		case 1:
			return spaceGray
		case 3:
			return spaceRGB
		case 4:
			return spaceCMYK
		}
		if alt := s.Key("Alternate"); !alt.IsNull() {
			return colorSpaceValue(alt, depth+1)
		}
	case "Indexed", "I":
		base := colorSpaceValue(v.Index(1), depth+1)
		if base.kind > csCMYK {
			return spaceOther
		}
		hival := int(v.Index(2).Int64())
		if hival < 0 || hival > 255 {
			return spaceOther
		}
		want := (hival + 1) * base.n
		var lookup []byte
		switch t := v.Index(3); t.Kind() {
		case String:
			lookup = []byte(t.RawString())
		case Stream:
			lookup = readAtMost(t, want)
		}
		if len(lookup) < want {
			return spaceOther
		}
		return &colorSpace{kind: csIndexed, n: 1, base: base, lookup: lookup[:want]}
	case "Separation":
		name := v.Index(1).Name()
		return &colorSpace{kind: csSpot, n: 1, none: name == "None", all: name == "All",
			alt: colorSpaceValue(v.Index(2), depth+1), tint: loadFunction(v.Index(3))}
	case "DeviceN":
		names := v.Index(1)
		none := names.Len() > 0
		for i := 0; i < names.Len(); i++ {
			none = none && names.Index(i).Name() == "None"
		}
		return &colorSpace{kind: csSpot, n: max(names.Len(), 1), none: none,
			alt: colorSpaceValue(v.Index(2), depth+1), tint: loadFunction(v.Index(3))}
	case "Lab":
		return &colorSpace{kind: csLab, n: 3}
	case "Pattern":
		cs := &colorSpace{kind: csPattern}
		if v.Len() > 1 {
			cs.alt = colorSpaceValue(v.Index(1), depth+1)
		}
		return cs
	}
	return spaceOther
}

// readAtMost reads up to n bytes of a stream; a stream that cannot be read gives fewer.
func readAtMost(v Value, n int) (out []byte) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	rd := v.Reader()
	defer rd.Close()
	buf := make([]byte, n)
	k := 0
	for k < n {
		m, err := rd.Read(buf[k:])
		k += m
		if err != nil {
			break
		}
	}
	return buf[:k]
}

// initial is the colour a space starts with when it is selected (cs, CS).
func (cs *colorSpace) initial() (Color, bool) {
	switch cs.kind {
	case csCMYK:
		return cs.color([]float64{0, 0, 0, 1})
	case csSpot:
		return cs.color([]float64{1})
	}
	return cs.color([]float64{0})
}

// color converts operands of sc/scn to a Color; paints is false for a colour that puts no
// ink anywhere (the /None colorant).
func (cs *colorSpace) color(x []float64) (c Color, paints bool) {
	at := func(i int) float32 {
		if i >= len(x) || math.IsNaN(x[i]) {
			return 0
		}
		return float32(math.Min(1, math.Max(0, x[i])))
	}
	switch cs.kind {
	case csGray:
		if len(x) < 1 {
			break
		}
		return Color{at(0), at(0), at(0), true}, true
	case csRGB:
		if len(x) < 3 {
			break
		}
		return Color{at(0), at(1), at(2), true}, true
	case csCMYK:
		if len(x) < 4 {
			break
		}
		k := 1 - at(3)
		return Color{(1 - at(0)) * k, (1 - at(1)) * k, (1 - at(2)) * k, true}, true
	case csIndexed:
		if len(x) < 1 {
			break
		}
		i := int(math.Round(float64(x[0])))
		if i < 0 || (i+1)*cs.base.n > len(cs.lookup) {
			break
		}
		comp := make([]float64, cs.base.n)
		for j := range comp {
			comp[j] = float64(cs.lookup[i*cs.base.n+j]) / 255
		}
		return cs.base.color(comp)
	case csLab:
		if len(x) < 3 {
			break
		}
		return labColor(x[0], x[1], x[2]), true
	case csSpot:
		if cs.none {
			return Color{}, false
		}
		// Viewers show a spot colour by its alternate space, through the tint transform.
		if cs.tint != nil && cs.alt != nil && cs.alt.kind <= csLab && cs.alt.kind != csSpot && len(x) >= cs.n {
			if out, ok := cs.tint.eval(x[:cs.n]); ok {
				return cs.alt.color(out)
			}
		}
		// Without a transform to run: a tint of 0 puts no ink on the paper, whatever the
		// colorant; /All at tint t is a shade of black.
		zero := len(x) > 0
		for i := range x {
			zero = zero && at(i) == 0
		}
		switch {
		case zero:
			return colorWhite, true
		case cs.all && len(x) == 1:
			return Color{1 - at(0), 1 - at(0), 1 - at(0), true}, true
		}
	}
	return Color{}, true
}

// labColor converts CIE L*a*b* to sRGB, relative to the space's white point (a viewer shows L* 100
// as the paper's white, whatever the white point).
func labColor(l, a, b float64) Color {
	fy := (l + 16) / 116
	fx, fz := fy+a/500, fy-b/200
	inv := func(t float64) float64 {
		if t > 6.0/29 {
			return t * t * t
		}
		return 3 * (6.0 / 29) * (6.0 / 29) * (t - 4.0/29)
	}
	x, y, z := inv(fx)*0.9505, inv(fy), inv(fz)*1.089
	lin := [3]float64{
		3.2406*x - 1.5372*y - 0.4986*z,
		-0.9689*x + 1.8758*y + 0.0415*z,
		0.0557*x - 0.2040*y + 1.0570*z,
	}
	var c [3]float32
	for i, v := range lin {
		v = clamp(v, 0, 1)
		if v <= 0.0031308 {
			v *= 12.92
		} else {
			v = 1.055*math.Pow(v, 1/2.4) - 0.055
		}
		c[i] = float32(clamp(v, 0, 1))
	}
	return Color{c[0], c[1], c[2], true}
}

// paintState is the part of the graphics state that decides whether what is drawn shows.
type paintState struct {
	fillCS, strokeCS       *colorSpace
	fill, stroke           Color
	fillAlpha, strokeAlpha float64
	maskAlpha              float64 // what the soft mask leaves of what is painted: 0 or 1 (PATCH)
	fillNone, strokeNone   bool    // the colour paints nothing (the /None colorant, an empty pattern)
	opaque                 bool    // normal blending and no soft mask: a fill hides what is under it
	blend                  string  // the blend mode, "" for Normal (PATCH)
	clip                   Rect
	// clipShaped: the clip is not all of its bounding box (a shape's, or a turned rectangle's)
	// (PATCH): what a shading paints through it may not cover what lies in the box.
	clipShaped bool
	// pattern is the tiling pattern the fill colour is when its cell shows text (PATCH): a fill
	// draws the cells' text (contentReader.patternCells).
	pattern Value
	// mask is the group of the soft mask when it shows text, maskBase the matrix it was set under
	// (PATCH): a paint through it shows that text (contentReader.maskText). inMask: this state
	// draws such a group's text, whose colours say what shows through, not what is seen.
	mask     Value
	maskBase matrix
	inMask   bool
	off      bool   // inside a form XObject of a layer that is off
	gen      uint64 // names this state (contentReader.newGen); 0: the initial one
}

func newPaintState() paintState {
	return paintState{fillCS: spaceGray, strokeCS: spaceGray, fill: colorBlack, stroke: colorBlack,
		fillAlpha: 1, strokeAlpha: 1, maskAlpha: 1, opaque: true, clip: noClip}
}

func numbers(args []Value) []float64 {
	x := make([]float64, 0, len(args))
	for _, a := range args {
		if k := a.Kind(); k == Integer || k == Real {
			x = append(x, a.Float64())
		}
	}
	return x
}

// setColor runs a colour operator (g, rg, k, sc, scn and their stroking forms, cs, CS).
func (ps *paintState) setColor(op string, args []Value, res Value) {
	ps.setColorAt(op, args, res, 0)
}

// setColorAt is setColor in a pattern's cell depth patterns deep.
func (ps *paintState) setColorAt(op string, args []Value, res Value, depth int) {
	if ps.inMask {
		return
	}
	stroke := op == "G" || op == "RG" || op == "K" || op == "SC" || op == "SCN" || op == "CS"
	cs, c, paints := ps.fillCS, &ps.fill, &ps.fillNone
	if stroke {
		cs, c, paints = ps.strokeCS, &ps.stroke, &ps.strokeNone
	}
	var col Color
	var ok bool
	var pattern Value
	switch op {
	case "g", "G":
		cs = spaceGray
		col, ok = cs.color(numbers(args))
	case "rg", "RG":
		cs = spaceRGB
		col, ok = cs.color(numbers(args))
	case "k", "K":
		cs = spaceCMYK
		col, ok = cs.color(numbers(args))
	case "cs", "CS":
		if len(args) != 1 {
			return
		}
		cs = colorSpaceOf(args[0], res)
		col, ok = cs.initial()
	default: // sc, scn, SC, SCN
		if n := len(args); cs.kind == csPattern && n > 0 && args[n-1].Kind() == Name {
			name := args[n-1].Name()
			pc, key := res.r.paintCache(), nameKey{res.ptr, name}
			var text bool
			if p, cached := pc.patterns[key]; cached && cs.alt == nil { // an uncoloured one takes scn's colour
				col, ok, text = p.c, p.paints, p.text
			} else {
				col, ok, text = patternColor(res.Key("Pattern").Key(name), cs, numbers(args), depth)
				if pc != nil && cs.alt == nil {
					pc.patterns[key] = patternPaint{col, ok, text}
				}
			}
			if text {
				pattern = res.Key("Pattern").Key(name)
			}
			break
		}
		col, ok = cs.color(numbers(args))
	}
	*c, *paints = col, !ok
	if stroke {
		ps.strokeCS = cs
	} else {
		ps.fillCS, ps.pattern = cs, pattern
	}
}

// setExtGState applies the opacity and blending of a graphics state dictionary gs, named key.
func (ps *paintState) setExtGState(gs Value, key nameKey) {
	if gs.Kind() != Dict {
		return
	}
	if v := gs.Key("ca"); v.Kind() == Integer || v.Kind() == Real {
		ps.fillAlpha = math.Min(1, math.Max(0, v.Float64()))
	}
	if v := gs.Key("CA"); v.Kind() == Integer || v.Kind() == Real {
		ps.strokeAlpha = math.Min(1, math.Max(0, v.Float64()))
	}
	normal := true
	if bm := gs.Key("BM"); !bm.IsNull() {
		n := bm.Name()
		if bm.Kind() == Array {
			n = bm.Index(0).Name()
		}
		normal = n == "Normal" || n == "Compatible"
		ps.blend = n
		if normal {
			ps.blend = ""
		}
	}
	smask := gs.Key("SMask")
	noMask := smask.IsNull() || smask.Name() == "None"
	switch {
	case smask.Kind() == Dict:
		pc := gs.r.paintCache()
		m, ok := pc.masks[key]
		if !ok {
			m = maskOf(smask)
			if pc != nil {
				pc.masks[key] = m
			}
		}
		ps.maskAlpha, ps.mask = m.alpha, Value{}
		if m.text {
			ps.mask = smask.Key("G")
		}
	case !smask.IsNull():
		ps.maskAlpha, ps.mask = 1, Value{}
	}
	if !gs.Key("BM").IsNull() || !smask.IsNull() {
		ps.opaque = normal && noMask
	}
}

// textPaint is the Paint of glyphs shown now in render mode mode with an em of h × w points and
// outlines lw points wide.
func (ps *paintState) textPaint(mode int, h, w, lw float64, off bool) Paint {
	p := Paint{Mode: mode, Fill: ps.fill, Stroke: ps.stroke, FillAlpha: ps.fillAlpha * ps.maskAlpha, StrokeAlpha: ps.strokeAlpha * ps.maskAlpha,
		Height: math.Abs(h), Width: math.Abs(w), Clip: ps.clip, Off: off || ps.off, Blend: ps.blend, LineWidth: lw}
	if ps.fillNone {
		p.FillAlpha = 0
	}
	if ps.strokeNone {
		p.StrokeAlpha = 0
	}
	return p
}

// drawn is what a small content stream (a pattern's cell, a soft mask's group, a Type 3 glyph)
// paints: whether anything, and the one colour it all is when it is one known colour.
type drawn struct {
	any   bool
	color Color // Known false: several colours, or one this package does not convert
	// own: a Type 3 glyph set its width with d0, so its colours are its own, not the text's (PATCH).
	own bool
	// text: it shows text that paints (PATCH): a pattern's cell that does is drawn as text where
	// the pattern fills (contentReader.patternCells).
	text bool
}

// maxScanBytes bounds the content read to find what a pattern, a mask or a glyph paints; past it
// the stream is taken to paint in colours not known.
const maxScanBytes = 256 << 10

// scanDrawn reads the content stream strm (with resources res, depth patterns deep) for what it
// paints. A stream it cannot read, or that draws images, shadings or forms, paints colours not
// known.
func scanDrawn(strm, res Value, depth int) (d drawn) {
	unknown := drawn{any: true}
	if depth > 2 || strm.Kind() != Stream {
		return unknown
	}
	defer func() {
		if recover() != nil {
			d = unknown
		}
	}()
	// Charged to the Reader's budget too, so that streams read again and again end in ErrLimit,
	// not minutes (paintCache makes that the rare case).
	budget := int64(maxScanBytes)
	w := &work{page: maxScanBytes, reader: &budget}
	if strm.r != nil && strm.r.work != nil {
		w.reader = strm.r.work
	}
	ps := newPaintState()
	mode := 0
	paint := func(c Color, none bool) {
		if none {
			return
		}
		if !d.any {
			d.color = c
		} else if c != d.color {
			d.color = Color{}
		}
		d.any = true
	}
	interpret(strm, w, func(stk *Stack, op string) {
		args := popArgs(stk)
		switch op {
		case "f", "F", "f*":
			paint(ps.fill, ps.fillNone)
		case "S", "s":
			paint(ps.stroke, ps.strokeNone)
		case "B", "B*", "b", "b*":
			paint(ps.fill, ps.fillNone)
			paint(ps.stroke, ps.strokeNone)
		case "Tr":
			if len(args) == 1 {
				mode = int(args[0].Int64())
			}
		case "Tj", "TJ", "'", "\"":
			if mode != 3 && mode != 7 {
				paint(ps.fill, ps.fillNone)
				d.text = true
			}
		case "sh", "BI", "Do":
			paint(Color{}, false)
		case "d0":
			d.own = true
		case "g", "rg", "k", "G", "RG", "K", "sc", "scn", "SC", "SCN", "cs", "CS":
			ps.setColorAt(op, args, res, depth)
		}
	})
	return d
}

// patternColor is the colour of a pattern (PATCH): the one colour a tiling pattern's cell paints,
// the colour comps give an uncoloured one, the one colour a shading runs through. paints is false
// for a cell that paints nothing; text is true for a tiling pattern whose cell shows text, which
// paints only where its glyphs are: its colour is then not known (it covers nothing).
func patternColor(pat Value, cs *colorSpace, comps []float64, depth int) (c Color, paints, text bool) {
	switch pat.Key("PatternType").Int64() {
	case 1:
		d := scanDrawn(pat, pat.Key("Resources"), depth+1)
		if d.text {
			return Color{}, true, true
		}
		if pat.Key("PaintType").Int64() == 2 {
			if cs.alt != nil && cs.alt.kind != csPattern {
				c, paints = cs.alt.color(comps)
				return c, paints, false
			}
			break
		}
		return d.color, d.any, false
	case 2:
		c, paints = shadingColor(pat.Key("Shading"))
		return c, paints, false
	}
	return Color{}, true, false
}

// shadingColor is the colour of a shading whose function gives one colour wherever it is sampled
// (its ends and middle); not known otherwise, or for a mesh.
func shadingColor(sh Value) (Color, bool) {
	cs := colorSpaceValue(sh.Key("ColorSpace"), 0)
	fn := loadFunction(sh.Key("Function"))
	if fn == nil {
		return Color{}, true
	}
	var ins [][]float64
	switch d := floats(sh.Key("Domain")); sh.Key("ShadingType").Int64() {
	case 1:
		if len(d) != 4 {
			d = []float64{0, 1, 0, 1}
		}
		ins = [][]float64{{d[0], d[2]}, {d[1], d[2]}, {d[0], d[3]}, {d[1], d[3]}, {(d[0] + d[1]) / 2, (d[2] + d[3]) / 2}}
	case 2, 3:
		if len(d) != 2 {
			d = []float64{0, 1}
		}
		ins = [][]float64{{d[0]}, {(d[0] + d[1]) / 2}, {d[1]}}
	default:
		return Color{}, true
	}
	var c Color
	for i, in := range ins {
		out, ok := fn.eval(in)
		if !ok {
			return Color{}, true
		}
		ci, paints := cs.color(out)
		if !ci.Known || !paints {
			return Color{}, true
		}
		if i == 0 {
			c = ci
		} else if math.Abs(float64(c.R-ci.R))+math.Abs(float64(c.G-ci.G))+math.Abs(float64(c.B-ci.B)) > 0.05 {
			return Color{}, true
		}
	}
	return c, true
}

// shadingBack is what a shading sh paints opaquely leaves under glyphs drawn on it (PATCH), when
// shadingColor gives it one colour: that colour for an axial shading extended both ways, which
// paints the whole clip; white for another that is white (where it leaves the clip unpainted, the
// page shows, white too); not known otherwise.
func shadingBack(sh Value, ps *paintState) Color {
	c, _ := shadingColor(sh)
	if !c.Known || !ps.opaque || ps.fillAlpha < 1 || ps.maskAlpha < 1 {
		return Color{}
	}
	ext := sh.Key("Extend")
	if sh.Key("ShadingType").Int64() == 2 && ext.Len() == 2 && ext.Index(0).Kind() == Bool && ext.Index(0).Bool() && ext.Index(1).Bool() {
		return c
	}
	if c.white() {
		return c
	}
	return Color{}
}

// maskPaint is what a soft mask does (PATCH): alpha is what it leaves of what is painted under it;
// text, that its group shows text, which a paint through it shows in its own colour.
type maskPaint struct {
	alpha float64
	text  bool
}

// maskOf tells what a soft mask does. alpha is 0 when its group paints nothing and the mask is then
// zero (an alpha mask, or a luminosity mask on a dark backdrop /BC), or when all it paints and its
// backdrop are dark; 1 otherwise (a mask of anything else is not judged).
func maskOf(sm Value) maskPaint {
	g := sm.Key("G")
	d := scanDrawn(g, g.Key("Resources"), 1)
	if sm.Key("S").Name() == "Alpha" {
		if !d.any {
			return maskPaint{}
		}
		return maskPaint{1, d.text}
	}
	bc := Color{0, 0, 0, true}
	if v := sm.Key("BC"); v.Kind() == Array {
		cs := colorSpaceValue(g.Key("Group").Key("CS"), 0)
		if cs.kind == csOther {
			cs = map[int]*colorSpace{1: spaceGray, 3: spaceRGB, 4: spaceCMYK}[v.Len()]
		}
		if cs != nil {
			bc, _ = cs.color(floats(v))
		}
	}
	luminance := func(c Color) float64 { return float64(0.3*c.R + 0.59*c.G + 0.11*c.B) }
	if bc.Known && luminance(bc) < 0.05 && (!d.any || d.color.Known && luminance(d.color) < 0.05) {
		return maskPaint{}
	}
	return maskPaint{1, d.text}
}

// ctmPoint is m.apply as a Point (PATCH).
func ctmPoint(m matrix, x, y float64) Point {
	px, py := m.apply(x, y)
	return Point{px, py}
}

// apply transforms a point by m.
func (m matrix) apply(x, y float64) (float64, float64) {
	return x*m[0][0] + y*m[1][0] + m[2][0], x*m[0][1] + y*m[1][1] + m[2][1]
}

// axisAligned reports whether m maps rectangles with horizontal sides to such rectangles.
func (m matrix) axisAligned() bool {
	return m[0][1] == 0 && m[1][0] == 0 || m[0][0] == 0 && m[1][1] == 0
}

func emptyRect() Rect {
	return Rect{Point{math.Inf(1), math.Inf(1)}, Point{math.Inf(-1), math.Inf(-1)}}
}

func (r Rect) empty() bool { return !(r.Min.X <= r.Max.X && r.Min.Y <= r.Max.Y) }

func (r *Rect) add(x, y float64) {
	r.Min.X, r.Min.Y = math.Min(r.Min.X, x), math.Min(r.Min.Y, y)
	r.Max.X, r.Max.Y = math.Max(r.Max.X, x), math.Max(r.Max.Y, y)
}

func (r Rect) intersect(s Rect) Rect {
	return Rect{Point{math.Max(r.Min.X, s.Min.X), math.Max(r.Min.Y, s.Min.Y)},
		Point{math.Min(r.Max.X, s.Max.X), math.Min(r.Max.Y, s.Max.Y)}}
}

func (r Rect) contains(x, y float64) bool {
	return x >= r.Min.X && x <= r.Max.X && y >= r.Min.Y && y <= r.Max.Y
}

// transformRect is the bounding box of r's corners under m.
func transformRect(r Rect, m matrix) Rect {
	out := emptyRect()
	for _, p := range [4]Point{r.Min, {r.Max.X, r.Min.Y}, r.Max, {r.Min.X, r.Max.Y}} {
		out.add(m.apply(p.X, p.Y))
	}
	return out
}

// pathState collects the current path in default user space: its rectangles, and whether it
// has any other shape, which makes its fill a region of unknown colour.
type pathState struct {
	box   Rect
	rects []Rect
	poly  []Point // the open subpath made of straight lines, to recognise drawn rectangles
	other bool
	// PATCH: the box of each subpath (curves by their control points), for Content.Shapes; sub
	// is the open one's.
	subs []Rect
	sub  Rect
	// PATCH: the subpaths as polygons, curves flattened (region.shape), and the open one; nil
	// past maxShapePoints.
	flat     [][]Point
	open     []Point
	flatN    int // points in flat and open
	flatOver bool
}

// maxShapePoints bounds the points of a filled path kept as a shape (PATCH): a shape that covers
// text is a box, a rounded one or an ellipse; text converted to outlines is thousands of curves.
const maxShapePoints = 512

// curvePoints is the straight pieces a curve is flattened into (PATCH).
const curvePoints = 8

func (p *pathState) reset() {
	p.box, p.rects, p.poly, p.other = emptyRect(), p.rects[:0], p.poly[:0], false
	p.subs, p.sub = p.subs[:0], emptyRect()
	p.flat, p.open, p.flatN, p.flatOver = p.flat[:0], p.open[:0], 0, false
}

func (p *pathState) point(x, y float64) {
	p.box.add(x, y)
	p.sub.add(x, y)
	p.poly = append(p.poly, Point{x, y})
	p.flatPoint(Point{x, y})
}

// flatPoint adds q to the open subpath's polygon (PATCH).
func (p *pathState) flatPoint(q Point) {
	if p.flatOver {
		return
	}
	if p.flatN >= maxShapePoints {
		p.flatOver = true
		return
	}
	p.flatN++
	p.open = append(p.open, q)
}

// flatSub ends the open subpath's polygon (PATCH).
func (p *pathState) flatSub() {
	if len(p.open) >= 3 && !p.flatOver {
		p.flat = append(p.flat, slices.Clone(p.open))
	}
	p.open = p.open[:0]
}

// shape is the path's polygons, nil when they are past maxShapePoints (PATCH).
func (p *pathState) shape() [][]Point {
	p.flatSub()
	if p.flatOver || len(p.flat) == 0 {
		return nil
	}
	out := make([][]Point, len(p.flat))
	copy(out, p.flat)
	return out
}

// inShape reports whether (x, y) is inside shape by the nonzero winding rule, or by the even-odd
// rule (PATCH).
func inShape(shape [][]Point, x, y float64, evenOdd bool) bool {
	winding, crossings := 0, 0
	for _, poly := range shape {
		for i := range poly {
			a, b := poly[i], poly[(i+1)%len(poly)]
			if (a.Y <= y) == (b.Y <= y) {
				continue
			}
			// Where the edge crosses the horizontal through y, right of x.
			if cx := a.X + (y-a.Y)*(b.X-a.X)/(b.Y-a.Y); cx > x {
				crossings++
				if b.Y > a.Y {
					winding++
				} else {
					winding--
				}
			}
		}
	}
	if evenOdd {
		return crossings%2 == 1
	}
	return winding != 0
}

// endSub ends the box of the open subpath.
func (p *pathState) endSub() {
	if !p.sub.empty() && len(p.subs) < maxShapes {
		p.subs = append(p.subs, p.sub)
	}
	p.sub = emptyRect()
}

// closeSub ends a subpath of straight lines: a rectangle with horizontal sides is kept as one.
func (p *pathState) closeSub() {
	pts := p.poly
	if n := len(pts); n == 5 && pts[0] == pts[4] {
		pts = pts[:4]
	}
	switch len(pts) {
	case 0:
	case 4:
		r := emptyRect()
		for _, q := range pts {
			r.add(q.X, q.Y)
		}
		ok := true
		for _, q := range pts {
			ok = ok && (q.X == r.Min.X || q.X == r.Max.X) && (q.Y == r.Min.Y || q.Y == r.Max.Y)
		}
		for i := range pts {
			q, s := pts[i], pts[(i+1)%4]
			ok = ok && (q.X == s.X) != (q.Y == s.Y)
		}
		if ok {
			p.rects = append(p.rects, r)
		} else {
			p.other = true
		}
	default:
		p.other = len(pts) > 1 || p.other
	}
	p.poly = p.poly[:0]
}

// op runs a path construction operator; it reports whether op was one.
func (p *pathState) op(op string, args []Value, ctm matrix) bool {
	x := numbers(args)
	switch op {
	case "m":
		if len(x) == 2 {
			p.closeSub()
			p.endSub()
			p.flatSub()
			p.point(ctm.apply(x[0], x[1]))
		}
	case "l":
		if len(x) == 2 {
			p.point(ctm.apply(x[0], x[1]))
		}
	case "c", "v", "y":
		var ctl []Point
		for i := 0; i+1 < len(x); i += 2 {
			px, py := ctm.apply(x[i], x[i+1])
			p.box.add(px, py)
			p.sub.add(px, py)
			ctl = append(ctl, Point{px, py})
		}
		p.other = true
		// PATCH: flattened into the open subpath's polygon.
		if n := len(p.open); n > 0 && (op == "c" && len(ctl) == 3 || op != "c" && len(ctl) == 2) {
			p0 := p.open[n-1]
			var p1, p2, p3 Point
			switch op {
			case "c":
				p1, p2, p3 = ctl[0], ctl[1], ctl[2]
			case "v":
				p1, p2, p3 = p0, ctl[0], ctl[1]
			default: // y
				p1, p2, p3 = ctl[0], ctl[1], ctl[1]
			}
			for k := 1; k <= curvePoints; k++ {
				t := float64(k) / curvePoints
				u := 1 - t
				a, b, c, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
				p.flatPoint(Point{a*p0.X + b*p1.X + c*p2.X + d*p3.X, a*p0.Y + b*p1.Y + c*p2.Y + d*p3.Y})
			}
		} else {
			p.flatOver = true
		}
	case "h":
		if len(p.poly) > 0 {
			first := p.poly[0]
			p.closeSub()
			p.poly = append(p.poly, first)
		}
		if len(p.open) > 0 { // PATCH: a new subpath begins where this one did
			first := p.open[0]
			p.flatSub()
			p.open = append(p.open, first)
		}
	case "re":
		if len(x) == 4 {
			p.closeSub()
			p.endSub()
			r := transformRect(Rect{Point{x[0], x[1]}, Point{x[0] + x[2], x[1] + x[3]}}, ctm)
			p.flatSub() // PATCH: its corners, a polygon of its own
			for _, c := range [][2]float64{{x[0], x[1]}, {x[0] + x[2], x[1]}, {x[0] + x[2], x[1] + x[3]}, {x[0], x[1] + x[3]}} {
				p.flatPoint(ctmPoint(ctm, c[0], c[1]))
			}
			p.flatSub()
			p.sub = r
			p.box.add(r.Min.X, r.Min.Y)
			p.box.add(r.Max.X, r.Max.Y)
			if ctm.axisAligned() {
				p.rects = append(p.rects, r)
			} else {
				p.other = true
			}
			p.poly = append(p.poly[:0], r.Min) // re leaves the current point at its corner
		}
	default:
		return false
	}
	return true
}

// optionalContentOff is the set of optional content groups (layers) that are off when the file
// opens: the default configuration's /OFF, or all but its /ON when its base state is OFF.
func (r *Reader) optionalContentOff() map[objptr]bool {
	d := r.Trailer().Key("Root").Key("OCProperties").Key("D")
	if d.Kind() != Dict {
		return nil
	}
	off := map[objptr]bool{}
	if d.Key("BaseState").Name() == "OFF" {
		on := map[objptr]bool{}
		for _, v := range arrayValues(d.Key("ON")) {
			on[v.ptr] = true
		}
		for _, v := range arrayValues(r.Trailer().Key("Root").Key("OCProperties").Key("OCGs")) {
			if !on[v.ptr] {
				off[v.ptr] = true
			}
		}
		return off
	}
	for _, v := range arrayValues(d.Key("OFF")) {
		if v.ptr != (objptr{}) {
			off[v.ptr] = true
		}
	}
	return off
}

// contentOff reports whether an optional content group or membership dictionary is off.
func (c *contentReader) contentOff(v Value) bool {
	if v.Kind() != Dict {
		return false
	}
	if v.Key("Type").Name() == "OCMD" && v.Key("VE").Kind() == Array {
		// PATCH: a visibility expression decides when there is one (ISO 32000-1, 8.11.2.2), over
		// OCGs and /P: junk in a membership of [/Not g], g on, is as hidden as in a layer that is off.
		return !c.visible(v.Key("VE"), 0)
	}
	if len(c.ocOff) == 0 {
		return false
	}
	if v.Key("Type").Name() != "OCMD" {
		return c.ocOff[v.ptr]
	}
	groups := v.Key("OCGs")
	if groups.Kind() == Dict {
		return c.ocOff[groups.ptr]
	}
	n, offN := 0, 0
	for i := 0; i < groups.Len() && i < 64; i++ {
		n++
		if c.ocOff[groups.Index(i).ptr] {
			offN++
		}
	}
	if n == 0 {
		return false
	}
	switch v.Key("P").Name() {
	case "AllOn":
		return offN > 0
	case "AnyOff":
		return offN == 0
	case "AllOff":
		return offN < n
	}
	return offN == n // AnyOn, the default
}

// visible evaluates a visibility expression: an optional content group, or [/And|/Or|/Not e ...].
// One nested too deep, or malformed, is taken as visible.
func (c *contentReader) visible(e Value, depth int) bool {
	if e.Kind() == Dict {
		return !c.ocOff[e.ptr]
	}
	if e.Kind() != Array || e.Len() < 2 || depth > 16 {
		return true
	}
	switch e.Index(0).Name() {
	case "Not":
		return !c.visible(e.Index(1), depth+1)
	case "And":
		for i := 1; i < e.Len() && i < 64; i++ {
			if !c.visible(e.Index(i), depth+1) {
				return false
			}
		}
		return true
	case "Or":
		for i := 1; i < e.Len() && i < 64; i++ {
			if c.visible(e.Index(i), depth+1) {
				return true
			}
		}
		return false
	}
	return true
}

// PATCH: ImageSpace is the colour space of an image XObject, for a caller that reads the image's
// samples itself (Value.RawReader): the same resolution and conversion as painted colours.
type ImageSpace struct{ cs *colorSpace }

// ImageColorSpace resolves an image's /ColorSpace; an image mask has one component, 0 painting
// (black, in the default fill) and 1 leaving the page as it is.
func ImageColorSpace(image Value) ImageSpace {
	if image.Key("ImageMask").Bool() {
		return ImageSpace{spaceGray}
	}
	return ImageSpace{colorSpaceValue(image.Key("ColorSpace"), 0)}
}

// Components is the samples of one pixel; 0 for a space this package cannot read.
func (s ImageSpace) Components() int { return s.cs.n }

// RGB reports whether a pixel's samples are its red, green and blue (DeviceRGB, CalRGB, an ICC
// profile of three), which a caller may convert itself, faster than through Color.
func (s ImageSpace) RGB() bool { return s.cs.kind == csRGB }

// Color is the colour of a pixel whose samples are v, each at most max (an Indexed space's sample
// is an index into its table); Known is false for a colour this package cannot tell. v is scaled
// in place, so that a caller converting every pixel allocates nothing.
func (s ImageSpace) Color(v []float64, max float64) Color {
	if s.cs.kind != csIndexed {
		for i := range v {
			v[i] /= max
		}
	}
	c, _ := s.cs.color(v)
	return c
}
