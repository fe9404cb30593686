//go:build !unix

package library

import "os"

// mapFile reads a whole file: systems without mmap get the same index in ordinary memory.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }

func unmapFile([]byte) error { return nil }
