package library

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"sync"

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
//
// The df values are not sealed one by one (4 bytes of checksum beside a count of 1 to 3): meta
// "dfsum" is the sum, modulo 2^64, of the CRC-32C of every entry's key and value, kept up to date by
// each change and checked when the table is loaded, which reads every entry anyway.

var (
	bucketDF   = []byte("df")
	keyDFParas = []byte("dfparas")
	keyDFUpTo  = []byte("dfupto")
	keyDFSum   = []byte("dfsum")
)

// dfEntry is an entry's part of meta "dfsum".
func dfEntry(k, v []byte) uint64 {
	return uint64(crc32.Update(crc32.Checksum(k, crcTable), crcTable, v))
}

// DefaultMinIDFParagraphs is the library size from which its own word frequencies weigh SimHashes.
const DefaultMinIDFParagraphs = 2000

// dfTable is the word counts in memory, loaded on first use and kept in step by write and Remove.
type dfTable struct {
	loaded bool
	n      int // set by setN
	df     map[uint32]uint32
	idf    [idfCached]float32 // LearnedIDF(n, df) for the smallest counts
}

// idfCached is how many of the smallest counts have their weight worked out in dfTable whenever
// the paragraph count changes (once a batch in an import), not at every word: the logarithm was
// 0.60 of 31.7 s of CPU importing 10,000 generated documents (pprof), and most words are rare.
const idfCached = 1024

// setN sets the paragraph count and the weights that depend on it.
func (t *dfTable) setN(n int) {
	t.n = n
	for df := range t.idf {
		t.idf[df] = similarity.LearnedIDF(n, df)
	}
}

// weights is the function that reads the table's weights under mu, its lock: what a folder's and a
// Redis library's Weights return.
func (t *dfTable) weights(mu *sync.RWMutex) func(hash uint32) float32 {
	return func(h uint32) float32 {
		mu.RLock()
		defer mu.RUnlock()
		return t.weight(h)
	}
}

// weight is similarity.LearnedIDF of the word's count; the caller holds the table's lock.
func (t *dfTable) weight(h uint32) float32 {
	df := t.df[h]
	if df < idfCached {
		return t.idf[df]
	}
	return similarity.LearnedIDF(t.n, int(df))
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

// wordCount is how many paragraphs of a document hold a word.
type wordCount struct {
	hash uint32
	n    uint32
}

// docWords returns how many of paras hold each word (not stop words or numbers), sorted by word:
// one radix sort of the (word, paragraph) pairs. A map per document, grown word by word, and a
// sort per paragraph took 1.96 of 38.6 s of CPU importing 10,000 documents (pprof), most of it
// the map's growth.
func docWords(paras []Paragraph) []wordCount {
	tokens := 0
	for _, p := range paras {
		tokens += len(p.Tokens)
	}
	pairs := make([]uint64, 0, tokens)
	for i, p := range paras {
		for _, t := range p.Tokens {
			if !t.Stop {
				pairs = append(pairs, uint64(t.Hash)<<32|uint64(uint32(i)))
			}
		}
	}
	// Stable by word: a word's pairs keep the order of their paragraphs, so equal paragraphs are
	// neighbours.
	pairs, _ = sortBits(pairs, nil, 32, 32)
	var out []wordCount
	for i := 0; i < len(pairs); {
		h, n := uint32(pairs[i]>>32), uint32(0)
		for prev := -1; i < len(pairs) && uint32(pairs[i]>>32) == h; i++ {
			if para := int(uint32(pairs[i])); para != prev {
				n, prev = n+1, para
			}
		}
		out = append(out, wordCount{h, n})
	}
	return out
}

// wordDelta returns sign × how many of paras hold each word, added to delta (nil: a new map).
func wordDelta(paras []Paragraph, sign int, delta map[uint32]int) map[uint32]int {
	if delta == nil {
		delta = map[uint32]int{}
	}
	for _, c := range docWords(paras) {
		delta[c.hash] += sign * int(c.n)
	}
	return delta
}

// putWords adds delta to the df bucket and paras to the paragraph count.
func putWords(tx *bolt.Tx, c codec, delta map[uint32]int, paras int) error {
	b := tx.Bucket(bucketDF)
	sum, err := c.count(tx, keyDFSum)
	if err != nil {
		return err
	}
	keys := make([]uint32, 0, len(delta))
	for h := range delta {
		keys = append(keys, h)
	}
	slices.Sort(keys) // bbolt writes sorted keys fastest
	var k [4]byte
	for _, h := range keys {
		binary.BigEndian.PutUint32(k[:], h)
		old := b.Get(k[:])
		n := int(decodeCount(old)) + delta[h]
		if old != nil {
			sum -= dfEntry(k[:], old)
		}
		if n <= 0 {
			err = b.Delete(k[:])
		} else {
			v := binary.AppendUvarint(nil, uint64(n))
			sum += dfEntry(k[:], v)
			err = b.Put(k[:], v) // bbolt keeps the value until commit
		}
		if err != nil {
			return err
		}
	}
	total, err := c.count(tx, keyDFParas)
	if err != nil {
		return err
	}
	return errors.Join(c.putCount(tx, keyDFParas, uint64(max(0, int(total)+paras))), c.putCount(tx, keyDFSum, sum))
}

// countFrom counts the words of the stored documents from id on (the documents of the docs bucket,
// whichever way their paragraphs are stored).
func countFrom(tx *bolt.Tx, c codec, s *paraStore, id uint64) (wordCounts, error) {
	w := wordCounts{words: map[uint32]int{}}
	cur := tx.Bucket(bucketDocs).Cursor()
	for k, _ := cur.Seek(idKey(id)); k != nil; k, _ = cur.Next() {
		ps, err := storedParas(tx, c, s, k, 0, -1)
		if err != nil {
			return w, fmt.Errorf("document %d: %w", binary.BigEndian.Uint64(k), err)
		}
		wordDelta(ps, 1, w.words)
		w.paras += len(ps)
	}
	return w, nil
}

// lastID is the largest document id given so far.
func lastID(tx *bolt.Tx, c codec) (uint64, error) {
	n, err := c.next(tx)
	return n - 1, err
}

// countPending counts in memory the words of the documents after meta "dfupto", left by an import
// that was killed between checkpoints. A library without the key (made when every batch wrote its
// counts) has none.
func (l *folder) countPending() error {
	var c wordCounts
	err := l.view(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil || tx.Bucket(bucketDocs) == nil { // a library killed before its first commit
			return nil
		}
		if meta.Get(keyDFUpTo) == nil {
			return nil
		}
		upTo, err := l.rec.count(tx, keyDFUpTo)
		if err != nil {
			return err
		}
		c, err = countFrom(tx, l.rec, l.paras, upTo+1)
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
func (l *folder) saveWords(tx *bolt.Tx, removed wordCounts) error {
	if err := putWords(tx, l.rec, l.pending.words, l.pending.paras); err != nil {
		return err
	}
	if err := putWords(tx, l.rec, removed.words, removed.paras); err != nil {
		return err
	}
	last, err := lastID(tx, l.rec)
	if err != nil {
		return err
	}
	return l.rec.putCount(tx, keyDFUpTo, last)
}

// checkpointWords writes the pending counts to the df bucket.
func (l *folder) checkpointWords() error {
	l.dfMu.Lock()
	defer l.dfMu.Unlock()
	if l.pending.words == nil && l.pending.paras == 0 {
		return nil
	}
	if err := l.update(func(tx *bolt.Tx) error { return l.saveWords(tx, wordCounts{}) }); err != nil {
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
func (l *folder) applyWords(delta map[uint32]int, paras int) {
	l.dfMu.Lock()
	defer l.dfMu.Unlock()
	l.pending.add(delta, paras)
	l.applyLocked(delta, paras)
}

// applyLocked brings the table in memory in step with a committed change; dfMu is held.
func (l *folder) applyLocked(delta map[uint32]int, paras int) { l.dft.apply(delta, paras) }

// apply brings the counts, if loaded, in step with a committed change of delta in paras paragraphs
// (both kinds of library; the caller holds its dfMu).
func (t *dfTable) apply(delta map[uint32]int, paras int) {
	if !t.loaded {
		return
	}
	t.setN(t.n + paras)
	for h, d := range delta {
		if n := int(t.df[h]) + d; n > 0 {
			t.df[h] = uint32(n)
		} else {
			delete(t.df, h)
		}
	}
}

// Weights returns the word weights learned from the library, or nil while the library has fewer
// than its MinIDFParagraphs paragraphs (callers keep jieba's weights then). The function reads the
// current counts and is safe for concurrent use. The counts are checked against meta "dfsum" when
// they are first loaded: an error means they are damaged (`library repair` counts them again).
func (l *folder) Weights() (func(hash uint32) float32, error) {
	l.dfMu.Lock()
	defer l.dfMu.Unlock()
	if !l.dft.loaded {
		t := dfTable{loaded: true, df: map[uint32]uint32{}}
		err := l.view(func(tx *bolt.Tx) error {
			n, err := l.rec.count(tx, keyDFParas)
			if err != nil {
				return err
			}
			t.setN(int(n))
			want, err := l.rec.count(tx, keyDFSum)
			if err != nil {
				return err
			}
			b := tx.Bucket(bucketDF)
			if b == nil {
				return nil
			}
			var sum uint64
			err = b.ForEach(func(k, v []byte) error {
				if len(k) != 4 {
					return fmt.Errorf("df key %x: %w (%w)", k, errFormat, ErrDamaged)
				}
				sum += dfEntry(k, v)
				t.df[binary.BigEndian.Uint32(k)] = uint32(decodeCount(v))
				return nil
			})
			if err == nil && l.rec.sealed && sum != want {
				err = fmt.Errorf("word counts (bucket df): %w", errChecksum)
			}
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("library %s: %w", l.dir, err)
		}
		l.dft = t
		l.applyLocked(l.pending.words, l.pending.paras)
	}
	if l.dft.n < l.minIDF {
		return nil, nil
	}
	return l.dft.weights(&l.dfMu), nil
}
