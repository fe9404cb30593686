package report

// Just enough PDF reading to verify our own reports: the embedded JSON file and the text shown on a
// page. It understands what fpdf writes (plain objects, direct /Length, Flate streams, text as UTF-16BE
// strings shown with Tj) and copes with small variations; it is not a general PDF reader.

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"unicode/utf16"
)

// maxStream bounds one decompressed stream, so that a crafted file cannot exhaust memory.
const maxStream = 256 << 20

var (
	objRe    = regexp.MustCompile(`(?:^|[\s>])(\d+)\s+(\d+)\s+obj\b`)
	lengthRe = regexp.MustCompile(`/Length\s+(\d+)(\s+\d+\s+R)?`)
	refRe    = regexp.MustCompile(`(\d+)\s+\d+\s+R`)
	kidsRe   = regexp.MustCompile(`/Kids\s*\[([^\]]*)\]`)
	contRe   = regexp.MustCompile(`/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)`)
	pageRe   = regexp.MustCompile(`/Type\s*/Page\b`)
	pagesRe  = regexp.MustCompile(`/Type\s*/Pages\b`)
	efRe     = regexp.MustCompile(`/Type\s*/EmbeddedFile\b`)
)

type pdfObject struct {
	dict   []byte // the object's dictionary, "<< … >>"; empty when the object is not a dictionary
	stream []byte // raw (still encoded) stream data, nil without a stream
}

type pdfFile struct {
	data []byte
	objs map[int]pdfObject
	nums []int // object numbers in file order

	pageNums []int // pages(), once found
}

func parsePDF(data []byte) (*pdfFile, error) {
	if !bytes.HasPrefix(data, []byte("%PDF-")) {
		return nil, errors.New("not a PDF file")
	}
	f := &pdfFile{data: data, objs: map[int]pdfObject{}}
	for _, m := range objRe.FindAllSubmatchIndex(data, -1) {
		n, err := strconv.Atoi(string(data[m[2]:m[3]]))
		if err != nil {
			continue
		}
		obj := parseObject(data, m[1])
		if _, seen := f.objs[n]; !seen {
			f.nums = append(f.nums, n)
		}
		f.objs[n] = obj // a later definition (incremental update) wins
	}
	if len(f.objs) == 0 {
		return nil, errors.New("no PDF objects found")
	}
	return f, nil
}

// parseObject reads the dictionary and stream of the object whose body starts at off.
func parseObject(data []byte, off int) pdfObject {
	var o pdfObject
	i := skipSpace(data, off)
	if !bytes.HasPrefix(data[i:], []byte("<<")) {
		return o
	}
	end := dictEnd(data, i)
	if end < 0 {
		return o
	}
	o.dict = data[i:end]
	j := skipSpace(data, end)
	if !bytes.HasPrefix(data[j:], []byte("stream")) {
		return o
	}
	j += len("stream")
	if j < len(data) && data[j] == '\r' {
		j++
	}
	if j < len(data) && data[j] == '\n' {
		j++
	}
	if m := lengthRe.FindSubmatch(o.dict); m != nil && len(m[2]) == 0 {
		if n, err := strconv.Atoi(string(m[1])); err == nil && n >= 0 && j+n <= len(data) {
			rest := data[j+n:]
			rest = rest[:min(len(rest), 16)]
			if bytes.Contains(rest, []byte("endstream")) {
				o.stream = data[j : j+n]
				return o
			}
		}
	}
	// No usable direct /Length: take everything up to endstream.
	if k := bytes.Index(data[j:], []byte("endstream")); k >= 0 {
		s := data[j : j+k]
		s = bytes.TrimSuffix(s, []byte("\n"))
		s = bytes.TrimSuffix(s, []byte("\r"))
		o.stream = s
	}
	return o
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t' || data[i] == '\f' || data[i] == 0) {
		i++
	}
	return i
}

// dictEnd returns the offset just past the dictionary starting at i, skipping strings so that ">>"
// inside a title does not end it.
func dictEnd(data []byte, i int) int {
	depth := 0
	for i < len(data) {
		switch {
		case data[i] == '(':
			_, n := literalString(data, i)
			i = n
			continue
		case bytes.HasPrefix(data[i:], []byte("<<")):
			depth++
			i += 2
			continue
		case data[i] == '<': // a hex string
			if k := bytes.IndexByte(data[i:], '>'); k >= 0 {
				i += k + 1
				continue
			}
		case bytes.HasPrefix(data[i:], []byte(">>")):
			depth--
			i += 2
			if depth == 0 {
				return i
			}
			continue
		}
		i++
	}
	return -1
}

// decoded returns the object's stream, inflated when it is Flate-encoded.
func (o pdfObject) decoded() ([]byte, error) {
	if o.stream == nil {
		return nil, errors.New("object has no stream")
	}
	if !bytes.Contains(o.dict, []byte("/FlateDecode")) {
		return o.stream, nil
	}
	zr, err := zlib.NewReader(bytes.NewReader(o.stream))
	if err != nil {
		return nil, fmt.Errorf("inflate stream: %w", err)
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, maxStream+1))
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("inflate stream: %w", err)
	}
	if len(out) > maxStream {
		return nil, errors.New("stream too large")
	}
	return out, nil
}

// embeddedFiles returns the contents of every embedded file.
func (f *pdfFile) embeddedFiles() [][]byte {
	var out [][]byte
	for _, n := range f.nums {
		o := f.objs[n]
		if o.stream != nil && efRe.Match(o.dict) {
			if b, err := o.decoded(); err == nil {
				out = append(out, b)
			}
		}
	}
	return out
}

// pages returns the page objects' numbers in reading order.
func (f *pdfFile) pages() []int {
	if f.pageNums == nil {
		f.pageNums = f.findPages()
	}
	return f.pageNums
}

func (f *pdfFile) findPages() []int {
	var kids []int
	for _, n := range f.nums {
		o := f.objs[n]
		if pagesRe.Match(o.dict) {
			if m := kidsRe.FindSubmatch(o.dict); m != nil {
				for _, r := range refRe.FindAllSubmatch(m[1], -1) {
					if k, err := strconv.Atoi(string(r[1])); err == nil {
						kids = append(kids, k)
					}
				}
			}
			break
		}
	}
	var out []int
	for _, k := range kids {
		if pageRe.Match(f.objs[k].dict) {
			out = append(out, k)
		}
	}
	if len(out) > 0 {
		return out
	}
	// No usable page tree: take page objects in object order.
	for _, n := range f.nums {
		if pageRe.Match(f.objs[n].dict) {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}

// pageStrings returns the strings page p (0-based) shows, one per text-showing operator.
func (f *pdfFile) pageStrings(p int) ([]string, error) {
	pages := f.pages()
	if p >= len(pages) {
		return nil, fmt.Errorf("no page %d", p+1)
	}
	m := contRe.FindSubmatch(f.objs[pages[p]].dict)
	if m == nil {
		return nil, fmt.Errorf("page %d has no contents", p+1)
	}
	var content []byte
	for _, r := range refRe.FindAllSubmatch(m[1], -1) {
		n, _ := strconv.Atoi(string(r[1]))
		b, err := f.objs[n].decoded()
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", p+1, err)
		}
		content = append(append(content, b...), '\n')
	}
	return contentStrings(content), nil
}

// contentStrings scans a content stream for Tj and TJ operators and decodes their strings.
func contentStrings(c []byte) []string {
	var out []string
	var last []byte
	var arr [][]byte
	inArray := false
	for i := 0; i < len(c); {
		switch ch := c[i]; {
		case ch == '(':
			s, n := literalString(c, i)
			if inArray {
				arr = append(arr, s)
			} else {
				last = s
			}
			i = n
		case ch == '[':
			inArray, arr = true, nil
			i++
		case ch == ']':
			inArray = false
			i++
		case ch == '%': // comment
			for i < len(c) && c[i] != '\n' && c[i] != '\r' {
				i++
			}
		case ch == 'T' && i+1 < len(c) && (c[i+1] == 'j' || c[i+1] == 'J') && (i+2 == len(c) || isDelim(c[i+2])) && (i == 0 || isDelim(c[i-1])):
			if c[i+1] == 'j' && last != nil {
				out = append(out, decodeText(last))
			} else if c[i+1] == 'J' {
				out = append(out, decodeText(bytes.Join(arr, nil)))
			}
			last, arr = nil, nil
			i += 2
		default:
			i++
		}
	}
	return out
}

func isDelim(b byte) bool {
	return b == ' ' || b == '\n' || b == '\r' || b == '\t' || b == '(' || b == ')' || b == '[' || b == ']' || b == '/' || b == '<' || b == '>'
}

// literalString decodes the PDF string starting with '(' at i and returns it with the offset after it.
func literalString(c []byte, i int) ([]byte, int) {
	var out []byte
	depth := 0
	for i < len(c) {
		ch := c[i]
		switch {
		case ch == '(':
			if depth > 0 {
				out = append(out, ch)
			}
			depth++
			i++
		case ch == ')':
			depth--
			i++
			if depth == 0 {
				return out, i
			}
			out = append(out, ch)
		case ch == '\\' && i+1 < len(c):
			i++
			e := c[i]
			switch e {
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case '\r', '\n': // line continuation
				if e == '\r' && i+1 < len(c) && c[i+1] == '\n' {
					i++
				}
			default:
				if e >= '0' && e <= '7' {
					v, k := 0, 0
					for k < 3 && i < len(c) && c[i] >= '0' && c[i] <= '7' {
						v = v*8 + int(c[i]-'0')
						i++
						k++
					}
					out = append(out, byte(v))
					continue
				}
				out = append(out, e)
			}
			i++
		default:
			out = append(out, ch)
			i++
		}
	}
	return out, i
}

// decodeText reads a string shown in one of our fonts: fpdf's Unicode fonts take UTF-16BE code units.
func decodeText(b []byte) string {
	if len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff {
		b = b[2:]
	}
	if len(b)%2 != 0 {
		return string(b) // not ours: a single-byte font
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	return string(utf16.Decode(u))
}
