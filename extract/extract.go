// Package extract turns a thesis file (PDF, DOCX or TXT) into its paragraphs, each with the part of
// the thesis it belongs to (front matter, abstract, body, references, …), its page and its notes.
//
// It is the only package that knows file formats. Everything after it works on Document values.
// Third-party parsers are called behind a recover and a time limit: a broken file is an error
// naming the file, never a panic or a hang.
package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Section is the part of a thesis a paragraph belongs to.
type Section string

// The sections, in the order they usually appear.
const (
	Front            Section = "front"      // title page, declarations, table of contents
	Abstract         Section = "abstract"   // 摘要 / Abstract
	Body             Section = "body"       // chapters
	References       Section = "references" // 参考文献 / References / Bibliography
	Acknowledgements Section = "acknowledgements"
	Appendix         Section = "appendix"
)

// Paragraph is one block of running text.
type Paragraph struct {
	Text    string   `json:"text"`
	Section Section  `json:"section"`
	Heading bool     `json:"heading,omitempty"` // the paragraph is itself a heading
	Chapter string   `json:"chapter,omitempty"` // the heading of the chapter it stands in
	Page    int      `json:"page,omitempty"`    // 1-based page where it starts; 0 when the format has no pages
	Notes   []string `json:"notes,omitempty"`   // footnotes and endnotes referenced from this paragraph
}

// Document is an extracted file.
type Document struct {
	Path       string      `json:"path"`
	Format     string      `json:"format"` // "pdf", "docx" or "txt"
	Title      string      `json:"title"`
	Paragraphs []Paragraph `json:"paragraphs"`
}

// Errors that describe why a file cannot be read. They are wrapped with the file's path.
var (
	ErrEncrypted   = errors.New("password protected")
	ErrNoText      = errors.New("no text layer — scanned?")
	ErrEmpty       = errors.New("no paragraphs")
	ErrUnsupported = errors.New("not a PDF, DOCX or text file")
	ErrCorrupt     = errors.New("file is damaged")
	ErrTooLarge    = errors.New("file is too large")
	ErrTimeout     = errors.New("reading took too long")
)

// Limits that keep hostile files from costing memory or time.
const (
	MaxFileSize  = 200 << 20 // bytes read from disk
	MaxTextBytes = 64 << 20  // bytes of text one document may expand to
	Timeout      = 60 * time.Second
)

// File reads the document at path. The format is taken from the content, not the extension, so a
// PDF named .docx is still read as a PDF.
func File(path string) (*Document, error) {
	return FileContext(context.Background(), path)
}

// FileContext is File with a context that can cancel a long extraction.
func FileContext(ctx context.Context, path string) (*Document, error) {
	doc, err := readFile(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("extract %s: %w", path, err)
	}
	return doc, nil
}

func readFile(ctx context.Context, path string) (*Document, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, errors.New("is a folder")
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("%w (%d MB, limit %d MB)", ErrTooLarge, st.Size()>>20, MaxFileSize>>20)
	}
	if st.Size() == 0 {
		return nil, fmt.Errorf("%w: the file is empty", ErrEmpty)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	format := Sniff(data, path)
	if format == "" {
		return nil, ErrUnsupported
	}
	doc, err := parseGuarded(ctx, format, data)
	if err != nil {
		return nil, err
	}
	doc.Path = path
	doc.Format = format
	Structure(doc)
	if len(doc.Paragraphs) == 0 {
		if format == "pdf" {
			return nil, ErrNoText
		}
		return nil, ErrEmpty
	}
	if doc.Title == "" {
		doc.Title = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return doc, nil
}

// Bytes reads a document held in memory; name is used for messages and as a format hint only.
func Bytes(ctx context.Context, name string, data []byte) (*Document, error) {
	format := Sniff(data, name)
	if format == "" {
		return nil, fmt.Errorf("extract %s: %w", name, ErrUnsupported)
	}
	doc, err := parseGuarded(ctx, format, data)
	if err != nil {
		return nil, fmt.Errorf("extract %s: %w", name, err)
	}
	doc.Path, doc.Format = name, format
	Structure(doc)
	if len(doc.Paragraphs) == 0 {
		if format == "pdf" {
			return nil, fmt.Errorf("extract %s: %w", name, ErrNoText)
		}
		return nil, fmt.Errorf("extract %s: %w", name, ErrEmpty)
	}
	if doc.Title == "" {
		doc.Title = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	return doc, nil
}

// Sniff names the format of data by its content: "pdf", "docx", "txt", or "" when it is none of
// them. The extension of name only breaks ties (a ZIP that is not a DOCX is not text either).
func Sniff(data []byte, name string) string {
	head := data
	if len(head) > 1024 {
		head = head[:1024]
	}
	switch {
	case bytes.Contains(head, []byte("%PDF-")):
		return "pdf"
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return "docx"
	case looksLikeText(data):
		return "txt"
	}
	return ""
}

// parseGuarded runs a parser with a recover and a time limit, so that a parser bug on a hostile
// file becomes an error. A parser that hangs is abandoned (its goroutine is left to finish).
func parseGuarded(ctx context.Context, format string, data []byte) (*Document, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	type result struct {
		doc *Document
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- result{nil, fmt.Errorf("%w: %v", ErrCorrupt, r)}
			}
		}()
		var doc *Document
		var err error
		switch format {
		case "pdf":
			doc, err = readPDF(ctx, data)
		case "docx":
			doc, err = readDOCX(ctx, data)
		default:
			doc, err = readTXT(data)
		}
		ch <- result{doc, err}
	}()
	select {
	case r := <-ch:
		return r.doc, r.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, ErrTimeout
		}
		return nil, ctx.Err()
	}
}
