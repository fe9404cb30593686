package library

import (
	"os"
	"syscall"
	"unsafe"
)

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
