package report

// Reading what a PDF report's pages show, for the writer's tests: the objects of the file, its page
// tree and the strings each page's content stream draws.

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

var (
	objRe   = regexp.MustCompile(`(?:^|[\s>])(\d+)\s+(\d+)\s+obj\b`)
	refRe   = regexp.MustCompile(`(\d+)\s+\d+\s+R`)
	kidsRe  = regexp.MustCompile(`/Kids\s*\[([^\]]*)\]`)
	contRe  = regexp.MustCompile(`/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)`)
	pageRe  = regexp.MustCompile(`/Type\s*/Page\b`)
	pagesRe = regexp.MustCompile(`/Type\s*/Pages\b`)
)

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

// inflated returns the object's stream, inflated when it is Flate-encoded.
func (o pdfObject) inflated() ([]byte, error) {
	if o.stream == nil {
		return nil, errors.New("object has no stream")
	}
	if !bytes.Contains(o.dict, []byte("/FlateDecode")) {
		return o.stream, nil
	}
	zr, err := zlib.NewReader(bytes.NewReader(o.stream))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
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
		b, err := f.objs[n].inflated()
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

// squeeze drops white space, which line breaking adds and removes.
func squeeze(s string) string {
	return strings.Map(func(c rune) rune {
		if unicode.IsSpace(c) {
			return -1
		}
		return c
	}, s)
}
