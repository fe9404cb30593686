package extract

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

var (
	pdfPageNumberRE = regexp.MustCompile(`(?i)^(page|p\.|pg\.?)?\s*[-–—~·•(\[]*\s*(\d{1,4}|[ivxlcdm]{1,8})\s*[-–—~·•)\]]*\s*((of|/|／)\s*\d{1,4})?$`)
	pdfCNPageRE     = regexp.MustCompile(`^(共\s*[\d一二三四五六七八九十百〇零]+\s*页\s*[,，]?\s*)?第\s*[\d一二三四五六七八九十百〇零]+\s*页(\s*[,，/／]?\s*共\s*[\d一二三四五六七八九十百〇零]+\s*页)?$`)
	pdfRomanRE      = regexp.MustCompile(`(?i)^m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$`)
)

// pdfIsPageNumber reports whether a line is nothing but a page number.
func pdfIsPageNumber(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	if pdfCNPageRE.MatchString(s) {
		return true
	}
	m := pdfPageNumberRE.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	num := m[2]
	if num[0] < '0' || num[0] > '9' {
		return pdfRomanRE.MatchString(num)
	}
	return true
}

// pdfFurnitureKey is a line's text with digits and spaces removed, so that "Page 3" and
// "Page 4", or "第三章 绪论 5" and "第三章 绪论 6", compare equal.
func pdfFurnitureKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsDigit(r) || unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pdfDropFurniture removes running headers and footers (lines near the top or bottom edge
// that repeat at the same height on other pages, digits aside) and bare page numbers.
func pdfDropFurniture(pages []*pdfPage, body [][]*pdfLine, st *pdfStats) {
	type cand struct {
		page int
		line *pdfLine
	}
	edge := func(p *pdfPage, l *pdfLine) int {
		h := p.box.Max.Y - p.box.Min.Y
		switch {
		case l.y > p.box.Max.Y-0.16*h:
			return 1
		case l.y < p.box.Min.Y+0.16*h:
			return -1
		}
		return 0
	}
	groups := map[string][]cand{}
	drop := map[*pdfLine]bool{}
	for i, p := range pages {
		ls := body[i]
		for j, l := range ls {
			e := edge(p, l)
			// Only the outermost lines can be furniture: two at each end.
			if e == 0 || e == 1 && j > 1 || e == -1 && j < len(ls)-2 {
				continue
			}
			if l.size > 1.15*st.body {
				continue
			}
			if pdfIsPageNumber(l.text) {
				drop[l] = true
				continue
			}
			k := pdfFurnitureKey(l.text)
			if k == "" {
				continue
			}
			key := strconv.Itoa(e) + "\x00" + k
			groups[key] = append(groups[key], cand{i, l})
		}
	}
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		// Repeated at the same height on at least two pages.
		for a := range g {
			pagesAt := map[int]bool{g[a].page: true}
			for b := range g {
				if math.Abs(g[a].line.y-g[b].line.y) < max(2, 0.3*g[a].line.size) {
					pagesAt[g[b].page] = true
				}
			}
			if len(pagesAt) >= 2 {
				drop[g[a].line] = true
			}
		}
	}
	for i := range body {
		kept := body[i][:0]
		for _, l := range body[i] {
			if !drop[l] {
				kept = append(kept, l)
			}
		}
		body[i] = kept
	}
}
