package extract

import (
	"context"
	"path/filepath"
	"testing"
)

// OneCore is called once for each file of a format read on one core from some point on, and never
// for one that fails before it is parsed, or before a PDF's pages are read.
func TestTraceOneCore(t *testing.T) {
	for _, c := range []struct {
		file  string
		calls int
	}{
		{"pdf/zh.pdf", 1},
		{"pdf/long-cid.pdf", 1},
		{"docx/pandoc-zh.docx", 1},
		{"txt/gbk.txt", 1},
		{"bad/corrupt.pdf", 0},
		{"bad/empty.txt", 0},
		{"bad/binary.bin", 0},
	} {
		calls := 0
		ctx := WithTrace(context.Background(), &Trace{OneCore: func() { calls++ }})
		_, err := FileContext(ctx, filepath.Join("testdata", c.file))
		if calls != c.calls {
			t.Errorf("%s (error %v): OneCore called %d times, want %d", c.file, err, calls, c.calls)
		}
		if (err != nil) != (c.calls == 0) {
			t.Errorf("%s: error %v", c.file, err)
		}
	}
	// Without a Trace nothing is called, and nothing fails.
	if _, err := FileContext(context.Background(), filepath.Join("testdata", "pdf/zh.pdf")); err != nil {
		t.Fatal(err)
	}
}
