package library

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
)

// Frames make the paragraph store readable without library.db (format version 3). Each document's
// paragraph records follow a frame that holds its record and the length and checksum of each
// paragraph; a removal appends a frame naming the documents removed. `library repair` rebuilds
// library.db from the store when library.db is lost or damaged, by reading the frames in order:
//
//	"TCP3", length of body (uint32 LE), CRC-32C of body (uint32 LE), body
//	body of a document: 1, id, len(record) record (docRecord JSON), count,
//	                    count × length, count × CRC-32C (uint32 LE)       (then the paragraph records)
//	body of a removal:  2, count, count × id
//
// (unsigned varints unless said otherwise). A frame that fails its checksum is skipped to the next
// "TCP3" whose frame checks.

const (
	frameMagic   = "TCP3"
	frameHeadLen = 12
	// maxFrameBody bounds what a damaged length can make the scan read (a frame is a record of a
	// few hundred bytes and 5 bytes a paragraph).
	maxFrameBody = 64 << 20

	frameDoc     = 1
	frameRemoval = 2
)

// frame is a decoded frame; head is its length in the store, header included.
type frame struct {
	kind byte
	id   uint64
	rec  []byte
	lens []uint32
	crcs []uint32
	ids  []uint64
	head int64
}

func wrapFrame(body []byte) []byte {
	b := make([]byte, 0, frameHeadLen+len(body))
	b = append(b, frameMagic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(body)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(body, crcTable))
	return append(b, body...)
}

func docFrame(id uint64, rec []byte, lens, crcs []uint32) []byte {
	e := encoder{b: []byte{frameDoc}}
	e.uvarint(id)
	e.str(string(rec))
	e.uvarint(uint64(len(lens)))
	for _, n := range lens {
		e.uvarint(uint64(n))
	}
	for _, c := range crcs {
		e.u32(c)
	}
	return wrapFrame(e.b)
}

func removalFrame(ids []uint64) []byte {
	e := encoder{b: []byte{frameRemoval}}
	e.uvarint(uint64(len(ids)))
	for _, id := range ids {
		e.uvarint(id)
	}
	return wrapFrame(e.b)
}

// decodeFrame reads a frame's body.
func decodeFrame(body []byte) (frame, error) {
	if len(body) == 0 {
		return frame{}, errFormat
	}
	f := frame{kind: body[0], head: int64(frameHeadLen + len(body))}
	d := decoder{b: body[1:]}
	switch f.kind {
	case frameDoc:
		f.id = d.uvarint()
		f.rec = d.bytes(d.uvarint())
		n := d.count(5)
		f.lens, f.crcs = make([]uint32, 0, n), make([]uint32, 0, n)
		for i := 0; i < n && d.err == nil; i++ {
			f.lens = append(f.lens, uint32(d.uvarint()))
		}
		for i := 0; i < n && d.err == nil; i++ {
			f.crcs = append(f.crcs, d.u32())
		}
	case frameRemoval:
		n := d.count(1)
		for i := 0; i < n && d.err == nil; i++ {
			f.ids = append(f.ids, d.uvarint())
		}
	default:
		return frame{}, errFormat
	}
	if d.err != nil || len(d.b) != 0 {
		return frame{}, errFormat
	}
	return f, nil
}

// loc is where the frame at off places its document's paragraphs.
func (f frame) loc(off int64) paraLoc {
	return paraLoc{off: off, head: f.head, lens: f.lens, crcs: f.crcs}
}

// readFrame reads the frame at off of a store of size bytes.
func readFrame(r io.ReaderAt, off, size int64) (frame, bool) {
	var h [frameHeadLen]byte
	if off < 0 || off+frameHeadLen > size {
		return frame{}, false
	}
	if _, err := r.ReadAt(h[:], off); err != nil || string(h[:4]) != frameMagic {
		return frame{}, false
	}
	n := int64(binary.LittleEndian.Uint32(h[4:]))
	if n > maxFrameBody || off+frameHeadLen+n > size {
		return frame{}, false
	}
	body := make([]byte, n)
	if _, err := r.ReadAt(body, off+frameHeadLen); err != nil || crc32.Checksum(body, crcTable) != binary.LittleEndian.Uint32(h[8:]) {
		return frame{}, false
	}
	f, err := decodeFrame(body)
	return f, err == nil
}

// scanFrames calls visit with every frame of the first size bytes of r that checks, in order, and
// its offset. After a frame that does not check it looks for the next one.
func scanFrames(r io.ReaderAt, size int64, visit func(off int64, f frame)) error {
	for off := int64(0); off < size; {
		if f, ok := readFrame(r, off, size); ok {
			visit(off, f)
			next := off + f.head
			if f.kind == frameDoc {
				next = f.loc(off).size() + off
			}
			off = next
			continue
		}
		var err error
		if off, err = nextMagic(r, off+1, size); err != nil {
			return err
		}
	}
	return nil
}

// nextMagic is the offset of the next frameMagic at or after off (size when there is none).
func nextMagic(r io.ReaderAt, off, size int64) (int64, error) {
	buf := make([]byte, 1<<16)
	for off < size {
		n := min(int64(len(buf)), size-off)
		if _, err := r.ReadAt(buf[:n], off); err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.Index(buf[:n], []byte(frameMagic)); i >= 0 {
			return off + int64(i), nil
		}
		if n < int64(len(buf)) {
			break
		}
		off += n - int64(len(frameMagic)) + 1
	}
	return size, nil
}
