package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Fuzz targets for the report readers: `thesischeck verify` and the app open files that anyone
// may hand them. Whatever the bytes, the readers return a result or an error, never panic or hang,
// and a report is only valid when it is signed.

func signedSampleBytes(f *testing.F) (jsonData, pdfData []byte) {
	r := sampleReport(f)
	if err := r.Sign(fixedKey()); err != nil {
		f.Fatal(err)
	}
	var j, p bytes.Buffer
	if err := r.WriteJSON(&j); err != nil {
		f.Fatal(err)
	}
	if err := r.WritePDF(&p); err != nil {
		f.Fatal(err)
	}
	return j.Bytes(), p.Bytes()
}

func FuzzVerifyJSON(f *testing.F) {
	golden, err := os.ReadFile(filepath.Join("testdata", "sample.json.golden"))
	if err != nil {
		f.Fatal(err)
	}
	signed, _ := signedSampleBytes(f)
	for _, seed := range [][]byte{golden, signed, signed[:len(signed)/2], []byte("{}"), []byte(`{"number":"X","signature":"AA==","public_key":"AA=="}`), nil} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkVerdict(t, verifyJSON, data) })
}

// checkVerdict verifies data and checks that the verdict holds together: either an error, or a
// report with a verdict that a signature backs and a problem named when it fails.
func checkVerdict(t *testing.T, verify func([]byte) (VerifyResult, error), data []byte) {
	t.Helper()
	res, err := verify(data)
	if err != nil {
		return
	}
	if res.Report == nil {
		t.Fatal("no error and no report")
	}
	if res.Valid && !res.Signed {
		t.Fatal("valid without a signature")
	}
	if !res.Valid && len(res.Problems) == 0 {
		t.Fatal("invalid without a problem named")
	}
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
	f.Fuzz(func(t *testing.T, data []byte) { checkVerdict(t, verifyPDF, data) })
}
