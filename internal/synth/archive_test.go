package synth

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"thesischeck/extract"
)

// An archive's theses read as theses, with their covers and declarations as front matter and the
// rest checked; its other documents are not theses; and no document keeps a run of the corpus's
// words.
func TestWriteArchive(t *testing.T) {
	corpus := t.TempDir()
	zh := strings.Repeat("湿地能够截留地表径流中的泥沙和污染物，缓解暴雨带来的洪涝压力，并在干旱季节向河道补充水源。许多城市在扩张过程中填平了原有的坑塘和河滩，结果不得不投入大量资金修建泵站。", 3)
	en := strings.Repeat("Tidal flats look empty at first glance, a wide expanse of grey mud that the sea covers twice a day. A single square metre of that mud can hold thousands of small worms and shellfish. ", 3)
	if err := os.WriteFile(filepath.Join(corpus, "c.txt"), []byte(zh+"\n\n"+en+"\n\n"+zh+"\n\n"+en+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	n := 2 * thesisEvery
	theses, err := c.WriteArchive(dir, n, 3)
	if err != nil || theses != 2 {
		t.Fatalf("WriteArchive: %d theses, %v", theses, err)
	}
	for i := 0; i < n; i++ {
		name := filepath.Join(dir, "a00000"+string(rune('0'+i)))
		path := name + ".txt"
		if i%3 == 0 {
			path = name + ".docx"
		}
		doc, err := extract.FileContext(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		if doc.Thesis != (i%thesisEvery == 0) {
			t.Errorf("%s: Thesis = %v", path, doc.Thesis)
		}
		decl := 0
		for _, p := range doc.Paragraphs {
			if strings.Contains(p.Text, "声明") || strings.Contains(p.Text, "授权") || strings.Contains(p.Text, "thesis") && len(p.Text) > 150 {
				decl++
				if !p.FrontMatter {
					t.Errorf("%s: declaration not front matter: %q", path, p.Text)
				}
			}
			if p.Section == extract.Body && !p.Heading && !p.Counted() {
				t.Errorf("%s: body paragraph not checked: %q", path, p.Text)
			}
			for _, run := range []string{"截留地表径流", "填平了原有的坑塘", "a wide expanse of", "can hold thousands"} {
				if strings.Contains(p.Text, run) {
					t.Errorf("%s: a run of the corpus %q kept: %q", path, run, p.Text)
				}
			}
		}
		if doc.Thesis && decl < 2 {
			t.Errorf("%s: %d declarations", path, decl)
		}
	}
}
