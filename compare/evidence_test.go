package compare

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"thesischeck/library"
	"thesischeck/similarity"
)

// bigramOverlap is the share of the character bigrams of a (normalised: traditional characters,
// full-width forms and case folded, spaces left out) that b also has.
func bigramOverlap(a, b string) float64 {
	grams := func(s string) map[string]bool {
		rs := []rune(strings.Join(strings.Fields(similarity.Normalize(s).String()), ""))
		m := map[string]bool{}
		for i := 0; i+1 < len(rs); i++ {
			m[string(rs[i:i+2])] = true
		}
		return m
	}
	ga, gb := grams(a), grams(b)
	if len(ga) == 0 {
		return 0
	}
	n := 0
	for g := range ga {
		if gb[g] {
			n++
		}
	}
	return float64(n) / float64(len(ga))
}

// fragmentText is one side of a fragment.
func fragmentText(t *testing.T, d *Document, para int, sp [2]int) string {
	t.Helper()
	if para < 0 || para >= len(d.Paragraphs) {
		t.Fatalf("%s: fragment paragraph %d of %d", d.Name, para, len(d.Paragraphs))
	}
	rs := []rune(d.Paragraphs[para].Text)
	if sp[0] < 0 || sp[0] >= sp[1] || sp[1] > len(rs) {
		t.Fatalf("%s: fragment span %v in a paragraph of %d characters", d.Name, sp, len(rs))
	}
	return string(rs[sp[0]:sp[1]])
}

// checkEvidence checks a copying pair's fragments: both sides of each are the same text (bigram
// overlap of at least 0.6 each way), and together they cover at least half of the shared characters
// of the smaller document.
func checkEvidence(t *testing.T, res *Result, p Pair) {
	t.Helper()
	A, B := &res.Documents[p.A], &res.Documents[p.B]
	if len(p.Fragments) == 0 {
		t.Fatalf("pair %s–%s has no fragments", A.Name, B.Name)
	}
	covered := map[[2]int]bool{} // (paragraph, rune) of the smaller document inside a fragment
	smallerIsB := B.ComparedChars < A.ComparedChars
	worst := 1.0
	for _, f := range p.Fragments {
		ta, tb := fragmentText(t, A, f.APara, f.ASpan), fragmentText(t, B, f.BPara, f.BSpan)
		oa, ob := bigramOverlap(ta, tb), bigramOverlap(tb, ta)
		worst = min(worst, oa, ob)
		if oa < 0.6 || ob < 0.6 {
			t.Errorf("pair %s–%s: fragment %+v overlaps %.2f / %.2f:\n  %q\n  %q", A.Name, B.Name, f, oa, ob, ta, tb)
		}
		para, sp := f.APara, f.ASpan
		if smallerIsB {
			para, sp = f.BPara, f.BSpan
		}
		for c := sp[0]; c < sp[1]; c++ {
			covered[[2]int{para, c}] = true
		}
	}
	cover := float64(len(covered)) / float64(p.SharedChars)
	t.Logf("pair %s–%s: %d fragments, worst overlap %.2f, cover %.2f of %d shared characters; shares %.3f / %.3f",
		A.Name, B.Name, len(p.Fragments), worst, cover, p.SharedChars, p.AShare, p.BShare)
	if cover < 0.5 {
		t.Errorf("pair %s–%s: fragments cover %.2f of the shared characters, want at least half", A.Name, B.Name, cover)
	}
}

// pairNums finds the result's pair of students a and b (by their file numbers).
func pairNums(res *Result, num []int, a, b int) *Pair {
	for i, p := range res.Pairs {
		if x, y := num[p.A], num[p.B]; x == a && y == b || x == b && y == a {
			return &res.Pairs[i]
		}
	}
	return nil
}

// The evidence of every copying pair: fragments whose two sides are the same text and that cover
// most of what the pair shares; the shares of each side; a ring of students around one source as
// one cluster, and every flagged pair inside a cluster; the JSON lists the paragraphs the fragments
// point into.
func TestEvidence(t *testing.T) {
	// 1 and 2 copy from 0 and 3 from 2: a ring around one source. 5 is a short essay most of which
	// comes from the long 4: its share is far above 4's.
	copies := []copyPlan{{Source: 0, Copier: 1, Share: 0.4}, {Source: 0, Copier: 2, Share: 0.35},
		{Source: 2, Copier: 3, Share: 0.5}, {Source: 4, Copier: 5, Share: 0.7}, {Source: 6, Copier: 7, Share: 0.3}}
	for _, spec := range []classSpec{
		{lang: "en", docs: 12, chars: 3000, lengths: map[int]int{4: 6000, 5: 1200}, copies: copies},
		{lang: "zh", docs: 12, chars: 1800, lengths: map[int]int{4: 3600, 5: 700}, copies: copies},
	} {
		t.Run(spec.lang, func(t *testing.T) {
			res, err := Run(context.Background(), []string{makeClass(t, spec, 11)}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			num := docIndex(t, res)
			for _, c := range copies {
				p := pairNums(res, num, c.Source, c.Copier)
				if p == nil || !p.Flagged {
					t.Errorf("copying pair %d–%d not flagged: %+v", c.Source, c.Copier, p)
					continue
				}
				checkEvidence(t, res, *p)
			}
			// Shares: the short copier's is far above its long source's.
			p := pairNums(res, num, 4, 5)
			if p != nil {
				long, short := p.AShare, p.BShare
				if num[p.A] == 5 {
					long, short = short, long
				}
				if short < 2*long || p.Similarity != short {
					t.Errorf("4–5: share of the long source %.3f, of the short copy %.3f (similarity %.3f): want the copy's at least twice and as the similarity", long, short, p.Similarity)
				}
			}
			checkClusters(t, res, num, [][]int{{0, 1, 2, 3}, {4, 5}, {6, 7}})
			checkJSONParagraphs(t, res)
		})
	}
}

// checkClusters checks that every flagged pair lies inside one cluster and that the clusters are
// the groups of students wanted (by file number).
func checkClusters(t *testing.T, res *Result, num []int, want [][]int) {
	t.Helper()
	of := res.ClusterOf()
	for _, p := range res.Pairs {
		if p.Flagged && (of[p.A] < 0 || of[p.A] != of[p.B]) {
			t.Errorf("flagged pair %d–%d is in clusters %d and %d", num[p.A], num[p.B], of[p.A], of[p.B])
		}
	}
	var got [][]int
	for _, c := range res.Clusters {
		var g []int
		for _, d := range c {
			g = append(g, num[d])
		}
		got = append(got, g)
	}
	if len(got) != len(want) {
		t.Fatalf("clusters %v, want %v", got, want)
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("clusters %v, want %v", got, want)
		}
		for k := range want[i] {
			if got[i][k] != want[i][k] {
				t.Fatalf("clusters %v, want %v", got, want)
			}
		}
	}
}

// checkJSONParagraphs reads the JSON back and checks that each document lists its paragraphs' text
// and that every fragment's spans index it.
func checkJSONParagraphs(t *testing.T, res *Result) {
	t.Helper()
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Documents []struct {
			Name       string `json:"name"`
			Paragraphs []struct {
				Text string `json:"text"`
			} `json:"paragraphs"`
		} `json:"documents"`
		Pairs []struct {
			A, B      int
			AShare    *float64 `json:"a_share"`
			BShare    *float64 `json:"b_share"`
			Fragments []struct {
				APara int    `json:"a_para"`
				ASpan [2]int `json:"a_span"`
				BPara int    `json:"b_para"`
				BSpan [2]int `json:"b_span"`
			} `json:"fragments"`
		} `json:"pairs"`
		Clusters [][]int `json:"clusters"`
	}
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Documents) != len(res.Documents) || len(back.Pairs) != len(res.Pairs) || len(back.Clusters) != len(res.Clusters) {
		t.Fatalf("JSON: %d documents, %d pairs, %d clusters", len(back.Documents), len(back.Pairs), len(back.Clusters))
	}
	for i, d := range back.Documents {
		if len(d.Paragraphs) != len(res.Documents[i].Paragraphs) || len(d.Paragraphs) == 0 || d.Paragraphs[1].Text != res.Documents[i].Paragraphs[1].Text {
			t.Fatalf("JSON document %s: paragraphs not as read", d.Name)
		}
	}
	for i, p := range back.Pairs {
		if p.AShare == nil || p.BShare == nil {
			t.Fatalf("JSON pair %d lacks a_share or b_share", i)
		}
		for k, f := range p.Fragments {
			want := res.Pairs[i].Fragments[k]
			if f.APara != want.APara || f.ASpan != want.ASpan || f.BPara != want.BPara || f.BSpan != want.BSpan {
				t.Fatalf("JSON pair %d fragment %d: %+v, want %+v", i, k, f, want)
			}
			text := []rune(back.Documents[p.A].Paragraphs[f.APara].Text)
			if f.ASpan[1] > len(text) {
				t.Fatalf("JSON pair %d fragment %d: span %v beyond its paragraph", i, k, f.ASpan)
			}
		}
	}
}

// Last year's submissions are compared with this year's, never with each other: a pair of old
// documents that copy each other is not reported, a new one copying an old one is, from a folder
// or from a library.
func TestOldSubmissions(t *testing.T) {
	spec := classSpec{lang: "en", docs: 10, chars: 2400, copies: []copyPlan{
		{Source: 0, Copier: 1, Share: 0.5}, // both old
		{Source: 2, Copier: 6, Share: 0.4}, // new copies old
		{Source: 7, Copier: 8, Share: 0.4}, // new copies new
	}}
	dir := makeClass(t, spec, 12)
	oldDir := t.TempDir()
	for d := 0; d < 5; d++ {
		name := filepath.Base(studentFile(d))
		if err := os.Rename(filepath.Join(dir, name), filepath.Join(oldDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	libDir := t.TempDir()
	lib, err := library.Open(libDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lib.AddFiles(context.Background(), []string{oldDir}, library.AddOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := lib.Close(); err != nil {
		t.Fatal(err)
	}
	for name, old := range map[string]string{"folder": oldDir, "library": libDir} {
		t.Run(name, func(t *testing.T) {
			res, err := Run(context.Background(), []string{dir}, &Options{Old: []string{old}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if n, o := res.Compared(); n != 5 || o != 5 {
				t.Fatalf("%d new and %d old documents, want 5 and 5", n, o)
			}
			num := docIndex(t, res)
			for i, d := range res.Documents {
				if d.Old != (num[i] < 5) {
					t.Errorf("%s: old %v", d.Name, d.Old)
				}
			}
			for _, p := range res.Pairs {
				if res.Documents[p.A].Old && res.Documents[p.B].Old {
					t.Errorf("old pair %s–%s compared", res.Documents[p.A].Name, res.Documents[p.B].Name)
				}
			}
			for _, c := range [][2]int{{2, 6}, {7, 8}} {
				if p := pairNums(res, num, c[0], c[1]); p == nil || !p.Flagged {
					t.Errorf("copying pair %v not flagged: %+v", c, p)
				}
			}
			if f := res.Flagged(); len(f) != 2 {
				t.Errorf("%d flagged pairs, want 2", len(f))
			}
			if res.PairsCompared() != 5*4/2+5*5 {
				t.Errorf("%d pairs compared, want 35", res.PairsCompared())
			}
		})
	}
}

func studentFile(d int) string { return filepath.Join("x", "student0"+string(rune('0'+d))+".txt") }
