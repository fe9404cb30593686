package extract

import (
	"fmt"
	"slices"
	"strings"
)

// Unicode's explicit directional formatting characters (UAX #9, 2.1-2.4).
const (
	bidiLRE = '\u202A'
	bidiRLE = '\u202B'
	bidiPDF = '\u202C'
	bidiLRO = '\u202D'
	bidiRLO = '\u202E'
	bidiLRI = '\u2066'
	bidiRLI = '\u2067'
	bidiFSI = '\u2068'
	bidiPDI = '\u2069'
)

// maxBidiDepth is UAX #9's max_depth: embeddings past it are ignored, as a renderer ignores them.
const maxBidiDepth = 125

// readingOrder puts text that direction overrides show in another order than it is stored back
// in the order a reader sees it, and drops the formatting characters: "‮stxet deipoc‬" is drawn
// as "copied texts", and checked so. A paragraph without an override is returned as it is. moved
// counts the characters shown right to left by an override; pos maps each rune offset of text to
// its offset in out (len(out) past its end), for the offsets into it kept elsewhere.
//
// Only overrides (LRO, RLO) move Latin and Chinese letters; embeddings and isolates move only runs
// of right-to-left script, which a library stores in its logical order too, so their levels count
// here just for the overrides nested in them. That is why this is not golang.org/x/text's bidi
// (marked unfinished, and it would reorder honest Arabic or Hebrew into display order as well).
func readingOrder(text string) (out string, moved int, pos []int) {
	if !strings.ContainsRune(text, bidiRLO) && !strings.ContainsRune(text, bidiLRO) {
		return text, 0, nil
	}
	type entry struct {
		level    int
		override rune // bidiLRO, bidiRLO or 0
		isolate  bool
	}
	stack := []entry{{}}
	overflow := 0 // initiators past maxBidiDepth, each to be closed before one on the stack is
	rs := []rune(text)
	kept := make([]int, 0, len(rs)) // the offsets of the runes that are not formatting characters
	levels := make([]int, 0, len(rs))
	push := func(rtl bool, override rune, isolate bool) {
		top := stack[len(stack)-1]
		next := top.level + 1 // the next odd level above…
		if rtl == (next%2 == 0) {
			next++ // …or the next even one
		}
		if next > maxBidiDepth || overflow > 0 {
			overflow++
			return
		}
		stack = append(stack, entry{next, override, isolate})
	}
	pop := func(isolate bool) {
		switch {
		case overflow > 0:
			overflow--
		case isolate:
			// A PDI closes the isolate and every embedding opened inside it.
			for i := len(stack) - 1; i > 0; i-- {
				if stack[i].isolate {
					stack = stack[:i]
					break
				}
			}
		case len(stack) > 1 && !stack[len(stack)-1].isolate:
			stack = stack[:len(stack)-1]
		}
	}
	for i, r := range rs {
		switch r {
		case bidiLRE, bidiRLE, bidiLRO, bidiRLO:
			var override rune
			if r == bidiLRO || r == bidiRLO {
				override = r
			}
			push(r == bidiRLE || r == bidiRLO, override, false)
			continue
		case bidiLRI, bidiRLI, bidiFSI:
			push(r == bidiRLI, 0, true)
			continue
		case bidiPDF:
			pop(false)
			continue
		case bidiPDI:
			pop(true)
			continue
		}
		top := stack[len(stack)-1]
		level := top.level
		if top.override == 0 && level%2 == 1 {
			level++ // a letter at an odd level is left to right one level up (I2)
		}
		if top.override == bidiRLO {
			moved++
		}
		kept = append(kept, i)
		levels = append(levels, level)
	}
	// L2: from the highest level down to the lowest odd one, reverse every run at that level or
	// above.
	order := make([]int, len(kept)) // order[k]: which kept rune is shown k-th
	for k := range order {
		order[k] = k
	}
	top := slices.Max(append(levels, 0))
	for lv := top; lv >= 1; lv-- {
		for k := 0; k < len(order); {
			if levels[order[k]] < lv {
				k++
				continue
			}
			end := k
			for end < len(order) && levels[order[end]] >= lv {
				end++
			}
			slices.Reverse(order[k:end])
			k = end
		}
	}
	var b strings.Builder
	b.Grow(len(text))
	pos = make([]int, len(rs)+1)
	at := make([]int, len(kept)) // at[j]: where kept rune j is shown
	for k, j := range order {
		b.WriteRune(rs[kept[j]])
		at[j] = k
	}
	// An offset is a place between two runes: before the next rune kept, where that is shown left
	// to right; after it, where it is shown right to left.
	j := len(kept)
	pos[len(rs)] = len(kept)
	for i := len(rs) - 1; i >= 0; i-- {
		if j > 0 && kept[j-1] == i {
			j--
		}
		switch {
		case j == len(kept):
			pos[i] = len(kept)
		case levels[j]%2 == 1:
			pos[i] = at[j] + 1
		default:
			pos[i] = at[j]
		}
	}
	return b.String(), moved, pos
}

// readInOrder applies readingOrder to every paragraph and note of doc, moving the offsets of
// hidden text with it; it returns how many characters it moved.
func readInOrder(doc *Document) (total int) {
	for i := range doc.Paragraphs {
		p := &doc.Paragraphs[i]
		text, moved, pos := readingOrder(p.Text)
		if pos != nil {
			p.Text = text
			for k := range p.Hidden {
				p.Hidden[k].Offset = pos[min(max(p.Hidden[k].Offset, 0), len(pos)-1)]
			}
		}
		for k, note := range p.Notes {
			n, m, _ := readingOrder(note)
			p.Notes[k] = n
			moved += m
		}
		p.reordered = moved > 0
		total += moved
	}
	doc.Title, _, _ = readingOrder(doc.Title)
	return total
}

// reversedWarning names the paragraphs readInOrder put in reading order (after they were cut to
// size: the pieces of one all are).
func reversedWarning(doc *Document, moved int) Warning {
	var paras, pages []int
	for i, p := range doc.Paragraphs {
		if p.reordered {
			paras = append(paras, i)
			if p.Page > 0 && !slices.Contains(pages, p.Page) {
				pages = append(pages, p.Page)
			}
		}
	}
	return Warning{Kind: WarnReversed, Count: moved, Pages: pages, Paragraphs: paras,
		Message: fmt.Sprintf("%d characters stored back to front and shown the right way round by Unicode direction overrides (U+202E): read as a reader sees them", moved) + Where(pages, paras)}
}
