package library

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// The paragraph store: the documents' paragraphs (text, and the tokens alignment needs, so that a
// check never segments library text again) are records in a file beside library.db, paras-N.dat,
// read with pread. They used to be values in library.db, which bbolt reads through its memory map;
// the kernel maps the 64 KiB of cached file around every page a read touches, and a check of 600
// paragraphs against 100,000 documents held 790-862 MiB of library.db in its resident memory. Read
// with pread, the pages stay in the page cache, which the kernel shares and drops as it needs, and
// a check reads only the paragraph it aligns, not its whole document.
//
// Since format version 3 each document's records follow a frame that describes it (frame.go), and
// removals are framed too. An import appends a batch's frames and records after meta "parasEnd" and
// syncs the file before the transaction that stores their locations (bucket ploc) and the new end
// commits: a committed
// location always points at whole records, and what a killed import wrote after the end is cut off
// by the next writable Open. Removed documents' records stay until they are half of the file; then
// compact copies the rest to paras-(N+1).dat and moves every location to it in one transaction.

var (
	bucketLoc    = []byte("ploc")
	keyParasFile = []byte("parasFile")
	keyParasEnd  = []byte("parasEnd")
	keyParasDead = []byte("parasDead")
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// paraStore is the open paragraph file.
type paraStore struct {
	f    *os.File // nil while a read-only library has none (written by format version 1)
	name string
	end  int64 // meta "parasEnd": records end here; the writer appends here (only it reads end)
	dead int64 // meta "parasDead": bytes of removed documents' records
}

// paraLoc is where a document is in the store: a value of bucket ploc.
//
//	offset, head, count, count × length, count × CRC-32C (uint32 LE) of each record
//
// (unsigned varints unless said otherwise). offset is where the document's frame starts, head the
// frame's length; its paragraph records follow the frame. Format version 2 wrote no frames and no
// head: its offset is the first paragraph's. Each paragraph has its own checksum, so a check reads
// and verifies one paragraph alone.
type paraLoc struct {
	off  int64
	head int64 // 0 in a version 2 store
	lens []uint32
	crcs []uint32
}

func (c paraLoc) encode() []byte {
	var e encoder
	e.uvarint(uint64(c.off))
	e.uvarint(uint64(c.head))
	e.uvarint(uint64(len(c.lens)))
	for _, n := range c.lens {
		e.uvarint(uint64(n))
	}
	for _, s := range c.crcs {
		e.u32(s)
	}
	return e.b
}

// decodeLoc reads a ploc value; framed is false for format version 2, whose values have no head.
func decodeLoc(b []byte, framed bool) (paraLoc, error) {
	d := decoder{b: b}
	c := paraLoc{off: int64(d.uvarint())}
	if framed {
		c.head = int64(d.uvarint())
	}
	n := d.count(5)
	c.lens, c.crcs = make([]uint32, n), make([]uint32, n)
	for i := range c.lens {
		c.lens[i] = uint32(d.uvarint())
	}
	for i := range c.crcs {
		c.crcs[i] = d.u32()
	}
	if d.err != nil || len(d.b) != 0 || c.off < 0 || c.head < 0 || c.off+c.head < 0 {
		return c, errFormat
	}
	return c, nil
}

// span is the byte range of paragraphs [from, to).
func (c paraLoc) span(from, to int) (off, n int64) {
	off = c.off + c.head
	for _, l := range c.lens[:from] {
		off += int64(l)
	}
	for _, l := range c.lens[from:to] {
		n += int64(l)
	}
	return off, n
}

// size is the bytes the document takes in the store, its frame included.
func (c paraLoc) size() int64 {
	_, n := c.span(0, len(c.lens))
	return c.head + n
}

// openParas opens the store meta names, or, when it names none, the one a new library starts with
// (created unless the library is read-only). A writable library cuts off what a killed import
// wrote after the end.
func openParas(dir string, db *bolt.DB, c codec, readOnly bool) (*paraStore, error) {
	s := &paraStore{name: "paras-1.dat"}
	err := guard("library.db", func() error {
		return db.View(func(tx *bolt.Tx) error {
			v, err := c.get(tx, bucketMeta, keyParasFile)
			if err != nil {
				return err
			}
			if v != nil {
				s.name = string(v)
			}
			end, err := c.count(tx, keyParasEnd)
			if err != nil {
				return err
			}
			dead, err := c.count(tx, keyParasDead)
			s.end, s.dead = int64(end), int64(dead)
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	if _, ok := parasGeneration(s.name); !ok || s.end < 0 || s.dead < 0 {
		return nil, fmt.Errorf("paragraph store %q: %w", s.name, errFormat)
	}
	path := filepath.Join(dir, s.name)
	if readOnly {
		s.f, err = os.Open(path)
		if errors.Is(err, fs.ErrNotExist) && s.end == 0 {
			return s, nil // nothing stored there yet
		}
	} else {
		s.f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	}
	if err != nil {
		return nil, fmt.Errorf("paragraph store: %w (%w)", err, ErrDamaged)
	}
	st, err := s.f.Stat()
	if err != nil {
		s.f.Close()
		return nil, err
	}
	switch {
	case st.Size() < s.end:
		s.f.Close()
		return nil, fmt.Errorf("%s: %d bytes where the library has %d: the file was cut short or replaced: %w", s.name, st.Size(), s.end, ErrDamaged)
	case st.Size() > s.end && !readOnly:
		if err := s.f.Truncate(s.end); err != nil {
			s.f.Close()
			return nil, err
		}
	}
	return s, nil
}

// parasGeneration is the N of a store file named paras-N.dat.
func parasGeneration(name string) (int, bool) {
	n, ok := strings.CutPrefix(name, "paras-")
	if !ok {
		return 0, false
	}
	n, ok = strings.CutSuffix(n, ".dat")
	g, err := strconv.Atoi(n)
	return g, ok && err == nil && g > 0
}

func (s *paraStore) close() error {
	if s == nil || s.f == nil {
		return nil
	}
	return s.f.Close()
}

// storeDoc is a document to append to the store: its id, its record (JSON) and its paragraphs.
type storeDoc struct {
	id    uint64
	rec   []byte
	paras []Paragraph
}

// appendDocs writes the documents, each a frame then its paragraph records, at the end and syncs
// them. The locations become the library's when a transaction stores them with the new end
// (putMeta); until then the bytes are nothing, and the next append writes over them.
func (s *paraStore) appendDocs(docs []storeDoc) ([]paraLoc, int64, error) {
	out, locs := encodeDocs(docs, s.end)
	end, err := s.appendRaw(out)
	return locs, end, err
}

// encodeDocs writes the documents, each a frame then its paragraph records, to be stored at offset
// base of the store.
func encodeDocs(docs []storeDoc, base int64) ([]byte, []paraLoc) {
	size := 0
	for _, d := range docs {
		size += len(d.rec) + 64
		for _, p := range d.paras {
			size += len(p.Text) + len(p.Section) + len(p.Chapter) + 32 + 9*len(p.Tokens)
		}
	}
	out := make([]byte, 0, size) // a little more than the records take: no regrowth
	var e encoder
	locs := make([]paraLoc, len(docs))
	for i, d := range docs {
		e.b = e.b[:0]
		lens, crcs := make([]uint32, len(d.paras)), make([]uint32, len(d.paras))
		for j, p := range d.paras {
			start := len(e.b)
			e.paragraph(p)
			lens[j] = uint32(len(e.b) - start)
			crcs[j] = crc32.Checksum(e.b[start:], crcTable)
		}
		fr := docFrame(d.id, d.rec, lens, crcs)
		locs[i] = paraLoc{off: base + int64(len(out)), head: int64(len(fr)), lens: lens, crcs: crcs}
		out = append(append(out, fr...), e.b...)
	}
	return out, locs
}

// appendRaw writes b at the end and syncs it; it returns the end after b.
func (s *paraStore) appendRaw(b []byte) (int64, error) {
	if _, err := s.f.WriteAt(b, s.end); err != nil {
		return 0, fmt.Errorf("%s: %w", s.name, err)
	}
	if err := s.f.Sync(); err != nil {
		return 0, fmt.Errorf("%s: %w", s.name, err)
	}
	return s.end + int64(len(b)), nil
}

// putMeta records the store's name, end and removed bytes in tx.
func (s *paraStore) putMeta(tx *bolt.Tx, c codec, end, dead int64) error {
	return errors.Join(c.put(tx, bucketMeta, keyParasFile, []byte(s.name)),
		c.putCount(tx, keyParasEnd, uint64(end)), c.putCount(tx, keyParasDead, uint64(dead)))
}

// read returns paragraphs [from, to) of the document at c, each checked against its checksum.
func (s *paraStore) read(c paraLoc, from, to int) ([]Paragraph, error) {
	if s.f == nil {
		return nil, fmt.Errorf("%s: %w", s.name, fs.ErrNotExist)
	}
	// No check against s.end, which the writer moves: a location past the file's end fails to read,
	// and bytes after the committed end (a killed import's, in a read-only library) fail their checksum.
	off, n := c.span(from, to)
	buf := make([]byte, n)
	if _, err := s.f.ReadAt(buf, off); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("%s: %w (%w)", s.name, err, ErrDamaged)
	}
	ps := make([]Paragraph, 0, to-from)
	for i := from; i < to; i++ {
		b := buf[:c.lens[i]]
		buf = buf[c.lens[i]:]
		if crc32.Checksum(b, crcTable) != c.crcs[i] {
			return nil, fmt.Errorf("%s: paragraph %d at byte %d: %w", s.name, i, off, errChecksum)
		}
		d := decoder{b: b}
		p := d.paragraph()
		if d.err != nil || len(d.b) != 0 {
			return nil, fmt.Errorf("%s: %w", s.name, errFormat)
		}
		ps = append(ps, p)
		off += int64(len(b))
	}
	return ps, nil
}

// verify reads a document's paragraph records and checks their checksums, without decoding them.
func (s *paraStore) verify(c paraLoc) error {
	off, n := c.span(0, len(c.lens))
	buf := make([]byte, min(n, 1<<20))
	for i := 0; i < len(c.lens); {
		// As many whole records as the buffer holds (one, however long, when it holds none).
		k, size := i, int64(0)
		for ; k < len(c.lens) && (k == i || size+int64(c.lens[k]) <= int64(len(buf))); k++ {
			size += int64(c.lens[k])
		}
		if size > int64(len(buf)) {
			buf = make([]byte, size)
		}
		if _, err := s.f.ReadAt(buf[:size], off); err != nil {
			return fmt.Errorf("%s: %w (%w)", s.name, err, ErrDamaged)
		}
		b := buf[:size]
		for j := i; j < k; j++ {
			if crc32.Checksum(b[:c.lens[j]], crcTable) != c.crcs[j] {
				return fmt.Errorf("%s: paragraph %d at byte %d: %w", s.name, j, off, errChecksum)
			}
			off += int64(c.lens[j])
			b = b[c.lens[j]:]
		}
		i = k
	}
	return nil
}

// oldRecords reports whether the document at c has paragraph records of format version 3 or
// before (those of one document are written together, in one form): its first one does not start
// with recordMarker.
func (s *paraStore) oldRecords(c paraLoc) (bool, error) {
	if len(c.lens) == 0 {
		return false, nil
	}
	var b [len(recordMarker)]byte
	off, _ := c.span(0, 1)
	if c.lens[0] < uint32(len(b)) {
		return true, nil
	}
	if _, err := s.f.ReadAt(b[:], off); err != nil {
		return false, fmt.Errorf("%s: %w (%w)", s.name, err, ErrDamaged)
	}
	return string(b[:]) != recordMarker, nil
}

// storedParas reads paragraphs [from, to) of document key (to < 0: to its last) in tx: from the
// store, or from bucket paras for a document format version 1 wrote.
func storedParas(tx *bolt.Tx, c codec, s *paraStore, key []byte, from, to int) ([]Paragraph, error) {
	v, err := c.get(tx, bucketLoc, key)
	if err != nil {
		return nil, err
	}
	if v != nil {
		loc, err := decodeLoc(v, c.sealed)
		if err != nil {
			return nil, fmt.Errorf("ploc value: %w", err)
		}
		if from, to, err = paraRange(from, to, len(loc.lens)); err != nil {
			return nil, err
		}
		return s.read(loc, from, to)
	}
	if b := tx.Bucket(bucketParas); b != nil {
		if v := b.Get(key); v != nil {
			ps, err := decodeParas(v)
			if err != nil {
				return nil, err
			}
			if from, to, err = paraRange(from, to, len(ps)); err != nil {
				return nil, err
			}
			return ps[from:to], nil
		}
	}
	return nil, errNoDocument
}

// paraRange checks paragraphs [from, to) of a document of n (to < 0: to its last).
func paraRange(from, to, n int) (int, int, error) {
	if to < 0 {
		to = n
	}
	if from < 0 || from > to || to > n {
		return 0, 0, errNoParagraph
	}
	return from, to, nil
}

var (
	// errNoDocument is a document that no record places: not one of the library's, or, when the
	// library says it is, damage.
	errNoDocument  = errors.New("no such document")
	errNoParagraph = errors.New("no such paragraph")
)

// compactParas rewrites the store without removed documents' records once they are half of it, or,
// when all is set (`library compact`: the user asks for the room back), once there are any. The
// live records go to the next file, which is synced before one transaction moves every location
// and meta to it; the old file is deleted after. A crash before the commit leaves the new file as
// a stray, which the next writable Open deletes. A document's records of format version 3 are
// packed as they are copied (and framed anew), so an old library shrinks at its first compaction.
// writeMu is held.
func (l *folder) compactParas(all bool) error {
	s := l.paras
	if s.f == nil || s.dead == 0 || !all && (s.end < l.compactMin || s.dead*2 < s.end) {
		return nil
	}
	g, _ := parasGeneration(s.name)
	next := &paraStore{name: fmt.Sprintf("paras-%d.dat", g+1)}
	f, err := os.OpenFile(filepath.Join(l.dir, next.name), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	next.f = f
	fail := func(err error) error {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("compact %s: %w", s.name, err)
	}
	var keys [][]byte
	var locs []paraLoc
	err = l.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketLoc).ForEach(func(k, v []byte) error {
			v, err := l.rec.open(bucketLoc, k, v)
			if err != nil {
				return fmt.Errorf("document %d: %w", binary.BigEndian.Uint64(k), err)
			}
			c, err := decodeLoc(v, true)
			if err != nil {
				return fmt.Errorf("document %d: %w", binary.BigEndian.Uint64(k), err)
			}
			// The frame and records are checked as they are copied: damage is not carried into a
			// new file, nor a damaged frame kept (library repair writes it again).
			fr, ok := readFrame(s.f, c.off, s.end)
			if !ok || fr.head != c.head || fr.id != binary.BigEndian.Uint64(k) {
				return fmt.Errorf("document %d: its frame: %w", binary.BigEndian.Uint64(k), errChecksum)
			}
			if err := s.verify(c); err != nil {
				return fmt.Errorf("document %d: %w", binary.BigEndian.Uint64(k), err)
			}
			old, err := s.oldRecords(c)
			if err != nil {
				return fmt.Errorf("document %d: %w", binary.BigEndian.Uint64(k), err)
			}
			if old {
				// Written by format version 3: its records are packed as they are copied, in a new frame.
				ps, err := s.read(c, 0, len(c.lens))
				if err != nil {
					return fmt.Errorf("document %d: %w", binary.BigEndian.Uint64(k), err)
				}
				b, packed := encodeDocs([]storeDoc{{id: fr.id, rec: fr.rec, paras: ps}}, next.end)
				if _, err := f.WriteAt(b, next.end); err != nil {
					return err
				}
				next.end += int64(len(b))
				keys, locs = append(keys, append([]byte(nil), k...)), append(locs, packed[0])
				return nil
			}
			n := c.size()
			if _, err := io.Copy(io.NewOffsetWriter(f, next.end), io.NewSectionReader(s.f, c.off, n)); err != nil {
				return err
			}
			c.off = next.end
			next.end += n
			keys, locs = append(keys, append([]byte(nil), k...)), append(locs, c)
			return nil
		})
	})
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return fail(err)
	}
	l.storeMu.Lock()
	err = l.update(func(tx *bolt.Tx) error {
		for i, k := range keys {
			if err := l.rec.put(tx, bucketLoc, k, locs[i].encode()); err != nil {
				return err
			}
		}
		return next.putMeta(tx, l.rec, next.end, 0)
	})
	if err != nil {
		l.storeMu.Unlock()
		return fail(err)
	}
	l.paras = next
	l.storeMu.Unlock()
	s.close()
	return os.Remove(filepath.Join(l.dir, s.name))
}
