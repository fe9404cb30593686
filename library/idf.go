package library

import (
	"encoding/binary"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"thesischeck/similarity"
)

// The library learns which words are common from its own paragraphs: the df bucket counts, for each
// word hash, the paragraphs that hold it, and meta "dfparas" counts the paragraphs. Like the index,
// the counts are derived data written at checkpoints: they cover the documents up to meta "dfupto"
// (a document id), and the words of later documents are counted in memory (pending) until the next
// segment is written or a removal. Writing them with every batch rewrote most of the bucket's pages
// 32 documents at a time. Open counts again the documents a killed import left after "dfupto".
// While a library is small its counts say little, so below MinIDFParagraphs paragraphs jieba's table
// (the segmenter's weights) stays in use.

var (
	bucketDF   = []byte("df")
	keyDFParas = []byte("dfparas")
	keyDFUpTo  = []byte("dfupto")
)

// DefaultMinIDFParagraphs is the library size from which its own word frequencies weigh SimHashes.
const DefaultMinIDFParagraphs = 2000

// dfTable is the word counts in memory, loaded on first use and kept in step by write and Remove.
type dfTable struct {
	loaded bool
	n      int
	df     map[uint32]uint32
}

// wordCounts are counts not yet in the df bucket.
type wordCounts struct {
	words map[uint32]int
	paras int
}

func (c *wordCounts) add(words map[uint32]int, paras int) {
	if c.words == nil {
		c.words = map[uint32]int{}
	}
	for h, n := range words {
		c.words[h] += n
	}
	c.paras += paras
}

// paragraphWords returns the distinct words (not stop words or numbers) of a paragraph.
func paragraphWords(p Paragraph, buf []uint32) []uint32 {
	buf = buf[:0]
	for _, t := range p.Tokens {
		if !t.Stop {
			buf = append(buf, t.Hash)
		}
	}
	slices.Sort(buf)
	return slices.Compact(buf)
}

// wordDelta returns sign × how many of paras hold each word.
func wordDelta(paras []Paragraph, sign int, delta map[uint32]int) map[uint32]int {
	if delta == nil {
		delta = map[uint32]int{}
	}
	var buf []uint32
	for _, p := range paras {
		buf = paragraphWords(p, buf)
		for _, h := range buf {
			delta[h] += sign
		}
	}
	return delta
}

// putWords adds delta to the df bucket and paras to the paragraph count.
func putWords(tx *bolt.Tx, delta map[uint32]int, paras int) error {
	b, meta := tx.Bucket(bucketDF), tx.Bucket(bucketMeta)
	keys := make([]uint32, 0, len(delta))
	for h := range delta {
		keys = append(keys, h)
	}
	slices.Sort(keys) // bbolt writes sorted keys fastest
	var k [4]byte
	for _, h := range keys {
		binary.BigEndian.PutUint32(k[:], h)
		n := int(decodeCount(b.Get(k[:]))) + delta[h]
		var err error
		if n <= 0 {
			err = b.Delete(k[:])
		} else {
			err = b.Put(k[:], binary.AppendUvarint(nil, uint64(n))) // bbolt keeps the value until commit
		}
		if err != nil {
			return err
		}
	}
	n := max(0, int(decodeCount(meta.Get(keyDFParas)))+paras)
	return meta.Put(keyDFParas, binary.AppendUvarint(nil, uint64(n)))
}

// countAllWords counts the words of every stored document.
func countAllWords(tx *bolt.Tx, s *paraStore) error {
	c, err := countFrom(tx, s, 0)
	if err != nil {
		return err
	}
	return putWords(tx, c.words, c.paras)
}

// countFrom counts the words of the stored documents from id on (the documents of the docs bucket,
// whichever way their paragraphs are stored).
func countFrom(tx *bolt.Tx, s *paraStore, id uint64) (wordCounts, error) {
	c := wordCounts{words: map[uint32]int{}}
	cur := tx.Bucket(bucketDocs).Cursor()
	for k, _ := cur.Seek(idKey(id)); k != nil; k, _ = cur.Next() {
		ps, err := storedParas(tx, s, k, 0, -1)
		if err != nil {
			return c, fmt.Errorf("document %d: %w", binary.BigEndian.Uint64(k), err)
		}
		wordDelta(ps, 1, c.words)
		c.paras += len(ps)
	}
	return c, nil
}

// lastID is the largest document id given so far.
func lastID(tx *bolt.Tx) uint64 {
	if v := tx.Bucket(bucketMeta).Get([]byte("next")); len(v) == 8 {
		return binary.BigEndian.Uint64(v) - 1
	}
	return 0
}

// countPending counts in memory the words of the documents after meta "dfupto", left by an import
// that was killed between checkpoints. A library without the key (made when every batch wrote its
// counts) has none.
func (l *Library) countPending() error {
	var c wordCounts
	err := l.db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil || tx.Bucket(bucketDocs) == nil { // a library killed before its first commit
			return nil
		}
		v := meta.Get(keyDFUpTo)
		if v == nil {
			return nil
		}
		var err error
		c, err = countFrom(tx, l.paras, decodeCount(v)+1)
		return err
	})
	l.dfMu.Lock()
	l.pending = c
	l.dfMu.Unlock()
	return err
}

// saveWords writes the pending counts and removed, the counts of documents being removed in tx
// (negative), to the df bucket: after it, the bucket covers every document. dfMu is held, so
// that no table is loaded from a bucket that already holds pending counts.
func (l *Library) saveWords(tx *bolt.Tx, removed wordCounts) error {
	if err := putWords(tx, l.pending.words, l.pending.paras); err != nil {
		return err
	}
	if err := putWords(tx, removed.words, removed.paras); err != nil {
		return err
	}
	return tx.Bucket(bucketMeta).Put(keyDFUpTo, binary.AppendUvarint(nil, lastID(tx)))
}

// checkpointWords writes the pending counts to the df bucket.
func (l *Library) checkpointWords() error {
	l.dfMu.Lock()
	defer l.dfMu.Unlock()
	if l.pending.words == nil && l.pending.paras == 0 {
		return nil
	}
	if err := l.db.Update(func(tx *bolt.Tx) error { return l.saveWords(tx, wordCounts{}) }); err != nil {
		return fmt.Errorf("library %s: word counts: %w", l.dir, err)
	}
	l.pending = wordCounts{}
	return nil
}

func decodeCount(v []byte) uint64 {
	n, _ := binary.Uvarint(v)
	return n
}

// applyWords brings the table in memory in step with a committed batch, whose counts wait in pending
// for the next checkpoint.
func (l *Library) applyWords(delta map[uint32]int, paras int) {
	l.dfMu.Lock()
	defer l.dfMu.Unlock()
	l.pending.add(delta, paras)
	l.applyLocked(delta, paras)
}

// applyLocked brings the table in memory in step with a committed change; dfMu is held.
func (l *Library) applyLocked(delta map[uint32]int, paras int) {
	if !l.dft.loaded {
		return
	}
	l.dft.n += paras
	for h, d := range delta {
		if n := int(l.dft.df[h]) + d; n > 0 {
			l.dft.df[h] = uint32(n)
		} else {
			delete(l.dft.df, h)
		}
	}
}

// Weights returns the word weights learned from the library, or nil while the library has fewer
// than its MinIDFParagraphs paragraphs (callers keep jieba's weights then). The function reads the
// current counts and is safe for concurrent use.
func (l *Library) Weights() func(hash uint32) float32 {
	l.dfMu.Lock()
	defer l.dfMu.Unlock()
	if !l.dft.loaded {
		t := dfTable{loaded: true, df: map[uint32]uint32{}}
		l.db.View(func(tx *bolt.Tx) error {
			if meta := tx.Bucket(bucketMeta); meta != nil {
				t.n = int(decodeCount(meta.Get(keyDFParas)))
			}
			b := tx.Bucket(bucketDF)
			if b == nil {
				return nil
			}
			return b.ForEach(func(k, v []byte) error {
				t.df[binary.BigEndian.Uint32(k)] = uint32(decodeCount(v))
				return nil
			})
		})
		l.dft = t
		l.applyLocked(l.pending.words, l.pending.paras)
	}
	if l.dft.n < l.minIDF {
		return nil
	}
	return func(h uint32) float32 {
		l.dfMu.RLock()
		n, df := l.dft.n, l.dft.df[h]
		l.dfMu.RUnlock()
		return similarity.LearnedIDF(n, int(df))
	}
}
