package library

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	bolt "go.etcd.io/bbolt"

	"thesischeck/similarity"
)

// segEntry is one index segment in the manifest: its file, and the largest document id it covers.
type segEntry struct {
	Name string `json:"name"`
	Last uint64 `json:"last"`
}

// load maps the index segments the manifest lists and indexes in memory the documents that no
// segment covers (all of them when a segment is missing or damaged: the segments are derived data).
// A writable library writes those documents out as segments right away and deletes files that the
// manifest does not list (left by a killed import or merge).
func (l *folder) load() error {
	if err := l.countPending(); err != nil {
		return err
	}
	manifest, live, err := l.readCounts()
	if err != nil {
		return err
	}
	segs, covered, err := l.openSegments(manifest, live)
	if err != nil {
		return err
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
		n := min(len(pending), l.flushDocs)
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

// readCounts reads the manifest of index segments, the ids of the live documents and the counts of
// documents and templates, which it checks against each other and keeps.
func (l *folder) readCounts() (manifest []segEntry, live map[uint64]bool, err error) {
	live = map[uint64]bool{}
	docs, templates := 0, 0
	err = l.view(func(tx *bolt.Tx) error {
		// The manifest is derived data: when it is damaged a writable Open makes the index again
		// from fp; a read-only one says so (see openSegments).
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
		return nil, nil, err
	}
	// A page of library.db lost from a bucket loses its documents without a checksum to fail.
	if docs != len(live) || templates > docs {
		return nil, nil, fmt.Errorf("library.db counts %d documents (%d templates) and names %d: %w", docs, templates, len(live), ErrDamaged)
	}
	l.docs, l.templates = docs, templates
	return manifest, live, nil
}

// openSegments maps the segments the manifest lists and marks the documents no longer live in them.
// A segment that is missing or damaged leaves a writable library with none (the index is made
// again); covered is the last document id the segments cover.
func (l *folder) openSegments(manifest []segEntry, live map[uint64]bool) (segs []*segment, covered uint64, err error) {
	for _, e := range manifest {
		s, err := openSegment(l.dir, e.Name)
		if err == nil && s.seg.sums == nil && l.rec.sealed {
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
				if errors.Is(err, ErrDamaged) { // a checksum's error says so already
					return nil, 0, fmt.Errorf("%w; 'thesischeck library repair' makes the index again", err)
				}
				return nil, 0, fmt.Errorf("%w (%w; 'thesischeck library repair' makes the index again)", err, ErrDamaged)
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
	return segs, covered, nil
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
func (l *folder) loadDocs(ids []uint64) error {
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
			fps, grams, err := decodeFingerprints(v)
			if err == nil && !grams {
				err = l.storedGrams(tx, k, fps)
			}
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

// storedGrams fills in the grams of a document's fingerprints, an fp value of SimHashes only, from
// its stored paragraphs.
func (l *folder) storedGrams(tx *bolt.Tx, key []byte, fps []fingerprint) error {
	ps, err := storedParas(tx, l.rec, l.paras, key, 0, -1)
	if err != nil {
		return err
	}
	if len(ps) != len(fps) {
		return fmt.Errorf("%d fingerprints for %d paragraphs: %w", len(fps), len(ps), ErrDamaged)
	}
	for i, p := range ps {
		fps[i].Grams = gramsOf(p)
	}
	return nil
}

// removeStray deletes index files of the folder that are not segments in use.
func (l *folder) removeStray(segs []*segment) {
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
		// seg-….idx.tmp, and the sections a segment write spools beside it (.postings, .keys…).
		if (strings.HasSuffix(n, ".idx") && !inUse[n]) || strings.Contains(n, ".idx.tmp") ||
			(strings.HasPrefix(n, "library.db.") && strings.HasSuffix(n, ".tmp")) {
			os.Remove(filepath.Join(l.dir, n))
		}
	}
}

func (l *folder) saveManifest(segs []*segment) error {
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
