package report

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"thesischeck/keys"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixedSigner signs golden reports: a fixed key, a certificate of a fixed date, and deterministic
// ECDSA signatures (RFC 6979) give fixed files.
var fixedSigner = sync.OnceValue(func() *keys.Signer {
	d := make([]byte, 32)
	for i := range d {
		d[i] = byte(i + 1)
	}
	key, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d)
	if err != nil {
		panic(err)
	}
	s, err := keys.NewSigner(key, "golden@example", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		panic(err)
	}
	return s
})

// legacyKey is the Ed25519 key that signed testdata/legacy-ed25519.json, the golden report as
// ThesisCheck signed it before PDF signatures.
func legacyKey() ed25519.PrivateKey {
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = byte(i)
	}
	return ed25519.NewKeyFromSeed(seed)
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		failed := filepath.Join(t.TempDir(), name)
		os.WriteFile(failed, got, 0o644)
		t.Errorf("output differs from %s; got written to %s (go test ./report -update accepts it)", path, failed)
	}
}

func TestJSONGolden(t *testing.T) {
	r := sampleReport(t)
	if err := r.Sign(fixedSigner()); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.json.golden", buf.Bytes())

	// What was written reads back into the same report, and still verifies.
	path := filepath.Join(t.TempDir(), "r.json")
	if err := r.SaveJSON(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	back.WriteJSON(&again)
	if !bytes.Equal(again.Bytes(), buf.Bytes()) {
		t.Error("a loaded report does not write out the same JSON")
	}
	res, err := Verify(path, VerifyOptions{})
	if err != nil || !res.Signed || !res.Intact || res.Signer.Fingerprint != fixedSigner().Fingerprint() {
		t.Fatalf("golden report does not verify: %v %s", err, res)
	}
}
