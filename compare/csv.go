package compare

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteCSV writes one row per pair of r.Pairs, most similar first, under a header row:
//
//	a, b, a_<info column>…, b_<info column>…, similarity, a_share, b_share, shared_chars, flagged,
//	cluster, a_old, b_old
//
// a and b are the documents' names, shares and similarity fractions (0.4634), flagged and the old
// marks true or false, cluster the 1-based number of the cluster (Result.Clusters) both documents
// are in, empty when they are in none together. The CSV is plain data for a spreadsheet and is not
// signed: the signed JSON holds the same figures. A text cell that a spreadsheet would run as a
// formula (one starting with = + - @) gets a leading apostrophe, as spreadsheets themselves write
// such text: a file name is the student's to choose.
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"a", "b"}
	for _, side := range []string{"a_", "b_"} {
		for _, c := range r.InfoColumns {
			head = append(head, side+c)
		}
	}
	head = append(head, "similarity", "a_share", "b_share", "shared_chars", "flagged", "cluster", "a_old", "b_old")
	if err := cw.Write(cellsOf(head)); err != nil {
		return fmt.Errorf("compare: writing CSV: %w", err)
	}
	cluster := r.ClusterOf()
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	for _, p := range r.Pairs {
		row := []string{r.docName(p.A), r.docName(p.B)}
		for _, d := range []int{p.A, p.B} {
			for _, c := range r.InfoColumns {
				row = append(row, r.Documents[d].Info[c])
			}
		}
		k := ""
		if c := cluster[p.A]; c >= 0 && c == cluster[p.B] {
			k = strconv.Itoa(c + 1)
		}
		row = append(cellsOf(row), num(p.Similarity), num(p.AShare), num(p.BShare), strconv.Itoa(p.SharedChars),
			strconv.FormatBool(p.Flagged), k, strconv.FormatBool(r.Documents[p.A].Old), strconv.FormatBool(r.Documents[p.B].Old))
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("compare: writing CSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("compare: writing CSV: %w", err)
	}
	return nil
}

// SaveCSV writes r's pairs as CSV to path.
func (r *Result) SaveCSV(path string) error { return save(path, r.WriteCSV) }

// docName is document i's name, its file name when it has none.
func (r *Result) docName(i int) string {
	if d := &r.Documents[i]; d.Name != "" {
		return d.Name
	}
	return r.Documents[i].Path
}

// cellsOf defuses text cells a spreadsheet would take for formulas.
func cellsOf(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		if t != "" && strings.ContainsRune("=+-@\t\r", rune(t[0])) {
			t = "'" + t
		}
		out[i] = t
	}
	return out
}
