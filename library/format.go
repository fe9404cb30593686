package library

// On-disk format
//
// A library is one folder holding library.db, a bbolt database (a single file, copy-on-write B+tree,
// fsync on every commit, so a killed process leaves the last committed state), the paragraph store
// paras-N.dat (see paras.go), and index segments, files named seg-FIRST-LAST.idx (the hex ids of the
// first and last document they cover; `library compact` rewriting a segment alone names the new one
// seg-FIRST-LAST.c.idx).
//
// Format version 4 writes paragraph records with packed tokens and fp values without grams (below);
// records and values of version 3 read as they are, and compaction packs old records as it copies
// them. On 10,000 scripts/benchgen documents (30 paragraphs, 14 KB of text each) version 3 took
// 49,016 bytes a document (paragraph store 32,391, library.db 8,420, index 8,206), version 4
// takes 31,542 (18,264, 5,072, 8,206). Format version 3 (seal.go): every value of library.db but the df counts ends with the CRC-32C
// (uint32 LE) of its key and itself, and "version" is sealed too; versions 1 and 2 wrote plain
// values, read as they are by a read-only Open and upgraded by a writable one (repair.go).
//
// library.db buckets:
//
//	meta   "version" → "4"; "next" → uint64 big-endian, the next document id;
//	       "segments" → JSON [{"name": file, "last": largest document id covered}], oldest first;
//	       "parasFile" → the paragraph store's file name, "parasEnd" → where its records end,
//	       "parasDead" → bytes of removed documents' records in it; "docs", "templates" → how many
//	       documents the library holds, of which templates (uvarints); "analyser" → the
//	       similarity.AnalyserVersion that made the documents' tokens and fingerprints
//	docs   id (uint64 BE) → docRecord: JSON of DocInfo plus sha256 and the MinHash signature
//	sha    sha256 of the file content (hex) → id; the same content is never added twice
//	ploc   id → where the document is in the paragraph store (paraLoc)
//	theses id → empty, for the documents that are theses; meta "kinds" → "1" once every document's
//	       kind is recorded (see kinds.go)
//	paras  id → the document's paragraphs, in libraries version 1 wrote (read, never written now)
//	fp     id → the fingerprints the index is built from
//	df     word hash (uint32 BE) → paragraphs holding the word (uvarint, not sealed); meta "dfparas"
//	       → paragraphs counted, "dfupto" → the last document id counted, "dfsum" → the sum of the
//	       CRC-32C of every df entry (uvarints). Derived data like the index: written before each
//	       segment and by removals; Open counts later documents again (idf.go).
//
// The paragraph store holds, for each document, a frame (its record, and the length and checksum
// of each paragraph; frame.go) and then its paragraph records; a removal appends a frame naming
// the documents removed. library.db can be rebuilt from it alone.
//
// A document is written in one transaction (docs, sha, ploc, fp and theses together), after its paragraphs
// are in the store and synced: it is in the library whole or not at all. An import commits a batch
// of documents at a time; a killed import loses at most the batch in flight, and running it again
// adds exactly what is missing (the sha bucket says what is there).
//
// The index is derived data: the segments plus, in memory, the documents after the last segment's
// "last" id, indexed from fp at Open. An import writes its documents as a segment every 2,048
// documents and when it ends; a segment file is written under a temporary name, synced and renamed
// before the manifest names it, and a merge deletes its inputs only after the manifest names its
// output. So a crash at any point leaves a manifest naming whole files; files it does not name are
// deleted by the next writable Open, and documents it does not cover are indexed again. A segment
// that is missing or fails its checks makes Open rebuild the index from fp. Removed documents are
// dropped from docs (and ploc, fp, sha); their index entries stay and are skipped.
//
// A paragraph record (in the store; a version 1 paras value is count, then count records), all
// integers unsigned varints unless said otherwise. Version 4 writes
//
//	0x80 0x00 (recordMarker), len(text) text, len(section) section, len(chapter) chapter, page,
//	flags (1 = heading), ntokens, ntokens × token (1 byte, or more in the long form: see tokLong)
//
// and versions 1-3 wrote, as version 4 still reads,
//
//	len(text) text, len(section) section, len(chapter) chapter, page, flags (1 = heading),
//	ntokens, ntokens × { hash (uint32 LE), start delta from previous end, length, flags (byte: 1 stop word, 2 number) }
//
// fp value, since format version 4 (SimHashes only):
//
//	0x80 0x00 (recordMarker), count, count × simhash (uint64 LE)
//
// The winnowed grams the index is built from are gramsOf the paragraphs' stored tokens, which the
// readers that need them (loadDocs: documents after the last segment at Open) read from the
// paragraph store; the SimHashes are kept, since they weigh the words by the library's counts at
// the time of the import, which change. Versions 1-3 wrote, as version 4 still reads, and Redis's
// f:{ID} holds,
//
//	count
//	count × { simhash (uint64 LE), ngrams, ngrams × gram (uint32 LE, sorted) }
//
// Segment file (little-endian; each section padded to 8 bytes, so the file is used in place through
// a read-only memory map, without parsing). Paragraphs and documents are numbered from 0 within the
// segment, in the order the documents were added:
//
//	header      "TCIDX003", docs, paras, grams, postings, nsim (uint32 each), zeros to 64 bytes
//	docIDs      docs × uint64          document ids, increasing
//	sims        paras × uint64         SimHash of each paragraph
//	bandKeys    docs×64 × uint64       MinHash LSH band keys, sorted (bandDocs says whose)
//	docFirst    (docs+1) × uint32      first paragraph of each document; docFirst[docs] = paras
//	paraDoc     paras × uint32         document of each paragraph
//	sigs        docs×128 × uint32      MinHash signatures
//	bandDocs    docs×64 × uint32       document of each band key
//	gramPrefix  65537 × uint32         first gram key whose top 16 bits are ≥ i (ends with grams)
//	gramKeys    grams × uint32         winnowed gram hashes, sorted
//	gramOff     (grams+1) × uint32     postings of gramKeys[i] are postings[gramOff[i]:gramOff[i+1]]
//	postings    postings × uint32      paragraphs, increasing within a gram
//	blockOff    4 × 65537 × uint32     per SimHash block b and 16-bit value v, the range of blockParas
//	blockParas  4 × nsim × uint32      paragraphs (with a non-zero SimHash) by block value
//	blocks      ⌈size/1024⌉ × uint32   CRC-32C of each 1 KiB block of what precedes (segcheck.go)
//	            uint32                 CRC-32C of the table
//
// Versions 3 and 4 wrote "TCIDX002", with a CRC-32C of each 4 KiB page; version 2 "TCIDX001"
// without the table. Open checks the header against the file size, the table, and the small
// position arrays with their blocks; gram offsets are checked where they are read, every other
// block the first time it is read. Segments are merged two at a time (see flush), so a library of
// n documents has O(log n) of them.

import (
	"encoding/binary"
	"errors"
	"fmt"

	"thesischeck/similarity"
)

// Paragraph is a stored paragraph of a library document.
type Paragraph struct {
	Text    string
	Section string
	Chapter string
	Page    int
	Heading bool
	Tokens  []similarity.Token
}

// fingerprint is what the index needs of a paragraph.
type fingerprint struct {
	SimHash uint64
	Grams   []uint32 // winnowed, sorted
}

var errFormat = errors.New("library: damaged record")

type encoder struct {
	b []byte
}

func (e *encoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) str(s string)     { e.uvarint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) u32(v uint32)     { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *encoder) u64(v uint64)     { e.b = binary.LittleEndian.AppendUint64(e.b, v) }

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errFormat
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes(n uint64) []byte {
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errFormat
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string { return string(d.bytes(d.uvarint())) }
func (d *decoder) u32() uint32 {
	if b := d.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}
func (d *decoder) u64() uint64 {
	if b := d.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// count reads a length and checks it against what is left, so a damaged record cannot make a
// decoder allocate gigabytes.
func (d *decoder) count(minSize int) int {
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.b)/max(minSize, 1)+1) {
		d.err = errFormat
	}
	if d.err != nil {
		return 0 // callers make slices of this size before they look at the error
	}
	return int(n)
}

// A paragraph record since format version 4 starts with recordMarker: the two bytes 0x80 0x00, a
// uvarint of 0 written in two bytes. binary.Uvarint reads them as 0 (it accepts the padded form),
// but binary.AppendUvarint never writes them (a last byte of 0 is never written after the first),
// so no record of an older version starts with them, and one that does not is read as before. An
// older binary never meets a new record: it refuses format version 4 (readVersion) and Redis schema
// 2 (checkMeta).
const recordMarker = "\x80\x00"

// A token of a version 4 record is one byte when it fits:
//
//	short form  kind<<6 | delta<<4 | (length-1)   kind 0 word, 1 stop word, 2 number (a stop word
//	                                              too); start delta from previous end 0-3, length 1-16
//	long form   0xC0 | flags, delta, length [, hash (uint32 LE)]   flags 1 stop word, 2 number,
//	                                              4 hash follows; delta and length uvarints of their
//	                                              int32 bits
//
// The hash is left out when it is that of the token's span of the text (similarity.SpanHasher),
// and the reader computes it: so it is for all but 0.07 % of the tokens of generated Chinese and
// English documents (the rest take the long form). Measured on 4.7 million tokens of scripts/benchgen's
// documents: start delta 0 25 %, 1 65 %, 2 7.9 %, 3 1.2 %; length ≤ 8 92.5 %, ≤ 16 99.97 %; so
// 99.2 % of tokens take one byte (1.02 bytes a token, where versions 1-3 wrote 7). A hash bit in
// the short form would have cost it a bit of delta, and 10 % of tokens a long form. The cost is the
// span hash of every token: a record of those paragraphs (79 tokens) takes 4.6 µs to write instead
// of 1.1 µs, and 6.7 µs to read instead of 3.9 µs (2-3 % of an import's CPU).
const (
	tokLong      = 0xC0
	tokStop      = 1
	tokNum       = 2
	tokHash      = 4
	maxShortGap  = 3
	maxShortRune = 16
)

// paragraph appends one paragraph's record.
func (e *encoder) paragraph(p Paragraph) {
	e.b = append(e.b, recordMarker...)
	e.paragraphHead(p)
	spans := similarity.NewSpanHasher(p.Text)
	prev := int32(0)
	for _, t := range p.Tokens {
		delta, n := t.Start-prev, t.End-t.Start
		h, ok := spans.Hash(t.Start, t.End)
		explicit := !ok || h != t.Hash
		kind := -1
		switch {
		case !t.Stop && !t.Num:
			kind = 0
		case t.Stop && !t.Num:
			kind = 1
		case t.Stop && t.Num:
			kind = 2
		}
		if !explicit && kind >= 0 && delta >= 0 && delta <= maxShortGap && n >= 1 && n <= maxShortRune {
			e.b = append(e.b, byte(kind<<6|int(delta)<<4|int(n-1)))
		} else {
			f := byte(tokLong)
			if t.Stop {
				f |= tokStop
			}
			if t.Num {
				f |= tokNum
			}
			if explicit {
				f |= tokHash
			}
			e.b = append(e.b, f)
			e.uvarint(uint64(uint32(delta)))
			e.uvarint(uint64(uint32(n)))
			if explicit {
				e.u32(t.Hash)
			}
		}
		prev = t.End
	}
}

// paragraphHead appends what precedes a record's tokens, their count last.
func (e *encoder) paragraphHead(p Paragraph) {
	e.str(p.Text)
	e.str(p.Section)
	e.str(p.Chapter)
	e.uvarint(uint64(p.Page))
	var flags uint64
	if p.Heading {
		flags |= 1
	}
	e.uvarint(flags)
	e.uvarint(uint64(len(p.Tokens)))
}

// paragraph reads a record of any version.
func (d *decoder) paragraph() Paragraph {
	packed := len(d.b) >= len(recordMarker) && string(d.b[:len(recordMarker)]) == recordMarker
	if packed {
		d.b = d.b[len(recordMarker):]
	}
	p := Paragraph{Text: d.str(), Section: d.str(), Chapter: d.str(), Page: int(d.uvarint())}
	p.Heading = d.uvarint()&1 != 0
	if packed {
		p.Tokens = d.packedTokens(p.Text)
		return p
	}
	nt := d.count(7)
	p.Tokens = make([]similarity.Token, 0, nt)
	prev := int32(0)
	for j := 0; j < nt && d.err == nil; j++ {
		t := similarity.Token{Hash: d.u32()}
		t.Start = prev + int32(d.uvarint())
		t.End = t.Start + int32(d.uvarint())
		if s := d.bytes(1); s != nil {
			t.Stop, t.Num = s[0]&1 != 0, s[0]&2 != 0
		}
		prev = t.End
		p.Tokens = append(p.Tokens, t)
	}
	return p
}

// packedTokens reads the tokens of a version 4 record of text. The record is walked in a local
// slice, d.b set again only around the long form's varints: the decoder a store reads with lives on
// the heap, and moving d.b at every token's byte cost a write barrier each while the collector ran.
func (d *decoder) packedTokens(text string) []similarity.Token {
	nt := d.count(1)
	toks := make([]similarity.Token, 0, nt)
	spans := similarity.NewSpanHasher(text)
	prev := int32(0)
	b := d.b
	for len(toks) < nt && d.err == nil {
		if len(b) == 0 {
			d.err = errFormat
			break
		}
		f := b[0]
		b = b[1:]
		var t similarity.Token
		explicit := false
		if f&tokLong != tokLong {
			kind := f >> 6
			t.Stop, t.Num = kind >= 1, kind == 2
			t.Start = prev + int32(f>>4&3)
			t.End = t.Start + int32(f&15) + 1
		} else {
			if f&^(tokLong|tokStop|tokNum|tokHash) != 0 {
				d.err = errFormat
				break
			}
			t.Stop, t.Num, explicit = f&tokStop != 0, f&tokNum != 0, f&tokHash != 0
			d.b = b
			delta, n := d.uvarint(), d.uvarint()
			if delta > 0xFFFFFFFF || n > 0xFFFFFFFF {
				d.err = errFormat
				break
			}
			t.Start = prev + int32(uint32(delta))
			t.End = t.Start + int32(uint32(n))
			if explicit {
				t.Hash = d.u32()
			}
			b = d.b
		}
		if !explicit {
			h, ok := spans.Hash(t.Start, t.End)
			if !ok {
				d.err = errFormat
				break
			}
			t.Hash = h
		}
		prev = t.End
		toks = append(toks, t)
	}
	if d.err == nil {
		d.b = b
	}
	return toks
}

// decodeParas reads a paras value, written by format version 1.
func decodeParas(b []byte) ([]Paragraph, error) {
	d := decoder{b: b}
	n := d.count(6)
	ps := make([]Paragraph, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		ps = append(ps, d.paragraph())
	}
	if d.err != nil {
		return nil, d.err
	}
	return ps, nil
}

// encodeFingerprints writes an fp value with the grams (versions 1-3 and Redis's f:{ID}).
func encodeFingerprints(fs []fingerprint) []byte {
	var e encoder
	e.uvarint(uint64(len(fs)))
	for _, f := range fs {
		e.u64(f.SimHash)
		e.uvarint(uint64(len(f.Grams)))
		for _, g := range f.Grams {
			e.u32(g)
		}
	}
	return e.b
}

// encodeSimHashes writes an fp value without the grams (format version 4's).
func encodeSimHashes(fs []fingerprint) []byte {
	e := encoder{b: make([]byte, 0, len(recordMarker)+binary.MaxVarintLen64+8*len(fs))}
	e.b = append(e.b, recordMarker...)
	e.uvarint(uint64(len(fs)))
	for _, f := range fs {
		e.u64(f.SimHash)
	}
	return e.b
}

// decodeFingerprints reads an fp value of either form; grams is false for one of SimHashes only,
// whose fingerprints have no Grams.
func decodeFingerprints(b []byte) (fs []fingerprint, grams bool, err error) {
	grams = len(b) < len(recordMarker) || string(b[:len(recordMarker)]) != recordMarker
	if !grams {
		b = b[len(recordMarker):]
	}
	d := decoder{b: b}
	n := d.count(8) // a SimHash, and with grams their count
	fs = make([]fingerprint, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		f := fingerprint{SimHash: d.u64()}
		if grams {
			ng := d.count(4)
			f.Grams = make([]uint32, 0, ng)
			for j := 0; j < ng && d.err == nil; j++ {
				f.Grams = append(f.Grams, d.u32())
			}
		}
		fs = append(fs, f)
	}
	if d.err == nil && len(d.b) != 0 && !grams {
		d.err = errFormat
	}
	if d.err != nil {
		return nil, false, fmt.Errorf("fingerprints: %w", d.err)
	}
	return fs, grams, nil
}

// gramsOf is the winnowed grams of a stored paragraph: those the import put in its fingerprint
// (TestGramsFromStoredTokens), since similarity.Grams reads only the tokens' Hash and Stop, which
// the record keeps.
func gramsOf(p Paragraph) []uint32 {
	return similarity.Winnow(similarity.Grams(p.Tokens), winnowWindow)
}
