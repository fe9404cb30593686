package compare

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"unicode/utf8"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// A heading, a reference list's heading or an "[21]" is all it takes to file copied paragraphs where
// a comparison does not look (a check counts such copies: check's filed paragraphs). So the
// paragraphs left out that are long enough to hold a copy are read too, apart from the compared
// text: one that copies, for at least half of it, the compared text of another document counts in
// that pair, and the document is warned about. Reference lists two students share stay left out:
// a filed paragraph is only ever measured against compared text.

// filedRunes is the shortest left-out paragraph looked at: two of the check's shortest runs.
var filedRunes = 2 * similarity.DefaultAlign.MinChars

// filedPara is a left-out paragraph looked at for copies.
type filedPara struct {
	para  int // index into the document's paragraphs
	toks  []similarity.Token
	grams []uint32 // similarity.Grams(toks), aligned with each document that may hold the copy
	chars int
}

// filed reports whether a paragraph left out is looked at for copies all the same: one that reads
// as a reference entry by more than its label is not, as a class shares what it cites.
func (p paragraph) filed() bool {
	return !p.compared && utf8.RuneCountInString(p.text) >= filedRunes && !extract.ReferenceEntry(p.text)
}

// reclaim is a pair's filed paragraphs that copy the other document: indexes into doc.filed.
type reclaim struct {
	a, b   int // indexes into docs, a < b
	fa, fb []int
}

// reclaimFiled finds the filed paragraphs that copy another document's compared text, aligns each
// pair they belong to again with them, and warns their documents. pairs are the pairs found
// without them, in any order; the result holds every pair that shares text.
func reclaimFiled(ctx context.Context, docs []*doc, pairs []Pair, res *Result, o settings, idx runIndex) ([]Pair, error) {
	var mu sync.Mutex
	found := map[[2]int]*reclaim{}
	err := forEach(ctx, len(docs), func(a int) {
		for k, f := range docs[a].filed {
			for _, b := range idx.holders(f.toks, a, res.CommonDocuments) {
				if docs[a].old && docs[b].old {
					continue
				}
				if copiedChars(f, docs[b], res.Documents[docs[b].idx].Paragraphs, o) < max(filedRunes, (f.chars+1)/2) {
					continue
				}
				mu.Lock()
				key := [2]int{min(a, b), max(a, b)}
				r := found[key]
				if r == nil {
					r = &reclaim{a: key[0], b: key[1]}
					found[key] = r
				}
				if a == r.a {
					r.fa = append(r.fa, k)
				} else {
					r.fb = append(r.fb, k)
				}
				mu.Unlock()
			}
		}
	}, func(int) {})
	if err != nil || len(found) == 0 {
		return pairs, err
	}
	var todo []*reclaim
	for _, r := range found {
		todo = append(todo, r)
	}
	sort.Slice(todo, func(i, j int) bool { return todo[i].a < todo[j].a || todo[i].a == todo[j].a && todo[i].b < todo[j].b })
	again := make([]Pair, len(todo))
	err = forEach(ctx, len(todo), func(i int) {
		r := todo[i]
		again[i] = alignPair(docs[r.a].with(r.fa), docs[r.b].with(r.fb), res, o)
	}, func(int) {})
	if err != nil {
		return nil, err
	}
	byPair := map[[2]int]int{}
	for i, p := range pairs {
		byPair[[2]int{p.A, p.B}] = i
	}
	for _, p := range again {
		if i, ok := byPair[[2]int{p.A, p.B}]; ok {
			pairs[i] = p
		} else {
			pairs = append(pairs, p)
		}
	}
	// Each document's filed paragraphs counted in some pair.
	counted := map[int][]int{} // index into docs → indexes into its filed
	for _, r := range todo {
		for _, side := range []struct {
			d  int
			ks []int
		}{{r.a, r.fa}, {r.b, r.fb}} {
			if len(side.ks) > 0 {
				counted[side.d] = append(counted[side.d], side.ks...)
			}
		}
	}
	for a, ks := range counted {
		slices.Sort(ks)
		ks = slices.Compact(ks)
		d := docs[a]
		w := extract.Warning{Kind: extract.WarnFiled}
		for _, k := range ks {
			w.Count += d.filed[k].chars
			w.Paragraphs = append(w.Paragraphs, d.filed[k].para)
		}
		w.Message = fmt.Sprintf("%d characters filed as headings, reference entries or front matter copy the compared text of other documents: counted in their pairs", w.Count)
		res.Documents[d.idx].Warnings = append(res.Documents[d.idx].Warnings, w)
	}
	return pairs, nil
}

// copiedChars are the characters of f that alignment finds copied from d's compared running text:
// a reference list or a declaration that d's structure did not tell (a PDF's list read as body
// text) is compared text, and an entry two documents cite is no copy.
func copiedChars(f filedPara, d *doc, paras []Paragraph, o settings) int {
	al := similarity.AlignGrams(f.toks, d.toks, f.grams, d.grams, o.align)
	copied := make([]bool, len(f.toks))
	for _, c := range al.Pairs {
		if !extract.RunningProse(paras[d.para[c[1][0]]].Text) {
			continue
		}
		for k := c[0][0]; k < c[0][1]; k++ {
			copied[k] = true
		}
	}
	n := 0
	for k, t := range f.toks {
		if copied[k] {
			n += int(t.End - t.Start)
		}
	}
	return n
}

// with is d with its filed paragraphs ks put into the stream where they stand, for aligning one
// pair; d itself is not changed.
func (d *doc) with(ks []int) *doc {
	if len(ks) == 0 {
		return d
	}
	ks = slices.Clone(ks)
	slices.SortFunc(ks, func(x, y int) int { return d.filed[x].para - d.filed[y].para })
	out := *d
	out.toks = make([]similarity.Token, 0, len(d.toks))
	out.para = make([]int32, 0, len(d.toks))
	out.common = make([]bool, 0, len(d.toks))
	next := 0 // the next of ks to put in
	put := func(before int) {
		for ; next < len(ks) && d.filed[ks[next]].para < before; next++ {
			f := d.filed[ks[next]]
			out.toks = append(out.toks, f.toks...)
			for range f.toks {
				out.para = append(out.para, int32(f.para))
				out.common = append(out.common, false)
			}
			out.extra += f.chars
		}
	}
	for i, t := range d.toks {
		put(int(d.para[i]))
		out.toks = append(out.toks, t)
		out.para = append(out.para, d.para[i])
		out.common = append(out.common, d.common[i])
	}
	put(math.MaxInt)
	out.grams = similarity.Grams(out.toks)
	return &out
}

// runIndex finds the documents whose compared text holds a passage: the winnowed runs of every
// document (gramRuns), by run.
type runIndex struct {
	entries    []uint64 // gram<<32 | index into docs, sorted
	runs       []int32  // the start of each gram's entries, and len(entries) last
	newHolders []int32
}

// maxHolders bounds the documents a filed paragraph is aligned with: those sharing most of its runs.
const maxHolders = 8

// holders lists the documents other than self that share at least half of the winnowed runs of toks
// (and one), runs most of the class holds left out; at most maxHolders, those sharing most.
func (x runIndex) holders(toks []similarity.Token, self, commonDocs int) []int {
	grams := similarity.Winnow(runGrams(toks), winnowWindow)
	grams = slices.Compact(slices.Sorted(slices.Values(grams)))
	count := map[int]int{}
	for _, g := range grams {
		if g == 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(x.entries, g, func(e uint64, g uint32) int { return int(e>>32) - int(g) })
		if i >= len(x.entries) || uint32(x.entries[i]>>32) != g {
			continue
		}
		r, _ := slices.BinarySearch(x.runs, int32(i))
		if int(x.newHolders[r]) >= commonDocs {
			continue
		}
		for _, e := range x.entries[x.runs[r]:x.runs[r+1]] {
			if d := int(uint32(e)); d != self {
				count[d]++
			}
		}
	}
	need := max(1, (len(grams)+1)/2)
	var out []int
	for d, c := range count {
		if c >= need {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return count[out[i]] > count[out[j]] || count[out[i]] == count[out[j]] && out[i] < out[j]
	})
	if len(out) > maxHolders {
		out = out[:maxHolders]
	}
	return out
}
