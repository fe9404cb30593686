package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nguyenthenguyen/docx"
	utf16 "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// The WordprocessingML namespaces: transitional (what Word, WPS and LibreOffice write) and strict.
const (
	nsW       = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	nsWStrict = "http://purl.oclc.org/ooxml/wordprocessingml/main"
	nsMC      = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	nsXML     = "http://www.w3.org/XML/1998/namespace"
	relPrefix = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
)

// readDOCX reads the body of a Word document: the paragraphs of the main part in reading order
// (table cells one paragraph each, text boxes once), headings from the styles, and footnotes and
// endnotes attached to the paragraph that refers to them. Headers, footers, comments, deleted text,
// field codes and the table of contents are not body text and are left out.
func readDOCX(ctx context.Context, data []byte) (*Document, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: not a valid ZIP archive (%v)", ErrCorrupt, err)
	}
	pkg := newDocxPackage(zr)
	mainName := pkg.mainPart()
	if mainName == "" {
		return nil, fmt.Errorf("%w: a ZIP archive without word/document.xml", ErrUnsupported)
	}
	body, err := pkg.mainXML(data, mainName)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	rels := pkg.rels(mainName)
	styles := parseStyles(pkg.readOptional(pkg.target(rels, "styles", mainName, "word/styles.xml")))
	num := parseNumbering(pkg.readOptional(pkg.target(rels, "numbering", mainName, "word/numbering.xml")))
	notes := map[string]string{}
	var warnings []Warning
	noteHidden := map[string][]Hidden{}
	pageW, pageH := pageSize(body)
	for _, kind := range []string{"footnotes", "endnotes"} {
		name := pkg.target(rels, kind, mainName, "word/"+kind+".xml")
		raw := pkg.readOptional(name)
		if err := pkg.err; err != nil {
			return nil, err
		}
		if raw == nil && pkg.parts[strings.ToLower(name)] != nil {
			warnings = append(warnings, Warning{Kind: WarnUnreadableNotes, Count: 1,
				Message: fmt.Sprintf("%s is damaged: its %s were left out", name, kind)})
		}
		if len(raw) == 0 {
			continue
		}
		w := newDocxWalker(ctx, styles, nil)
		if err := w.walk(raw); err != nil {
			return nil, fmt.Errorf("%w: word/%s.xml: %v", ErrCorrupt, kind, err)
		}
		for id, text := range w.noteTexts {
			notes[kind[:1]+id] = text
		}
		for id, hs := range w.noteHidden {
			noteHidden[kind[:1]+id] = hs
		}
	}
	if pkg.err != nil {
		return nil, pkg.err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	w := newDocxWalker(ctx, styles, num)
	w.notes, w.noteHidden = notes, noteHidden
	w.pageW, w.pageH = int64(pageW)*635, int64(pageH)*635
	if err := w.walk(body); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, ErrTooLarge) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, mainName, err)
	}
	if w.noteRepeats > 0 {
		warnings = append(warnings, Warning{Kind: WarnRepeatedNotes, Count: w.noteRepeats,
			Message: fmt.Sprintf("%d more references to notes already read: each note is kept once, with the first paragraph that refers to it", w.noteRepeats)})
	}
	doc := &Document{Paragraphs: w.paras, Warnings: warnings}
	doc.unplacedHidden = attachOrphans(doc.Paragraphs, w.orphans)
	return doc, nil
}

// maxPackageBytes bounds what all the parts read from one DOCX may inflate to together.
const maxPackageBytes = 2 * MaxTextBytes

// docxPackage reads parts of the ZIP with a size cap on each, so that a ZIP bomb fails on the
// declared size before anything is inflated. archive/zip itself refuses to inflate past the declared
// size, so a lying header cannot get around the cap either.
type docxPackage struct {
	zr       *zip.Reader
	parts    map[string]*zip.File // by lower-case part name; OPC part names are case-insensitive
	err      error                // first error of an optional part that was too large or damaged
	inflated int                  // bytes read so far, bounded by maxPackageBytes
}

func newDocxPackage(zr *zip.Reader) *docxPackage {
	p := &docxPackage{zr: zr, parts: map[string]*zip.File{}}
	for _, f := range zr.File {
		p.parts[strings.ToLower(strings.TrimPrefix(f.Name, "/"))] = f
	}
	return p
}

// mainPart names the main document part: word/document.xml, or whatever _rels/.rels points to.
func (p *docxPackage) mainPart() string {
	if f := p.parts["word/document.xml"]; f != nil {
		return f.Name
	}
	raw, err := p.read("_rels/.rels")
	if err != nil {
		return ""
	}
	for _, r := range parseRels(raw) {
		if strings.HasSuffix(r.typ, "/officeDocument") {
			name := strings.TrimPrefix(path.Clean("/"+r.target), "/")
			if f := p.parts[strings.ToLower(name)]; f != nil {
				return f.Name
			}
		}
	}
	return ""
}

// mainXML returns the main part. It goes through nguyenthenguyen/docx first, the package our
// dependency notes name for opening documents; that library reads whole parts without a limit and
// fails when document.xml.rels is missing, so the sizes are checked before it runs and archive/zip
// is the fallback.
func (p *docxPackage) mainXML(data []byte, mainName string) ([]byte, error) {
	var total uint64
	for _, f := range p.zr.File {
		lower := strings.ToLower(f.Name)
		if lower == strings.ToLower(mainName) || strings.Contains(lower, "header") ||
			strings.Contains(lower, "footer") || lower == "word/_rels/document.xml.rels" {
			if f.UncompressedSize64 > MaxTextBytes {
				return nil, fmt.Errorf("%w: %s expands to %d MB (limit %d MB)", ErrTooLarge, f.Name, f.UncompressedSize64>>20, MaxTextBytes>>20)
			}
			total += f.UncompressedSize64
		}
	}
	if total <= MaxTextBytes && mainName == "word/document.xml" {
		if content, err := openWithDocxLib(data); err == nil {
			return []byte(content), nil
		}
	}
	raw, err := p.read(mainName)
	if err != nil {
		return nil, err
	}
	return raw, nil
}

// openWithDocxLib returns word/document.xml as the docx library reads it, with its panics turned
// into errors.
func openWithDocxLib(data []byte) (content string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("docx library: %v", r)
		}
	}()
	r, err := docx.ReadDocxFromMemory(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", err
	}
	defer r.Close()
	return r.Editable().GetContent(), nil
}

// read inflates one part, at most MaxTextBytes of it.
func (p *docxPackage) read(name string) ([]byte, error) {
	f := p.parts[strings.ToLower(name)]
	if f == nil {
		return nil, fmt.Errorf("%w: %s is missing", ErrCorrupt, name)
	}
	if f.UncompressedSize64 > MaxTextBytes {
		return nil, fmt.Errorf("%w: %s expands to %d MB (limit %d MB)", ErrTooLarge, f.Name, f.UncompressedSize64>>20, MaxTextBytes>>20)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, f.Name, err)
	}
	defer rc.Close()
	raw, err := io.ReadAll(io.LimitReader(rc, MaxTextBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, f.Name, err)
	}
	if len(raw) > MaxTextBytes {
		return nil, fmt.Errorf("%w: %s expands past %d MB", ErrTooLarge, f.Name, MaxTextBytes>>20)
	}
	if p.inflated += len(raw); p.inflated > maxPackageBytes {
		return nil, fmt.Errorf("%w: the parts expand to more than %d MB", ErrTooLarge, maxPackageBytes>>20)
	}
	return raw, nil
}

// readOptional reads a part that a document may lack (styles, notes). Missing is not an error; a
// part that is too large or damaged is remembered in p.err.
func (p *docxPackage) readOptional(name string) []byte {
	if name == "" || p.parts[strings.ToLower(name)] == nil {
		return nil
	}
	raw, err := p.read(name)
	if err != nil {
		if errors.Is(err, ErrTooLarge) && p.err == nil {
			p.err = err
		}
		return nil // a damaged styles or notes part costs formatting, not the document
	}
	return raw
}

type rel struct{ typ, target, mode string }

// rels reads the relationships of a part (word/_rels/document.xml.rels for the main part).
func (p *docxPackage) rels(part string) []rel {
	dir, file := path.Split(part)
	raw := p.readOptional(dir + "_rels/" + file + ".rels")
	return parseRels(raw)
}

// target resolves the part a relationship of the given type points to, or def when there is none.
func (p *docxPackage) target(rels []rel, typ, from, def string) string {
	for _, r := range rels {
		if r.typ == relPrefix+typ && r.mode != "External" {
			t := r.target
			if strings.HasPrefix(t, "/") {
				return strings.TrimPrefix(path.Clean(t), "/")
			}
			return strings.TrimPrefix(path.Clean("/"+path.Dir(from)+"/"+t), "/")
		}
	}
	return def
}

func parseRels(raw []byte) []rel {
	var out []rel
	if len(raw) == 0 {
		return nil
	}
	d := xml.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "Relationship" {
			out = append(out, rel{typ: attr(se, "Type"), target: attr(se, "Target"), mode: attr(se, "TargetMode")})
		}
	}
}

// attr returns the value of the attribute with the given local name, whatever its namespace.
func attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

func isW(n xml.Name) bool { return n.Space == nsW || n.Space == nsWStrict || n.Space == "w" }

// onOff reads a WordprocessingML toggle such as <w:vanish/> or <w:vanish w:val="false"/>.
func onOff(se xml.StartElement) bool {
	switch attr(se, "val") {
	case "false", "0", "off", "none":
		return false
	}
	return true
}

// --- styles -------------------------------------------------------------------------------------

type docxStyle struct {
	name     string // lower case
	basedOn  string
	outline  int // outline level 0–8, -1 when unset, 9 body text
	numID    string
	numLevel int
	rpr      runProps  // the run properties it sets (docx_hidden.go)
	pshd     docxColor // the paragraph shading it sets
	// A table style that shades cells (all, or some rows and columns): what a cell of such a
	// table is read on is not known without laying the table out.
	shadesCells bool
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
				default: // in a table style's w:tblPr or w:tcPr
					cur.shadesCells = cur.shadesCells || !shading(t).none
				}
			case "tblStylePr":
				// A table style's formatting of some rows or cells, not of the style's own text;
				// only whether it shades them is kept.
				if cur != nil && tableStyleShades(d) {
					cur.shadesCells = true
				}
			case "name":
				if cur != nil {
					cur.name = strings.ToLower(strings.TrimSpace(attr(t, "val")))
				}
			case "basedOn":
				if cur != nil {
					cur.basedOn = attr(t, "val")
				}
			case "pPr":
				depthPPr++
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

func (ss styleSheet) numbering(id string) (numID string, level int) {
	if s := ss.resolve(id, func(s *docxStyle) bool { return s.numID != "" }); s != nil {
		return s.numID, s.numLevel
	}
	return "", 0
}

// --- numbering ----------------------------------------------------------------------------------

// Numbered headings ("第1章", "1.1") often get their number from numbering.xml rather than from
// their text; the number is put back so that the heading reads as it prints.
type numLevel struct {
	start int
	fmt   string
	text  string
	legal bool
	suff  string
}

type numbering struct {
	abstract map[string]map[int]*numLevel // abstractNumId → level → definition
	nums     map[string]string            // numId → abstractNumId
	override map[string]map[int]int       // numId → level → start override
	counters map[string][]int             // abstractNumId → current counter per level
	started  map[string]bool              // numIds whose overrides were applied
}

func parseNumbering(raw []byte) *numbering {
	n := &numbering{abstract: map[string]map[int]*numLevel{}, nums: map[string]string{},
		override: map[string]map[int]int{}, counters: map[string][]int{}, started: map[string]bool{}}
	if len(raw) == 0 {
		return n
	}
	d := newXMLDecoder(raw)
	var absID, numID string
	var lvl *numLevel
	overrideLvl := -1
	for {
		tok, err := d.Token()
		if err != nil {
			return n
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			if ee, ok := tok.(xml.EndElement); ok && isW(ee.Name) {
				switch ee.Name.Local {
				case "abstractNum":
					absID = ""
				case "num":
					numID = ""
				case "lvl":
					lvl = nil
				case "lvlOverride":
					overrideLvl = -1
				}
			}
			continue
		}
		if !isW(se.Name) {
			continue
		}
		switch se.Name.Local {
		case "abstractNum":
			absID = attr(se, "abstractNumId")
			n.abstract[absID] = map[int]*numLevel{}
		case "num":
			numID = attr(se, "numId")
		case "abstractNumId":
			if numID != "" {
				n.nums[numID] = attr(se, "val")
			}
		case "lvlOverride":
			overrideLvl, _ = strconv.Atoi(attr(se, "ilvl"))
		case "startOverride":
			if numID != "" && overrideLvl >= 0 {
				if n.override[numID] == nil {
					n.override[numID] = map[int]int{}
				}
				n.override[numID][overrideLvl], _ = strconv.Atoi(attr(se, "val"))
			}
		case "lvl":
			if absID != "" && numID == "" {
				i, _ := strconv.Atoi(attr(se, "ilvl"))
				lvl = &numLevel{start: 1, fmt: "decimal", suff: "tab"}
				n.abstract[absID][i] = lvl
			}
		case "start":
			if lvl != nil {
				lvl.start, _ = strconv.Atoi(attr(se, "val"))
			}
		case "numFmt":
			if lvl != nil {
				lvl.fmt = attr(se, "val")
			}
		case "lvlText":
			if lvl != nil {
				lvl.text = attr(se, "val")
			}
		case "isLgl":
			if lvl != nil {
				lvl.legal = onOff(se)
			}
		case "suff":
			if lvl != nil {
				lvl.suff = attr(se, "val")
			}
		case "pPr", "rPr":
			_ = d.Skip()
		}
	}
}

// next counts a paragraph of list numID at level ilvl and returns its label ("第1章 ", "1.2 ").
func (n *numbering) next(numID string, ilvl int) string {
	if n == nil || numID == "" || numID == "0" || ilvl < 0 || ilvl > 8 {
		return ""
	}
	absID, ok := n.nums[numID]
	levels := n.abstract[absID]
	if !ok || levels == nil {
		return ""
	}
	c := n.counters[absID]
	if c == nil {
		c = make([]int, 9)
		for i := range c {
			c[i] = startOf(levels[i]) - 1
		}
	}
	if !n.started[numID] {
		n.started[numID] = true
		for l, s := range n.override[numID] {
			if l >= 0 && l < 9 {
				c[l] = s - 1
			}
		}
	}
	c[ilvl]++
	for i := ilvl + 1; i < 9; i++ {
		c[i] = startOf(levels[i]) - 1
	}
	n.counters[absID] = c
	def := levels[ilvl]
	if def == nil || def.fmt == "none" || def.fmt == "bullet" || def.text == "" {
		return ""
	}
	label := def.text
	for i := 0; i <= ilvl; i++ {
		f := "decimal"
		if levels[i] != nil {
			f = levels[i].fmt
		}
		if def.legal {
			f = "decimal"
		}
		label = strings.ReplaceAll(label, "%"+strconv.Itoa(i+1), formatNumber(c[i], f))
	}
	switch def.suff {
	case "nothing":
		return label
	default:
		return label + " "
	}
}

func startOf(l *numLevel) int {
	if l == nil {
		return 1
	}
	return l.start
}

func formatNumber(n int, format string) string {
	switch format {
	case "upperRoman", "lowerRoman":
		r := roman(n)
		if format == "lowerRoman" {
			r = strings.ToLower(r)
		}
		return r
	case "upperLetter", "lowerLetter":
		if n < 1 {
			return strconv.Itoa(n)
		}
		base := 'A'
		if format == "lowerLetter" {
			base = 'a'
		}
		// Word repeats the letter past Z: AA, BB, …
		return strings.Repeat(string(base+rune((n-1)%26)), (n-1)/26+1)
	case "chineseCounting", "chineseCountingThousand", "japaneseCounting", "ideographDigital", "taiwaneseCounting", "taiwaneseCountingThousand":
		return chineseNumber(n)
	case "chineseLegalSimplified":
		return strings.NewReplacer("一", "壹", "二", "贰", "三", "叁", "四", "肆", "五", "伍", "六", "陆", "七", "柒", "八", "捌", "九", "玖", "十", "拾").Replace(chineseNumber(n))
	case "ideographTraditional":
		if n >= 1 && n <= 10 {
			return string([]rune("甲乙丙丁戊己庚辛壬癸")[n-1])
		}
	case "decimalZero":
		if n >= 0 && n < 10 {
			return "0" + strconv.Itoa(n)
		}
	case "decimalFullWidth", "decimalFullWidth2":
		var b strings.Builder
		for _, r := range strconv.Itoa(n) {
			b.WriteRune(r - '0' + '０')
		}
		return b.String()
	case "decimalEnclosedCircle", "decimalEnclosedCircleChinese":
		if n >= 1 && n <= 20 {
			return string(rune('①' + n - 1))
		}
	}
	return strconv.Itoa(n)
}

func roman(n int) string {
	if n < 1 || n > 3999 {
		return strconv.Itoa(n)
	}
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, v := range vals {
		for n >= v {
			b.WriteString(syms[i])
			n -= v
		}
	}
	return b.String()
}

// chineseNumber writes 1–999 the way chapter numbers are written: 一, 十, 十二, 二十, 一百零五.
func chineseNumber(n int) string {
	digits := []rune("零一二三四五六七八九")
	if n < 0 || n > 999 {
		return strconv.Itoa(n)
	}
	if n < 10 {
		return string(digits[n])
	}
	var b strings.Builder
	if n >= 100 {
		b.WriteRune(digits[n/100])
		b.WriteRune('百')
		n %= 100
		if n == 0 {
			return b.String()
		}
		if n < 10 {
			b.WriteRune('零')
			b.WriteRune(digits[n])
			return b.String()
		}
		b.WriteRune(digits[n/10])
	} else if n >= 20 {
		b.WriteRune(digits[n/10])
	}
	b.WriteRune('十')
	if n%10 != 0 {
		b.WriteRune(digits[n%10])
	}
	return b.String()
}

// --- the document walk --------------------------------------------------------------------------

// paraBuilder collects one w:p. Text boxes put paragraphs inside paragraphs, so they stack.
type paraBuilder struct {
	lines    []string
	cur      strings.Builder
	style    string
	outline  int
	numID    string
	numLevel int
	hasNum   bool
	notes    []string
	shd      docxColor     // the paragraph's own shading (w:pPr/w:shd)
	hidden   []*docxHidden // text in it that a reader cannot see
}

func (p *paraBuilder) breakLine() {
	p.lines = append(p.lines, p.cur.String())
	p.cur.Reset()
}

func (p *paraBuilder) text() string {
	return linesText(append(p.lines, p.cur.String()))
}

// linesText joins the lines of a paragraph (split by w:br) as its text.
func linesText(lines []string) string {
	kept := lines[:0]
	for _, l := range lines {
		l = strings.Map(func(r rune) rune {
			switch r {
			case '\t', '\n', '\r':
				return ' '
			case 0:
				return -1
			}
			return r
		}, l)
		if strings.TrimSpace(l) != "" {
			kept = append(kept, l)
		}
	}
	return strings.TrimSpace(joinLines(kept))
}

type sdtKind int

const (
	sdtPlain  sdtKind = iota
	sdtHidden         // a table of contents or a placeholder
)

type fieldState struct {
	instr  strings.Builder
	result bool // past w:fldChar separate: what follows is the field's displayed result
	toc    bool
}

type docxWalker struct {
	ctx    context.Context
	styles styleSheet
	num    *numbering
	notes  map[string]string // "f2" / "e3" → note text, for the body walk

	paras     []Paragraph
	stack     []*paraBuilder
	fields    []*fieldState
	altTaken  []bool // per open mc:AlternateContent: a branch was already read
	names     []string
	tText     strings.Builder
	inT       bool
	preserve  bool
	runMark   bool // the run holds a custom footnote mark, which is not body text
	sdts      []sdtKind
	hideDepth int // inside a content control whose content is not body text

	// Hidden text (docx_hidden.go): the run's own properties and character style, why it cannot
	// be seen (worked out at its first text), the backgrounds of the table cells and text boxes
	// it is in, the page's colour, and the drawings it is in with what hides them.
	run        runProps
	runStyle   string
	runWhy     hideSet
	runSize    float64
	runDone    bool
	backs      []docxBack
	tables     []docxTable
	page       docxColor
	shapes     []docxShape
	pageW      int64 // EMU
	pageH      int64
	orphans    []orphanHidden      // hidden paragraphs: no visible text to stand in
	noteHidden map[string][]Hidden // "f2" → the hidden text of that note
	// What the styles give, by paragraph and character style: worked out once each.
	styledRuns   map[[2]string]runProps
	styleShading map[string]docxColor

	// Notes parts: the text of each footnote or endnote, keyed by id.
	noteID    string
	noteParts []string
	noteTexts map[string]string

	// The body: notes already attached to a paragraph, and the references to them that followed.
	notesKept   map[string]bool
	noteRepeats int
	textBytes   int // text of the paragraphs and their notes so far, bounded by MaxDocText
}

func newDocxWalker(ctx context.Context, ss styleSheet, num *numbering) *docxWalker {
	w, h := pageSize(nil)
	return &docxWalker{ctx: ctx, styles: ss, num: num, noteTexts: map[string]string{}, notesKept: map[string]bool{}, noteHidden: map[string][]Hidden{},
		pageW: int64(w) * 635, pageH: int64(h) * 635, // twips → EMU
		styledRuns: map[[2]string]runProps{}, styleShading: map[string]docxColor{}}
}

func (w *docxWalker) top() *paraBuilder {
	if len(w.stack) == 0 {
		return nil
	}
	return w.stack[len(w.stack)-1]
}

func (w *docxWalker) parent() string {
	if len(w.names) == 0 {
		return ""
	}
	return w.names[len(w.names)-1]
}

func (w *docxWalker) grandparent() string {
	if len(w.names) < 2 {
		return ""
	}
	return w.names[len(w.names)-2]
}

func (w *docxWalker) inTOC() bool {
	if w.hideDepth > 0 {
		return true
	}
	for _, f := range w.fields {
		if f.toc && f.result {
			return true
		}
	}
	return false
}

// write adds text to the innermost open paragraph: visible text to its text, hidden text apart.
func (w *docxWalker) write(s string) {
	p := w.top()
	if p == nil || w.runMark || w.inTOC() {
		return
	}
	why, size := w.hide()
	if why == 0 {
		p.cur.WriteString(s)
		return
	}
	line, off := len(p.lines), p.cur.Len()
	if n := len(p.hidden); n > 0 {
		if h := p.hidden[n-1]; h.line == line && h.off == off && h.why == why && h.apart == nil {
			h.text.WriteString(s)
			h.size = max(h.size, size)
			return
		}
	}
	h := &docxHidden{line: line, off: off, why: why, size: size}
	h.text.WriteString(s)
	p.hidden = append(p.hidden, h)
}

func (w *docxWalker) walk(raw []byte) error {
	d := newXMLDecoder(raw)
	for n := 0; ; n++ {
		if n&4095 == 0 && w.ctx.Err() != nil {
			return w.ctx.Err()
		}
		if len(w.paras) > MaxParagraphs {
			// Before the paragraphs of a hostile part, small each, cost gigabytes.
			return fmt.Errorf("%w: more than %d paragraphs", ErrTooLarge, MaxParagraphs)
		}
		if w.textBytes > MaxDocText {
			return fmt.Errorf("%w: more than %d MB of text", ErrTooLarge, MaxDocText>>20)
		}
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			skip, err := w.start(d, t)
			if err != nil {
				return err
			}
			if !skip {
				w.names = append(w.names, t.Name.Space+" "+t.Name.Local)
			}
		case xml.EndElement:
			if len(w.names) > 0 {
				w.names = w.names[:len(w.names)-1]
			}
			w.end(t)
		case xml.CharData:
			if w.inT {
				w.tText.Write(t)
			}
		}
	}
}

// start handles an opening tag; skip reports that its whole element was consumed.
func (w *docxWalker) start(d *xml.Decoder, t xml.StartElement) (skip bool, err error) {
	if t.Name.Space == nsMC || t.Name.Space == "mc" {
		switch t.Name.Local {
		case "AlternateContent":
			w.altTaken = append(w.altTaken, false)
		case "Choice", "Fallback":
			// Both branches hold the same content (a text box as DrawingML and as VML): read one.
			if n := len(w.altTaken); n > 0 {
				if w.altTaken[n-1] {
					return true, d.Skip()
				}
				w.altTaken[n-1] = true
			}
		}
		return false, nil
	}
	if !isW(t.Name) {
		return w.shapeStart(d, t)
	}
	parent := w.parent()
	inW := func(local string) bool {
		return parent == nsW+" "+local || parent == nsWStrict+" "+local || parent == "w "+local
	}
	switch t.Name.Local {
	case "p":
		w.stack = append(w.stack, &paraBuilder{outline: -1})
	case "pStyle":
		if p := w.top(); p != nil && inW("pPr") {
			p.style = attr(t, "val")
		}
	case "outlineLvl":
		if p := w.top(); p != nil && inW("pPr") {
			if n, err := strconv.Atoi(attr(t, "val")); err == nil {
				p.outline = n
			}
		}
	case "numId":
		if p := w.top(); p != nil && inW("numPr") {
			p.numID, p.hasNum = attr(t, "val"), true
		}
	case "ilvl":
		if p := w.top(); p != nil && inW("numPr") {
			p.numLevel, _ = strconv.Atoi(attr(t, "val"))
		}
	case "r":
		w.startRun()
	case "rStyle":
		if inW("rPr") && w.isRunProps() {
			w.runStyle = attr(t, "val")
		}
	case "vanish", "specVanish", "color", "sz", "w", "highlight":
		if inW("rPr") && w.isRunProps() {
			w.run.apply(t)
		}
	case "shd":
		switch {
		case inW("rPr") && w.isRunProps():
			w.run.apply(t)
		case inW("pPr"):
			if p := w.top(); p != nil {
				p.shd = shading(t)
			}
		case inW("tcPr"):
			// A cell's "no shading" leaves what its table gives it (its own or its style's).
			if n := len(w.backs); n > 0 && !w.backs[n-1].shape {
				if c := shading(t); !c.none {
					w.backs[n-1].c = c
				}
			}
		case inW("tblPr"):
			if n := len(w.tables); n > 0 {
				w.tables[n-1].shd = shading(t)
			}
		}
	case "tc":
		back := docxBack{}
		if n := len(w.tables); n > 0 {
			switch tb := w.tables[n-1]; {
			case tb.shd.set:
				back.c = tb.shd
			case tb.styleShades:
				back.c = docxColor{set: true} // some cells shaded by the table's style: unknown
			}
		}
		w.backs = append(w.backs, back)
	case "tbl":
		w.tables = append(w.tables, docxTable{})
	case "tblStyle":
		if n := len(w.tables); n > 0 && inW("tblPr") {
			w.tables[n-1].styleShades = w.styles.resolve(attr(t, "val"), func(s *docxStyle) bool { return s.shadesCells }) != nil
		}
	case "background":
		if parent == nsW+" document" || parent == nsWStrict+" document" || parent == "w document" {
			w.page = hexColor(attr(t, "color"))
		}
	case "t":
		w.inT = true
		w.preserve = false
		for _, a := range t.Attr {
			if a.Name.Local == "space" && (a.Name.Space == nsXML || a.Name.Space == "xml") && a.Value == "preserve" {
				w.preserve = true
			}
		}
		w.tText.Reset()
	case "instrText":
		if n := len(w.fields); n > 0 {
			var s string
			if err := d.DecodeElement(&s, &t); err != nil {
				return true, err
			}
			w.fields[n-1].instr.WriteString(s)
			w.markTOC(w.fields[n-1])
			return true, nil
		}
		return true, d.Skip()
	case "fldChar":
		switch attr(t, "fldCharType") {
		case "begin":
			w.fields = append(w.fields, &fieldState{})
		case "separate":
			if n := len(w.fields); n > 0 {
				w.fields[n-1].result = true
			}
		case "end":
			if n := len(w.fields); n > 0 {
				w.fields = w.fields[:n-1]
			}
		}
	case "fldSimple":
		if isTOCInstr(attr(t, "instr")) {
			return true, d.Skip()
		}
	case "tab", "ptab":
		if inW("r") {
			w.write("\t")
		}
	case "br", "cr":
		if inW("r") {
			if why, _ := w.hide(); why == 0 {
				if p := w.top(); p != nil && !w.inTOC() {
					p.breakLine()
				}
			}
		}
	case "noBreakHyphen":
		w.write("-")
	case "footnoteReference", "endnoteReference":
		if p := w.top(); p != nil && w.notes != nil {
			// A note referred to again is kept once, its text and its hidden words alike: 20,000
			// references to one long note would otherwise be 20,000 copies of it.
			key := t.Name.Local[:1] + attr(t, "id")
			text := w.notes[key]
			hs := w.noteHidden[key]
			switch {
			case text == "" && len(hs) == 0:
			case w.notesKept[key]:
				w.noteRepeats++
			default:
				w.notesKept[key] = true
				if text != "" {
					p.notes = append(p.notes, text)
					w.textBytes += len(text)
				}
				if len(hs) > 0 {
					p.hidden = append(p.hidden, &docxHidden{line: len(p.lines), off: p.cur.Len(), apart: hs})
				}
			}
		}
		if onOff2(t, "customMarkFollows") {
			w.runMark = true
		}
	case "footnote", "endnote":
		w.noteID, w.noteParts = "", nil
		switch attr(t, "type") {
		case "separator", "continuationSeparator", "continuationNotice":
			return true, d.Skip()
		}
		if id := attr(t, "id"); id != "-1" && id != "0" { // Word's separator notes
			w.noteID = id
		}
	case "sdt":
		w.sdts = append(w.sdts, sdtPlain)
	case "docPartGallery":
		// Word wraps its table of contents in a content control of this gallery.
		if n := len(w.sdts); n > 0 && strings.Contains(strings.ToLower(attr(t, "val")), "table of contents") {
			w.sdts[n-1] = sdtHidden
		}
	case "showingPlcHdr":
		// The control shows its placeholder ("Click here to enter text."), not the author's text.
		if n := len(w.sdts); n > 0 && onOff(t) {
			w.sdts[n-1] = sdtHidden
		}
	case "sdtContent":
		if n := len(w.sdts); n > 0 && w.sdts[n-1] == sdtHidden {
			w.hideDepth++
		}
	case "del", "moveFrom", "delText", "pPrChange", "rPrChange", "sectPrChange", "tblPrChange",
		"trPrChange", "tcPrChange", "numberingChange", "rt", "commentReference", "sym", "object":
		// Deleted and moved-away text, old formatting, ruby annotations and symbols are not text.
		return true, d.Skip()
	}
	return false, nil
}

// isRunProps reports whether the rPr being read belongs to a run (and not to a paragraph mark).
func (w *docxWalker) isRunProps() bool {
	gp := w.grandparent()
	return strings.HasSuffix(gp, " r")
}

func onOff2(se xml.StartElement, local string) bool {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value == "1" || a.Value == "true" || a.Value == "on"
		}
	}
	return false
}

func isTOCInstr(s string) bool {
	f := strings.Fields(strings.ToUpper(s))
	return len(f) > 0 && f[0] == "TOC"
}

func (w *docxWalker) markTOC(f *fieldState) {
	if isTOCInstr(f.instr.String()) {
		f.toc = true
	}
}

func (w *docxWalker) end(t xml.EndElement) {
	if t.Name.Space == nsMC || t.Name.Space == "mc" {
		if t.Name.Local == "AlternateContent" && len(w.altTaken) > 0 {
			w.altTaken = w.altTaken[:len(w.altTaken)-1]
		}
		return
	}
	if !isW(t.Name) {
		w.shapeEnd(t)
		return
	}
	switch t.Name.Local {
	case "t":
		w.inT = false
		s := w.tText.String()
		if !w.preserve {
			s = strings.Trim(s, " \t\r\n")
		}
		w.write(s)
	case "r":
		w.startRun()
	case "tc":
		if n := len(w.backs); n > 0 && !w.backs[n-1].shape {
			w.backs = w.backs[:n-1]
		}
	case "tbl":
		if n := len(w.tables); n > 0 {
			w.tables = w.tables[:n-1]
		}
	case "p":
		n := len(w.stack)
		if n == 0 {
			return
		}
		p := w.stack[n-1]
		w.stack = w.stack[:n-1]
		w.finish(p)
	case "sdtContent":
		if n := len(w.sdts); n > 0 && w.sdts[n-1] == sdtHidden {
			w.hideDepth--
		}
	case "sdt":
		if n := len(w.sdts); n > 0 {
			w.sdts = w.sdts[:n-1]
		}
	case "footnote", "endnote":
		if w.noteID != "" {
			w.noteTexts[w.noteID] = strings.TrimSpace(joinLines(w.noteParts))
		}
		w.noteID, w.noteParts = "", nil
	}
}

// finish turns a closed w:p into a Paragraph (or a part of a note).
func (w *docxWalker) finish(p *paraBuilder) {
	if w.styles.isTOC(p.style) {
		return
	}
	numID, numLevel := p.numID, p.numLevel
	if !p.hasNum {
		numID, numLevel = w.styles.numbering(p.style)
	}
	label := w.num.next(numID, numLevel)
	text := p.text()
	var hidden []Hidden
	if len(p.hidden) > 0 {
		hidden = p.hiddenPieces(text)
	}
	if w.notes == nil { // reading a notes part
		if w.noteID != "" {
			if text != "" {
				w.noteParts = append(w.noteParts, text)
			}
			w.noteHidden[w.noteID] = append(w.noteHidden[w.noteID], hidden...)
		}
		return
	}
	if text == "" {
		for _, h := range hidden {
			w.orphans = append(w.orphans, orphanHidden{Hidden: h, after: len(w.paras) - 1})
		}
		return
	}
	level, title := w.styles.headingLevel(p.style)
	if p.outline >= 0 {
		level = p.outline
		if level >= 9 {
			level = -1
		}
	}
	para := Paragraph{Text: text, Notes: p.notes, Hidden: hidden}
	w.textBytes += len(text)
	if level >= 0 || title {
		para.Heading = true
		if level >= 0 && label != "" && !strings.HasPrefix(text, strings.TrimSpace(label)) {
			para.Text = strings.TrimSpace(label) + labelSep(label, text) + text
			shift := utf8.RuneCountInString(para.Text) - utf8.RuneCountInString(text)
			for i := range para.Hidden {
				para.Hidden[i].Offset += shift
			}
		}
		if level == 0 {
			// Tells Structure this is a chapter-level heading (see outlineChapters).
			para.Chapter = para.Text
		}
	}
	w.paras = append(w.paras, para)
}

// labelSep keeps the space a numbering label ends with ("1.1 背景") or none ("第一章绪论").
func labelSep(label, text string) string {
	if strings.HasSuffix(label, " ") {
		return " "
	}
	return ""
}

// newXMLDecoder reads a part as UTF-8. OOXML parts may also be UTF-16 with a byte-order mark, which
// encoding/xml cannot read by itself.
func newXMLDecoder(raw []byte) *xml.Decoder {
	if bytes.HasPrefix(raw, []byte{0xFF, 0xFE}) || bytes.HasPrefix(raw, []byte{0xFE, 0xFF}) {
		dec := utf16.UTF16(utf16.BigEndian, utf16.ExpectBOM).NewDecoder()
		if out, _, err := transform.Bytes(dec, raw); err == nil {
			raw = out
		}
	}
	raw = bytes.TrimPrefix(raw, []byte{0xEF, 0xBB, 0xBF})
	if !utf8.Valid(raw) {
		raw = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	}
	d := xml.NewDecoder(bytes.NewReader(stripBadXMLChars(raw)))
	// The text is UTF-8 by now, whatever the declaration says.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	return d
}

// stripBadXMLChars removes NUL and the other control characters XML 1.0 forbids: they only come
// from broken writers, and encoding/xml would refuse the whole part for one of them.
func stripBadXMLChars(b []byte) []byte {
	bad := func(c byte) bool { return c < 0x20 && c != '\t' && c != '\n' && c != '\r' }
	i := bytes.IndexFunc(b, func(r rune) bool { return r < 0x20 && bad(byte(r)) })
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if !bad(c) {
			out = append(out, c)
		}
	}
	return out
}
