package extract

import (
	"math"
	"strconv"
	"strings"
)

type pdfNote struct {
	mark string
	text string
}

// pdfTakeFootnotes splits the notes off the bottom of a page: a run of lines in a smaller
// font than the body, under body text, whose first line starts with a note marker.
func pdfTakeFootnotes(ls []*pdfLine, st *pdfStats) ([]*pdfLine, []pdfNote) {
	small := func(l *pdfLine) bool { return l.size <= 0.9*st.body }
	k := len(ls)
	for k > 0 && small(ls[k-1]) {
		k--
	}
	if k == 0 || k == len(ls) {
		return ls, nil
	}
	// Footnotes are cited: some marker must be raised in the text above.
	cited := map[string]bool{}
	for _, l := range ls[:k] {
		for _, m := range l.marks {
			cited[m] = true
		}
	}
	// The topmost marker line in the small run starts the notes; small lines above it
	// (a caption, a table) stay in the body.
	top := -1
	for i := k; i < len(ls); i++ {
		if ls[i].lead == "" {
			pdfCitedLead(ls[i], cited)
		}
		if ls[i].lead != "" {
			top = i
			break
		}
	}
	if top < 0 {
		return ls, nil
	}
	var notes []pdfNote
	var cur *pdfNote
	var curLast *pdfLine
	startX := ls[top].x0
	prevNum := -1
	for _, l := range ls[top:] {
		starts := false
		if l.lead == "" && cur != nil {
			pdfCitedLead(l, cited)
		}
		if l.lead != "" {
			n, err := strconv.Atoi(l.lead)
			switch {
			case cur == nil:
				starts = true
			case err == nil:
				// Numbered notes go up by one; "2019 年…" on a continuation line does not.
				starts = prevNum >= 0 && n == prevNum+1 && math.Abs(l.x0-startX) < 0.5*l.size
			default:
				starts = math.Abs(l.x0-startX) < 0.5*l.size
			}
			if starts {
				if err == nil {
					prevNum = n
				} else {
					prevNum = -1
				}
			}
		}
		if starts {
			notes = append(notes, pdfNote{mark: l.lead, text: strings.TrimSpace(strings.TrimPrefix(l.text, l.leadRaw))})
			cur, curLast = &notes[len(notes)-1], l
			continue
		}
		cur.text += pdfJoiner(curLast, l) + l.text
		curLast = l
	}
	// Without a cited marker, take the run for notes only when it sits under running text,
	// not under a heading ("参考文献" set small) and is not numbered like a reference list ("[1]").
	for _, n := range notes {
		if cited[n.mark] {
			return ls[:top], notes
		}
	}
	above := ls[top-1]
	if st.headingStyle(above) || above.size <= 0.9*st.body || strings.HasPrefix(ls[top].leadRaw, "[") {
		return ls, nil
	}
	return ls[:top], notes
}

// pdfCitedLead sets the lead of a note line whose number LibreOffice writes at normal height
// and without a gap ("1关于…", "1A detailed…"), which pdfLeadMarker cannot tell from text: the
// number counts as a marker when the text above cites it raised.
func pdfCitedLead(l *pdfLine, cited map[string]bool) {
	end := 0
	for end < len(l.text) && end < 3 && l.text[end] >= '0' && l.text[end] <= '9' {
		end++
	}
	if end > 0 && end < len(l.text) && cited[l.text[:end]] {
		l.lead, l.leadRaw = l.text[:end], l.text[:end]
	}
}

// pdfAttachNotes gives each page's notes to the paragraph on that page that carries the
// note's marker, or else to the last paragraph on that page.
func pdfAttachNotes(paras []*pdfPara, pages []*pdfPage, notes [][]pdfNote) {
	for i, ns := range notes {
		page := pages[i].num
		for _, n := range ns {
			var target *pdfPara
			for _, p := range paras {
				if !p.onPage(page) {
					continue
				}
				for _, m := range p.marks[page] {
					if m == n.mark {
						target = p
					}
				}
				if target != nil {
					break
				}
			}
			if target == nil {
				for _, p := range paras {
					if p.onPage(page) && !p.Heading {
						target = p
					}
				}
			}
			if target == nil {
				for _, p := range paras {
					if p.Page <= page {
						target = p
					}
				}
			}
			if target == nil && len(paras) > 0 {
				target = paras[0]
			}
			if target != nil && n.text != "" {
				target.Notes = append(target.Notes, cleanPDFText(n.text))
			}
		}
	}
}
