package library

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

func (l *folder) memDocs() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.idx.mem.docs)
}

// flush writes the in-memory part of the index as a segment and merges segments (see
// writeSegments), and waits for it. writeMu is held.
func (l *folder) flush() error {
	if err := l.startFlush(); err != nil {
		return err
	}
	return l.waitFlush()
}

// startFlush starts writing the documents now in the in-memory part of the index as a segment, in
// the background: an import goes on meanwhile, where it used to wait for every segment and merge
// (its workers idle for seconds at a time in a large library). One runs at a time: startFlush waits
// for the one before. writeMu is held.
func (l *folder) startFlush() error {
	if err := l.waitFlush(); err != nil {
		return err
	}
	// The word counts first: a segment covers documents whose counts are saved.
	if err := l.checkpointWords(); err != nil {
		return err
	}
	l.mu.RLock()
	mem, segs := l.idx.mem, slices.Clone(l.idx.segs)
	docs := mem.docs[:len(mem.docs):len(mem.docs)] // adds go after these: they never change
	l.mu.RUnlock()
	if len(docs) == 0 {
		return nil
	}
	done := make(chan struct{})
	l.flushDone = done
	go func() {
		defer close(done)
		l.flushErr = l.writeSegments(segs, docs)
	}()
	return nil
}

// flushing reports whether a segment is being written in the background. writeMu is held.
func (l *folder) flushing() bool {
	if l.flushDone == nil {
		return false
	}
	select {
	case <-l.flushDone:
		return false
	default:
		return true
	}
}

// waitFlush waits for the segment being written in the background, if any, and returns its error.
// writeMu is held.
func (l *folder) waitFlush() error {
	if l.flushDone == nil {
		return nil
	}
	<-l.flushDone
	err := l.flushErr
	l.flushDone, l.flushErr = nil, nil
	return err
}

// writeSegments writes docs, the first documents of the in-memory part of the index, as a segment
// after segs, then merges the newest segments while the one before the newest is no more than twice
// its size: segment sizes fall geometrically, so a library of n documents has O(log n) segments and
// each posting is rewritten O(log n) times.
func (l *folder) writeSegments(segs []*segment, mem []memDoc) error {
	docs := make([]segDoc, 0, len(mem))
	for _, d := range mem {
		if !d.dead {
			docs = append(docs, segDoc{id: d.id, sig: d.sig, fps: d.fps})
		}
	}
	first, last := mem[0].id, mem[len(mem)-1].id
	next := segs
	if len(docs) > 0 {
		name := segName(first, last)
		if err := buildSegment(l.dir, name, docs); err != nil {
			return fmt.Errorf("library %s: index: %w", l.dir, err)
		}
		s, err := openSegment(l.dir, name)
		if err != nil {
			return fmt.Errorf("library %s: %w", l.dir, err)
		}
		s.lastID = last
		next = append(slices.Clone(segs), s)
	}
	if err := l.saveManifest(next); err != nil {
		return fmt.Errorf("library %s: index: %w", l.dir, err)
	}
	l.swap(next, nil, len(mem))
	for {
		n := len(next)
		if n < 2 || next[n-2].paras() > 2*next[n-1].paras() {
			return nil
		}
		a, b := next[n-2], next[n-1]
		name := segName(a.first(), b.last())
		// The documents removed when the merge begins are left out of it; those removed while it
		// runs are marked in the new segment.
		l.mu.RLock()
		dead := [][]bool{slices.Clone(a.dead), slices.Clone(b.dead)}
		l.mu.RUnlock()
		if err := mergeSegments(l.dir, name, []*segment{a, b}, dead); err != nil {
			return fmt.Errorf("library %s: index: %w", l.dir, err)
		}
		s, err := openSegment(l.dir, name)
		if err != nil {
			return fmt.Errorf("library %s: %w", l.dir, err)
		}
		s.lastID = b.last()
		l.mu.RLock()
		j := 0
		for i, old := range []*segment{a, b} {
			for d := range old.dead {
				if !dead[i][d] {
					s.dead[j] = old.dead[d]
					j++
				}
			}
		}
		l.mu.RUnlock()
		next = append(slices.Clone(next[:n-2]), s)
		if err := l.saveManifest(next); err != nil {
			return fmt.Errorf("library %s: index: %w", l.dir, err)
		}
		l.swap(next, []*segment{a, b}, 0)
	}
}

// swap installs a new list of segments, which now cover the first covered documents of the
// in-memory part, and releases old segments. The documents added since the segments were begun
// stay in memory.
func (l *folder) swap(segs, old []*segment, covered int) {
	x := newIndex(segs)
	l.mu.Lock()
	for _, d := range l.idx.mem.docs[covered:] {
		x.add(d.id, d.sig, d.fps)
		if d.dead {
			x.remove(d.id)
		}
	}
	l.idx = x
	l.mu.Unlock()
	for _, s := range old {
		unmapFile(s.data)
		// The manifest no longer lists it: a file that stays is a stray the next writable Open
		// deletes (removeStray), and the new index is in place either way.
		os.Remove(filepath.Join(l.dir, s.name))
	}
}

func segName(first, last uint64) string { return fmt.Sprintf("seg-%016x-%016x.idx", first, last) }

// first is the smallest document id the segment covers: its first document's, or, when a merge
// left it none (all of them removed), the one its name gives (seg-FIRST-LAST.idx, or
// seg-FIRST-LAST.c.idx for a segment Compact rewrote alone).
func (s *segment) first() uint64 {
	if len(s.seg.docIDs) > 0 {
		return s.seg.docIDs[0]
	}
	var first, last uint64
	if _, err := fmt.Sscanf(s.name, "seg-%016x-%016x", &first, &last); err != nil {
		return s.lastID
	}
	return first
}
