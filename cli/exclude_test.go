package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"thesischeck/report"
)

// TestCheckExcludeSource: check --exclude-source leaves that library document out of every figure
// and the report says so; an ID the library does not hold is an error, not a silent full check.
func TestCheckExcludeSource(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "lib")
	var out, errs bytes.Buffer
	if err := Run([]string{"library", "add", "--library", lib, "../ui/testdata/library"}, nil, &out, &errs); err != nil {
		t.Fatalf("library add: %v\n%s", err, errs.String())
	}
	checkJSON := func(extra ...string) *report.Report {
		t.Helper()
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"check", "--library", lib, "--json", "-"}, extra...), "../ui/testdata/thesis.txt")
		if err := Run(args, nil, &stdout, &stderr); err != nil {
			t.Fatalf("%q: %v\n%s", args, err, stderr.String())
		}
		var r report.Report
		if err := json.NewDecoder(&stdout).Decode(&r); err != nil {
			t.Fatal(err)
		}
		return &r
	}
	full := checkJSON()
	if len(full.Sources) < 2 {
		t.Fatalf("the thesis copies from %d sources, want both", len(full.Sources))
	}
	top := full.Sources[0]
	r := checkJSON("--exclude-source", strconv.FormatUint(top.ID, 10))
	if r.Similarity >= full.Similarity || len(r.Sources) != len(full.Sources)-1 {
		t.Errorf("without the top source: %.4f and %d sources, with it %.4f and %d", r.Similarity, len(r.Sources), full.Similarity, len(full.Sources))
	}
	for _, s := range r.Sources {
		if s.ID == top.ID {
			t.Error("the excluded source is still listed")
		}
	}
	if len(r.ExcludedSources) != 1 || r.ExcludedSources[0].ID != top.ID || r.ExcludedSources[0].Title != top.Title {
		t.Errorf("excluded_sources %+v, want %d %q", r.ExcludedSources, top.ID, top.Title)
	}
	var stdout, stderr bytes.Buffer
	if err := Run([]string{"check", "--library", lib, "--exclude-source", "999", "../ui/testdata/thesis.txt"}, nil, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "999") {
		t.Errorf("an unknown source: %v", err)
	}

	// --min-run: a shorter shortest match than the default is aligned at, and counts as much or
	// more; a longer one filters what the default found, and a filtered warning says what it took
	// out. Past every run, nothing is counted and the warning gives the full figure.
	short, long := checkJSON("--min-run", "8"), checkJSON("--min-run", "100000")
	if short.Settings.MinRunChars != 8 || short.CopiedChars < full.CopiedChars || hasFiltered(short) {
		t.Errorf("--min-run 8: settings %d, copied %d (default %d), warnings %+v", short.Settings.MinRunChars, short.CopiedChars, full.CopiedChars, short.Warnings)
	}
	if long.Settings.MinRunChars != 100000 || long.CopiedChars != 0 || !hasFiltered(long) || hasFiltered(full) {
		t.Errorf("--min-run 100000: settings %d, copied %d, warnings %+v", long.Settings.MinRunChars, long.CopiedChars, long.Warnings)
	}
}

func hasFiltered(r *report.Report) bool {
	for _, w := range r.Warnings {
		if w.Kind == "filtered" {
			return true
		}
	}
	return false
}

// TestCheckProfile: check --profile puts the school's verdict in the report and the summary; a bad
// profile file is refused before anything is checked, with its reason.
func TestCheckProfile(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "lib")
	var out, errs bytes.Buffer
	if err := Run([]string{"library", "add", "--library", lib, "../ui/testdata/library"}, nil, &out, &errs); err != nil {
		t.Fatalf("library add: %v\n%s", err, errs.String())
	}
	jsonPath := filepath.Join(t.TempDir(), "r.json")
	var stdout, stderr bytes.Buffer
	if err := Run([]string{"check", "--library", lib, "--profile", "phd", "--json", jsonPath, "../ui/testdata/thesis.txt"}, nil, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	r, err := report.Load(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	v := r.Verdict
	if v == nil || v.Profile != "phd" || v.Value != r.Similarity || v.Mismatch != "" {
		t.Fatalf("verdict %+v", v)
	}
	want := "pass"
	if r.Similarity >= 0.20 {
		want = "fail"
	} else if r.Similarity >= 0.10 {
		want = "revise"
	}
	if v.Outcome != want || !strings.Contains(stdout.String(), "verdict: "+want+` by the rules "phd"`) {
		t.Errorf("at %.4f: verdict %q, summary %q; want %s", r.Similarity, v.Outcome, stdout.String(), want)
	}
	bad := filepath.Join(t.TempDir(), "school.toml")
	if err := os.WriteFile(bad, []byte("pass_below = 30\nfail_from = 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = Run([]string{"check", "--library", lib, "--profile", bad, "../ui/testdata/thesis.txt"}, nil, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "school.toml") || !strings.Contains(err.Error(), "pass_below") {
		t.Errorf("a bad profile: %v", err)
	}
}
