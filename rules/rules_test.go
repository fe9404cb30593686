package rules

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"thesischeck/extract"
	"thesischeck/report"
)

func TestBuiltinVerdicts(t *testing.T) {
	tests := []struct {
		profile string
		value   float64
		want    string
	}{
		{"bachelor", 0.2999, Pass}, {"bachelor", 0.30, Revise}, {"bachelor", 0.4999, Revise}, {"bachelor", 0.50, Fail},
		{"master", 0.1999, Pass}, {"master", 0.20, Revise}, {"master", 0.40, Fail},
		{"PhD", 0.0999, Pass}, {"phd", 0.10, Revise}, {"phd", 0.20, Fail}, {"phd", 0, Pass},
	}
	for _, tt := range tests {
		p, err := Load(tt.profile)
		if err != nil {
			t.Fatal(err)
		}
		v := p.Judge(&report.Report{Similarity: tt.value, SimilarityExcludingQuotes: 0})
		if v.Outcome != tt.want || v.Value != tt.value || v.Profile != strings.ToLower(tt.profile) || v.Mismatch != "" {
			t.Errorf("%s at %.4f: %+v, want %s", tt.profile, tt.value, v, tt.want)
		}
	}
}

func TestProfileFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	toml := write("school.toml", `name = "示范大学 硕士"
figure = "excluding_quotes"
leave_out = ["front_matter"]
pass_below = 15
fail_from = 25
`)
	p, err := Load(toml)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "示范大学 硕士" || p.Figure != FigureExcludingQuotes || !p.Options().IncludeReferences || p.Options().IncludeFrontMatter {
		t.Errorf("TOML profile %+v, options %+v", p, p.Options())
	}
	r := &report.Report{Similarity: 0.30, SimilarityExcludingQuotes: 0.14, Settings: report.Settings{IncludeReferences: true}}
	if v := p.Judge(r); v.Outcome != Pass || v.Value != 0.14 || v.Mismatch != "" {
		t.Errorf("judged on the figure without quotes: %+v", v)
	}
	r.Settings.IncludeReferences = false
	if v := p.Judge(r); v.Mismatch == "" {
		t.Error("a report checked without references, judged by a profile that counts them, says nothing")
	}
	// A longer shortest match than the default lowers the figures the verdict is on: it says so.
	r.Settings.IncludeReferences, r.Settings.MinRunChars = true, 13
	if v := p.Judge(r); v.Mismatch != "" {
		t.Errorf("the default shortest match: mismatch %q", v.Mismatch)
	}
	r.Settings.MinRunChars = 400
	if v := p.Judge(r); !strings.Contains(v.Mismatch, "400 characters or more") {
		t.Errorf("a shortest match of 400: mismatch %q", v.Mismatch)
	}

	js := write("rules.json", `{"figure": "similarity", "leave_out": ["references", "front_matter"], "pass_below": 25, "fail_from": 35}`)
	p, err = Load(js)
	if err != nil || p.Name != "rules" || p.PassBelow != 25 || p.Options().IncludeReferences {
		t.Errorf("JSON profile %+v, %v", p, err)
	}

	bad := []struct{ name, text, says string }{
		{"typo.toml", "name = \"x\"\npass_belw = 20\nfail_from = 40\n", "pass_belw"},
		{"figure.toml", "figure = \"max_single\"\npass_below = 20\nfail_from = 40\n", "max_single"},
		{"part.toml", "leave_out = [\"abstract\"]\npass_below = 20\nfail_from = 40\n", "abstract"},
		{"limits.toml", "pass_below = 40\nfail_from = 20\n", "pass_below 40"},
		{"nolimits.toml", "name = \"x\"\n", "pass_below 0"},
		{"broken.toml", "name = \"x\npass_below = 20\n", "broken.toml"},
		{"broken.json", `{"pass_below": 20, "fail_from": }`, "broken.json"},
		{"extra.json", `{"pass_below": 20, "fail_from": 30, "limit": 5}`, "limit"},
	}
	for _, b := range bad {
		_, err := Load(write(b.name, b.text))
		if !errors.Is(err, ErrBadProfile) || !strings.Contains(err.Error(), b.says) {
			t.Errorf("%s: %v, want ErrBadProfile naming %q", b.name, err, b.says)
		}
	}
	if _, err := Load("doctor"); err == nil || !strings.Contains(err.Error(), "bachelor, master and phd") {
		t.Errorf("an unknown profile name: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.toml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

// A figure below the pass limit passes only when no warning stands against it: text the check could
// not read, or a trick played to dodge it, make the verdict review; other warnings (a stray byte,
// traditional characters quoted) do not, and a figure above the limit keeps its verdict with the
// doubts named.
func TestDoubtsHoldAPass(t *testing.T) {
	p, err := Load("bachelor")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		value  float64
		warned []extract.WarningKind
		want   string
		doubts []extract.WarningKind
	}{
		{0.05, nil, Pass, nil},
		{0.05, []extract.WarningKind{extract.WarnReplaced, extract.WarnTraditional, extract.WarnQuoted}, Pass, nil},
		{0, []extract.WarningKind{extract.WarnNotText}, Review, []extract.WarningKind{extract.WarnNotText}},
		{0.10, []extract.WarningKind{extract.WarnHidden, extract.WarnReplaced, extract.WarnFragmented, extract.WarnHidden},
			Review, []extract.WarningKind{extract.WarnHidden, extract.WarnFragmented}},
		{0.35, []extract.WarningKind{extract.WarnGarbled}, Revise, []extract.WarningKind{extract.WarnGarbled}},
		// Padding by repeats and words split by narrow spaces hold it; radicals read as characters,
		// which a text about Chinese script names, do not.
		{0.05, []extract.WarningKind{extract.WarnRadicals, extract.WarnRepeated, extract.WarnNarrowSpaces}, Review,
			[]extract.WarningKind{extract.WarnRepeated, extract.WarnNarrowSpaces}},
		// Running text not counted as boilerplate holds a 0 % (three students' copies of one source
		// make it boilerplate for a fourth).
		{0.0, []extract.WarningKind{extract.WarnBoilerplate}, Review, []extract.WarningKind{extract.WarnBoilerplate}},
		{0.60, []extract.WarningKind{extract.WarnTextPictures}, Fail, []extract.WarningKind{extract.WarnTextPictures}},
	}
	for _, tt := range tests {
		r := &report.Report{Similarity: tt.value}
		for _, k := range tt.warned {
			r.Warnings = append(r.Warnings, report.Warning{Kind: k})
		}
		v := p.Judge(r)
		if v.Outcome != tt.want || !slices.Equal(v.Doubts, tt.doubts) {
			t.Errorf("%.2f with %v: %s, doubts %v; want %s, %v", tt.value, tt.warned, v.Outcome, v.Doubts, tt.want, tt.doubts)
		}
	}

	// Judged by the figure excluding quotes, which leaves cited quotations out, their being much of
	// the text holds a pass; by the figure with them (above), it does not.
	p.Figure = FigureExcludingQuotes
	r := &report.Report{Similarity: 0.876, SimilarityExcludingQuotes: 0, Warnings: []report.Warning{{Kind: extract.WarnQuoted}}}
	if v := p.Judge(r); v.Outcome != Review || !slices.Equal(v.Doubts, []extract.WarningKind{extract.WarnQuoted}) {
		t.Errorf("mostly cited quotations, by the figure excluding quotes: %s, doubts %v; want review", v.Outcome, v.Doubts)
	}
}
