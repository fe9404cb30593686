package library

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
)

// Compact rewrites the index as one segment without removed documents' entries. A merge drops them
// only from the segments it merges, and the oldest, largest segment is merged rarely: after a tenth
// of a library is removed its entries stay there, every query reading and skipping them. The
// paragraph store is rewritten without removed documents' records whenever it holds any (a removal
// waits until they are half of it), packing records of format version 3 as it copies them. It
// returns how many removed documents' entries it dropped.
func (l *folder) Compact() (int, error) {
	l.writeMu.Lock()
	defer l.writeMu.Unlock()
	if l.readOnly {
		return 0, fmt.Errorf("library %s: opened read-only", l.dir)
	}
	// The documents indexed in memory go into a segment first, so that one segment covers all.
	if err := l.flush(); err != nil {
		return 0, err
	}
	removed, err := l.mergeAll(false)
	if err != nil {
		return 0, fmt.Errorf("library %s: compact: %w", l.dir, err)
	}
	if err := l.compactParas(true); err != nil {
		return removed, fmt.Errorf("library %s: compact: %w", l.dir, err)
	}
	return removed, nil
}

// mergeAll rewrites the index's segments as one without removed documents' entries, when there are
// several, or removed documents' entries to drop unless onlySeveral. writeMu is held and the
// in-memory part flushed. What the process holds is given back first: the merge maps every
// segment (an import's peak was 1,122 MiB without that, 936 with it). It returns how many removed
// documents' entries it dropped.
func (l *folder) mergeAll(onlySeveral bool) (int, error) {
	// writeMu keeps removals out until the new segment is in place: the flags read here stay true.
	l.mu.RLock()
	segs := slices.Clone(l.idx.segs)
	dead := make([][]bool, len(segs))
	removed := 0
	for i, s := range segs {
		dead[i] = slices.Clone(s.dead)
		for _, d := range s.dead {
			if d {
				removed++
			}
		}
	}
	l.mu.RUnlock()
	if len(segs) < 2 && (onlySeveral || removed == 0) {
		return 0, nil
	}
	debug.FreeOSMemory()
	name := segName(segs[0].first(), segs[len(segs)-1].last())
	if name == segs[0].name {
		// One segment rewritten: the new file needs a name of its own until the old one goes.
		name = strings.TrimSuffix(name, ".idx") + ".c.idx"
	}
	if err := mergeSegments(l.dir, name, segs, dead); err != nil {
		return 0, err
	}
	s, err := openSegment(l.dir, name)
	if err != nil {
		return 0, err
	}
	s.lastID = segs[len(segs)-1].last()
	next := []*segment{s}
	if err := l.saveManifest(next); err != nil {
		unmapFile(s.data)
		return 0, err
	}
	l.swap(next, segs, 0)
	return removed, nil
}
