package library

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"sync/atomic"
	"unsafe"
)

// Segment checksums: after the sections, a CRC-32C of every block of the file before them (uint32
// LE each), then the CRC-32C of that table. Segments "TCIDX003" (format version 5) checksum blocks
// of 1 KiB, "TCIDX002" (versions 3 and 4) pages of 4 KiB. A block is checked the first time a
// read touches it, so a check pays for the blocks it reads already and never reads a block for the
// sake of its checksum; Open checks the header and the document arrays whole (they say which
// documents the segment holds), the first boilerplate test the gram offsets whole (it reads them
// all for the segment's frequent grams, frequent.go), a merge checks its inputs whole before their
// postings go into a file with new checksums, and `library check` checks every block.
//
// Measured on a library of 10,000 documents (one 82 MB segment, 20,015 pages of 4 KiB): Open
// 2.8-4.6 ms with the checks, 2.8 ms without; the candidates of a 600-paragraph submission touched
// 16,039 pages, and took 67-71 ms with their first checks against 52-57 ms without (later checks
// in the same process find the pages checked). Much of what a check reads is a few bytes here and
// there (a gram's offsets, the few postings of a rare gram), each costing a whole block: the
// 313-page thesis's check against 100,000 documents checked 109,122 pages of 4 KiB, 447 MB of the
// 686 MB segment, 0.08 s of its time (`thesischeck check` 1.15 s, 1.07 s without the checks;
// eight alternated runs). With blocks of 512 bytes and 2 KiB the check took 1.085 and 1.07 s where
// pages of 4 KiB took 1.125 s (medians of ten alternated runs), with blocks of 1 KiB 1.14 s against
// 1.17 s (ten more, at a slower hour); checked in the same process after the file was read, 0.861
// (512), 0.851 (1 KiB) and 0.858 s (2 KiB) against 0.875 s (six). A table of 1 KiB blocks takes
// 0.4 % of the segment. Segments "TCIDX001" (format version 2) have no table and are
// read unchecked.

const (
	segBlock      = 1024 // the checksummed block of a segment written now
	segPageBlock  = 4096 // of a segment "TCIDX002"
	segMagicPages = "TCIDX002"
	segMagicOld   = "TCIDX001"
)

// blockCheck checks a mapped segment's blocks against its table.
type blockCheck struct {
	data  []byte // the blocks the table covers
	table []byte // one CRC-32C per block (uint32 LE)
	block int    // bytes
	done  []atomic.Uint64
	err   atomic.Pointer[error]
}

func newBlockCheck(data, table []byte, block int) *blockCheck {
	blocks := (len(data) + block - 1) / block
	return &blockCheck{data: data, table: table, block: block, done: make([]atomic.Uint64, (blocks+63)/64)}
}

// check verifies block i against the table, once.
func (c *blockCheck) check(i int) bool {
	w, bit := &c.done[i/64], uint64(1)<<(i%64)
	if w.Load()&bit != 0 {
		return true
	}
	p := c.data[i*c.block : min((i+1)*c.block, len(c.data))]
	if crc32.Checksum(p, crcTable) != binary.LittleEndian.Uint32(c.table[4*i:]) {
		err := fmt.Errorf("block %d (bytes %d-%d): %w", i, i*c.block, i*c.block+len(p), errChecksum)
		c.err.CompareAndSwap(nil, &err)
		return false
	}
	w.Or(bit)
	return true
}

// bytes checks the blocks holding n bytes at p, which lies in data.
func (c *blockCheck) bytes(p unsafe.Pointer, n int) bool {
	if c == nil || n <= 0 {
		return true
	}
	off := int(uintptr(p) - uintptr(unsafe.Pointer(&c.data[0])))
	for i := off / c.block; i <= (off+n-1)/c.block; i++ {
		if !c.check(i) {
			return false
		}
	}
	return true
}

// all checks every block. release, when not nil, is given each stretch of data once checked: a
// merge and `library check` read whole segments, up to gigabytes, this way, and a segment's pages
// left resident until its end made the largest part of an import's peak (+300 MiB at 100,000
// documents, where the rest of the import stays under 900).
func (c *blockCheck) all(release func([]byte)) error {
	if c == nil {
		return nil
	}
	const stretch = 4 << 20 // whole blocks of every size
	for lo := 0; lo < len(c.data); lo += stretch {
		hi := min(lo+stretch, len(c.data))
		for i := lo / c.block; i*c.block < hi; i++ {
			c.check(i)
		}
		if release != nil {
			release(c.data[lo:hi])
		}
	}
	return c.failed()
}

// failed is the first block that failed, if any.
func (c *blockCheck) failed() error {
	if c == nil {
		return nil
	}
	if e := c.err.Load(); e != nil {
		return *e
	}
	return nil
}

// okRange checks the blocks of s[lo:hi].
func okRange[T any](a *segArrays, s []T, lo, hi int) bool {
	if a.sums == nil || lo >= hi {
		return true
	}
	var z T
	return a.sums.bytes(unsafe.Pointer(&s[lo]), (hi-lo)*int(unsafe.Sizeof(z)))
}

// okAt checks the block of s[i].
func okAt[T any](a *segArrays, s []T, i int) bool { return okRange(a, s, i, i+1) }

// blockTableSize is the bytes a table for n bytes of blocks takes, its own checksum included.
func blockTableSize(n, block int) int { return 4*((n+block-1)/block) + 4 }

// blockSummer is the writer under a segment's buffer: it checksums what passes, block by block.
type blockSummer struct {
	w     io.Writer
	block int
	n     int
	crc   uint32
	table []byte
}

func (p *blockSummer) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	for rest := b[:n]; len(rest) > 0; {
		k := min(len(rest), p.block-p.n%p.block)
		p.crc = crc32.Update(p.crc, crcTable, rest[:k])
		p.n += k
		rest = rest[k:]
		if p.n%p.block == 0 {
			p.table = binary.LittleEndian.AppendUint32(p.table, p.crc)
			p.crc = 0
		}
	}
	return n, err
}

// finish writes the table of what was written, and its checksum.
func (p *blockSummer) finish() error {
	if p.n%p.block != 0 {
		p.table = binary.LittleEndian.AppendUint32(p.table, p.crc)
	}
	t := binary.LittleEndian.AppendUint32(p.table, crc32.Checksum(p.table, crcTable))
	_, err := p.w.Write(t)
	return err
}
