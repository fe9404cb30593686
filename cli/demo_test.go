package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"thesischeck/check"
	"thesischeck/library"
)

// TestOpenDemo: `open --demo` builds the sample library once, opens the app on it with the sample
// thesis, whose check finds the copying; a damaged demo library is built again, not used.
func TestOpenDemo(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	open := func() (libDir, file, log string) {
		t.Helper()
		var stderr bytes.Buffer
		gui := func(l, f string) error { libDir, file = l, f; return nil }
		if err := Run([]string{"open", "--demo"}, gui, &bytes.Buffer{}, &stderr); err != nil {
			t.Fatalf("open --demo: %v (%s)", err, stderr.String())
		}
		return libDir, file, stderr.String()
	}
	libDir, thesis, log := open()
	if !strings.Contains(log, "building the sample library") {
		t.Errorf("first run: no word of building the library: %q", log)
	}
	lib, err := library.Open(libDir, &library.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := lib.List()
	if err != nil || len(docs) != 5 {
		t.Fatalf("demo library holds %d documents (%v), want the 5 samples", len(docs), err)
	}
	r, err := check.File(t.Context(), lib, thesis, nil, nil)
	lib.Close()
	if err != nil {
		t.Fatal(err)
	}
	if r.Similarity < 0.2 || len(r.Sources) == 0 || !strings.Contains(r.Sources[0].Path, "城市公共自行车") {
		t.Errorf("sample thesis: similarity %.3f, sources %+v; want its copying found", r.Similarity, r.Sources)
	}

	if _, _, log := open(); strings.Contains(log, "building") {
		t.Errorf("second run built the library again: %q", log)
	}
	if err := os.WriteFile(filepath.Join(libDir, "library.db"), []byte("damaged"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, log := open(); !strings.Contains(log, "building") {
		t.Errorf("a damaged demo library was used: %q", log)
	}
	if err := Run([]string{"open", "--demo", "--library", libDir}, nil, &bytes.Buffer{}, &bytes.Buffer{}); err != ErrUsage {
		t.Errorf("--demo with --library: %v, want a usage error", err)
	}
}
