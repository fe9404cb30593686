package compare

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"thesischeck/library"
	"thesischeck/similarity"
)

// Common text is found through word bigrams: a bigram that half the class uses (five documents at
// least, or all of a smaller class: commonDocuments) is common, and a run of common bigrams long
// enough to count as a copy (MinWords words, MinRunChars characters) is common text — the prompt,
// a template, a quotation everyone uses. A single common bigram ("neural network" in a class on
// neural networks) is not: only runs are left out. A run may bridge commonGap uncommon bigrams, so
// that a student who reworded one word of the prompt still has the rest of the prompt recognised
// (one changed word breaks two bigrams; a stop-word pair has no bigram).
const commonGap = 3

// templateGrams returns the word bigrams of the library's template documents, each with the index of
// the template (into the returned titles) that has it.
func templateGrams(lib *library.Library) (map[uint32]int32, []string, error) {
	if lib == nil {
		return nil, nil, nil
	}
	grams := map[uint32]int32{}
	var titles []string
	docs, err := lib.List()
	if err != nil { // a damaged record could be a template's
		return nil, nil, fmt.Errorf("compare: %w", err)
	}
	for _, info := range docs {
		if !info.Template {
			continue
		}
		ps, err := lib.Paragraphs(info.ID)
		if err != nil {
			return nil, nil, fmt.Errorf("compare: template %s: %w", info.Path, err)
		}
		t := int32(len(titles))
		titles = append(titles, info.Title)
		for _, p := range ps {
			for _, g := range similarity.Grams(p.Tokens) {
				if _, ok := grams[g]; g != 0 && !ok {
					grams[g] = t
				}
			}
		}
	}
	return grams, titles, nil
}

// markCommon finds the common text of every document, lists it in res.Common and in the documents'
// paragraphs, and marks its words as stop words so that no alignment seeds on it. It fills each
// document's grams, winnowed runs and signature. Common means held by res.CommonDocuments new
// documents: last year's class does not make this year's text common, but its copy of the prompt is
// left out too.
func markCommon(ctx context.Context, docs []*doc, tmpl map[uint32]int32, titles []string, res *Result, o settings) error {
	sets := make([][]uint32, len(docs))
	err := forEach(ctx, len(docs), func(i int) {
		d := docs[i]
		d.grams = similarity.Grams(d.toks)
		if !d.old {
			sets[i] = similarity.SortedSet(append([]uint32(nil), d.grams...))
		}
	}, func(int) {})
	if err != nil {
		return err
	}
	common := commonGrams(sets, res.CommonDocuments)
	minDocs := res.CommonDocuments
	// First every run of common bigrams is grouped with the same passage in other documents; a
	// passage only some documents hold is a chain of set phrases, not shared text, and stays in.
	type found struct {
		d       *doc
		run     [2]int
		passage int
	}
	runs := make([][][2]int, len(docs))
	err = forEach(ctx, len(docs), func(i int) {
		runs[i] = commonRuns(docs[i], func(g uint32) bool {
			_, t := tmpl[g]
			_, c := common[g]
			return c || t
		}, o)
	}, func(int) {})
	if err != nil {
		return err
	}
	var all []found
	var passages []Common
	claimed := map[uint32]int{} // bigram → index in passages of the passage that has it
	holds := map[[2]int]bool{}  // (passage, document) pairs seen
	for i, d := range docs {
		for _, r := range runs[i] {
			k := addCommon(&passages, claimed, d.grams[r[0]:r[1]-1], tmpl, titles)
			if !d.old && !holds[[2]int{k, d.idx}] { // a document that repeats the passage counts once
				holds[[2]int{k, d.idx}] = true
				passages[k].Documents++
			}
			all = append(all, found{d, r, k})
		}
	}
	index := make([]int, len(passages)) // passage → index in res.Common, -1 when not common
	for k, c := range passages {
		index[k] = -1
		if c.Documents >= minDocs || c.Template != "" {
			index[k] = len(res.Common)
			res.Common = append(res.Common, c)
		}
	}
	for _, f := range all {
		k := index[f.passage]
		if k < 0 {
			continue
		}
		for w := f.run[0]; w < f.run[1]; w++ {
			f.d.common[w] = true
		}
		text := recordCommon(f.d, &res.Documents[f.d.idx], f.run)
		if res.Common[k].Text == "" {
			res.Common[k].Text = text
		}
	}
	return forEach(ctx, len(docs), func(i int) {
		d := docs[i]
		for k := range d.toks {
			if d.common[k] {
				d.toks[k].Stop = true
			}
		}
		d.grams = similarity.Grams(d.toks)
		d.wgrams = similarity.Winnow(runGrams(d.toks), winnowWindow)
		kept := make([]similarity.Token, 0, len(d.toks))
		for k, t := range d.toks {
			if !d.common[k] {
				kept = append(kept, t)
			}
		}
		sh := similarity.Shingles(kept)
		d.sig, d.shingles = similarity.MinHash(sh), len(sh)
	}, func(int) {})
}

// commonGrams returns the grams that at least minDocs of the sets hold. The sets are counted by
// sorting them together: a map of every distinct bigram of a thousand twenty-page submissions (ten
// million) took five seconds to fill, a third of the whole comparison.
func commonGrams(sets [][]uint32, minDocs int) map[uint32]struct{} {
	total := 0
	for _, s := range sets {
		total += len(s)
	}
	all := make([]uint32, 0, total)
	for i, s := range sets {
		all = append(all, s...)
		sets[i] = nil // as it is copied: the sets and their copy are not held twice
	}
	all = radixSort(all, 0)
	out := map[uint32]struct{}{}
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j] == all[i] {
			j++
		}
		if j-i >= minDocs {
			out[all[i]] = struct{}{}
		}
		i = j
	}
	return out
}

// radixSort sorts keys by their 32 bits from bit from on, keeping the order of keys equal there, in
// two passes of 16 bits.
func radixSort[K uint32 | uint64](keys []K, from uint) []K {
	tmp := make([]K, len(keys))
	for shift := from; shift < from+32; shift += 16 {
		var count [1 << 16]int
		for _, k := range keys {
			count[(k>>shift)&0xffff]++
		}
		pos := 0
		for i, c := range count {
			count[i] = pos
			pos += c
		}
		for _, k := range keys {
			b := (k >> shift) & 0xffff
			tmp[count[b]] = k
			count[b]++
		}
		keys, tmp = tmp, keys
	}
	return keys
}

// commonRuns returns the runs of d's words, as word ranges [start, end), whose bigrams are common. A
// run stays within a paragraph; stop-word pairs (bigram 0) neither extend nor break it; a common
// bigram standing alone at either end is a set phrase next to the passage, not part of it.
func commonRuns(d *doc, common func(uint32) bool, o settings) [][2]int {
	var out [][2]int
	var hits []int // positions of the common bigrams of the current run
	adjacent := func(a, b int) bool {
		for _, g := range d.grams[a+1 : b] {
			if g != 0 {
				return false
			}
		}
		return true
	}
	flush := func() {
		for len(hits) > 1 && !adjacent(hits[0], hits[1]) {
			hits = hits[1:]
		}
		for n := len(hits); n > 1 && !adjacent(hits[n-2], hits[n-1]); n = len(hits) {
			hits = hits[:n-1]
		}
		if len(hits) > 1 {
			start, end := hits[0], min(hits[len(hits)-1]+2, len(d.toks))
			chars := 0
			for _, t := range d.toks[start:end] {
				if !t.Num {
					chars += int(t.End - t.Start)
				}
			}
			if end-start >= o.align.MinWords && chars >= o.align.MinChars {
				out = append(out, [2]int{start, end})
			}
		}
		hits = hits[:0]
	}
	gap := 0
	for i, g := range d.grams {
		switch {
		case i+1 < len(d.toks) && d.para[i] != d.para[i+1]:
			flush()
		case g == 0:
		case common(g):
			hits = append(hits, i)
			gap = 0
		case len(hits) > 0:
			if gap++; gap > commonGap {
				flush()
			}
		}
	}
	flush()
	return out
}

// recordCommon adds a common run to the paragraphs' Common spans and the document's counts, and
// returns its text.
func recordCommon(d *doc, dd *Document, r [2]int) string {
	var parts []string
	for _, s := range d.spans(r) {
		p := &dd.Paragraphs[s.Para]
		p.Common = append(p.Common, [2]int{s.Start, s.End})
		rs := []rune(p.Text)
		n := similarity.CountChars(rs).In([2]int{s.Start, s.End})
		dd.CommonChars += n
		dd.ComparedChars -= n
		parts = append(parts, string(rs[s.Start:s.End]))
	}
	return strings.Join(parts, "\n")
}

// addCommon groups a run of common bigrams with the passage it belongs to: a run most of whose
// bigrams an earlier run already has is the same passage in another document. It returns the
// passage's index in passages.
func addCommon(passages *[]Common, claimed map[uint32]int, grams []uint32, tmpl map[uint32]int32, titles []string) int {
	votes := map[int]int{}
	fromTemplate := map[int32]int{}
	n := 0
	for _, g := range grams {
		if g == 0 {
			continue
		}
		n++
		if c, ok := claimed[g]; ok {
			votes[c]++
		}
		if t, ok := tmpl[g]; ok {
			fromTemplate[t]++
		}
	}
	best, bestVotes := -1, 0
	for c, v := range votes {
		if v > bestVotes || (v == bestVotes && c < best) {
			best, bestVotes = c, v
		}
	}
	if best < 0 || bestVotes*2 < n {
		var c Common
		tBest, tVotes := int32(-1), 0
		for t, v := range fromTemplate {
			if v > tVotes || (v == tVotes && t < tBest) {
				tBest, tVotes = t, v
			}
		}
		if tVotes*2 >= n && tBest >= 0 {
			c.Template = titles[tBest]
		}
		*passages = append(*passages, c)
		best = len(*passages) - 1
	}
	for _, g := range grams {
		if _, ok := claimed[g]; g != 0 && !ok {
			claimed[g] = best
		}
	}
	return best
}

// span is a run of a paragraph's characters: rune offsets [Start, End) into Document.Paragraphs[Para].Text.
type span struct {
	Para, Start, End int
}

// spans turns a word range of d's stream into character spans, one per paragraph it touches.
func (d *doc) spans(r [2]int) []span {
	var out []span
	for k := r[0]; k < r[1]; {
		p := d.para[k]
		e := k
		for e < r[1] && d.para[e] == p {
			e++
		}
		out = append(out, span{Para: int(p), Start: int(d.toks[k].Start), End: int(d.toks[e-1].End)})
		k = e
	}
	return out
}

// withoutCommon cuts the common text of the paragraphs out of spans.
func withoutCommon(spans []span, paras []Paragraph) []span {
	var out []span
	for _, s := range spans {
		cs := paras[s.Para].Common
		if len(cs) == 0 {
			out = append(out, s)
			continue
		}
		cs = append([][2]int(nil), cs...)
		sort.Slice(cs, func(i, j int) bool { return cs[i][0] < cs[j][0] })
		at := s.Start
		for _, c := range cs {
			if c[1] <= at || c[0] >= s.End {
				continue
			}
			if c[0] > at {
				out = append(out, span{s.Para, at, c[0]})
			}
			at = max(at, c[1])
		}
		if at < s.End {
			out = append(out, span{s.Para, at, s.End})
		}
	}
	return out
}

// spanChars counts the characters of spans in paras as written (similarity.Written), and of them
// those that similarity.Chars does not count: text no reader sees counts only inside what two
// documents share, as in a check.
func spanChars(spans []span, paras []Paragraph) (n, unseen int) {
	var rs []rune
	var cc similarity.Chars
	for k, s := range spans {
		if k == 0 || s.Para != spans[k-1].Para {
			rs = []rune(paras[s.Para].Text)
			cc = similarity.CountChars(rs)
		}
		w := similarity.Written(rs, [2]int{s.Start, s.End})
		n += w
		unseen += w - cc.In([2]int{s.Start, s.End})
	}
	return n, unseen
}
