package extract

import (
	"encoding/xml"
	"regexp"
	"strconv"
	"strings"
)

type docxStyle struct {
	name     string // lower case
	basedOn  string
	outline  int // outline level 0–8, -1 when unset, 9 body text
	numID    string
	numLevel int
	rpr      runProps  // the run properties it sets (docx_hidden.go)
	pshd     docxColor // the paragraph shading it sets
	// lineExact is the exact line height it sets, points (0: none; lineExactSet: given, even as
	// not exact, so that a nearer style's "auto" overrides a further one's exact).
	lineExact    float64
	lineExactSet bool
	ind          indent // the paragraph indents it sets
	// A table style's shading: cellShd, that of every cell (its w:tcPr, else its w:tblPr), and
	// conds, that of the cells its conditional formats (w:tblStylePr: firstRow, band1Horz …) apply
	// to (docxTable.cellShading).
	cellShd docxColor
	conds   map[string]docxColor
	bands   [2]int // the rows and the columns of its bands (0: one)
}

type styleSheet map[string]*docxStyle

var (
	headingName = regexp.MustCompile(`^(heading|标题)\s*([1-9])$`)
	tocName     = regexp.MustCompile(`^(toc|contents|目录|index|索引)\s*[1-9]$|^table of figures$|^图表目录$`)
)

func parseStyles(raw []byte) styleSheet {
	ss := styleSheet{}
	if len(raw) == 0 {
		return ss
	}
	d := newXMLDecoder(raw)
	var cur *docxStyle
	depthPPr, depthRPr := 0, 0
	for {
		tok, err := d.Token()
		if err != nil {
			return ss
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Space == nsW14 && depthRPr > 0 && depthPPr == 0 && cur != nil {
				applyEffect(&cur.rpr, d, t)
				continue
			}
			if !isW(t.Name) {
				continue
			}
			if depthRPr > 0 && depthPPr == 0 && cur != nil && cur.rpr.apply(t) {
				continue // a run property of the style (or of the document defaults)
			}
			switch t.Name.Local {
			case "rPrDefault":
				cur = &docxStyle{outline: -1}
				ss[docDefaultsKey] = cur
			case "style":
				cur = &docxStyle{outline: -1, numLevel: 0}
				ss[attr(t, "styleId")] = cur
			case "rPr":
				depthRPr++
			case "shd":
				switch {
				case cur == nil || depthRPr > 0:
				case depthPPr > 0:
					cur.pshd = shading(t)
				default: // in a table style's w:tblPr or w:tcPr (which comes after it)
					cur.cellShd = shading(t)
				}
			case "tblStylePr":
				// A table style's formatting of some rows or cells, not of the style's own text;
				// only their shading is kept.
				if cur != nil {
					kind := attr(t, "type")
					if c := tableStyleShading(d); c.set {
						if cur.conds == nil {
							cur.conds = map[string]docxColor{}
						}
						cur.conds[kind] = c
					}
				}
			case "name":
				if cur != nil {
					cur.name = strings.ToLower(strings.TrimSpace(attr(t, "val")))
				}
			case "basedOn":
				if cur != nil {
					cur.basedOn = attr(t, "val")
				}
			case "tblStyleRowBandSize", "tblStyleColBandSize":
				// How many rows or columns a band of a table style takes.
				if n, err := strconv.Atoi(attr(t, "val")); cur != nil && err == nil && n > 0 {
					cur.bands[bandIndex(t.Name.Local)] = n
				}
			case "pPr":
				depthPPr++
			case "spacing":
				if cur != nil && depthPPr > 0 && attr(t, "line") != "" {
					cur.lineExact, cur.lineExactSet = exactLine(t), true
				}
			case "ind":
				if cur != nil && depthPPr > 0 {
					cur.ind.read(t)
				}
			case "outlineLvl":
				if cur != nil && depthPPr > 0 {
					if n, err := strconv.Atoi(attr(t, "val")); err == nil {
						cur.outline = n
					}
				}
			case "numId":
				if cur != nil && depthPPr > 0 {
					cur.numID = attr(t, "val")
				}
			case "ilvl":
				if cur != nil && depthPPr > 0 {
					cur.numLevel, _ = strconv.Atoi(attr(t, "val"))
				}
			case "pPrChange", "rPrChange":
				_ = d.Skip()
			}
		case xml.EndElement:
			if !isW(t.Name) {
				continue
			}
			switch t.Name.Local {
			case "style", "rPrDefault":
				cur = nil
			case "pPr":
				depthPPr--
			case "rPr":
				depthRPr--
			}
		}
	}
}

// exactLine reads w:spacing's line height when its rule is exact, in points (0 otherwise).
func exactLine(t xml.StartElement) float64 {
	v, err := strconv.Atoi(attr(t, "line"))
	if attr(t, "lineRule") != "exact" || err != nil || v < 0 {
		return 0
	}
	return max(float64(v)/20, 0.001)
}

// resolve follows basedOn to find the inherited value; f returns ok when the style sets it.
func (ss styleSheet) resolve(id string, f func(*docxStyle) bool) *docxStyle {
	for i := 0; i < 16 && id != ""; i++ { // a loop of basedOn is a broken file, not a hang
		s := ss[id]
		if s == nil {
			return nil
		}
		if f(s) {
			return s
		}
		id = s.basedOn
	}
	return nil
}

// headingLevel returns the outline level a paragraph style gives (0 = chapter), -1 for none, and
// whether the style is a title.
func (ss styleSheet) headingLevel(id string) (level int, title bool) {
	s := ss[id]
	if s == nil {
		return -1, false
	}
	if s.name == "title" || s.name == "标题" {
		return -1, true
	}
	if m := headingName.FindStringSubmatch(s.name); m != nil {
		return int(m[2][0] - '1'), false
	}
	if o := ss.resolve(id, func(s *docxStyle) bool { return s.outline >= 0 }); o != nil && o.outline < 9 {
		return o.outline, false
	}
	if b := ss.resolve(id, func(s *docxStyle) bool { return headingName.MatchString(s.name) }); b != nil {
		m := headingName.FindStringSubmatch(b.name)
		return int(m[2][0] - '1'), false
	}
	return -1, false
}

func (ss styleSheet) isTOC(id string) bool {
	s := ss[id]
	return s != nil && tocName.MatchString(s.name)
}
