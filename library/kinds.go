package library

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"thesischeck/prepare"
)

// Documents are of two kinds: theses (extract.Document.Thesis, as prepare hands it on: they open
// with a thesis's front matter) and the rest. The frequency rule for boilerplate counts among documents of the same kind
// (see Boilerplate): a school's declaration is in every one of its theses, but among ten thousand
// articles and reports it is rare.
//
// Bucket theses holds the ids of the theses (id → empty), written with the document and removed
// with it; Open reads it, small as it is, instead of every document's record. Meta "kinds" says
// that every document has its kind recorded: a writable Open of a library made before kinds were
// recorded reads them from the stored front matter once, and sets it.
var (
	bucketTheses = []byte("theses")
	keyKinds     = []byte("kinds")
)

// kindParas is how many leading paragraphs the one-off count reads of a document that opens with
// front matter: covers, declarations and contents are shorter than that.
const kindParas = 200

// loadKinds reads the theses' ids. A library whose kinds are not recorded yet has them counted
// (writable) or is left without kinds (read-only: every document then counts as of both kinds).
func (l *folder) loadKinds() error {
	theses := map[uint64]bool{}
	known := false
	err := l.view(func(tx *bolt.Tx) error {
		v, err := l.rec.get(tx, bucketMeta, keyKinds)
		if err != nil {
			return err
		}
		known = v != nil
		b := tx.Bucket(bucketTheses)
		if b == nil || !known {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			if _, err := l.rec.open(bucketTheses, k, v); err != nil {
				return err
			}
			if len(k) != 8 {
				return fmt.Errorf("theses key of %d bytes: %w", len(k), ErrDamaged)
			}
			theses[binary.BigEndian.Uint64(k)] = true
			return nil
		})
	})
	if err != nil {
		return err
	}
	if !known && !l.readOnly {
		if theses, err = l.countKinds(); err != nil {
			return err
		}
		known = true
	}
	l.mu.Lock()
	l.theses, l.kindsKnown = theses, known
	l.mu.Unlock()
	return nil
}

// countKinds records the kind of every document from its stored front matter, in one transaction.
func (l *folder) countKinds() (map[uint64]bool, error) {
	theses := map[uint64]bool{}
	err := l.update(func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(bucketTheses); err != nil {
			return err
		}
		err := tx.Bucket(bucketDocs).ForEach(func(k, v []byte) error {
			var rec docRecord
			u, err := l.rec.open(bucketDocs, k, v)
			if err != nil || decodeRecord(u, &rec) != nil || rec.Paragraphs == 0 {
				return nil // a damaged record is no thesis; the rest of the library is still counted
			}
			first, err := storedParas(tx, l.rec, l.paras, k, 0, 1)
			if err != nil || first[0].Section != prepare.FrontSection {
				return nil
			}
			ps, err := storedParas(tx, l.rec, l.paras, k, 0, min(rec.Paragraphs, kindParas))
			if err != nil {
				return nil
			}
			sps := make([]prepare.StoredParagraph, len(ps))
			for i, p := range ps {
				sps[i] = prepare.StoredParagraph{Text: p.Text, Section: p.Section, Heading: p.Heading}
			}
			if !prepare.IsThesis(sps) {
				return nil
			}
			theses[binary.BigEndian.Uint64(k)] = true
			return l.rec.put(tx, bucketTheses, k, nil)
		})
		if err != nil {
			return err
		}
		return l.rec.put(tx, bucketMeta, keyKinds, []byte("1"))
	})
	return theses, err
}

// Theses returns how many of the library's documents are theses, and whether the library knows the
// kinds of its documents (see loadKinds).
func (l *folder) Theses() (n int, known bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.theses), l.kindsKnown
}

// ofKind reports whether document id counts as of the kind asked for; l.mu is held.
func (l *folder) ofKind(id uint64, thesis bool) bool {
	return !l.kindsKnown || l.theses[id] == thesis
}
