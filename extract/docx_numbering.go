package extract

import (
	"encoding/xml"
	"strconv"
	"strings"
	"unicode"
)

func (ss styleSheet) numbering(id string) (numID string, level int) {
	if s := ss.resolve(id, func(s *docxStyle) bool { return s.numID != "" }); s != nil {
		return s.numID, s.numLevel
	}
	return "", 0
}

// Numbered headings ("第1章", "1.1") often get their number from numbering.xml rather than from
// their text; the number is put back so that the heading reads as it prints.
type numLevel struct {
	start int
	fmt   string
	text  string
	legal bool
	suff  string
	ind   indent   // the paragraph indents of its w:pPr
	rp    runProps // its w:rPr, which formats the label
}

type numbering struct {
	abstract map[string]map[int]*numLevel // abstractNumId → level → definition
	nums     map[string]string            // numId → abstractNumId
	override map[string]map[int]int       // numId → level → start override
	levels   map[string]map[int]*numLevel // numId → level → a definition of its own (w:lvlOverride/w:lvl)
	counters map[string][]int             // abstractNumId → current counter per level
	started  map[string]bool              // numIds whose overrides were applied
}

func parseNumbering(raw []byte) *numbering {
	n := &numbering{abstract: map[string]map[int]*numLevel{}, nums: map[string]string{},
		override: map[string]map[int]int{}, levels: map[string]map[int]*numLevel{}, counters: map[string][]int{}, started: map[string]bool{}}
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
			i, _ := strconv.Atoi(attr(se, "ilvl"))
			switch {
			case absID != "" && numID == "":
				lvl = &numLevel{start: 1, fmt: "decimal", suff: "tab"}
				n.abstract[absID][i] = lvl
			case numID != "" && overrideLvl >= 0:
				// A list's own definition of a level, which Word shows instead of its abstract one's.
				lvl = &numLevel{start: 1, fmt: "decimal", suff: "tab"}
				if n.levels[numID] == nil {
					n.levels[numID] = map[int]*numLevel{}
				}
				n.levels[numID][overrideLvl] = lvl
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
		case "ind":
			if lvl != nil {
				lvl.ind.read(se) // within the level's w:pPr
			}
		case "rPr":
			if lvl == nil {
				_ = d.Skip()
				continue
			}
			if eachStart(d, func(t xml.StartElement) { lvl.rp.apply(t) }) != nil {
				return n
			}
		}
	}
}

// level is the definition of level ilvl of list numID: the list's own, else its abstract one's.
func (n *numbering) level(numID string, ilvl int) *numLevel {
	if n == nil {
		return nil
	}
	if l := n.levels[numID][ilvl]; l != nil {
		return l
	}
	return n.abstract[n.nums[numID]][ilvl]
}

// worded reports whether a level's label has words of its own beside its numbers: "Step %1:",
// "第%1条", text typed as a number format (a copy so set reads as the labels of empty list items
// with no text of theirs); not "%1.", "(%1)", "[%1]", "%1.%2".
func (l *numLevel) worded() bool {
	if l == nil || l.fmt == "none" || l.fmt == "bullet" {
		return false
	}
	own := l.text
	for i := 1; i <= 9; i++ {
		own = strings.ReplaceAll(own, "%"+strconv.Itoa(i), "")
	}
	return strings.ContainsFunc(own, unicode.IsLetter)
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
	def := n.level(numID, ilvl)
	if def == nil || def.fmt == "none" || def.fmt == "bullet" || def.text == "" {
		return ""
	}
	label := def.text
	for i := 0; i <= ilvl; i++ {
		f := "decimal"
		if l := n.level(numID, i); l != nil {
			f = l.fmt
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

// indent is the paragraph indent level ilvl of list numID gives.
func (n *numbering) indent(numID string, ilvl int) indent {
	if l := n.level(numID, ilvl); l != nil {
		return l.ind
	}
	return indent{}
}
