package library

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	bolt "go.etcd.io/bbolt"

	"thesischeck/similarity"
)

// live reports whether the index holds document id.
func (l *folder) live(id uint64) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	_, ok := l.idx.byID[id]
	return ok
}

func idKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// List returns the documents in the order they were added. A document whose record is damaged, or
// that the record and the index do not agree on, is listed all the same, with Damaged saying why,
// and the error (wrapping ErrDamaged) names them.
func (l *folder) List() ([]DocInfo, error) {
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
				out = append(out, rec.info())
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

// decodeInfo is decodeRecord for the description alone, with its file's SHA-256: the signature is
// checked, not kept (Doc takes it from the index). A thesis's check reads the records of 5,264
// documents against 100,000. Unmarshalling the signature into numbers was half of a record's
// reading (10.4 µs, 5.3 µs without); checking the whole record's JSON, most of it the signature's
// base64, most of the rest. A record as written since format version 4, its signature last
// (`...,"minhash":"<base64>"}`), is read as the JSON before the signature, a quarter of it (an object
// valid without its last member is valid with it), and the base64 into a buffer on the stack: 6.8
// → 3.8 µs a record (benchmark). Any other form (numbers, escapes, another member after the
// signature, one that may be invalid) is read by decodeRecord.
func decodeInfo(v []byte) (DocInfo, error) {
	const key = `,"minhash":"`
	var raw [4*similarity.NumHashes + 3]byte // as much as base64 may decode from that many characters
	n := base64.StdEncoding.EncodedLen(4 * similarity.NumHashes)
	if cut := len(v) - len(`"}`) - n - len(key); cut > 0 && string(v[len(v)-2:]) == `"}` && string(v[cut:cut+len(key)]) == key {
		var rec struct {
			DocInfo
			SHA256    string          `json:"sha256"`
			Signature json.RawMessage `json:"minhash"` // another signature before: decodeRecord reads both
		}
		head := append(v[:cut:cut], '}') // a copy: v may be mapped read-only
		if k, err := base64.StdEncoding.Decode(raw[:], v[cut+len(key):len(v)-2]); err == nil && k == 4*similarity.NumHashes &&
			json.Unmarshal(head, &rec) == nil && rec.ID != 0 && rec.Signature == nil {
			d := rec.DocInfo
			d.SHA256 = rec.SHA256
			return d, nil
		}
	}
	var full docRecord
	err := decodeRecord(v, &full)
	return full.info(), err
}

// Stats returns the number of documents and paragraphs.
func (l *folder) Stats() (docs, paras int) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.idx.live, l.idx.liveParas
}

// Counts returns the number of documents the library holds and how many of them are templates.
func (l *folder) Counts() (docs, templates int) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.docs, l.templates
}

// Doc returns a document's description and MinHash signature. A document the index holds whose
// record is missing or damaged is an error wrapping ErrDamaged, never a document that is not there.
func (l *folder) Doc(id uint64) (DocInfo, similarity.Signature, error) {
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
		d, err := decodeInfo(v)
		if err != nil {
			return err
		}
		if d.ID != id {
			return fmt.Errorf("its record is document %d's: %w", d.ID, ErrDamaged)
		}
		info = d
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

func (l *folder) clearBoilerplate() {
	l.bpMu.Lock()
	clear(l.bp)
	l.bpMu.Unlock()
}

// cacheInfo keeps a document's description; cacheMu is held.
func (l *folder) cacheInfo(d DocInfo) { keep(l.infos, 4096, d.ID, d) }

// Paragraphs returns the stored paragraphs of a document (text and tokens).
func (l *folder) Paragraphs(id uint64) ([]Paragraph, error) {
	ps, err := l.stored(id, 0, -1)
	if err != nil {
		return nil, fmt.Errorf("library %s: document %d: %w", l.dir, id, err)
	}
	return ps, nil
}

// ParagraphsAt returns the stored paragraphs refs name, read in one transaction: a check reads a
// query paragraph's candidates together. A transaction for each, with a cache of the last 8,192
// read, made the 313-page thesis's check against 100,000 documents 4 % slower (16 paired runs): it
// reads 20,800 distinct paragraphs for 21,977 alignments, so the cache answered at most one read in
// eighteen, and the maps and the paragraphs it held cost more than that.
func (l *folder) ParagraphsAt(refs []ParaRef) ([]Paragraph, error) {
	out := make([]Paragraph, len(refs))
	var at ParaRef
	err := func() error {
		l.storeMu.RLock()
		defer l.storeMu.RUnlock()
		return l.view(func(tx *bolt.Tx) error {
			for i, r := range refs {
				at = r
				ps, err := storedParas(tx, l.rec, l.paras, idKey(r.Doc), r.Para, r.Para+1)
				if err != nil {
					return err
				}
				out[i] = ps[0]
			}
			return nil
		})
	}()
	// Asked after the transaction, as stored does.
	if errors.Is(err, errNoDocument) && l.live(at.Doc) {
		err = fmt.Errorf("its paragraphs' record is missing: %w", ErrDamaged)
	}
	if err != nil {
		return nil, fmt.Errorf("library %s: document %d paragraph %d: %w", l.dir, at.Doc, at.Para, err)
	}
	return out, nil
}

// keep puts v at k in cache, forgetting every entry first once limit are kept: the caches of both
// kinds of library are bounded this way, each entry as good to drop as any other.
func keep[K comparable, V any](cache map[K]V, limit int, k K, v V) {
	if len(cache) >= limit {
		clear(cache)
	}
	cache[k] = v
}

// cached copies to out the values cache holds for keys and returns the keys it does not hold.
// The cache's lock is held.
func cached[V any](cache map[uint64]V, keys []uint64, out map[uint64]V) (miss []uint64) {
	for _, k := range keys {
		if v, ok := cache[k]; ok {
			out[k] = v
		} else {
			miss = append(miss, k)
		}
	}
	return miss
}

func (l *folder) stored(id uint64, from, to int) (ps []Paragraph, err error) {
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

// Home is the folder and the size of the files in it (a backup of a repair's, in a folder of its
// own, not counted).
func (l *folder) Home(ctx context.Context) (Home, error) {
	h := Home{Kind: "folder", Where: l.dir}
	entries, err := os.ReadDir(l.dir)
	if err != nil {
		return h, fmt.Errorf("library %s: %w", l.dir, err)
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			h.Bytes += info.Size()
		}
	}
	return h, nil
}
