package library

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"thesischeck/internal/redistest"
	"thesischeck/similarity"
)

// paragraphV3 appends a paragraph's record as format versions 1-3 wrote it, for the tests of
// libraries those versions made.
func (e *encoder) paragraphV3(p Paragraph) {
	e.paragraphHead(p)
	prev := int32(0)
	for _, t := range p.Tokens {
		e.u32(t.Hash)
		e.uvarint(uint64(t.Start - prev))
		e.uvarint(uint64(t.End - t.Start))
		var f byte
		if t.Stop {
			f |= 1
		}
		if t.Num {
			f |= 2
		}
		e.b = append(e.b, f)
		prev = t.End
	}
}

// storedTokens is what a record keeps of tokens: no weights, no sentence bits.
func storedTokens(toks []similarity.Token) []similarity.Token {
	out := make([]similarity.Token, len(toks))
	for i, t := range toks {
		out[i] = similarity.Token{Hash: t.Hash, Start: t.Start, End: t.End, Stop: t.Stop, Num: t.Num}
	}
	return out
}

func readRecord(t *testing.T, b []byte) Paragraph {
	t.Helper()
	d := decoder{b: b}
	p := d.paragraph()
	if d.err != nil || len(d.b) != 0 {
		t.Fatalf("record %x: %v, %d bytes left", b, d.err, len(d.b))
	}
	return p
}

// Every kind of token survives the packed record exactly, and reads the same as from a record of
// version 3; the tokens whose hash their span does not give take the long form with their hash.
func TestPackedRecordRoundTrip(t *testing.T) {
	seg, err := similarity.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, text string
		long       int // tokens that must take the long form
	}{
		{"Chinese", "湿地被称为城市的肾脏，它能够截留地表径流中的泥沙和污染物。", 0},
		{"English", "Tidal flats look empty at first glance, a wide expanse of grey mud.", 0},
		{"upper case", "THE QUICK Brown Fox OF London", 0},
		{"traditional", "軟體套件管理器與資料庫", -1},
		{"look-alikes", "The pаper (Cyrillic а) was wrіtten", 2},
		{"full-width and ligature", "ＡＢＣ ｄｅｆ ﬁle ﬂow", -1},
		{"spaced CJK", "软 件 包 管 理 器 的 设 计", -1},
		{"numbers", "In 2024 about 1500 of 38 papers, ３ more", -1},
		{"stop words", "的 了 是 the of and a an", 0},
		{"long words", "Pneumonoultramicroscopicsilicovolcanoconiosis and Donaudampfschifffahrtsgesellschaftskapitän", 2},
		{"far apart", "first" + strings.Repeat(" .", 40) + " second" + strings.Repeat("—", 300) + "third", 2},
		{"accents", "café naïve crème brûlée", 4}, // their marks read off: the text does not give the word back
		{"upper case beyond ASCII", "Ünïcödé Crème Brûlée ΑΒΓ", -1},
		{"empty", "", 0},
		{"no words", "…… —— !!!", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := Paragraph{Text: c.text, Section: "2.1 节", Chapter: "第二章", Page: 7, Heading: c.name == "English",
				Tokens: storedTokens(seg.Tokens(similarity.Normalize(c.text)))}
			if c.text != "" && c.name != "no words" && len(p.Tokens) == 0 {
				t.Fatal("no tokens: the case tests nothing")
			}
			var e, old encoder
			e.paragraph(p)
			old.paragraphV3(p)
			got, fromOld := readRecord(t, e.b), readRecord(t, old.b)
			if !reflect.DeepEqual(got, p) {
				t.Errorf("packed record reads\n%+v\nwant\n%+v", got, p)
			}
			if !reflect.DeepEqual(fromOld, p) {
				t.Errorf("version 3 record reads\n%+v\nwant\n%+v", fromOld, p)
			}
			head := encoder{}
			head.paragraphHead(p)
			long := len(e.b) - len(recordMarker) - len(head.b) - len(p.Tokens)
			switch {
			case c.long == 0 && long != 0:
				t.Errorf("%d bytes beyond one a token; want every token in the short form", long)
			case c.long > 0 && long < 2*c.long: // a long form takes at least 3 bytes
				t.Errorf("%d bytes beyond one a token; want at least %d tokens in the long form", long, c.long)
			case c.long < 0 && long == 0:
				t.Error("every token in the short form; want some with their own hash")
			}
		})
	}
}

// Tokens no segmenter makes still survive: a start before the previous end, an empty or
// reversed span, one past the text, a number that is not a stop word, huge offsets.
func TestPackedRecordOddTokens(t *testing.T) {
	text := "alpha beta"
	for _, toks := range [][]similarity.Token{
		{{Hash: spanHash(text, 6, 10), Start: 6, End: 10}, {Hash: 1, Start: 0, End: 5}},
		{{Hash: 7, Start: 3, End: 3}},
		{{Hash: 7, Start: 5, End: 2}},
		{{Hash: 7, Start: 6, End: 40}},
		{{Hash: spanHash(text, 0, 5), Start: 0, End: 5, Num: true}},
		{{Hash: 9, Start: -4, End: -1}},
		{{Hash: 9, Start: 1 << 30, End: 1<<31 - 1}},
	} {
		p := Paragraph{Text: text, Tokens: toks}
		var e encoder
		e.paragraph(p)
		if got := readRecord(t, e.b); !reflect.DeepEqual(got, p) {
			t.Errorf("%+v reads as %+v", toks, got.Tokens)
		}
	}
}

// The bytes of both record forms, written out: a record of version 3 must read as it always did,
// and the packed form must not change under the libraries that hold it.
func TestRecordGoldenBytes(t *testing.T) {
	const ab, cd = 0x4d2505ca, 0x5b299902 // FNV-1a of "ab" and "cd"
	short := Paragraph{Text: "Ab cd", Section: "S", Page: 2, Heading: true,
		Tokens: []similarity.Token{{Hash: ab, Start: 0, End: 2}, {Hash: cd, Start: 3, End: 5, Stop: true}}}
	far := Paragraph{Text: "Ab" + strings.Repeat(" ", 300) + "cd", Section: "S", Page: 2, Heading: true,
		Tokens: []similarity.Token{{Hash: ab + 1, Start: 0, End: 2}, {Hash: cd, Start: 302, End: 304, Stop: true}}}
	// head: len 5 "Ab cd", len 1 "S", len 0 "", page 2, flags 1 (heading), 2 tokens
	head := "05" + "4162206364" + "0153" + "00" + "02" + "01" + "02"
	farHead := "b002" + "4162" + strings.Repeat("20", 300) + "6364" + "0153" + "00" + "02" + "01" + "02"
	for _, c := range []struct {
		name  string
		hex   string
		p     Paragraph
		write bool // the current encoder writes these bytes
	}{
		// tokens {hash LE, start delta, length, flags}
		{"version 3", head + "ca05254d" + "00" + "02" + "00" + "0299295b" + "01" + "02" + "01", short, false},
		// one byte a token: kind<<6 | delta<<4 | length-1
		{"version 4", "8000" + head + "01" + "51", short, true},
		// the long form: 0xC4 (a hash of its own) delta 0, length 2, the hash; then 0xC1 (a stop
		// word) 300 runes on (uvarint ac02), length 2
		{"version 4, long form", "8000" + farHead + "c4" + "00" + "02" + "cb05254d" + "c1" + "ac02" + "02", far, true},
	} {
		b, err := hex.DecodeString(c.hex)
		if err != nil {
			t.Fatal(err)
		}
		if got := readRecord(t, b); !reflect.DeepEqual(got, c.p) {
			t.Errorf("%s: reads as %+v, want %+v", c.name, got, c.p)
		}
		if c.write {
			var e encoder
			e.paragraph(c.p)
			if !reflect.DeepEqual(e.b, b) {
				t.Errorf("%s: written as %x, want %x", c.name, e.b, b)
			}
		}
	}
}

// A damaged packed record is errFormat, never a panic or a token outside its text.
func TestPackedRecordDamage(t *testing.T) {
	var e encoder
	e.paragraph(Paragraph{Text: "one two three", Tokens: []similarity.Token{
		{Hash: spanHash("one two three", 0, 3), Start: 0, End: 3},
		{Hash: 5, Start: 4, End: 7},
	}})
	good := e.b
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"cut short", good[:len(good)-1]},
		{"cut in the hash", good[:len(good)-3]},
		{"bad long-form flags", append(good[:len(good)-7:len(good)-7], 0xC8, 4, 3)},
		{"span past the text", append(append([]byte(nil), good[:len(good)-8]...), 0x0F)},
		{"huge count", append(append([]byte(recordMarker), 0x01, 'a', 0, 0, 0, 0), 0xFF, 0xFF, 0xFF, 0x7F)},
		{"delta beyond int32", append(append([]byte(recordMarker), 0x01, 'a', 0, 0, 0, 0, 1, 0xC0), 0x80, 0x80, 0x80, 0x80, 0x10, 1)},
	} {
		d := decoder{b: c.b}
		d.paragraph()
		if d.err == nil && len(d.b) == 0 {
			t.Errorf("%s: %x read without an error", c.name, c.b)
		}
	}
}

// toVersion3 turns a library (closed, no removals) into what format version 3 wrote: every
// paragraph record in the version 3 form, frames and locations to match, fp values with their
// grams, meta "version" 3.
func toVersion3(t *testing.T, dir string) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, "library.db"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := codec{sealed: true}
	err = db.Update(func(tx *bolt.Tx) error {
		s, err := openParas(dir, db, c, true)
		if err != nil {
			return err
		}
		defer s.close()
		var out []byte
		var scanErr error
		locs := map[uint64]paraLoc{}
		err = scanFrames(s.f, s.end, func(off int64, fr frame) {
			if fr.kind != frameDoc {
				scanErr = fmt.Errorf("a removal frame at %d", off)
				return
			}
			ps, err := s.read(fr.loc(off), 0, len(fr.lens))
			if err != nil {
				scanErr = err
				return
			}
			var e encoder
			lens, crcs := make([]uint32, len(ps)), make([]uint32, len(ps))
			for i, p := range ps {
				start := len(e.b)
				e.paragraphV3(p)
				lens[i], crcs[i] = uint32(len(e.b)-start), crc32.Checksum(e.b[start:], crcTable)
			}
			// Its fp value with the grams, as version 3 wrote it.
			v, err := c.get(tx, bucketFP, idKey(fr.id))
			if err != nil {
				scanErr = err
				return
			}
			fps, _, err := decodeFingerprints(v)
			if err != nil || len(fps) != len(ps) {
				scanErr = fmt.Errorf("document %d: %d fingerprints, %d paragraphs: %v", fr.id, len(fps), len(ps), err)
				return
			}
			for i, p := range ps {
				fps[i].Grams = gramsOf(p)
			}
			if err := c.put(tx, bucketFP, idKey(fr.id), encodeFingerprints(fps)); err != nil {
				scanErr = err
				return
			}
			head := docFrame(fr.id, fr.rec, lens, crcs)
			locs[fr.id] = paraLoc{off: int64(len(out)), head: int64(len(head)), lens: lens, crcs: crcs}
			out = append(append(out, head...), e.b...)
		})
		if err = errors.Join(err, scanErr); err != nil {
			return err
		}
		if len(locs) == 0 {
			return errors.New("no documents")
		}
		if err := os.WriteFile(filepath.Join(dir, s.name), out, 0o644); err != nil {
			return err
		}
		for id, loc := range locs {
			if err := c.put(tx, bucketLoc, idKey(id), loc.encode()); err != nil {
				return err
			}
		}
		return errors.Join(s.putMeta(tx, c, int64(len(out)), 0), c.put(tx, bucketMeta, keyVersion, []byte("3")))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// packedDocs counts the documents of an open library whose first paragraph record is packed, and
// those whose is not.
func packedDocs(t *testing.T, l *Library) (packed, old int) {
	t.Helper()
	f := folderOf(l)
	for _, d := range list(t, l) {
		err := f.view(func(tx *bolt.Tx) error {
			v, err := f.rec.get(tx, bucketLoc, idKey(d.ID))
			if err != nil {
				return err
			}
			loc, err := decodeLoc(v, true)
			if err != nil {
				return err
			}
			b := make([]byte, len(recordMarker))
			if _, err := f.paras.f.ReadAt(b, loc.off+loc.head); err != nil {
				return err
			}
			if string(b) == recordMarker {
				packed++
			} else {
				old++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return packed, old
}

// A library of format version 3 reads as it is; opened for writing it becomes version 4 with its
// records left as they are, new documents get packed records, and both read back the tokens a
// library that was always version 4 holds: the same paragraphs, the same candidates, a clean check,
// removal and compaction working over both kinds.
func TestVersion3Library(t *testing.T) {
	docs := proseDocs(t, 5)
	first := []string{filepath.Join(docs, "d00.txt"), filepath.Join(docs, "d01.txt"), filepath.Join(docs, "d02.txt")}
	later := []string{filepath.Join(docs, "d03.txt"), filepath.Join(docs, "d04.txt")}
	refDir := t.TempDir()
	ref := openLib(t, refDir, nil)
	add(t, ref, AddOptions{}, first...)
	add(t, ref, AddOptions{}, later...)
	wantParas, wantCands := everyParagraph(t, ref), probeAll(t, ref)
	if packed, old := packedDocs(t, ref); packed != 5 || old != 0 {
		t.Fatalf("a new library: %d documents packed, %d not", packed, old)
	}
	ref.Close()

	dir := t.TempDir()
	l := openLib(t, dir, nil)
	add(t, l, AddOptions{}, first...)
	l.Close()
	toVersion3(t, dir)

	ro := openLib(t, dir, &Options{ReadOnly: true})
	if packed, old := packedDocs(t, ro); packed != 0 || old != 3 {
		t.Fatalf("made version 3: %d documents packed, %d not", packed, old)
	}
	got := everyParagraph(t, ro)
	for name, ps := range got {
		if !reflect.DeepEqual(ps, wantParas[name]) {
			t.Errorf("version 3, read-only: %s reads other paragraphs", name)
		}
	}
	ro.Close()
	if rep, err := Check(dir, nil); err != nil || rep.Damaged() || rep.Version != 3 {
		t.Fatalf("check of a version 3 library: %v %+v", err, rep)
	}

	l = openLib(t, dir, nil)
	if v, err := readVersion(folderOf(l).db); err != nil || v != formatVersionNum {
		t.Errorf("version %d (%v) after a writable open", v, err)
	}
	add(t, l, AddOptions{}, later...)
	if packed, old := packedDocs(t, l); packed != 2 || old != 3 {
		t.Errorf("after adding two: %d documents packed, %d not", packed, old)
	}
	if got := everyParagraph(t, l); !reflect.DeepEqual(got, wantParas) {
		t.Error("old and new records together read other paragraphs than a version 4 library's")
	}
	if got := probeAll(t, l); !reflect.DeepEqual(got, wantCands) {
		t.Error("old and new records together give other candidates than a version 4 library's")
	}
	l.Close()
	if rep, err := Check(dir, nil); err != nil || rep.Damaged() || rep.Version != formatVersionNum || rep.Documents != 5 {
		t.Fatalf("check after adding: %v %+v", err, rep)
	}

	l = openLib(t, dir, &Options{CompactMin: 1})
	ids := list(t, l)
	if err := l.Remove(ids[0].ID, ids[1].ID, ids[3].ID); err != nil { // two old, one new: more than half
		t.Fatal(err)
	}
	if _, err := l.Compact(); err != nil {
		t.Fatal(err)
	}
	if got := storeFiles(t, dir); !reflect.DeepEqual(got, []string{"paras-2.dat"}) {
		t.Errorf("store files after compaction: %v", got)
	}
	got = everyParagraph(t, l)
	if len(got) != 2 || !reflect.DeepEqual(got["d02.txt"], wantParas["d02.txt"]) || !reflect.DeepEqual(got["d04.txt"], wantParas["d04.txt"]) {
		t.Errorf("after removing three and compacting: %d documents, or other paragraphs", len(got))
	}
	if packed, old := packedDocs(t, l); packed != 2 || old != 0 {
		t.Errorf("after compacting: %d documents packed, %d not; want the old one packed as it was copied", packed, old)
	}
	l.Close()
	if rep, err := Check(dir, nil); err != nil || rep.Damaged() || rep.Documents != 2 {
		t.Fatalf("check after compacting: %v %+v", err, rep)
	}
	// library.db is made again from the new store's frames alone: the packed document's new frame
	// places its records.
	if err := os.Remove(filepath.Join(dir, "library.db")); err != nil {
		t.Fatal(err)
	}
	if rep, err := Repair(dir, nil); err != nil || len(rep.Lost) != 0 || rep.Documents != 2 {
		t.Fatalf("repair from the compacted store: %v %+v", err, rep)
	}
	l = openLib(t, dir, nil)
	defer l.Close()
	if got := everyParagraph(t, l); len(got) != 2 || !reflect.DeepEqual(got["d02.txt"], wantParas["d02.txt"]) {
		t.Error("after repair from the compacted store: other paragraphs")
	}
}

// A library on Redis of schema 1 reads as it is; opened for writing its meta says schema 2, its
// records stay as they are, and new documents' records are packed: all read back the paragraphs
// of a library that was always schema 2.
func TestRedisSchema1Library(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t)
	docs := proseDocs(t, 4)
	first := []string{filepath.Join(docs, "d00.txt"), filepath.Join(docs, "d01.txt")}
	later := []string{filepath.Join(docs, "d02.txt"), filepath.Join(docs, "d03.txt")}
	ref := openLib(t, srv.URL(0), nil)
	add(t, ref, AddOptions{}, first...)
	add(t, ref, AddOptions{}, later...)
	want := everyParagraph(t, ref)
	ref.Close()

	url := srv.URL(1)
	c := rawClient(t, url)
	l := openLib(t, url, nil)
	add(t, l, AddOptions{}, first...)
	l.Close()
	// records counts the records of every paragraph in the database; toV3 rewrites the packed ones in
	// the version 3 form.
	records := func(toV3 bool) (packed, old int) {
		t.Helper()
		keys, err := c.Keys(ctx, "p:*").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			fields, err := c.HGetAll(ctx, k).Result()
			if err != nil {
				t.Fatal(err)
			}
			for n, v := range fields {
				if !strings.HasPrefix(v, recordMarker) {
					old++
					continue
				}
				packed++
				if !toV3 {
					continue
				}
				var e encoder
				e.paragraphV3(readRecord(t, []byte(v)))
				if err := c.HSet(ctx, k, n, e.b).Err(); err != nil {
					t.Fatal(err)
				}
			}
		}
		return packed, old
	}
	if packed, old := records(true); packed == 0 || old != 0 {
		t.Fatalf("%d packed records, %d not, in a new library", packed, old)
	}
	if err := c.HSet(ctx, keyRedisMeta, "schema", "1").Err(); err != nil {
		t.Fatal(err)
	}

	ro := openLib(t, url, &Options{ReadOnly: true})
	for name, ps := range everyParagraph(t, ro) {
		if !reflect.DeepEqual(ps, want[name]) {
			t.Errorf("schema 1, read-only: %s reads other paragraphs", name)
		}
	}
	ro.Close()
	if s, _ := c.HGet(ctx, keyRedisMeta, "schema").Result(); s != "1" {
		t.Errorf("a read-only open made the schema %q", s)
	}

	l = openLib(t, url, nil)
	defer l.Close()
	if s, _ := c.HGet(ctx, keyRedisMeta, "schema").Result(); s != redisSchema {
		t.Errorf("after a writable open the schema is %q, want %q", s, redisSchema)
	}
	add(t, l, AddOptions{}, later...)
	if got := everyParagraph(t, l); !reflect.DeepEqual(got, want) {
		t.Error("old and new records together read other paragraphs than a schema 2 library's")
	}
	if packed, old := records(false); packed == 0 || old == 0 {
		t.Errorf("after adding: %d packed records, %d not; want both", packed, old)
	}
}

// The grams an import puts in the index are gramsOf the paragraphs as the store gives them back:
// what makes it right to leave them out of fp. Checked on prose and on the text normalisation
// changes (traditional characters, look-alikes, full-width, spaced CJK, numbers).
func TestGramsFromStoredTokens(t *testing.T) {
	seg, err := similarity.Default()
	if err != nil {
		t.Fatal(err)
	}
	dir := proseDocs(t, len(prose))
	writeDoc(t, dir, "odd.txt", "Odd", "軟體套件管理器與資料庫的設計與實現", "The pаper was wrіtten in 2024 by ＡＢＣ ｄｅｆ for the ﬁle ﬂow",
		"软 件 包 管 理 器 的 设 计 与 实 现", "Ünïcödé Crème Brûlée and 1500 of 38 papers, ３ more")
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != len(prose)+1 {
		t.Fatalf("%d files: %v", len(entries), err)
	}
	grams := 0
	for _, f := range entries {
		p := prepareFile(context.Background(), filepath.Join(dir, f.Name()), AddOptions{}, seg, nil)
		if p.err != nil || len(p.paras) == 0 || len(p.paras) != len(p.fps) {
			t.Fatalf("%s: %d paragraphs, %d fingerprints: %v", f.Name(), len(p.paras), len(p.fps), p.err)
		}
		for i, para := range p.paras {
			var e encoder
			e.paragraph(para)
			if got := gramsOf(readRecord(t, e.b)); !reflect.DeepEqual(got, p.fps[i].Grams) {
				t.Errorf("%s paragraph %d: grams from the stored tokens %v, the import's %v", f.Name(), i, got, p.fps[i].Grams)
			}
			grams += len(p.fps[i].Grams)
		}
	}
	if grams < 100 {
		t.Errorf("%d grams in all: the test compares too little", grams)
	}
}

// fp values hold SimHashes only, and the index a writable open makes again from them and the stored
// paragraphs (its segment lost) finds the same candidates.
func TestIndexFromStoredGrams(t *testing.T) {
	dir := t.TempDir()
	l := openLib(t, dir, nil)
	src := proseDocs(t, 5)
	var long []string // a document of many paragraphs: an fp value longer than one of few
	for i := 0; i < 40; i++ {
		long = append(long, fmt.Sprintf("%s (%d)", prose[i%len(prose)], i))
	}
	writeDoc(t, src, "long.txt", "Long", long...)
	add(t, l, AddOptions{}, src)
	want := probeAll(t, l)
	f := folderOf(l)
	err := f.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketFP).ForEach(func(k, v []byte) error {
			u, err := f.rec.open(bucketFP, k, v)
			if err != nil {
				return err
			}
			fps, grams, err := decodeFingerprints(u)
			if err != nil || grams || len(u) != len(recordMarker)+1+8*len(fps) {
				return fmt.Errorf("document %x: fp value of %d bytes for %d paragraphs, grams %v: %v", k, len(u), len(fps), grams, err)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if rep, err := Check(dir, nil); err != nil || rep.Damaged() {
		t.Fatalf("check of a new library: %v %+v", err, rep)
	}
	segs := globFiles(t, dir, "seg-*.idx")
	if len(segs) == 0 {
		t.Fatal("no segment")
	}
	for _, s := range segs {
		if err := os.Remove(s); err != nil {
			t.Fatal(err)
		}
	}
	l = openLib(t, dir, nil)
	if got := probeAll(t, l); !reflect.DeepEqual(got, want) {
		t.Error("the index made again: other candidates")
	}
	l.Close()
	if len(globFiles(t, dir, "seg-*.idx")) == 0 {
		t.Error("a writable open wrote no segment")
	}
	ro := openLib(t, dir, &Options{ReadOnly: true})
	defer ro.Close()
	if got := probeAll(t, ro); !reflect.DeepEqual(got, want) {
		t.Error("the index made again, read-only: other candidates")
	}
}

// spanHash is the hash a record leaves out for a token of text[start:end] (rune offsets).
func spanHash(text string, start, end int32) uint32 {
	s := similarity.NewSpanHasher(text)
	h, _ := s.Hash(start, end)
	return h
}

// BenchmarkDecodeParagraph reads the packed records of the test prose, Chinese and English, as a
// check reads its candidates' paragraphs.
func BenchmarkDecodeParagraph(b *testing.B) {
	seg, err := similarity.Default()
	if err != nil {
		b.Fatal(err)
	}
	var records [][]byte
	tokens := 0
	for _, text := range prose {
		p := Paragraph{Text: text, Tokens: storedTokens(seg.Tokens(similarity.Normalize(text)))}
		var e encoder
		e.paragraph(p)
		records = append(records, e.b)
		tokens += len(p.Tokens)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, r := range records {
			d := decoder{b: r}
			if p := d.paragraph(); d.err != nil || len(p.Tokens) == 0 {
				b.Fatal(d.err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tokens), "ns/token")
}
