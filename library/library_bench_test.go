package library

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"thesischeck/internal/synth"
	"thesischeck/similarity"
)

// benchDocs is the size of the generated library of the benchmarks; scripts/bench.sh measures the
// large ones.
const benchDocs = 300

var (
	corpusOnce sync.Once
	corpus     *synth.Corpus
	corpusErr  error
)

// benchFiles writes benchDocs generated TXT documents into a temporary folder of b.
func benchFiles(b *testing.B) (string, int) {
	b.Helper()
	corpusOnce.Do(func() { corpus, corpusErr = synth.Load("") })
	if corpusErr != nil {
		b.Fatal(corpusErr)
	}
	dir := filepath.Join(b.TempDir(), "files")
	n, err := corpus.WriteLibrary(dir, benchDocs, 30, 0)
	if err != nil {
		b.Fatal(err)
	}
	return dir, n
}

// benchLibrary is a library of generated files.
func benchLibrary(b *testing.B) string {
	b.Helper()
	files, _ := benchFiles(b)
	dir := filepath.Join(b.TempDir(), "lib")
	l, err := Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	if res, err := l.AddFiles(context.Background(), []string{files}, AddOptions{}, nil); err != nil || len(res.Failed) > 0 {
		b.Fatal(err, res.Failed)
	}
	return dir
}

func BenchmarkAddFiles(b *testing.B) {
	files, text := benchFiles(b)
	if _, err := similarity.Default(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(text))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l, err := Open(filepath.Join(b.TempDir(), fmt.Sprint(i)), nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := l.AddFiles(context.Background(), []string{files}, AddOptions{}, nil); err != nil {
			b.Fatal(err)
		}
		l.Close()
	}
}

func BenchmarkOpen(b *testing.B) {
	dir := benchLibrary(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l, err := Open(dir, &Options{ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		l.Close()
	}
}

// BenchmarkCandidates looks up every paragraph of one library document, as a check of a copy does.
func BenchmarkCandidates(b *testing.B) {
	dir := benchLibrary(b)
	l, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	ps, err := l.Paragraphs(list(b, l)[7].ID)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range ps {
			if len(l.Candidates(similarity.Grams(p.Tokens), similarity.SimHash(p.Tokens), 3, 2, 12)) == 0 {
				b.Fatal("a library paragraph does not find itself")
			}
		}
	}
}
