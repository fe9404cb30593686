package report

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"unicode/utf16"

	"codeberg.org/go-pdf/fpdf"

	"thesischeck/keys"
)

// installation is a key directory of its own, as another ThesisCheck installation has.
type installation struct {
	dir    string
	signer *keys.Signer
}

func newInstallation(t testing.TB) installation {
	t.Helper()
	dir := t.TempDir()
	s, err := keys.LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	return installation{dir, s}
}

// trust is the installation's trust store as it is on disk now.
func (in installation) trust(t testing.TB) *keys.Store {
	t.Helper()
	st, err := keys.Open(in.dir)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// verifyAs verifies path as in would.
func (in installation) verifyAs(t testing.TB, path string) VerifyResult {
	t.Helper()
	res, err := Verify(path, VerifyOptions{Trust: in.trust(t)})
	if err != nil {
		t.Fatalf("verify %s: %v", filepath.Base(path), err)
	}
	return res
}

// reportJSON signs a copy of r with s and returns its JSON.
func reportJSON(t testing.TB, r *Report, s *keys.Signer) []byte {
	t.Helper()
	c := *r
	if err := c.Sign(s); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// reportPDF signs a copy of r with s and returns its PDF report.
func reportPDF(t testing.TB, r *Report, s *keys.Signer) []byte {
	t.Helper()
	c := *r
	if err := c.Sign(s); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.WritePDF(&buf, s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func wantVerdict(t *testing.T, res VerifyResult, want Verdict, headline string) {
	t.Helper()
	if res.Verdict != want || !strings.HasPrefix(res.String(), headline) {
		t.Fatalf("verdict %d, want %d %s:\n%s", res.Verdict, want, headline, res)
	}
}

func TestVerifyJSON(t *testing.T) {
	me, forger := newInstallation(t), newInstallation(t)
	good := string(reportJSON(t, sampleReport(t), me.signer))

	reindent := func(s string) string {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.MarshalIndent(v, "", "\t")
		return string(b)
	}
	resign := func(s string) string { // a forger's figure, signed with the forger's own key
		var r Report
		if err := json.Unmarshal([]byte(s), &r); err != nil {
			t.Fatal(err)
		}
		r.Similarity = 0.01
		return string(reportJSON(t, &r, forger.signer))
	}
	otherCert := func(s string) string { // the certificate swapped for the forger's
		return strings.Replace(s, base64.StdEncoding.EncodeToString(me.signer.Cert.Raw), base64.StdEncoding.EncodeToString(forger.signer.Cert.Raw), 1)
	}
	tests := []struct {
		name     string
		edit     func(string) string
		verdict  Verdict
		headline string
		fp       string
	}{
		{"unchanged", func(s string) string { return s }, Trusted, "VALID", me.signer.Fingerprint()},
		{"re-indented", reindent, Trusted, "VALID", me.signer.Fingerprint()},
		{"one figure changed", func(s string) string { return strings.Replace(s, `"similarity": 0.234`, `"similarity": 0.034`, 1) }, Invalid, "MODIFIED", ""},
		{"copied chars changed", func(s string) string { return strings.Replace(s, `"copied_chars": 289`, `"copied_chars": 28`, 1) }, Invalid, "MODIFIED", ""},
		{"text changed", func(s string) string { return strings.Replace(s, "卷积神经网络", "循环神经网络", 1) }, Invalid, "MODIFIED", ""},
		{"field added", func(s string) string { return strings.Replace(s, `{`, `{"approved": true,`, 1) }, Invalid, "MODIFIED", ""},
		// A repeated key counts once, the last time, for the signature and the figures alike.
		{"figure repeated after", func(s string) string {
			return strings.Replace(s, `"similarity": 0.234,`, `"similarity": 0.234, "similarity": 0.034,`, 1)
		}, Invalid, "MODIFIED", ""},
		{"figure repeated before", func(s string) string {
			return strings.Replace(s, `"similarity": 0.234,`, `"similarity": 0.034, "similarity": 0.234,`, 1)
		}, Trusted, "VALID", me.signer.Fingerprint()},
		{"signature removed", func(s string) string {
			var m map[string]any
			json.Unmarshal([]byte(s), &m)
			delete(m, "signature")
			b, _ := json.Marshal(m)
			return string(b)
		}, Invalid, "NOT SIGNED", ""},
		{"certificate swapped", otherCert, Invalid, "MODIFIED", ""},
		{"re-signed by another key", resign, Untrusted, "NOT TRUSTED", forger.signer.Fingerprint()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			edited := tc.edit(good)
			if tc.name != "unchanged" && edited == good {
				t.Fatal("the edit did not change the file")
			}
			res := me.verifyAs(t, writeTemp(t, "r.json", []byte(edited)))
			wantVerdict(t, res, tc.verdict, tc.headline)
			if tc.fp != "" && (res.Signer == nil || res.Signer.Fingerprint != tc.fp || !strings.Contains(res.String(), tc.fp)) {
				t.Errorf("the verdict does not name key %s:\n%s", tc.fp, res)
			}
			if tc.verdict == Trusted && (res.Summary.Similarity != 0.234 || !strings.Contains(res.String(), "similarity 23.4%")) {
				t.Errorf("the verdict does not state the signed figure:\n%s", res)
			}
		})
	}
}

// reportHTML signs a copy of r with s and returns its HTML report.
func reportHTML(t testing.TB, r *Report, s *keys.Signer) []byte {
	t.Helper()
	c := *r
	if err := c.Sign(s); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.WriteHTML(&buf, s); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestVerifyHTML: an HTML report is signed over every byte of its page: a figure, a word, a colour
// changed, text added before or after the signature, or the signature gone, and it is not valid;
// re-signed by another key, it is not trusted. It verifies as the JSON and PDF reports do, and
// states the figures it carries.
func TestVerifyHTML(t *testing.T) {
	me, forger := newInstallation(t), newInstallation(t)
	good := string(reportHTML(t, sampleReport(t), me.signer))
	sigAt := strings.LastIndex(good, htmlSignatureMark)
	tests := []struct {
		name     string
		edit     func(string) string
		verdict  Verdict
		headline string
	}{
		{"unchanged", func(s string) string { return s }, Trusted, "VALID"},
		{"the figure shown changed", func(s string) string { return strings.Replace(s, ">23.4%<", ">3.4%<", 1) }, Invalid, "MODIFIED"},
		{"the figure in its head changed", func(s string) string { return strings.Replace(s, `"similarity":0.234`, `"similarity":0.034`, 1) }, Invalid, "MODIFIED"},
		{"a word changed", func(s string) string { return strings.Replace(s, "卷积神经网络", "循环神经网络", 1) }, Invalid, "MODIFIED"},
		{"a highlight's colour changed", func(s string) string { return strings.Replace(s, ".s0{--c:#4363d8", ".s0{--c:#ffffff", 1) }, Invalid, "MODIFIED"},
		{"a script added after the signature", func(s string) string {
			return s + `<script>document.querySelector(".fig b").textContent="3.4%"</script>` + "\n"
		}, Invalid, "MODIFIED"},
		{"a script added before it", func(s string) string {
			return s[:sigAt] + `<script>document.title="x"</script>` + "\n" + s[sigAt:]
		}, Invalid, "MODIFIED"},
		{"signature removed", func(s string) string { return s[:sigAt] }, Invalid, "NOT SIGNED"},
		{"re-signed by another key", func(s string) string {
			page, err := signHTML([]byte(strings.Replace(s[:sigAt], ">23.4%<", ">3.4%<", 1)), forger.signer)
			if err != nil {
				t.Fatal(err)
			}
			return string(page)
		}, Untrusted, "NOT TRUSTED"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			edited := tc.edit(good)
			if tc.name != "unchanged" && edited == good {
				t.Fatal("the edit did not change the file")
			}
			path := writeTemp(t, "r.html", []byte(edited))
			if !LooksLikeReport(path) {
				t.Error("not recognised as a report")
			}
			res := me.verifyAs(t, path)
			wantVerdict(t, res, tc.verdict, tc.headline)
			if res.Format != "HTML" || res.Summary == nil || res.Summary.Number != sampleReport(t).Number {
				t.Errorf("format %s, summary %+v", res.Format, res.Summary)
			}
			if tc.verdict == Trusted && (res.Summary.Similarity != 0.234 || !strings.Contains(res.String(), "similarity 23.4%")) {
				t.Errorf("the verdict does not state the signed figure:\n%s", res)
			}
		})
	}
	// Any other HTML page is no report.
	if _, err := Verify(writeTemp(t, "page.html", []byte("<!DOCTYPE html>\n<html><body>23.4%</body></html>\n")), VerifyOptions{}); !errors.Is(err, ErrNoReport) {
		t.Errorf("a page of another program: %v", err)
	}
}

// TestVerifyOtherInstallation: a report signed on another installation is not trusted until its key
// is, and no more once the key is removed; the same for JSON and PDF reports.
func TestVerifyOtherInstallation(t *testing.T) {
	me, colleague := newInstallation(t), newInstallation(t)
	r := sampleReport(t)
	files := map[string]string{
		"json": writeTemp(t, "r.json", reportJSON(t, r, colleague.signer)),
		"pdf":  writeTemp(t, "r.pdf", reportPDF(t, r, colleague.signer)),
	}
	for format, path := range files {
		res := me.verifyAs(t, path)
		wantVerdict(t, res, Untrusted, "NOT TRUSTED")
		if !strings.Contains(res.String(), colleague.signer.Fingerprint()) || !strings.Contains(res.String(), "thesischeck keys trust FILE") {
			t.Errorf("%s: the verdict does not give the fingerprint and how to trust it:\n%s", format, res)
		}
		if res.Signer.Subject != colleague.signer.Cert.Subject.CommonName {
			t.Errorf("%s: signer named %q", format, res.Signer.Subject)
		}
		if res := colleague.verifyAs(t, path); res.Verdict != Trusted || !res.Signer.Own {
			t.Errorf("%s: the signer's own installation does not trust it: %s", format, res)
		}
	}
	if _, _, err := me.trust(t).Trust(colleague.signer.CertPath, "Li Wei"); err != nil {
		t.Fatal(err)
	}
	for format, path := range files {
		res := me.verifyAs(t, path)
		wantVerdict(t, res, Trusted, `VALID: unchanged since it was signed by "Li Wei"`)
		if format == "pdf" && res.Summary.Number != r.Number {
			t.Errorf("the PDF's report is %q", res.Summary.Number)
		}
	}
	if _, err := me.trust(t).Remove("Li Wei"); err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		wantVerdict(t, me.verifyAs(t, path), Untrusted, "NOT TRUSTED")
	}
}

// TestVerifyLegacy: reports signed with the Ed25519 key of ThesisCheck before PDF signatures. The
// golden JSON report those versions wrote still verifies, as the installation's own when its old
// key is there, and as another's once its report-key.pub is trusted. Their PDF reports, whose pages
// were never signed, are not valid, but say that the report inside them still is.
func TestVerifyLegacy(t *testing.T) {
	legacyJSON, err := os.ReadFile(filepath.Join("testdata", "legacy-ed25519.json"))
	if err != nil {
		t.Fatal(err)
	}
	upgraded := newInstallation(t)
	der, _ := x509.MarshalPKCS8PrivateKey(legacyKey())
	if err := os.WriteFile(filepath.Join(upgraded.dir, keys.LegacyKeyFile), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	path := writeTemp(t, "old.json", legacyJSON)
	res := upgraded.verifyAs(t, path)
	wantVerdict(t, res, Trusted, "VALID: unchanged since it was signed by your own previous key")
	if res.Signer.Algorithm != "Ed25519" {
		t.Errorf("signer %+v", res.Signer)
	}
	changed := writeTemp(t, "changed.json", bytes.Replace(legacyJSON, []byte(`"similarity": 0.234`), []byte(`"similarity": 0.034`), 1))
	wantVerdict(t, upgraded.verifyAs(t, changed), Invalid, "MODIFIED")

	other := newInstallation(t)
	wantVerdict(t, other.verifyAs(t, path), Untrusted, "NOT TRUSTED")
	pubDER, _ := x509.MarshalPKIXPublicKey(legacyKey().Public())
	pub := writeTemp(t, keys.LegacyPublicKeyFile, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}))
	if _, _, err := other.trust(t).Trust(pub, "old colleague"); err != nil {
		t.Fatal(err)
	}
	wantVerdict(t, other.verifyAs(t, path), Trusted, `VALID: unchanged since it was signed by "old colleague"`)

	// An old PDF report: the JSON inside signed with the old key, the file not signed.
	var old Report
	if err := json.Unmarshal(legacyJSON, &old); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := old.writePDF(&buf, true, nil); err != nil {
		t.Fatal(err)
	}
	res = upgraded.verifyAs(t, writeTemp(t, "old.pdf", buf.Bytes()))
	wantVerdict(t, res, Invalid, "NOT SIGNED")
	if !strings.Contains(res.String(), "The JSON report inside the PDF is unchanged since it was signed by your own previous key") ||
		!strings.Contains(res.String(), "similarity 23.4%") {
		t.Errorf("an old PDF report does not say that the report inside it is intact, and what it says:\n%s", res)
	}
}

// utf16be is how fpdf writes text in a Unicode font.
func utf16be(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

func qpdf(t *testing.T, args ...string) {
	t.Helper()
	bin, err := exec.LookPath("qpdf")
	if err != nil {
		t.Fatal("qpdf not found: install qpdf (make deps)")
	}
	out, err := exec.Command(bin, args...).CombinedOutput()
	// Exit status 3 is success with warnings.
	if ee := (*exec.ExitError)(nil); err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 3) {
		t.Fatalf("qpdf %v: %v\n%s", args, err, out)
	}
}

// firstPageContent returns the first page's object number, its dictionary and its content stream,
// inflated.
func firstPageContent(t *testing.T, data []byte) (int, []byte, []byte) {
	t.Helper()
	f, err := parsePDF(data)
	if err != nil {
		t.Fatal(err)
	}
	page := f.pages()[0]
	m := contRe.FindSubmatch(f.objs[page].dict)
	refs := refRe.FindAllSubmatch(m[1], -1)
	if len(refs) != 1 {
		t.Fatalf("the first page has %d content streams", len(refs))
	}
	var n int
	fmt.Sscan(string(refs[0][1]), &n)
	content, err := f.objs[n].inflated()
	if err != nil {
		t.Fatal(err)
	}
	return page, f.objs[page].dict, content
}

// forgeFirstPage appends an incremental update, as any PDF editor saves an edit (or a student with
// a text editor writes one): a new content stream, the first page again pointing at it, a new xref
// section and trailer. The new content is the old with old replaced by repl.
func forgeFirstPage(t *testing.T, data []byte, old, repl string) []byte {
	t.Helper()
	page, dict, content := firstPageContent(t, data)
	if !bytes.Contains(content, utf16be(old)) {
		t.Fatalf("the first page does not show %q", old)
	}
	content = bytes.Replace(content, utf16be(old), utf16be(repl), 1)
	last := func(re string) string {
		ms := regexp.MustCompile(re).FindAllSubmatch(data, -1)
		if len(ms) == 0 {
			t.Fatalf("no %s in the file", re)
		}
		return string(ms[len(ms)-1][1])
	}
	root, prev, size := last(`/Root\s+(\d+\s+\d+\s+R)`), last(`startxref\s+(\d+)`), 0
	fmt.Sscan(last(`/Size\s+(\d+)`), &size)
	var b bytes.Buffer
	b.Write(data)
	contentAt := b.Len()
	fmt.Fprintf(&b, "%d 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n", size, len(content), content)
	pageAt := b.Len()
	fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", page, contRe.ReplaceAll(dict, []byte(fmt.Sprintf("/Contents %d 0 R", size))))
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n%d 1\n%010d 00000 n \n%d 1\n%010d 00000 n \n", page, pageAt, size, contentAt)
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %s /Prev %s >>\nstartxref\n%d\n%%%%EOF\n", size+1, root, prev, xref)
	return b.Bytes()
}

func pdftotextPage1(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command(popplerTool(t, "pdftotext"), "-f", "1", "-l", "1", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// stampPDF is a page that covers the overall figure with a smaller one, for qpdf --overlay.
func stampPDF(t *testing.T) string {
	t.Helper()
	p := fpdf.New("P", "mm", "A4", "")
	p.AddPage()
	p.SetFillColor(255, 255, 255)
	p.Rect(20, 40, 60, 20, "F")
	p.SetFont("Helvetica", "B", 20)
	p.Text(25, 55, "2.8%")
	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return writeTemp(t, "stamp.pdf", buf.Bytes())
}

// TestVerifyPDFEdits: a signed PDF report passes, and PDF readers see its signature over the whole
// file; every way of changing it after signing fails.
func TestVerifyPDFEdits(t *testing.T) {
	me := newInstallation(t)
	r := sampleReport(t)
	data := reportPDF(t, r, me.signer)
	good := writeTemp(t, "good.pdf", data)
	res := me.verifyAs(t, good)
	wantVerdict(t, res, Trusted, "VALID: unchanged since it was signed by your own key")
	if res.Summary.Number != r.Number || res.Format != "PDF" {
		t.Errorf("summary %+v", res.Summary)
	}

	out, err := exec.Command(popplerTool(t, "pdfsig"), good).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfsig: %v\n%s", err, out)
	}
	for _, want := range []string{"Signature is Valid.", "Total document signed", "adbe.pkcs7.detached", me.signer.Cert.Subject.CommonName} {
		if !strings.Contains(string(out), want) {
			t.Errorf("pdfsig does not say %q:\n%s", want, out)
		}
	}

	// The same report written without compression, for an edit of the text in a content stream.
	c := *r
	if err := c.Sign(me.signer); err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	if err := c.writePDF(&plain, false, me.signer); err != nil {
		t.Fatal(err)
	}
	wantVerdict(t, me.verifyAs(t, writeTemp(t, "plain.pdf", plain.Bytes())), Trusted, "VALID")

	forged := writeTemp(t, "forged.pdf", forgeFirstPage(t, data, "23.4%", "2.8%"))
	if page1 := pdftotextPage1(t, forged); !strings.Contains(page1, "2.8%") || strings.Contains(page1, "23.4%") {
		t.Fatalf("the forged first page does not show 2.8%% in place of 23.4%%:\n%s", page1)
	}
	out, _ = exec.Command(popplerTool(t, "pdfsig"), forged).CombinedOutput()
	if strings.Contains(string(out), "Total document signed") {
		t.Errorf("pdfsig says the forged file is signed whole:\n%s", out)
	}

	dir := t.TempDir()
	overlaid, qdf, objstm := filepath.Join(dir, "overlay.pdf"), filepath.Join(dir, "qdf.pdf"), filepath.Join(dir, "objstm.pdf")
	qpdf(t, good, "--overlay", stampPDF(t), "--", overlaid)
	qpdf(t, "--qdf", good, qdf)
	qpdf(t, "--object-streams=generate", good, objstm)

	editByte := func(in []byte) []byte { // one byte in the middle of the first page's content stream
		f, err := parsePDF(in)
		if err != nil {
			t.Fatal(err)
		}
		m := contRe.FindSubmatch(f.objs[f.pages()[0]].dict)
		var n int
		fmt.Sscan(string(refRe.FindSubmatch(m[1])[1]), &n)
		s := f.objs[n].stream
		at := bytes.Index(in, s) + len(s)/2
		out := bytes.Clone(in)
		out[at] ^= 0x01
		return out
	}
	tests := []struct {
		name, path, want string
	}{
		{"incremental update of the first page", forged, "bytes added after the signed part"},
		{"qpdf --overlay", overlaid, ""},
		{"qpdf --qdf", qdf, ""},
		{"qpdf --object-streams=generate", objstm, ""},
		{"a byte of a content stream", writeTemp(t, "byte.pdf", editByte(data)), "changed after it was signed"},
		{"text of an uncompressed content stream", writeTemp(t, "text.pdf", bytes.Replace(plain.Bytes(), utf16be("23.4%"), utf16be("03.4%"), 1)), "changed after it was signed"},
		{"a byte appended", writeTemp(t, "appended.pdf", append(bytes.Clone(data), '\n')), "1 byte added after the signed part"},
		{"truncated", writeTemp(t, "truncated.pdf", data[:len(data)-100]), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := me.verifyAs(t, tc.path)
			t.Log(res)
			if res.Verdict != Invalid || !strings.HasPrefix(res.String(), "MODIFIED") && !strings.HasPrefix(res.String(), "NOT SIGNED") {
				t.Fatalf("got:\n%s", res)
			}
			if !strings.Contains(res.String(), tc.want) {
				t.Errorf("the verdict does not say %q:\n%s", tc.want, res)
			}
		})
	}
}

func TestVerifyPDFOddFiles(t *testing.T) {
	me, other := newInstallation(t), newInstallation(t)
	r := sampleReport(t)

	t.Run("unsigned", func(t *testing.T) {
		c := *r
		if err := c.Sign(me.signer); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := c.writePDF(&buf, true, nil); err != nil {
			t.Fatal(err)
		}
		res := me.verifyAs(t, writeTemp(t, "unsigned.pdf", buf.Bytes()))
		wantVerdict(t, res, Invalid, "NOT SIGNED")
		if res.Embedded == nil || !res.Embedded.Intact {
			t.Errorf("the report inside is not said to be intact:\n%s", res)
		}
	})
	t.Run("report inside signed by another key", func(t *testing.T) {
		c := *r
		if err := c.Sign(other.signer); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := c.writePDF(&buf, true, me.signer); err != nil {
			t.Fatal(err)
		}
		res := me.verifyAs(t, writeTemp(t, "mixed.pdf", buf.Bytes()))
		wantVerdict(t, res, Invalid, "INVALID")
		if !strings.Contains(res.String(), "not signed by the key that signed the PDF") {
			t.Errorf("got:\n%s", res)
		}
	})
	t.Run("writer refuses an unsigned report", func(t *testing.T) {
		var buf bytes.Buffer
		if err := sampleReport(t).WritePDF(&buf, me.signer); err == nil {
			t.Error("WritePDF wrote a report whose JSON is not signed")
		}
	})
	t.Run("signed PDF without a report", func(t *testing.T) {
		signed, err := signPDF(readFile(t, stampPDF(t)), me.signer, "test", r.Created)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Verify(writeTemp(t, "stamp-signed.pdf", signed), VerifyOptions{Trust: me.trust(t)}); !errors.Is(err, ErrNoReport) {
			t.Fatalf("got %v, want ErrNoReport", err)
		}
	})
	t.Run("not a report", func(t *testing.T) {
		for name, content := range map[string]string{
			"other.pdf":  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
			"other.json": `{"hello": "world"}`,
			"array.json": `[1, 2]`,
			"text.txt":   "just text",
			"empty.json": "",
		} {
			if _, err := Verify(writeTemp(t, name, []byte(content)), VerifyOptions{}); !errors.Is(err, ErrNoReport) {
				t.Errorf("%s: got %v, want ErrNoReport", name, err)
			}
		}
		if _, err := Verify(t.TempDir(), VerifyOptions{}); err == nil {
			t.Error("a folder verified")
		}
	})
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestVerifyDocument(t *testing.T) {
	me := newInstallation(t)
	thesis := writeTemp(t, "thesis.txt", []byte("论文正文。"))
	other := writeTemp(t, "other.txt", []byte("另一篇论文。"))
	sum := sha256.Sum256(readFile(t, thesis))
	r := sampleReport(t)
	r.Document.SHA256 = hex.EncodeToString(sum[:])
	for _, format := range []string{"json", "pdf"} {
		var data []byte
		if format == "json" {
			data = reportJSON(t, r, me.signer)
		} else {
			data = reportPDF(t, r, me.signer)
		}
		path := writeTemp(t, "r."+format, data)
		res, err := Verify(path, VerifyOptions{Trust: me.trust(t), Document: thesis})
		if err != nil {
			t.Fatal(err)
		}
		wantVerdict(t, res, Trusted, "VALID")
		if !res.DocumentMatches || !strings.Contains(res.String(), "it is about "+thesis) {
			t.Errorf("%s: %s", format, res)
		}
		res, err = Verify(path, VerifyOptions{Trust: me.trust(t), Document: other})
		if err != nil {
			t.Fatal(err)
		}
		wantVerdict(t, res, Invalid, "WRONG DOCUMENT")
		if !strings.Contains(res.String(), "the report is about another file") {
			t.Errorf("%s: %s", format, res)
		}
	}
	if _, err := Verify(writeTemp(t, "r.json", reportJSON(t, r, me.signer)), VerifyOptions{Document: filepath.Join(t.TempDir(), "missing.pdf")}); err == nil {
		t.Error("a missing --document file is not an error")
	}
}

func TestVerifyComparison(t *testing.T) {
	me, colleague := newInstallation(t), newInstallation(t)
	c := sampleComparison(t)
	if err := SignComparison(c, me.signer); err != nil {
		t.Fatal(err)
	}
	var js, pdf bytes.Buffer
	if err := c.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonPDF(&pdf, c, me.signer); err != nil {
		t.Fatal(err)
	}
	var html bytes.Buffer
	if err := WriteComparisonHTML(&html, c, me.signer); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"c.json": js.Bytes(), "c.pdf": pdf.Bytes(), "c.html": html.Bytes()} {
		path := writeTemp(t, name, data)
		res := me.verifyAs(t, path)
		wantVerdict(t, res, Trusted, "VALID")
		if res.Summary.Kind != KindComparison || res.Summary.Documents != len(c.Documents) || res.Summary.Flagged != len(c.Flagged()) {
			t.Errorf("%s: summary %+v", name, res.Summary)
		}
		wantVerdict(t, colleague.verifyAs(t, path), Untrusted, "NOT TRUSTED")
		res, err := Verify(path, VerifyOptions{Trust: me.trust(t), Document: path})
		if err != nil {
			t.Fatal(err)
		}
		wantVerdict(t, res, Invalid, "WRONG DOCUMENT")
	}
	changed := bytes.Replace(js.Bytes(), []byte(`"threshold": 0.15`), []byte(`"threshold": 0.5`), 1)
	if bytes.Equal(changed, js.Bytes()) {
		t.Fatal("the edit did not change the file")
	}
	wantVerdict(t, me.verifyAs(t, writeTemp(t, "changed.json", changed)), Invalid, "MODIFIED")
}

// mapCanonical is the canonical form as ThesisCheck first made it: decoded into a map, encoded
// again. canonicalJSON must give the same bytes.
func mapCanonical(t *testing.T, data []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	delete(v, "signature")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestCanonicalJSON(t *testing.T) {
	inputs := []string{
		string(readFile(t, filepath.Join("testdata", "legacy-ed25519.json"))),
		`{"b": 1, "a": [true, false, null, {"z": "x", "y": 1.50e3}], "signature": "drop me"}`,
		`{"k": 1, "k": 2, "j": {"x": 1, "x": {"q": 3}}}`,
		`{"s": "<&> \u2028 \u0001 \t \" \\ / é 中文 😀", "\u4e2d": "key escaped"}`,
		"{\"bad\": \"\xff\xfe invalid UTF-8\"}",
		`{"nested": {"signature": "kept below the top"}, "n": -0.0e-1}`,
		`{}`,
	}
	for _, in := range inputs {
		got, err := canonicalJSON([]byte(in))
		if err != nil {
			t.Fatalf("%.40q: %v", in, err)
		}
		if want := mapCanonical(t, []byte(in)); !bytes.Equal(got, want) {
			t.Errorf("%.40q:\ngot  %s\nwant %s", in, got, want)
		}
	}
	for _, bad := range []string{`[1]`, `{"a": 1} {"b": 2}`, `{"a": `, strings.Repeat(`{"a":`, 20) + "1" + strings.Repeat("}", 20)} {
		if _, err := canonicalJSON([]byte(bad)); err == nil {
			t.Errorf("%.40q: no error", bad)
		}
	}
}

func TestSignRejectsNaN(t *testing.T) {
	r := sampleReport(t)
	r.Similarity = 0
	r.Similarity /= r.Similarity // NaN, as a division by an empty document would give
	if err := r.Sign(fixedSigner()); err == nil {
		t.Fatal("Sign accepted a NaN figure it cannot encode")
	}
}

// BenchmarkVerifyPDF verifies a signed 100-page thesis report.
func BenchmarkVerifyPDF(b *testing.B) {
	in := newInstallation(b)
	path := writeTemp(b, "big.pdf", reportPDF(b, bigReport(b, 100), in.signer))
	trust := in.trust(b)
	for b.Loop() {
		res, err := Verify(path, VerifyOptions{Trust: trust})
		if err != nil || res.Verdict != Trusted {
			b.Fatalf("%v %s", err, res)
		}
	}
}

func TestLooksLikeReport(t *testing.T) {
	me := newInstallation(t)
	r := sampleReport(t)
	c := sampleComparison(t)
	if err := SignComparison(c, me.signer); err != nil {
		t.Fatal(err)
	}
	var cj, cp, legacy bytes.Buffer
	c.WriteJSON(&cj)
	if err := WriteComparisonPDF(&cp, c, me.signer); err != nil {
		t.Fatal(err)
	}
	if err := r.writePDF(&legacy, true, nil); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		want bool
	}{
		{"JSON report", writeTemp(t, "r.json", reportJSON(t, r, me.signer)), true},
		{"PDF report", writeTemp(t, "r.pdf", reportPDF(t, r, me.signer)), true},
		{"JSON comparison", writeTemp(t, "c.json", cj.Bytes()), true},
		{"PDF comparison", writeTemp(t, "c.pdf", cp.Bytes()), true},
		{"PDF report of an older ThesisCheck", writeTemp(t, "old.pdf", legacy.Bytes()), true},
		{"thesis PDF", filepath.Join("..", "extract", "testdata", "bad", "good.pdf"), false},
		{"thesis text", filepath.Join("..", "check", "testdata", "original.txt"), false},
		{"JSON of something else", writeTemp(t, "x.json", []byte(`{"report": 1}`)), false},
		{"folder", t.TempDir(), false},
		{"named pipe", fifo, false},
		{"missing", filepath.Join(t.TempDir(), "missing.pdf"), false},
	}
	for _, tc := range tests {
		if got := LooksLikeReport(tc.path); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// randomJSON writes a random object for the canonical form's tests: nested objects and arrays (now
// and then past maxJSONDepth), repeated keys, "signature" keys, numbers in every form, literals,
// and strings with escapes, control characters, U+2028 and U+2029, HTML characters, astral
// characters, broken surrogates and bytes that are not UTF-8, with space between tokens.
func randomJSON(rng *rand.Rand, b *bytes.Buffer, depth int) {
	space := func() {
		for range rng.IntN(3) {
			b.WriteString([]string{" ", "\n", "\t", "\r\n  "}[rng.IntN(4)])
		}
	}
	str := func() {
		pieces := []string{"a", "中文", "é", "😀", `\"`, `\\`, `\/`, `\n`, `\t`, `\b`, `\f`, `\u0001`, `\u001f`,
			`\u2028`, "\u2028", "\u2029", `\u00e9`, `\ud83d\ude00`, `\ud83d`, `\udc00x`, "<&>", "\x7f", "\xff", "\xe2\x80", "sig", "signature", " "}
		b.WriteByte('"')
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		b.WriteByte('"')
	}
	var val func(d int)
	object := func(d, members int, keys ...string) {
		b.WriteByte('{')
		for i := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			space()
			if rng.IntN(3) == 0 {
				b.WriteString(keys[rng.IntN(len(keys))])
			} else {
				str()
			}
			space()
			b.WriteByte(':')
			val(d + 1)
			space()
		}
		b.WriteByte('}')
	}
	val = func(d int) {
		space()
		switch k := rng.IntN(10); {
		case k < 2 && d < maxJSONDepth+2:
			object(d, rng.IntN(5), `"signature"`, `"k"`, `"a"`, `"\u006b"`)
		case k < 4 && d < maxJSONDepth+2:
			b.WriteByte('[')
			for i := range rng.IntN(5) {
				if i > 0 {
					b.WriteByte(',')
				}
				val(d + 1)
				space()
			}
			b.WriteByte(']')
		case k < 6:
			str()
		case k < 8:
			b.WriteString([]string{"0", "-0", "1.50e3", "-0.0e-1", "123456789012345678901234567890", "1E+2", "3.14159"}[rng.IntN(7)])
		default:
			b.WriteString([]string{"true", "false", "null"}[rng.IntN(3)])
		}
	}
	object(depth, rng.IntN(6), `"signature"`)
}

// The in-place reading of a valid document gives the bytes json.Decoder's tokens give, and is
// taken for every document they accept; what they refuse, it refuses too.
func TestScanCanonicalMatchesTokens(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	scanned, refused := 0, 0
	for i := range 3000 {
		var b bytes.Buffer
		randomJSON(rng, &b, 0)
		data := b.Bytes()
		checkCanonicalForms(t, fmt.Sprint("document ", i), data)
		if _, err := tokenCanonical(data); err == nil {
			scanned++
		} else {
			refused++
		}
	}
	for _, f := range []string{"legacy-ed25519.json", "sample.json.golden"} {
		checkCanonicalForms(t, f, readFile(t, filepath.Join("testdata", f)))
	}
	if scanned < 1000 || refused == 0 {
		t.Errorf("%d documents read, %d refused: the generator misses a case", scanned, refused)
	}
}

// checkCanonicalForms fails when scanCanonical and tokenCanonical disagree on data.
func checkCanonicalForms(t testing.TB, name string, data []byte) {
	t.Helper()
	want, err := tokenCanonical(data)
	got, ok := []byte(nil), false
	if json.Valid(data) {
		got, ok = scanCanonical(data)
	}
	switch {
	case err != nil && ok:
		t.Fatalf("%s: read in place where the tokens say %v:\n%q", name, err, data)
	case err == nil && !ok:
		t.Fatalf("%s: refused in place, read by the tokens:\n%q", name, data)
	case ok && !bytes.Equal(got, want):
		t.Fatalf("%s: in place\n%s\ntokens\n%s\nof %q", name, got, want, data)
	}
}
