// Copyright 2014 The Go Authors.  All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// PATCH: this file is new. It reads each font once per Reader (decoder, code space, widths)
// so that Content can split strings into character codes, map every code to Unicode and
// advance the text position by the real glyph width, also for CID (Type0) fonts.

package pdf

import (
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// fontKey identifies a font resource: the object it was read from and the name it was used
// under (fonts written inline in a resource dictionary share the dictionary's object).
type fontKey struct {
	ptr  objptr
	name string
}

// fontInfo is what Content needs from a font dictionary.
type fontInfo struct {
	name      string
	bold      bool
	composite bool
	space     [4][]byteRange // code space of a composite font; empty means two-byte codes
	toUnicode *cmap
	simple    *[256]rune        // simple fonts: code → rune by /Encoding and /Differences
	legacy    encoding.Encoding // composite fonts with a GBK or Big5 CMap and no ToUnicode
	ucs2      bool              // codes are UTF-16BE (Uni*-UCS2-*, Uni*-UTF16-*)
	utf8      bool              // codes are UTF-8 (Uni*-UTF8-*)
	identity  bool              // code = CID
	first     int
	widths    []float64
	hasWidths bool
	std       *[256]uint16 // metrics of a standard font used without /Widths
	missing   float64
	cidW      map[uint32]float64
	dw        float64
	scale     float64 // glyph space → text space: 1/1000, or FontMatrix[0] for Type3
	decoded   map[uint64]decodedCode
	blank     bool // PATCH: its embedded program draws nothing (FontProgram.Blank)
	// program is its embedded program as the caller reads it (ReadFontProgram), which tells the
	// glyphs that draw nothing a reader reads (PATCH): junk typed in glyphs that draw a speck, in a
	// font whose other glyphs draw letters, shows as a dotted rule.
	program FontProgram
	// How a code finds its glyph in program (PATCH): trueType, a simple TrueType font (by its
	// encoding's character); cidGlyphs, a CIDFontType2 with an Identity CMap (the code is the CID),
	// whose CIDToGIDMap is cidToGID, or the identity when that is nil.
	trueType, cidGlyphs bool
	cidToGID            []byte
	// blankCodes are the codes of a Type 3 font whose glyph procedures paint nothing (PATCH): junk
	// typed in such glyphs shows as gaps.
	blankCodes *[256]bool
	// textProcs are the glyph procedures of a Type 3 font that show text, by code (PATCH): what a
	// reader sees of such a glyph is that text (contentReader.glyphText), drawn through matrix (the
	// FontMatrix) with the font's resources res.
	textProcs *[256]Value
	matrix    matrix
	res       Value
}

// blankCode reports whether the glyph of code draws nothing though it stands for text (a space's
// glyph draws nothing in any font).
func (f *fontInfo) blankCode(code string, text string) bool {
	if f.blank {
		return true
	}
	if f.blankCodes == nil || len(code) != 1 || !f.blankCodes[code[0]] {
		return false
	}
	for _, r := range text {
		if !unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// unseenCode reports whether the glyph of code, standing for text, draws nothing a reader reads
// though the font's other glyphs may (FontProgram.Unseen).
func (f *fontInfo) unseenCode(code string, text string) bool {
	if f.program == nil {
		return false
	}
	r := noRune
	for _, c := range text {
		if !unicode.IsSpace(c) {
			r = c
			break
		}
	}
	u := false
	if r != noRune {
		g, exact := f.glyph(code)
		if !exact {
			look := r
			if f.simple != nil && f.simple[code[0]] != 0 {
				look = f.simple[code[0]] // the encoding's character, by which a viewer finds the glyph
			}
			if g = f.program.Glyph(look); g == 0 && f.trueType {
				g = f.program.Glyph(0xF000 | rune(code[0])) // a symbolic font's (3,0) map
			}
		}
		u = (exact || g > 0) && f.program.Unseen(g, r, exact)
	}
	return u
}

// glyph returns the glyph code draws when the font says it exactly (a CIDFontType2 with an
// Identity CMap, through its CIDToGIDMap); exact false when it is found by character.
func (f *fontInfo) glyph(code string) (g int, exact bool) {
	if !f.cidGlyphs || len(code) != 2 {
		return 0, false
	}
	cid := int(codeValue(code))
	if f.cidToGID == nil {
		return cid, true
	}
	if 2*cid+1 < len(f.cidToGID) {
		return int(f.cidToGID[2*cid])<<8 | int(f.cidToGID[2*cid+1]), true
	}
	return 0, true // past the map's end, the specification's glyph 0
}

// FontProgram is what the caller's font parser tells of an embedded font program (PATCH): the
// reader draws no outlines and cannot tell.
type FontProgram interface {
	// Blank reports a program none of whose glyphs draws anything a reader reads.
	Blank() bool
	// Unseen reports whether glyph g, drawn for the character r, draws nothing a reader reads
	// where it stands for text (a speck; when exact, the glyph the file names, also nothing).
	Unseen(g int, r rune, exact bool) bool
	// Glyph is the glyph the program's own character map gives r, 0 for none.
	Glyph(r rune) int
}

// ReadFontProgram, when set, reads an embedded font program (the data of /FontFile2, or of
// /FontFile3 of subtype OpenType); nil when it cannot (PATCH). Every glyph drawn in a blank
// program, and each glyph the program says is unseen, is marked Text.Blank. The caller brings the
// font parser; nil marks none.
var ReadFontProgram func(program []byte) FontProgram

// maxFontProgram bounds the font program read for ReadFontProgram (a full CJK font is 10-20 MB):
// larger, it is not read. maxReaderFonts bounds them all.
const maxFontProgram = 32 << 20

// font returns the parsed font for the resource value v named name, parsing it once.
func (r *Reader) font(v Value, name string) *fontInfo {
	key := fontKey{v.ptr, name}
	if f, ok := r.fonts[key]; ok {
		return f
	}
	f := loadFont(v)
	if r.fonts == nil {
		r.fonts = make(map[fontKey]*fontInfo)
	}
	r.fonts[key] = f
	return f
}

func loadFont(v Value) (f *fontInfo) {
	f = &fontInfo{scale: 0.001, dw: 1000, decoded: make(map[uint64]decodedCode)}
	base := v.Key("BaseFont").Name()
	if i := strings.IndexByte(base, '+'); i >= 0 && i <= 7 {
		base = base[i+1:]
	}
	f.name = base
	lower := strings.ToLower(base)
	for _, w := range []string{"bold", "black", "heavy", "semibold", "demi", "-bd", ",bd"} {
		if strings.Contains(lower, w) {
			f.bold = true
		}
	}
	if v.Key("Subtype").Name() == "Type0" {
		f.composite = true
		f.loadComposite(v)
	} else {
		f.loadSimple(v)
	}
	if tu := v.Key("ToUnicode"); tu.Kind() == Stream {
		f.toUnicode = safeReadCmap(tu)
	}
	return f
}

func safeReadCmap(v Value) (m *cmap) {
	defer func() {
		if recover() != nil {
			m = nil
		}
	}()
	return readCmap(v)
}

func (f *fontInfo) descriptor(fd Value) {
	if fd.Kind() != Dict {
		return
	}
	if fd.Key("FontWeight").Float64() >= 600 || fd.Key("Flags").Int64()&(1<<18) != 0 {
		f.bold = true
	}
	f.missing = fd.Key("MissingWidth").Float64()
	if ReadFontProgram == nil {
		return
	}
	prog := fd.Key("FontFile2")
	if ff3 := fd.Key("FontFile3"); prog.Kind() != Stream && ff3.Kind() == Stream && ff3.Key("Subtype").Name() == "OpenType" {
		prog = ff3
	}
	if prog.Kind() != Stream {
		return
	}
	r := fd.r
	if r == nil {
		return
	}
	limit := min(maxFontProgram, maxReaderFonts-r.fontBytes)
	func() {
		defer func() { recover() }() // a damaged stream: not blank
		data, err := io.ReadAll(io.LimitReader(prog.Reader(), limit+1))
		r.fontBytes += int64(len(data))
		if err == nil && int64(len(data)) <= limit {
			if f.program = ReadFontProgram(data); f.program != nil {
				f.blank = f.program.Blank()
			}
		}
	}()
}

func (f *fontInfo) loadSimple(v Value) {
	f.descriptor(v.Key("FontDescriptor"))
	f.trueType = v.Key("Subtype").Name() == "TrueType"
	f.first = int(v.Key("FirstChar").Int64())
	if w := v.Key("Widths"); w.Kind() == Array {
		f.hasWidths = true
		f.widths = make([]float64, w.Len())
		for i := range f.widths {
			f.widths[i] = w.Index(i).Float64()
		}
	}
	if !f.hasWidths {
		f.std = std14Widths(f.name)
	}
	if v.Key("Subtype").Name() == "Type3" {
		if m := v.Key("FontMatrix"); m.Len() == 6 && m.Index(0).Float64() != 0 {
			f.scale = m.Index(0).Float64()
		}
		f.matrix, f.res = ident, v.Key("Resources")
		if m, ok := matrixArgs(arrayValues(v.Key("FontMatrix"))); ok {
			f.matrix = m
		}
	}
	table := pdfDocEncoding
	enc := v.Key("Encoding")
	baseName := enc.Name()
	if enc.Kind() == Dict {
		baseName = enc.Key("BaseEncoding").Name()
	}
	switch baseName {
	case "WinAnsiEncoding":
		table = winAnsiEncoding
	case "MacRomanEncoding":
		table = macRomanEncoding
	}
	procs := v.Key("CharProcs")
	glyphs := map[string]type3Paint{} // by glyph name: codes may share a procedure
	if enc.Kind() == Dict {
		diffs := enc.Key("Differences")
		code := -1
		for i := 0; i < diffs.Len(); i++ {
			x := diffs.Index(i)
			switch x.Kind() {
			case Integer:
				code = int(x.Int64())
			case Name:
				if code >= 0 && code < 256 {
					if r := glyphRune(x.Name()); r != 0 {
						table[code] = r
					}
					if procs.Kind() == Dict {
						switch g := type3Glyph(procs, v.Key("Resources"), x.Name(), glyphs); {
						case g.text:
							if f.textProcs == nil {
								f.textProcs = new([256]Value)
							}
							f.textProcs[code] = procs.Key(x.Name())
						case g.blank:
							if f.blankCodes == nil {
								f.blankCodes = new([256]bool)
							}
							f.blankCodes[code] = true
						}
					}
				}
				code++
			}
		}
	}
	f.simple = &table
}

// type3Paint is what a Type 3 glyph procedure shows (PATCH): blank, nothing, or nothing but white
// in colours of its own (d0: a glyph that sets its width with d1 is painted in the text's colour),
// which shows nothing on the page; text, text of its own.
type type3Paint struct{ blank, text bool }

// type3Glyph tells what the procedure of a glyph name shows, looking each name up once.
func type3Glyph(procs, res Value, name string, seen map[string]type3Paint) type3Paint {
	g, ok := seen[name]
	if !ok {
		proc := procs.Key(name)
		d := scanDrawn(proc, res, 0)
		g = type3Paint{blank: proc.Kind() == Stream && (!d.any || d.own && d.color.white()), text: proc.Kind() == Stream && d.text}
		seen[name] = g
	}
	return g
}

// glyphRune maps a glyph name to its character: the Adobe Glyph List, then the uniXXXX and
// uXXXX[XX] forms that subsetting tools write.
func glyphRune(n string) rune {
	if r := nameToRune[n]; r != 0 {
		return r
	}
	if i := strings.IndexByte(n, '.'); i > 0 {
		n = n[:i]
		if r := nameToRune[n]; r != 0 {
			return r
		}
	}
	hex := ""
	switch {
	case strings.HasPrefix(n, "uni") && len(n) >= 7:
		hex = n[3:7]
	case strings.HasPrefix(n, "u") && len(n) >= 5 && len(n) <= 7:
		hex = n[1:]
	}
	if hex != "" {
		if x, err := strconv.ParseUint(hex, 16, 32); err == nil && utf8.ValidRune(rune(x)) {
			return rune(x)
		}
	}
	return 0
}

func (f *fontInfo) loadComposite(v Value) {
	desc := v.Key("DescendantFonts").Index(0)
	f.descriptor(desc.Key("FontDescriptor"))
	if dw := desc.Key("DW"); dw.Kind() == Integer || dw.Kind() == Real {
		f.dw = dw.Float64()
	}
	f.cidW = make(map[uint32]float64)
	w := desc.Key("W")
	for i := 0; i < w.Len() && len(f.cidW) < 1<<17; {
		c := w.Index(i)
		if c.Kind() != Integer && c.Kind() != Real {
			break
		}
		next := w.Index(i + 1)
		if next.Kind() == Array {
			for j := 0; j < next.Len(); j++ {
				f.cidW[uint32(c.Int64())+uint32(j)] = next.Index(j).Float64()
			}
			i += 2
			continue
		}
		last, width := next.Int64(), w.Index(i+2).Float64()
		for cid := c.Int64(); cid <= last && cid-c.Int64() < 1<<16; cid++ {
			f.cidW[uint32(cid)] = width
		}
		i += 3
	}
	enc := v.Key("Encoding")
	switch enc.Kind() {
	case Stream:
		if m := safeReadCmap(enc); m != nil {
			f.space = m.space
		}
	case Name:
		n := enc.Name()
		switch {
		case strings.HasPrefix(n, "Identity-"):
			f.identity = true
			f.cidMap(desc)
		case strings.Contains(n, "UCS2") || strings.Contains(n, "UTF16"):
			f.ucs2 = true
		case strings.Contains(n, "UTF8"):
			f.utf8 = true
			f.space[0] = []byteRange{{"\x00", "\x7f"}}
			f.space[1] = []byteRange{{"\xc2\x80", "\xdf\xbf"}}
			f.space[2] = []byteRange{{"\xe0\x80\x80", "\xef\xbf\xbf"}}
			f.space[3] = []byteRange{{"\xf0\x80\x80\x80", "\xf4\xbf\xbf\xbf"}}
		case strings.HasPrefix(n, "GB") || strings.HasPrefix(n, "UniGB"):
			f.legacy = simplifiedchinese.GB18030
			f.space[0] = []byteRange{{"\x00", "\x80"}}
			f.space[1] = []byteRange{{"\x81\x40", "\xfe\xfe"}}
		case strings.Contains(n, "B5") || strings.HasPrefix(n, "HK"):
			f.legacy = traditionalchinese.Big5
			f.space[0] = []byteRange{{"\x00", "\x80"}}
			f.space[1] = []byteRange{{"\x81\x40", "\xfe\xfe"}}
		}
	}
}

// maxCIDToGID bounds the CIDToGIDMap read: two bytes for each of 65,536 CIDs.
const maxCIDToGID = 2 << 16

// cidMap reads how the CIDs of the CIDFontType2 desc find their glyphs (PATCH): the identity, or
// its CIDToGIDMap stream. A map that cannot be read leaves them unknown.
func (f *fontInfo) cidMap(desc Value) {
	if f.program == nil || desc.Key("Subtype").Name() != "CIDFontType2" {
		return
	}
	switch m := desc.Key("CIDToGIDMap"); m.Kind() {
	case Null:
		f.cidGlyphs = true
	case Name:
		f.cidGlyphs = m.Name() == "Identity"
	case Stream:
		func() {
			defer func() { recover() }() // a damaged stream: unknown
			data, err := io.ReadAll(io.LimitReader(m.Reader(), maxCIDToGID+1))
			if err == nil && len(data) <= maxCIDToGID {
				f.cidGlyphs, f.cidToGID = true, data
			}
		}()
	}
}

// next splits the first character code off s and returns it with its length in bytes.
func (f *fontInfo) next(s string) (code string) {
	if !f.composite {
		return s[:1]
	}
	for n := 1; n <= 4 && n <= len(s); n++ {
		for _, r := range f.space[n-1] {
			if r.low <= s[:n] && s[:n] <= r.high {
				return s[:n]
			}
		}
	}
	if len(s) >= 2 {
		return s[:2]
	}
	return s
}

func codeValue(code string) uint32 {
	var x uint32
	for i := 0; i < len(code); i++ {
		x = x<<8 | uint32(code[i])
	}
	return x
}

// decodedCode is what a code stands for: its characters, and whether its glyph draws nothing a
// reader reads (unseenCode; PATCH).
type decodedCode struct {
	s      string
	unseen bool
}

// text returns the characters code stands for, U+FFFD when the font does not say, and whether its
// glyph draws nothing a reader reads (PATCH: found with the characters, once for each code).
func (f *fontInfo) text(code string) (string, bool) {
	key := uint64(len(code))<<32 | uint64(codeValue(code))
	if d, ok := f.decoded[key]; ok {
		return d.s, d.unseen
	}
	s := f.decode(code)
	d := decodedCode{s, f.unseenCode(code, s)}
	if len(f.decoded) < 1<<16 {
		f.decoded[key] = d
	}
	return d.s, d.unseen
}

func (f *fontInfo) decode(code string) string {
	if f.toUnicode != nil {
		if s, ok := f.toUnicode.lookup(code); ok && s != "" {
			return s
		}
	}
	switch {
	case f.simple != nil:
		return string(f.simple[code[0]])
	case f.ucs2:
		if len(code)%2 == 0 {
			return utf16Decode(code)
		}
	case f.utf8:
		if utf8.ValidString(code) {
			return code
		}
	case f.legacy != nil:
		if out, err := f.legacy.NewDecoder().String(code); err == nil {
			return out
		}
	}
	return string(noRune)
}

// width returns the advance of code in glyph space units, and whether it came from the
// font (false: estimated from the character, for fonts that do not list widths).
func (f *fontInfo) width(code, text string) (float64, bool) {
	if !f.composite {
		if f.hasWidths {
			i := int(code[0]) - f.first
			if i >= 0 && i < len(f.widths) {
				return f.widths[i], true
			}
			if f.missing > 0 {
				return f.missing, true
			}
		}
		if f.std != nil {
			r, _ := utf8.DecodeRuneInString(text)
			if c, ok := winAnsiCode[r]; ok {
				return float64(f.std[c]), true
			}
		}
		return estimateWidth(text), false
	}
	if f.identity || f.space[0] != nil || f.space[1] != nil {
		if f.legacy == nil && !f.utf8 {
			if w, ok := f.cidW[codeValue(code)]; ok {
				return w, true
			}
			if f.identity || len(f.cidW) > 0 {
				return f.dw, true
			}
		}
	}
	return estimateWidth(text), false
}

// estimateWidth guesses a glyph's advance (glyph space units) from its character.
func estimateWidth(s string) float64 {
	r, _ := utf8.DecodeRuneInString(s)
	switch {
	case r == ' ':
		return 250
	case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) ||
		unicode.Is(unicode.Hangul, r) || (r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef):
		return 1000
	}
	return 500
}

// lookup maps one character code through the CMap.
func (m *cmap) lookup(code string) (string, bool) {
	if m.chars == nil {
		m.chars = make(map[string]string, len(m.bfchar))
		for _, c := range m.bfchar {
			if _, dup := m.chars[c.orig]; !dup {
				m.chars[c.orig] = c.repl
			}
		}
	}
	if repl, ok := m.chars[code]; ok {
		return utf16Decode(repl), true
	}
	for _, br := range m.bfrange {
		if len(br.lo) != len(code) || code < br.lo || code > br.hi {
			continue
		}
		off := codeValue(code) - codeValue(br.lo)
		switch br.dst.Kind() {
		case String:
			// The whole destination is incremented, not its last byte: a range such as
			// <0000> <FFFF> <0000> maps every code to itself.
			return utf16Decode(addOffset(br.dst.RawString(), off)), true
		case Array:
			if d := br.dst.Index(int(off)); d.Kind() == String {
				return utf16Decode(d.RawString()), true
			}
		}
		return "", false
	}
	return "", false
}

// addOffset adds off to the big-endian number written in s, keeping its length.
func addOffset(s string, off uint32) string {
	if off == 0 {
		return s
	}
	b := []byte(s)
	carry := off
	for i := len(b) - 1; i >= 0 && carry > 0; i-- {
		v := uint32(b[i]) + carry
		b[i] = byte(v)
		carry = v >> 8
	}
	return string(b)
}
