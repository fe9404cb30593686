package extract

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

const devsetDir = "../../shared/devset"

// squeeze removes white space and invisible format characters (U+200B…), which a PDF
// cannot carry and the truth texts sometimes contain.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}

func unpunct(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) {
			return -1
		}
		return r
	}, s)
}

type devTruth struct {
	Submissions []struct {
		Stem       string `json:"stem"`
		File       string `json:"file"`
		Paragraphs []struct {
			Label string `json:"label"`
			Text  string `json:"text"`
		} `json:"paragraphs"`
	} `json:"submissions"`
}

// TestPDFDevset checks extraction against the development set's truth: every truth
// paragraph of a PDF submission comes out as exactly one extracted paragraph, and no
// extracted paragraph is a running header or a page number.
func TestPDFDevset(t *testing.T) {
	if _, err := os.Stat(devsetDir); err != nil {
		t.Skip("development set not present")
	}
	corpora, _ := filepath.Glob(filepath.Join(devsetDir, "*", "truth.json"))
	if len(corpora) == 0 {
		t.Fatal("development set has no truth.json")
	}
	for _, tf := range corpora {
		dir := filepath.Dir(tf)
		raw, err := os.ReadFile(tf)
		if err != nil {
			t.Fatal(err)
		}
		var truth devTruth
		if err := json.Unmarshal(raw, &truth); err != nil {
			t.Fatal(err)
		}
		for _, sub := range truth.Submissions {
			if !strings.HasSuffix(sub.File, ".pdf") {
				continue
			}
			path := filepath.Join(dir, "submissions", sub.File)
			t.Run(filepath.Base(dir)+"/"+sub.File, func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				doc, err := readPDF(context.Background(), data)
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]bool{}
				for _, p := range doc.Paragraphs {
					got[squeeze(p.Text)] = true
					if pdfIsPageNumber(p.Text) {
						t.Errorf("page number left as a paragraph: %q (page %d)", p.Text, p.Page)
					}
				}
				headers := runningHeaderTexts(t, path)
				for _, p := range doc.Paragraphs {
					if headers[squeeze(p.Text)] {
						t.Errorf("running header left as a paragraph: %q", p.Text)
					}
				}
				var loose map[string]bool
				poppler := squeeze(pdftotext(t, path))
				found := 0
				for _, tp := range sub.Paragraphs {
					want := squeeze(tp.Text)
					if got[want] {
						found++
						continue
					}
					// LibreOffice sometimes drops a character when it writes the PDF (a full
					// stop hanging in the margin). When pdftotext does not find the text
					// either, the PDF lacks it: compare without punctuation.
					if !strings.Contains(poppler, want) {
						if loose == nil {
							loose = map[string]bool{}
							for s := range got {
								loose[unpunct(s)] = true
							}
						}
						if loose[unpunct(want)] {
							t.Logf("the PDF itself lacks some punctuation of %q", tp.Text)
							found++
							continue
						}
					}
					t.Errorf("truth paragraph (%s) not extracted whole: %q", tp.Label, tp.Text)
				}
				t.Logf("%s: %d/%d truth paragraphs extracted whole (%.1f%%)", sub.File, found, len(sub.Paragraphs),
					100*float64(found)/float64(len(sub.Paragraphs)))
			})
		}
	}
}

// runningHeaderTexts returns the first line of each page as pdftotext reads it when it is the
// same on at least two pages: an independent opinion on what the running header is.
func runningHeaderTexts(t *testing.T, path string) map[string]bool {
	t.Helper()
	out := pdftotext(t, path)
	count := map[string]int{}
	for _, page := range strings.Split(out, "\f") {
		for _, line := range strings.Split(page, "\n") {
			if s := squeeze(line); s != "" {
				count[s]++
				break
			}
		}
	}
	h := map[string]bool{}
	for s, n := range count {
		if n >= 2 {
			h[s] = true
		}
	}
	return h
}

// pdftotext runs poppler's pdftotext on path. It is a test dependency (poppler-utils), so a
// missing binary fails the test instead of skipping it.
func pdftotext(t testing.TB, path string, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Fatalf("pdftotext is needed by this test (apt-get install poppler-utils): %v", err)
	}
	out, err := exec.Command(bin, append(append([]string{"-enc", "UTF-8"}, args...), path, "-")...).Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", path, err)
	}
	return string(out)
}
