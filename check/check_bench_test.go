package check

import (
	"context"
	"path/filepath"
	"testing"

	"thesischeck/internal/synth"
	"thesischeck/library"
)

// BenchmarkCheck checks a 40-paragraph submission, a third of it copied, against a generated
// library of 300 documents; scripts/bench.sh measures large libraries.
func BenchmarkCheck(b *testing.B) {
	c, err := synth.Load("")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if _, err := c.WriteLibrary(filepath.Join(dir, "files"), 300, 30, 0); err != nil {
		b.Fatal(err)
	}
	sub := filepath.Join(dir, "sub.txt")
	if err := synth.WriteTXT(sub, c.Submission(40, 0.3, 300)); err != nil {
		b.Fatal(err)
	}
	lib, err := library.Open(filepath.Join(dir, "lib"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer lib.Close()
	if _, err := lib.AddFiles(context.Background(), []string{filepath.Join(dir, "files")}, library.AddOptions{}, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := File(context.Background(), lib, sub, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		if r.CopiedChars == 0 {
			b.Fatal("the copied paragraphs were not found")
		}
	}
}
