package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"

	"thesischeck/compare"
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
	if got := strings.Join(keys, ","); got != "a,a_share,b,b_share,flagged,fragments,jaccard,shared_chars,similarity" {
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
		{[]string{"compare", "--pdf", filepath.Join(dir, "compare.pdf"), dir}, "inside " + dir},
		{[]string{"compare", "--csv", filepath.Join(dir, "sub", "pairs.csv"), dir}, "being compared"},
		{[]string{"compare", "--json", "-", "--csv", "-", dir}, "standard output"},
		{[]string{"compare", "--info", filepath.Join(dir, "alice.txt"), dir}, "no column called file"},
		{[]string{"compare", "--info", filepath.Join(dir, "none.csv"), dir}, "none.csv"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := Run(tt.args, nil, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want one containing %q", tt.args, err, tt.want)
		}
	}
}

// writeInfo writes an info file as Excel on a Chinese system does (GB18030), naming the class's
// students.
func writeInfo(t *testing.T, rows string) string {
	t.Helper()
	data, err := simplifiedchinese.GB18030.NewEncoder().Bytes([]byte(rows))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "info.csv")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The CSV has one row per pair, reads back with Python's csv module, and carries the info file's
// columns; a student named in the info file who submitted nothing is reported.
func TestCompareCSV(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := writeClass(t)
	// A file name a spreadsheet would run as a formula.
	if err := os.Rename(filepath.Join(dir, "bob.txt"), filepath.Join(dir, "=HYPERLINK(1).txt")); err != nil {
		t.Fatal(err)
	}
	info := writeInfo(t, "文件名,姓名,学号,submitted\nalice.txt,张三,2024001,2026-03-01 09:00\n=HYPERLINK(1).txt,\"李, 四\",2024002,2026-03-02\nzoe.txt,王五,2024009,\n")
	out := filepath.Join(t.TempDir(), "pairs.csv")
	js := filepath.Join(t.TempDir(), "class.json")
	var stdout, stderr bytes.Buffer
	err := Run([]string{"compare", "--csv", out, "--json", js, "--info", info, dir}, nil, &stdout, &stderr)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("err = %v, want ErrFailed for the unreadable file\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "line 4: zoe.txt is not among the submissions") {
		t.Errorf("the student without a submission is not reported:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "张三 · alice.txt") {
		t.Errorf("the summary does not name the student:\n%s", stdout.String())
	}
	py := `import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
res = json.load(open(sys.argv[2], encoding="utf-8"))
assert len(rows) == len(res["pairs"]), (len(rows), len(res["pairs"]))
for row, p in zip(rows, res["pairs"]):
    assert row["a"] == res["documents"][p["a"]]["name"] or row["a"] == "'" + res["documents"][p["a"]]["name"], row
    assert float(row["similarity"]) == p["similarity"] and float(row["a_share"]) == p["a_share"] and float(row["b_share"]) == p["b_share"], row
    assert int(row["shared_chars"]) == p["shared_chars"] and row["flagged"] == str(p["flagged"]).lower(), row
print(json.dumps(rows, ensure_ascii=False))
`
	cmd := exec.Command("python3", "-c", py, out, js)
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 reading the CSV: %v\n%s", err, got)
	}
	var rows []map[string]string
	if err := json.Unmarshal(got, &rows); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1 (one pair shares text): %v", len(rows), rows)
	}
	r := rows[0]
	want := map[string]string{"a": "'=HYPERLINK(1).txt", "b": "alice.txt", "a_姓名": "李, 四", "b_姓名": "张三", "a_学号": "2024002",
		"b_submitted": "2026-03-01 09:00", "flagged": "true", "cluster": "1", "a_old": "false"}
	if r["a"] == "alice.txt" {
		want["a"], want["b"], want["a_姓名"], want["b_姓名"], want["a_学号"] = "alice.txt", "'=HYPERLINK(1).txt", "张三", "李, 四", "2024001"
		delete(want, "b_submitted")
	}
	for k, v := range want {
		if r[k] != v {
			t.Errorf("column %s = %q, want %q (row %v)", k, r[k], v, r)
		}
	}
}

// Earlier years' submissions: the new ones are compared with them, they never with each other, and
// an export saved beside the class folder, or a report left in it by hand, is never a submission.
func TestCompareOldAndOwnReports(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := writeClass(t)
	oldDir := t.TempDir()
	copied := "A package manager keeps track of every file it installs, so that an upgrade can replace them and a removal can delete them without leaving anything behind on the disk."
	for name, text := range map[string]string{
		"old-x.txt": "Last year one student wrote: " + copied,
		"old-y.txt": "And another one wrote the same: " + copied,
	} {
		if err := os.WriteFile(filepath.Join(oldDir, name), []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pdf := filepath.Join(filepath.Dir(dir), "class-compare.pdf") // beside the folder
	js := filepath.Join(t.TempDir(), "class.json")
	var stdout, stderr bytes.Buffer
	Run([]string{"compare", "--old", oldDir, "--pdf", pdf, "--json", js, dir}, nil, &stdout, &stderr)
	if !strings.Contains(stdout.String(), "compared 4 documents and 2 earlier ones (14 pairs)") {
		t.Errorf("summary:\n%s", stdout.String())
	}
	var res compare.Result
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	newOld := 0
	for _, p := range res.Pairs {
		a, b := res.Documents[p.A], res.Documents[p.B]
		if a.Old && b.Old {
			t.Errorf("old pair %s–%s compared", a.Name, b.Name)
		}
		if a.Old != b.Old && p.Flagged {
			newOld++
		}
	}
	if newOld != 4 { // alice and bob each with both old ones
		t.Errorf("%d flagged new–old pairs, want 4: %+v", newOld, res.Pairs)
	}

	// The PDF, copied into the class folder by hand, is listed as skipped, not compared.
	data, err = os.ReadFile(pdf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "compare.pdf"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	Run([]string{"compare", dir}, nil, &stdout, &stderr)
	if !strings.Contains(stdout.String(), "compared 4 documents") || !strings.Contains(stderr.String(), "compare.pdf: not compared: a comparison ThesisCheck wrote") {
		t.Errorf("the report in the folder was not skipped:\n%s\n%s", stdout.String(), stderr.String())
	}
}

// A comparison that compared no pair (one readable submission, an empty folder) fails, names the
// files it could not read, and writes no report whose "0 flagged" would pass for a clean class.
func TestCompareNothing(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	class := writeClass(t)
	empty := t.TempDir()
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{[]string{filepath.Join(class, "alice.txt"), filepath.Join(class, "bad.pdf")}, "compare: nothing compared: 1 submission could be read"},
		{[]string{empty}, "compare: nothing compared: no PDF, DOCX or TXT file found"},
	} {
		out := filepath.Join(t.TempDir(), "class.json")
		var stdout, stderr bytes.Buffer
		err := Run(append([]string{"compare", "--json", out}, c.paths...), nil, &stdout, &stderr)
		if !errors.Is(err, compare.ErrNothingCompared) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q…", c.paths, err, c.want)
		}
		if _, serr := os.Stat(out); !os.IsNotExist(serr) {
			t.Errorf("%v: a report was written (%v)", c.paths, serr)
		}
		if stdout.Len() > 0 {
			t.Errorf("%v: printed a summary:\n%s", c.paths, stdout.String())
		}
		if len(c.paths) == 2 && !strings.Contains(stderr.String(), "bad.pdf") {
			t.Errorf("the unreadable file is not named:\n%s", stderr.String())
		}
	}
}

// A submission that carries a trick to dodge checkers is named with it in the summary and the
// HTML report, as a check would warn of it; the others are not.
func TestCompareWarnings(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := writeClass(t)
	os.Remove(filepath.Join(dir, "bad.pdf"))
	eve := "Students who copy replace letters with Cyrillic ones that look the same, so that no checker finds the words."
	if err := os.WriteFile(filepath.Join(dir, "eve.txt"), []byte(strings.ReplaceAll(eve, "o", "о")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	html := filepath.Join(t.TempDir(), "class.html")
	var stdout, stderr bytes.Buffer
	if err := Run([]string{"compare", "--html", html, dir}, nil, &stdout, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	var warned []string
	for _, l := range strings.Split(stdout.String(), "\n") {
		if strings.HasPrefix(l, "warning: ") {
			warned = append(warned, l)
		}
	}
	if len(warned) != 1 || !strings.HasPrefix(warned[0], "warning: eve.txt: ") || !strings.Contains(warned[0], "look-alike letters") {
		t.Errorf("warnings in the summary %q:\n%s", warned, stdout.String())
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "注意 Warnings") || !strings.Contains(string(page), "eve.txt — 形近字母") || !strings.Contains(string(page), "1 篇有警告") {
		t.Errorf("the HTML report does not list eve.txt's warning")
	}
}
