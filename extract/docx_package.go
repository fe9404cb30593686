package extract

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/nguyenthenguyen/docx"
	utf16 "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// maxPackageBytes bounds what all the parts read from one DOCX may inflate to together.
const maxPackageBytes = 2 * MaxTextBytes

// docxPackage reads parts of the ZIP with a size cap on each, so that a ZIP bomb fails on the
// declared size before anything is inflated. archive/zip itself refuses to inflate past the declared
// size, so a lying header cannot get around the cap either.
type docxPackage struct {
	zr       *zip.Reader
	parts    map[string]*zip.File // by lower-case part name; OPC part names are case-insensitive
	err      error                // first error of an optional part that was too large or damaged
	inflated int                  // bytes read so far, bounded by maxPackageBytes
}

func newDocxPackage(zr *zip.Reader) *docxPackage {
	p := &docxPackage{zr: zr, parts: map[string]*zip.File{}}
	for _, f := range zr.File {
		p.parts[strings.ToLower(strings.TrimPrefix(f.Name, "/"))] = f
	}
	return p
}

// mainPart names the main document part: the one _rels/.rels points to, as Word opens it, else
// word/document.xml. (A package holding a word/document.xml of other text beside the part its
// relationship names read as that other text.)
func (p *docxPackage) mainPart() string {
	if raw, err := p.read("_rels/.rels"); err == nil {
		for _, r := range parseRels(raw) {
			if strings.HasSuffix(r.typ, "/officeDocument") {
				name := strings.TrimPrefix(path.Clean("/"+r.target), "/")
				if f := p.parts[strings.ToLower(name)]; f != nil {
					return f.Name
				}
			}
		}
	}
	if f := p.parts["word/document.xml"]; f != nil {
		return f.Name
	}
	return ""
}

// mainXML returns the main part. It goes through nguyenthenguyen/docx first, the package our
// dependency notes name for opening documents; that library reads whole parts without a limit and
// fails when document.xml.rels is missing, so the sizes are checked before it runs and archive/zip
// is the fallback.
func (p *docxPackage) mainXML(data []byte, mainName string) ([]byte, error) {
	var total uint64
	for _, f := range p.zr.File {
		lower := strings.ToLower(f.Name)
		if lower == strings.ToLower(mainName) || strings.Contains(lower, "header") ||
			strings.Contains(lower, "footer") || lower == "word/_rels/document.xml.rels" {
			if f.UncompressedSize64 > MaxTextBytes {
				return nil, fmt.Errorf("%w: %s expands to %d MB (limit %d MB)", ErrTooLarge, f.Name, f.UncompressedSize64>>20, MaxTextBytes>>20)
			}
			total += f.UncompressedSize64
		}
	}
	if total <= MaxTextBytes && mainName == "word/document.xml" {
		if content, err := openWithDocxLib(data); err == nil {
			return []byte(content), nil
		}
	}
	raw, err := p.read(mainName)
	if err != nil {
		return nil, err
	}
	return raw, nil
}

// openWithDocxLib returns word/document.xml as the docx library reads it, with its panics turned
// into errors.
func openWithDocxLib(data []byte) (content string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("docx library: %v", r)
		}
	}()
	r, err := docx.ReadDocxFromMemory(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", err
	}
	defer r.Close()
	return r.Editable().GetContent(), nil
}

// read inflates one part, at most MaxTextBytes of it.
func (p *docxPackage) read(name string) ([]byte, error) {
	f := p.parts[strings.ToLower(name)]
	if f == nil {
		return nil, fmt.Errorf("%w: %s is missing", ErrCorrupt, name)
	}
	if f.UncompressedSize64 > MaxTextBytes {
		return nil, fmt.Errorf("%w: %s expands to %d MB (limit %d MB)", ErrTooLarge, f.Name, f.UncompressedSize64>>20, MaxTextBytes>>20)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, f.Name, err)
	}
	defer rc.Close()
	raw, err := io.ReadAll(io.LimitReader(rc, MaxTextBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, f.Name, err)
	}
	if len(raw) > MaxTextBytes {
		return nil, fmt.Errorf("%w: %s expands past %d MB", ErrTooLarge, f.Name, MaxTextBytes>>20)
	}
	if p.inflated += len(raw); p.inflated > maxPackageBytes {
		return nil, fmt.Errorf("%w: the parts expand to more than %d MB", ErrTooLarge, maxPackageBytes>>20)
	}
	return raw, nil
}

// readOptional reads a part that a document may lack (styles, notes). Missing is not an error; a
// part that is too large or damaged is remembered in p.err.
func (p *docxPackage) readOptional(name string) []byte {
	if name == "" || p.parts[strings.ToLower(name)] == nil {
		return nil
	}
	raw, err := p.read(name)
	if err != nil {
		if errors.Is(err, ErrTooLarge) && p.err == nil {
			p.err = err
		}
		return nil // a damaged styles or notes part costs formatting, not the document
	}
	return raw
}

type rel struct{ id, typ, target, mode string }

// rels reads the relationships of a part (word/_rels/document.xml.rels for the main part).
func (p *docxPackage) rels(part string) []rel {
	dir, file := path.Split(part)
	raw := p.readOptional(dir + "_rels/" + file + ".rels")
	return parseRels(raw)
}

// relByID resolves the part the relationship with the given id points to, or "" when there is none
// or it is outside the package.
func relByID(rels []rel, id, from string) string {
	for _, r := range rels {
		if r.id == id && r.mode != "External" {
			return resolvePart(from, r.target)
		}
	}
	return ""
}

// target resolves the part a relationship of the given type points to, or def when there is none.
func (p *docxPackage) target(rels []rel, typ, from, def string) string {
	for _, r := range rels {
		if r.typ == relPrefix+typ && r.mode != "External" {
			return resolvePart(from, r.target)
		}
	}
	return def
}

// resolvePart is the name of the part a relationship of part from points to.
func resolvePart(from, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(path.Clean(target), "/")
	}
	return strings.TrimPrefix(path.Clean("/"+path.Dir(from)+"/"+target), "/")
}

func parseRels(raw []byte) []rel {
	var out []rel
	if len(raw) == 0 {
		return nil
	}
	d := xml.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "Relationship" {
			out = append(out, rel{id: attr(se, "Id"), typ: attr(se, "Type"), target: attr(se, "Target"), mode: attr(se, "TargetMode")})
		}
	}
}

// eachStart reads the rest of the element whose start tag d has just given, calling f with each
// element inside it, however deep.
func eachStart(d *xml.Decoder, f func(xml.StartElement)) error {
	for depth := 1; depth > 0; {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			f(t)
		case xml.EndElement:
			depth--
		}
	}
	return nil
}

// attr returns the value of the attribute with the given local name, whatever its namespace.
func attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

func isW(n xml.Name) bool { return n.Space == nsW || n.Space == nsWStrict || n.Space == "w" }

// onOff reads a WordprocessingML toggle such as <w:vanish/> or <w:vanish w:val="false"/>.
func onOff(se xml.StartElement) bool {
	switch attr(se, "val") {
	case "false", "0", "off", "none":
		return false
	}
	return true
}

// newXMLDecoder reads a part as UTF-8. OOXML parts may also be UTF-16 with a byte-order mark, which
// encoding/xml cannot read by itself.
func newXMLDecoder(raw []byte) *xml.Decoder {
	return xmlDecoder(xmlBytes(raw))
}

// xmlBytes is a part as newXMLDecoder reads it: UTF-8, without a byte-order mark or the control
// characters XML forbids. A decoder's offsets are offsets into it.
func xmlBytes(raw []byte) []byte {
	if bytes.HasPrefix(raw, []byte{0xFF, 0xFE}) || bytes.HasPrefix(raw, []byte{0xFE, 0xFF}) {
		dec := utf16.UTF16(utf16.BigEndian, utf16.ExpectBOM).NewDecoder()
		if out, _, err := transform.Bytes(dec, raw); err == nil {
			raw = out
		}
	}
	raw = bytes.TrimPrefix(raw, []byte{0xEF, 0xBB, 0xBF})
	if !utf8.Valid(raw) {
		raw = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	}
	return stripBadXMLChars(raw)
}

// xmlDecoder reads the bytes xmlBytes returned.
func xmlDecoder(b []byte) *xml.Decoder {
	d := xml.NewDecoder(bytes.NewReader(b))
	// The text is UTF-8 by now, whatever the declaration says.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	return d
}

// stripBadXMLChars removes NUL and the other control characters XML 1.0 forbids: they only come
// from broken writers, and encoding/xml would refuse the whole part for one of them.
func stripBadXMLChars(b []byte) []byte {
	bad := func(c byte) bool { return c < 0x20 && c != '\t' && c != '\n' && c != '\r' }
	i := bytes.IndexFunc(b, func(r rune) bool { return r < 0x20 && bad(byte(r)) })
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if !bad(c) {
			out = append(out, c)
		}
	}
	return out
}
