package library

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"thesischeck/prepare"
	"thesischeck/similarity"
)

// AddOptions configure AddFiles.
type AddOptions struct {
	Template bool // the files are templates: their text is never counted as copying
}

// AddProgress reports the state of an import.
type AddProgress struct {
	Done, Total int
	Current     string
}

// FileError is a file that could not be added, with the reason.
type FileError struct {
	Path string
	Err  error
}

func (e FileError) Error() string { return e.Err.Error() }

// AddResult is what an import did.
type AddResult struct {
	Added      []DocInfo
	Duplicates []string // files whose content the library already holds
	Failed     []FileError
	Warned     []FileWarnings // files read with changes to their text (see prepare.Warning)
}

// FileWarnings are the changes extraction made to the text of one imported file.
type FileWarnings struct {
	Path     string
	Warnings []prepare.Warning
}

// Files lists the documents under paths: files as given, folders recursively (PDF, DOCX and TXT
// files only, hidden files skipped), in a stable order. Named pipes, devices and sockets are listed
// as errors, not documents: opening a pipe waits for a writer that may never come; so are documents
// of formats that are not read (prepare.Unreadable: a .doc, a .caj).
func Files(paths []string) ([]string, []FileError) {
	var out []string
	var bad []FileError
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			bad = append(bad, FileError{p, err})
			continue
		}
		if !st.IsDir() {
			if !st.Mode().IsRegular() {
				bad = append(bad, FileError{p, prepare.NotRegular(st.Mode())})
				continue
			}
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				bad = append(bad, FileError{path, err})
				return nil
			}
			name := d.Name()
			if strings.HasPrefix(name, ".") && path != p {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				return nil
			}
			if !prepare.Supported(name) {
				if err := prepare.Unreadable(name); err != nil {
					bad = append(bad, FileError{path, err})
				}
				return nil
			}
			if special := d.Type() &^ fs.ModeSymlink; special != 0 {
				bad = append(bad, FileError{path, prepare.NotRegular(special)})
				return nil
			}
			out = append(out, path)
			return nil
		})
		if err != nil { // the walk reports its errors to the function above, which goes on: none is expected
			bad = append(bad, FileError{p, err})
		}
	}
	return out, bad
}

// prepared is a document extracted and fingerprinted, ready to be written.
type prepared struct {
	path  string
	rec   docRecord
	paras []Paragraph
	fps   []fingerprint
	words []wordCount // how many paragraphs hold each word, for the library's word weights
	warns []prepare.Warning
	err   error
}

// winnowWindow is the winnowing window of the gram index: shared runs of five words or more are
// always found (see similarity.Winnow).
const winnowWindow = 4

// ImportHeapLimit is the soft heap limit (runtime/debug.SetMemoryLimit) a process that imports
// sets with LimitHeap. Without it the heap grew to twice the live data while large segments were
// merged: at 100,000 generated documents the import peaked at 1,464 MiB resident; with 768 MiB at
// 1,227-1,249 MiB; with 512 MiB (and a merge's gram keys and offsets spooled to disk, see
// writeGrams) at 978-1,000 MiB, its collector taking 23.5 s of CPU where it took 20.8 (pprof, of
// about 430 s). Later runs at 512 MiB peaked at 1,034-1,067 MiB (the pages of mapped files vary
// from run to run); at 448 MiB 963 MiB, at 384 MiB 928 MiB, in the same 259-261 s. Smaller
// imports never reach it: 10,000 documents peak under 400 MiB, as fast with 384 as with 512.
const ImportHeapLimit = 384 << 20

// LimitHeap sets ImportHeapLimit, unless GOMEMLIMIT says otherwise, and returns the function that
// puts the limit before it back. The limit is the process's: the command line and the app, which
// own theirs, call it around an import.
func LimitHeap() (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(ImportHeapLimit)
	return func() { debug.SetMemoryLimit(prev) }
}

// appendFill is the fill of the pages of the buckets keyed by document id, which an import only
// appends to: bbolt splits a full page in two halves by default (FillPercent 0.5), for keys that
// come in any order, and the ids' pages stayed half empty. At 100,000 documents the docs bucket
// took 195 MiB of pages for 114 MiB of values, ploc 43 MiB for 19.
const appendFill = 0.95

// appendOnly sets appendFill on the buckets keyed by document id for the write transaction tx.
func appendOnly(tx *bolt.Tx) {
	for _, b := range [][]byte{bucketDocs, bucketLoc, bucketFP, bucketTheses} {
		tx.Bucket(b).FillPercent = appendFill
	}
}

// lookahead is how many documents may be read and fingerprinted ahead of the one being written:
// enough to keep the workers busy through a batch commit, few enough to bound an import's memory.
const lookahead = 256

// AddFiles adds files, and folders recursively. Files are extracted and fingerprinted on all cores;
// documents are committed in batches. A file that fails is listed in the result and the rest still
// go in. progress may be nil; it is called from the calling goroutine.
func (l *folder) AddFiles(ctx context.Context, paths []string, opts AddOptions, progress func(AddProgress)) (res AddResult, err error) {
	if l.readOnly {
		_, bad := Files(paths)
		return AddResult{Failed: bad}, fmt.Errorf("library %s: opened read-only", l.dir)
	}
	l.writeMu.Lock()
	defer l.writeMu.Unlock()
	// Whatever way the import ends, what it committed goes into an index segment; if that fails,
	// the documents are safe and the next Open indexes them again. An import that made a quarter
	// of the library or more leaves its index in one segment: every query looks each gram up in
	// each segment, and a 313-page thesis against 100,000 documents in the three segments their
	// import left took 1.17-1.45 s (median 1.20), in one 1.12-1.18 s (1.13), five alternated runs.
	// The merge is a rewrite of the index (3.2 s; the import 115.0 s with it, 111.7 s without, peak
	// 936 and 942 MiB). Small imports leave the merging to writeSegments, which keeps each
	// posting's rewriting to O(log n).
	defer func() {
		if ferr := l.flush(); ferr != nil && err == nil {
			err = ferr
		}
		paras := 0
		for _, d := range res.Added {
			paras += d.Paragraphs
		}
		if _, total := l.Stats(); err == nil && paras > 0 && 4*paras >= total {
			if _, merr := l.mergeAll(true); merr != nil {
				err = fmt.Errorf("library %s: index: %w", l.dir, merr)
			}
		}
	}()
	return importFiles(ctx, paths, opts, progress, l.batchSize, l.Weights, func(batch []prepared) ([]DocInfo, []string, error) {
		added, dups, err := l.write(batch)
		if err != nil {
			return nil, nil, err
		}
		// A segment is written in the background while the import goes on; should the in-memory
		// part grow to twice the size meanwhile, the import waits for it (that bounds its memory).
		if n := l.memDocs(); n >= l.flushDocs && (!l.flushing() || n >= 2*l.flushDocs) {
			return added, dups, l.startFlush()
		}
		return added, dups, nil
	})
}

// importFiles is the import both kinds of library share: the files under paths are prepared on all
// cores (see prepare) with the library's word weights, in order, and handed to write in batches of
// batchSize; write commits them and says which were added and which the library already held.
func importFiles(ctx context.Context, paths []string, opts AddOptions, progress func(AddProgress), batchSize int,
	weights func() (func(uint32) float32, error), write func([]prepared) (added []DocInfo, dups []string, err error)) (res AddResult, err error) {
	files, bad := Files(paths)
	res.Failed = append(res.Failed, bad...)
	if progress == nil {
		progress = func(AddProgress) {}
	}
	progress(AddProgress{Total: len(files)})
	seg, err := similarity.Default()
	if err != nil {
		return res, err
	}
	if _, err := weights(); err != nil {
		return res, err
	}

	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out, window := prepareAhead(wctx, files, opts, seg, weights)

	var batch []prepared
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		added, dups, err := write(batch)
		res.Added = append(res.Added, added...)
		res.Duplicates = append(res.Duplicates, dups...)
		batch = batch[:0]
		return err
	}
	for i := range files {
		var p prepared
		select {
		case p = <-out[i]:
		case <-ctx.Done():
			if err := flush(); err != nil {
				return res, err
			}
			return res, ctx.Err()
		}
		if p.err != nil {
			if ctx.Err() != nil {
				if ferr := flush(); ferr != nil {
					return res, errors.Join(ctx.Err(), ferr)
				}
				return res, ctx.Err()
			}
			res.Failed = append(res.Failed, FileError{p.path, p.err})
		} else {
			if len(p.warns) > 0 {
				res.Warned = append(res.Warned, FileWarnings{p.path, p.warns})
			}
			batch = append(batch, p)
			if len(batch) >= batchSize {
				if err := flush(); err != nil {
					return res, err
				}
			}
		}
		<-window
		progress(AddProgress{Done: i + 1, Total: len(files), Current: files[i]})
	}
	if err := flush(); err != nil {
		return res, err
	}
	return res, nil
}

// prepareAhead prepares files on all cores, at most lookahead documents ahead of the writer, which
// takes document i from out[i] and then frees its place with <-window. Each worker takes a place
// and then the next file itself: a goroutine handing out the files waited for a core behind the
// busy workers, which then waited for it (1.8 s of each worker's 23.5 s importing 10,000
// documents, go tool trace).
func prepareAhead(ctx context.Context, files []string, opts AddOptions, seg *similarity.Segmenter, weights func() (func(uint32) float32, error)) (out []chan prepared, window chan struct{}) {
	out = make([]chan prepared, len(files))
	for i := range out {
		out[i] = make(chan prepared, 1)
	}
	// Prepared documents wait in out until the writer takes them; while it merges index segments
	// (seconds, in a large library) the workers would otherwise fill memory with a thousand of them.
	window = make(chan struct{}, lookahead)
	var next atomic.Int64
	for w := 0; w < runtime.NumCPU(); w++ {
		go func() {
			for {
				select {
				case window <- struct{}{}:
				case <-ctx.Done():
					return
				}
				i := int(next.Add(1)) - 1
				if i >= len(files) {
					return
				}
				w, _ := weights() // checked by importFiles: loaded once, it fails no more
				out[i] <- prepareFile(ctx, files[i], opts, seg, w)
			}
		}()
	}
	return out, window
}

// prepareFile reads and fingerprints one file (package prepare) and makes its records.
func prepareFile(ctx context.Context, path string, opts AddOptions, seg *similarity.Segmenter, weights func(uint32) float32) prepared {
	p := prepared{path: path}
	d, err := prepare.Read(ctx, path)
	if err != nil {
		p.err = err
		return p
	}
	// Footnotes and endnotes as paragraphs after the last, as a check reads them: a thesis that
	// copies another's notes is found as one that copies its body.
	if withNotes := prepare.WithNotes(d.Text); withNotes != d.Text {
		d = prepare.Extracted(withNotes, d.SHA256)
	}
	d.FingerprintAll(seg, weights)
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	doc := d.Text
	p.rec = docRecord{DocInfo: DocInfo{Path: abs, Title: doc.Title, Template: opts.Template, Thesis: doc.Thesis}, SHA256: d.SHA256}
	p.warns = doc.Warnings
	n := 0
	for _, pr := range d.Prints {
		n += similarity.NumShingles(pr.Tokens)
	}
	// One array for the document's shingles: grown paragraph by paragraph, it was 7 % of the bytes
	// an import allocated.
	shingles := make([]uint32, 0, n)
	p.paras = make([]Paragraph, 0, len(doc.Paragraphs))
	p.fps = make([]fingerprint, 0, len(doc.Paragraphs))
	for i, ep := range doc.Paragraphs {
		pr := d.Prints[i]
		p.paras = append(p.paras, Paragraph{Text: ep.Text, Section: string(ep.Section), Chapter: ep.Chapter, Page: ep.Page, Heading: ep.Heading, Tokens: pr.Tokens})
		p.fps = append(p.fps, fingerprint{SimHash: pr.SimHash, Grams: similarity.Winnow(pr.Grams, winnowWindow)})
		shingles = similarity.AppendShingles(shingles, pr.Tokens)
		p.rec.Chars += pr.Runes
	}
	sig := similarity.MinHash(shingles)
	p.rec.Signature = sig[:]
	p.words = docWords(p.paras)
	p.rec.Paragraphs = len(p.paras)
	return p
}

// write commits a batch in one transaction and adds it to the index. The documents go to the store
// first, framed with their records and synced, so that the transaction only records where they are.
func (l *folder) write(batch []prepared) (added []DocInfo, dups []string, err error) {
	fresh, dups, next, err := l.fresh(batch)
	if err != nil || len(fresh) == 0 {
		if err != nil {
			err = fmt.Errorf("library %s: write: %w", l.dir, err)
		}
		return nil, dups, err
	}
	// Only this writer gives ids (writeMu is held): the ids read above are the ones the
	// transaction below records.
	recs := make([]docRecord, len(fresh))
	jsons := make([][]byte, len(fresh))
	docs := make([]storeDoc, len(fresh))
	now := time.Now().UTC().Truncate(time.Second)
	templates := 0
	for i, p := range fresh {
		recs[i] = p.rec
		recs[i].ID, recs[i].Added = next+uint64(i), now
		if jsons[i], err = json.Marshal(recs[i]); err != nil {
			return nil, nil, err
		}
		docs[i] = storeDoc{id: recs[i].ID, rec: jsons[i], paras: p.paras}
		if recs[i].Template {
			templates++
		}
	}
	locs, end, err := l.paras.appendDocs(docs)
	if err != nil {
		return nil, nil, fmt.Errorf("library %s: write: %w", l.dir, err)
	}
	delta, dparas := map[uint32]int{}, 0
	// The index lock is held from before the commit until the index has the documents, so that
	// List never sees the records without the index (it takes the lock around its reading).
	l.mu.Lock()
	err = l.update(func(tx *bolt.Tx) error {
		appendOnly(tx)
		for i, p := range fresh {
			key := idKey(recs[i].ID)
			if err := errors.Join(l.rec.put(tx, bucketDocs, key, jsons[i]), l.rec.put(tx, bucketSHA, []byte(recs[i].SHA256), key),
				l.rec.put(tx, bucketLoc, key, locs[i].encode()), l.rec.put(tx, bucketFP, key, encodeSimHashes(p.fps))); err != nil {
				return err
			}
			if recs[i].Thesis {
				if err := l.rec.put(tx, bucketTheses, key, nil); err != nil {
					return err
				}
			}
		}
		if err := l.paras.putMeta(tx, l.rec, end, l.paras.dead); err != nil {
			return err
		}
		if err := l.addCounts(tx, len(fresh), templates); err != nil {
			return err
		}
		return l.rec.put(tx, bucketMeta, keyNext, binary.BigEndian.AppendUint64(nil, next+uint64(len(fresh))))
	})
	if err != nil {
		l.mu.Unlock()
		return nil, nil, fmt.Errorf("library %s: write: %w", l.dir, err)
	}
	l.paras.end = end
	for i, p := range fresh {
		var sig similarity.Signature
		copy(sig[:], recs[i].Signature)
		l.idx.add(recs[i].ID, sig, p.fps)
		if recs[i].Thesis {
			l.theses[recs[i].ID] = true
		}
	}
	l.docs += len(fresh)
	l.templates += templates
	l.mu.Unlock()
	for _, p := range fresh {
		for _, c := range p.words {
			delta[c.hash] += int(c.n)
		}
		dparas += len(p.paras)
	}
	l.applyWords(delta, dparas)
	l.clearBoilerplate()
	l.cacheMu.Lock()
	for _, r := range recs {
		l.cacheInfo(r.info())
		added = append(added, r.info())
	}
	l.cacheMu.Unlock()
	return added, dups, nil
}

// fresh leaves out of batch the documents the library or the batch already holds (by SHA-256), and
// reads the id the first fresh one will have.
func (l *folder) fresh(batch []prepared) (fresh []prepared, dups []string, next uint64, err error) {
	fresh = make([]prepared, 0, len(batch))
	err = l.view(func(tx *bolt.Tx) error {
		seen := map[string]bool{}
		for _, p := range batch {
			if seen[p.rec.SHA256] || tx.Bucket(bucketSHA).Get([]byte(p.rec.SHA256)) != nil {
				dups = append(dups, p.path)
				continue
			}
			seen[p.rec.SHA256] = true
			fresh = append(fresh, p)
		}
		var err error
		next, err = l.rec.next(tx)
		return err
	})
	return fresh, dups, next, err
}

// addCounts changes the counts of documents and templates in meta by docs and templates.
func (l *folder) addCounts(tx *bolt.Tx, docs, templates int) error {
	n, err := l.rec.count(tx, keyDocCount)
	if err != nil {
		return err
	}
	t, err := l.rec.count(tx, keyTemplateCount)
	if err != nil {
		return err
	}
	return errors.Join(l.rec.putCount(tx, keyDocCount, uint64(max(0, int(n)+docs))), l.rec.putCount(tx, keyTemplateCount, uint64(max(0, int(t)+templates))))
}
