// Package library is the reference library: the documents a thesis is checked against, stored in
// one folder that survives crashes, with the indexes that find candidate sources without a scan.
//
// The on-disk format is described in format.go, the in-memory index in index.go.
package library

import (
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
	"sort"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// Library is an open reference library. It is safe for use by several goroutines.
type Library struct {
	dir string
	db  *bolt.DB
	seg *similarity.Segmenter

	mu  sync.RWMutex
	idx *index

	cacheMu sync.Mutex
	cache   map[uint64][]Paragraph // decoded paragraphs of recently used documents
}

// Options configure Open. A nil *Options means the defaults.
type Options struct {
	// ReadOnly opens the library for checks only; other read-only users may share it.
	ReadOnly bool
	// Timeout is how long Open waits for another process that holds the library. Zero means 3 s.
	Timeout time.Duration
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
}

type docRecord struct {
	DocInfo
	SHA256    string   `json:"sha256"`
	Signature []uint32 `json:"minhash"`
}

// Errors returned by Open.
var (
	// ErrLocked means another ThesisCheck process is using the library and did not let go in time.
	ErrLocked = errors.New("library: in use by another ThesisCheck process (close it or try again)")
	// ErrVersion means the library was written by a newer ThesisCheck.
	ErrVersion = errors.New("library: written by a newer version of ThesisCheck")
)

const formatVersion = "1"

var (
	bucketMeta  = []byte("meta")
	bucketDocs  = []byte("docs")
	bucketSHA   = []byte("sha")
	bucketParas = []byte("paras")
	bucketFP    = []byte("fp")
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

// Open opens (creating if needed) the library in dir and builds its index. It loads the segmenter,
// which takes about a second the first time in a process.
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
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("library %s: %w", dir, err)
		}
	}
	db, err := bolt.Open(path, 0o644, &bolt.Options{Timeout: timeout, ReadOnly: opts.ReadOnly, FreelistType: bolt.FreelistMapType})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, fmt.Errorf("library %s: %w", dir, ErrLocked)
		}
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	l := &Library{dir: dir, db: db, cache: map[uint64][]Paragraph{}}
	if !opts.ReadOnly {
		err = db.Update(func(tx *bolt.Tx) error {
			for _, b := range [][]byte{bucketMeta, bucketDocs, bucketSHA, bucketParas, bucketFP} {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
			m := tx.Bucket(bucketMeta)
			if v := m.Get([]byte("version")); v == nil {
				return m.Put([]byte("version"), []byte(formatVersion))
			} else if string(v) != formatVersion {
				return ErrVersion
			}
			return nil
		})
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("library %s: %w", dir, err)
		}
	}
	if l.seg, err = similarity.Default(); err != nil {
		db.Close()
		return nil, err
	}
	if err := l.load(); err != nil {
		db.Close()
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	return l, nil
}

// Dir is the library's folder.
func (l *Library) Dir() string { return l.dir }

// Close releases the library.
func (l *Library) Close() error { return l.db.Close() }

// load builds the in-memory index from the fp and docs buckets.
func (l *Library) load() error {
	idx := newIndex()
	err := l.db.View(func(tx *bolt.Tx) error {
		docs, fpb := tx.Bucket(bucketDocs), tx.Bucket(bucketFP)
		if docs == nil || fpb == nil {
			return nil
		}
		return docs.ForEach(func(k, v []byte) error {
			var rec docRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				return fmt.Errorf("document %x: %w", k, errFormat)
			}
			fps, err := decodeFingerprints(fpb.Get(k))
			if err != nil {
				return fmt.Errorf("document %d: %w", rec.ID, err)
			}
			idx.add(rec, fps)
			return nil
		})
	})
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.idx = idx
	l.mu.Unlock()
	return nil
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
	err   error
}

// winnowWindow is the winnowing window of the gram index: shared runs of five words or more are
// always found (see similarity.Winnow).
const winnowWindow = 4

// batchSize is how many documents one transaction commits: one fsync per batch instead of per
// document, and at most one batch lost to a crash.
const batchSize = 32

// AddFiles adds files, and folders recursively. Files are extracted and fingerprinted on all cores;
// documents are committed in batches. A file that fails is listed in the result and the rest still
// go in. progress may be nil; it is called from the calling goroutine.
func (l *Library) AddFiles(ctx context.Context, paths []string, opts AddOptions, progress func(AddProgress)) (AddResult, error) {
	var res AddResult
	files, bad := Files(paths)
	res.Failed = append(res.Failed, bad...)
	if progress == nil {
		progress = func(AddProgress) {}
	}
	progress(AddProgress{Total: len(files)})

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
	go func() {
		defer close(jobs)
		for i := range files {
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
		return nil
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
	data, err := os.ReadFile(path)
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
	p.rec = docRecord{DocInfo: DocInfo{Path: abs, Title: doc.Title, Template: opts.Template}, SHA256: hex.EncodeToString(sum[:])}
	var shingles []uint32
	for _, ep := range doc.Paragraphs {
		pr := l.seg.Prepare(ep.Text)
		p.paras = append(p.paras, Paragraph{Text: ep.Text, Section: string(ep.Section), Chapter: ep.Chapter, Page: ep.Page, Heading: ep.Heading, Tokens: pr.Tokens})
		p.fps = append(p.fps, fingerprint{SimHash: pr.SimHash, Grams: similarity.Winnow(pr.Grams, winnowWindow)})
		shingles = append(shingles, similarity.Shingles(pr.Tokens)...)
		p.rec.Chars += len([]rune(ep.Text))
	}
	sig := similarity.MinHash(shingles)
	p.rec.Signature = sig[:]
	p.rec.Paragraphs = len(p.paras)
	return p
}

// write commits a batch in one transaction and adds it to the index.
func (l *Library) write(batch []prepared) (added []DocInfo, dups []string, err error) {
	var recs []docRecord
	var fps [][]fingerprint
	err = l.db.Update(func(tx *bolt.Tx) error {
		recs, fps, added, dups = recs[:0], fps[:0], added[:0], dups[:0]
		shaB, docs, meta := tx.Bucket(bucketSHA), tx.Bucket(bucketDocs), tx.Bucket(bucketMeta)
		next := uint64(1)
		if v := meta.Get([]byte("next")); len(v) == 8 {
			next = binary.BigEndian.Uint64(v)
		}
		for _, p := range batch {
			if shaB.Get([]byte(p.rec.SHA256)) != nil {
				dups = append(dups, p.path)
				continue
			}
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
			if err := shaB.Put([]byte(rec.SHA256), key); err != nil {
				return err
			}
			if err := tx.Bucket(bucketParas).Put(key, encodeParas(p.paras)); err != nil {
				return err
			}
			if err := tx.Bucket(bucketFP).Put(key, encodeFingerprints(p.fps)); err != nil {
				return err
			}
			recs = append(recs, rec)
			fps = append(fps, p.fps)
			added = append(added, rec.DocInfo)
		}
		return meta.Put([]byte("next"), binary.BigEndian.AppendUint64(nil, next))
	})
	if err != nil {
		return nil, nil, fmt.Errorf("library %s: write: %w", l.dir, err)
	}
	l.mu.Lock()
	for i := range recs {
		l.idx.add(recs[i], fps[i])
	}
	l.mu.Unlock()
	return added, dups, nil
}

func idKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// List returns the documents in the order they were added.
func (l *Library) List() []DocInfo {
	l.mu.RLock()
	defer l.mu.RUnlock()
	out := make([]DocInfo, 0, len(l.idx.docs))
	for _, d := range l.idx.docs {
		if !d.removed {
			out = append(out, d.rec.DocInfo)
		}
	}
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
	err := l.db.Update(func(tx *bolt.Tx) error {
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
			for _, b := range [][]byte{bucketDocs, bucketParas, bucketFP} {
				if err := tx.Bucket(b).Delete(key); err != nil {
					return err
				}
			}
			if err := tx.Bucket(bucketSHA).Delete([]byte(rec.SHA256)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("library %s: remove: %w", l.dir, err)
	}
	l.mu.Lock()
	for _, id := range ids {
		l.idx.remove(id)
	}
	l.mu.Unlock()
	l.cacheMu.Lock()
	for _, id := range ids {
		delete(l.cache, id)
	}
	l.cacheMu.Unlock()
	return nil
}

// Doc returns a document's description and MinHash signature.
func (l *Library) Doc(id uint64) (DocInfo, similarity.Signature, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	slot, ok := l.idx.byID[id]
	if !ok || l.idx.docs[slot].removed {
		return DocInfo{}, similarity.Signature{}, false
	}
	d := l.idx.docs[slot]
	return d.rec.DocInfo, d.sig, true
}

// Paragraphs returns the stored paragraphs of a document (text and tokens). The result is shared:
// callers must not modify it.
func (l *Library) Paragraphs(id uint64) ([]Paragraph, error) {
	l.cacheMu.Lock()
	if ps, ok := l.cache[id]; ok {
		l.cacheMu.Unlock()
		return ps, nil
	}
	l.cacheMu.Unlock()
	var ps []Paragraph
	err := l.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketParas).Get(idKey(id))
		if v == nil {
			return fmt.Errorf("no document with id %d", id)
		}
		var err error
		ps, err = decodeParas(v)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("library %s: %w", l.dir, err)
	}
	l.cacheMu.Lock()
	if len(l.cache) > 256 {
		clear(l.cache)
	}
	l.cache[id] = ps
	l.cacheMu.Unlock()
	return ps, nil
}
