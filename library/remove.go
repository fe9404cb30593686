package library

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Remove deletes documents by id. Unknown ids are an error and nothing is removed.
func (l *folder) Remove(ids ...uint64) error {
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
			template, size, err := l.removeDoc(tx, id, &removed)
			if err != nil {
				return err
			}
			dead += size
			if template {
				templates++
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
	l.forget(ids)
	// The documents are gone; what is left is reclaiming their bytes, which a later removal retries.
	if err := l.compactParas(false); err != nil {
		return fmt.Errorf("library %s: remove: %w", l.dir, err)
	}
	return nil
}

// removeDoc deletes document id in tx and takes its words from removed; it returns whether the
// document was a template and how many bytes of the store it leaves dead.
func (l *folder) removeDoc(tx *bolt.Tx, id uint64, removed *wordCounts) (template bool, dead int64, err error) {
	key := idKey(id)
	v, err := l.rec.get(tx, bucketDocs, key)
	if err != nil {
		return false, 0, fmt.Errorf("document %d: %w", id, err)
	}
	if v == nil {
		return false, 0, fmt.Errorf("no document with id %d", id)
	}
	var rec docRecord
	if err := decodeRecord(v, &rec); err != nil {
		return false, 0, fmt.Errorf("document %d: %w", id, err)
	}
	// A document whose paragraphs are damaged is removed all the same (that is what its user
	// wants done with it); its words stay in the counts, which only weigh SimHashes.
	if paras, err := storedParas(tx, l.rec, l.paras, key, 0, -1); err == nil {
		wordDelta(paras, -1, removed.words)
		removed.paras -= len(paras)
	}
	loc, err := l.rec.get(tx, bucketLoc, key)
	if err != nil {
		return false, 0, fmt.Errorf("document %d: %w", id, err)
	}
	if loc != nil {
		c, err := decodeLoc(loc, true)
		if err != nil {
			return false, 0, fmt.Errorf("document %d: ploc value: %w", id, err)
		}
		dead = c.size()
	}
	for _, b := range [][]byte{bucketDocs, bucketParas, bucketLoc, bucketFP, bucketTheses} {
		if err := tx.Bucket(b).Delete(key); err != nil {
			return false, 0, err
		}
	}
	if err := tx.Bucket(bucketSHA).Delete([]byte(rec.SHA256)); err != nil {
		return false, 0, err
	}
	return rec.Template, dead, nil
}

// forget drops removed documents from the caches.
func (l *folder) forget(ids []uint64) {
	l.clearBoilerplate()
	l.cacheMu.Lock()
	defer l.cacheMu.Unlock()
	for _, id := range ids {
		delete(l.infos, id)
	}
}
