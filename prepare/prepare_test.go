package prepare

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"thesischeck/similarity"
)

func TestReadHashesExtractsAndFingerprints(t *testing.T) {
	text := "第一章 绪论\n\n研究背景与意义在于提出一种新的方法。\n\nThe second paragraph is in English, with words enough to hash."
	path := filepath.Join(t.TempDir(), "doc.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Read(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(text))
	if d.SHA256 != hex.EncodeToString(sum[:]) || d.Path != path {
		t.Errorf("sha %s path %s, want the file's SHA-256 and path", d.SHA256, d.Path)
	}
	if len(d.Text.Paragraphs) == 0 || len(d.Prints) != len(d.Text.Paragraphs) {
		t.Fatalf("%d paragraphs, %d fingerprints", len(d.Text.Paragraphs), len(d.Prints))
	}
	seg, err := similarity.Default()
	if err != nil {
		t.Fatal(err)
	}
	d.FingerprintAll(seg, nil)
	for i, p := range d.Text.Paragraphs {
		want := seg.Prepare(p.Text)
		if d.Prints[i].SimHash != want.SimHash || !slices.Equal(d.Prints[i].Grams, want.Grams) || len(want.Grams) == 0 {
			t.Errorf("paragraph %d: fingerprint %x/%d grams, want %x/%d", i, d.Prints[i].SimHash, len(d.Prints[i].Grams), want.SimHash, len(want.Grams))
		}
	}
}

func TestReadRefusesEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(context.Background(), path); err == nil {
		t.Error("an empty file was read")
	}
}

func TestIsThesisOfStoredParagraphs(t *testing.T) {
	decl := StoredParagraph{Text: "学位论文原创性声明", Section: FrontSection, Heading: true}
	body := StoredParagraph{Text: "本章介绍研究背景。", Section: "body"}
	if !IsThesis([]StoredParagraph{decl, body}) {
		t.Error("a declaration of originality in the front matter is not a thesis's")
	}
	if IsThesis([]StoredParagraph{body}) {
		t.Error("a body paragraph alone reads as a thesis")
	}
}

func TestSupportedByExtension(t *testing.T) {
	for name, want := range map[string]bool{"a.pdf": true, "B.DOCX": true, "c.txt": true, "d.doc": false, "e": false, "f.txt.bak": false} {
		if Supported(name) != want {
			t.Errorf("Supported(%q) = %v, want %v", name, !want, want)
		}
	}
}
