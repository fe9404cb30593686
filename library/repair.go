package library

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"thesischeck/internal/english"
	"thesischeck/similarity"
)

// CheckReport is what `library check` found.
type CheckReport struct {
	Dir       string    `json:"dir"`
	Version   int       `json:"version"`   // format version of library.db (0 when it cannot be read)
	Documents int       `json:"documents"` // documents whose paragraphs read whole
	Problems  []Problem `json:"problems"`  // what is damaged; empty when nothing is
	Notes     []string  `json:"notes,omitempty"`
}

// Damaged reports whether the check found anything damaged.
func (r *CheckReport) Damaged() bool { return len(r.Problems) > 0 }

// RepairReport is what `library repair` did.
type RepairReport struct {
	Dir      string    `json:"dir"`
	Problems []Problem `json:"problems"` // what the check before the repair found
	Repaired bool      `json:"repaired"` // false when there was nothing to repair
	// Backup is the folder the replaced files were moved to ("" when none were).
	Backup    string    `json:"backup,omitempty"`
	Documents int       `json:"documents"` // documents in the repaired library
	Lost      []DocInfo `json:"lost"`      // documents that must be added again: what is known of them
	Notes     []string  `json:"notes,omitempty"`
}

// Check reads every part of the library in dir and checks it: bbolt's own structure check, every
// checksum (values, paragraphs, frames, index pages), and that the index and the records agree.
// It opens the library read-only and changes nothing. progress may be nil.
func Check(dir string, progress func(done, total int)) (*CheckReport, error) {
	in, db, err := inspectDir(dir, progress)
	if err != nil {
		return nil, err
	}
	if db != nil {
		db.Close()
	}
	defer in.close()
	return in.report(), nil
}

// inspectDir opens library.db read-only (when it opens) and inspects the library; the caller
// closes the database it returns.
func inspectDir(dir string, progress func(done, total int)) (*inspection, *bolt.DB, error) {
	if IsRemote(dir) {
		return nil, nil, fmt.Errorf("library %s: check and repair read a library folder's files; a Redis server keeps its own data safe (its persistence and replicas)", redactURL(dir))
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, nil, fmt.Errorf("library %s: %w", dir, err)
	}
	path := filepath.Join(dir, "library.db")
	var db *bolt.DB
	_, statErr := os.Stat(path)
	dbErr := statErr
	if statErr == nil {
		db, dbErr = openDB(path, 3*time.Second, true)
		if errors.Is(dbErr, ErrLocked) {
			return nil, nil, fmt.Errorf("library %s: %w", dir, dbErr)
		}
	}
	in := inspect(dir, db, progress)
	if dbErr != nil {
		if in.store == nil && len(in.docs) == 0 {
			if db != nil {
				db.Close()
			}
			return nil, nil, fmt.Errorf("library %s: no library here: %w", dir, dbErr)
		}
		n := 0
		for _, d := range in.docs {
			if d.goodOK && !d.removed {
				n++
			}
		}
		in.problems = append([]Problem{{What: fmt.Sprintf("library.db: %v (the paragraph store holds %d documents that 'thesischeck library repair' makes it again from)", dbErr, n)}}, in.problems...)
	}
	in.checkSegments()
	return in, db, nil
}

func (in *inspection) report() *CheckReport {
	r := &CheckReport{Dir: in.dir, Version: in.version, Problems: in.problems, Notes: in.notes}
	for _, d := range in.docs {
		if d.goodOK && !d.removed {
			r.Documents++
		}
	}
	if r.Problems == nil {
		r.Problems = []Problem{}
	}
	return r
}

// checkSegments checks every page of the index segments the manifest names, and that they agree
// with the records: every document of a segment is the library's or was removed, holds as many
// paragraphs with the same SimHashes as its fingerprints, and the same MinHash signature; every
// document the manifest says is covered is in a segment.
func (in *inspection) checkSegments() {
	inSeg := map[uint64]bool{}
	covered := uint64(0)
	for _, e := range in.manifest {
		covered = e.Last
		s, err := openSegment(in.dir, e.Name)
		if err != nil {
			in.problem(0, "%v", err) // it names the index
			continue
		}
		if err := s.seg.sums.all(s.release); err != nil {
			in.problem(0, "index %s: %v", e.Name, err)
		}
		if s.seg.sums == nil && in.rec.sealed {
			in.problem(0, "index %s: it has no checksums", e.Name)
		}
		a := &s.seg
		for d, id := range a.docIDs {
			inSeg[id] = true
			if id >= in.next {
				in.problem(id, "index %s: document %d, which the library never had", e.Name, id)
				continue
			}
			ds := in.docs[id]
			if !in.live(id) || ds.sims == nil {
				continue
			}
			first, last := int(a.docFirst[d]), int(a.docFirst[d+1])
			same := last-first == len(ds.sims)
			for i := 0; same && i < len(ds.sims); i++ {
				same = a.sims[first+i] == ds.sims[i]
			}
			for i := 0; same && i < sigWords; i++ {
				same = a.sigs[d*sigWords+i] == ds.rec.Signature[i]
			}
			if !same {
				in.problem(id, "index %s: document %d differs from its fingerprints", e.Name, id)
			}
		}
		unmapFile(s.data)
	}
	for _, id := range in.ids() {
		if id <= covered && in.live(id) && !inSeg[id] {
			in.problem(id, "document %d is not in the index", id)
		}
	}
}

// Repair rebuilds what can be rebuilt of a damaged library: library.db from what of it still reads
// and from the paragraph store's frames (document records, fingerprints from the stored text when
// theirs are lost, word counts), a new paragraph store when the old one is damaged, and the index
// from the fingerprints. The files it replaces are moved to a folder damaged-TIME in the library,
// never deleted. The documents whose paragraphs cannot be read whole are listed in Lost: they must
// be added again. A library of an older format is upgraded. progress may be nil.
func Repair(dir string, progress func(done, total int)) (*RepairReport, error) {
	in, db, err := inspectDir(dir, progress)
	if err != nil {
		return nil, err
	}
	rep := &RepairReport{Dir: dir, Problems: in.report().Problems, Notes: in.notes}
	if !in.report().Damaged() {
		if db != nil {
			db.Close()
		}
		in.close()
		if in.version == 1 || in.version == 2 { // an upgrade is a writable open
			l, err := openFolder(dir, nil)
			if err != nil {
				return nil, err
			}
			rep.Documents, _ = l.Counts()
			rep.Repaired, rep.Notes = true, []string{fmt.Sprintf("upgraded from format version %d", in.version)}
			return rep, l.Close()
		}
		rep.Documents = in.report().Documents
		return rep, nil
	}
	b, err := in.rebuild(db)
	if db != nil {
		db.Close()
	}
	in.close()
	if err != nil {
		return nil, fmt.Errorf("library %s: repair: %w", dir, err)
	}
	rep.Lost, rep.Documents = b.lost, b.kept
	rep.Notes = append(rep.Notes, b.notes...)
	backup := filepath.Join(dir, "damaged-"+time.Now().Format("20060102-150405"))
	if err := os.Mkdir(backup, 0o755); err != nil {
		os.Remove(b.db)
		return nil, fmt.Errorf("library %s: repair: %w", dir, err)
	}
	moved := []string{"library.db"}
	if b.store != in.storeName() && in.storeName() != "" {
		moved = append(moved, in.storeName())
	}
	for _, name := range moved {
		if err := os.Rename(filepath.Join(dir, name), filepath.Join(backup, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			os.Remove(b.db)
			return nil, fmt.Errorf("library %s: repair: keeping %s aside: %w", dir, name, err)
		}
	}
	if err := os.Rename(b.db, filepath.Join(dir, "library.db")); err != nil {
		return nil, fmt.Errorf("library %s: repair: %w (the old files are in %s)", dir, err, backup)
	}
	if err := syncDir(dir); err != nil {
		return nil, err
	}
	rep.Repaired, rep.Backup = true, backup
	// A writable open writes the index and removes the old segments.
	l, err := openFolder(dir, nil)
	if err != nil {
		return rep, fmt.Errorf("library %s: after the repair: %w", dir, err)
	}
	return rep, l.Close()
}

func (in *inspection) storeName() string {
	if in.store == nil {
		return ""
	}
	return in.store.name
}

// upgrade turns a library of format version 1 or 2, open for writing in db, into the current
// format: its documents framed in a new paragraph store, its values sealed, its index made again.
// Nothing is lost: a library any of whose documents cannot be read whole is not upgraded (`library
// repair` upgrades it, and names what it could not keep).
func upgrade(dir string, db *bolt.DB) error {
	in := inspect(dir, db, nil)
	defer in.close()
	if len(in.problems) > 0 {
		return fmt.Errorf("cannot upgrade it from format version %d: %s (and %d more problems): %w", in.version, in.problems[0].What, len(in.problems)-1, ErrDamaged)
	}
	b, err := in.rebuild(db)
	if err != nil {
		return err
	}
	if len(b.lost) > 0 {
		os.Remove(b.db)
		return fmt.Errorf("cannot upgrade it: %d documents do not read whole: %w", len(b.lost), ErrDamaged)
	}
	if err := os.Rename(b.db, filepath.Join(dir, "library.db")); err != nil {
		os.Remove(b.db)
		return err
	}
	return syncDir(dir)
}

// rebuilt is what rebuild made: a database file beside the library, the store it names.
type rebuilt struct {
	db, store string
	kept      int
	lost      []DocInfo
	notes     []string
}

// rebuild writes a new library.db (under a temporary name in the library's folder) holding every
// document whose paragraphs read whole, and a new paragraph store when the old one cannot serve
// as it is (unframed, or frames damaged).
func (in *inspection) rebuild(db *bolt.DB) (*rebuilt, error) {
	kept, lost := in.partition()
	out := &rebuilt{lost: lost}
	store, reuse, err := in.rebuildStore(kept)
	if err != nil {
		return nil, err
	}
	if !reuse {
		defer store.f.Close() // synced below; a new store that is not kept is removed
	}
	out.store = store.name
	tmp, err := os.CreateTemp(in.dir, "library.db.*.tmp")
	if err != nil {
		return nil, err
	}
	out.db = tmp.Name()
	if err := errors.Join(tmp.Chmod(0o644), tmp.Close()); err != nil { // as createDB makes it
		os.Remove(out.db)
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			os.Remove(out.db)
			if !reuse {
				os.Remove(filepath.Join(in.dir, store.name))
			}
		}
	}()
	ndb, err := bolt.Open(out.db, 0o644, &bolt.Options{FreelistType: bolt.FreelistMapType})
	if err != nil {
		return nil, err
	}
	defer ndb.Close()
	c := codec{sealed: true}
	if err := ndb.Update(func(tx *bolt.Tx) error { return initDB(tx, c, &paraStore{name: store.name}) }); err != nil {
		return nil, err
	}
	r := &rebuilder{in: in, db: db, out: out, store: store, reuse: reuse, c: c, words: map[uint32]int{}, next: in.next, shas: map[string]bool{}}
	for len(kept) > 0 {
		batch := kept[:min(len(kept), 256)]
		kept = kept[len(batch):]
		err := ndb.Update(func(tx *bolt.Tx) error {
			appendOnly(tx) // kept is in id order
			for _, d := range batch {
				if err := r.keep(tx, d); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if in.stale {
		out.notes = append(out.notes, fmt.Sprintf("every document's tokens and fingerprints were made again by this version's text analyser (%s)", similarity.AnalyserVersion()))
	}
	end := store.end
	if !reuse {
		if err := store.f.Sync(); err != nil {
			return nil, err
		}
	}
	err = ndb.Update(func(tx *bolt.Tx) error {
		return errors.Join(store.putMeta(tx, c, end, max(0, end-r.live)), c.putCount(tx, keyDocCount, uint64(out.kept)),
			c.putCount(tx, keyTemplateCount, uint64(r.templates)), putWords(tx, c, r.words, r.paras),
			c.putCount(tx, keyDFUpTo, r.next-1), c.put(tx, bucketMeta, keyNext, binary.BigEndian.AppendUint64(nil, r.next)))
	})
	if err != nil {
		return nil, err
	}
	if err := ndb.Close(); err != nil {
		return nil, err
	}
	ok = true
	return out, nil
}

// partition sorts the documents into those whose paragraphs read whole, kept, and the others, lost.
func (in *inspection) partition() (kept []*docState, lost []DocInfo) {
	lost = []DocInfo{}
	for _, id := range in.ids() {
		d := in.docs[id]
		switch {
		case d.removed:
		case d.goodOK:
			kept = append(kept, d)
		case d.inDB || d.floc != nil:
			info := DocInfo{ID: id}
			if r := d.record(); r != nil {
				info = r.DocInfo
			}
			lost = append(lost, info)
		}
	}
	return kept, lost
}

// rebuildStore returns the paragraph store the rebuilt library names: the old one when every kept
// document is framed in it, else a new, empty one of the next generation (reuse false).
func (in *inspection) rebuildStore(kept []*docState) (store *paraStore, reuse bool, err error) {
	// A store whose tokens another analyser made is written anew with this one's (stale).
	reuse = in.store != nil && in.store.f != nil && (in.version == 0 || in.version >= 3) && !in.stale
	for _, d := range kept {
		reuse = reuse && d.framed
	}
	if reuse {
		return in.store, true, nil
	}
	g := 0
	entries, _ := os.ReadDir(in.dir) // an unreadable folder fails at the create below
	for _, e := range entries {
		if n, ok := parasGeneration(e.Name()); ok {
			g = max(g, n)
		}
	}
	store = &paraStore{name: fmt.Sprintf("paras-%d.dat", g+1)}
	f, err := os.OpenFile(filepath.Join(in.dir, store.name), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, false, err
	}
	store.f = f
	return store, false, nil
}

// rebuilder carries a rebuild's totals from one kept document to the next.
type rebuilder struct {
	in    *inspection
	db    *bolt.DB
	out   *rebuilt
	store *paraStore
	reuse bool
	c     codec
	seg   *similarity.Segmenter // loaded when a document's fingerprints must be made again

	words            map[uint32]int
	paras, templates int
	next             uint64
	live             int64
	shas             map[string]bool
}

// keep writes document d into the rebuilt library in tx, its record and fingerprints made again
// where they do not read; a document whose paragraphs no longer read is listed as lost.
func (r *rebuilder) keep(tx *bolt.Tx, d *docState) error {
	in, out := r.in, r.out
	ps, err := in.paragraphs(r.db, d)
	if err != nil {
		out.lost = append(out.lost, DocInfo{ID: d.id})
		return nil
	}
	rec := docRecord{DocInfo: DocInfo{ID: d.id}}
	if dr := d.record(); dr != nil {
		rec = *dr
	} else {
		out.notes = append(out.notes, fmt.Sprintf("document %d: its record was made again from its text: its file name, the date it was added and whether it is a template are lost", d.id))
	}
	rec.ID, rec.Paragraphs, rec.Chars = d.id, len(ps), 0
	for _, p := range ps {
		rec.Chars += utf8.RuneCountInString(p.Text)
	}
	if rec.SHA256 == "" {
		rec.SHA256 = in.sha[d.id]
	}
	if rec.SHA256 == "" || r.shas[rec.SHA256] {
		rec.SHA256 = fmt.Sprintf("unknown-%d", d.id)
	}
	r.shas[rec.SHA256] = true
	fps := in.fingerprints(r.db, d)
	if in.stale {
		fps, rec.Signature = nil, nil
	}
	if len(fps) != len(ps) || len(rec.Signature) != similarity.NumHashes {
		if fps, err = r.refingerprint(d, ps, &rec); err != nil {
			return err
		}
	}
	js, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	var loc paraLoc
	if r.reuse {
		loc = *d.good
	} else if loc, err = copyDoc(in, r.store, d, js, ps, in.stale); err != nil {
		return err
	}
	key := idKey(d.id)
	c := r.c
	if err := errors.Join(c.put(tx, bucketDocs, key, js), c.put(tx, bucketSHA, []byte(rec.SHA256), key),
		c.put(tx, bucketLoc, key, loc.encode()), c.put(tx, bucketFP, key, encodeSimHashes(fps))); err != nil {
		return err
	}
	wordDelta(ps, 1, r.words)
	r.paras += len(ps)
	r.live += loc.size()
	if rec.Template {
		r.templates++
	}
	r.next = max(r.next, d.id+1)
	out.kept++
	return nil
}

// refingerprint makes a document's fingerprints again from its text (its tokens too, when another
// analyser made them), and its MinHash signature when the record has none.
func (r *rebuilder) refingerprint(d *docState, ps []Paragraph, rec *docRecord) ([]fingerprint, error) {
	if r.seg == nil {
		seg, err := similarity.Default()
		if err != nil {
			return nil, err
		}
		r.seg = seg
	}
	var fps []fingerprint
	var shingles []uint32
	for i, p := range ps {
		pr := r.seg.PrepareWeighted(p.Text, nil)
		if r.in.stale {
			ps[i].Tokens = pr.Tokens
		}
		fps = append(fps, fingerprint{SimHash: pr.SimHash, Grams: similarity.Winnow(pr.Grams, winnowWindow)})
		shingles = append(shingles, similarity.Shingles(ps[i].Tokens)...)
	}
	if len(rec.Signature) != similarity.NumHashes {
		sig := similarity.MinHash(shingles)
		rec.Signature = sig[:]
	}
	if d.inDB && !r.in.stale {
		r.out.notes = append(r.out.notes, fmt.Sprintf("document %d: its fingerprints were made again from its text", d.id))
	}
	return fps, nil
}

// fingerprints reads a document's fingerprints again, nil when they do not read.
func (in *inspection) fingerprints(db *bolt.DB, d *docState) []fingerprint {
	if db == nil || d.sims == nil {
		return nil
	}
	var fps []fingerprint
	guard("library.db", func() error {
		return db.View(func(tx *bolt.Tx) error {
			v, err := in.rec.get(tx, bucketFP, idKey(d.id))
			if err == nil && v != nil {
				fps, _, err = decodeFingerprints(v)
			}
			return err
		})
	})
	return fps
}

// paragraphs reads a document's paragraphs as inspect found them whole.
func (in *inspection) paragraphs(db *bolt.DB, d *docState) ([]Paragraph, error) {
	if d.good != nil {
		return in.store.read(*d.good, 0, len(d.good.lens))
	}
	var ps []Paragraph
	err := guard("library.db", func() error {
		return db.View(func(tx *bolt.Tx) error {
			var err error
			ps, err = storedParas(tx, in.rec, in.store, idKey(d.id), 0, -1)
			return err
		})
	})
	return ps, err
}

// copyDoc appends a document to a new store: its frame, then its paragraph records as they are
// (checked as they were read) or, for a version 1 document or new tokens (anew), encoded anew.
func copyDoc(in *inspection, s *paraStore, d *docState, rec []byte, ps []Paragraph, anew bool) (paraLoc, error) {
	if d.good == nil || anew {
		locs, end, err := s.appendDocs([]storeDoc{{id: d.id, rec: rec, paras: ps}})
		if err != nil {
			return paraLoc{}, err
		}
		s.end = end
		return locs[0], nil
	}
	off, n := d.good.span(0, len(d.good.lens))
	raw := make([]byte, n)
	if _, err := in.store.f.ReadAt(raw, off); err != nil {
		return paraLoc{}, err
	}
	fr := docFrame(d.id, rec, d.good.lens, d.good.crcs)
	loc := paraLoc{off: s.end, head: int64(len(fr)), lens: d.good.lens, crcs: d.good.crcs}
	if _, err := s.f.WriteAt(append(fr, raw...), s.end); err != nil {
		return paraLoc{}, err
	}
	s.end += int64(len(fr)) + n
	return loc, nil
}

// Summary is the check's findings in a few lines of plain words.
func (r *CheckReport) Summary() string {
	var b strings.Builder
	if !r.Damaged() {
		fmt.Fprintf(&b, "library %s: no damage found (%d documents)\n", r.Dir, r.Documents)
	} else {
		fmt.Fprintf(&b, "library %s: %s found:\n", r.Dir, english.Count(len(r.Problems), "problem", "problems"))
		for i, p := range r.Problems {
			if i == 50 {
				fmt.Fprintf(&b, "  … and %d more (--json lists them all)\n", len(r.Problems)-i)
				break
			}
			fmt.Fprintf(&b, "  %s\n", p.What)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}
