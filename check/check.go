// Package check runs the whole pipeline for one document against the reference library:
//
//	file → paragraphs (extract) → normalised words and fingerprints (similarity) →
//	candidate source paragraphs (library index) → copied spans (alignment) → report
//
// Document is that story in one function. Paragraphs are independent once the library is open, so
// the fingerprint and alignment steps run on all cores; the library and the segmenter are shared
// read-only.
package check

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"thesischeck/extract"
	"thesischeck/internal/parallel"
	"thesischeck/library"
	"thesischeck/prepare"
	"thesischeck/report"
	"thesischeck/similarity"
)

// Stage names a step of a check, for progress display.
type Stage string

// The stages in order.
const (
	StageExtract     Stage = "extract"
	StageFingerprint Stage = "fingerprint"
	StageSearch      Stage = "search"
	StageAlign       Stage = "align"
)

// Progress is called as a check moves through its stages: done of total units of the stage. It is
// called from the checking goroutine, never concurrently.
type Progress func(stage Stage, done, total int)

// Options are the thresholds of a check. A nil *Options means the defaults.
type Options struct {
	MinRunChars       int  // shortest copied run that counts; 0 means 13 characters (CNKI's rule)
	MaxHamming        int  // SimHash distance for near-duplicate paragraphs; 0 means 3
	IncludeReferences bool // also check references and headings
	// IncludeFrontMatter also checks the front matter (extract.Paragraph.FrontMatter): the title page,
	// declarations, authorisations, signature and date lines, which every thesis of a school repeats.
	IncludeFrontMatter bool
	// TemplateShare is the share of library documents of the source's kind, theses or others (at
	// least 3), that must hold a passage for it to count as boilerplate; 0 means a quarter.
	TemplateShare float64
}

func (o *Options) withDefaults() Options {
	var v Options
	if o != nil {
		v = *o
	}
	if v.MinRunChars <= 0 {
		v.MinRunChars = similarity.DefaultAlign.MinChars
	}
	if v.MaxHamming <= 0 {
		v.MaxHamming = 3
	}
	if v.TemplateShare <= 0 {
		v.TemplateShare = 0.25
	}
	return v
}

// checks reports whether a paragraph is checked: what Counted leaves out, unless a switch includes
// it (front matter that is also a heading needs both).
func (o Options) checks(p extract.Paragraph) bool {
	if p.FrontMatter && !o.IncludeFrontMatter {
		return false
	}
	if (p.Heading || p.Section == extract.References) && !o.IncludeReferences {
		return false
	}
	return true
}

// CollectLess makes the garbage collector run less often (at 400 % of the live heap instead of
// 100 %) until the function it returns is called: the command line and the app call it around a
// check, the one long task of the process while it runs.
//
// Reading a PDF makes much short-lived garbage (over 200 MB of glyphs and lines for a 313-page
// thesis) over a small live heap: at the default 100 % the collector ran 30 times in its first
// 0.27 s. At 400 % while it reads, the check took 0.03 s less (six alternated runs), the peak
// 15 MB more. The matching is the same: candidates' paragraphs read, aligned and dropped over a
// live heap of 10-46 MB: the thesis's check against 100,000 documents collected 16 times with
// the reading alone at 400 %, 6 times at 400 % to the end of the check; wall and CPU ratios
// 0.959 and 0.955 (12 alternated pairs), 0.986 and 0.973 (16), 0.997 and 0.982 (14), at the
// machine's slow and fast minutes; peak RSS 783 -> 828 MB, most of it the library's mapped
// pages. As the app checks it (its whole jieba dictionary loaded, `benchgen -probe`), against the
// same library: the first check 1.09-1.21 s against 1.13-1.33 s at 100 %, the best of three after
// it 0.90 against 0.95 s (medians; paired ratios 0.962 and 0.945, six alternated runs), the
// process's own memory after them 316-411 MB against 217-223 MB, which the runtime gives back
// once the collector runs at 100 % again (402 MB, then 197 MB five seconds later).
func CollectLess() (restore func()) {
	gc := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(gc) }
}

// File checks the document at path against lib. progress may be nil.
func File(ctx context.Context, lib *library.Library, path string, opts *Options, progress Progress) (*report.Report, error) {
	doc, sha, err := Read(ctx, path, progress)
	if err != nil {
		return nil, err
	}
	return Document(ctx, lib, doc, sha, opts, progress)
}

// Read extracts the document at path and returns it with the SHA-256 of the file. Callers that
// open the library only for a readable file (it may wait for a lock) read first; File does both.
func Read(ctx context.Context, path string, progress Progress) (*extract.Document, string, error) {
	if progress == nil {
		progress = func(Stage, int, int) {}
	}
	progress(StageExtract, 0, 1)
	d, err := prepare.Read(ctx, path)
	if err != nil {
		return nil, "", err
	}
	progress(StageExtract, 1, 1)
	return d.Text, d.SHA256, nil
}

// needsJieba reports whether a paragraph of doc may hold Chinese (similarity.NeedsJieba).
func needsJieba(doc *extract.Document) bool {
	for _, p := range doc.Paragraphs {
		if similarity.NeedsJieba(p.Text) {
			return true
		}
	}
	return false
}

// ErrEmptyLibrary means the library holds no documents to check against (none, or only templates):
// a check would find nothing and report 0 %, which reads as a clean result. The error wrapping it
// names the library.
var ErrEmptyLibrary = errors.New("the library holds no documents")

type emptyLibraryError struct {
	dir       string
	templates int
}

func (e emptyLibraryError) Error() string {
	if e.templates > 0 {
		return fmt.Sprintf("the library %s holds only template documents (%d), which are never counted: add some with 'thesischeck library add'", e.dir, e.templates)
	}
	return fmt.Sprintf("the library %s holds no documents: add some with 'thesischeck library add'", e.dir)
}

func (e emptyLibraryError) Is(target error) bool { return target == ErrEmptyLibrary }

// EmptyLibrary returns an error wrapping ErrEmptyLibrary when a library in dir holding docs
// documents, templates of them templates, has nothing to check against; nil otherwise.
func EmptyLibrary(dir string, docs, templates int) error {
	if docs > templates {
		return nil
	}
	return emptyLibraryError{dir, templates}
}

// Document checks an extracted document. A library with nothing to check against is refused
// (ErrEmptyLibrary); damage the check finds in the library is an error wrapping
// library.ErrDamaged, never a source left out.
func Document(ctx context.Context, lib *library.Library, doc *extract.Document, sha string, opts *Options, progress Progress) (*report.Report, error) {
	res, err := Check(ctx, lib, doc, sha, opts, progress)
	if err != nil {
		return nil, err
	}
	return res.Report, nil
}

// Check is Document keeping what the check found, so that Result.With can leave sources out later
// without checking again.
func Check(ctx context.Context, lib *library.Library, doc *extract.Document, sha string, opts *Options, progress Progress) (*Result, error) {
	o := opts.withDefaults()
	if progress == nil {
		progress = func(Stage, int, int) {}
	}
	if docs, templates := lib.Counts(); EmptyLibrary(lib.Dir(), docs, templates) != nil {
		return nil, EmptyLibrary(lib.Dir(), docs, templates)
	}
	if err := lib.Damaged(); err != nil {
		return nil, err
	}
	doc = prepare.WithNotes(doc)
	// Pictures of text are looked for while the text is checked (extract.Document.TextPictures
	// decodes them on one core); the report is built after.
	done := make(chan error, 1)
	go func() { done <- doc.TextPictures(ctx) }()
	pictures := sync.OnceValue(func() error { return <-done })
	// A check that fails early still leaves doc alone when it returns.
	defer pictures()

	runs := fragmentRuns(doc.Paragraphs, o)
	// Fingerprints: normalise, segment, hash (with the library's word weights once it has learned
	// them, as its own fingerprints were made).
	weights, err := lib.Weights()
	if err != nil {
		return nil, err
	}
	prep := prepare.Extracted(doc, sha)
	taken := make([]atomic.Bool, len(prep.Prints))
	fingerprint := func(i int, seg *similarity.Segmenter) {
		if !taken[i].Swap(true) {
			prep.Fingerprint(i, seg, weights)
		}
	}
	// What the first queries would make (lib.Warm) is made while jieba loads the text dictionary
	// on one core, or from the start: the matching of the 313-page thesis against 100,000 documents
	// waited 26-29 ms for it on both cores.
	seg := similarity.Latin() // the same words for text without Chinese, without jieba's load
	var early sync.WaitGroup
	if !needsJieba(doc) {
		go lib.Warm()
	} else {
		// The app has loaded jieba's whole dictionary; a command-line check loads only the words
		// this document may hold (similarity.ForTexts: about 50 ms instead of 0.55-0.9 s), joined
		// fragments' too (a word may be cut between two).
		texts := make([]string, len(doc.Paragraphs), len(doc.Paragraphs)+len(runs))
		for i, p := range doc.Paragraphs {
			texts[i] = p.Text
		}
		for _, r := range runs {
			for _, t := range r.texts {
				texts = append(texts, t.text)
			}
		}
		// The paragraphs without Chinese need no jieba: they are fingerprinted with Latin's words
		// on the core that jieba's load leaves idle (7-10 ms for the thesis's text dictionary),
		// the first of them once Warm is done; the others take what is left after.
		early.Add(1)
		latin := func() {
			defer early.Done()
			lib.Warm()
			for i, p := range doc.Paragraphs {
				if !similarity.NeedsJieba(p.Text) {
					fingerprint(i, similarity.Latin())
				}
			}
		}
		if seg, err = similarity.ForTextsWhile(texts, latin); err != nil {
			return nil, err
		}
		defer seg.Close()
	}
	if err := parallel.For(ctx, len(prep.Prints), func(i int) {
		fingerprint(i, seg)
	}, func(done int) { progress(StageFingerprint, done, len(prep.Prints)) }); err != nil {
		return nil, err
	}
	early.Wait()
	paras := make([]paragraph, len(doc.Paragraphs))
	for i, p := range doc.Paragraphs {
		paras[i] = paragraph{src: p, checked: o.checks(p), prep: prep.Prints[i]}
		paras[i].filed = !paras[i].checked && utf8.RuneCountInString(p.Text) >= 2*o.MinRunChars
	}

	// Candidates and alignment, paragraph by paragraph.
	c := &checker{lib: lib, opt: o, align: similarity.DefaultAlign, sources: map[uint64]*sourceAcc{}, weights: weights}
	c.align.MinChars = o.MinRunChars
	c.kinds.docs, _ = lib.Stats()
	c.kinds.theses, c.kinds.known = lib.Theses()
	if c.kinds.known {
		c.kinds.docs -= c.kinds.theses
	}
	for _, k := range []*int{&c.kinds.docs, &c.kinds.theses} {
		c.templateDocs = append(c.templateDocs, max(3, int(float64(*k)*o.TemplateShare+0.999)))
	}
	progress(StageSearch, 0, len(paras))
	if err := parallel.For(ctx, len(paras), func(i int) {
		if paras[i].checked {
			paras[i].matches = c.matchParagraph(&paras[i])
			paras[i].words = seg.Wordiness(paras[i].text(), paras[i].prep.Tokens)
		} else if paras[i].filed {
			paras[i].matches = c.matchParagraph(&paras[i])
		}
	}, func(done int) { progress(StageAlign, done, len(paras)) }); err != nil {
		return nil, err
	}
	markGarbled(paras)
	if c.err != nil {
		return nil, c.err
	}
	if err := c.matchFragments(ctx, paras, runs, seg, weights); err != nil {
		return nil, err
	}
	c.continuations(paras)
	// A page of the index that failed its checksum answered nothing: the figures may miss a source.
	if err := lib.Damaged(); err != nil {
		return nil, err
	}
	docs, libParas := lib.Stats()
	libraryDone(ctx)
	if err := pictures(); err != nil {
		return nil, err
	}
	r := c.build(doc, sha, paras)
	r.Library.Documents, r.Library.Paragraphs = docs, libParas
	return &Result{Report: r, c: c, doc: doc, sha: sha, paras: paras}, nil
}

type paragraph struct {
	src     extract.Paragraph
	checked bool
	// filed: left out as a heading, an entry of the reference list or front matter, and long enough
	// to be matched all the same: what it copies from the running text of library documents is
	// counted (settle), as a heading, or a paragraph style that makes one, is all it takes to file
	// copied paragraphs there.
	filed   bool
	prep    similarity.Prepared
	matches []found
	words   similarity.Wordiness // of a checked paragraph
	garbled bool                 // reads as almost no words (similarity.GarbledTogether)
	// shares: the library holds one of its indexed word pairs at least (it had a candidate).
	shares bool
	// runes and pieces are the text as runes and its sentencePieces, made on first use: every
	// source aligned to the paragraph extends its runs to the same sentences, and making them
	// again for each (QuotedSpans' patterns) took a fifth of matchParagraph's time in the profile
	// of a 313-page thesis against 10,000 documents.
	runes  []rune
	pieces [][2]int
	grams  []uint32 // prep.Grams as a sorted set, made on first use, for GramJaccardSet
	// joined: a run of fragments read as one text (fragments.go), whose matches keep their seeds.
	joined bool
}

// markGarbled marks the checked paragraphs that read as almost no words, judged together.
func markGarbled(paras []paragraph) {
	var ws []similarity.Wordiness
	var at []int
	for i := range paras {
		if paras[i].checked {
			ws, at = append(ws, paras[i].words), append(at, i)
		}
	}
	for k, g := range similarity.GarbledTogether(ws) {
		paras[at[k]].garbled = g
	}
}

// text returns the paragraph's text as runes, shared: callers do not change it. A paragraph is
// matched by one goroutine, so text and sentences need no lock.
func (p *paragraph) text() []rune {
	if p.runes == nil {
		p.runes = []rune(p.src.Text)
	}
	return p.runes
}

// gramSet returns the paragraph's bigrams as similarity.SortedSet makes them.
func (p *paragraph) gramSet() []uint32 {
	if p.grams == nil {
		p.grams = similarity.SortedSet(slices.Clone(p.prep.Grams))
	}
	return p.grams
}

// sentences returns the paragraph's sentencePieces.
func (p *paragraph) sentences() [][2]int {
	if p.pieces == nil {
		p.pieces = sentencePieces(p.text())
	}
	return p.pieces
}

// found is one source paragraph aligned to a paragraph of the checked document.
type found struct {
	ref      library.ParaRef
	src      *library.Paragraph
	spans    [][2]int // runes of the checked paragraph
	srcSpans [][2]int // runes of the source paragraph
	// hamming and jaccard are the figures a report gives the match, made by figure when it needs
	// them (figured): most matches are left out of the report (another source holds the same
	// words), and making them for every match was a twentieth of the CPU of matching a 313-page
	// thesis against 100,000 documents. Until then hamming is the SimHash distance the index
	// stored, or -1 where there is none (the rest of a split paragraph).
	hamming  int
	jaccard  float64
	figured  bool
	template bool
	// other: from a library document that is no thesis, where the passage is not boilerplate
	// (kinds known); theses that share it do not make it boilerplate (settle).
	other bool
	// seeds: a joined run's alignment seeds as rune spans (seedSpans); fragment: the part of such
	// a match that one of the run's paragraphs holds (found.piece), runs the length of the joined
	// run each of its spans is part of (what a longer shortest match measures: longRuns).
	seeds    [][2][2]int
	fragment bool
	runs     []int
	// swaps: the characters that stand alone for others of the source inside the match's runs
	// (swaps.go), in a paragraph not joined; kept: the rune spans of the words it has as the
	// source has them.
	swaps []similarity.Swap
	kept  [][2]int
}

type checker struct {
	lib     *library.Library
	opt     Options
	align   similarity.AlignOptions
	weights func(hash uint32) float32 // the library's, or nil
	// kinds counts the library's theses and other documents (all of them, when the kinds are not
	// known); templateDocs is how many documents of each kind, others first, make boilerplate.
	kinds struct {
		docs, theses int
		known        bool
	}
	templateDocs []int

	mu      sync.Mutex
	sources map[uint64]*sourceAcc
	err     error
}

type sourceAcc struct {
	info library.DocInfo
	sig  similarity.Signature
}

// candidateLimit bounds the alignments per paragraph. minHits is one shared indexed gram: a copied
// sentence edited every few words keeps only one, and Align's run thresholds, not the candidate
// filter, are what keeps chance out (measured on the devset: partial recall 0.80 -> 0.90 on
// zh-thesis, precision unchanged).
//
// A long paragraph gets one more candidate for every candidateWords of its words (past twelve
// times that: a Chinese paragraph of about 530 characters, an English one of 1,100): it can copy
// as many source paragraphs, or sentences of different ones, as it can hold. Copied paragraphs
// joined by Word's manual line breaks (Shift+Enter: on the page the same paragraphs) instead of
// paragraph marks, or a text with no breaks at all (cut into pieces of 4,000 characters by
// extract), read 59.8 % and 56.4 % for 100 %, twelve sources a piece; a paragraph of the first
// sentences of 30 library paragraphs 57.6 %.
const (
	candidateLimit = 12
	candidateWords = 16
	minHits        = 1
)

func (c *checker) matchParagraph(p *paragraph) []found {
	limit := max(candidateLimit, len(p.prep.Tokens)/candidateWords)
	cands := c.lib.Candidates(p.prep.Grams, p.prep.SimHash, c.opt.MaxHamming, minHits, limit)
	p.shares = len(cands) > 0
	if !p.shares {
		return nil
	}
	refs := make([]library.ParaRef, len(cands))
	for i, cand := range cands {
		refs[i] = cand.ParaRef
	}
	srcs, err := c.lib.ParagraphsAt(refs)
	if err != nil {
		c.fail(err)
		return nil
	}
	var out []found
	for i, cand := range cands {
		sp := &srcs[i]
		srcGrams := similarity.Grams(sp.Tokens)
		al := similarity.AlignGrams(p.prep.Tokens, sp.Tokens, p.prep.Grams, srcGrams, c.align)
		if len(al.A) == 0 {
			continue
		}
		if !c.convincing(p.text(), sp.Text, p.prep.Tokens, sp.Tokens, al) {
			continue
		}
		// A copy: the found keep their sources, not the others read with them.
		src := *sp
		f := found{
			ref:      cand.ParaRef,
			src:      &src,
			spans:    extendToSentences(p.text(), p.sentences(), similarity.RuneSpans(p.prep.Tokens, al.A)),
			srcSpans: similarity.RuneSpans(sp.Tokens, al.B),
			hamming:  cand.Hamming,
		}
		if p.joined {
			f.seeds = seedSpans(p.prep.Tokens, sp.Tokens, al)
		} else {
			f.swaps = swaps(p.text(), sp.Text, p.prep.Tokens, sp.Tokens, al)
			f.kept = keptSpans(p.prep.Tokens, al)
		}
		info, sig, err := c.lib.Doc(cand.Doc)
		if err != nil {
			c.fail(err)
			return nil
		}
		f.template = info.Template || c.lib.Boilerplate(srcGrams, c.templateDocs[b2i(info.Thesis)], info.Thesis) >= 0.5
		f.other = c.kinds.known && !info.Thesis && !f.template
		c.mu.Lock()
		if _, ok := c.sources[cand.Doc]; !ok {
			c.sources[cand.Doc] = &sourceAcc{info: info, sig: sig}
		}
		c.mu.Unlock()
		out = append(out, f)
	}
	return out
}

// figure makes f's figures against the paragraph p it was found in, once: the SimHash distance of
// the two paragraphs and the Jaccard similarity of their bigrams. With learned weights the
// source's fingerprint is made again with today's weights (its stored one used the counts of the
// day it was added), so that a verbatim copy shows 0.
func (c *checker) figure(p *paragraph, f *found) {
	if f.figured {
		return
	}
	switch {
	case c.weights != nil:
		f.hamming = similarity.Hamming(p.prep.SimHash, similarity.Reweight(slices.Clone(f.src.Tokens), c.weights))
	case f.hamming < 0:
		f.hamming = similarity.Hamming(p.prep.SimHash, similarity.SimHash(f.src.Tokens))
	}
	f.jaccard = similarity.GramJaccardSet(p.gramSet(), similarity.Grams(f.src.Tokens))
	f.figured = true
}

func (c *checker) fail(err error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.mu.Unlock()
}

// sortFound orders matches so that the longest copy claims the characters first.
func sortFound(fs []found) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].template != fs[j].template {
			return fs[i].template // boilerplate is settled first: it is never counted
		}
		return spanLen(fs[i].spans) > spanLen(fs[j].spans)
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func spanLen(s [][2]int) int {
	n := 0
	for _, r := range s {
		n += r[1] - r[0]
	}
	return n
}
