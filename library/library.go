// Package library is the reference library: the documents a thesis is checked against, stored in
// one folder that survives crashes, with the indexes that find candidate sources without a scan.
//
// The on-disk format is described in format.go, the in-memory index in index.go.
package library

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// Library is an open reference library. It is safe for use by several goroutines.
type Library struct {
	dir      string
	db       *bolt.DB
	seg      *similarity.Segmenter
	readOnly bool

	writeMu sync.Mutex // one writer at a time: imports, removals, index segments

	flushDone chan struct{} // closed when the segment being written in the background is done
	flushErr  error         // that segment's error, read once flushDone is closed

	mu  sync.RWMutex
	idx *index

	storeMu sync.RWMutex // readers of paras against a compaction's swap
	paras   *paraStore

	cacheMu sync.Mutex
	cache   map[ParaRef]*Paragraph // recently aligned paragraphs
	infos   map[uint64]DocInfo     // descriptions of recently used documents

	// bp remembers Boilerplate's verdict on common grams (gram<<32 | minDocs → held by minDocs
	// documents), which a check asks about again and again; any change of the library clears it.
	bpMu sync.Mutex
	bp   map[uint64]bool

	theses     map[uint64]bool // ids of the documents that are theses (kinds.go); guarded by mu
	kindsKnown bool            // every document's kind is recorded

	minIDF  int          // Options.MinIDFParagraphs
	dfMu    sync.RWMutex // guards dft and pending
	dft     dfTable
	pending wordCounts // of documents after the df bucket's checkpoint (see idf.go)
}

// Options configure Open. A nil *Options means the defaults.
type Options struct {
	// ReadOnly opens the library for checks only; other read-only users may share it.
	ReadOnly bool
	// Timeout is how long Open waits for another process that holds the library. Zero means 3 s.
	Timeout time.Duration
	// MinIDFParagraphs is the size from which the library's own word frequencies weigh SimHashes
	// (see Weights). Zero means DefaultMinIDFParagraphs.
	MinIDFParagraphs int
}

// DocInfo describes one document of the library.
type DocInfo struct {
	ID         uint64    `json:"id"`
	Path       string    `json:"path"`
	Title      string    `json:"title"`
	Paragraphs int       `json:"paragraphs"`
	Chars      int       `json:"chars"`
	Added      time.Time `json:"added"`
	Template   bool      `json:"template,omitempty"`
	// Thesis: the document opens with a thesis's front matter (extract.Document.Thesis); see kinds.go.
	Thesis bool `json:"thesis,omitempty"`
}

type docRecord struct {
	DocInfo
	SHA256    string   `json:"sha256"`
	Signature []uint32 `json:"minhash"`
}

// Errors returned by Open.
var (
	// ErrLocked means another ThesisCheck process is using the library and did not let go in time.
	ErrLocked = errors.New("in use by another ThesisCheck process (close it or try again)")
	// ErrVersion means the library was written by a newer ThesisCheck.
	ErrVersion = errors.New("library: written by a newer version of ThesisCheck")
)

// formatVersion 2 keeps paragraphs in the paragraph store (paras.go); version 1 kept them in bucket
// paras, which is still read, and a writable Open turns a version 1 library into a version 2 one
// (new documents go to the store).
const formatVersion = "2"

var (
	bucketMeta  = []byte("meta")
	bucketDocs  = []byte("docs")
	bucketSHA   = []byte("sha")
	bucketParas = []byte("paras")
	bucketFP    = []byte("fp")

	keySegments = []byte("segments")
)

// DefaultDir is the library folder used when none is given: in the user's data directory.
func DefaultDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "thesischeck", "library"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("library: no home folder: %w", err)
	}
	return filepath.Join(home, ".local", "share", "thesischeck", "library"), nil
}

// Open opens (creating if needed) the library in dir and maps its index. Documents that no index
// segment holds yet (an import that was killed) are indexed again from their stored fingerprints.
func Open(dir string, opts *Options) (*Library, error) {
	if opts == nil {
		opts = &Options{}
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = 3 * time.Second
	}
	if !opts.ReadOnly {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("library %s: %w", dir, err)
		}
	}
	path := filepath.Join(dir, "library.db")
	if opts.ReadOnly {
		st, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("library %s: %w", dir, err)
		}
		if st.Size() == 0 { // left by a version that could be killed while creating it
			return nil, fmt.Errorf("library %s: library.db is empty (its creation was interrupted); adding documents makes it anew", dir)
		}
	} else if err := createDB(path, timeout); err != nil {
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	db, err := bolt.Open(path, 0o644, &bolt.Options{Timeout: timeout, ReadOnly: opts.ReadOnly, FreelistType: bolt.FreelistMapType})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, fmt.Errorf("library %s: %w", dir, ErrLocked)
		}
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	store, err := openParas(dir, db, opts.ReadOnly)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	l := &Library{dir: dir, db: db, readOnly: opts.ReadOnly, paras: store, cache: map[ParaRef]*Paragraph{}, infos: map[uint64]DocInfo{}, bp: map[uint64]bool{},
		minIDF: cmp.Or(opts.MinIDFParagraphs, DefaultMinIDFParagraphs)}
	if !opts.ReadOnly {
		err = db.Update(func(tx *bolt.Tx) error {
			for _, b := range [][]byte{bucketMeta, bucketDocs, bucketSHA, bucketParas, bucketLoc, bucketFP, bucketDF, bucketTheses} {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
			m := tx.Bucket(bucketMeta)
			if string(m.Get([]byte("version"))) != formatVersion { // new, or version 1 (openParas refused others)
				if err := m.Put([]byte("version"), []byte(formatVersion)); err != nil {
					return err
				}
			}
			if m.Get(keyParasFile) == nil {
				if err := store.putMeta(tx, store.end, store.dead); err != nil {
					return err
				}
			}
			if m.Get(keyDFParas) == nil {
				if err := countAllWords(tx, store); err != nil { // a library made before word counts were kept
					return err
				}
			}
			if m.Get(keyDFUpTo) == nil { // every document is counted (see idf.go)
				if err := m.Put(keyDFUpTo, binary.AppendUvarint(nil, lastID(tx))); err != nil {
					return err
				}
			}
			if lastID(tx) == 0 && m.Get(keyKinds) == nil { // a new library: its kinds are recorded from the start
				return m.Put(keyKinds, []byte("1"))
			}
			return nil
		})
		if err != nil {
			store.close()
			db.Close()
			return nil, fmt.Errorf("library %s: %w", dir, err)
		}
	}
	if err := l.load(); err != nil {
		l.Close()
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	return l, nil
}

// createDB makes path a new, empty database unless it exists. The database is made under a
// temporary name and linked into place whole: a process killed while bbolt wrote its first pages
// used to leave an empty library.db, which a read-only open could not use (bbolt tried to write the
// pages, "bad file descriptor"), one run in eight of the SIGKILL test.
func createDB(path string, timeout time.Duration) error {
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil // there, or bolt.Open will say what is wrong
	}
	f, err := os.CreateTemp(filepath.Dir(path), "library.db.*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := errors.Join(f.Chmod(0o644), f.Close()); err != nil {
		return err
	}
	db, err := bolt.Open(tmp, 0o644, &bolt.Options{Timeout: timeout})
	if err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	// A link, unlike a rename, never replaces a database another process made meanwhile.
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		if _, serr := os.Stat(path); serr == nil {
			return nil
		}
		return os.Rename(tmp, path) // a file system without links
	}
	return nil
}

// Dir is the library's folder.
func (l *Library) Dir() string { return l.dir }

// Close releases the library.
func (l *Library) Close() error {
	l.writeMu.Lock()
	defer l.writeMu.Unlock()
	l.mu.Lock()
	if l.idx != nil {
		for _, s := range l.idx.segs {
			unmapFile(s.data)
		}
		l.idx = nil
	}
	l.mu.Unlock()
	return errors.Join(l.paras.close(), l.db.Close())
}

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
}

// Files lists the documents under paths: files as given, folders recursively (PDF, DOCX and TXT
// files only, hidden files skipped), in a stable order.
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
			out = append(out, p)
			continue
		}
		filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
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
			if !d.IsDir() && Supported(name) {
				out = append(out, path)
			}
			return nil
		})
	}
	return out, bad
}

// Supported reports whether a file name has one of the extensions the library imports from folders.
func Supported(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pdf", ".docx", ".txt":
		return true
	}
	return false
}

// prepared is a document extracted and fingerprinted, ready to be written.
type prepared struct {
	path  string
	rec   docRecord
	paras []Paragraph
	fps   []fingerprint
	words map[uint32]int // how many paragraphs hold each word, for the library's word weights
	err   error
}

// winnowWindow is the winnowing window of the gram index: shared runs of five words or more are
// always found (see similarity.Winnow).
const winnowWindow = 4

// batchSize is how many documents one transaction commits: one fsync per batch instead of per
// document, and at most one batch lost to a crash.
var batchSize = 32 // a variable for tests

// ImportHeapLimit is the soft heap limit (runtime/debug.SetMemoryLimit) a process that imports
// sets with LimitHeap. Without it the heap grew to twice the live data while large segments were
// merged: at 100,000 documents the import peaked at 1,464 MiB resident, with it at 1,290 MiB, as
// fast. Smaller imports never reach it.
const ImportHeapLimit = 768 << 20

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

// lookahead is how many documents may be read and fingerprinted ahead of the one being written:
// enough to keep the workers busy through a batch commit, few enough to bound an import's memory.
const lookahead = 256

// AddFiles adds files, and folders recursively. Files are extracted and fingerprinted on all cores;
// documents are committed in batches. A file that fails is listed in the result and the rest still
// go in. progress may be nil; it is called from the calling goroutine.
func (l *Library) AddFiles(ctx context.Context, paths []string, opts AddOptions, progress func(AddProgress)) (res AddResult, err error) {
	files, bad := Files(paths)
	res.Failed = append(res.Failed, bad...)
	if progress == nil {
		progress = func(AddProgress) {}
	}
	progress(AddProgress{Total: len(files)})

	if l.readOnly {
		return res, fmt.Errorf("library %s: opened read-only", l.dir)
	}
	seg, err := similarity.Default()
	if err != nil {
		return res, err
	}
	l.writeMu.Lock()
	defer l.writeMu.Unlock()
	l.seg = seg

	jobs := make(chan int)
	out := make([]chan prepared, len(files))
	for i := range out {
		out[i] = make(chan prepared, 1)
	}
	workers := runtime.NumCPU()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for w := 0; w < workers; w++ {
		go func() {
			for i := range jobs {
				out[i] <- l.prepare(wctx, files[i], opts)
			}
		}()
	}
	// Prepared documents wait in out until the writer takes them; while it merges index segments
	// (seconds, in a large library) the workers would otherwise fill memory with a thousand of them.
	window := make(chan struct{}, lookahead)
	go func() {
		defer close(jobs)
		for i := range files {
			select {
			case window <- struct{}{}:
			case <-wctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-wctx.Done():
				return
			}
		}
	}()

	var batch []prepared
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		added, dups, err := l.write(batch)
		if err != nil {
			return err
		}
		res.Added = append(res.Added, added...)
		res.Duplicates = append(res.Duplicates, dups...)
		batch = batch[:0]
		// A segment is written in the background while the import goes on; should the in-memory
		// part grow to twice the size meanwhile, the import waits for it (that bounds its memory).
		if n := l.memDocs(); n >= flushDocs && (!l.flushing() || n >= 2*flushDocs) {
			return l.startFlush()
		}
		return nil
	}
	// Whatever way the import ends, what it committed goes into an index segment; if that fails,
	// the documents are safe and the next Open indexes them again.
	defer func() {
		if ferr := l.flush(); ferr != nil && err == nil {
			err = ferr
		}
	}()
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
				flush()
				return res, ctx.Err()
			}
			res.Failed = append(res.Failed, FileError{p.path, p.err})
		} else {
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

// prepare reads and fingerprints one file.
func (l *Library) prepare(ctx context.Context, path string, opts AddOptions) prepared {
	p := prepared{path: path}
	data, err := extract.ReadFile(path) // refuses a huge file before reading it
	if err != nil {
		p.err = err
		return p
	}
	sum := sha256.Sum256(data)
	doc, err := extract.Bytes(ctx, path, data)
	if err != nil {
		p.err = err
		return p
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	p.rec = docRecord{DocInfo: DocInfo{Path: abs, Title: doc.Title, Template: opts.Template, Thesis: doc.Thesis}, SHA256: hex.EncodeToString(sum[:])}
	var shingles []uint32
	weights := l.Weights()
	for _, ep := range doc.Paragraphs {
		pr := l.seg.PrepareWeighted(ep.Text, weights)
		p.paras = append(p.paras, Paragraph{Text: ep.Text, Section: string(ep.Section), Chapter: ep.Chapter, Page: ep.Page, Heading: ep.Heading, Tokens: pr.Tokens})
		p.fps = append(p.fps, fingerprint{SimHash: pr.SimHash, Grams: similarity.Winnow(pr.Grams, winnowWindow)})
		shingles = append(shingles, similarity.Shingles(pr.Tokens)...)
		p.rec.Chars += utf8.RuneCountInString(ep.Text)
	}
	sig := similarity.MinHash(shingles)
	p.rec.Signature = sig[:]
	p.words = wordDelta(p.paras, 1, nil)
	p.rec.Paragraphs = len(p.paras)
	return p
}

// write commits a batch in one transaction and adds it to the index. The paragraphs go to the
// store first, synced, so that the transaction only records where they are.
func (l *Library) write(batch []prepared) (added []DocInfo, dups []string, err error) {
	fresh := make([]prepared, 0, len(batch))
	err = l.db.View(func(tx *bolt.Tx) error {
		seen := map[string]bool{}
		for _, p := range batch {
			if seen[p.rec.SHA256] || tx.Bucket(bucketSHA).Get([]byte(p.rec.SHA256)) != nil {
				dups = append(dups, p.path)
				continue
			}
			seen[p.rec.SHA256] = true
			fresh = append(fresh, p)
		}
		return nil
	})
	if err != nil || len(fresh) == 0 {
		return nil, dups, err
	}
	paras := make([][]Paragraph, len(fresh))
	for i, p := range fresh {
		paras[i] = p.paras
	}
	locs, end, err := l.paras.appendDocs(paras)
	if err != nil {
		return nil, nil, fmt.Errorf("library %s: write: %w", l.dir, err)
	}
	recs := make([]docRecord, len(fresh))
	delta, dparas := map[uint32]int{}, 0
	err = l.db.Update(func(tx *bolt.Tx) error {
		docs, meta := tx.Bucket(bucketDocs), tx.Bucket(bucketMeta)
		next := uint64(1)
		if v := meta.Get([]byte("next")); len(v) == 8 {
			next = binary.BigEndian.Uint64(v)
		}
		for i, p := range fresh {
			rec := p.rec
			rec.ID = next
			rec.Added = time.Now().UTC().Truncate(time.Second)
			next++
			key := idKey(rec.ID)
			js, err := json.Marshal(rec)
			if err != nil {
				return err
			}
			if err := docs.Put(key, js); err != nil {
				return err
			}
			if err := tx.Bucket(bucketSHA).Put([]byte(rec.SHA256), key); err != nil {
				return err
			}
			if err := tx.Bucket(bucketLoc).Put(key, locs[i].encode()); err != nil {
				return err
			}
			if err := tx.Bucket(bucketFP).Put(key, encodeFingerprints(p.fps)); err != nil {
				return err
			}
			if rec.Thesis {
				if err := tx.Bucket(bucketTheses).Put(key, nil); err != nil {
					return err
				}
			}
			recs[i] = rec
		}
		if err := l.paras.putMeta(tx, end, l.paras.dead); err != nil {
			return err
		}
		return meta.Put([]byte("next"), binary.BigEndian.AppendUint64(nil, next))
	})
	if err != nil {
		return nil, nil, fmt.Errorf("library %s: write: %w", l.dir, err)
	}
	l.paras.end = end
	l.mu.Lock()
	for i, p := range fresh {
		var sig similarity.Signature
		copy(sig[:], recs[i].Signature)
		l.idx.add(recs[i].ID, sig, p.fps)
		if recs[i].Thesis {
			l.theses[recs[i].ID] = true
		}
	}
	l.mu.Unlock()
	for _, p := range fresh {
		for h, n := range p.words {
			delta[h] += n
		}
		dparas += len(p.paras)
	}
	l.applyWords(delta, dparas)
	l.clearBoilerplate()
	l.cacheMu.Lock()
	for _, r := range recs {
		l.cacheInfo(r.DocInfo)
		added = append(added, r.DocInfo)
	}
	l.cacheMu.Unlock()
	return added, dups, nil
}

func idKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// List returns the documents in the order they were added.
func (l *Library) List() []DocInfo {
	var out []DocInfo
	l.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketDocs)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var rec docRecord
			if json.Unmarshal(v, &rec) == nil {
				out = append(out, rec.DocInfo)
			}
			return nil
		})
	})
	l.mu.RLock()
	w := 0
	for _, d := range out {
		if _, ok := l.idx.byID[d.ID]; ok {
			out[w] = d
			w++
		}
	}
	l.mu.RUnlock()
	out = out[:w]
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Stats returns the number of documents and paragraphs.
func (l *Library) Stats() (docs, paras int) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.idx.live, l.idx.liveParas
}

// Remove deletes documents by id. Unknown ids are an error and nothing is removed.
func (l *Library) Remove(ids ...uint64) error {
	l.writeMu.Lock()
	defer l.writeMu.Unlock()
	// The removal brings the df bucket up to date (pending counts included) in its transaction;
	// dfMu is held until the table in memory follows, so that no load sees the one without the other.
	var removed wordCounts
	var dead int64
	l.dfMu.Lock()
	err := l.db.Update(func(tx *bolt.Tx) error {
		removed, dead = wordCounts{words: map[uint32]int{}}, l.paras.dead
		for _, id := range ids {
			key := idKey(id)
			v := tx.Bucket(bucketDocs).Get(key)
			if v == nil {
				return fmt.Errorf("no document with id %d", id)
			}
			var rec docRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
			// A document whose paragraphs are damaged is removed all the same (that is what its user
			// wants done with it); its words stay in the counts, which only weigh SimHashes.
			if paras, err := storedParas(tx, l.paras, key, 0, -1); err == nil {
				wordDelta(paras, -1, removed.words)
				removed.paras -= len(paras)
			}
			if v := tx.Bucket(bucketLoc).Get(key); v != nil {
				c, err := decodeLoc(v)
				if err != nil {
					return err
				}
				dead += c.size()
			}
			for _, b := range [][]byte{bucketDocs, bucketParas, bucketLoc, bucketFP, bucketTheses} {
				if err := tx.Bucket(b).Delete(key); err != nil {
					return err
				}
			}
			if err := tx.Bucket(bucketSHA).Delete([]byte(rec.SHA256)); err != nil {
				return err
			}
		}
		if err := l.paras.putMeta(tx, l.paras.end, dead); err != nil {
			return err
		}
		return l.saveWords(tx, removed)
	})
	if err == nil {
		l.pending = wordCounts{}
		l.applyLocked(removed.words, removed.paras)
		l.paras.dead = dead
	}
	l.dfMu.Unlock()
	if err != nil {
		return fmt.Errorf("library %s: remove: %w", l.dir, err)
	}
	l.mu.Lock()
	for _, id := range ids {
		l.idx.remove(id)
		delete(l.theses, id)
	}
	l.mu.Unlock()
	l.clearBoilerplate()
	l.cacheMu.Lock()
	for _, id := range ids {
		delete(l.infos, id)
	}
	for r := range l.cache {
		if slices.Contains(ids, r.Doc) {
			delete(l.cache, r)
		}
	}
	l.cacheMu.Unlock()
	// The documents are gone; what is left is reclaiming their bytes, which a later removal retries.
	if err := l.compactParas(); err != nil {
		return fmt.Errorf("library %s: remove: %w", l.dir, err)
	}
	return nil
}

// Doc returns a document's description and MinHash signature.
func (l *Library) Doc(id uint64) (DocInfo, similarity.Signature, bool) {
	l.mu.RLock()
	loc, ok := l.idx.byID[id]
	var sig similarity.Signature
	if ok {
		sig = l.idx.signature(loc)
	}
	thesis := l.theses[id] // the record of a document added before kinds were recorded does not say
	l.mu.RUnlock()
	if !ok {
		return DocInfo{}, sig, false
	}
	l.cacheMu.Lock()
	info, ok := l.infos[id]
	l.cacheMu.Unlock()
	info.Thesis = thesis
	if ok {
		return info, sig, true
	}
	err := l.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketDocs).Get(idKey(id))
		if v == nil {
			return errFormat
		}
		var rec docRecord
		if err := json.Unmarshal(v, &rec); err != nil {
			return err
		}
		info = rec.DocInfo
		return nil
	})
	if err != nil {
		return DocInfo{}, sig, false
	}
	info.Thesis = thesis
	l.cacheMu.Lock()
	l.cacheInfo(info)
	l.cacheMu.Unlock()
	return info, sig, true
}

func (l *Library) clearBoilerplate() {
	l.bpMu.Lock()
	clear(l.bp)
	l.bpMu.Unlock()
}

// cacheInfo keeps a document's description; cacheMu is held.
func (l *Library) cacheInfo(d DocInfo) {
	if len(l.infos) >= 4096 {
		clear(l.infos)
	}
	l.infos[d.ID] = d
}

// Paragraphs returns the stored paragraphs of a document (text and tokens).
func (l *Library) Paragraphs(id uint64) ([]Paragraph, error) {
	ps, err := l.stored(id, 0, -1)
	if err != nil {
		return nil, fmt.Errorf("library %s: document %d: %w", l.dir, id, err)
	}
	return ps, nil
}

// Paragraph returns one stored paragraph, read alone. The result is shared: callers must not
// modify it.
func (l *Library) Paragraph(r ParaRef) (*Paragraph, error) {
	l.cacheMu.Lock()
	p, ok := l.cache[r]
	l.cacheMu.Unlock()
	if ok {
		return p, nil
	}
	ps, err := l.stored(r.Doc, r.Para, r.Para+1)
	if err != nil {
		return nil, fmt.Errorf("library %s: document %d paragraph %d: %w", l.dir, r.Doc, r.Para, err)
	}
	p = &ps[0]
	l.cacheMu.Lock()
	if len(l.cache) >= paragraphCache {
		clear(l.cache)
	}
	l.cache[r] = p
	l.cacheMu.Unlock()
	return p, nil
}

// paragraphCache is how many paragraphs Paragraph keeps: a check aligns many paragraphs with the
// same few sources (about 4 KB each, text and tokens).
const paragraphCache = 8192

func (l *Library) stored(id uint64, from, to int) (ps []Paragraph, err error) {
	l.storeMu.RLock()
	defer l.storeMu.RUnlock()
	err = l.db.View(func(tx *bolt.Tx) error {
		ps, err = storedParas(tx, l.paras, idKey(id), from, to)
		return err
	})
	return ps, err
}

// flushDocs is how many documents an import keeps in the in-memory part of the index before it
// writes them as a segment: it bounds the memory an import of any size takes.
var flushDocs = 2048 // a variable for tests

// segEntry is one index segment in the manifest: its file, and the largest document id it covers.
type segEntry struct {
	Name string `json:"name"`
	Last uint64 `json:"last"`
}

// load maps the index segments the manifest lists and indexes in memory the documents that no
// segment covers (all of them when a segment is missing or damaged: the segments are derived data).
// A writable library writes those documents out as segments right away and deletes files that the
// manifest does not list (left by a killed import or merge).
func (l *Library) load() error {
	if err := l.countPending(); err != nil {
		return err
	}
	var manifest []segEntry
	live := map[uint64]bool{}
	err := l.db.View(func(tx *bolt.Tx) error {
		if m := tx.Bucket(bucketMeta); m != nil {
			if v := m.Get(keySegments); v != nil && json.Unmarshal(v, &manifest) != nil {
				manifest = nil
			}
		}
		// The content-hash bucket names every document (both change in one transaction) in a
		// fifteenth of the pages the document records fill: opening reads it, not them.
		if sha := tx.Bucket(bucketSHA); sha != nil {
			c := sha.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				if len(v) == 8 {
					live[binary.BigEndian.Uint64(v)] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	var segs []*segment
	covered := uint64(0)
	for _, e := range manifest {
		s, err := openSegment(l.dir, e.Name)
		if err != nil {
			for _, s := range segs {
				unmapFile(s.data)
			}
			segs, covered = nil, 0
			break
		}
		for d, id := range s.seg.docIDs {
			s.dead[d] = !live[id]
		}
		s.lastID = e.Last
		segs = append(segs, s)
		covered = e.Last
	}
	if len(segs) < len(manifest) && !l.readOnly {
		if err := l.saveManifest(nil); err != nil {
			return err
		}
	}
	l.idx = newIndex(segs)
	if !l.readOnly {
		l.removeStray(segs)
	}
	// The documents after the last segment, in id order.
	var pending []uint64
	for id := range live {
		if id > covered {
			pending = append(pending, id)
		}
	}
	sort.Slice(pending, func(i, j int) bool { return pending[i] < pending[j] })
	for len(pending) > 0 {
		n := min(len(pending), flushDocs)
		if err := l.loadDocs(pending[:n]); err != nil {
			return err
		}
		pending = pending[n:]
		if !l.readOnly {
			if err := l.flush(); err != nil {
				return err
			}
		}
	}
	if err := l.loadKinds(); err != nil {
		return err
	}
	if !l.readOnly {
		return l.checkpointWords()
	}
	return nil
}

func openSegment(dir, name string) (*segment, error) {
	if name != filepath.Base(name) || !strings.HasSuffix(name, ".idx") {
		return nil, errFormat
	}
	data, err := mapFile(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	a, err := parseSegment(data)
	if err != nil {
		unmapFile(data)
		return nil, fmt.Errorf("index %s: %w", name, err)
	}
	return &segment{name: name, data: data, seg: a, dead: make([]bool, len(a.docIDs))}, nil
}

// loadDocs indexes stored documents in memory from their fingerprints.
func (l *Library) loadDocs(ids []uint64) error {
	return l.db.View(func(tx *bolt.Tx) error {
		docs, fpb := tx.Bucket(bucketDocs), tx.Bucket(bucketFP)
		for _, id := range ids {
			k := idKey(id)
			var rec docRecord
			if err := json.Unmarshal(docs.Get(k), &rec); err != nil {
				return fmt.Errorf("document %d: %w", id, errFormat)
			}
			fps, err := decodeFingerprints(fpb.Get(k))
			if err != nil {
				return fmt.Errorf("document %d: %w", id, err)
			}
			var sig similarity.Signature
			copy(sig[:], rec.Signature)
			l.idx.add(id, sig, fps)
		}
		return nil
	})
}

// removeStray deletes index files of the folder that are not segments in use.
func (l *Library) removeStray(segs []*segment) {
	inUse := map[string]bool{}
	for _, s := range segs {
		inUse[s.name] = true
	}
	entries, _ := os.ReadDir(l.dir)
	for _, e := range entries {
		n := e.Name()
		if _, ok := parasGeneration(n); ok && n != l.paras.name {
			os.Remove(filepath.Join(l.dir, n)) // left by a compaction, before or after its commit
			continue
		}
		if (strings.HasSuffix(n, ".idx") && !inUse[n]) || strings.HasSuffix(n, ".idx.tmp") || strings.HasSuffix(n, ".idx.tmp.postings") ||
			(strings.HasPrefix(n, "library.db.") && strings.HasSuffix(n, ".tmp")) {
			os.Remove(filepath.Join(l.dir, n))
		}
	}
}

func (l *Library) saveManifest(segs []*segment) error {
	m := make([]segEntry, 0, len(segs))
	for _, s := range segs {
		m = append(m, segEntry{Name: s.name, Last: s.last()})
	}
	js, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return l.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(keySegments, js) })
}

func (l *Library) memDocs() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.idx.mem.docs)
}

// flush writes the in-memory part of the index as a segment and merges segments (see
// writeSegments), and waits for it. writeMu is held.
func (l *Library) flush() error {
	if err := l.startFlush(); err != nil {
		return err
	}
	return l.waitFlush()
}

// startFlush starts writing the documents now in the in-memory part of the index as a segment, in
// the background: an import goes on meanwhile, where it used to wait for every segment and merge
// (its workers idle for seconds at a time in a large library). One runs at a time: startFlush waits
// for the one before. writeMu is held.
func (l *Library) startFlush() error {
	if err := l.waitFlush(); err != nil {
		return err
	}
	// The word counts first: a segment covers documents whose counts are saved.
	if err := l.checkpointWords(); err != nil {
		return err
	}
	l.mu.RLock()
	mem, segs := l.idx.mem, slices.Clone(l.idx.segs)
	docs := mem.docs[:len(mem.docs):len(mem.docs)] // adds go after these: they never change
	l.mu.RUnlock()
	if len(docs) == 0 {
		return nil
	}
	done := make(chan struct{})
	l.flushDone = done
	go func() {
		defer close(done)
		l.flushErr = l.writeSegments(segs, docs)
	}()
	return nil
}

// flushing reports whether a segment is being written in the background. writeMu is held.
func (l *Library) flushing() bool {
	if l.flushDone == nil {
		return false
	}
	select {
	case <-l.flushDone:
		return false
	default:
		return true
	}
}

// waitFlush waits for the segment being written in the background, if any, and returns its error.
// writeMu is held.
func (l *Library) waitFlush() error {
	if l.flushDone == nil {
		return nil
	}
	<-l.flushDone
	err := l.flushErr
	l.flushDone, l.flushErr = nil, nil
	return err
}

// writeSegments writes docs, the first documents of the in-memory part of the index, as a segment
// after segs, then merges the newest segments while the one before the newest is no more than twice
// its size: segment sizes fall geometrically, so a library of n documents has O(log n) segments and
// each posting is rewritten O(log n) times.
func (l *Library) writeSegments(segs []*segment, mem []memDoc) error {
	docs := make([]segDoc, 0, len(mem))
	for _, d := range mem {
		if !d.dead {
			docs = append(docs, segDoc{id: d.id, sig: d.sig, fps: d.fps})
		}
	}
	first, last := mem[0].id, mem[len(mem)-1].id
	next := segs
	if len(docs) > 0 {
		name := segName(first, last)
		if err := buildSegment(l.dir, name, docs); err != nil {
			return fmt.Errorf("library %s: index: %w", l.dir, err)
		}
		s, err := openSegment(l.dir, name)
		if err != nil {
			return fmt.Errorf("library %s: %w", l.dir, err)
		}
		s.lastID = last
		next = append(slices.Clone(segs), s)
	}
	if err := l.saveManifest(next); err != nil {
		return fmt.Errorf("library %s: index: %w", l.dir, err)
	}
	l.swap(next, nil, len(mem))
	for {
		n := len(next)
		if n < 2 || next[n-2].paras() > 2*next[n-1].paras() {
			return nil
		}
		a, b := next[n-2], next[n-1]
		name := segName(a.seg.docIDs[0], b.last())
		if err := mergeSegments(l.dir, name, []*segment{a, b}); err != nil {
			return fmt.Errorf("library %s: index: %w", l.dir, err)
		}
		s, err := openSegment(l.dir, name)
		if err != nil {
			return fmt.Errorf("library %s: %w", l.dir, err)
		}
		s.lastID = b.last()
		copy(s.dead, a.dead)
		copy(s.dead[len(a.dead):], b.dead)
		next = append(slices.Clone(next[:n-2]), s)
		if err := l.saveManifest(next); err != nil {
			return fmt.Errorf("library %s: index: %w", l.dir, err)
		}
		l.swap(next, []*segment{a, b}, 0)
	}
}

// swap installs a new list of segments, which now cover the first covered documents of the
// in-memory part, and releases old segments. The documents added since the segments were begun
// stay in memory.
func (l *Library) swap(segs, old []*segment, covered int) {
	x := newIndex(segs)
	l.mu.Lock()
	for _, d := range l.idx.mem.docs[covered:] {
		x.add(d.id, d.sig, d.fps)
		if d.dead {
			x.remove(d.id)
		}
	}
	l.idx = x
	l.mu.Unlock()
	for _, s := range old {
		unmapFile(s.data)
		os.Remove(filepath.Join(l.dir, s.name))
	}
}

func segName(first, last uint64) string { return fmt.Sprintf("seg-%016x-%016x.idx", first, last) }
