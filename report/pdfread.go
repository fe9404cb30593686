package report

// Just enough PDF reading to find the JSON report a PDF report carries as an embedded file. It
// understands what fpdf writes (plain objects, direct /Length, Flate streams) and copes with small
// variations; it is not a general PDF reader. Every file it reads may be hostile: it looks at a
// bounded number of embedded files, scans a bounded stretch for each dictionary, and inflates a
// bounded number of bytes in all.

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// Budgets for the embedded files of a PDF: a report's JSON is a few megabytes (0.7 MB for a 100-page
// thesis with a fifth of its paragraphs copied, 2.1 MB for 300 pages), and only its file is wanted.
const (
	maxEmbedded      = 64 << 20 // bytes all embedded files together may inflate to
	maxEmbeddedFiles = 8        // embedded files looked at
	maxDict          = 64 << 10 // bytes scanned for one object's dictionary
)

// ErrEmbeddedTooLarge means a PDF's embedded files inflate past maxEmbedded.
var ErrEmbeddedTooLarge = fmt.Errorf("report: the PDF's embedded files inflate to more than %d MB, which no ThesisCheck report does: refused", maxEmbedded>>20)

var (
	lengthRe = regexp.MustCompile(`/Length\s+(\d+)(\s+\d+\s+R)?`)
	efRe     = regexp.MustCompile(`/Type\s*/EmbeddedFile\b`)
)

type pdfObject struct {
	dict   []byte // the object's dictionary, "<< … >>"; empty when the object is not a dictionary
	stream []byte // raw (still encoded) stream data, nil without a stream
}

// embeddedFiles returns the contents of the PDF's first embedded files, inflated.
func embeddedFiles(data []byte) ([][]byte, error) {
	var out [][]byte
	budget := maxEmbedded
	for _, m := range efRe.FindAllIndex(data, maxEmbeddedFiles) {
		// The object whose dictionary holds /Type /EmbeddedFile begins shortly before it.
		from := max(0, m[0]-maxDict)
		k := bytes.LastIndex(data[from:m[0]], []byte("obj"))
		if k < 0 {
			continue
		}
		o := parseObject(data, from+k+len("obj"))
		if o.stream == nil || !efRe.Match(o.dict) {
			continue
		}
		b, err := o.decoded(budget)
		if errors.Is(err, ErrEmbeddedTooLarge) {
			return nil, err
		}
		if err != nil {
			continue // damaged: not the report
		}
		budget -= len(b)
		out = append(out, b)
	}
	return out, nil
}

// parseObject reads the dictionary and stream of the object whose body starts at off.
func parseObject(data []byte, off int) pdfObject {
	var o pdfObject
	i := skipSpace(data, off)
	if !bytes.HasPrefix(data[i:], []byte("<<")) {
		return o
	}
	end := dictEnd(data[:min(len(data), i+maxDict)], i) // a longer dictionary is none of ours
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
		if n, err := strconv.Atoi(string(m[1])); err == nil && n >= 0 && n <= len(data)-j {
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

// decoded returns the object's stream, inflated when it is Flate-encoded, or ErrEmbeddedTooLarge
// when it is longer than budget.
func (o pdfObject) decoded(budget int) ([]byte, error) {
	if o.stream == nil {
		return nil, errors.New("object has no stream")
	}
	if !bytes.Contains(o.dict, []byte("/FlateDecode")) {
		if len(o.stream) > budget {
			return nil, ErrEmbeddedTooLarge
		}
		return o.stream, nil
	}
	zr, err := zlib.NewReader(bytes.NewReader(o.stream))
	if err != nil {
		return nil, fmt.Errorf("inflate stream: %w", err)
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, int64(budget)+1))
	if len(out) > budget {
		return nil, ErrEmbeddedTooLarge
	}
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("inflate stream: %w", err)
	}
	return out, nil
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
