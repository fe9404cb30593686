package compare

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"thesischeck/internal/synth"
)

// BenchmarkClass200 compares 200 submissions of 20,000 characters each (the bar: under 60 s
// on two cores). The text is Chinese drawn from jieba's dictionary by word frequency, a third of its
// words from a shared topic vocabulary so that every pair shares set phrases the way essays on one
// subject do; every document quotes the prompt; ten pairs copy 40 % of their text.
func BenchmarkClass200(b *testing.B) {
	dir := benchClass(b, 200, 20000, 10)
	var res *Result
	for b.Loop() {
		var err error
		res, err = Run(context.Background(), []string{dir}, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(res.Flagged())), "flagged")
	b.ReportMetric(float64(len(res.Pairs)), "pairs")
}

func benchClass(b *testing.B, docs, chars, copying int) string {
	b.Helper()
	words, cum, err := synth.DictWords()
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	word := func() string { return words[sort.SearchFloat64s(cum, rng.Float64()*cum[len(cum)-1])] }
	topic := make([]string, 300)
	for i := range topic {
		topic[i] = words[200+rng.IntN(5000)]
	}
	sentence := func() string {
		var s strings.Builder
		n := 8 + rng.IntN(14)
		for i := 0; i < n; i++ {
			if rng.IntN(3) == 0 {
				s.WriteString(topic[rng.IntN(len(topic))])
			} else {
				s.WriteString(word())
			}
			if i == n/2 && rng.IntN(2) == 0 {
				s.WriteString("，")
			}
		}
		s.WriteString("。")
		return s.String()
	}
	texts := make([][]string, docs) // sentences
	for d := range texts {
		for n := 0; n < chars; {
			s := sentence()
			texts[d] = append(texts[d], s)
			n += len([]rune(s))
		}
	}
	for c := 0; c < copying; c++ {
		src, dst := 2*c, 2*c+1
		k := len(texts[dst]) * 2 / 5
		copy(texts[dst][len(texts[dst])-k:], texts[src][:k])
	}
	dir := b.TempDir()
	for d, ss := range texts {
		var body strings.Builder
		body.WriteString(prompts["zh"] + "\n\n")
		for i, s := range ss {
			body.WriteString(s)
			if i%6 == 5 {
				body.WriteString("\n\n")
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("student%03d.txt", d)), []byte(body.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}
