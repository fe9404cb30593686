package main

import (
	"fmt"
	"time"
)

// calibrate times a fixed workload on one core and prints it in milliseconds: a hash loop and a
// random walk over 64 MiB, as a check mixes arithmetic with misses in memory. The development
// machine runs the same instructions a third slower at some minutes than at others (one binary's
// check of the 313-page thesis: 0.73 s at one hour, 1.10 s at another), and make bench prints the
// workload's time beside the thesis's so that a reader can tell a slow minute from a slow check.
func calibrate() {
	start := time.Now()
	h := uint32(2166136261)
	for i := range 150_000_000 {
		h = (h ^ uint32(i)) * 16777619
	}
	buf := make([]uint32, 16<<20)
	for i := range buf {
		buf[i] = uint32(i) * 2654435761
	}
	x := h
	for i := range 10_000_000 {
		x += buf[(x^uint32(i))&(16<<20-1)]
	}
	fmt.Printf("calibrate_ms %d %d\n", time.Since(start).Milliseconds(), x&1)
}
