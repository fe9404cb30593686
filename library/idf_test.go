package library

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"

	"thesischeck/similarity"
)

// The library learns word weights from its own paragraphs: a word in every paragraph weighs less
// than a word in one; the counts follow additions and removals and survive a reopen; a small library
// keeps jieba's weights.
func TestLearnedWeights(t *testing.T) { forBackends(t, testLearnedWeights) }

func testLearnedWeights(t *testing.T, open func(*Options) *Library) {
	seg, err := similarity.Default()
	if err != nil {
		t.Fatal(err)
	}
	hash := func(word string) uint32 { return seg.Prepare(word).Tokens[0].Hash }
	common, rare := hash("parliament"), hash("zeppelin")

	src := t.TempDir()
	a := writeDoc(t, src, "a.txt", "First",
		"The parliament met on Monday to discuss the budget for schools.",
		"The parliament adjourned after a short debate about the railways.")
	b := writeDoc(t, src, "b.txt", "Second",
		"A zeppelin flew over the parliament while the members argued loudly.",
		"Later the parliament voted on the harbour and the new bridges.")

	small := open(nil)
	add(t, small, AddOptions{}, a)
	if weights(t, small) != nil {
		t.Error("a library of a few paragraphs must keep jieba's weights")
	}
	small.Close()

	l := open(&Options{MinIDFParagraphs: 1})
	res := add(t, l, AddOptions{}, b)
	w := weights(t, l)
	if w == nil {
		t.Fatal("no learned weights")
	}
	if !(w(common) < w(rare)) {
		t.Errorf("weight of a word in every paragraph %.3f, of a word in one %.3f: want the first lower", w(common), w(rare))
	}
	if got, want := w(rare), similarity.LearnedIDF(6, 1); got != want {
		t.Errorf("weight of a word in 1 of 6 paragraphs (titles count) = %.4f, want %.4f", got, want)
	}
	before := w(rare)
	if err := l.Remove(res.Added[0].ID); err != nil {
		t.Fatal(err)
	}
	if got, want := w(rare), similarity.LearnedIDF(3, 0); got != want || got == before {
		t.Errorf("after removing the only document with the word: %.4f, want %.4f", got, want)
	}
	l.Close()

	l = open(&Options{MinIDFParagraphs: 1, ReadOnly: true})
	defer l.Close()
	if got, want := weights(t, l)(common), similarity.LearnedIDF(3, 2); got != want {
		t.Errorf("after reopening: weight %.4f, want %.4f", got, want)
	}
}

// A batch of documents (with a duplicate among them) and a removal of several at once change the
// stored word counts exactly as counting every stored paragraph afresh would.
func TestWordCountsFollowBatches(t *testing.T) {
	dir := t.TempDir()
	src, _ := harbourDocs(t, append(slices.Clone(harbour), harbour[0])...) // the last a duplicate
	l := openLib(t, dir, nil)
	defer l.Close()
	res := add(t, l, AddOptions{}, src)
	if len(res.Added) != 3 || len(res.Duplicates) != 1 {
		t.Fatalf("added %d, duplicates %d; want 3 and 1", len(res.Added), len(res.Duplicates))
	}
	wordCountsAgree(t, l, "after adding", true)
	weights(t, l) // loads the table in memory, which removal must then keep in step
	if err := l.Remove(res.Added[0].ID, res.Added[2].ID); err != nil {
		t.Fatal(err)
	}
	wordCountsAgree(t, l, "after removing two", true)
}

// wordCountsAgree checks the word counts in memory (once loaded) and, when stored, those of the df
// bucket against a fresh count of every stored paragraph.
func wordCountsAgree(t *testing.T, l *Library, when string, stored bool) {
	t.Helper()
	saved, paras := map[uint32]int{}, 0
	fresh, n := map[uint32]int{}, 0
	err := folderOf(l).db.View(func(tx *bolt.Tx) error {
		paras = int(decodeCount(tx.Bucket(bucketMeta).Get(keyDFParas)))
		if err := tx.Bucket(bucketDF).ForEach(func(k, v []byte) error {
			saved[binary.BigEndian.Uint32(k)] = int(decodeCount(v))
			return nil
		}); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range list(t, l) {
		ps, err := l.Paragraphs(d.ID)
		if err != nil {
			t.Fatal(err)
		}
		n += len(ps)
		wordDelta(ps, 1, fresh)
	}
	if len(fresh) == 0 {
		t.Fatalf("%s: no words stored", when)
	}
	if stored && n != paras {
		t.Errorf("%s: %d paragraphs counted, %d stored", when, paras, n)
	}
	if stored && !maps.Equal(saved, fresh) {
		t.Errorf("%s: stored counts for %d words differ from a fresh count of %d words", when, len(saved), len(fresh))
	}
	folderOf(l).dfMu.RLock()
	mem := map[uint32]int{}
	for h, c := range folderOf(l).dft.df {
		mem[h] = int(c)
	}
	loaded, memParas := folderOf(l).dft.loaded, folderOf(l).dft.n
	folderOf(l).dfMu.RUnlock()
	if loaded && (!maps.Equal(mem, fresh) || memParas != n) {
		t.Errorf("%s: the table in memory (%d words, %d paragraphs) differs from a fresh count (%d, %d)", when, len(mem), memParas, len(fresh), n)
	}
}

// An import killed between two checkpoints leaves documents whose words are not in the df bucket:
// opening the library counts them again, in memory when it is read-only, in the bucket when not.
func TestWordCountsAfterKill(t *testing.T) {
	dir := t.TempDir()
	_, paths := harbourDocs(t, harbour...)
	l := openLib(t, dir, &Options{MinIDFParagraphs: 1})
	add(t, l, AddOptions{}, paths[0])
	// What AddFiles does for a batch, without the segment and checkpoint that follow it: the
	// state a kill leaves.
	seg, err := similarity.Default()
	if err != nil {
		t.Fatal(err)
	}
	w, err := l.Weights()
	if err != nil {
		t.Fatal(err)
	}
	var batch []prepared
	for _, p := range paths[1:] {
		batch = append(batch, prepareFile(context.Background(), p, AddOptions{}, seg, w))
	}
	if _, _, err := folderOf(l).write(batch); err != nil {
		t.Fatal(err)
	}
	weights(t, l)
	wordCountsAgree(t, l, "before the kill", false)
	l.Close()

	ro := openLib(t, dir, &Options{MinIDFParagraphs: 1, ReadOnly: true})
	if weights(t, ro) == nil {
		t.Fatal("no learned weights")
	}
	wordCountsAgree(t, ro, "opened read-only", false)
	ro.Close()

	l = openLib(t, dir, &Options{MinIDFParagraphs: 1})
	defer l.Close()
	weights(t, l)
	wordCountsAgree(t, l, "opened again", true)
}

var harbour = []string{
	"The harbour board met in the town hall to discuss the new bridges.",
	"Members of the harbour board argued about tolls and the railways.",
	"The railways carried coal from the mines to the harbour at night.",
}

// harbourDocs writes a document for each text into a new folder, titled by its position modulo 3
// (so that a repeated text is a duplicate file).
func harbourDocs(t *testing.T, texts ...string) (dir string, paths []string) {
	dir = t.TempDir()
	for i, text := range texts {
		paths = append(paths, writeDoc(t, dir, fmt.Sprintf("d%d.txt", i), fmt.Sprintf("Title %d", i%3), text))
	}
	return dir, paths
}

// A library made before word counts were kept (no df bucket, no "dfparas") gets them counted from
// its stored paragraphs when it is next opened for writing.
func TestWordCountsOfAnOlderLibrary(t *testing.T) {
	dir := t.TempDir()
	src, _ := harbourDocs(t, harbour...)
	l := openLib(t, dir, nil)
	add(t, l, AddOptions{}, src)
	l.Close()
	toVersion2(t, dir)
	db, err := bolt.Open(filepath.Join(dir, "library.db"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketDF); err != nil {
			return err
		}
		meta := tx.Bucket(bucketMeta)
		return errors.Join(meta.Delete(keyDFParas), meta.Delete(keyDFUpTo))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	l = openLib(t, dir, nil)
	defer l.Close()
	weights(t, l)
	wordCountsAgree(t, l, "an older library opened", true)
}

// docWords counts, for each word, the paragraphs that hold it, sorted by word: words repeated in a
// paragraph count once, stop words and numbers not at all, paragraphs without words add nothing;
// wordDelta adds those counts times its sign to a map.
func TestDocWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := range 40 {
		paras := make([]Paragraph, n)
		want := map[uint32]int{}
		for i := range paras {
			seen := map[uint32]bool{}
			for range rng.IntN(30) {
				// Few words, some of them past 2^31 and sharing their low bits with others.
				h := uint32(rng.IntN(12)) | uint32(rng.IntN(3))<<31
				stop := rng.IntN(4) == 0
				paras[i].Tokens = append(paras[i].Tokens, similarity.Token{Hash: h, Stop: stop})
				if !stop && !seen[h] {
					seen[h] = true
					want[h]++
				}
			}
		}
		got := docWords(paras)
		m := map[uint32]int{}
		for i, c := range got {
			if i > 0 && got[i-1].hash >= c.hash {
				t.Fatalf("%d paragraphs: %v not sorted by word", n, got)
			}
			m[c.hash] = int(c.n)
		}
		if !maps.Equal(m, want) {
			t.Fatalf("%d paragraphs: docWords %v, want %v", n, m, want)
		}
		delta := map[uint32]int{1 << 30: 5}
		wordDelta(paras, -1, delta)
		for h, c := range want {
			if delta[h] != -c {
				t.Fatalf("%d paragraphs: wordDelta(-1) gave word %d %d, want %d", n, h, delta[h], -c)
			}
		}
		if delta[1<<30] != 5 || len(delta) != len(want)+1 {
			t.Fatalf("%d paragraphs: wordDelta(-1) left %v", n, delta)
		}
	}
}

// A table's weights are LearnedIDF of its counts, bit for bit, on either side of the counts it
// keeps worked out, after it is loaded and after each change of its paragraph count.
func TestDFTableWeight(t *testing.T) {
	tab := dfTable{loaded: true, df: map[uint32]uint32{}}
	tab.setN(5000)
	counts := []int{0, 1, 2, 7, idfCached - 1, idfCached, idfCached + 1, 4999}
	for i, c := range counts {
		if c > 0 {
			tab.df[uint32(i)] = uint32(c)
		}
	}
	for _, paras := range []int{0, 1, 300, 100000} {
		delta := map[uint32]int{}
		if paras > 0 {
			delta[uint32(len(counts))] = 3
			counts = append(counts, 3)
		}
		tab.apply(delta, paras)
		for i, c := range counts {
			if got, want := tab.weight(uint32(i)), similarity.LearnedIDF(tab.n, c); got != want {
				t.Errorf("%d paragraphs, count %d: weight %v, LearnedIDF %v", tab.n, c, got, want)
			}
		}
	}
}
