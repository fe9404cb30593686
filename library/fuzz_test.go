package library

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// The decoders of the library's records and files, fuzzed from real values: those of a small
// library each target makes.

// fuzzLibrary makes a library of five prose documents in a temporary folder of f.
func fuzzLibrary(f *testing.F) string {
	f.Helper()
	dir := f.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		f.Fatal(err)
	}
	for i, p := range prose[:5] {
		if err := os.WriteFile(filepath.Join(src, string(rune('a'+i))+".txt"), []byte("Title\n\n"+p+"\n\n"+prose[(i+1)%len(prose)]+"\n"), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	lib := filepath.Join(dir, "lib")
	l, err := Open(lib, nil)
	if err != nil {
		f.Fatal(err)
	}
	defer l.Close()
	if _, err := l.AddFiles(context.Background(), []string{src}, AddOptions{}, nil); err != nil {
		f.Fatal(err)
	}
	return lib
}

// fuzzValues returns the unsealed values of a bucket of the fuzz library.
func fuzzValues(f *testing.F, bucket []byte) [][]byte {
	f.Helper()
	db, err := bolt.Open(filepath.Join(fuzzLibrary(f), "library.db"), 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		f.Fatal(err)
	}
	defer db.Close()
	var out [][]byte
	db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucket).ForEach(func(k, v []byte) error {
			u, err := unseal(k, v)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, append([]byte(nil), u...))
			return nil
		})
	})
	if len(out) == 0 {
		f.Fatalf("no values in bucket %s", bucket)
	}
	return out
}

// FuzzDecodeFingerprints reads fp values of both forms: SimHashes only (format version 4, seeded
// from the fuzz library) and with grams (versions 1-3, Redis).
func FuzzDecodeFingerprints(f *testing.F) {
	for _, v := range fuzzValues(f, bucketFP) {
		f.Add(v)
		fps, grams, err := decodeFingerprints(v)
		if err != nil || grams {
			f.Fatalf("a new library's fp value: grams %v, %v", grams, err)
		}
		for i := range fps {
			fps[i].Grams = []uint32{uint32(i + 1), 0xFFFFFFF0}
		}
		f.Add(encodeFingerprints(fps))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fps, grams, err := decodeFingerprints(b)
		if err != nil {
			if !errors.Is(err, errFormat) {
				t.Fatalf("error %v is not errFormat", err)
			}
			return
		}
		encode := encodeSimHashes
		if grams {
			encode = encodeFingerprints
		}
		again, grams2, err := decodeFingerprints(encode(fps))
		if err != nil || grams2 != grams || !reflect.DeepEqual(again, fps) && len(fps) > 0 {
			t.Fatalf("fingerprints do not survive encoding: %v", err)
		}
	})
}

func FuzzDecodeLoc(f *testing.F) {
	for _, v := range fuzzValues(f, bucketLoc) {
		f.Add(v, true)
	}
	f.Fuzz(func(t *testing.T, b []byte, framed bool) {
		c, err := decodeLoc(b, framed)
		if err != nil {
			return
		}
		if len(c.lens) != len(c.crcs) || c.off < 0 || c.head < 0 {
			t.Fatalf("decoded %+v", c)
		}
		c.size()
		c.span(0, len(c.lens))
		if framed {
			again, err := decodeLoc(c.encode(), true)
			if err != nil || again.off != c.off || again.head != c.head || !reflect.DeepEqual(again.lens, c.lens) {
				t.Fatalf("a location does not survive encoding: %v", err)
			}
		}
	})
}

func FuzzDecodeRecord(f *testing.F) {
	for _, v := range fuzzValues(f, bucketDocs) {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var rec docRecord
		if err := decodeRecord(b, &rec); err != nil {
			return
		}
		if rec.ID == 0 || len(rec.Signature) != 128 {
			t.Fatalf("accepted %+v", rec)
		}
	})
}

func FuzzDecodeFrame(f *testing.F) {
	data, err := os.ReadFile(filepath.Join(fuzzLibrary(f), "paras-1.dat"))
	if err != nil {
		f.Fatal(err)
	}
	n := binary.LittleEndian.Uint32(data[4:])
	f.Add(data[frameHeadLen : frameHeadLen+n])
	f.Add(removalFrame([]uint64{1, 7, 1 << 40})[frameHeadLen:])
	f.Fuzz(func(t *testing.T, body []byte) {
		fr, err := decodeFrame(body)
		if err != nil {
			return
		}
		if fr.kind == frameDoc && len(fr.lens) != len(fr.crcs) {
			t.Fatalf("decoded %+v", fr)
		}
		fr.loc(0).size()
	})
}

// reseal gives a segment file the block checksums its bytes need, so that fuzzing reaches the
// checks behind them.
func reseal(b []byte) []byte {
	if len(b) < segHeader || string(b[:8]) != segMagic {
		return b
	}
	h := b[8:]
	c := segCounts{binary.LittleEndian.Uint32(h), binary.LittleEndian.Uint32(h[4:]), binary.LittleEndian.Uint32(h[8:]),
		binary.LittleEndian.Uint32(h[12:]), binary.LittleEndian.Uint32(h[16:])}
	size := c.size()
	if size > len(b) || size < 0 {
		return b
	}
	out := append([]byte(nil), b[:size]...)
	var table []byte
	for p := 0; p < size; p += segBlock {
		table = binary.LittleEndian.AppendUint32(table, crc32.Checksum(out[p:min(p+segBlock, size)], crcTable))
	}
	out = append(out, table...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(table, crcTable))
}

func FuzzParseSegment(f *testing.F) {
	segs, _ := filepath.Glob(filepath.Join(fuzzLibrary(f), "seg-*.idx"))
	if len(segs) == 0 {
		f.Fatal("no segment in the fuzz library")
	}
	seed, err := os.ReadFile(segs[0])
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed, false)
	f.Fuzz(func(t *testing.T, b []byte, resealed bool) {
		if resealed {
			b = reseal(b)
		}
		a, err := parseSegment(b)
		if err != nil {
			return
		}
		// Every query of an accepted segment answers without a panic, pages failing or not.
		for _, g := range []uint32{0, 1, 0xFFFFFFFF, 0x12345678} {
			a.postingsOf(g)
		}
		for _, g := range a.gramKeys[:min(len(a.gramKeys), 64)] {
			a.postingsOf(g)
		}
		for b := 0; b < 4; b++ {
			a.block(b, 0)
			a.block(b, 0xFFFF)
		}
		for p := uint32(0); p < uint32(min(len(a.sims), 64)); p++ {
			a.sim(p)
			a.doc(p)
		}
		a.sums.all(nil)
	})
}

// FuzzDecodeParas reads paragraphs as format version 1 kept them in bucket paras (an upgrade still
// reads them), seeded with the fuzz library's own paragraphs encoded so, and in the packed form
// of version 4 (which the same decoder reads). What reads must read the same written again in
// either form; what does not is errFormat.
func FuzzDecodeParas(f *testing.F) {
	l, err := Open(fuzzLibrary(f), &Options{ReadOnly: true})
	if err != nil {
		f.Fatal(err)
	}
	docs, err := l.List()
	if err != nil || len(docs) == 0 {
		f.Fatalf("%d documents: %v", len(docs), err)
	}
	for _, d := range docs {
		ps, err := l.Paragraphs(d.ID)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(encodeParasV1(ps, false))
		f.Add(encodeParasV1(ps, true))
	}
	if err := l.Close(); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ps, err := decodeParas(b)
		if err != nil {
			if !errors.Is(err, errFormat) {
				t.Fatalf("error %v is not errFormat", err)
			}
			return
		}
		for _, packed := range []bool{false, true} {
			again, err := decodeParas(encodeParasV1(ps, packed))
			if err != nil || !reflect.DeepEqual(again, ps) {
				t.Fatalf("paragraphs do not survive encoding (packed %v): %v", packed, err)
			}
		}
	})
}

// encodeParasV1 writes paragraphs as a paras value of format version 1, their records in the
// version 3 form or packed.
func encodeParasV1(ps []Paragraph, packed bool) []byte {
	var e encoder
	e.uvarint(uint64(len(ps)))
	for _, p := range ps {
		if packed {
			e.paragraph(p)
		} else {
			e.paragraphV3(p)
		}
	}
	return e.b
}

// FuzzUnseal checks values against their checksums, seeded with the sealed values of the fuzz
// library's meta and paragraph locations.
func FuzzUnseal(f *testing.F) {
	db, err := bolt.Open(filepath.Join(fuzzLibrary(f), "library.db"), 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		f.Fatal(err)
	}
	seeds := 0
	err = db.View(func(tx *bolt.Tx) error {
		for _, bucket := range [][]byte{bucketMeta, bucketLoc} { // short values: large ones make minimising slow
			err := tx.Bucket(bucket).ForEach(func(k, v []byte) error {
				if string(k) != string(keyVersion) { // the one value left unsealed
					f.Add(append([]byte(nil), k...), append([]byte(nil), v...))
					seeds++
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil || seeds == 0 {
		f.Fatalf("%d seeds: %v", seeds, err)
	}
	f.Fuzz(func(t *testing.T, key, v []byte) {
		u, err := unseal(key, v)
		if err != nil {
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("a bad value's error %v does not wrap ErrDamaged", err)
			}
			return
		}
		if !bytes.Equal(seal(key, u), v) {
			t.Fatal("an accepted value is not what sealing its content gives")
		}
		if len(u) > 0 {
			flipped := append([]byte(nil), v...)
			flipped[0] ^= 1
			if _, err := unseal(key, flipped); err == nil {
				t.Fatal("a value with a bit flipped is accepted")
			}
		}
	})
}
