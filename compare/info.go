package compare

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"thesischeck/extract"
)

// Info is an info file: a row per submission with the student's name, id, submission time or
// whatever else a teacher keeps, as in Dolos's info.csv. Its columns go into every output.
type Info struct {
	Path    string    // the file it was read from, for messages
	Columns []string  // the header of every column but the file's, in the file's order
	Rows    []InfoRow // in the file's order
}

// InfoRow is one row of an info file.
type InfoRow struct {
	Line   int      // line of the file, for messages
	File   string   // the file it names: a file name, or a path below the compared folder
	Values []string // one per Info.Columns
}

// fileColumns are the headers that name the file column (compared ignoring case).
var fileColumns = []string{"file", "filename", "file_name", "path", "文件", "文件名"}

// maxInfoFile bounds an info file: a class list of ten thousand students is under 1 MB.
const maxInfoFile = 16 << 20

// ReadInfo reads an info file: CSV (comma-separated, UTF-8, or GB18030 as Excel writes it on a
// Chinese system) with a header row, one of whose columns is called file, filename or path and names
// the submission; every other column is kept. Errors name the file and the line.
func ReadInfo(path string) (*Info, error) {
	data, err := extract.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("info file: %w", err)
	}
	if len(data) > maxInfoFile {
		return nil, fmt.Errorf("info file %s: larger than %d MB: not a class list", path, maxInfoFile>>20)
	}
	text, _, err := extract.DecodeText(data)
	if err != nil {
		return nil, fmt.Errorf("info file %s: %w", path, err)
	}
	return parseInfo(path, strings.NewReader(strings.TrimPrefix(text, "\ufeff")))
}

func parseInfo(path string, r io.Reader) (*Info, error) {
	cr := csv.NewReader(r)
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("info file %s: empty: it needs a header row with a file column", path)
		}
		return nil, fmt.Errorf("info file %s: %w", path, err)
	}
	info := &Info{Path: path}
	fileCol := -1
	for i, h := range header {
		h = strings.TrimSpace(h)
		for _, name := range fileColumns {
			if fileCol < 0 && strings.EqualFold(h, name) {
				fileCol = i
			}
		}
		if i != fileCol {
			if h == "" {
				return nil, fmt.Errorf("info file %s: line 1: column %d has no name", path, i+1)
			}
			info.Columns = append(info.Columns, h)
		}
	}
	if fileCol < 0 {
		return nil, fmt.Errorf("info file %s: line 1: no column called file, filename or path names the submissions (header: %s)", path, strings.Join(header, ","))
	}
	seen := map[string]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("info file %s: %w", path, err)
		}
		line, _ := cr.FieldPos(0)
		row := InfoRow{Line: line, File: filepath.ToSlash(strings.TrimSpace(rec[fileCol]))}
		if row.File == "" {
			return nil, fmt.Errorf("info file %s: line %d: the file column is empty", path, line)
		}
		if first, ok := seen[row.File]; ok {
			return nil, fmt.Errorf("info file %s: line %d: %s is named on line %d already", path, line, row.File, first)
		}
		seen[row.File] = line
		for i, v := range rec {
			if i != fileCol {
				row.Values = append(row.Values, strings.TrimSpace(v))
			}
		}
		info.Rows = append(info.Rows, row)
	}
	return info, nil
}

// SetInfo gives every document its row of info. A row matches a document whose name (its path below
// the compared folder) is the row's file, or ends with "/" and it: a file name matches wherever the
// file is, a path tells apart files of one name in different folders. It returns the rows that match
// no document (a student who did not submit, or a misspelt name) and fails, changing nothing, when a
// row matches more than one document or a document more than one row.
func (r *Result) SetInfo(info *Info) (unmatched []InfoRow, err error) {
	byDoc := make([]int, len(r.Documents))
	for i := range byDoc {
		byDoc[i] = -1
	}
	for k, row := range info.Rows {
		var hits []int
		for i := range r.Documents {
			if name := r.Documents[i].Name; name == row.File || strings.HasSuffix(name, "/"+row.File) {
				hits = append(hits, i)
			}
		}
		switch {
		case len(hits) == 0:
			unmatched = append(unmatched, row)
		case len(hits) > 1:
			var names []string
			for _, i := range hits {
				names = append(names, r.Documents[i].Name)
			}
			return nil, fmt.Errorf("info file %s: line %d: %s names %d submissions (%s): write its path", info.Path, row.Line, row.File, len(hits), strings.Join(names, ", "))
		case byDoc[hits[0]] >= 0:
			return nil, fmt.Errorf("info file %s: lines %d and %d both name %s", info.Path, info.Rows[byDoc[hits[0]]].Line, row.Line, r.Documents[hits[0]].Name)
		default:
			byDoc[hits[0]] = k
		}
	}
	r.InfoColumns = append([]string(nil), info.Columns...)
	for i := range r.Documents {
		r.Documents[i].Info = nil
		if k := byDoc[i]; k >= 0 {
			m := make(map[string]string, len(info.Columns))
			for c, col := range info.Columns {
				m[col] = info.Rows[k].Values[c]
			}
			r.Documents[i].Info = m
		}
	}
	return unmatched, nil
}

// Label is how document i is named to people: the first info column (the student's name, by custom)
// with the document's name, or the name alone. Outputs mark an earlier year's submission (Old) their
// own way.
func (r *Result) Label(i int) string {
	if i < 0 || i >= len(r.Documents) {
		return fmt.Sprintf("document %d", i+1)
	}
	d := &r.Documents[i]
	name := r.docName(i)
	if len(r.InfoColumns) > 0 {
		if who := d.Info[r.InfoColumns[0]]; who != "" {
			name = who + " · " + name
		}
	}
	return name
}
