// Package report holds the result of a check — what was copied, from where, and the figures users
// know from CNKI and Turnitin — and writes it out as JSON (and, in their own files, PDF and HTML).
//
// A Report is plain data: the check package fills it, the CLI and the GUI only read it.
package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"thesischeck/extract"
)

// Report is the result of checking one document against the library.
type Report struct {
	Number   string    `json:"report_number"` // stable id of this report (derived from content and time)
	Created  time.Time `json:"created"`
	Document Document  `json:"document"`
	Library  Library   `json:"library"`

	// Similarity is the share of the document's characters inside copied spans (总文字复制比).
	Similarity float64 `json:"similarity"`
	// SimilarityExcludingQuotes leaves properly quoted passages out (去除引用).
	SimilarityExcludingQuotes float64 `json:"similarity_excluding_quotes"`
	// MaxSingleSource is the largest share matched to one source (单篇最大文字复制比).
	MaxSingleSource float64 `json:"max_single_source"`
	CopiedChars     int     `json:"copied_chars"`
	QuotedChars     int     `json:"quoted_chars"`
	TemplateChars   int     `json:"template_chars"`
	TotalChars      int     `json:"total_chars"`
	FlaggedParas    int     `json:"flagged_paragraphs"`

	Sections   []SectionFigure `json:"sections"`
	Sources    []Source        `json:"sources"`
	Paragraphs []Paragraph     `json:"paragraphs"`
	Excluded   []Exclusion     `json:"excluded,omitempty"` // what was left out of the check, and why
	// ExcludedSources are the library documents the figures leave out, as asked (the student's own
	// earlier paper): every figure above is recomputed without them.
	ExcludedSources []ExcludedSource `json:"excluded_sources,omitempty"`
	// Verdict is a school's rules (a profile) applied to the figures, when a profile was given.
	Verdict  *SchoolVerdict `json:"verdict,omitempty"`
	Warnings []Warning      `json:"warnings,omitempty"`
	Settings Settings       `json:"settings"`

	// Certificate is the signer's X.509 certificate (base64 DER), whose ECDSA key made Signature
	// (see Sign and Verify). PublicKey is instead the base64 Ed25519 key of a report signed before
	// ThesisCheck signed PDF files; such reports still verify, and are never made any more.
	Certificate string `json:"certificate,omitempty"`
	PublicKey   string `json:"public_key,omitempty"`
	Signature   string `json:"signature,omitempty"` // over the report without this field
}

// Document describes the checked file.
type Document struct {
	Path       string `json:"path"`
	Title      string `json:"title"`
	SHA256     string `json:"sha256"`
	Chars      int    `json:"chars"`
	Paragraphs int    `json:"paragraphs"`
}

// Library describes the reference library at the time of the check.
type Library struct {
	Documents  int `json:"documents"`
	Paragraphs int `json:"paragraphs"`
}

// Settings are the thresholds the check ran with.
type Settings struct {
	MinRunChars        int  `json:"min_run_chars"`
	MaxHamming         int  `json:"max_hamming"`
	IncludeReferences  bool `json:"include_references"`
	IncludeFrontMatter bool `json:"include_front_matter,omitempty"`
}

// SectionFigure is the similarity of one part of the thesis (abstract, a chapter, references).
type SectionFigure struct {
	Name        string  `json:"name"`
	Section     string  `json:"section"`
	Chars       int     `json:"chars"`
	CopiedChars int     `json:"copied_chars"`
	Similarity  float64 `json:"similarity"`
	Checked     bool    `json:"checked"`
}

// Source is one library document the text was copied from, ranked by its share.
type Source struct {
	ID          uint64  `json:"id"`
	Path        string  `json:"path"`
	Title       string  `json:"title"`
	Similarity  float64 `json:"similarity"` // share of the checked document's characters copied from it
	CopiedChars int     `json:"copied_chars"`
	Jaccard     float64 `json:"jaccard"` // MinHash estimate of the two documents' Jaccard similarity
	Color       string  `json:"color"`   // #rrggbb, the same in every view of this report
}

// Paragraph is one paragraph of the checked document with what it matched.
type Paragraph struct {
	Index      int      `json:"index"`
	Text       string   `json:"text"`
	Section    string   `json:"section"`
	Chapter    string   `json:"chapter,omitempty"`
	Heading    bool     `json:"heading,omitempty"`
	Page       int      `json:"page"`
	Similarity float64  `json:"similarity"`
	Status     Status   `json:"status,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	Matches    []Match  `json:"matches"`
	// TemplateMatches are the boilerplate sources of the paragraph: shown, never counted.
	TemplateMatches []Match `json:"template_matches,omitempty"`
	// Quotes are the quoted passages (rune offsets) found in the text.
	Quotes [][2]int `json:"quotes,omitempty"`
}

// Status is what a paragraph's text counts as; its string is the JSON name. A paragraph with no
// status ("") is checked and not copied.
type Status string

const (
	StatusCopied   Status = "copied"
	StatusQuoted   Status = "quoted"   // copied inside a proper quotation
	StatusTemplate Status = "template" // boilerplate the library holds in many documents
	StatusExcluded Status = "excluded" // not checked: references, headings, front matter
)

// Match is one source paragraph that a paragraph copies from.
type Match struct {
	Source          int     `json:"source"` // index into Report.Sources
	SourcePath      string  `json:"source_path"`
	SourceParagraph int     `json:"source_paragraph"`
	SourceText      string  `json:"source_text"`
	Hamming         int     `json:"hamming"` // SimHash distance of the two paragraphs (0–64)
	Jaccard         float64 `json:"jaccard"` // Jaccard similarity of the two paragraphs' word shingles
	// Spans are the copied runs as rune offsets [start, end) into the paragraph's Text.
	Spans [][2]int `json:"spans"`
	// SourceSpans are the same runs in SourceText.
	SourceSpans [][2]int `json:"source_spans"`
	CopiedChars int      `json:"copied_chars"`
	Template    bool     `json:"template,omitempty"`
}

// Exclusion says which part of the document was not counted and why.
type Exclusion struct {
	Section string `json:"section"`
	Chars   int    `json:"chars"`
	Reason  string `json:"reason"`
}

// ExcludedSource is a library document left out of the figures on request.
type ExcludedSource struct {
	ID    uint64 `json:"id"`
	Title string `json:"title,omitempty"`
}

// SchoolVerdict is what a profile of a school's rules makes of a report (see package rules).
type SchoolVerdict struct {
	Profile   string  `json:"profile"`
	Figure    string  `json:"figure"`  // "similarity" (总文字复制比) or "excluding_quotes" (去除引用)
	Value     float64 `json:"value"`   // that figure, a share as the figures above
	Outcome   string  `json:"outcome"` // "pass", "revise", "fail", or "review" (below the pass limit, with Doubts)
	PassBelow float64 `json:"pass_below"`
	FailFrom  float64 `json:"fail_from"`
	Mismatch  string  `json:"mismatch,omitempty"` // set when the check's settings differ from the profile's (parts, shortest match)
	// Doubts are the kinds of the report's warnings that stand against a pass (rules.Doubts).
	Doubts []extract.WarningKind `json:"doubts,omitempty"`
}

// Warning flags something in the document a reader should know, such as characters used to dodge
// checkers.
type Warning struct {
	Kind    extract.WarningKind `json:"kind"`
	Count   int                 `json:"count"`
	Message string              `json:"message"`
	// Pages (1-based) and Paragraphs (indices into Report.Paragraphs) say where, when known.
	Pages      []int `json:"pages,omitempty"`
	Paragraphs []int `json:"paragraphs,omitempty"`
}

// WriteJSON writes r as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// SaveJSON writes r to path.
func (r *Report) SaveJSON(path string) error { return saveFile(path, r.WriteJSON) }

// saveFile writes what write makes to path, touching the file only once all of it is made: a report
// that fails to render leaves no half-written file behind.
func saveFile(path string, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return fmt.Errorf("report %s: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// Load reads a JSON report.
func Load(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("report %s: not a ThesisCheck JSON report: %w", path, err)
	}
	return &r, nil
}

// Palette gives sources their colours, chosen to stay apart from each other, readable as a
// highlight behind black text, and apart from the grades' green, orange and red: the top source is
// not drawn in the red that means "high similarity".
var Palette = []string{
	"#4363d8", "#911eb4", "#46c0c8", "#f032e6", "#9a6324", "#808000", "#008080", "#000075",
	"#ff69b4", "#708090",
}

// QuoteColor marks copied text inside a proper quotation, the same in the app, the PDF and the
// HTML: quoted text counts in 总文字复制比 but not in 去除引用.
const QuoteColor = "#1b7a4e"

// ColorFor returns the colour of the source ranked i (0-based).
func ColorFor(i int) string { return Palette[i%len(Palette)] }
