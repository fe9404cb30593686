package extract

// What lies under the text of a table cell whose table style shades it: a style shades all its
// cells (its w:tcPr), or some rows and columns by its conditional formats (w:tblStylePr: the
// header row, banded rows …), as the table's w:tblLook turns them on. A cell of such a table was
// taken to be on a colour not known, so white text in a table styled with white cells, or in the
// unshaded rows of a table whose header row is shaded, read as shown: 3,400 characters of white
// junk so set read zh-thesis S002 (25.9 %) as 12.6 %, with no warning.

import (
	"bytes"
	"encoding/xml"
	"strconv"
)

// tableLook is a table's w:tblLook: which of its style's conditional formats apply.
type tableLook struct {
	firstRow, lastRow, firstCol, lastCol, noHBand, noVBand bool
}

// wordLook is Word's tblLook for a new table (04A0): header row, first column, banded rows.
var wordLook = tableLook{firstRow: true, firstCol: true, noVBand: true}

// readLook reads a w:tblLook: its attributes, else its hex mask (w:val, Word 2007's).
func readLook(t xml.StartElement) tableLook {
	var l tableLook
	if v, err := strconv.ParseUint(attr(t, "val"), 16, 16); err == nil {
		l = tableLook{firstRow: v&0x20 != 0, lastRow: v&0x40 != 0, firstCol: v&0x80 != 0, lastCol: v&0x100 != 0,
			noHBand: v&0x200 != 0, noVBand: v&0x400 != 0}
	}
	for _, f := range []struct {
		name string
		v    *bool
	}{{"firstRow", &l.firstRow}, {"lastRow", &l.lastRow}, {"firstColumn", &l.firstCol}, {"lastColumn", &l.lastCol},
		{"noHBand", &l.noHBand}, {"noVBand", &l.noVBand}} {
		for _, a := range t.Attr {
			if a.Name.Local == f.name {
				*f.v = a.Value == "1" || a.Value == "true" || a.Value == "on"
			}
		}
	}
	return l
}

// tableStyle is a table style's shading and the sizes of its bands (rows, columns) along its
// basedOn chain, the nearest style's winning.
func (ss styleSheet) tableStyle(id string) (cell docxColor, conds map[string]docxColor, bands [2]int) {
	var chain []*docxStyle
	for i := 0; i < 16 && id != "" && ss[id] != nil; i++ {
		chain = append(chain, ss[id])
		id = ss[id].basedOn
	}
	conds = map[string]docxColor{}
	for i := len(chain) - 1; i >= 0; i-- {
		if c := chain[i].cellShd; c.set {
			cell = c
		}
		for k, c := range chain[i].conds {
			conds[k] = c
		}
		for k, n := range chain[i].bands {
			if n > 0 {
				bands[k] = n
			}
		}
	}
	return cell, conds, bands
}

// cellShading is the shading under the text of the cell being opened in table tb, without the
// cell's own: its style's for the cell's place (row tb.row, column tb.col) over the table's own,
// or a colour not known where the place is (a last row or column, when the table's rows were not
// counted).
func (tb *docxTable) cellShading() docxColor {
	c := tb.shd
	over := func(s docxColor) {
		if s.set && !s.none {
			c = s
		}
	}
	over(tb.cellShd)
	over(tb.conds["wholeTable"])
	rows, cols := -1, -1
	if tb.rows != nil {
		rows = len(tb.rows)
		if tb.row >= 0 && tb.row < rows { // a cell outside any row is in no counted row
			cols = tb.rows[tb.row]
		}
	}
	l := tb.look
	first, firstCol := l.firstRow && tb.row == 0, l.firstCol && tb.col == 0
	last, lastCol := l.lastRow && tb.row == rows-1, l.lastCol && tb.col == cols-1
	if rows < 0 && l.lastRow && tb.shades("lastRow", "swCell", "seCell") || cols < 0 && l.lastCol && tb.shades("lastCol", "neCell", "seCell") {
		return docxColor{set: true}
	}
	if !l.noVBand && !firstCol && !lastCol {
		over(tb.conds[band("Vert", tb.col, l.firstCol, tb.bands[1])])
	}
	if !l.noHBand && !first && !last {
		over(tb.conds[band("Horz", tb.row, l.firstRow, tb.bands[0])])
	}
	for _, f := range []struct {
		kind string
		on   bool
	}{{"firstCol", firstCol}, {"lastCol", lastCol}, {"firstRow", first}, {"lastRow", last},
		{"nwCell", first && firstCol}, {"neCell", first && lastCol}, {"swCell", last && firstCol}, {"seCell", last && lastCol}} {
		if f.on {
			over(tb.conds[f.kind])
		}
	}
	return c
}

// shades reports whether the table's style shades the cells of any of the formats kinds.
func (tb *docxTable) shades(kinds ...string) bool {
	for _, k := range kinds {
		if c := tb.conds[k]; c.set && !c.none {
			return true
		}
	}
	return false
}

// lastShaded reports whether the table's style shades a last row or column, which are known only
// once its rows are counted (tableRows).
func (tb *docxTable) lastShaded() bool {
	return tb.shades("lastRow", "lastCol", "neCell", "swCell", "seCell")
}

// bandIndex is where tblStyleRowBandSize (0) or tblStyleColBandSize (1) is kept.
func bandIndex(local string) int {
	if local == "tblStyleColBandSize" {
		return 1
	}
	return 0
}

// band names the banded format of the i-th row or column (dir "Horz" or "Vert"), counted after the
// header one when that has its own format, in bands of size rows or columns (0: one).
func band(dir string, i int, header bool, size int) string {
	if header {
		i--
	}
	if i/max(size, 1)%2 == 0 {
		return "band1" + dir
	}
	return "band2" + dir
}

// tableRows counts the rows of a part's tables (xmlBytes) and the cells of each row, by where
// their w:tbl start tags end (the decoder's offset after them): a style's last row and last column
// are known only at a table's end, after the walk has read its text. Tables in tables are counted
// apart; a prefix other than w: is not scanned (no table is then counted).
func tableRows(b []byte) map[int64][]int {
	out := map[int64][]int{}
	type open struct {
		at   int64
		rows []int
	}
	var stack []open
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], '<')
		if k < 0 {
			return out
		}
		i += k + 1
		closing := i < len(b) && b[i] == '/'
		j := i
		if closing {
			j++
		}
		name := tagName(b[j:])
		switch {
		case name == "w:tbl" && !closing:
			end := bytes.IndexByte(b[i:], '>')
			if end < 0 {
				return out
			}
			if b[i+end-1] != '/' {
				stack = append(stack, open{at: int64(i + end + 1)})
			}
		case name == "w:tbl" && closing && len(stack) > 0:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			out[top.at] = top.rows
		case name == "w:tr" && !closing && len(stack) > 0:
			stack[len(stack)-1].rows = append(stack[len(stack)-1].rows, 0)
		case name == "w:tc" && !closing && len(stack) > 0:
			if rs := stack[len(stack)-1].rows; len(rs) > 0 {
				rs[len(rs)-1]++
			}
		}
	}
}

// tagName is the name a tag's bytes start with, up to a space, '/' or '>'.
func tagName(b []byte) string {
	n := bytes.IndexAny(b, " \t\r\n/>")
	if n < 0 || n > 16 {
		return ""
	}
	return string(b[:n])
}
