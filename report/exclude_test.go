package report

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"strings"
	"testing"
)

// TestExcludedSourcesRecorded: a report that leaves a source out says which, in its JSON (signed
// with it), its HTML and its PDF.
func TestExcludedSourcesRecorded(t *testing.T) {
	r := sampleReport(t)
	r.ExcludedSources = []ExcludedSource{{ID: 42, Title: "本人已发表的论文"}}

	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Excluded []ExcludedSource `json:"excluded_sources"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Excluded) != 1 || back.Excluded[0].ID != 42 {
		t.Errorf("JSON excluded_sources %+v (%v)", back.Excluded, err)
	}

	var html bytes.Buffer
	if err := r.WriteHTML(&html, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "《本人已发表的论文》(ID 42)") {
		t.Error("the HTML does not name the source left out")
	}

	path := writeSamplePDF(t, r) // signs r, excluded sources and all
	out, err := exec.Command(popplerTool(t, "pdftotext"), "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	if flat := squeeze(string(out)); !strings.Contains(flat, "《本人已发表的论文》(ID42)") {
		t.Error("the PDF does not name the source left out")
	}
	// The signature covers them: struck out, the figures no longer verify.
	for _, x := range [][]ExcludedSource{r.ExcludedSources, nil} {
		changed := *r
		changed.ExcludedSources = x
		var data bytes.Buffer
		if err := changed.WriteJSON(&data); err != nil {
			t.Fatal(err)
		}
		res, err := verifyJSON(data.Bytes(), nil)
		if want := x != nil; err != nil || res.Intact != want {
			t.Errorf("excluded sources %v: intact %v, want %v (%v)", x, res.Intact, want, err)
		}
	}
}

// TestVerdictShown: a school's verdict stands under the figures, with the profile's name, in the
// HTML and the PDF, and in the JSON as "verdict".
func TestVerdictShown(t *testing.T) {
	r := sampleReport(t)
	r.Verdict = &SchoolVerdict{Profile: "master", Figure: "similarity", Value: r.Similarity, Outcome: "revise", PassBelow: 20, FailFrom: 40}
	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"verdict": {`) || !strings.Contains(js.String(), `"outcome": "revise"`) {
		t.Error("the JSON lacks the verdict")
	}
	var html bytes.Buffer
	if err := r.WriteHTML(&html, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"结论 Verdict: 需修改 revise", "规则 Rules: master", "pass below 20%, fail from 40%"} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("the HTML lacks %q", want)
		}
	}
	out, err := exec.Command(popplerTool(t, "pdftotext"), "-enc", "UTF-8", writeSamplePDF(t, r), "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	for _, want := range []string{"结论Verdict:需修改revise", "规则Rules:master"} {
		if !strings.Contains(squeeze(string(out)), want) {
			t.Errorf("the PDF lacks %q", want)
		}
	}
}

// TestNoLibraryPathsInHandIn: the hand-in HTML and PDF name library documents by title and file
// name, never by where they lie on the checker's machine.
func TestNoLibraryPathsInHandIn(t *testing.T) {
	r := sampleReport(t)
	const folder = "/home/checker/私人/library"
	for i := range r.Sources {
		r.Sources[i].Path = folder + "/" + fileName(r.Sources[i].Path)
	}
	for i := range r.Paragraphs {
		for j := range r.Paragraphs[i].Matches {
			r.Paragraphs[i].Matches[j].SourcePath = folder + "/x.docx"
		}
	}
	var html bytes.Buffer
	if err := r.WriteHTML(&html, nil); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(popplerTool(t, "pdftotext"), "-enc", "UTF-8", writeSamplePDF(t, r), "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	for name, text := range map[string]string{"HTML": html.String(), "PDF": squeeze(string(out))} {
		if strings.Contains(text, "checker") || strings.Contains(text, "私人") {
			t.Errorf("the %s shows the library's folder", name)
		}
		if !strings.Contains(text, squeezeIf(name == "PDF", r.sourceName(0))) {
			t.Errorf("the %s does not name the top source %q", name, r.sourceName(0))
		}
	}
}

func squeezeIf(on bool, s string) string {
	if on {
		return squeeze(s)
	}
	return s
}

// TestPaletteApartFromGrades: no source colour can be taken for a grade (the green, orange and red
// of low, medium and high similarity).
func TestPaletteApartFromGrades(t *testing.T) {
	for _, p := range Palette {
		c, ok := parseHex(p)
		if !ok {
			t.Fatalf("palette colour %q", p)
		}
		for _, share := range []float64{0, 0.2, 1} {
			g := levelColor(share)
			d := func(a, b uint8) float64 { return float64(a) - float64(b) }
			if dist := math.Sqrt(d(c.R, g.R)*d(c.R, g.R) + d(c.G, g.G)*d(c.G, g.G) + d(c.B, g.B)*d(c.B, g.B)); dist < 70 {
				t.Errorf("source colour %s is %.0f from the grade colour %s", p, dist, g.hex())
			}
		}
	}
}

// TestQuoteColourOne: the PDF and the HTML draw quotations in QuoteColor, the app's too.
func TestQuoteColourOne(t *testing.T) {
	if colQuote.hex() != QuoteColor {
		t.Errorf("the PDF's quote colour %s, want %s", colQuote.hex(), QuoteColor)
	}
	if !strings.Contains(htmlCSS, "--quote:"+QuoteColor) {
		t.Errorf("the HTML's quote colour is not %s", QuoteColor)
	}
}
