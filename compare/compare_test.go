package compare

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
					t.Logf("copying pair %v (%.0f %% copied): similarity %.3f, jaccard %.3f, %d shared chars, %d passages",
						k, share*100, p.Similarity, p.Jaccard, p.SharedChars, len(p.Passages))
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
		for _, ps := range p.Passages {
			for _, s := range append(append([]Span(nil), ps.A...), ps.B...) {
				if s.Para == 0 {
					t.Errorf("pair %d–%d: a passage %v lies in the prompt", p.A, p.B, s)
				}
			}
		}
	}
}

// LSH alone finds only some of the edited partial copies; the shared-bigram pass is what makes every
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
			seg := segmenter(t)
			docs, err := read(context.Background(), seg, []string{dir}, o, res, func(string, int, int) {})
			if err != nil {
				t.Fatal(err)
			}
			res.CommonDocuments = 6
			markCommon(docs, nil, nil, res, o)
			num := docIndex(t, res)
			lsh, idx, all := 0, 0, 0
			for _, c := range candidates(docs, o.Threshold) {
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
			t.Logf("%s: of %d copying pairs, LSH finds %d, the bigram count %d; %d candidates of %d pairs",
				lang, len(copies), lsh, idx, all, spec.docs*(spec.docs-1)/2)
			if idx != len(copies) {
				t.Errorf("bigram count found %d of %d copying pairs", idx, len(copies))
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

func TestMatrixAndOrder(t *testing.T) {
	docs := make([]Document, 6)
	docs[5].Error = "unreadable"
	r := &Result{Documents: docs, Pairs: []Pair{
		{A: 1, B: 4, Similarity: 0.6}, {A: 0, B: 3, Similarity: 0.5}, {A: 3, B: 4, Similarity: 0.02},
	}}
	m := r.Matrix()
	if m[1][4] != 0.6 || m[4][1] != 0.6 || m[0][3] != 0.5 || m[0][1] != 0 || m[2][2] != 1 || m[5][5] != 0 {
		t.Errorf("matrix %v", m)
	}
	order := r.Order()
	pos := map[int]int{}
	for i, d := range order {
		pos[d] = i
	}
	if len(order) != 6 || len(pos) != 6 {
		t.Fatalf("order %v is not a permutation of 6 documents", order)
	}
	for _, p := range [][2]int{{1, 4}, {0, 3}} {
		if d := pos[p[0]] - pos[p[1]]; d != 1 && d != -1 {
			t.Errorf("order %v: the pair %v is not side by side", order, p)
		}
	}
	if pos[2] < 4 || pos[5] < 4 {
		t.Errorf("order %v: documents sharing nothing should come last", order)
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
