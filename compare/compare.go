// Package compare finds who copied from whom among a class's submissions. Every pair of documents is
// considered, but only a few are aligned:
//
//	files → paragraphs (extract) → words (similarity) → text most of the class shares (left out) →
//	candidate pairs (MinHash LSH, plus shared winnowed runs of four words) → shared spans (alignment) →
//	figures, fragments and clusters
//
// A class of n documents has n(n−1)/2 pairs; aligning each would cost minutes for 200 documents, so
// the cheap fingerprints pick the pairs worth aligning and the alignment decides. Documents are read
// and aligned on all cores; once read, a document is never modified, so the alignment workers share
// them without locks.
package compare

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"thesischeck/extract"
	"thesischeck/internal/english"
	"thesischeck/library"
)

// DefaultThreshold is the similarity at or above which a pair is flagged: a sixth of the smaller
// document shared is far above what two independent essays on one topic share (a few percent at
// most, in set phrases), and well below the 30–60 % of a typical copy.
const DefaultThreshold = 0.15

// Stage names a step of a comparison, for progress display.
type Stage string

// Stages of a comparison, in order, as passed to the progress function.
const (
	StageRead       Stage = "read"       // extract and segment each file; done/total are files
	StageCandidates Stage = "candidates" // common text and candidate pairs; done/total are documents
	StageAlign      Stage = "align"      // align candidate pairs; done/total are pairs
)

// Options tune a comparison. A nil *Options means the defaults; every zero value means its default.
type Options struct {
	// Threshold is the similarity at or above which a pair is flagged; 0 means DefaultThreshold.
	Threshold float64
	// CommonShare is the share of the readable new documents (at least 5 of them, or all in a
	// smaller class) that must hold a passage for it to count as shared by the class — the
	// assignment prompt, a template, a quotation everyone uses — and be left out of every figure; 0
	// means one half.
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
	// Old are earlier years' submissions (files, folders, or library folders, whose documents are
	// read from the library): every new document is compared with them, old ones never with each
	// other. A file that is also among the new ones is new.
	Old []string
	// OldLibrary, when not nil, adds the documents of an open library (not its templates) to the old
	// ones, as a library folder in Old does; for the app, which has its library open already.
	OldLibrary *library.Library
}

// Progress is called as a comparison moves through its stages (StageRead, …): done of total units.
// It is called from the goroutine that called Run, never concurrently.
type Progress func(stage Stage, done, total int)

// Result is the outcome of a comparison. Its JSON form is
//
//	{"documents": [{"name", …, "paragraphs": [{"text", "left_out", "common"}]}],
//	 "pairs": [{"a", "b", "similarity", "a_share", "b_share", "jaccard", "shared_chars", "flagged",
//	            "fragments": [{"a_para", "a_span", "b_para", "b_span"}]}],
//	 "clusters": [[a, b, …]], "common": [...], ...}
//
// where a and b index documents, a_para and b_para index their paragraphs, and spans are rune
// offsets [start, end) into a paragraph's text.
type Result struct {
	Created   time.Time `json:"created"`
	Threshold float64   `json:"threshold"` // the flag threshold used
	// CommonDocuments is how many documents had to hold a passage for it to count as common.
	CommonDocuments int `json:"common_documents"`
	// InfoColumns name the columns of the documents' Info, in the order of the info file.
	InfoColumns []string   `json:"info_columns,omitempty"`
	Documents   []Document `json:"documents"`
	// Pairs are the pairs that share any text, most similar first; every other pair shares none.
	// A pair of two old documents is never compared.
	Pairs []Pair `json:"pairs"`
	// Clusters are the groups of documents joined by flagged pairs, largest first: a ring of
	// students sharing one source is one group.
	Clusters [][]int `json:"clusters"`
	// Common is the text left out because most of the class (or a library template) has it.
	Common []Common `json:"common"`
	// TextOmitted marks a copy without the documents' paragraphs (WithoutText): the one a PDF
	// comparison carries, which shows the fragments' text on its pages.
	TextOmitted bool `json:"text_omitted,omitempty"`
	// Certificate and Signature are set when the result is signed as a report is
	// (report.SignComparison): the signer's X.509 certificate, base64 DER, and its signature over
	// the JSON form without "signature".
	Certificate string `json:"certificate,omitempty"`
	Signature   string `json:"signature,omitempty"`
}

// Document is one submission.
type Document struct {
	Path string `json:"path"`
	// Name is how the document is named to people: its path below the folder it was found in (a
	// class exported from a learning platform has a folder per student, every file called
	// essay.docx), or its file name when it was given itself.
	Name  string `json:"name"`
	Title string `json:"title"`
	// Old marks an earlier year's submission (Options.Old): compared with the new ones only.
	Old   bool `json:"old,omitempty"`
	Chars int  `json:"chars"` // characters of its text
	// ComparedChars are the characters compared: Chars less references, headings and title page (unless
	// Options.IncludeReferences) and less common text. Similarity is a share of these.
	ComparedChars int `json:"compared_chars"`
	CommonChars   int `json:"common_chars"` // characters of common text left out
	// Error says why the file could not be read ("" when it was); such a document is in no pair.
	Error string `json:"error,omitempty"`
	err   error  // Error as the reader returned it, for Err
	// Skipped says why a file was not compared although it could be read: a report ThesisCheck
	// wrote is not a submission.
	Skipped string `json:"skipped,omitempty"`
	// Info holds the document's row of the info file (SetInfo): student name, id, submission time.
	Info map[string]string `json:"info,omitempty"`
	// Warnings tell what reading the file changed or left out (hidden text, bytes not valid in its
	// encoding, …) and the tricks to dodge checkers its text carries (invisible characters,
	// look-alike letters, …), as a check's report does; a comparison does not look at pictures.
	Warnings []extract.Warning `json:"warnings,omitempty"`
	// Paragraphs is the text, as extract reads it. Fragments index it.
	Paragraphs []Paragraph `json:"paragraphs"`
}

// Paragraph is one paragraph of a document.
type Paragraph struct {
	Text string `json:"text"`
	// LeftOut marks references, headings and front matter (title pages, declarations), which are not compared (see
	// Options.IncludeReferences). Said only when true: most paragraphs are compared, and a
	// thousand submissions have a quarter of a million paragraphs to sign.
	LeftOut bool `json:"left_out,omitempty"`
	// Common are rune spans [start, end) of common text, left out of every figure.
	Common [][2]int `json:"common,omitempty"`
}

// Pair is two documents that share text.
type Pair struct {
	A int `json:"a"` // index into Result.Documents; A < B
	B int `json:"b"`
	// Similarity is the share of the smaller document's compared characters found in the other one:
	// the larger of AShare and BShare when the two documents differ in length.
	Similarity float64 `json:"similarity"`
	// AShare is the share of A's compared characters found in B, BShare that of B found in A. They
	// differ when one copied part of the other: a short essay made of a third of a long one has
	// BShare near 1 and AShare near a third.
	AShare float64 `json:"a_share"`
	BShare float64 `json:"b_share"`
	// Jaccard is the MinHash estimate of the Jaccard similarity of the two documents' word 3-grams.
	Jaccard float64 `json:"jaccard"`
	// SharedChars are the characters of the smaller document (by compared characters) that are shared.
	SharedChars int  `json:"shared_chars"`
	Flagged     bool `json:"flagged"` // Similarity ≥ Result.Threshold
	// Fragments are every shared stretch of text, one paragraph on each side, in the order they
	// stand in A.
	Fragments []Fragment `json:"fragments"`
	// swaps are the characters one document stands in for the other's (pairSwaps), for the
	// swapped warning of its document; kept the spans where each has the other's as they are.
	swaps []docSwap
	kept  []docSpan
}

// Fragment is a stretch of text found in both documents of a pair: rune spans [start, end) of one
// paragraph of A and one of B. Common text is not part of any fragment.
type Fragment struct {
	APara int    `json:"a_para"`
	ASpan [2]int `json:"a_span"`
	BPara int    `json:"b_para"`
	BSpan [2]int `json:"b_span"`
}

// Common is a passage left out of the comparison because most of the class shares it.
type Common struct {
	Text      string `json:"text"`      // as it stands in the first document that has it
	Documents int    `json:"documents"` // new documents that hold it
	// Template is the title of the library template document it comes from, "" for text the class
	// shares.
	Template string `json:"template,omitempty"`
}

// Run compares the documents at paths (files, and folders searched recursively for PDF, DOCX and TXT
// files) with each other and with Options.Old. A file that cannot be read is listed with its error,
// a report ThesisCheck wrote is listed as skipped, and the others are still compared; Run itself
// fails only when it cannot compare at all (the segmenter or an old library does not load, the
// context is cancelled). progress may be nil.
//
// Cost: reading and segmenting dominate (jieba's Cut took 6.9 s of CPU for the 24.7 million
// characters of a thousand twenty-page Chinese submissions, on all cores), finding common text and
// candidate pairs is linear in the text (1.6 s there), and alignment runs only for candidate pairs
// (145 of 499,500 there, 0.05 s).
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

// WithoutText returns a copy of r whose documents have no paragraphs (TextOmitted), unsigned: a
// thousand twenty-page submissions are 70 MB of text, which a PDF need not carry twice.
func (r *Result) WithoutText() *Result {
	c := *r
	c.Documents = make([]Document, len(r.Documents))
	for i, d := range r.Documents {
		d.Paragraphs = []Paragraph{}
		c.Documents[i] = d
	}
	c.TextOmitted, c.Certificate, c.Signature = true, "", ""
	return &c
}

// Failed returns the indexes of the documents that could not be read.
func (r *Result) Failed() []int { return r.docs(func(d *Document) bool { return d.Error != "" }) }

// Skipped returns the indexes of the files not compared although they could be read (reports
// ThesisCheck wrote).
func (r *Result) Skipped() []int { return r.docs(func(d *Document) bool { return d.Skipped != "" }) }

// Err is why the document could not be read, as an error whose kind can be told (errors.Is with
// extract's errors), or nil. A comparison read back from JSON has only the message.
func (d *Document) Err() error {
	switch {
	case d.err != nil:
		return d.err
	case d.Error != "":
		return errors.New(d.Error)
	}
	return nil
}

// Warned returns the indexes of the documents that carry warnings.
func (r *Result) Warned() []int { return r.docs(func(d *Document) bool { return len(d.Warnings) > 0 }) }

// Compared returns how many new and old documents were compared.
func (r *Result) Compared() (newDocs, oldDocs int) {
	for i := range r.Documents {
		switch d := &r.Documents[i]; {
		case d.Error != "" || d.Skipped != "":
		case d.Old:
			oldDocs++
		default:
			newDocs++
		}
	}
	return newDocs, oldDocs
}

// PairsCompared is the number of pairs a comparison considers: new with new, and new with old.
func (r *Result) PairsCompared() int {
	n, o := r.Compared()
	return n*(n-1)/2 + n*o
}

// ErrNothingCompared means a comparison had no pair to compare: fewer than two submissions could be
// read, and no earlier year's beside one. Its "0 flagged" would read as a class that copied nothing.
var ErrNothingCompared = errors.New("nothing compared")

// NothingCompared returns an error wrapping ErrNothingCompared when the comparison considered no
// pair (PairsCompared is 0), saying how many submissions it could read.
func (r *Result) NothingCompared() error {
	if r.PairsCompared() > 0 {
		return nil
	}
	if len(r.Documents) == 0 {
		return fmt.Errorf("%w: no PDF, DOCX or TXT file found", ErrNothingCompared)
	}
	n, _ := r.Compared()
	return fmt.Errorf("%w: %s could be read; a comparison needs two, or one and an earlier year's",
		ErrNothingCompared, english.Count(n, "submission", "submissions"))
}

func (r *Result) docs(keep func(*Document) bool) []int {
	var out []int
	for i := range r.Documents {
		if keep(&r.Documents[i]) {
			out = append(out, i)
		}
	}
	return out
}

// SetThreshold flags the pairs at or above t and groups the documents again (Clusters). Pairs
// far below the threshold the comparison ran with may be missing: candidate pairs are chosen for
// it (see Run); a quarter of it is safe.
func (r *Result) SetThreshold(t float64) {
	r.Threshold = t
	for i := range r.Pairs {
		r.Pairs[i].Flagged = r.Pairs[i].Similarity >= t
	}
	r.Clusters = clusters(len(r.Documents), r.Pairs)
}

// clusters joins the documents of flagged pairs into groups: each group's documents in index order,
// the groups largest first, then by their first document.
func clusters(n int, pairs []Pair) [][]int {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, p := range pairs {
		if p.Flagged {
			if a, b := find(p.A), find(p.B); a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	groups := map[int][]int{}
	for i := range parent {
		root := find(i)
		groups[root] = append(groups[root], i)
	}
	out := [][]int{}
	for _, g := range groups {
		if len(g) > 1 {
			out = append(out, g)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return out[i][0] < out[j][0]
	})
	return out
}

// ClusterOf returns, for every document, the index of its cluster in Clusters, or -1.
func (r *Result) ClusterOf() []int {
	out := make([]int, len(r.Documents))
	for i := range out {
		out[i] = -1
	}
	for k, c := range r.Clusters {
		for _, d := range c {
			out[d] = k
		}
	}
	return out
}

// PairLookup returns a function that finds the pair of two documents, given in either order; nil
// when they share no text.
func (r *Result) PairLookup() func(a, b int) *Pair {
	idx := make(map[[2]int]int, len(r.Pairs))
	for i, p := range r.Pairs {
		idx[[2]int{p.A, p.B}] = i
	}
	return func(a, b int) *Pair {
		if a > b {
			a, b = b, a
		}
		if i, ok := idx[[2]int{a, b}]; ok {
			return &r.Pairs[i]
		}
		return nil
	}
}

// Order returns the documents' indexes in an order that puts documents sharing text next to each
// other, so that clusters stand out in a matrix: pairs are joined most similar first (single
// linkage), each join placing one group after the other, so that flagged pairs, the most similar,
// form each cluster before anything joins it and its documents stand together; documents that
// share nothing come last, in their original order.
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
func (r *Result) SaveJSON(path string) error { return save(path, r.WriteJSON) }

// save writes a file with write, errors naming it.
func save(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("compare %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("compare %s: %w", path, err)
	}
	return nil
}

// FolderHolding returns the folder among roots (the paths a comparison reads, new and old) that
// path lies in, or "" when it lies in none: an export saved there would be read as a submission by
// the next comparison of that folder. Symbolic links are followed where they exist; a root that is
// a file or a library folder holds nothing.
func FolderHolding(path string, roots []string) string {
	resolve := func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return filepath.Clean(p)
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			return real
		}
		// The file itself need not exist yet: resolve its folder.
		if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			return filepath.Join(dir, filepath.Base(abs))
		}
		return abs
	}
	target := resolve(path)
	for _, root := range roots {
		st, err := os.Stat(root)
		if err != nil || !st.IsDir() || isLibrary(root) {
			continue
		}
		r := resolve(root)
		if rel, err := filepath.Rel(r, target); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel) {
			return root
		}
	}
	return ""
}
