package extract_test

import (
	"context"
	"path/filepath"
	"testing"

	"thesischeck/extract"
	"thesischeck/internal/synth"
)

// BenchmarkReadThesisPDF reads the thesis scripts/bench.sh checks: 1,800 paragraphs of the
// development set's prose (extract's test data without it) set as a PDF of about 300 pages by
// internal/synth, as benchgen -submission writes it. For profiles of reading a PDF:
//
//	go test -run XXX -bench ReadThesisPDF -cpuprofile cpu.prof ./extract
//
// (the command line reads with the collector at 400 %: GOGC=400 to measure as it runs).
func BenchmarkReadThesisPDF(b *testing.B) {
	c, err := synth.Load("")
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "thesis.pdf")
	pages, err := synth.WritePDF(path, "学位论文 Thesis", c.Submission(1800, 0.3, 1000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(pages), "pages")
	for b.Loop() {
		doc, err := extract.FileContext(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		if len(doc.Paragraphs) < 1000 {
			b.Fatalf("%d paragraphs read", len(doc.Paragraphs))
		}
	}
}
