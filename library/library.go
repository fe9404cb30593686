// Package library is the reference library: the documents a thesis is checked against, stored in
// one folder that survives crashes, with the indexes that find candidate sources without a scan.
//
// The on-disk format is described in format.go, the in-memory index in index.go.
package library

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"thesischeck/similarity"
)

// folder is a library in a folder of this machine (format.go). It is safe for use by several
// goroutines.
//
// Lock order. A goroutine that holds several of the library's mutexes took them in this order, and
// releases an inner one before it takes one that comes earlier:
//
//	writeMu → storeMu → dfMu → mu → (index.mem.tabMu, bpMu, cacheMu)
//
// writeMu is held by the one writer (AddFiles, Remove, Close); a segment it writes in the
// background takes only mu, in swap, and the writer waits for it (flushDone) before it writes
// another or lets go of the library. storeMu is taken by a reader of the paragraph store, which then asks mu
// (stored → live). Remove holds dfMu and mu together so that the word counts and the index change
// with its transaction. tabMu, bpMu and cacheMu are leaves: nothing is taken while one is held. A
// writer commits a bbolt transaction while it holds mu, and a commit may wait for every read
// transaction to end: so no reader takes mu inside a read transaction (see stored).
type folder struct {
	dir      string
	db       *bolt.DB
	rec      codec // how values are read: checked from format version 3 on
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
	infos   map[uint64]DocInfo // descriptions of recently used documents

	// bp remembers Boilerplate's verdict on common grams (gram<<32 | minDocs → held by minDocs
	// documents), which a check asks about again and again; any change of the library clears it.
	bpMu sync.Mutex
	bp   map[uint64]bool

	theses     map[uint64]bool // ids of the documents that are theses (kinds.go); guarded by mu
	kindsKnown bool            // every document's kind is recorded

	dfMu    sync.RWMutex // guards dft and pending
	dft     dfTable
	pending wordCounts // of documents after the df bucket's checkpoint (see idf.go)

	// Options with their defaults, set by Open and never changed.
	minIDF                            int // Options.MinIDFParagraphs
	batchSize, flushDocs, maxPostings int
	compactMin                        int64
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

	// The rest tune imports, checks and removals; tests set them small to reach their edge cases
	// with a few documents.

	// BatchSize is how many documents one import transaction commits: one fsync per batch instead
	// of per document, and at most one batch lost to a crash. Zero means 32.
	BatchSize int
	// FlushDocs is how many documents an import keeps in the in-memory part of the index before it
	// writes them out as a segment. Zero means 2048.
	FlushDocs int
	// MaxPostings is the most library paragraphs a gram may stand in and still count as evidence
	// (see Candidates). Zero means 10,000.
	MaxPostings int
	// CompactMin is the paragraph store's size in bytes below which removed documents' records are
	// never reclaimed. Zero means 16 MiB.
	CompactMin int64
}

// Defaults of Options.
const (
	defaultBatchSize = 32
	// defaultFlushDocs bounds the memory an import of any size takes.
	defaultFlushDocs = 2048
	// defaultMaxPostings: a gram in more paragraphs is a stock phrase: it singles out no source, and
	// its hits put thousands of paragraphs level with each other. Counting them was most of a check's
	// time in a large library (a 313-page thesis against 100,000 generated documents: 170 million
	// postings visited, best check 3.2 s; 2.2 s with this limit). The thesis devsets checked against
	// their libraries and 100,000 generated documents gave the same recall and precision with it as
	// without. A passage copied into more paragraphs than this is still found by its SimHash when
	// copied near-verbatim.
	defaultMaxPostings = 10_000
	// defaultCompactMin: rewriting a small file for a few documents is not worth a transaction.
	defaultCompactMin = 16 << 20
)

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
	// SHA256 is the file's, from its record (docRecord.SHA256): a check tells by it that the library
	// holds the very file it checks.
	SHA256 string `json:"-"`
}

type docRecord struct {
	DocInfo
	SHA256    string  `json:"sha256"`
	Signature minHash `json:"minhash"`
}

// info is the description a record gives, its file's SHA-256 with it.
func (r *docRecord) info() DocInfo {
	d := r.DocInfo
	d.SHA256 = r.SHA256
	return d
}

// minHash is a document's MinHash signature in its record: written as the base64 of its values
// (uint32 little-endian), 684 characters where the list of numbers format version 3 wrote took
// about 980 (minima are small numbers), in library.db and again in the document's frame in the
// paragraph store: 59 MB of 100,000 documents, and a record reads faster. Both forms read.
type minHash []uint32

func (m minHash) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 4*len(m))
	for _, v := range m {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return json.Marshal(b)
}

func (m *minHash) UnmarshalJSON(data []byte) error {
	if len(data) == 0 || data[0] != '"' {
		return json.Unmarshal(data, (*[]uint32)(m))
	}
	var b []byte
	if err := json.Unmarshal(data, &b); err != nil {
		return err
	}
	if len(b)%4 != 0 {
		return errFormat
	}
	*m = make(minHash, len(b)/4)
	for i := range *m {
		(*m)[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return nil
}

// Errors returned by Open.
var (
	// ErrLocked means another ThesisCheck process is using the library and did not let go in time.
	ErrLocked = errors.New("in use by another ThesisCheck process (close it or try again)")
	// ErrVersion means the library was written by a newer ThesisCheck.
	ErrVersion = errors.New("library: written by a newer version of ThesisCheck")
)

// formatVersion 5 checksums new index segments by blocks of 1 KiB instead of pages of 4 KiB
// (segcheck.go). Version 4 writes paragraph records with packed tokens and fp values without grams
// (format.go), which say so in their first bytes. What versions 3 and 4 wrote stays as it is and
// reads as before, so a writable Open of such a library only writes the new number, which keeps
// older binaries from reading the new files. Version 3 seals every value of library.db with a checksum, frames the documents in the
// paragraph store (frame.go) and checksums the index segments' pages. Version 2 kept paragraphs in
// the store without frames or checksums; version 1 kept them in bucket paras. Both are read as they
// are by a read-only Open; a writable Open upgrades them (repair.go).
const (
	formatVersion    = "5"
	formatVersionNum = 5
)

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

// unstampedAnalyser names the analyser of a library made before libraries were stamped with theirs:
// revision 1's, whose tables this version cannot name.
const unstampedAnalyser = "1 (before libraries were stamped)"

// madeBy names the analyser a library's stamp (meta "analyser", nil when there is none) says made
// its fingerprints.
func madeBy(stamp []byte) string {
	if stamp == nil {
		return unstampedAnalyser
	}
	return string(stamp)
}

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
func openFolder(dir string, opts *Options) (*folder, error) {
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
			version = formatVersionNum
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
	l := &folder{dir: dir, db: db, rec: rec, readOnly: opts.ReadOnly, paras: store, infos: map[uint64]DocInfo{}, bp: map[uint64]bool{},
		minIDF: cmp.Or(opts.MinIDFParagraphs, DefaultMinIDFParagraphs), batchSize: cmp.Or(opts.BatchSize, defaultBatchSize),
		flushDocs: cmp.Or(opts.FlushDocs, defaultFlushDocs), maxPostings: cmp.Or(opts.MaxPostings, defaultMaxPostings),
		compactMin: cmp.Or(opts.CompactMin, defaultCompactMin)}
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
	// A library.db whose creation was cut short before its meta was written (version 0, opened
	// read-only: a writable open has just stamped it) holds nothing an analyser made.
	if err := l.checkAnalyser(); err != nil && version != 0 {
		store.close()
		db.Close()
		return nil, fmt.Errorf("library %s: %w", dir, err)
	}
	if !opts.ReadOnly && version >= 3 && version < formatVersionNum {
		err := l.update(func(tx *bolt.Tx) error { return rec.put(tx, bucketMeta, keyVersion, []byte(formatVersion)) })
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

// checkAnalyser refuses a library whose fingerprints another text analyser made. A library made
// before they were stamped was made by the analyser of revision 1 (unstampedAnalyser).
func (l *folder) checkAnalyser() error {
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
	case madeBy(have) != want:
		return fmt.Errorf("%w (its analyser %s, this version's %s)", ErrAnalyser, madeBy(have), want)
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
	if err == nil && version > formatVersionNum {
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
func (l *folder) Dir() string { return l.dir }

// Close releases the library.
func (l *folder) Close() error {
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
