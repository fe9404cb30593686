package check

import (
	"context"
	"path/filepath"
	"testing"

	"thesischeck/library"
)

// With weights learned from the library, fingerprints of the library and of the checked text are
// made alike: a verbatim copy is found at Hamming distance 0 and a light edit close to it.
func TestLearnedWeightsHamming(t *testing.T) {
	lib, err := library.Open(t.TempDir(), &library.Options{MinIDFParagraphs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	var docs []string
	for _, f := range []string{"zh-wetland.txt", "zh-library.txt", "en-tides.txt"} {
		docs = append(docs, filepath.Join(libDir, f))
	}
	if _, err := lib.AddFiles(context.Background(), docs, library.AddOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if w, err := lib.Weights(); err != nil || w == nil {
		t.Fatal("the library has not learned weights")
	}
	wetland := libPara(t, "zh-wetland.txt", "芦苇、香蒲和菖蒲")
	tides := libPara(t, "en-tides.txt", "Many of these birds")
	r := checkText(t, lib, nil, wetland.text, tides.text)
	for _, src := range []source{wetland, tides} {
		m := matchFrom(findPara(t, r, src.text), src)
		if m == nil {
			t.Fatalf("%q: not matched to its source", src.text[:30])
		}
		if m.Hamming != 0 {
			t.Errorf("verbatim copy of %s paragraph %d at Hamming distance %d, want 0", filepath.Base(src.path), src.index, m.Hamming)
		}
	}
}
