package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"thesischeck/keys"
	"thesischeck/report"
)

// drop drops paths on the window and waits until what they started has been shown.
func drop(g *gui, paths ...string) {
	var uris []fyne.URI
	for _, p := range paths {
		uris = append(uris, storage.NewFileURI(p))
	}
	g.dropped(fyne.NewPos(10, 10), uris)
	g.pending.Wait()
	g.wait()
}

// TestVerifyDropped: report files dropped on the window are verified, not checked, and the verdict
// is shown in plain words: valid for the user's own report, not trusted for a colleague's until their
// key is, not valid for a changed one; a thesis dropped beside them is still checked.
func TestVerifyDropped(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the user's key and trusted keys
	g := checkedGUI(t, langEN)
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine.pdf")
	if err := exportReport(g.report.r, "pdf", mine); err != nil {
		t.Fatal(err)
	}
	colleague, err := keys.LoadOrCreate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c := *g.report.r
	if err := c.Sign(colleague); err != nil {
		t.Fatal(err)
	}
	theirs := filepath.Join(dir, "theirs.json")
	if err := c.SaveJSON(theirs); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(mine)
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(dir, "changed.pdf")
	os.WriteFile(changed, append(data, "% edited\n"...), 0o644)

	g.tabs.SelectIndex(tabLibrary) // a report dropped on the library is not imported either
	docs, _ := g.lh.lib.Counts()
	tests := []struct {
		path    string
		verdict report.Verdict
		title   string
		says    []string
	}{
		{mine, report.Trusted, "Valid report", []string{"your own key", "It says: report " + g.report.r.Number, percent(g.report.r.Similarity)}},
		{theirs, report.Untrusted, "Signed by a key you do not trust", []string{colleague.Fingerprint(), colleague.Cert.Subject.CommonName, "thesischeck keys trust"}},
		{changed, report.Invalid, "Not a valid report: do not rely on it", []string{"The file was changed after it was signed.", "added after the signed part"}},
	}
	for _, tc := range tests {
		drop(g, tc.path)
		v := g.lastVerdict
		if v == nil || v.path != tc.path || v.err != nil || v.res.Verdict != tc.verdict || v.title != tc.title {
			t.Fatalf("%s: verdict %+v, want %d %q", filepath.Base(tc.path), v, tc.verdict, tc.title)
		}
		shown := strings.Join(screenTexts(g.win.Canvas().Overlays().Top()), "\n")
		for _, want := range append(tc.says, tc.title) {
			if !strings.Contains(shown, want) {
				t.Errorf("%s: the dialog does not say %q:\n%s", filepath.Base(tc.path), want, shown)
			}
		}
		g.win.Canvas().Overlays().Top().Hide()
	}
	if n, _ := g.lh.lib.Counts(); n != docs {
		t.Errorf("dropping reports on the library imported them: %d documents, was %d", n, docs)
	}

	if _, _, err := mustTrust(t).Trust(colleague.CertPath, "Li Wei"); err != nil {
		t.Fatal(err)
	}
	drop(g, theirs)
	if v := g.lastVerdict; v.res.Verdict != report.Trusted || !strings.Contains(strings.Join(v.lines, "\n"), "Li Wei") {
		t.Errorf("a trusted colleague's report: %+v", v)
	}

	// A thesis dropped on the check screen is checked, not verified.
	g.lastVerdict = nil
	g.tabs.SelectIndex(tabCheck)
	g.report.r = nil
	drop(g, "testdata/thesis.txt")
	if g.lastVerdict != nil || g.report.r == nil {
		t.Errorf("a dropped thesis was not checked (verdict %+v)", g.lastVerdict)
	}
}

func mustTrust(t *testing.T) *keys.Store {
	t.Helper()
	st, err := keys.OpenUser()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestVerifyChinese: the verdict speaks the user's language.
func TestVerifyChinese(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	g := checkedGUI(t, langZH)
	path := filepath.Join(t.TempDir(), "r.json")
	if err := exportReport(g.report.r, "json", path); err != nil {
		t.Fatal(err)
	}
	g.verifyReport(path)
	g.pending.Wait()
	if v := g.lastVerdict; v == nil || v.title != "报告有效" || !strings.Contains(v.lines[0], "你自己的密钥") {
		t.Fatalf("verdict %+v", v)
	}
	notReport := filepath.Join(t.TempDir(), "notes.json")
	os.WriteFile(notReport, []byte(`{"hello": 1}`), 0o644)
	g.verifyReport(notReport)
	g.pending.Wait()
	if v := g.lastVerdict; v.err == nil || v.title != "报告无效，不可采信" || !strings.Contains(v.lines[1], "notes.json：不是 ThesisCheck 报告") {
		t.Fatalf("verdict %+v", v)
	}
}

// TestExportComparison: a class comparison is exported signed, in each format that can carry a
// signature, and verifies as the user's own; the result on screen is not changed.
func TestExportComparison(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	g := newTestGUI(t, testLibrary(t), langEN)
	g.compare.run([]string{"testdata/thesis.txt", "testdata/library"})
	g.wait()
	res := g.compare.res
	if res == nil {
		t.Fatal("no comparison")
	}
	dir := t.TempDir()
	for _, format := range []string{"pdf", "json", "html"} {
		path := filepath.Join(dir, "class."+format)
		if err := exportComparison(res, format, path, g.compare.roots()); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if format == "html" {
			continue
		}
		v, err := report.Verify(path, report.VerifyOptions{Trust: mustTrust(t)})
		if err != nil || v.Verdict != report.Trusted || v.Summary.Kind != report.KindComparison {
			t.Errorf("%s: %v %s", format, err, v)
		}
	}
	if res.Signature != "" {
		t.Error("exporting signed the comparison on screen instead of a copy")
	}
}
