package library

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"os"
	"runtime/debug"

	bolt "go.etcd.io/bbolt"
)

// Damage. bbolt checksums only its two meta pages: a flipped byte in a value, or a page cut off by a
// full disk, used to be read as it came (a source vanished from a check, silently), and a damaged
// page made bbolt panic. So, from format version 3, every value carries a CRC-32C of its key and
// itself (seal), as a LevelDB block carries one; every transaction runs under guard, which turns a
// panic or a memory fault into ErrDamaged; and the index segments carry a checksum per page
// (segment.go). A read that fails any of them is an error wrapping ErrDamaged, naming what failed.

// ErrDamaged means a file of the library failed a checksum or could not be read as the format says.
// The error wrapping it names the library and the damaged document or file.
var ErrDamaged = errors.New("the library is damaged (see 'thesischeck library check' and 'thesischeck library repair')")

var errChecksum = fmt.Errorf("checksum mismatch: %w", ErrDamaged)

// seal returns v with the CRC-32C of key and v appended (4 bytes, little-endian). The key is in the
// sum so that a value that turns up under another key fails too.
func seal(key, v []byte) []byte {
	sum := crc32.Update(crc32.Checksum(key, crcTable), crcTable, v)
	return binary.LittleEndian.AppendUint32(v[:len(v):len(v)], sum)
}

// unseal checks a sealed value and returns it without its checksum.
func unseal(key, v []byte) ([]byte, error) {
	if len(v) < 4 {
		return nil, errChecksum
	}
	b := v[:len(v)-4]
	if crc32.Update(crc32.Checksum(key, crcTable), crcTable, b) != binary.LittleEndian.Uint32(v[len(v)-4:]) {
		return nil, errChecksum
	}
	return b, nil
}

// codec reads and writes the values of library.db: sealed from format version 3 on, as they are in
// a version 2 library opened read-only (which carries no checksums).
type codec struct{ sealed bool }

// get returns the value of key in bucket, checked; nil without error when there is none.
func (c codec) get(tx *bolt.Tx, bucket, key []byte) ([]byte, error) {
	b := tx.Bucket(bucket)
	if b == nil {
		return nil, nil
	}
	v := b.Get(key)
	if v == nil || !c.sealed {
		return v, nil
	}
	v, err := unseal(key, v)
	if err != nil {
		return nil, fmt.Errorf("%s value: %w", bucket, err)
	}
	return v, nil
}

// open checks a value read by a cursor.
func (c codec) open(bucket, key, v []byte) ([]byte, error) {
	if !c.sealed {
		return v, nil
	}
	v, err := unseal(key, v)
	if err != nil {
		return nil, fmt.Errorf("%s value: %w", bucket, err)
	}
	return v, nil
}

func (c codec) put(tx *bolt.Tx, bucket, key, v []byte) error {
	if c.sealed {
		v = seal(key, v)
	}
	return tx.Bucket(bucket).Put(key, v)
}

// guard runs f, turning a panic or a memory fault (a page of a mapped file that is no longer there)
// into an error wrapping ErrDamaged: bbolt asserts its pages' structure with panics, whose text
// ("runtime error: slice bounds out of range", "assertion failed: Page expected to be") says
// nothing to a user without the words before it.
func guard(what string, f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: its pages do not hold together (%v): %w", what, r, ErrDamaged)
		}
	}()
	return f()
}

// view and update are db.View and db.Update under guard.
func (l *folder) view(f func(tx *bolt.Tx) error) error {
	return guard("library.db", func() error { return l.db.View(f) })
}

func (l *folder) update(f func(tx *bolt.Tx) error) error {
	return guard("library.db", func() error { return l.db.Update(f) })
}

// count reads a meta value that is an unsigned varint (0 when there is none).
func (c codec) count(tx *bolt.Tx, key []byte) (uint64, error) {
	v, err := c.get(tx, bucketMeta, key)
	if err != nil || v == nil {
		return 0, err
	}
	n, k := binary.Uvarint(v)
	if k != len(v) {
		return 0, fmt.Errorf("meta %s: %w", key, errFormat)
	}
	return n, nil
}

func (c codec) putCount(tx *bolt.Tx, key []byte, n uint64) error {
	return c.put(tx, bucketMeta, key, binary.AppendUvarint(nil, n))
}

// next reads meta "next", the id the next document gets.
func (c codec) next(tx *bolt.Tx) (uint64, error) {
	v, err := c.get(tx, bucketMeta, keyNext)
	switch {
	case err != nil:
		return 0, err
	case v == nil:
		return 1, nil
	case len(v) != 8:
		return 0, fmt.Errorf("meta next: %w", errFormat)
	}
	return binary.BigEndian.Uint64(v), nil
}

// checkDBSize refuses a library.db shorter than its pages: bbolt maps the file and reads any page
// its meta page counts, and a page past the end of the file is a memory fault, not an error. The
// meta pages (two, at the start, each with a checksum) are read as bbolt lays them out: a 16-byte
// page header, then magic, version, page size, flags (uint32), root bucket (16 bytes), freelist,
// page count, transaction id and the FNV-64a of what precedes it (uint64).
func checkDBSize(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // bbolt creates it or says why not
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	var best struct{ txid, need uint64 }
	found := false
	for _, off := range []int64{0, -1} {
		var b [16 + 64]byte
		if off < 0 { // the second meta page is one page in: its size is in the first's
			var first [16 + 64]byte
			if _, err := f.ReadAt(first[:], 0); err != nil {
				break
			}
			off = int64(binary.LittleEndian.Uint32(first[16+8:]))
			if off < 512 || off > 1<<16 {
				off = 4096
			}
		}
		if _, err := f.ReadAt(b[:], off); err != nil {
			continue
		}
		m := b[16:]
		h := fnv.New64a()
		h.Write(m[:56])
		if binary.LittleEndian.Uint32(m) != 0xED0CDAED || h.Sum64() != binary.LittleEndian.Uint64(m[56:]) {
			continue
		}
		txid, need := binary.LittleEndian.Uint64(m[48:]), binary.LittleEndian.Uint64(m[40:])*uint64(binary.LittleEndian.Uint32(m[8:]))
		if !found || txid > best.txid {
			best.txid, best.need, found = txid, need, true
		}
	}
	if found && uint64(st.Size()) < best.need {
		return fmt.Errorf("library.db: %d bytes where its pages take %d: the file was cut short: %w", st.Size(), best.need, ErrDamaged)
	}
	return nil
}
