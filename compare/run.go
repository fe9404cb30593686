package compare

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"thesischeck/extract"
	"thesischeck/internal/parallel"
	"thesischeck/internal/written"
	"thesischeck/library"
	"thesischeck/prepare"
	"thesischeck/similarity"
)

// maxRepeats bounds the seeds of one word bigram when two whole documents are aligned (see
// similarity.AlignOptions): a bigram used more often than this in one essay is a topic word pair, and
// the words around it seed the copy anyway.
const maxRepeats = 16

// settings are Options with the defaults filled in, and what follows from them.
type settings struct {
	Options
	align similarity.AlignOptions
}

func (o *Options) withDefaults() settings {
	var s settings
	if o != nil {
		s.Options = *o
	}
	if s.Threshold <= 0 {
		s.Threshold = DefaultThreshold
	}
	if s.CommonShare <= 0 {
		s.CommonShare = 0.5
	}
	s.align = similarity.DefaultAlign
	s.align.MaxRepeats = maxRepeats
	if s.MinRunChars > 0 {
		s.align.MinChars = s.MinRunChars
	}
	return s
}

// doc is a readable document as the comparison sees it: the words of its compared paragraphs as one
// stream, so that a copied passage that runs over a paragraph break, or was moved to another
// paragraph, aligns as it is.
type doc struct {
	idx    int                // index into Result.Documents
	old    bool               // an earlier year's submission
	toks   []similarity.Token // words of the compared paragraphs, in order; common words marked Stop
	para   []int32            // paragraph of each word
	common []bool             // word inside common text
	grams  []uint32           // word bigrams of toks (similarity.Grams)
	wgrams []uint32           // winnowed runs of runWords words (runGrams), sorted
	sig    similarity.Signature
	// shingles is the number of word 3-grams behind sig; a document without any is in no LSH band.
	shingles int
	// filed are the paragraphs left out (headings, reference entries, front matter) long enough to
	// be looked at all the same: what one copies from another document's compared text counts in
	// their pair (filed.go). They are not in toks.
	filed []filedPara
	// extra is the characters of filed paragraphs put into toks for one pair's alignment.
	extra int
	// words is the share of the Han characters of its compared paragraphs that dictionary words
	// hold (similarity.Wordiness), -1 when it holds no Han characters or was not read here.
	words float64
}

func run(ctx context.Context, paths []string, o settings, progress Progress) (*Result, error) {
	if progress == nil {
		progress = func(Stage, int, int) {}
	}
	res := &Result{Created: time.Now().UTC().Truncate(time.Second), Threshold: o.Threshold, Pairs: []Pair{}, Common: []Common{}}
	docs, err := read(ctx, paths, o, res, progress)
	if err != nil {
		return nil, err
	}
	progress(StageCandidates, 0, len(docs))
	tmpl, titles, err := templateGrams(o.Library)
	if err != nil {
		return nil, err
	}
	res.CommonDocuments = commonDocuments(newDocs(docs), o.CommonShare)
	if err := markCommon(ctx, docs, tmpl, titles, res, o); err != nil {
		return nil, err
	}
	idx, docRuns := gramRuns(docs)
	cands, err := candidates(ctx, docs, o.Threshold, res.CommonDocuments, idx, docRuns)
	if err != nil {
		return nil, err
	}
	progress(StageCandidates, len(docs), len(docs))

	pairs := make([]Pair, len(cands))
	err = forEach(ctx, len(cands), func(i int) {
		pairs[i] = alignPair(docs[cands[i].a], docs[cands[i].b], res, o)
	}, func(done int) { progress(StageAlign, done, len(cands)) })
	if err != nil {
		return nil, err
	}
	if pairs, err = reclaimFiled(ctx, docs, pairs, res, o, idx); err != nil {
		return nil, err
	}
	swapped := make([]prepare.SwapTally, len(res.Documents))
	for _, p := range pairs {
		if p.SharedChars > 0 {
			res.Pairs = append(res.Pairs, p)
			for _, s := range p.swaps {
				swapped[s.doc].Add(s.s, s.para, 0)
			}
		}
	}
	swapWarnings(res, swapped)
	sort.SliceStable(res.Pairs, func(i, j int) bool {
		a, b := res.Pairs[i], res.Pairs[j]
		if a.Similarity != b.Similarity {
			return a.Similarity > b.Similarity
		}
		if a.A != b.A {
			return a.A < b.A
		}
		return a.B < b.B
	})
	res.Clusters = clusters(len(res.Documents), res.Pairs)
	return res, nil
}

// source is one document to read: a file, or a document of a library given as old submissions.
type source struct {
	path, name string
	old        bool
	lib        *library.Library
	id         uint64
}

// read lists, extracts and segments the documents, new ones first; unreadable ones become
// documents with an Error, reports ThesisCheck wrote documents Skipped. Documents come in the order
// of their sources, then the paths that could not be listed.
func read(ctx context.Context, paths []string, o settings, res *Result, progress Progress) ([]*doc, error) {
	var srcs []source
	var bad []library.FileError
	seen := map[string]bool{}
	addFiles := func(roots []string, old bool) {
		for _, root := range roots {
			files, b := library.Files([]string{root})
			bad = append(bad, b...)
			for _, f := range files {
				key := f
				if abs, err := filepath.Abs(f); err == nil {
					key = abs
				}
				if seen[key] {
					continue
				}
				seen[key] = true
				srcs = append(srcs, source{path: f, name: displayName(root, f), old: old})
			}
		}
	}
	addFiles(paths, false)
	var libs []*library.Library
	defer func() {
		for _, l := range libs {
			l.Close()
		}
	}()
	var oldFiles []string
	for _, p := range o.Old {
		if !isLibrary(p) {
			oldFiles = append(oldFiles, p)
			continue
		}
		lib, err := library.Open(p, &library.Options{ReadOnly: true})
		if err != nil {
			return nil, fmt.Errorf("compare: earlier submissions: %w", err)
		}
		libs = append(libs, lib)
		ls, err := librarySources(lib)
		if err != nil {
			return nil, fmt.Errorf("compare: earlier submissions: %w", err)
		}
		srcs = append(srcs, ls...)
	}
	addFiles(oldFiles, true)
	if o.OldLibrary != nil {
		ls, err := librarySources(o.OldLibrary)
		if err != nil {
			return nil, fmt.Errorf("compare: earlier submissions: %w", err)
		}
		srcs = append(srcs, ls...)
	}

	res.Documents = make([]Document, len(srcs), len(srcs)+len(bad))
	parsed := make([]*doc, len(srcs))
	progress(StageRead, 0, len(srcs))
	var err error
	if len(srcs) <= smallComparison {
		err = readSmall(ctx, srcs, o, res, parsed, progress)
	} else {
		err = readEach(ctx, srcs, o, res, parsed, progress)
	}
	if err != nil {
		return nil, err
	}
	for i, src := range srcs {
		res.Documents[i].Name, res.Documents[i].Old = src.name, src.old
		if parsed[i] != nil {
			parsed[i].idx, parsed[i].old = i, src.old
		}
	}
	for _, b := range bad {
		err := fmt.Errorf("compare %s: %w", b.Path, b.Err)
		res.Documents = append(res.Documents, Document{Path: b.Path, Name: filepath.Base(b.Path), Title: b.Path,
			Error: err.Error(), err: err, Paragraphs: []Paragraph{}})
	}
	var docs []*doc
	for _, d := range parsed {
		if d != nil {
			docs = append(docs, d)
		}
	}
	return docs, nil
}

// isLibrary says whether dir is a ThesisCheck library (a folder of its own, or on a Redis server)
// rather than a folder of files.
func isLibrary(dir string) bool {
	if library.IsRemote(dir) {
		return true
	}
	st, err := os.Stat(filepath.Join(dir, "library.db"))
	return err == nil && st.Mode().IsRegular()
}

// librarySources are the documents of lib that are not templates, as old submissions. A damaged
// library is an error: an earlier submission left out in silence could hide a copy.
func librarySources(lib *library.Library) ([]source, error) {
	docs, err := lib.List()
	if err != nil {
		return nil, err
	}
	var out []source
	for _, info := range docs {
		if info.Damaged != "" {
			return nil, fmt.Errorf("library %s: document %d: %s: %w", lib.Dir(), info.ID, info.Damaged, library.ErrDamaged)
		}
		if !info.Template {
			out = append(out, source{path: info.Path, name: filepath.Base(info.Path), old: true, lib: lib, id: info.ID})
		}
	}
	return out, nil
}

// displayName is a file's path below the folder root it was found in, or its name when root is the
// file itself.
func displayName(root, file string) string {
	if rel, err := filepath.Rel(root, file); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.Base(file)
}

// smallComparison is the most documents read whole before any is segmented, with a segmenter made
// for their texts (similarity.ForTexts): `thesischeck compare` of two short Chinese documents took
// 0.52-0.72 s loading jieba's whole dictionary, 0.10 s so. A larger comparison segments each
// document as it is read, with the whole dictionary, which a class's many texts need most of.
const smallComparison = 8

// readSmall reads all of srcs, then segments them with a segmenter made for their texts.
func readSmall(ctx context.Context, srcs []source, o settings, res *Result, parsed []*doc, progress Progress) error {
	loads := make([]loaded, len(srcs))
	err := forEach(ctx, len(srcs), func(i int) {
		loads[i] = load(ctx, srcs[i], o)
	}, func(done int) { progress(StageRead, done, len(srcs)) })
	if err != nil {
		return err
	}
	var texts []string
	for _, l := range loads {
		texts = append(texts, l.jiebaTexts()...)
	}
	seg := similarity.Latin()
	if len(texts) > 0 {
		if seg, err = similarity.ForTexts(texts); err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		defer seg.Close()
	}
	// On all cores, as readEach segments (a check segments with a ForTexts segmenter so too).
	return forEach(ctx, len(loads), func(i int) {
		res.Documents[i], parsed[i] = loads[i].segment(seg, srcs[i])
	}, func(int) {})
}

// readEach reads and segments each of srcs in turn, on all cores. jieba's whole dictionary is loaded
// when a document first needs it; a comparison of texts without Chinese never loads it.
func readEach(ctx context.Context, srcs []source, o settings, res *Result, parsed []*doc, progress Progress) error {
	var mu sync.Mutex
	var segErr error
	err := forEach(ctx, len(srcs), func(i int) {
		l := load(ctx, srcs[i], o)
		seg := similarity.Latin()
		if len(l.jiebaTexts()) > 0 {
			var err error
			if seg, err = similarity.Default(); err != nil {
				mu.Lock()
				segErr = err
				mu.Unlock()
				return
			}
		}
		res.Documents[i], parsed[i] = l.segment(seg, srcs[i])
	}, func(done int) { progress(StageRead, done, len(srcs)) })
	if err != nil {
		return err
	}
	if segErr != nil {
		return fmt.Errorf("compare: %w", segErr)
	}
	return nil
}

// paragraph is what a comparison needs of a paragraph, from a file or from a library.
type paragraph struct {
	text     string
	compared bool
	counted  bool               // body text, not a heading or a title page's line (whose spacing is typography)
	toks     []similarity.Token // nil: segment text
	page     int
}

// loaded is a source read: its title and paragraphs, or the document that says why it is not
// compared (fail).
type loaded struct {
	title    string
	paras    []paragraph
	warnings []extract.Warning // what extraction changed or left out (hidden text, …)
	fail     *Document
}

// load reads one source's paragraphs: a file's extracted, a library document's stored with their
// words.
func load(ctx context.Context, src source, o settings) loaded {
	if src.lib != nil {
		stored, err := src.lib.Paragraphs(src.id)
		if err != nil {
			return loaded{fail: &Document{Path: src.path, Title: src.path, Error: err.Error(), err: err, Paragraphs: []Paragraph{}}}
		}
		l := loaded{title: src.name}
		for _, p := range stored {
			ep := extract.Paragraph{Text: p.Text, Section: extract.Section(p.Section), Heading: p.Heading}
			l.paras = append(l.paras, paragraph{text: p.Text, compared: o.IncludeReferences || ep.Counted(), counted: ep.Counted(), toks: p.Tokens})
		}
		return l
	}
	if kind := written.File(src.path); kind != written.None {
		return loaded{fail: &Document{Path: src.path, Title: src.path, Paragraphs: []Paragraph{},
			Skipped: fmt.Sprintf("a %s ThesisCheck wrote, not a submission", kind)}}
	}
	ed, err := extract.FileContext(ctx, src.path)
	if err != nil {
		return loaded{fail: &Document{Path: src.path, Title: src.path, Error: err.Error(), err: err, Paragraphs: []Paragraph{}}}
	}
	// Its pictures are not looked at for text (extract.Document.TextPictures): half a second of a
	// thesis with figures, for each of a class's hundreds; a check of one submission does. A scan's
	// text layer is compared with its pictures: it is what is compared with the others, and a
	// layer of other text than the pages show made a copy read as a student's own.
	if err := ed.ScannedLayers(ctx); err != nil {
		return loaded{fail: &Document{Path: src.path, Title: src.path, Error: err.Error(), err: err, Paragraphs: []Paragraph{}}}
	}
	ed = prepare.WithNotes(ed)
	l := loaded{title: ed.Title, warnings: ed.Warnings}
	for _, p := range ed.Paragraphs {
		l.paras = append(l.paras, paragraph{text: p.Text, compared: o.IncludeReferences || p.Counted(), counted: p.Counted(), page: p.Page})
	}
	return l
}

// jiebaTexts are the texts of the paragraphs to segment that only jieba can cut.
func (l loaded) jiebaTexts() []string {
	var out []string
	for _, p := range l.paras {
		if (p.compared || p.filed()) && p.toks == nil && similarity.NeedsJieba(p.text) {
			out = append(out, p.text)
		}
	}
	return out
}

// segment makes the document of src from its paragraphs, segmenting with seg those read without
// their words.
func (l loaded) segment(seg *similarity.Segmenter, src source) (Document, *doc) {
	if l.fail != nil {
		return *l.fail, nil
	}
	ps := l.paras
	out := Document{Path: src.path, Title: l.title, Paragraphs: make([]Paragraph, len(ps))}
	// Each paragraph's words first, then the stream in one allocation: appending to it grew it by
	// doubling, garbage as large as the class's words.
	words := make([][]similarity.Token, len(ps))
	total := 0
	var dodges similarity.Dodges // in the text read from a file, as a check counts them
	han := 0
	var garbled, judged []prepare.Garbled
	var wordiness []similarity.Wordiness
	var filed []filedPara
	for i, p := range ps {
		n := similarity.CountString(p.text)
		out.Chars += n
		out.Paragraphs[i] = Paragraph{Text: p.text, LeftOut: !p.compared}
		if !p.compared {
			if p.filed() {
				toks := p.toks
				if toks == nil {
					toks = seg.UnweightedTokens(similarity.Normalize(p.text))
				}
				filed = append(filed, filedPara{para: i, toks: toks, grams: similarity.Grams(toks), chars: n})
			}
			continue
		}
		out.ComparedChars += n
		words[i] = p.toks
		if words[i] == nil {
			norm := similarity.Normalize(p.text)
			if !p.counted {
				norm.SpacedCJK, norm.SpacedLetters = 0, 0
			}
			words[i] = seg.UnweightedTokens(norm)
			norm.CountMarksInWords(words[i])
			dodges.Add(norm.Dodges)
			han += similarity.HanCount(p.text)
			wordiness = append(wordiness, seg.Wordiness([]rune(p.text), words[i]))
			judged = append(judged, prepare.Garbled{Index: i, Chars: n, Page: p.page})
		}
		total += len(words[i])
	}
	for k, g := range similarity.GarbledTogether(wordiness) {
		if g {
			garbled = append(garbled, judged[k])
		}
	}
	out.Warnings = append(slices.Clone(l.warnings), prepare.DodgeWarnings(dodges, han, out.Chars)...)
	out.Warnings = append(out.Warnings, prepare.GarbledWarning(garbled)...)
	d := &doc{toks: make([]similarity.Token, 0, total), para: make([]int32, 0, total)}
	for i, toks := range words {
		d.toks = append(d.toks, toks...)
		for range toks {
			d.para = append(d.para, int32(i))
		}
	}
	d.common = make([]bool, len(d.toks))
	d.filed = filed
	d.words = -1
	han, inWords := 0, 0
	for _, w := range wordiness {
		han, inWords = han+w.Han, inWords+w.HanInWords
	}
	if han > 0 {
		d.words = float64(inWords) / float64(han)
	}
	return out, d
}

// forEach is parallel.For with the error of a comparison.
func forEach(ctx context.Context, n int, f func(i int), progress func(done int)) error {
	if err := parallel.For(ctx, n, f, progress); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	return nil
}

// commonMinDocs is how many documents must hold a passage for it to be common in a class of
// commonMinDocs or more (in a smaller class, all of them), whatever the share asked for. Half of a
// class of five is three: three students who passed four paragraphs between them read "0 pairs
// share text" (the paragraphs left out as common), and a prompt is in every document.
const commonMinDocs = 5

// commonDocuments is how many of a class's n new documents must hold a passage for it to be common.
func commonDocuments(n int, share float64) int {
	return max(3, int(math.Ceil(float64(n)*share)), min(n, commonMinDocs))
}

// swapWarnings adds the swapped warning of each document whose tally (from res.Pairs' swaps) makes
// one, its suspect characters counted where its pairs have them as they are, each place once.
func swapWarnings(res *Result, swapped []prepare.SwapTally) {
	suspects := make([]map[rune]bool, len(swapped))
	some := false
	for i := range swapped {
		suspects[i] = swapped[i].Suspects()
		some = some || suspects[i] != nil
	}
	if !some {
		return
	}
	spans := map[[2]int][][2]int{} // document, paragraph
	for _, p := range res.Pairs {
		for _, k := range p.kept {
			if suspects[k.doc] != nil {
				spans[[2]int{k.doc, k.para}] = append(spans[[2]int{k.doc, k.para}], k.span)
			}
		}
	}
	for at, ss := range spans {
		text := []rune(res.Documents[at[0]].Paragraphs[at[1]].Text)
		for _, s := range similarity.MergeSpans(ss, 0) {
			swapped[at[0]].Kept(at[1], text, s, suspects[at[0]])
		}
	}
	for i := range swapped {
		if w, ok := swapped[i].Warning(); ok {
			res.Documents[i].Warnings = append(res.Documents[i].Warnings, w)
		}
	}
}
