package library

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"thesischeck/similarity"
)

// inspect reads everything a library holds, checks it, and keeps what can be used: `library check`
// reports what it found, `library repair` and the upgrade of an older format rebuild from it.

// Problem is one thing `library check` found damaged.
type Problem struct {
	Doc  uint64 `json:"doc,omitempty"` // the document it concerns, if one
	What string `json:"what"`
}

// docState is what could be read of one document: from library.db and from its frame in the store.
type docState struct {
	id      uint64
	rec     *docRecord // docs value, checked
	frec    *docRecord // from the frame
	loc     *paraLoc   // ploc value, checked
	floc    *paraLoc   // from the frame
	sims    []uint64   // the SimHashes of its fingerprints, nil when they do not read (fp is read again to rebuild)
	inDB    bool       // some value of library.db names it
	removed bool       // a removal frame names it
	v1      bool       // its paragraphs are in bucket paras (format version 1)
	good    *paraLoc
	goodOK  bool // its paragraphs read and check (through good, or bucket paras)
	framed  bool // good is a frame of the store that checks
}

// record is the best description known of the document, nil when none.
func (d *docState) record() *docRecord {
	if d.rec != nil {
		return d.rec
	}
	return d.frec
}

type inspection struct {
	dir      string
	version  int
	rec      codec
	dbOK     bool // library.db opened and every value of it was read
	dbRead   bool // library.db opened and its format is known: its records say what the library holds
	problems []Problem
	notes    []string
	docs     map[uint64]*docState
	next     uint64
	store    *paraStore // nil when there is none
	sha      map[uint64]string
	docCount int
	tmplCnt  int
	manifest []segEntry
	// stale: library.db names a text analyser other than this version's (its meta "analyser"):
	// every document's tokens and fingerprints must be made again.
	stale bool
}

func (in *inspection) problem(doc uint64, format string, args ...any) {
	in.problems = append(in.problems, Problem{Doc: doc, What: fmt.Sprintf(format, args...)})
}

func (in *inspection) doc(id uint64) *docState {
	d := in.docs[id]
	if d == nil {
		d = &docState{id: id}
		in.docs[id] = d
	}
	return d
}

// ids are the documents in id order.
func (in *inspection) ids() []uint64 {
	ids := make([]uint64, 0, len(in.docs))
	for id := range in.docs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// inspect reads the library in dir through db (nil when library.db cannot be opened) and checks
// every value, frame and paragraph. progress, if set, is called with documents done and total.
func inspect(dir string, db *bolt.DB, progress func(done, total int)) *inspection {
	in := &inspection{dir: dir, docs: map[uint64]*docState{}, sha: map[uint64]string{}, next: 1}
	if db != nil {
		in.readDB(db)
	}
	in.readStore()
	ids := in.ids()
	for i, id := range ids {
		d := in.docs[id]
		if progress != nil && i%64 == 0 {
			progress(i, len(ids))
		}
		in.checkDoc(db, d)
	}
	if progress != nil {
		progress(len(ids), len(ids))
	}
	return in
}

// readDB reads every value of library.db.
func (in *inspection) readDB(db *bolt.DB) {
	v, err := readVersion(db)
	if err != nil {
		in.problem(0, "library.db: %v", err)
		return
	}
	in.version, in.rec, in.dbRead = v, codec{sealed: v == 0 || v >= 3}, true
	if !in.rec.sealed {
		in.notes = append(in.notes, fmt.Sprintf("the library is in format version %d: its records and index carry no checksums, so damage to them cannot be told (opening it for writing, e.g. 'thesischeck library repair', upgrades it)", v))
	}
	walked := true
	walk := func(bucket []byte, f func(k, v []byte)) {
		where := fmt.Sprintf("library.db: bucket %s", bucket)
		err := guard(where, func() error {
			err := db.View(func(tx *bolt.Tx) error {
				b := tx.Bucket(bucket)
				if b == nil {
					return nil
				}
				return b.ForEach(func(k, v []byte) error { f(k, v); return nil })
			})
			if err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			return nil
		})
		if err != nil {
			walked = false
			in.problem(0, "%v", err) // it says where
		}
	}
	meta := in.readMeta(walk)
	docs, templates := in.readRecords(walk)
	in.readIndexes(walk)
	if in.rec.sealed && (docs != in.docCount || templates != in.tmplCnt) {
		in.problem(0, "library.db: its counts say %d documents (%d templates), its records %d (%d)", in.docCount, in.tmplCnt, docs, templates)
	}
	if in.rec.sealed {
		var sum, want uint64
		walk(bucketDF, func(k, v []byte) { sum += dfEntry(k, v) })
		want, _ = binary.Uvarint(meta[string(keyDFSum)])
		if sum != want {
			in.problem(0, "library.db: the word counts (bucket df) fail their checksum")
		}
	}
	if walked {
		in.checkTree(db)
	}
}

// walkFunc calls f with every key and value of a bucket of library.db, and notes a bucket that fails.
type walkFunc func(bucket []byte, f func(k, v []byte))

// readMeta reads bucket meta: the next id, the counts, the manifest, the store and the analyser.
func (in *inspection) readMeta(walk walkFunc) map[string][]byte {
	meta := map[string][]byte{}
	made := false // the library wrote its meta: a library.db whose creation was cut short has none
	walk(bucketMeta, func(k, v []byte) {
		if string(k) == string(keyVersion) {
			made = true
			return
		}
		u, err := in.rec.open(bucketMeta, k, v)
		if err != nil {
			in.problem(0, "library.db: meta %s: %v", k, err)
			return
		}
		meta[string(k)] = slices.Clone(u)
	})
	if v := madeBy(meta[string(keyAnalyser)]); made && v != similarity.AnalyserVersion() {
		in.stale = true
		in.problem(0, "library.db: its tokens and fingerprints were made by text analyser %s, this ThesisCheck's is %s: a check would find nothing in it", v, similarity.AnalyserVersion())
	}
	if v := meta[string(keyNext)]; len(v) == 8 {
		in.next = binary.BigEndian.Uint64(v)
	}
	count := func(k []byte) int {
		n, _ := binary.Uvarint(meta[string(k)])
		return int(n)
	}
	in.docCount, in.tmplCnt = count(keyDocCount), count(keyTemplateCount)
	if v := meta[string(keySegments)]; v != nil && json.Unmarshal(v, &in.manifest) != nil {
		in.problem(0, "library.db: meta segments: %v", errFormat)
	}
	in.store = &paraStore{name: "paras-1.dat", end: -1}
	if v := meta[string(keyParasFile)]; v != nil {
		in.store.name = string(v)
	}
	if _, ok := meta[string(keyParasEnd)]; ok {
		in.store.end = int64(count(keyParasEnd))
	}
	return meta
}

// docID reads a key of a document bucket, noting one that is no document id.
func (in *inspection) docID(k []byte) (uint64, bool) {
	if len(k) != 8 {
		in.problem(0, "library.db: a key of %d bytes where a document id takes 8", len(k))
		return 0, false
	}
	return binary.BigEndian.Uint64(k), true
}

// readRecords reads the documents' records and where their paragraphs are, and counts documents
// and templates.
func (in *inspection) readRecords(walk walkFunc) (docs, templates int) {
	walk(bucketDocs, func(k, v []byte) {
		n, ok := in.docID(k)
		if !ok {
			return
		}
		d := in.doc(n)
		d.inDB = true
		docs++
		var rec docRecord
		u, err := in.rec.open(bucketDocs, k, v)
		if err == nil {
			err = decodeRecord(u, &rec)
		}
		if err == nil && rec.ID != n {
			err = fmt.Errorf("it is document %d's: %w", rec.ID, ErrDamaged)
		}
		if err != nil {
			in.problem(n, "document %d: its record: %v", n, err)
			return
		}
		d.rec = &rec
		if rec.Template {
			templates++
		}
	})
	walk(bucketLoc, func(k, v []byte) {
		n, ok := in.docID(k)
		if !ok {
			return
		}
		d := in.doc(n)
		d.inDB = true
		u, err := in.rec.open(bucketLoc, k, v)
		var loc paraLoc
		if err == nil {
			loc, err = decodeLoc(u, in.rec.sealed)
		}
		if err != nil {
			in.problem(n, "document %d: where its paragraphs are (ploc): %v", n, err)
			return
		}
		d.loc = &loc
	})
	walk(bucketParas, func(k, _ []byte) {
		if n, ok := in.docID(k); ok {
			in.doc(n).v1, in.doc(n).inDB = true, true
		}
	})
	return docs, templates
}

// readIndexes reads the fingerprints, content hashes and kinds.
func (in *inspection) readIndexes(walk walkFunc) {
	walk(bucketFP, func(k, v []byte) {
		n, ok := in.docID(k)
		if !ok {
			return
		}
		d := in.doc(n)
		d.inDB = true
		u, err := in.rec.open(bucketFP, k, v)
		var fps []fingerprint
		if err == nil {
			fps, _, err = decodeFingerprints(u)
		}
		if err != nil {
			in.problem(n, "document %d: its fingerprints: %v", n, err)
			return
		}
		d.sims = make([]uint64, len(fps))
		for i, f := range fps {
			d.sims[i] = f.SimHash
		}
	})
	walk(bucketSHA, func(k, v []byte) {
		u, err := in.rec.open(bucketSHA, k, v)
		if err != nil || len(u) != 8 {
			in.problem(0, "library.db: the content record of SHA-256 %.16s…: %v", k, errors.Join(err, errFormat))
			return
		}
		n := binary.BigEndian.Uint64(u)
		in.doc(n).inDB = true
		in.sha[n] = string(k)
	})
	walk(bucketTheses, func(k, v []byte) {
		// A damaged entry would move a document between the kinds that the boilerplate rule counts
		// among (kinds.go); a missing one is counted again by the next writable open.
		_, err := in.rec.open(bucketTheses, k, v)
		if err == nil && len(k) != 8 {
			err = errFormat
		}
		if err != nil {
			in.problem(0, "library.db: a document's kind (bucket theses): %v", err)
		}
	})
}

// checkTree runs bbolt's consistency check over library.db; the first ten problems are noted.
func (in *inspection) checkTree(db *bolt.DB) {
	var errs []string
	err := guard("library.db", func() error {
		return db.View(func(tx *bolt.Tx) error {
			for err := range tx.Check() {
				if len(errs) < 10 {
					errs = append(errs, err.Error())
				}
			}
			return nil
		})
	})
	if err != nil { // a check that broke off vouches for nothing
		errs = append(errs, err.Error())
	}
	for _, e := range errs {
		in.problem(0, "library.db: %s", e)
	}
	in.dbOK = len(errs) == 0
}

// readStore opens the paragraph store and reads its frames. Without library.db it is the newest
// paras-N.dat of the folder, read to its end.
func (in *inspection) readStore() {
	if in.store == nil {
		in.store = &paraStore{end: -1}
		entries, _ := os.ReadDir(in.dir)
		best := 0
		for _, e := range entries {
			if g, ok := parasGeneration(e.Name()); ok && g > best {
				best, in.store.name = g, e.Name()
			}
		}
		if best == 0 {
			in.store = nil
			return
		}
	}
	s := in.store
	if _, ok := parasGeneration(s.name); !ok {
		in.problem(0, "library.db names the paragraph store %q", s.name)
		in.store = nil
		return
	}
	f, err := os.Open(filepath.Join(in.dir, s.name))
	if err != nil {
		placed := s.end > 0
		for _, d := range in.docs {
			placed = placed || d.loc != nil
		}
		if placed { // a library of format version 1 has none
			in.problem(0, "paragraph store: %v", err)
		}
		in.store = nil
		return
	}
	s.f = f
	st, err := f.Stat()
	if err != nil {
		in.problem(0, "paragraph store: %v", err)
		return
	}
	size := st.Size()
	if s.end < 0 {
		s.end = size
	} else if size < s.end {
		in.problem(0, "%s: %d bytes where the library has %d: the file was cut short", s.name, size, s.end)
		s.end = size // what a rebuild that keeps the file can count on
	}
	if in.version > 0 && in.version < 3 {
		return // no frames
	}
	seen := map[uint64]bool{}
	scanFrames(f, min(size, s.end), func(off int64, fr frame) {
		if fr.kind == frameRemoval {
			for _, id := range fr.ids {
				in.doc(id).removed = true
			}
			return
		}
		if seen[fr.id] {
			return // a document is written once; a second frame is chance
		}
		seen[fr.id] = true
		d := in.doc(fr.id)
		loc := fr.loc(off)
		d.floc = &loc
		var rec docRecord
		if decodeRecord(fr.rec, &rec) == nil && rec.ID == fr.id {
			d.frec = &rec
		}
	})
}

// checkDoc reads a document's paragraphs and checks that its records agree.
func (in *inspection) checkDoc(db *bolt.DB, d *docState) {
	if d.removed && !d.inDB {
		return
	}
	if d.removed { // a removal that did not commit (killed between the store and library.db)
		in.problem(d.id, "document %d: the store says it was removed, library.db still lists it", d.id)
	}
	var firstErr error
	try := func(loc *paraLoc) bool {
		if loc == nil || in.store == nil || in.store.f == nil {
			return false
		}
		if err := in.store.verify(*loc); err != nil {
			firstErr = cmpErr(firstErr, err)
			return false
		}
		d.good, d.goodOK = loc, true
		return true
	}
	if !try(d.loc) {
		try(d.floc)
	}
	if !d.goodOK && d.v1 && db != nil {
		err := guard("library.db", func() error {
			return db.View(func(tx *bolt.Tx) error {
				_, err := storedParas(tx, in.rec, in.store, idKey(d.id), 0, -1)
				return err
			})
		})
		d.goodOK = err == nil
		firstErr = cmpErr(firstErr, err)
	}
	if d.good != nil && d.floc != nil && d.floc.off == d.good.off && slices.Equal(d.floc.crcs, d.good.crcs) {
		d.framed = true
	}
	name := d.name()
	switch {
	case !d.goodOK && firstErr != nil:
		in.problem(d.id, "document %d%s: its paragraphs: %v", d.id, name, firstErr)
	case !d.goodOK:
		in.problem(d.id, "document %d%s: nothing says where its paragraphs are", d.id, name)
	}
	if !d.inDB {
		if in.dbRead { // without library.db, every document is in this case: said once (inspectDir)
			in.problem(d.id, "document %d%s: the store holds it, library.db does not", d.id, name)
		}
		return
	}
	if in.version >= 3 && d.goodOK && !d.framed && !d.v1 {
		in.problem(d.id, "document %d%s: its frame in the paragraph store is missing or damaged", d.id, name)
	}
	n := -1
	if d.good != nil {
		n = len(d.good.lens)
	}
	switch {
	case d.rec == nil:
		if !in.hasProblem(d.id, "its record") {
			in.problem(d.id, "document %d%s: its record is missing", d.id, name)
		}
	case n >= 0 && d.rec.Paragraphs != n:
		in.problem(d.id, "document %d%s: its record says %d paragraphs, the store holds %d", d.id, name, d.rec.Paragraphs, n)
	}
	switch {
	case d.sims == nil:
		if !in.hasProblem(d.id, "its fingerprints") {
			in.problem(d.id, "document %d%s: its fingerprints are missing", d.id, name)
		}
	case n >= 0 && len(d.sims) != n:
		in.problem(d.id, "document %d%s: %d fingerprints for %d paragraphs", d.id, name, len(d.sims), n)
	}
	if _, ok := in.sha[d.id]; !ok {
		in.problem(d.id, "document %d%s: its content record (bucket sha) is missing", d.id, name)
	}
	if d.id >= in.next {
		in.problem(d.id, "document %d%s: its id is past the next id, %d", d.id, name, in.next)
	}
}

func (in *inspection) hasProblem(doc uint64, what string) bool {
	for _, p := range in.problems {
		if p.Doc == doc && strings.Contains(p.What, what) {
			return true
		}
	}
	return false
}

// name is the document's title or file, in parentheses, when a record gives one.
func (d *docState) name() string {
	r := d.record()
	switch {
	case r == nil:
		return ""
	case r.Path != "":
		return fmt.Sprintf(" (%s)", filepath.Base(r.Path))
	case r.Title != "":
		return fmt.Sprintf(" (%s)", r.Title)
	}
	return ""
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// close releases the store.
func (in *inspection) close() {
	if in.store != nil {
		in.store.close()
	}
}

// live are the documents the library holds: named by library.db, not removed.
func (in *inspection) live(id uint64) bool {
	d := in.docs[id]
	return d != nil && d.inDB && d.rec != nil && !d.removed
}
