// Package library is the reference library: the documents a thesis is checked against, stored in
// one folder that survives crashes, with the indexes that find candidate sources without a scan.
//
// The on-disk format is described in format.go, the in-memory index in index.go.
package library

import (
	"cmp"
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
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"thesischeck/prepare"
	"thesischeck/similarity"
)

// Library is an open reference library. It is safe for use by several goroutines.
type Library struct {
	dir      string
	db       *bolt.DB
	rec      codec // how values are read: checked from format version 3 on
	seg      *similarity.Segmenter
	readOnly bool

	writeMu sync.Mutex // one writer at a time: imports, removals, index segments

	flushDone chan struct{} // closed when the segment being written in the background is done
	flushErr  error         // that segment's error, read once flushDone is closed

	mu        sync.RWMutex
	idx       *index
	docs      int // meta "docs" and "templates"
	templates int

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
	// Damaged, when not empty, says why the library cannot give this document's description (List
	// lists it all the same, with its id).
	Damaged string `json:"damaged,omitempty"`
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

// formatVersion 3 seals every value of library.db with a checksum, frames the documents in the
// paragraph store (frame.go) and checksums the index segments' pages. Version 2 kept paragraphs in
// the store without frames or checksums; version 1 kept them in bucket paras. Both are read as they
// are by a read-only Open; a writable Open upgrades them (repair.go).
const formatVersion = "3"

var (
	bucketMeta  = []byte("meta")
	bucketDocs  = []byte("docs")
	bucketSHA   = []byte("sha")
	bucketParas = []byte("paras")
	bucketFP    = []byte("fp")

	keySegments      = []byte("segments")
	keyVersion       = []byte("version")
	keyNext          = []byte("next")
	keyDocCount      = []byte("docs")      // documents in the library
	keyTemplateCount = []byte("templates") // of which templates
	keyAnalyser      = []byte("analyser")  // similarity.AnalyserVersion of the fingerprints
)

// ErrAnalyser means the library's tokens and fingerprints were made by another version of the text
// analyser (similarity.AnalyserVersion) than this ThesisCheck's: a check would find nothing of what
// they hold. It wraps ErrDamaged, since what mends it is the same: `library repair` makes them again
// from the stored text.
var ErrAnalyser = fmt.Errorf("its fingerprints were made by another version of the text analyser, and a check would find nothing in them: %w", ErrDamaged)

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
// A writable Open turns a library of an older format into the current one first (upgrade). Damage
// found on the way is an error wrapping ErrDamaged.
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
	// Without library.db a paragraph store is what is left of the library: making a new, empty
	// library.db would cut it to nothing.
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if storeHolds(dir) {
			return nil, fmt.Errorf("library %s: library.db is missing, the paragraph store is there ('thesischeck library repair' makes library.db again from it): %w", dir, ErrDamaged)
		}
	}
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
	db, err := openDB(path, timeout, opts.ReadOnly)
	if err != nil {
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	version, err := readVersion(db)
	if err == nil && !opts.ReadOnly && version > 0 && version < 3 {
		if err = upgrade(dir, db); err == nil {
			db.Close()
			db, err = openDB(path, timeout, false)
			if err != nil {
				return nil, fmt.Errorf("library %s: %w", dir, err)
			}
			version = 3
		}
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	if err == nil && version == 0 && storeHolds(dir) { // library.db lost its meta: never start it anew over the store
		err = fmt.Errorf("library.db says nothing of the paragraph store beside it: %w", ErrDamaged)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	rec := codec{sealed: version == 0 || version >= 3}
	store, err := openParas(dir, db, rec, opts.ReadOnly)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	l := &Library{dir: dir, db: db, rec: rec, readOnly: opts.ReadOnly, paras: store, cache: map[ParaRef]*Paragraph{}, infos: map[uint64]DocInfo{}, bp: map[uint64]bool{},
		minIDF: cmp.Or(opts.MinIDFParagraphs, DefaultMinIDFParagraphs)}
	if !opts.ReadOnly && version == 0 {
		// A new library records its documents' kinds from the start (kinds.go); a rebuilt one has
		// them counted again by its next writable open.
		err = l.update(func(tx *bolt.Tx) error {
			if err := initDB(tx, rec, store); err != nil {
				return err
			}
			return rec.put(tx, bucketMeta, keyKinds, []byte("1"))
		})
		if err != nil {
			store.close()
			db.Close()
			return nil, fmt.Errorf("library %s: %w", dir, err)
		}
	}
	if err := l.checkAnalyser(); err != nil {
		store.close()
		db.Close()
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	if err := l.load(); err != nil {
		l.Close()
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	return l, nil
}

// checkAnalyser refuses a library whose fingerprints another text analyser made. A library made
// before they were stamped was made by the analyser of the version before this one, which is this
// one's (analyserRevision 1); a writable open stamps it.
func (l *Library) checkAnalyser() error {
	want := similarity.AnalyserVersion()
	var have []byte
	err := l.view(func(tx *bolt.Tx) error {
		var err error
		have, err = l.rec.get(tx, bucketMeta, keyAnalyser)
		have = slices.Clone(have)
		return err
	})
	switch {
	case err != nil:
		return err
	case have == nil && !l.readOnly:
		return l.update(func(tx *bolt.Tx) error { return l.rec.put(tx, bucketMeta, keyAnalyser, []byte(want)) })
	case have != nil && string(have) != want:
		return fmt.Errorf("%w (its analyser %s, this version's %s)", ErrAnalyser, have, want)
	}
	return nil
}

// storeHolds reports whether a paragraph store file in dir holds anything.
func storeHolds(dir string) bool {
	stores, _ := filepath.Glob(filepath.Join(dir, "paras-*.dat"))
	for _, f := range stores {
		if st, err := os.Stat(f); err == nil && st.Size() > 0 {
			return true
		}
	}
	return false
}

// initDB makes the buckets and meta values of a new library.
func initDB(tx *bolt.Tx, c codec, store *paraStore) error {
	for _, b := range [][]byte{bucketMeta, bucketDocs, bucketSHA, bucketParas, bucketLoc, bucketFP, bucketDF, bucketTheses} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	var errs []error
	for _, k := range [][]byte{keyDocCount, keyTemplateCount, keyDFParas, keyDFUpTo, keyDFSum} {
		errs = append(errs, c.putCount(tx, k, 0))
	}
	errs = append(errs, store.putMeta(tx, c, store.end, store.dead), c.put(tx, bucketMeta, keyVersion, []byte(formatVersion)),
		c.put(tx, bucketMeta, keyAnalyser, []byte(similarity.AnalyserVersion())))
	return errors.Join(errs...)
}

// openDB opens library.db. bbolt checks its meta pages' checksums; a file shorter than the pages
// its meta page counts (cut off by a full disk or a bad copy) is refused here, before bbolt maps
// pages that are not there.
func openDB(path string, timeout time.Duration, readOnly bool) (*bolt.DB, error) {
	if err := checkDBSize(path); err != nil {
		return nil, err
	}
	var db *bolt.DB
	err := guard("library.db", func() error {
		var err error
		db, err = bolt.Open(path, 0o644, &bolt.Options{Timeout: timeout, ReadOnly: readOnly, FreelistType: bolt.FreelistMapType})
		return err
	})
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return nil, ErrLocked
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum), errors.Is(err, berrors.ErrVersionMismatch):
		return nil, fmt.Errorf("library.db: %w: %w", err, ErrDamaged)
	}
	return db, err
}

// readVersion is the format version of an open database: 0 for a new one.
func readVersion(db *bolt.DB) (int, error) {
	version := 0
	err := guard("library.db", func() error {
		return db.View(func(tx *bolt.Tx) error {
			m := tx.Bucket(bucketMeta)
			if m == nil {
				return nil
			}
			v := m.Get(keyVersion)
			if v == nil {
				return nil
			}
			if n, err := strconv.Atoi(string(v)); err == nil && n > 0 { // versions 1 and 2: no checksum
				version = n
				return nil
			}
			u, err := unseal(keyVersion, v)
			if err != nil {
				return fmt.Errorf("meta version: %w", err)
			}
			version, err = strconv.Atoi(string(u))
			if err != nil {
				return fmt.Errorf("meta version: %w", errFormat)
			}
			return nil
		})
	})
	if err == nil && version > 3 {
		err = ErrVersion
	}
	return version, err
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
	Warned     []FileWarnings // files read with changes to their text (see prepare.Warning)
}

// FileWarnings are the changes extraction made to the text of one imported file.
type FileWarnings struct {
	Path     string
	Warnings []prepare.Warning
}

// Files lists the documents under paths: files as given, folders recursively (PDF, DOCX and TXT
// files only, hidden files skipped), in a stable order. Named pipes, devices and sockets are listed
// as errors, not documents: opening a pipe waits for a writer that may never come.
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
			if d.IsDir() || !Supported(name) {
				return nil
			}
			if special := d.Type() &^ fs.ModeSymlink; special != 0 {
				bad = append(bad, FileError{path, prepare.NotRegular(special)})
				return nil
			}
			out = append(out, path)
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
	warns []prepare.Warning
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
	if _, err := l.Weights(); err != nil {
		return res, err
	}

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

// prepare reads and fingerprints one file (package prepare) and makes its records.
func (l *Library) prepare(ctx context.Context, path string, opts AddOptions) prepared {
	p := prepared{path: path}
	d, err := prepare.Read(ctx, path)
	if err != nil {
		p.err = err
		return p
	}
	weights, _ := l.Weights() // checked by AddFiles: loaded once, it fails no more
	d.FingerprintAll(l.seg, weights)
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	doc := d.Text
	p.rec = docRecord{DocInfo: DocInfo{Path: abs, Title: doc.Title, Template: opts.Template, Thesis: doc.Thesis}, SHA256: d.SHA256}
	p.warns = doc.Warnings
	var shingles []uint32
	for i, ep := range doc.Paragraphs {
		pr := d.Prints[i]
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

// write commits a batch in one transaction and adds it to the index. The documents go to the store
// first, framed with their records and synced, so that the transaction only records where they are.
func (l *Library) write(batch []prepared) (added []DocInfo, dups []string, err error) {
	fresh := make([]prepared, 0, len(batch))
	var next uint64
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
		for i, p := range fresh {
			key := idKey(recs[i].ID)
			if err := errors.Join(l.rec.put(tx, bucketDocs, key, jsons[i]), l.rec.put(tx, bucketSHA, []byte(recs[i].SHA256), key),
				l.rec.put(tx, bucketLoc, key, locs[i].encode()), l.rec.put(tx, bucketFP, key, encodeFingerprints(p.fps))); err != nil {
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

// addCounts changes the counts of documents and templates in meta by docs and templates.
func (l *Library) addCounts(tx *bolt.Tx, docs, templates int) error {
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

// live reports whether the index holds document id.
func (l *Library) live(id uint64) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	_, ok := l.idx.byID[id]
	return ok
}

func idKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// List returns the documents in the order they were added. A document whose record is damaged, or
// that the record and the index do not agree on, is listed all the same, with Damaged saying why,
// and the error (wrapping ErrDamaged) names them.
func (l *Library) List() ([]DocInfo, error) {
	var out []DocInfo
	l.mu.RLock()
	defer l.mu.RUnlock()
	err := l.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketDocs)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var rec docRecord
			v, err := l.rec.open(bucketDocs, k, v)
			if err == nil {
				err = decodeRecord(v, &rec)
			}
			if len(k) != 8 {
				return fmt.Errorf("docs key %x: %w", k, errFormat)
			}
			if id := binary.BigEndian.Uint64(k); err != nil || rec.ID != id {
				out = append(out, DocInfo{ID: id, Damaged: "its record is damaged"})
			} else {
				out = append(out, rec.DocInfo)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("library %s: list: %w", l.dir, err)
	}
	listed := make(map[uint64]bool, len(out))
	for i, d := range out {
		listed[d.ID] = true
		if _, ok := l.idx.byID[d.ID]; !ok && d.Damaged == "" {
			out[i].Damaged = "it is not in the index"
		}
	}
	for id := range l.idx.byID {
		if !listed[id] {
			out = append(out, DocInfo{ID: id, Damaged: "its record is missing"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	var bad []string
	for _, d := range out {
		if d.Damaged != "" {
			bad = append(bad, fmt.Sprintf("document %d: %s", d.ID, d.Damaged))
		}
	}
	if len(bad) > 0 {
		return out, fmt.Errorf("library %s: %s: %w", l.dir, strings.Join(bad, "; "), ErrDamaged)
	}
	return out, nil
}

// decodeRecord reads a docs value, which must describe a document whole.
func decodeRecord(v []byte, rec *docRecord) error {
	if err := json.Unmarshal(v, rec); err != nil {
		return fmt.Errorf("docs value: %w", errFormat)
	}
	if rec.ID == 0 || len(rec.Signature) != similarity.NumHashes {
		return fmt.Errorf("docs value: %w", errFormat)
	}
	return nil
}

// Stats returns the number of documents and paragraphs.
func (l *Library) Stats() (docs, paras int) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.idx.live, l.idx.liveParas
}

// Counts returns the number of documents the library holds and how many of them are templates.
func (l *Library) Counts() (docs, templates int) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.docs, l.templates
}

// Remove deletes documents by id. Unknown ids are an error and nothing is removed.
func (l *Library) Remove(ids ...uint64) error {
	l.writeMu.Lock()
	defer l.writeMu.Unlock()
	// The removal brings the df bucket up to date (pending counts included) in its transaction;
	// dfMu is held until the table in memory follows, so that no load sees the one without the other.
	if l.readOnly {
		return fmt.Errorf("library %s: opened read-only", l.dir)
	}
	// The removal is framed in the store first (synced), so that a library.db rebuilt from the store
	// does not bring the documents back.
	end, err := l.paras.appendRaw(removalFrame(ids))
	if err != nil {
		return fmt.Errorf("library %s: remove: %w", l.dir, err)
	}
	var removed wordCounts
	var dead int64
	templates := 0
	l.dfMu.Lock()
	l.mu.Lock() // as in write: List sees the records and the index change together
	err = l.update(func(tx *bolt.Tx) error {
		removed, dead, templates = wordCounts{words: map[uint32]int{}}, l.paras.dead+(end-l.paras.end), 0
		for _, id := range ids {
			key := idKey(id)
			v, err := l.rec.get(tx, bucketDocs, key)
			if err != nil {
				return fmt.Errorf("document %d: %w", id, err)
			}
			if v == nil {
				return fmt.Errorf("no document with id %d", id)
			}
			var rec docRecord
			if err := decodeRecord(v, &rec); err != nil {
				return fmt.Errorf("document %d: %w", id, err)
			}
			if rec.Template {
				templates++
			}
			// A document whose paragraphs are damaged is removed all the same (that is what its user
			// wants done with it); its words stay in the counts, which only weigh SimHashes.
			if paras, err := storedParas(tx, l.rec, l.paras, key, 0, -1); err == nil {
				wordDelta(paras, -1, removed.words)
				removed.paras -= len(paras)
			}
			loc, err := l.rec.get(tx, bucketLoc, key)
			if err != nil {
				return fmt.Errorf("document %d: %w", id, err)
			}
			if loc != nil {
				c, err := decodeLoc(loc, true)
				if err != nil {
					return fmt.Errorf("document %d: ploc value: %w", id, err)
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
		if err := l.paras.putMeta(tx, l.rec, end, dead); err != nil {
			return err
		}
		if err := l.addCounts(tx, -len(ids), -templates); err != nil {
			return err
		}
		return l.saveWords(tx, removed)
	})
	if err == nil {
		l.pending = wordCounts{}
		l.applyLocked(removed.words, removed.paras)
		l.paras.end, l.paras.dead = end, dead
		for _, id := range ids {
			l.idx.remove(id)
			delete(l.theses, id)
		}
		l.docs -= len(ids)
		l.templates -= templates
	}
	l.mu.Unlock()
	l.dfMu.Unlock()
	if err != nil {
		return fmt.Errorf("library %s: remove: %w", l.dir, err)
	}
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

// Doc returns a document's description and MinHash signature. A document the index holds whose
// record is missing or damaged is an error wrapping ErrDamaged, never a document that is not there.
func (l *Library) Doc(id uint64) (DocInfo, similarity.Signature, error) {
	l.mu.RLock()
	loc, ok := l.idx.byID[id]
	var sig similarity.Signature
	if ok {
		sig = l.idx.signature(loc)
	}
	thesis := l.theses[id] // the record of a document added before kinds were recorded does not say
	l.mu.RUnlock()
	if !ok {
		return DocInfo{}, sig, fmt.Errorf("library %s: document %d: %w", l.dir, id, errNoDocument)
	}
	l.cacheMu.Lock()
	info, ok := l.infos[id]
	l.cacheMu.Unlock()
	info.Thesis = thesis
	if ok {
		return info, sig, nil
	}
	err := l.view(func(tx *bolt.Tx) error {
		v, err := l.rec.get(tx, bucketDocs, idKey(id))
		if err != nil {
			return err
		}
		if v == nil {
			return fmt.Errorf("its record is missing: %w", ErrDamaged)
		}
		var rec docRecord
		if err := decodeRecord(v, &rec); err != nil {
			return err
		}
		if rec.ID != id {
			return fmt.Errorf("its record is document %d's: %w", rec.ID, ErrDamaged)
		}
		info = rec.DocInfo
		return nil
	})
	if err != nil {
		return DocInfo{}, sig, fmt.Errorf("library %s: document %d: %w", l.dir, id, err)
	}
	info.Thesis = thesis
	l.cacheMu.Lock()
	l.cacheInfo(info)
	l.cacheMu.Unlock()
	return info, sig, nil
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
	err = l.view(func(tx *bolt.Tx) error {
		ps, err = storedParas(tx, l.rec, l.paras, idKey(id), from, to)
		return err
	})
	// Asked after the transaction: a writer holds the index lock while it commits, and its commit
	// may wait for every read transaction to end (bbolt remaps the file).
	if errors.Is(err, errNoDocument) && l.live(id) {
		err = fmt.Errorf("its paragraphs' record is missing: %w", ErrDamaged)
	}
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
	docs, templates := 0, 0
	err := l.view(func(tx *bolt.Tx) error {
		// The manifest is derived data: when it is damaged a writable Open makes the index again
		// from fp; a read-only one says so (see below).
		if v, err := l.rec.get(tx, bucketMeta, keySegments); err != nil || (v != nil && json.Unmarshal(v, &manifest) != nil) {
			if l.readOnly {
				return fmt.Errorf("the list of index segments: %w", cmp.Or(err, errFormat))
			}
			manifest = nil
		}
		// The content-hash bucket names every document (both change in one transaction) in a
		// fifteenth of the pages the document records fill: opening reads it, not them.
		if sha := tx.Bucket(bucketSHA); sha != nil {
			c := sha.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				v, err := l.rec.open(bucketSHA, k, v)
				if err != nil || len(v) != 8 {
					return fmt.Errorf("the content record of the document with SHA-256 %q: %w", k, cmp.Or(err, errFormat))
				}
				live[binary.BigEndian.Uint64(v)] = true
			}
		}
		if !l.rec.sealed { // version 2 kept no counts: count the templates
			return tx.Bucket(bucketDocs).ForEach(func(k, v []byte) error {
				var rec docRecord
				if json.Unmarshal(v, &rec) == nil && rec.Template {
					templates++
				}
				docs++
				return nil
			})
		}
		n, err := l.rec.count(tx, keyDocCount)
		if err != nil {
			return err
		}
		t, err := l.rec.count(tx, keyTemplateCount)
		docs, templates = int(n), int(t)
		return err
	})
	if err != nil {
		return err
	}
	// A page of library.db lost from a bucket loses its documents without a checksum to fail.
	if docs != len(live) || templates > docs {
		return fmt.Errorf("library.db counts %d documents (%d templates) and names %d: %w", docs, templates, len(live), ErrDamaged)
	}
	l.docs, l.templates = docs, templates
	var segs []*segment
	covered := uint64(0)
	for _, e := range manifest {
		s, err := openSegment(l.dir, e.Name)
		if err == nil && s.seg.pc == nil && l.rec.sealed {
			unmapFile(s.data)
			err = fmt.Errorf("index %s: it has no checksums: %w", e.Name, ErrDamaged)
		}
		if err != nil {
			for _, s := range segs {
				unmapFile(s.data)
			}
			// The index is derived data: a writable Open makes it again from fp. A read-only one
			// cannot write it and would make it in memory at every check, unseen: it says so.
			if l.readOnly {
				return fmt.Errorf("%w (%w; 'thesischeck library repair' makes the index again)", err, ErrDamaged)
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
	a, err := parseSegment(name, data)
	if err != nil {
		unmapFile(data)
		return nil, fmt.Errorf("index %s: %w", name, err)
	}
	return &segment{name: name, data: data, seg: a, dead: make([]bool, len(a.docIDs))}, nil
}

// loadDocs indexes stored documents in memory from their fingerprints.
func (l *Library) loadDocs(ids []uint64) error {
	return l.view(func(tx *bolt.Tx) error {
		for _, id := range ids {
			k := idKey(id)
			v, err := l.rec.get(tx, bucketDocs, k)
			var rec docRecord
			if err == nil && v == nil {
				err = fmt.Errorf("its record is missing: %w", ErrDamaged)
			}
			if err == nil {
				err = decodeRecord(v, &rec)
			}
			if err != nil {
				return fmt.Errorf("document %d: %w", id, err)
			}
			v, err = l.rec.get(tx, bucketFP, k)
			if err == nil && v == nil {
				err = fmt.Errorf("its fingerprints are missing: %w", ErrDamaged)
			}
			if err != nil {
				return fmt.Errorf("document %d: %w", id, err)
			}
			fps, err := decodeFingerprints(v)
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
	return l.update(func(tx *bolt.Tx) error { return l.rec.put(tx, bucketMeta, keySegments, js) })
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
