package parallel

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Every index runs exactly once, on more than one goroutine when there are several cores, and the
// last progress report, from the calling goroutine, says all are done.
func TestForRunsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		runs := make([]atomic.Int32, n)
		var last atomic.Int64
		last.Store(-1)
		err := For(context.Background(), n, func(i int) {
			runs[i].Add(1)
			if i%100 == 0 {
				time.Sleep(time.Millisecond)
			}
		}, func(done int) { last.Store(int64(done)) })
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		for i := range runs {
			if c := runs[i].Load(); c != 1 {
				t.Errorf("n=%d: index %d ran %d times", n, i, c)
			}
		}
		if want := int64(n); n > 0 && last.Load() != want {
			t.Errorf("n=%d: last progress %d, want %d", n, last.Load(), want)
		}
	}
}

// Progress comes while the work goes on, not only at its end, and always from the caller's
// goroutine: For's callers update a bar or a window from it without locks.
func TestForReportsProgressMeanwhile(t *testing.T) {
	var reports []int
	n := 4 * runtime.NumCPU() // four rounds of 30 ms whatever the cores
	err := For(context.Background(), n, func(int) { time.Sleep(30 * time.Millisecond) },
		func(done int) { reports = append(reports, done) }) // a data race if called from a worker
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) < 2 || reports[len(reports)-1] != n {
		t.Fatalf("progress reports %v: want some before the end and %d last", reports, n)
	}
	for i := 1; i < len(reports); i++ {
		if reports[i] < reports[i-1] {
			t.Errorf("progress went back: %v", reports)
		}
	}
}

// A cancelled loop starts nothing new, waits for what runs, and returns the context's error with no
// goroutine left behind.
func TestForCancelled(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	started := map[int]bool{}
	var running atomic.Int32
	err := For(ctx, 10_000, func(i int) {
		running.Add(1)
		defer running.Add(-1)
		mu.Lock()
		started[i] = true
		n := len(started)
		mu.Unlock()
		if n == 10 {
			cancel()
		}
		time.Sleep(time.Millisecond)
	}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if running.Load() != 0 {
		t.Errorf("%d iterations still running when For returned", running.Load())
	}
	if len(started) > 10+runtime.NumCPU() {
		t.Errorf("%d iterations started after a cancel at the tenth", len(started))
	}
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after For, %d before", n, before)
	}
}
