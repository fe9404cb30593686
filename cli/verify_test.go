package cli

import (
	"bytes"
	"compress/zlib"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"thesischeck/keys"
	"thesischeck/report"
)

// installationIn makes the signing key of the installation whose home (and configuration
// directory) is home, as its first report would.
func installationIn(t *testing.T, home string) *keys.Signer {
	t.Helper()
	s, err := keys.LoadOrCreate(filepath.Join(home, "thesischeck"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// writeReports writes a report on the thesis at thesisPath signed by s, as JSON and PDF, to dir.
func writeReports(t *testing.T, dir, name, thesisPath string, s *keys.Signer) (jsonPath, pdfPath string) {
	t.Helper()
	data, err := os.ReadFile(thesisPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	r := &report.Report{
		Number:   "TC-20261124-" + strings.ToUpper(name),
		Created:  time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC),
		Document: report.Document{Path: thesisPath, Title: "毕业论文", SHA256: hex.EncodeToString(sum[:]), Chars: 12, Paragraphs: 1},
		Library:  report.Library{Documents: 3, Paragraphs: 30},

		Similarity: 0.283, SimilarityExcludingQuotes: 0.25, MaxSingleSource: 0.2, CopiedChars: 3, TotalChars: 12, FlaggedParas: 1,
		Paragraphs: []report.Paragraph{{Text: string(data), Status: "copied", Similarity: 0.283, Matches: []report.Match{}}},
	}
	if err := r.Sign(s); err != nil {
		t.Fatal(err)
	}
	jsonPath, pdfPath = filepath.Join(dir, name+".json"), filepath.Join(dir, name+".pdf")
	if err := r.SaveJSON(jsonPath); err != nil {
		t.Fatal(err)
	}
	if err := r.SavePDF(pdfPath, s); err != nil {
		t.Fatal(err)
	}
	return jsonPath, pdfPath
}

// TestVerifyAndKeys runs verify and keys as a teacher would: their own reports are valid (0), a
// colleague's are not trusted (2) until the colleague's certificate is, and no more once it is
// removed; a changed report, one about another thesis, or a file that is no report fail (1).
func TestVerifyAndKeys(t *testing.T) {
	me, colleague := t.TempDir(), t.TempDir()
	mine, theirs := installationIn(t, me), installationIn(t, colleague)
	dir := t.TempDir()
	thesis, other := filepath.Join(dir, "thesis.txt"), filepath.Join(dir, "other.txt")
	os.WriteFile(thesis, []byte("论文正文，复制了一些句子。"), 0o644)
	os.WriteFile(other, []byte("另一篇论文。"), 0o644)
	myJSON, myPDF := writeReports(t, dir, "mine", thesis, mine)
	theirJSON, theirPDF := writeReports(t, dir, "theirs", thesis, theirs)
	changed := filepath.Join(dir, "changed.json")
	data, _ := os.ReadFile(myJSON)
	os.WriteFile(changed, bytes.Replace(data, []byte(`"similarity": 0.283`), []byte(`"similarity": 0.028`), 1), 0o644)
	notReport := filepath.Join(dir, "notes.txt")
	os.WriteFile(notReport, []byte("not a report"), 0o644)
	theirCert := filepath.Join(colleague, "thesischeck", keys.CertFile)

	cmds := []struct {
		args   []string
		exit   int
		stdout []string // what standard output says
		shown  string   // what the error stream says
	}{
		{[]string{"verify", myJSON, myPDF}, 0, []string{"mine.json: VALID: unchanged since it was signed by your own key", "mine.pdf: VALID", "similarity 28.3%"}, ""},
		{[]string{"verify", theirJSON}, 2, []string{"NOT TRUSTED", theirs.Fingerprint(), "thesischeck keys trust FILE --name NAME"}, ""},
		{[]string{"verify", theirPDF}, 2, []string{"NOT TRUSTED", theirs.Fingerprint()}, ""},
		{[]string{"keys"}, 0, []string{mine.Fingerprint(), filepath.Join(me, "thesischeck", keys.CertFile)}, ""},
		{[]string{"keys", "trust", theirCert, "--name", "Li Wei"}, 0, []string{`trusted "Li Wei"`, theirs.Fingerprint()}, ""},
		{[]string{"keys", "list"}, 0, []string{"Li Wei", theirs.Fingerprint(), mine.Fingerprint(), "your own key"}, ""},
		{[]string{"verify", theirJSON, theirPDF}, 0, []string{`VALID: unchanged since it was signed by "Li Wei"`}, ""},
		{[]string{"keys", "remove", theirs.Fingerprint()[:9]}, 0, []string{`removed "Li Wei"`}, ""},
		{[]string{"verify", theirPDF}, 2, []string{"NOT TRUSTED"}, ""},
		{[]string{"verify", changed}, 1, []string{"MODIFIED", "changed after it was signed"}, ""},
		{[]string{"verify", "--document", thesis, myPDF}, 0, []string{"VALID", "it is about " + thesis}, ""},
		{[]string{"verify", "--document", other, myPDF}, 1, []string{"WRONG DOCUMENT", "the report is about another file"}, ""},
		{[]string{"verify", myJSON, "--document", other}, 1, []string{"WRONG DOCUMENT"}, ""},
		{[]string{"verify", myJSON, theirJSON}, 2, []string{"VALID", "NOT TRUSTED"}, ""},
		{[]string{"verify", myJSON, changed, theirJSON}, 1, []string{"VALID", "MODIFIED", "NOT TRUSTED"}, ""},
		{[]string{"verify", notReport}, 1, nil, "notes.txt: report: not a ThesisCheck report"},
		{[]string{"verify"}, 2, nil, "thesischeck verify"},
		{[]string{"keys", "remove", "nobody"}, 1, nil, `no such trusted key named or fingerprinted "nobody"`},
		{[]string{"keys", "trust", myJSON}, 1, nil, "not a certificate or public key file"},
	}
	var args [][]string
	for _, c := range cmds {
		args = append(args, c.args)
	}
	for i, res := range runChildIn(t, me, args) {
		c := cmds[i]
		if res.Exit != c.exit {
			t.Errorf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", c.args, res.Exit, c.exit, res.Stdout, res.Shown)
			continue
		}
		for _, want := range c.stdout {
			if !strings.Contains(res.Stdout, want) {
				t.Errorf("%v: standard output lacks %q:\n%s", c.args, want, res.Stdout)
			}
		}
		if !strings.Contains(res.Shown, c.shown) {
			t.Errorf("%v: the error stream lacks %q:\n%s", c.args, c.shown, res.Shown)
		}
	}
}

// TestVerifyHostileFiles: a PDF whose attachment inflates to 4 GiB, and a JSON report of millions of
// empty paragraphs at the size limit, are refused or judged quickly, with one clear line, in
// bounded memory.
func TestVerifyHostileFiles(t *testing.T) {
	dir := t.TempDir()
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Flush()
	seg := z.Bytes()[2:]
	bomb := append([]byte(nil), z.Bytes()[:2]...)
	for i := 0; i < 4096; i++ {
		bomb = append(bomb, seg...)
	}
	pdf := filepath.Join(dir, "bomb.pdf")
	var b bytes.Buffer
	fmt.Fprintf(&b, "%%PDF-1.4\n1 0 obj\n<< /Type /EmbeddedFile /Filter /FlateDecode /Length %d >>\nstream\n", len(bomb))
	b.Write(bomb)
	b.WriteString("\nendstream\nendobj\ntrailer\n<< >>\n%%EOF\n")
	os.WriteFile(pdf, b.Bytes(), 0o644)

	home := t.TempDir()
	s := installationIn(t, home)
	js := filepath.Join(dir, "many.json")
	b.Reset()
	fmt.Fprintf(&b, `{"report_number": "TC-1", "certificate": "%s", "signature": "AAAA", "paragraphs": [{}`, certBase64(s))
	for b.Len() < 63<<20 {
		b.WriteString(`,{}`)
	}
	b.WriteString("]}")
	os.WriteFile(js, b.Bytes(), 0o644)

	res := runChildIn(t, home, [][]string{{"verify", pdf}, {"verify", js}})
	for i, want := range []string{"bomb.pdf: report: the PDF's embedded files inflate to more than 64 MB", ""} {
		r := res[i]
		t.Logf("%v: exit %d, %.2f s, peak %.0f MB", r.Args, r.Exit, r.Seconds, r.PeakMB)
		if r.Exit != 1 {
			t.Errorf("%v: exit %d, want 1", r.Args, r.Exit)
		}
		if r.Seconds > 20 || r.PeakMB > 1024 {
			t.Errorf("%v: %.1f s and %.0f MB, limits 20 s and 1 GiB", r.Args, r.Seconds, r.PeakMB)
		}
		if lines := errorLines(r.Shown); want != "" && (len(lines) != 1 || !strings.Contains(lines[0], want)) {
			t.Errorf("%v: error lines %q, want one with %q", r.Args, lines, want)
		}
	}
	if !strings.Contains(res[1].Stdout, "MODIFIED") {
		t.Errorf("the crafted JSON report: %s", res[1].Stdout)
	}
}

func certBase64(s *keys.Signer) string { return base64.StdEncoding.EncodeToString(s.Cert.Raw) }
