package report

import (
	"bytes"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"

	"thesischeck/keys"
)

// Fuzz targets for the report readers: `thesischeck verify` and the app open files that anyone
// may hand them. Whatever the bytes, the readers return a result or an error, never panic or hang,
// and a report is only valid when it is signed, intact and by a trusted key.

func signedSampleBytes(f *testing.F) (jsonData, pdfData []byte) {
	r := sampleReport(f)
	s := fixedSigner()
	if err := r.Sign(s); err != nil {
		f.Fatal(err)
	}
	var j, p bytes.Buffer
	if err := r.WriteJSON(&j); err != nil {
		f.Fatal(err)
	}
	if err := r.WritePDF(&p, s); err != nil {
		f.Fatal(err)
	}
	return j.Bytes(), p.Bytes()
}

// fuzzTrust trusts the fixed signer, so that the seeds verify as valid and mutations of them can
// be judged against that.
func fuzzTrust(f *testing.F) *keys.Store {
	dir := f.TempDir()
	cert := filepath.Join(dir, "golden.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: fixedSigner().Cert.Raw}), 0o644); err != nil {
		f.Fatal(err)
	}
	st, err := keys.Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	if _, _, err := st.Trust(cert, "golden"); err != nil {
		f.Fatal(err)
	}
	return st
}

func FuzzVerifyJSON(f *testing.F) {
	golden, err := os.ReadFile(filepath.Join("testdata", "sample.json.golden"))
	if err != nil {
		f.Fatal(err)
	}
	signed, _ := signedSampleBytes(f)
	for _, seed := range [][]byte{golden, signed, signed[:len(signed)/2], []byte("{}"), []byte(`{"report_number":"X","signature":"AA==","public_key":"AA=="}`), nil} {
		f.Add(seed)
	}
	trust := fuzzTrust(f)
	f.Fuzz(func(t *testing.T, data []byte) { checkVerdict(t, verifyJSON, trust, data) })
}

// checkVerdict verifies data and checks that the verdict holds together: either an error, or a
// report with a verdict that a signature backs and a problem named when it fails.
func checkVerdict(t *testing.T, verify func([]byte, *keys.Store) (VerifyResult, error), trust *keys.Store, data []byte) {
	t.Helper()
	res, err := verify(data, trust)
	if err != nil {
		return
	}
	res.Verdict = res.verdict()
	if res.Summary == nil && res.Verdict != Invalid {
		t.Fatal("no error and no report")
	}
	switch res.Verdict {
	case Trusted:
		if !res.Signed || !res.Intact || res.Signer == nil || !res.Signer.Trusted {
			t.Fatalf("valid without a trusted signature: %+v", res)
		}
	case Untrusted:
		if !res.Signed || !res.Intact || res.Signer == nil || res.Signer.Trusted {
			t.Fatalf("untrusted without an intact signature by an untrusted key: %+v", res)
		}
	case Invalid:
		if len(res.Problems) == 0 {
			t.Fatal("invalid without a problem named")
		}
	}
	_ = res.String()
}

func FuzzVerifyPDF(f *testing.F) {
	_, signed := signedSampleBytes(f)
	f.Add(signed)
	f.Add(signed[:len(signed)*3/4])
	f.Add(bytes.Replace(signed, []byte("/EmbeddedFile"), []byte("/EmbeddedFilX"), 1))
	for _, name := range []string{"truncated.pdf", "corrupt.pdf", "encrypted.pdf", "good.pdf"} {
		data, err := os.ReadFile(filepath.Join("..", "extract", "testdata", "bad", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	trust := fuzzTrust(f)
	f.Fuzz(func(t *testing.T, data []byte) { checkVerdict(t, verifyPDF, trust, data) })
}

// FuzzCanonicalJSON: the in-place canonical form agrees with the tokens' on any bytes.
func FuzzCanonicalJSON(f *testing.F) {
	js, _ := signedSampleBytes(f)
	f.Add(js)
	for _, s := range []string{`{"b": 1, "a": [true, {"z": "\u2028\ud83d"}], "signature": "x", "b": 2}`,
		"{\"k\": \"\xff<&>\", \"\\u006b\": [[[]]], \"n\": -0.0e-1}", `[1]`, `{"a": 1} {"b": 2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkCanonicalForms(t, "input", data)
	})
}
