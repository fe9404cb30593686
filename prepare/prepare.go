// Package prepare is the one way in for a document, shared by a check and a library import: a file
// is read once, its SHA-256 taken once, its text extracted (package extract) and every paragraph
// normalised, segmented and fingerprinted (package similarity).
//
//	path → bytes → SHA-256 → extract.Document → one similarity.Prepared per paragraph
//
// A Document is written by one goroutine while it is prepared and only read afterwards; Fingerprint
// may be called for different paragraphs at once, which is how a check spreads one document over
// all cores while an import spreads its files.
//
// The library stores and searches prepared documents without knowing about file formats: this
// package is where a new format's extractor meets the rest of the pipeline.
package prepare

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// Document is a file made ready for the library or a check.
type Document struct {
	Path   string            // as given
	SHA256 string            // of the file's bytes, in hex: the library's key for "already held"
	Text   *extract.Document // paragraphs with their sections, title, kind and extraction warnings
	// Prints holds one fingerprint per paragraph of Text, in order, once Fingerprint has run for it.
	Prints []similarity.Prepared
}

// Warning is a change extraction made to a document's text; the library hands them on with an
// import's result.
type Warning = extract.Warning

// Read reads the file at path once, hashes it and extracts its text. A file too large to be a
// document is refused before it is read (extract.ReadFile).
func Read(ctx context.Context, path string) (*Document, error) {
	data, err := extract.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Bytes(ctx, path, data)
}

// Bytes is Read of a file's contents; name gives the format (by extension) and the errors' prefix.
func Bytes(ctx context.Context, name string, data []byte) (*Document, error) {
	doc, err := extract.Bytes(ctx, name, data)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	return Extracted(doc, hex.EncodeToString(sum[:])), nil
}

// Extracted wraps a document extracted elsewhere, with the SHA-256 of its file, for fingerprinting.
func Extracted(doc *extract.Document, sha string) *Document {
	return &Document{Path: doc.Path, SHA256: sha, Text: doc, Prints: make([]similarity.Prepared, len(doc.Paragraphs))}
}

// Fingerprint normalises, segments and fingerprints paragraph i with the word weights given (the
// library's, once it has learned them; nil for the built-in ones). Calls for different paragraphs
// may run at once.
func (d *Document) Fingerprint(i int, seg *similarity.Segmenter, weights func(hash uint32) float32) {
	d.Prints[i] = seg.PrepareWeighted(d.Text.Paragraphs[i].Text, weights)
}

// FingerprintAll fingerprints every paragraph, in order, on the calling goroutine.
func (d *Document) FingerprintAll(seg *similarity.Segmenter, weights func(hash uint32) float32) {
	for i := range d.Text.Paragraphs {
		d.Fingerprint(i, seg, weights)
	}
}

// Supported reports whether a file name has one of the extensions read from folders (a file given
// by name is read whatever its extension: extract tells the format by the content).
func Supported(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pdf", ".docx", ".txt":
		return true
	}
	return false
}

// Unreadable is why a file found in a folder is not read although its extension names a document
// (a Word 97-2003 .doc, CNKI's .caj, …), or nil for any other file. A folder walk lists these as
// not read, so that a class or a library folder does not lose a submission without a word.
func Unreadable(name string) error {
	ext := strings.ToLower(filepath.Ext(name))
	switch ext {
	case ".doc", ".dot", ".wps":
		return extract.ErrOldOffice
	case ".caj", ".kdh", ".nh":
		return fmt.Errorf("%w: CNKI's CAJ format is not read: download the paper as PDF", extract.ErrUnsupported)
	case ".rtf", ".odt", ".xps", ".epub", ".pages", ".wpt":
		return fmt.Errorf("%w: %s files are not read: save it as DOCX or PDF", extract.ErrUnsupported, ext)
	}
	return nil
}

// NotRegular is the error for a named pipe, device or socket found where a document was expected:
// opening a pipe waits for a writer that may never come.
func NotRegular(mode os.FileMode) error { return extract.NotRegular(mode) }

// FrontSection is the section name of front matter (extract.Front) as the library stores it.
const FrontSection = string(extract.Front)

// StoredParagraph is a paragraph as the library keeps it: enough for IsThesis.
type StoredParagraph struct {
	Text    string
	Section string
	Heading bool
}

// IsThesis reports whether stored paragraphs open with a thesis's front matter, as
// extract.Document.Thesis says of a document read now: for documents kept from before the kind was
// recorded.
func IsThesis(ps []StoredParagraph) bool {
	eps := make([]extract.Paragraph, len(ps))
	for i, p := range ps {
		eps[i] = extract.Paragraph{Text: p.Text, Section: extract.Section(p.Section), Heading: p.Heading}
	}
	return extract.IsThesis(eps)
}
