package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"thesischeck/keys"
	"thesischeck/report"
)

func writeClass(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copied := "A package manager keeps track of every file it installs, so that an upgrade can replace them and a removal can delete them without leaving anything behind on the disk."
	files := map[string]string{
		"alice.txt": "Backups come first on any server I run. " + copied + " I would still keep a list of what was installed by hand.",
		"bob.txt":   "My plan starts with the users of the group. " + copied + " That is why I trust it more than copying files around myself.",
		"carol.txt": "The research group needs a mail relay, a wiki and nightly snapshots of the home directories, which I schedule with a timer unit and check every Monday morning.",
		"dan.txt":   "Security updates arrive through the stable archive; unattended upgrades install them overnight and a short report tells the administrator what changed and when.",
		"bad.pdf":   "%PDF-1.7 truncated",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCompareCommand(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config) // the signing key goes here, not into the real home
	dir := writeClass(t)
	out := filepath.Join(t.TempDir(), "class.json")
	pdf := filepath.Join(t.TempDir(), "class.pdf")
	html := filepath.Join(t.TempDir(), "class.html")
	var stdout, stderr bytes.Buffer
	err := Run([]string{"compare", "--json", out, "--pdf", pdf, "--html", html, "--threshold", "20%", dir}, nil, &stdout, &stderr)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed for the unreadable file", err)
	}
	if !strings.Contains(stderr.String(), "bad.pdf") {
		t.Errorf("stderr does not name the unreadable file:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "compared 4 documents (6 pairs)") || !strings.Contains(stdout.String(), "alice.txt  bob.txt") {
		t.Errorf("summary:\n%s", stdout.String())
	}
	// Both signed with the key the command made, the PDF carrying the comparison.
	trust, err := keys.Open(filepath.Join(config, "thesischeck"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{out, pdf} {
		v, err := report.Verify(path, report.VerifyOptions{Trust: trust})
		if err != nil || v.Verdict != report.Trusted || v.Summary.Kind != report.KindComparison || v.Summary.Documents != 5 {
			t.Errorf("%s: %v %s", filepath.Base(path), err, v)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Threshold float64                      `json:"threshold"`
		Documents []map[string]json.RawMessage `json:"documents"`
		Pairs     []map[string]json.RawMessage `json:"pairs"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if res.Threshold != 0.2 {
		t.Errorf("threshold %v, want 0.2", res.Threshold)
	}
	if len(res.Documents) != 5 || len(res.Pairs) != 1 {
		t.Fatalf("%d documents and %d pairs, want 5 and 1:\n%s", len(res.Documents), len(res.Pairs), data)
	}
	var keys []string
	for k := range res.Pairs[0] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if got := strings.Join(keys, ","); got != "a,b,flagged,jaccard,shared_chars,similarity" {
		t.Errorf("pair keys %s", got)
	}
	if string(res.Pairs[0]["flagged"]) != "true" {
		t.Errorf("the copying pair is not flagged: %s", data)
	}
	if st, err := os.Stat(html); err != nil || st.Size() == 0 {
		t.Errorf("no HTML written: %v", err)
	}
}

func TestCompareCommandArguments(t *testing.T) {
	dir := writeClass(t)
	tests := []struct {
		args []string
		want string // in the error
	}{
		{[]string{"compare"}, "usage"},
		{[]string{"compare", "--threshold", "150%", dir}, "at most 1"},
		{[]string{"compare", "--threshold", "abc", dir}, "not a number"},
		{[]string{"compare", "--library", filepath.Join(dir, "nope"), dir}, "nope"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := Run(tt.args, nil, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want one containing %q", tt.args, err, tt.want)
		}
	}
}
