package library

import (
	"testing"

	"thesischeck/similarity"
)

// The library learns word weights from its own paragraphs: a word in every paragraph weighs less
// than a word in one; the counts follow additions and removals and survive a reopen; a small library
// keeps jieba's weights.
func TestLearnedWeights(t *testing.T) {
	seg, err := similarity.Default()
	if err != nil {
		t.Fatal(err)
	}
	hash := func(word string) uint32 { return seg.Prepare(word).Tokens[0].Hash }
	common, rare := hash("parliament"), hash("zeppelin")

	src, dir := t.TempDir(), t.TempDir()
	a := writeDoc(t, src, "a.txt", "First",
		"The parliament met on Monday to discuss the budget for schools.",
		"The parliament adjourned after a short debate about the railways.")
	b := writeDoc(t, src, "b.txt", "Second",
		"A zeppelin flew over the parliament while the members argued loudly.",
		"Later the parliament voted on the harbour and the new bridges.")

	small := openLib(t, dir, nil)
	add(t, small, AddOptions{}, a)
	if small.Weights() != nil {
		t.Error("a library of a few paragraphs must keep jieba's weights")
	}
	small.Close()

	l := openLib(t, dir, &Options{MinIDFParagraphs: 1})
	res := add(t, l, AddOptions{}, b)
	w := l.Weights()
	if w == nil {
		t.Fatal("no learned weights")
	}
	if !(w(common) < w(rare)) {
		t.Errorf("weight of a word in every paragraph %.3f, of a word in one %.3f: want the first lower", w(common), w(rare))
	}
	if got, want := w(rare), similarity.LearnedIDF(6, 1); got != want {
		t.Errorf("weight of a word in 1 of 6 paragraphs (titles count) = %.4f, want %.4f", got, want)
	}
	before := w(rare)
	if err := l.Remove(res.Added[0].ID); err != nil {
		t.Fatal(err)
	}
	if got, want := w(rare), similarity.LearnedIDF(3, 0); got != want || got == before {
		t.Errorf("after removing the only document with the word: %.4f, want %.4f", got, want)
	}
	l.Close()

	l = openLib(t, dir, &Options{MinIDFParagraphs: 1, ReadOnly: true})
	defer l.Close()
	if got, want := l.Weights()(common), similarity.LearnedIDF(3, 2); got != want {
		t.Errorf("after reopening: weight %.4f, want %.4f", got, want)
	}
}
