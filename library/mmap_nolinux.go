//go:build !linux

package library

// releasePages is a hint that only Linux takes here (see mmap_linux.go).
func releasePages(m, b []byte) {}

// adviseHuge is a hint that only Linux takes here (see mmap_linux.go).
func adviseHuge(m []byte) {}
