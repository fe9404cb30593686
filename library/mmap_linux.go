package library

import (
	"os"
	"syscall"
	"unsafe"
)

// adviseHuge asks the kernel to read the file behind the mapping m into the page cache in folios of
// 2 MiB where it reads any, and to map them whole (a hint: a kernel without transparent huge pages
// ignores it). A check reads a segment at random, and pages read that way came in small folios
// that stayed cached so: every later check took a fault for each 64 KiB it touched and a TLB miss
// for each page. Pages already cached keep their folios; the advice decides how pages not cached
// are read. The 309-page thesis's check against 100,000 documents (a 657 MiB segment, 40 % of its
// postings' blocks read), the segment dropped from the cache and four checks run, eight rounds
// alternating with a build without the advice: the three checks after the first took 0.933 of the
// time (0.842-1.124), with 620 of the 657 MiB mapped in huge pages against 20; the first, which
// reads the segment, 1.145 (it reads all of it, in 2 MiB pieces). Advised only for the arrays a
// check reads whole (SimHashes, paragraphs' documents, gram keys and offsets), 1.000.
func adviseHuge(m []byte) {
	if len(m) > 0 {
		syscall.Madvise(m, syscall.MADV_HUGEPAGE)
	}
}

// releasePages drops the pages of b, a part of the mapping m, from this process's resident set:
// they stay in the page cache and come back on the next read. A merge reads whole segments, up to
// gigabytes, mostly once; without this all of it would count as the process's memory.
func releasePages(m, b []byte) {
	if len(m) == 0 || len(b) == 0 {
		return
	}
	page := uintptr(os.Getpagesize())
	base := uintptr(unsafe.Pointer(&m[0]))
	from := uintptr(unsafe.Pointer(&b[0])) - base
	to := from + uintptr(len(b))
	from = (from + page - 1) &^ (page - 1) // whole pages inside b only
	to &^= page - 1
	if from >= to || to > uintptr(len(m)) {
		return
	}
	syscall.Madvise(m[from:to], syscall.MADV_DONTNEED)
}
