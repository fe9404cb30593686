package compare

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"thesischeck/extract"
	"thesischeck/internal/synth"
	"thesischeck/library"
)

// The acceptance test: in generated classes of real prose where known pairs copy 30–60 % with edits,
// every copying pair is flagged and no other pair is, and the prompt every student quotes is
// recognised as common text and counted against no one.
func TestClassesFlagCopyingPairsOnly(t *testing.T) {
	copies := []copyPlan{{Source: 0, Copier: 1, Share: 0.30}, {Source: 2, Copier: 3, Share: 0.40},
		{Source: 4, Copier: 5, Share: 0.50}, {Source: 6, Copier: 7, Share: 0.60}}
	tests := []classSpec{
		{lang: "en", docs: 14, chars: 3200, copies: copies},
		{lang: "zh", docs: 14, chars: 1900, copies: copies},
	}
	for _, spec := range tests {
		t.Run(spec.lang, func(t *testing.T) {
			dir := makeClass(t, spec, 1)
			res, err := Run(context.Background(), []string{dir}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Documents) != spec.docs || len(res.Failed()) != 0 {
				t.Fatalf("%d documents, %d failed; want %d read", len(res.Documents), len(res.Failed()), spec.docs)
			}
			num := docIndex(t, res)
			want := map[[2]int]float64{}
			for _, c := range copies {
				want[[2]int{min(c.Source, c.Copier), max(c.Source, c.Copier)}] = c.Share
			}
			found := map[[2]int]bool{}
			for _, p := range res.Pairs {
				k := [2]int{min(num[p.A], num[p.B]), max(num[p.A], num[p.B])}
				share, copying := want[k]
				switch {
				case copying:
					t.Logf("copying pair %v (%.0f %% copied): similarity %.3f, jaccard %.3f, %d shared chars, %d fragments",
						k, share*100, p.Similarity, p.Jaccard, p.SharedChars, len(p.Fragments))
					found[k] = p.Flagged
				case p.Flagged:
					t.Errorf("pair %v flagged (similarity %.3f) but nobody copied", k, p.Similarity)
				default:
					t.Logf("other pair %v shares %d chars (similarity %.3f)", k, p.SharedChars, p.Similarity)
				}
			}
			for k := range want {
				if !found[k] {
					t.Errorf("copying pair %v not flagged", k)
				}
			}
			checkPromptCommon(t, spec, res)
		})
	}
}

// checkPromptCommon checks that the prompt is listed once as common to the whole class, cut out of
// every document's compared characters, and in no passage.
func checkPromptCommon(t *testing.T, spec classSpec, res *Result) {
	t.Helper()
	prompt := []rune(prompts[spec.lang])
	var listed *Common
	for i := range res.Common {
		if len([]rune(res.Common[i].Text)) >= len(prompt)*8/10 && strings.Contains(prompts[spec.lang], res.Common[i].Text[:len(res.Common[i].Text)/2]) {
			listed = &res.Common[i]
		}
	}
	if listed == nil {
		t.Fatalf("prompt not among the common passages %+v", res.Common)
	}
	if listed.Documents != spec.docs {
		t.Errorf("prompt found in %d documents, want %d", listed.Documents, spec.docs)
	}
	for _, d := range res.Documents {
		if d.CommonChars < len(prompt)*8/10 {
			t.Errorf("%s: %d common characters, want most of the prompt's %d", d.Path, d.CommonChars, len(prompt))
		}
		if d.Paragraphs[0].Text != prompts[spec.lang] {
			t.Fatalf("%s: first paragraph is not the prompt", d.Path)
		}
	}
	for _, p := range res.Pairs {
		for _, f := range p.Fragments {
			if f.APara == 0 || f.BPara == 0 {
				t.Errorf("pair %d–%d: a fragment %+v lies in the prompt", p.A, p.B, f)
			}
		}
	}
}

// LSH alone finds only some of the edited partial copies; the shared-run pass is what makes every
// copying pair a candidate. This test measures both, and fails if the second pass stops being needed
// or stops finding them all.
func TestCandidatePasses(t *testing.T) {
	copies := []copyPlan{{Source: 0, Copier: 1, Share: 0.30}, {Source: 2, Copier: 3, Share: 0.30},
		{Source: 4, Copier: 5, Share: 0.35}, {Source: 6, Copier: 7, Share: 0.35}, {Source: 8, Copier: 9, Share: 0.30}}
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			spec := classSpec{lang: lang, docs: 12, chars: map[string]int{"en": 3200, "zh": 1900}[lang], copies: copies}
			dir := makeClass(t, spec, 2)
			o := (*Options)(nil).withDefaults()
			res := &Result{}
			docs, err := read(context.Background(), []string{dir}, o, res, func(Stage, int, int) {})
			if err != nil {
				t.Fatal(err)
			}
			res.CommonDocuments = 6
			if err := markCommon(context.Background(), docs, nil, nil, res, o); err != nil {
				t.Fatal(err)
			}
			num := docIndex(t, res)
			lsh, idx, all := 0, 0, 0
			ri, docRuns := gramRuns(docs)
			cands, err := candidates(context.Background(), docs, o.Threshold, res.CommonDocuments, ri, docRuns)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cands {
				all++
				a, b := num[docs[c.a].idx], num[docs[c.b].idx]
				if b != a+1 || a%2 != 0 {
					continue
				}
				if c.byLSH {
					lsh++
				}
				if c.byIdx {
					idx++
				}
			}
			t.Logf("%s: of %d copying pairs, LSH finds %d, the shared-run count %d; %d candidates of %d pairs",
				lang, len(copies), lsh, idx, all, spec.docs*(spec.docs-1)/2)
			if idx != len(copies) {
				t.Errorf("shared-run count found %d of %d copying pairs", idx, len(copies))
			}
			if all > spec.docs*(spec.docs-1)/4 {
				t.Errorf("%d candidates: more than half the pairs", all)
			}
		})
	}
}

func TestUnreadableFilesListed(t *testing.T) {
	dir := makeClass(t, classSpec{lang: "en", docs: 4, chars: 2000, copies: []copyPlan{{Source: 0, Copier: 1, Share: 0.5}}}, 3)
	bad := filepath.Join(dir, "broken.pdf")
	if err := os.WriteFile(bad, []byte("%PDF-1.4\nnot really a pdf"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.docx")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.txt")
	res, err := Run(context.Background(), []string{dir, missing}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]string{}
	for _, i := range res.Failed() {
		failed[res.Documents[i].Path] = res.Documents[i].Error
		if d := &res.Documents[i]; d.Err() == nil || d.Err().Error() != d.Error {
			t.Errorf("%s: Err() %v, Error %q", d.Path, d.Err(), d.Error)
		}
		// The reader's error, whose kind the app names in its language.
		if d := &res.Documents[i]; d.Path == bad && !errors.Is(d.Err(), extract.ErrCorrupt) {
			t.Errorf("%s: %v is not extract.ErrCorrupt", d.Path, d.Err())
		}
	}
	for _, p := range []string{bad, empty, missing} {
		msg, ok := failed[p]
		if !ok {
			t.Errorf("%s not listed as failed (failed: %v)", p, failed)
			continue
		}
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not name the file", msg)
		}
	}
	if len(res.Flagged()) != 1 {
		t.Errorf("%d flagged pairs among the readable files, want 1", len(res.Flagged()))
	}
	for _, p := range res.Pairs {
		if res.Documents[p.A].Error != "" || res.Documents[p.B].Error != "" {
			t.Errorf("pair %d–%d involves an unreadable file", p.A, p.B)
		}
	}
}

// A library's template documents are left out like text the class shares, even when only two
// documents use them.
func TestLibraryTemplateLeftOut(t *testing.T) {
	const declaration = "Declaration of originality: I declare that this essay is my own work, that every passage taken from the work of others is marked as a quotation and cited, and that it has not been submitted for any other course or degree at this or any other university."
	dir := makeClass(t, classSpec{lang: "en", docs: 6, chars: 1000}, 4)
	for _, name := range []string{"student01.txt", "student04.txt"} {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(data, "\n"+declaration+"\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tmplFile := filepath.Join(t.TempDir(), "declaration.txt")
	if err := os.WriteFile(tmplFile, []byte(declaration+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if _, err := lib.AddFiles(context.Background(), []string{tmplFile}, library.AddOptions{Template: true}, nil); err != nil {
		t.Fatal(err)
	}

	without, err := Run(context.Background(), []string{dir}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := without.Flagged(); len(f) != 1 {
		t.Fatalf("without the library: %d flagged pairs, want the two documents sharing the declaration", len(f))
	}
	with, err := Run(context.Background(), []string{dir}, &Options{Library: lib}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := with.Flagged(); len(f) != 0 {
		t.Errorf("with the template in the library: %d flagged pairs, want none: %+v", len(f), f)
	}
	found := false
	for _, c := range with.Common {
		if c.Template == "declaration" && c.Documents == 2 {
			found = true
		}
	}
	if !found {
		t.Errorf("declaration not listed as a template passage in 2 documents: %+v", with.Common)
	}
}

func TestOrderAndClusters(t *testing.T) {
	docs := make([]Document, 7)
	docs[5].Error = "unreadable"
	r := &Result{Documents: docs, Pairs: []Pair{
		{A: 1, B: 4, Similarity: 0.6}, {A: 0, B: 3, Similarity: 0.5}, {A: 4, B: 6, Similarity: 0.3},
		{A: 3, B: 4, Similarity: 0.02},
	}}
	r.SetThreshold(0.15)
	if want := [][]int{{1, 4, 6}, {0, 3}}; !reflect.DeepEqual(r.Clusters, want) {
		t.Errorf("clusters %v, want %v", r.Clusters, want)
	}
	if got := r.ClusterOf(); !reflect.DeepEqual(got, []int{1, 0, -1, 1, 0, -1, 0}) {
		t.Errorf("ClusterOf %v", got)
	}
	if p := r.PairLookup()(4, 1); p == nil || p.Similarity != 0.6 {
		t.Errorf("lookup of 4, 1: %+v", p)
	}
	if p := r.PairLookup()(0, 1); p != nil {
		t.Errorf("lookup of a pair sharing nothing: %+v", p)
	}
	order := r.Order()
	pos := map[int]int{}
	for i, d := range order {
		pos[d] = i
	}
	if len(order) != 7 || len(pos) != 7 {
		t.Fatalf("order %v is not a permutation of 7 documents", order)
	}
	// Every cluster stands together, and documents sharing nothing come last.
	for _, c := range r.Clusters {
		lo, hi := len(order), -1
		for _, d := range c {
			lo, hi = min(lo, pos[d]), max(hi, pos[d])
		}
		if hi-lo+1 != len(c) {
			t.Errorf("order %v splits cluster %v", order, c)
		}
	}
	if pos[2] < 5 || pos[5] < 5 {
		t.Errorf("order %v: documents sharing nothing should come last", order)
	}
	// A lower threshold joins the two groups through the weak pair; a higher one splits the ring.
	r.SetThreshold(0.01)
	if want := [][]int{{0, 1, 3, 4, 6}}; !reflect.DeepEqual(r.Clusters, want) {
		t.Errorf("at 1 %%: clusters %v, want %v", r.Clusters, want)
	}
	r.SetThreshold(0.55)
	if want := [][]int{{1, 4}}; !reflect.DeepEqual(r.Clusters, want) || r.Pairs[1].Flagged {
		t.Errorf("at 55 %%: clusters %v, want %v", r.Clusters, want)
	}
}

// Two submissions of the same sentence repeated thousands of times are identical, and aligning them
// must not cost time quadratic in their length (each bigram repeats 2,000 times).
func TestRepetitiveDocuments(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("The committee approved the new budget for the library after a long debate. ", 2000)
	for _, name := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(context.Background(), []string{dir}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pairs) != 1 || res.Pairs[0].Similarity < 0.99 || !res.Pairs[0].Flagged {
		t.Errorf("pairs %+v, want the two documents flagged as identical", res.Pairs)
	}
}

// A small comparison, read whole and segmented with a segmenter made for its texts, gives every
// document the words the one-by-one reading of a large comparison gives it (jieba's whole
// dictionary for Chinese, the Latin segmenter for text without it); files that fail or are skipped
// come out the same too.
func TestReadSmallMatchesEach(t *testing.T) {
	zh := makeClass(t, classSpec{lang: "zh", docs: 4, chars: 1500, copies: []copyPlan{{Source: 0, Copier: 1, Share: 0.4}}}, 5)
	en := makeClass(t, classSpec{lang: "en", docs: 2, chars: 2000}, 6)
	var srcs []source
	for _, dir := range []string{zh, en} {
		files, _ := library.Files([]string{dir})
		for _, f := range files {
			srcs = append(srcs, source{path: f, name: filepath.Base(f)})
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.docx")
	os.WriteFile(bad, []byte("PK\x03\x04 not a zip"), 0o644)
	srcs = append(srcs, source{path: bad, name: "bad.docx"})
	if len(srcs) > smallComparison {
		t.Fatalf("%d documents: not a small comparison", len(srcs))
	}
	o := (*Options)(nil).withDefaults()
	read := func(f func(context.Context, []source, settings, *Result, []*doc, Progress) error) ([]Document, []*doc) {
		res := &Result{Documents: make([]Document, len(srcs))}
		parsed := make([]*doc, len(srcs))
		if err := f(context.Background(), srcs, o, res, parsed, func(Stage, int, int) {}); err != nil {
			t.Fatal(err)
		}
		return res.Documents, parsed
	}
	smallDocs, small := read(readSmall)
	eachDocs, each := read(readEach)
	if !reflect.DeepEqual(smallDocs, eachDocs) {
		t.Fatal("the documents of a small comparison differ from those read one by one")
	}
	words := 0
	for i := range srcs {
		if (small[i] == nil) != (each[i] == nil) {
			t.Fatalf("%s: read in one way and not the other", srcs[i].name)
		}
		if small[i] == nil {
			continue
		}
		if !reflect.DeepEqual(small[i].toks, each[i].toks) || !reflect.DeepEqual(small[i].para, each[i].para) {
			t.Fatalf("%s: the words of a small comparison differ from those read one by one", srcs[i].name)
		}
		words += len(small[i].toks)
	}
	if each[len(srcs)-1] != nil || eachDocs[len(srcs)-1].Error == "" {
		t.Fatal("the damaged file was compared")
	}
	if words < 2000 {
		t.Fatalf("only %d words read", words)
	}
	for i, want := range []bool{true, false} { // a Chinese document needs jieba, an English one not
		if got := len(load(context.Background(), srcs[[]int{0, 4}[i]], o).jiebaTexts()) > 0; got != want {
			t.Errorf("%s: needs jieba %v, want %v", srcs[[]int{0, 4}[i]].name, got, want)
		}
	}
}

// A comparison with no pair to compare says so (its "0 flagged" is no finding), and one with a pair
// does not: two readable submissions, or one and an earlier year's.
func TestNothingCompared(t *testing.T) {
	read, failed, skipped, old := Document{}, Document{Error: "damaged"}, Document{Skipped: "a report"}, Document{Old: true}
	tests := []struct {
		docs []Document
		want string // "" for nil
	}{
		{nil, "nothing compared: no PDF, DOCX or TXT file found"},
		{[]Document{read}, "nothing compared: 1 submission could be read; a comparison needs two, or one and an earlier year's"},
		{[]Document{read, failed, skipped}, "nothing compared: 1 submission could be read"},
		{[]Document{failed, failed}, "nothing compared: 0 submissions could be read"},
		{[]Document{old, old}, "nothing compared: 0 submissions could be read"},
		{[]Document{read, old}, ""},
		{[]Document{read, read, failed}, ""},
	}
	for i, tt := range tests {
		err := (&Result{Documents: tt.docs}).NothingCompared()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%d: %v, want nil", i, err)
		case tt.want != "" && (!errors.Is(err, ErrNothingCompared) || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%d: %v, want %q…", i, err, tt.want)
		}
	}
}

// A submission's warnings are in the comparison as in a check's report: what reading its file
// changed (a byte not valid in its encoding) and the tricks its text carries (look-alike letters,
// invisible characters, spaced-out Chinese); a clean one has none.
func TestDocumentWarnings(t *testing.T) {
	dir := t.TempDir()
	en := "Tidal flats look empty at first glance, a wide expanse of grey mud that the sea covers and uncovers twice a day. " +
		"Yet a single square metre of that mud can hold thousands of small worms, snails and shellfish."
	zh := "随着互联网技术的快速发展，网络教育已经成为高等教育的重要组成部分，越来越多的高校开始建设在线课程平台。"
	files := map[string]string{
		"clean.txt":  en + "\n\n" + zh + "\n",
		"dodges.txt": strings.NewReplacer("e", "е", "a", "a\u200b").Replace(en) + "\n\n" + strings.Join(strings.Split(zh, ""), " ") + "\n",
		"byte.txt":   en + "\n\n" + zh[:30] + "\xff" + zh[30:] + "\n",
		// Letters swapped, as a font with swapped glyphs is read: prose without its common words.
		"cipher.txt": strings.Map(func(r rune) rune {
			if 'a' <= r && r <= 'z' {
				return 'a' + (r-'a'+13)%26
			}
			return r
		}, en+" "+en) + "\n\n" + zh + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(context.Background(), []string{dir}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string][]string{}
	for _, d := range res.Documents {
		for _, w := range d.Warnings {
			kinds[d.Name] = append(kinds[d.Name], string(w.Kind))
		}
	}
	want := map[string][]string{"dodges.txt": {"invisible", "lookalike", "spaced"}, "byte.txt": {"replaced"}, "cipher.txt": {"garbled"}}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("warnings by document %v, want %v", kinds, want)
	}
	var warned []string
	for _, i := range res.Warned() {
		warned = append(warned, res.Documents[i].Name)
	}
	if !reflect.DeepEqual(warned, []string{"byte.txt", "cipher.txt", "dodges.txt"}) {
		t.Errorf("Warned %v", warned)
	}
}

// checkParas are the paragraphs of more than 60 characters of a file of the check's test library,
// its declaration left out.
func checkParas(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../check/testdata/library", file))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range strings.Split(string(data), "\n") {
		if p = strings.TrimSpace(p); len([]rune(p)) > 60 && !strings.Contains(p, "声明") {
			out = append(out, p)
		}
	}
	return out
}

// TestFiledCopies: paragraphs one student copied from another and filed as entries of a reference
// list (where a comparison does not look) count in their pair, with a "filed" warning; a reference
// entry two students both cite stays left out.
func TestFiledCopies(t *testing.T) {
	copied, ownA, ownB, ownC := checkParas(t, "zh-wetland.txt")[:2], checkParas(t, "zh-library.txt"), checkParas(t, "zh-tea.txt"), checkParas(t, "en-printing.txt")[:2]
	entry := "[1] 王芳. 城市湿地植物与水质净化研究[J]. 生态学报, 2019, 39(2): 1-10."
	thesis := func(own, refs []string, body ...string) string {
		return strings.Join(append(append(append([]string{"摘要", own[0], "第一章 绪论"}, own[1:]...), body...), append([]string{"参考文献"}, refs...)...), "\n\n") + "\n"
	}
	dir := t.TempDir()
	files := map[string]string{
		"a.txt": thesis(ownA, []string{entry}, copied...),
		"b.txt": thesis(ownB, []string{entry, "[2] " + copied[0], "[3] " + copied[1]}),
		"c.txt": thesis(ownC, []string{entry}),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(context.Background(), []string{dir}, &Options{Threshold: 0.05}, nil)
	if err != nil {
		t.Fatal(err)
	}
	num := map[string]int{}
	for i, d := range res.Documents {
		num[d.Name] = i
	}
	var ab *Pair
	for i, p := range res.Pairs {
		names := []string{res.Documents[p.A].Name, res.Documents[p.B].Name}
		if slices.Contains(names, "c.txt") {
			t.Errorf("pair %v shares %d characters: c.txt shares only a cited entry", names, p.SharedChars)
		}
		if slices.Contains(names, "a.txt") && slices.Contains(names, "b.txt") {
			ab = &res.Pairs[i]
		}
	}
	b := res.Documents[num["b.txt"]]
	var filedParas []int
	for i, p := range b.Paragraphs {
		if strings.HasPrefix(p.Text, "[2] ") || strings.HasPrefix(p.Text, "[3] ") {
			filedParas = append(filedParas, i)
			if !p.LeftOut {
				t.Fatalf("%q is compared: the test wants it filed as a reference entry", p.Text)
			}
		}
	}
	if ab == nil || !ab.Flagged || len(ab.Fragments) == 0 {
		t.Fatalf("a.txt and b.txt: pair %+v, want them flagged for the filed copies", ab)
	}
	for _, f := range ab.Fragments {
		bp := f.BPara
		if ab.A == num["b.txt"] {
			bp = f.APara
		}
		if !slices.Contains(filedParas, bp) {
			t.Errorf("fragment %+v outside b.txt's filed paragraphs %v", f, filedParas)
		}
	}
	var kinds []extract.WarningKind
	for _, d := range res.Documents {
		for _, w := range d.Warnings {
			kinds = append(kinds, w.Kind)
			if d.Name != "b.txt" || w.Kind != extract.WarnFiled || !reflect.DeepEqual(w.Paragraphs, filedParas) {
				t.Errorf("%s: warning %+v, want b.txt's filed paragraphs %v only", d.Name, w, filedParas)
			}
		}
	}
	if len(kinds) != 1 {
		t.Errorf("warnings %v, want b.txt's one", kinds)
	}
}

// Text no reader sees does not count as characters (similarity.Chars) but inside what is shared:
// two submissions whose own paragraphs, and one's copy too, are padded with zero-width characters
// and runs of spaces compare as they read, but for the padded copy, which counts as written.
func TestPaddingCountsNothing(t *testing.T) {
	copied, ownA, ownB := checkParas(t, "zh-wetland.txt")[:2], checkParas(t, "zh-library.txt"), checkParas(t, "en-printing.txt")
	pad := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			b.WriteRune(r)
			b.WriteString("\u200b\u200b\u200b")
		}
		return strings.NewReplacer("，", "，     ", ", ", ",      ").Replace(b.String())
	}
	run := func(a, b []string) (*Result, Pair) {
		dir := t.TempDir()
		for name, ps := range map[string][]string{"a.txt": a, "b.txt": b} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(ps, "\n\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res, err := Run(context.Background(), []string{dir}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Pairs) != 1 || res.Pairs[0].SharedChars == 0 {
			t.Fatalf("pairs %+v, want a and b sharing the copy", res.Pairs)
		}
		return res, res.Pairs[0]
	}
	plainRes, plain := run(append(slices.Clone(ownA), copied...), append(slices.Clone(ownB), copied...))
	var padA, padB []string
	for _, p := range ownA {
		padA = append(padA, pad(p))
	}
	for _, p := range append(slices.Clone(ownB), copied...) {
		padB = append(padB, pad(p))
	}
	res, got := run(append(padA, copied...), padB)
	if got.SharedChars != plain.SharedChars || got.Similarity != plain.Similarity || got.AShare != plain.AShare || got.BShare < plain.BShare {
		t.Errorf("padded: shared %d, similarity %v (%v, %v); as they read: %d, %v (%v, %v)", got.SharedChars, got.Similarity,
			got.AShare, got.BShare, plain.SharedChars, plain.Similarity, plain.AShare, plain.BShare)
	}
	for i, d := range res.Documents {
		if p := plainRes.Documents[i]; d.Chars != p.Chars || d.ComparedChars != p.ComparedChars {
			t.Errorf("%s: %d characters, %d compared; as it reads: %d, %d", d.Name, d.Chars, d.ComparedChars, p.Chars, p.ComparedChars)
		}
	}
}

// In a small class, what three students passed between them is no common text: in a class of five,
// half is three, and the four paragraphs three documents shared were left out as common ("0 pairs
// share text"). Common text must be in five documents, or all of a smaller class: the prompt, in
// every document, still is.
func TestSmallClassCopiesAreNotCommon(t *testing.T) {
	pool := readProse(t, "en")
	shared := strings.Join(pool[:4], "\n\n")
	dir := t.TempDir()
	for i := range 5 {
		text := prompts["en"] + "\n\n" + strings.Join(pool[4+i*5:9+i*5], "\n\n")
		if i < 3 {
			text += "\n\n" + shared
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("student%d.txt", i)), []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(context.Background(), []string{dir}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.CommonDocuments != 5 {
		t.Errorf("common from %d documents, want all 5", res.CommonDocuments)
	}
	num := docIndex(t, res)
	flagged := 0
	for _, p := range res.Pairs {
		a, b := num[p.A], num[p.B]
		if copying := a < 3 && b < 3; copying != p.Flagged {
			t.Errorf("pair %d–%d: flagged %v (similarity %.3f)", a, b, p.Flagged, p.Similarity)
		}
		if p.Flagged {
			flagged++
		}
	}
	if flagged != 3 {
		t.Errorf("%d pairs flagged, want the 3 of students 0-2", flagged)
	}
	for _, c := range res.Common {
		if c.Documents != 5 || !strings.Contains(prompts["en"], c.Text[:len(c.Text)/2]) {
			t.Errorf("common passage in %d documents: %.60q", c.Documents, c.Text)
		}
	}
	if len(res.Common) == 0 {
		t.Error("the prompt, in every document, is not common")
	}
}

// TestSwappedDocument: a student's copy of another's paragraphs read through a font that draws six
// common characters as one another (the file holds each as the next of them) warns of swapped
// characters in the copy only, whose text reads as fewer words than the original's.
func TestSwappedDocument(t *testing.T) {
	var paras []string
	for _, f := range []string{"zh-wetland.txt", "zh-library.txt", "zh-tea.txt"} {
		paras = append(paras, checkParas(t, f)...)
	}
	text := strings.Join(paras, "\n\n")
	swapped, _ := synth.SwapCommon(text, 6)
	dir := t.TempDir()
	files := map[string]string{
		"own.txt":   text,
		"font.txt":  swapped,
		"other.txt": strings.Join(checkParas(t, "en-printing.txt"), "\n\n"),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(context.Background(), []string{dir}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pairs) != 1 || !res.Pairs[0].Flagged {
		t.Fatalf("pairs %+v", res.Pairs)
	}
	for _, d := range res.Documents {
		var swapped *extract.Warning
		for i := range d.Warnings {
			if d.Warnings[i].Kind == extract.WarnSwapped {
				swapped = &d.Warnings[i]
			}
		}
		if (swapped != nil) != (d.Name == "font.txt") || swapped != nil && (swapped.Count < 9 || len(swapped.Paragraphs) < 2) {
			t.Errorf("%s: warnings %+v", d.Name, d.Warnings)
		}
	}
}

// TestScannedSubmissions: a class's scanned submissions have their text layers compared with their
// pictures, as a check's do (extract/testdata/scanned): a layer of other text than the pages show,
// under which a copy would read as a student's own, is warned of; Tesseract's own layer is not.
func TestScannedSubmissions(t *testing.T) {
	dir := makeClass(t, classSpec{lang: "en", docs: 3, chars: 2000}, 5)
	for _, f := range []string{"en-fake.pdf", "en-ocr.pdf"} {
		data, err := os.ReadFile(filepath.Join("..", "extract", "testdata", "scanned", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(context.Background(), []string{dir}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string][]extract.WarningKind{}
	for _, d := range res.Documents {
		for _, w := range d.Warnings {
			kinds[filepath.Base(d.Path)] = append(kinds[filepath.Base(d.Path)], w.Kind)
		}
	}
	if k := kinds["en-fake.pdf"]; !slices.Contains(k, extract.WarnLayer) {
		t.Errorf("en-fake.pdf: warnings %v, want %s", k, extract.WarnLayer)
	}
	if k := kinds["en-ocr.pdf"]; slices.Contains(k, extract.WarnLayer) || !slices.Contains(k, extract.WarnScanned) {
		t.Errorf("en-ocr.pdf: warnings %v, want %s and not %s", k, extract.WarnScanned, extract.WarnLayer)
	}
}
