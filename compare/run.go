package compare

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"thesischeck/extract"
	"thesischeck/library"
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
	toks   []similarity.Token // words of the compared paragraphs, in order; common words marked Stop
	para   []int32            // paragraph of each word
	common []bool             // word inside common text
	grams  []uint32           // word bigrams of toks (similarity.Grams)
	wgrams []uint32           // winnowed grams, sorted, without the grams most of the class uses
	sig    similarity.Signature
	// shingles is the number of word 3-grams behind sig; a document without any is in no LSH band.
	shingles int
}

func run(ctx context.Context, paths []string, o settings, progress Progress) (*Result, error) {
	if progress == nil {
		progress = func(string, int, int) {}
	}
	seg, err := similarity.Default()
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	res := &Result{Created: time.Now().UTC().Truncate(time.Second), Threshold: o.Threshold, Pairs: []Pair{}, Common: []Common{}}
	docs, err := read(ctx, seg, paths, o, res, progress)
	if err != nil {
		return nil, err
	}
	progress(StageCandidates, 0, len(docs))
	tmpl, titles, err := templateGrams(o.Library)
	if err != nil {
		return nil, err
	}
	res.CommonDocuments = max(3, int(math.Ceil(float64(len(docs))*o.CommonShare)))
	markCommon(docs, tmpl, titles, res, o)
	cands := candidates(docs, o.Threshold)
	progress(StageCandidates, len(docs), len(docs))

	pairs := make([]Pair, len(cands))
	err = forEach(ctx, len(cands), func(i int) {
		pairs[i] = alignPair(docs[cands[i].a], docs[cands[i].b], res, o)
	}, func(done int) { progress(StageAlign, done, len(cands)) })
	if err != nil {
		return nil, err
	}
	for _, p := range pairs {
		if p.SharedChars > 0 {
			res.Pairs = append(res.Pairs, p)
		}
	}
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
	return res, nil
}

// read lists, extracts and segments the files; unreadable ones become documents with an Error.
func read(ctx context.Context, seg *similarity.Segmenter, paths []string, o settings, res *Result, progress Progress) ([]*doc, error) {
	files, bad := library.Files(paths)
	res.Documents = make([]Document, len(files), len(files)+len(bad))
	parsed := make([]*doc, len(files))
	progress(StageRead, 0, len(files))
	err := forEach(ctx, len(files), func(i int) {
		res.Documents[i], parsed[i] = readOne(ctx, seg, files[i], o)
		if parsed[i] != nil {
			parsed[i].idx = i
		}
	}, func(done int) { progress(StageRead, done, len(files)) })
	if err != nil {
		return nil, err
	}
	for _, b := range bad {
		res.Documents = append(res.Documents, Document{Path: b.Path, Title: b.Path, Error: fmt.Sprintf("compare %s: %v", b.Path, b.Err)})
	}
	var docs []*doc
	for _, d := range parsed {
		if d != nil {
			docs = append(docs, d)
		}
	}
	return docs, nil
}

func readOne(ctx context.Context, seg *similarity.Segmenter, path string, o settings) (Document, *doc) {
	ed, err := extract.FileContext(ctx, path)
	if err != nil {
		return Document{Path: path, Title: path, Error: err.Error()}, nil
	}
	out := Document{Path: path, Title: ed.Title, Paragraphs: make([]Paragraph, len(ed.Paragraphs))}
	d := &doc{}
	for i, p := range ed.Paragraphs {
		n := len([]rune(p.Text))
		out.Chars += n
		compared := o.IncludeReferences || p.Counted()
		out.Paragraphs[i] = Paragraph{Text: p.Text, Compared: compared}
		if !compared {
			continue
		}
		out.ComparedChars += n
		toks := seg.Tokens(similarity.Normalize(p.Text))
		d.toks = append(d.toks, toks...)
		for range toks {
			d.para = append(d.para, int32(i))
		}
	}
	d.common = make([]bool, len(d.toks))
	return out, d
}

// forEach runs f(0..n-1) on all cores and reports progress from the calling goroutine (at most every
// 50 ms, and once at the end). It stops handing out work when ctx is done.
func forEach(ctx context.Context, n int, f func(i int), progress func(done int)) error {
	var next atomic.Int64
	finished := make(chan struct{}, 64)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.NumCPU(), n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
				finished <- struct{}{}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(finished)
	}()
	done := 0
	var last time.Time
	for range finished {
		done++
		if done == n || time.Since(last) >= 50*time.Millisecond {
			progress(done)
			last = time.Now()
		}
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	return nil
}
