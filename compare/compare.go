// Package compare finds who copied from whom among a class's submissions. Every pair of documents is
// considered, but only a few are aligned:
//
//	files → paragraphs (extract) → words (similarity) → text most of the class shares (left out) →
//	candidate pairs (MinHash LSH, plus shared winnowed word bigrams) → shared spans (alignment) → figures
//
// A class of n documents has n(n−1)/2 pairs; aligning each would cost minutes for 200 documents, so
// the cheap fingerprints pick the pairs worth aligning and the alignment decides. Documents are read
// and aligned on all cores; once read, a document is never modified, so the alignment workers share
// them without locks.
package compare

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"thesischeck/library"
)

// DefaultThreshold is the similarity at or above which a pair is flagged: a sixth of the smaller
// document shared is far above what two independent essays on one topic share (a few percent at
// most, in set phrases), and well below the 30–60 % of a typical copy.
const DefaultThreshold = 0.15

// Stages of a comparison, in order, as passed to the progress function.
const (
	StageRead       = "read"       // extract and segment each file; done/total are files
	StageCandidates = "candidates" // common text and candidate pairs; done/total are documents
	StageAlign      = "align"      // align candidate pairs; done/total are pairs
)

// Options tune a comparison. A nil *Options means the defaults; every zero value means its default.
type Options struct {
	// Threshold is the similarity at or above which a pair is flagged; 0 means DefaultThreshold.
	Threshold float64
	// CommonShare is the share of the readable documents (at least 3 of them) that must hold a passage
	// for it to count as shared by the class — the assignment prompt, a template, a quotation everyone
	// uses — and be left out of every figure; 0 means one half.
	CommonShare float64
	// MinRunChars is the shortest shared run that counts; 0 means 13 characters, as in check.
	MinRunChars int
	// Library, when not nil, supplies its template documents (added with --template): their text is
	// left out like common text. Run only reads the library.
	Library *library.Library
	// IncludeReferences also compares reference lists, headings and front matter (title pages,
	// declarations), which are left out by default: students citing the same books or signing the
	// same declaration is not copying.
	IncludeReferences bool
}

// Progress is called as a comparison moves through its stages (StageRead, …): done of total units.
// It is called from the goroutine that called Run, never concurrently.
type Progress func(stage string, done, total int)

// Result is the outcome of a comparison. Its JSON form is
//
//	{"documents": [...], "pairs": [{"a", "b", "similarity", "jaccard", "shared_chars", "flagged"}], ...}
//
// where a and b index documents.
type Result struct {
	Created   time.Time `json:"created"`
	Threshold float64   `json:"threshold"` // the flag threshold used
	// CommonDocuments is how many documents had to hold a passage for it to count as common.
	CommonDocuments int        `json:"common_documents"`
	Documents       []Document `json:"documents"`
	// Pairs are the pairs that share any text, most similar first; every other pair shares none.
	Pairs []Pair `json:"pairs"`
	// Common is the text left out because most of the class (or a library template) has it.
	Common []Common `json:"common"`
	// Certificate and Signature are set when the result is signed as a report is
	// (report.SignComparison): the signer's X.509 certificate, base64 DER, and its signature over
	// the JSON form without "signature".
	Certificate string `json:"certificate,omitempty"`
	Signature   string `json:"signature,omitempty"`
}

// Document is one submission.
type Document struct {
	Path  string `json:"path"`
	Title string `json:"title"`
	Chars int    `json:"chars"` // characters of its text
	// ComparedChars are the characters compared: Chars less references, headings and title page (unless
	// Options.IncludeReferences) and less common text. Similarity is a share of these.
	ComparedChars int `json:"compared_chars"`
	CommonChars   int `json:"common_chars"` // characters of common text left out
	// Error says why the file could not be read ("" when it was); such a document is in no pair.
	Error string `json:"error,omitempty"`
	// Paragraphs is the text, for a side-by-side view. Passage spans index it.
	Paragraphs []Paragraph `json:"-"`
}

// Paragraph is one paragraph of a document.
type Paragraph struct {
	Text     string
	Compared bool     // false for references, headings and front matter (see Options.IncludeReferences)
	Common   [][2]int // rune spans [start, end) of common text, left out of every figure
}

// Pair is two documents that share text.
type Pair struct {
	A int `json:"a"` // index into Result.Documents; A < B
	B int `json:"b"`
	// Similarity is the share of the smaller document's compared characters found in the other one.
	Similarity float64 `json:"similarity"`
	// Jaccard is the MinHash estimate of the Jaccard similarity of the two documents' word 3-grams.
	Jaccard float64 `json:"jaccard"`
	// SharedChars are the characters of the smaller document (by compared characters) that are shared.
	SharedChars int  `json:"shared_chars"`
	Flagged     bool `json:"flagged"` // Similarity ≥ Result.Threshold
	// Passages are the shared stretches of text, in the order they stand in A.
	Passages []Passage `json:"-"`
}

// Passage is one stretch of text found in both documents of a pair. A passage is usually one span on
// each side; it has more when it runs over a paragraph break. Common text is cut out of the spans.
type Passage struct {
	A, B []Span
}

// Span is a run of a paragraph's characters: rune offsets [Start, End) into Document.Paragraphs[Para].Text.
type Span struct {
	Para, Start, End int
}

// Common is a passage left out of the comparison because most of the class shares it.
type Common struct {
	Text      string `json:"text"`      // as it stands in the first document that has it
	Documents int    `json:"documents"` // documents that hold it
	// Template is the title of the library template document it comes from, "" for text the class
	// shares.
	Template string `json:"template,omitempty"`
}

// Run compares the documents at paths (files, and folders searched recursively for PDF, DOCX and TXT
// files). A file that cannot be read is listed with its error and the others are still compared; Run
// itself fails only when it cannot compare at all (the segmenter does not load, the context is
// cancelled). progress may be nil.
//
// Cost: reading and segmenting dominate (about 35 ms of CPU per 20,000 characters, on all cores),
// finding common text and candidate pairs is linear in the text, and alignment runs only for
// candidate pairs: 200 submissions of 20,000 characters take about 10 s of CPU (BenchmarkClass200).
func Run(ctx context.Context, paths []string, opts *Options, progress Progress) (*Result, error) {
	return run(ctx, paths, opts.withDefaults(), progress)
}

// Flagged returns the flagged pairs, most similar first.
func (r *Result) Flagged() []Pair { return r.pairs(true) }

// Unflagged returns the pairs that share text but stay under the threshold, most similar first.
func (r *Result) Unflagged() []Pair { return r.pairs(false) }

func (r *Result) pairs(flagged bool) []Pair {
	var out []Pair
	for _, p := range r.Pairs {
		if p.Flagged == flagged {
			out = append(out, p)
		}
	}
	return out
}

// Failed returns the indexes of the documents that could not be read.
func (r *Result) Failed() []int {
	var out []int
	for i, d := range r.Documents {
		if d.Error != "" {
			out = append(out, i)
		}
	}
	return out
}

// Matrix returns the similarity of every pair as an n×n symmetric matrix (1 on the diagonal of a
// readable document, 0 for pairs that share nothing).
func (r *Result) Matrix() [][]float64 {
	n := len(r.Documents)
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		if r.Documents[i].Error == "" {
			m[i][i] = 1
		}
	}
	for _, p := range r.Pairs {
		m[p.A][p.B], m[p.B][p.A] = p.Similarity, p.Similarity
	}
	return m
}

// Order returns the documents' indexes in an order that puts documents sharing text next to each
// other, so that clusters stand out in a matrix: pairs are joined most similar first (single
// linkage), each join placing one group after the other; documents that share nothing come last, in
// their original order.
func (r *Result) Order() []int {
	n := len(r.Documents)
	group := make([]int, n) // group id of each document
	members := make([][]int, n)
	for i := range group {
		group[i] = i
		members[i] = []int{i}
	}
	pairs := append([]Pair(nil), r.Pairs...)
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Similarity > pairs[j].Similarity })
	for _, p := range pairs {
		ga, gb := group[p.A], group[p.B]
		if ga == gb {
			continue
		}
		if len(members[ga]) < len(members[gb]) {
			ga, gb = gb, ga
		}
		for _, d := range members[gb] {
			group[d] = ga
		}
		members[ga] = append(members[ga], members[gb]...)
		members[gb] = nil
	}
	var out, alone []int
	seen := make([]bool, n)
	for i := 0; i < n; i++ {
		g := group[i]
		if seen[g] {
			continue
		}
		seen[g] = true
		if len(members[g]) == 1 {
			alone = append(alone, members[g]...)
			continue
		}
		out = append(out, members[g]...)
	}
	return append(out, alone...)
}

// WriteJSON writes r as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("compare: writing JSON: %w", err)
	}
	return nil
}

// SaveJSON writes r as JSON to path.
func (r *Result) SaveJSON(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if err := r.WriteJSON(f); err != nil {
		f.Close()
		return fmt.Errorf("compare %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("compare %s: %w", path, err)
	}
	return nil
}
