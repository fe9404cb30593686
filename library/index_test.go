package library

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"

	"thesischeck/similarity"
)

func segmenter(t testing.TB) *similarity.Segmenter {
	t.Helper()
	s, err := similarity.Default()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// flip returns f with the given bits inverted.
func flip(f uint64, bits ...int) uint64 {
	for _, b := range bits {
		f ^= 1 << b
	}
	return f
}

// SimHash lookups find every stored paragraph within distance 3 of the query, whichever blocks
// the differing bits fall in (pigeonhole: one of the four 16-bit blocks is always equal), and
// never return one farther than asked.
func TestSimHashLookupDistances(t *testing.T) { forBackends(t, testSimHashLookupDistances) }

func testSimHashLookupDistances(t *testing.T, open func(*Options) *Library) {
	src := t.TempDir()
	var paths []string
	for i, p := range prose {
		paths = append(paths, writeDoc(t, src, string(rune('a'+i))+".txt", "Doc", p))
	}
	l := open(nil)
	defer l.Close()
	add(t, l, AddOptions{}, paths...)

	type target struct {
		ref ParaRef
		sim uint64
	}
	var targets []target
	for _, d := range list(t, l) {
		ps, err := l.Paragraphs(d.ID)
		if err != nil {
			t.Fatal(err)
		}
		for n := range ps {
			ref := ParaRef{Doc: d.ID, Para: n}
			if s := l.SimHash(ref); s != 0 {
				targets = append(targets, target{ref, s})
			}
		}
	}
	if len(targets) < len(prose) {
		t.Fatalf("only %d paragraphs with a SimHash", len(targets))
	}
	// Bit patterns: each distance, with the changed bits in one block or spread so that exactly
	// one block is left equal (each of the four in turn).
	patterns := [][]int{
		{}, {5}, {40}, {63},
		{1, 2}, {3, 20}, {17, 50},
		{0, 1, 2}, {0, 16, 32}, {16, 32, 48}, {0, 32, 48}, {0, 16, 48},
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20; i++ {
		patterns = append(patterns, r.Perm(64)[:1+r.Intn(3)])
	}
	for _, tg := range targets {
		for _, bits := range patterns {
			q := flip(tg.sim, bits...)
			got := l.Candidates(nil, q, 3, 2, 0)
			found := false
			for _, c := range got {
				if c.Hamming > 3 || c.Hamming != similarity.Hamming(q, l.SimHash(c.ParaRef)) {
					t.Fatalf("candidate %+v: reported distance %d, true %d, limit 3", c.ParaRef, c.Hamming, similarity.Hamming(q, l.SimHash(c.ParaRef)))
				}
				if c.ParaRef == tg.ref {
					found = true
					if c.Hamming != len(bits) {
						t.Errorf("distance %d reported as %d", len(bits), c.Hamming)
					}
				}
			}
			if !found {
				t.Errorf("%+v not found at distance %d (bits %v)", tg.ref, len(bits), bits)
			}
		}
		// Four or more bits away: beyond the threshold asked for, never returned; one bit in each
		// block leaves no block equal, so not even the pigeonhole tables hold it.
		for _, bits := range [][]int{{0, 16, 32, 48}, {1, 2, 3, 4}, {0, 1, 17, 33, 49}} {
			for _, c := range l.Candidates(nil, flip(tg.sim, bits...), 3, 2, 0) {
				if c.ParaRef == tg.ref {
					t.Errorf("%+v returned at distance %d with limit 3", tg.ref, len(bits))
				}
			}
		}
	}
}

// Gram lookups find a library paragraph that shares a passage with the query, ranked by shared
// grams, and not one that shares only common words.
func TestGramLookup(t *testing.T) { forBackends(t, testGramLookup) }

func testGramLookup(t *testing.T, open func(*Options) *Library) {
	src := t.TempDir()
	l := open(nil)
	defer l.Close()
	add(t, l, AddOptions{}, writeDoc(t, src, "zh.txt", "湿地", prose[0], prose[1]), writeDoc(t, src, "en.txt", "Tides", prose[3], prose[4]))
	seg := segmenter(t)
	tests := []struct {
		name, query string
		want        string // the library paragraph to find first; "" for none
	}{
		{"copied sentence inside new text", "我们的调查从春天开始。与人工修建的排水设施相比，湿地依靠植物根系和微生物完成净化过程，运行成本低。调查一直持续到秋天。", prose[0]},
		{"english passage", "In our region, a single square metre of that mud can hold thousands of small worms, snails and shellfish, as the survey showed.", prose[3]},
		{"unrelated", "The committee approved the budget after a long debate about the new building and its cost.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := seg.Prepare(tt.query)
			got := l.Candidates(q.Grams, 0, -1, 2, 5)
			if tt.want == "" {
				if len(got) != 0 {
					t.Errorf("unrelated query found %v", got)
				}
				return
			}
			if len(got) == 0 {
				t.Fatal("nothing found")
			}
			ps, _ := l.Paragraphs(got[0].Doc)
			if ps[got[0].Para].Text != tt.want || got[0].Hits < 2 {
				t.Errorf("best candidate %+v is %q", got[0], ps[got[0].Para].Text)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Hits > got[i-1].Hits {
					t.Errorf("candidates not ranked by hits: %v", got)
				}
			}
		})
	}
}

// A gram in more than Options.MaxPostings library paragraphs is no evidence: a passage three documents
// share is not found by its grams when the limit is two, and adds no hits to a paragraph found by
// its other grams; under the limit it is found.
func TestCommonGramsAreNoEvidence(t *testing.T) { forBackends(t, testCommonGramsAreNoEvidence) }

func testCommonGramsAreNoEvidence(t *testing.T, open func(*Options) *Library) {
	src := t.TempDir()
	l := open(nil)
	add(t, l, AddOptions{},
		writeDoc(t, src, "a.txt", "A", prose[3], prose[0]),
		writeDoc(t, src, "b.txt", "B", prose[3], prose[1]),
		writeDoc(t, src, "c.txt", "C", prose[3], prose[2]),
		writeDoc(t, src, "d.txt", "D", prose[4]))
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	seg := segmenter(t)
	common, rare := seg.Prepare(prose[3]).Grams, seg.Prepare(prose[4]).Grams
	for _, tt := range []struct {
		limit      int
		commonHits int // candidates found by the shared passage alone
	}{{3, 3}, {2, 0}} {
		l := open(&Options{ReadOnly: true, MaxPostings: tt.limit})
		if got := l.Candidates(common, 0, -1, 1, 0); len(got) != tt.commonHits {
			t.Errorf("limit %d: the passage three documents share found %d paragraphs, want %d", tt.limit, len(got), tt.commonHits)
		}
		l.Close()
	}
	l = open(&Options{ReadOnly: true, MaxPostings: 2})
	defer l.Close()
	alone := l.Candidates(rare, 0, -1, 1, 0)
	both := l.Candidates(append(slices.Clone(rare), common...), 0, -1, 1, 0)
	if len(alone) != 1 || len(both) != 1 || both[0] != alone[0] {
		t.Errorf("with the shared passage beside it, a paragraph is found as %v, alone as %v", both, alone)
	}
}

// MinHash LSH finds documents that share most of their text and not unrelated ones; removed
// documents are not found.
func TestSimilarDocuments(t *testing.T) { forBackends(t, testSimilarDocuments) }

func testSimilarDocuments(t *testing.T, open func(*Options) *Library) {
	src := t.TempDir()
	orig := []string{prose[0], prose[1], prose[2]}
	edited := slices.Clone(orig)
	edited[1] = strings.Replace(edited[1], "安静地", "整齐地", 1)
	edited = append(edited, "本章小结：以上三个方面的变化说明，城市公共服务正在从单一功能走向综合功能。")
	l := open(nil)
	defer l.Close()
	res := add(t, l, AddOptions{},
		writeDoc(t, src, "orig.txt", "原文", orig...),
		writeDoc(t, src, "edited.txt", "改写", edited...),
		writeDoc(t, src, "other.txt", "Other", prose[3], prose[4], prose[5]))
	if len(res.Added) != 3 {
		t.Fatalf("added %d", len(res.Added))
	}
	a, b, c := res.Added[0].ID, res.Added[1].ID, res.Added[2].ID
	sA, sB, sC := docSig(t, l, a), docSig(t, l, b), docSig(t, l, c)
	if j := sA.Jaccard(&sB); j < 0.5 {
		t.Fatalf("edited copy has Jaccard %.2f with its original", j)
	}
	if got := l.SimilarDocuments(&sA); !slices.Contains(got, a) || !slices.Contains(got, b) || slices.Contains(got, c) {
		t.Errorf("SimilarDocuments(original) = %v, want %d and %d but not %d", got, a, b, c)
	}
	if got := l.SimilarDocuments(&sC); !slices.Equal(got, []uint64{c}) {
		t.Errorf("SimilarDocuments(other) = %v, want [%d]", got, c)
	}
	if err := l.Remove(b); err != nil {
		t.Fatal(err)
	}
	if got := l.SimilarDocuments(&sA); slices.Contains(got, b) {
		t.Errorf("removed document %d still found: %v", b, got)
	}
}

// Boilerplate is the share of a paragraph's grams held by at least minDocs documents.
func TestBoilerplate(t *testing.T) { forBackends(t, testBoilerplate) }

func testBoilerplate(t *testing.T, open func(*Options) *Library) {
	src := t.TempDir()
	decl := "学位论文原创性声明：本人郑重声明，所呈交的学位论文是本人在导师指导下独立进行研究工作所取得的成果。除文中已经注明引用的内容外，本论文不含任何其他个人或集体已经发表或撰写过的作品成果。"
	l := open(nil)
	defer l.Close()
	res := add(t, l, AddOptions{},
		writeDoc(t, src, "a.txt", "A", decl, prose[0]),
		writeDoc(t, src, "b.txt", "B", decl, prose[1]),
		writeDoc(t, src, "c.txt", "C", decl, prose[2]),
		writeDoc(t, src, "d.txt", "D", prose[3]))
	seg := segmenter(t)
	grams := seg.Prepare(decl).Grams
	if got := l.Boilerplate(grams, 3, false); got < 0.9 {
		t.Errorf("declaration in 3 documents: boilerplate share %.2f at 3 documents", got)
	}
	if got := l.Boilerplate(grams, 4, false); got > 0.1 {
		t.Errorf("declaration in 3 documents: boilerplate share %.2f at 4 documents", got)
	}
	if got := l.Boilerplate(seg.Prepare(prose[0]).Grams, 2, false); got > 0.1 {
		t.Errorf("a paragraph of one document: boilerplate share %.2f", got)
	}
	if err := l.Remove(res.Added[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := l.Boilerplate(grams, 3, false); got > 0.1 {
		t.Errorf("after removing one of the 3 documents the share is still %.2f", got)
	}
}

// The in-memory part's tables are made by the first query; documents added after it must be in
// them exactly as if the tables had been made afterwards.
func TestMemTablesFollowAdds(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	doc := func() (similarity.Signature, []fingerprint) {
		var sig similarity.Signature
		for i := range sig {
			sig[i] = r.Uint32() % 8 // few values, so that documents share band keys
		}
		fps := make([]fingerprint, 1+r.Intn(4))
		for i := range fps {
			fps[i].SimHash = r.Uint64() & 0xffff_0000_0000_00ff
			for j := r.Intn(6); j > 0; j-- {
				fps[i].Grams = append(fps[i].Grams, r.Uint32()%20)
			}
		}
		return sig, fps
	}
	later := newIndex(nil)
	early := newIndex(nil)
	for id := uint64(1); id <= 30; id++ {
		sig, fps := doc()
		later.add(id, sig, fps)
		early.add(id, sig, fps)
		if id == 10 {
			early.mem.tables() // a query while documents are still coming in
		}
	}
	got, want := early.mem.tab.Load(), later.mem.tables()
	if got == nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("tables kept up by add differ from tables made at once:\n%+v\n%+v", got, want)
	}
	if len(want.grams) == 0 || len(want.blocks[0]) == 0 || len(want.bands[0]) == 0 {
		t.Fatalf("test documents fill no tables: %+v", want)
	}
}

// Candidates are ranked by the rarity of the grams they share: a paragraph sharing a short run of
// words no other paragraph has ranks above many that share more of a field's common word pairs.
func TestCandidatesRankRareGramsFirst(t *testing.T) { forBackends(t, testCandidatesRankRareGramsFirst) }

func testCandidatesRankRareGramsFirst(t *testing.T, open func(*Options) *Library) {
	src := t.TempDir()
	l := open(nil)
	defer l.Close()
	common := "软件包管理工具可以安装和升级系统中的程序，配置文件保存在用户的主目录下"
	var field []string
	for i := 0; i < 300; i++ {
		field = append(field, fmt.Sprintf("%s %d. %s。", prose[3+i%2], i, common))
	}
	add(t, l, AddOptions{},
		writeDoc(t, src, "field.txt", "Field", field...),
		writeDoc(t, src, "source.txt", "Source", prose[2]))
	seg := segmenter(t)
	run := string([]rune(prose[2])[:24]) // the copied run
	query := seg.Prepare(run + "。" + common + "。").Grams
	all := l.Candidates(query, 0, -1, 1, 0)
	var source *Candidate
	more := 0
	for i, c := range all {
		if c.Doc == 2 {
			source = &all[i]
		}
	}
	if source == nil {
		t.Fatalf("the source is not a candidate at all: %v", all)
	}
	for _, c := range all {
		if c.Doc == 1 && c.Hits > source.Hits {
			more++
		}
	}
	if more < 5 {
		t.Fatalf("only %d paragraphs share more grams than the source (%d): the test needs the source outnumbered", more, source.Hits)
	}
	top := l.Candidates(query, 0, -1, 1, 5)
	if !slices.ContainsFunc(top, func(c Candidate) bool { return c.Doc == 2 }) {
		t.Errorf("the source (%d hits, score %d) is not among the best 5 of %d candidates: %v", source.Hits, source.Score, len(all), top)
	}
}

// Candidates gives what a plain reading of its rules gives, paragraph by paragraph: every live
// paragraph sharing at least minHits of the query's grams held by no more than MaxPostings
// paragraphs (removed documents' entries still counted until a merge drops them), or within
// maxHamming (at most 3, which the SimHash blocks guarantee), scored by gramWeight, ordered by better, the best limit of them. The library spans
// several segments and the in-memory part, with documents removed from both.
func TestCandidatesMatchPlainCount(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	opts := &Options{FlushDocs: 4, MaxPostings: 6}
	l := openLib(t, dir, opts)
	defer l.Close()
	rng := rand.New(rand.NewSource(7))
	var sentences []string
	for _, p := range prose {
		for _, s := range strings.SplitAfter(p, "。") {
			if s != "" {
				sentences = append(sentences, s)
			}
		}
	}
	mix := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(sentences[rng.Intn(len(sentences))])
		}
		return b.String()
	}
	var paths []string
	for i := range 13 {
		paths = append(paths, writeDoc(t, src, fmt.Sprintf("d%02d.txt", i), fmt.Sprintf("Doc %d", i), mix(2), mix(3), mix(1)))
	}
	add(t, l, AddOptions{}, paths[:10]...)
	add(t, l, AddOptions{}, paths[10:]...) // a second segment
	f := folderOf(l)
	// What the index holds of each paragraph: its SimHash and its stored tokens' winnowed grams.
	fps := map[uint64][]fingerprint{}
	for _, d := range list(t, l) {
		ps, err := l.Paragraphs(d.ID)
		if err != nil {
			t.Fatal(err)
		}
		for n, p := range ps {
			fps[d.ID] = append(fps[d.ID], fingerprint{SimHash: l.SimHash(ParaRef{Doc: d.ID, Para: n}), Grams: gramsOf(p)})
		}
	}
	if len(f.idx.segs) < 2 {
		t.Fatalf("%d segments: the test needs several", len(f.idx.segs))
	}
	// And two documents in the in-memory part, as a crashed import leaves them for Open to index.
	seg := segmenter(t)
	for _, id := range []uint64{100, 101} {
		for range 3 {
			pr := seg.Prepare(mix(2))
			fps[id] = append(fps[id], fingerprint{SimHash: pr.SimHash, Grams: similarity.Winnow(pr.Grams, winnowWindow)})
		}
		f.idx.add(id, similarity.Signature{}, fps[id])
	}
	if err := l.Remove(2); err != nil {
		t.Fatal(err)
	}
	f.idx.remove(101)
	removed := func(id uint64) bool { return id == 2 || id == 101 }
	pruned, sieved, sieveMissed, retried := prunedQueries.Load(), sievedQueries.Load(), sieveFailed.Load(), sieveRetried.Load()
	// This library weighs every gram lightly (MaxPostings 6: 3 at most): a sieve of grams under 2
	// finds enough good paragraphs to answer some queries, one of grams under 5 none; one under 3
	// fails and is sieved again, lighter (TestCandidatesSievedAgain has one answered so).
	defer func(w int) { sieveWeight = w }(sieveWeight)
	for q := range 600 {
		sieveWeight = []int{2, 5, 3}[q%3]
		pr := seg.Prepare(mix(1 + q/2%4))
		uniq := similarity.SortedSet(slices.Clone(pr.Grams))
		held := map[uint32]int{}
		for _, ps := range fps {
			for _, p := range ps {
				for _, g := range p.Grams {
					if _, ok := slices.BinarySearch(uniq, g); ok {
						held[g]++
					}
				}
			}
		}
		for _, c := range []struct{ hamming, minHits, limit int }{{-1, 1, 0}, {3, 1, 12}, {3, 2, 3}, {0, 1, 5}, {-1, 3, 1}} {
			var want []Candidate
			for id, ps := range fps {
				if removed(id) {
					continue
				}
				for n, p := range ps {
					cand := Candidate{ParaRef: ParaRef{Doc: id, Para: n}, Hamming: similarity.Hamming(pr.SimHash, p.SimHash)}
					for _, g := range p.Grams {
						if _, ok := slices.BinarySearch(uniq, g); ok && held[g] <= opts.MaxPostings {
							cand.Hits++
							cand.Score += int(gramWeight(held[g], opts.MaxPostings))
						}
					}
					if cand.Hits >= c.minHits || c.hamming >= 0 && cand.Hamming <= c.hamming {
						want = append(want, cand)
					}
				}
			}
			slices.SortFunc(want, func(a, b Candidate) int {
				if better(a, b) {
					return -1
				}
				return 1
			})
			if c.limit > 0 && len(want) > c.limit {
				want = want[:c.limit]
			}
			got := l.Candidates(pr.Grams, pr.SimHash, c.hamming, c.minHits, c.limit)
			if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("query %d, %+v:\n got %v\nwant %v", q, c, got, want)
			}
		}
	}
	t.Logf("%d of the queries left common grams out (prune); %d sieves, %d of them failed (sieved again or counted), %d answered sieving again", prunedQueries.Load()-pruned,
		sievedQueries.Load()-sieved, sieveFailed.Load()-sieveMissed, sieveRetried.Load()-retried)
	if prunedQueries.Load() == pruned {
		t.Error("no query left common grams out: prune was not tried")
	}
	if answered := sievedQueries.Load() - sieved - (sieveFailed.Load() - sieveMissed); answered == 0 || sieveFailed.Load() == sieveMissed {
		t.Error("sieve did not answer a query, or never had to count again: both ways are not tried")
	}
}

// A paragraph that only the common grams a query counts last bring up to the best scores is found:
// prune keeps every paragraph whose score without them is within their weight of the bound. It
// has one hit of a light gram, which sieve leaves out: the query is counted again.
func TestCandidatesPruneBoundary(t *testing.T) {
	l := openLib(t, t.TempDir(), &Options{MaxPostings: 1000})
	defer l.Close()
	f := folderOf(l)
	const (
		rareA  = 1000 + iota // 12 paragraphs: weight bits.Len(1000/12) = 7
		rareB                // 400 paragraphs: weight 2
		common               // common..common+4: 600 paragraphs each, weight 1
	)
	commons := []uint32{common, common + 1, common + 2, common + 3, common + 4}
	id := uint64(1)
	para := func(sim uint64, grams ...uint32) {
		f.idx.add(id, similarity.Signature{}, []fingerprint{{SimHash: sim, Grams: grams}})
		id++
	}
	far := ^uint64(0) // SimHash 64 bits from the query's 0: the boundary paragraph wins ties
	for range 12 {
		para(far, rareA)
	}
	for range 399 {
		para(far, rareB)
	}
	for range 600 {
		para(far, commons...)
	}
	boundary := id
	para(0, append([]uint32{rareB}, commons...)...) // 2 without the common grams, 7 with them
	query := append([]uint32{rareA, rareB}, commons...)
	pruned, sieveMissed := prunedQueries.Load(), sieveFailed.Load()
	got := l.Candidates(query, 0, -1, 1, 12)
	if prunedQueries.Load() == pruned {
		t.Fatal("the query did not leave the common grams out")
	}
	if sieveFailed.Load() == sieveMissed {
		t.Error("sieve answered a query whose best scores (7) do not exceed what it left out (2 + 5)")
	}
	if len(got) != 12 || got[0].Doc != boundary || got[0].Score != 7 || got[0].Hits != 6 {
		t.Fatalf("got %d candidates, first %+v; want the boundary paragraph (document %d) first, score 7, 6 hits", len(got), got[0], boundary)
	}
}

// A removed document's paragraphs, still in the index, among a query's best scores do not keep
// prune from answering: its bound is lowered past them to one that enough live paragraphs reach.
// With the bound of every paragraph touched, one removed source among the best twelve made the
// query count every posting of its common grams too.
func TestCandidatesPruneRemoved(t *testing.T) {
	l := openLib(t, t.TempDir(), &Options{MaxPostings: 1000})
	defer l.Close()
	f := folderOf(l)
	const (
		rareA  = 1000 + iota // the removed four and the live eight: 12 paragraphs, weight 7
		rareB                // the removed four: weight 8
		rareC                // ten others: weight 7
		rareD                // the live eight: weight 7
		common               // all of them and 200 more: weight 3, counted last (prune)
	)
	id := uint64(1)
	para := func(grams ...uint32) uint64 {
		f.idx.add(id, similarity.Signature{}, []fingerprint{{SimHash: ^uint64(0), Grams: grams}})
		id++
		return id - 1
	}
	for range 4 { // the best, 15 before the common gram, removed
		f.idx.remove(para(rareA, rareB, common))
	}
	var want []Candidate
	for range 8 { // 14, then 17
		want = append(want, Candidate{ParaRef: ParaRef{Doc: para(rareA, rareD, common)}, Hits: 3, Score: 17, Hamming: 64})
	}
	for range 10 { // 7, then 10
		if d := para(rareC, common); len(want) < 12 {
			want = append(want, Candidate{ParaRef: ParaRef{Doc: d}, Hits: 2, Score: 10, Hamming: 64})
		}
	}
	for range 200 {
		para(common)
	}
	pruned := prunedQueries.Load()
	got := l.Candidates([]uint32{rareA, rareB, rareC, rareD, common}, 0, -1, 1, 12)
	if prunedQueries.Load() != pruned+1 {
		t.Error("the query counted its common gram for every paragraph: prune did not answer it")
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

// A query whose best scores the first sieve cannot vouch for is sieved again with the bound that
// sieve found, and answered: the same candidates as a plain count.
func TestCandidatesSievedAgain(t *testing.T) {
	l := openLib(t, t.TempDir(), &Options{MaxPostings: 1000})
	defer l.Close()
	f := folderOf(l)
	const (
		common = 1000 + iota // 130 paragraphs: weight bits.Len(1000/130) = 3, counted last (prune)
		rareG                // 100 paragraphs: weight 4
		rareK                // 100 paragraphs: weight 4
	)
	id := uint64(1)
	para := func(grams ...uint32) {
		f.idx.add(id, similarity.Signature{}, []fingerprint{{SimHash: ^uint64(0), Grams: grams}})
		id++
	}
	first := id
	for range 12 { // the best: 8 by two hits, 11 with the common gram
		para(rareG, rareK, common)
	}
	for range 88 {
		para(rareG)
		para(rareK)
	}
	for range 118 {
		para(common)
	}
	// Sieving the grams under 7 holds the twelve (hit twice), scoring 8, not above what it left out
	// (3 for the common gram, 6 for one hit): it fails. Under 8-3 = 5 it leaves out 4 at most.
	defer func(w int) { sieveWeight = w }(sieveWeight)
	sieveWeight = 7
	failed, retried := sieveFailed.Load(), sieveRetried.Load()
	got := l.Candidates([]uint32{common, rareG, rareK}, 0, -1, 2, 12)
	if sieveFailed.Load() != failed+1 || sieveRetried.Load() != retried+1 {
		t.Fatalf("%d sieves failed, %d answered sieving again; want 1 and 1", sieveFailed.Load()-failed, sieveRetried.Load()-retried)
	}
	if len(got) != 12 {
		t.Fatalf("%d candidates, want 12", len(got))
	}
	for i, c := range got {
		if want := first + uint64(i); c.Doc != want || c.Score != 11 || c.Hits != 3 {
			t.Errorf("candidate %d: %+v, want document %d scoring 11 with 3 hits", i, c, want)
		}
	}
}

// searchFrom finds what slices.BinarySearch finds, from any guess.
func TestSearchFrom(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := range 2000 {
		keys := make([]uint32, rng.Intn(300))
		for i := range keys {
			keys[i] = uint32(rng.Intn(1000))
		}
		keys = similarity.SortedSet(keys)
		for range 20 {
			g := uint32(rng.Intn(1010))
			guess := rng.Intn(len(keys)+20) - 10
			wi, wok := slices.BinarySearch(keys, g)
			if i, ok := searchFrom(keys, g, guess); i != wi || ok != wok {
				t.Fatalf("trial %d: %d in %v from %d: %d %v, want %d %v", trial, g, keys, guess, i, ok, wi, wok)
			}
		}
	}
}

// Candidates leaves out a gram held by more than MaxPostings paragraphs whether the segments' lists
// of frequent grams already show it over the limit (they are not looked up then) or only its
// postings do. 52 documents share a paragraph: 40 of them in a segment that lists its grams, 12 in
// one too small to list them (frequentMin: 16).
func TestCandidatesSkipListedStockPhrases(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	l := openLib(t, dir, nil)
	every := prose[4]
	var paths []string
	for i := range 52 {
		paths = append(paths, writeDoc(t, src, fmt.Sprintf("d%02d.txt", i), fmt.Sprintf("Doc %d", i), every, fmt.Sprintf("%s第%d段。", prose[i%4], i)))
	}
	add(t, l, AddOptions{}, paths[:40]...)
	add(t, l, AddOptions{}, paths[40:]...)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	seg := segmenter(t)
	common := seg.Prepare(every).Grams
	rare := seg.Prepare(fmt.Sprintf("%s第%d段。", prose[1], 5)).Grams
	for _, tt := range []struct {
		limit, found int
		early        bool // the lists alone put the shared grams over the limit
	}{{39, 0, true}, {45, 0, false}, {52, 52, false}} {
		l := openLib(t, dir, &Options{ReadOnly: true, MaxPostings: tt.limit})
		f := folderOf(l)
		if len(f.idx.segs) != 2 {
			t.Fatalf("%d segments, want 2", len(f.idx.segs))
		}
		mem := f.idx.mem.tables()
		lists := make([][]uint32, len(f.idx.segs))
		early := 0
		for _, g := range similarity.Winnow(common, winnowWindow) {
			least, n := f.idx.postingsAtLeast(g, mem), f.idx.postings(g, mem, lists)
			if least > n || n < 52 {
				t.Fatalf("gram %x: %d postings, at least %d by the lists", g, n, least)
			}
			if least > tt.limit {
				early++
			}
		}
		if (early > 0) != tt.early {
			t.Errorf("limit %d: %d of the shared grams over it by the lists alone", tt.limit, early)
		}
		if got := l.Candidates(common, 0, -1, 1, 0); len(got) != tt.found {
			t.Errorf("limit %d: the shared paragraph found %d paragraphs, want %d", tt.limit, len(got), tt.found)
		}
		if tt.found == 0 {
			alone := l.Candidates(rare, 0, -1, 1, 0)
			both := l.Candidates(append(slices.Clone(rare), common...), 0, -1, 1, 0)
			if len(alone) == 0 || !reflect.DeepEqual(alone, both) {
				t.Errorf("limit %d: with the shared paragraph beside it, a paragraph finds %v, alone %v", tt.limit, both, alone)
			}
		}
		l.Close()
	}
}

// Boilerplate answers the same with the segments' lists of frequent grams as without them, and the
// lists do spare lookups: a gram they leave out is bounded below the postings it has, never above.
// 80 documents in two segments share one paragraph (every document) and another (a third of them);
// minDocs runs from 2 to past the documents' number.
func TestBoilerplateFrequentGrams(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	opts := &Options{FlushDocs: 8}
	l := openLib(t, dir, opts)
	every, third := prose[4], prose[5]
	var paths []string
	for i := range 80 {
		body := []string{every, fmt.Sprintf("%s第%d段。", prose[i%4], i)}
		if i%3 == 0 {
			body = append(body, third)
		}
		paths = append(paths, writeDoc(t, src, fmt.Sprintf("d%02d.txt", i), fmt.Sprintf("Doc %d", i), body...))
	}
	// Segments of 64 and 16 documents: the first import leaves its own in one, the second is too
	// small a part of the library to be merged with it.
	add(t, l, AddOptions{}, paths[:64]...)
	add(t, l, AddOptions{}, paths[64:]...)
	seg := segmenter(t)
	var queries [][]uint32
	for _, p := range append([]string{every, third}, prose...) {
		queries = append(queries, seg.Prepare(p).Grams)
	}
	shares := func(l *Library) []float64 {
		var out []float64
		for _, q := range queries {
			for minDocs := 2; minDocs <= 84; minDocs += 2 {
				out = append(out, l.Boilerplate(q, minDocs, false))
			}
		}
		return out
	}
	withLists := shares(l)
	f := folderOf(l)
	if len(f.idx.segs) < 2 {
		t.Fatalf("%d segments: the test needs several", len(f.idx.segs))
	}
	listed, spared := 0, 0
	mem := f.idx.mem.tables()
	lists := make([][]uint32, len(f.idx.segs))
	for _, q := range queries {
		for _, g := range similarity.Winnow(q, winnowWindow) {
			bound, n := f.idx.postingsAtMost(g, mem), f.idx.postings(g, mem, lists)
			if bound < n {
				t.Fatalf("gram %x: bound %d below its %d postings", g, bound, n)
			}
			if bound == n && n >= 16 {
				listed++
			}
			if bound < 80 {
				spared++
			}
		}
	}
	if listed == 0 || spared == 0 {
		t.Errorf("%d grams listed as frequent, %d bounded below 80 documents: the lists were not tried", listed, spared)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// Warm makes the lists before any Boilerplate, which then answers the same; once the library
	// is closed it does nothing.
	l = openLib(t, dir, opts)
	l.Warm()
	if folderOf(l).idx.freq.listed == nil {
		t.Error("Warm made no list of frequent grams")
	}
	if warmed := shares(l); !slices.Equal(withLists, warmed) {
		t.Errorf("shares with the lists made by Warm\n%v\nmade on first use\n%v", warmed, withLists)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l.Warm()
	// The same library without the lists: each segment's is made empty before its first use.
	l = openLib(t, dir, opts)
	defer l.Close()
	for _, s := range folderOf(l).idx.segs {
		s.freq.once.Do(func() {})
	}
	if without := shares(l); !slices.Equal(withLists, without) {
		t.Errorf("shares with the lists of frequent grams\n%v\nwithout\n%v", withLists, without)
	}
}

// occurrences answers as a binary search over the rest of the list does, from every place, for
// values below, inside (once or repeated) and above a list's.
func TestOccurrences(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	for range 300 {
		list := make([]uint32, r.Intn(200))
		v := uint32(0)
		for i := range list {
			v += uint32(r.Intn(3))
			list[i] = v
		}
		for from := 0; from <= len(list); from++ {
			for range 4 {
				x := uint32(r.Intn(int(v) + 3))
				wantI, ok := slices.BinarySearch(list[from:], x)
				wantI += from
				wantN := 0
				for ok && wantI+wantN < len(list) && list[wantI+wantN] == x {
					wantN++
				}
				if n, i := occurrences(list, x, from); n != wantN || i != wantI {
					t.Fatalf("%v from %d, %d: (%d, %d), want (%d, %d)", list, from, x, n, i, wantN, wantI)
				}
			}
		}
	}
}
