package report

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

func testKey(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	key, err := LoadOrCreateKey(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func TestLoadOrCreateKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "config", "thesischeck")
	k1, err := LoadOrCreateKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", st.Mode().Perm())
	}
	pub, err := os.ReadFile(filepath.Join(dir, PublicKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	fp := Fingerprint(k1.Public().(ed25519.PublicKey))
	if !strings.Contains(string(pub), "PUBLIC KEY") || !strings.Contains(string(pub), fp) {
		t.Errorf("public key file does not hold the PEM key with fingerprint %s:\n%s", fp, pub)
	}
	k2, err := LoadOrCreateKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !k1.Equal(k2) {
		t.Error("second LoadOrCreateKey made a new key instead of loading the first")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("key directory holds %d files, want the key and its public half", len(entries))
	}
}

func TestLoadOrCreateKeyRejectsGarbage(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, KeyFile), []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateKey(dir); err == nil {
		t.Fatal("a corrupt key file was accepted (or silently replaced)")
	}
}

func signedSample(t *testing.T) (*Report, ed25519.PrivateKey) {
	t.Helper()
	r := sampleReport(t)
	key := testKey(t)
	if err := r.Sign(key); err != nil {
		t.Fatal(err)
	}
	return r, key
}

func TestVerifyJSON(t *testing.T) {
	r, key := signedSample(t)
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	other := testKey(t)

	// reindent re-encodes the report with another layout: the content is unchanged.
	reindent := func(s string) string {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.MarshalIndent(v, "", "\t")
		return string(b)
	}
	resign := func(s string) string { // a forger re-signing with their own key
		var r2 Report
		if err := json.Unmarshal([]byte(s), &r2); err != nil {
			t.Fatal(err)
		}
		r2.Similarity = 0.01
		if err := r2.Sign(other); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		r2.WriteJSON(&b)
		return b.String()
	}
	tests := []struct {
		name   string
		edit   func(string) string
		valid  bool
		signed bool
		fp     string
	}{
		{"unchanged", func(s string) string { return s }, true, true, Fingerprint(key.Public().(ed25519.PublicKey))},
		{"re-indented", reindent, true, true, Fingerprint(key.Public().(ed25519.PublicKey))},
		{"figure changed", func(s string) string { return strings.Replace(s, `"similarity": 0.234`, `"similarity": 0.034`, 1) }, false, true, ""},
		{"copied chars changed", func(s string) string { return strings.Replace(s, `"copied_chars": 289`, `"copied_chars": 28`, 1) }, false, true, ""},
		{"text changed", func(s string) string { return strings.Replace(s, "卷积神经网络", "循环神经网络", 1) }, false, true, ""},
		{"field added", func(s string) string { return strings.Replace(s, `{`, `{"approved": true,`, 1) }, false, true, ""},
		{"signature removed", func(s string) string {
			var m map[string]any
			json.Unmarshal([]byte(s), &m)
			delete(m, "signature")
			b, _ := json.Marshal(m)
			return string(b)
		}, false, false, ""},
		{"re-signed by another key", resign, true, true, Fingerprint(other.Public().(ed25519.PublicKey))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			edited := tc.edit(good)
			if tc.name != "unchanged" && tc.name != "re-indented" && edited == good {
				t.Fatal("the edit did not change the file")
			}
			path := filepath.Join(t.TempDir(), "r.json")
			if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := Verify(path)
			if err != nil {
				t.Fatal(err)
			}
			if res.Valid != tc.valid || res.Signed != tc.signed {
				t.Fatalf("Valid=%v Signed=%v, want %v %v: %s", res.Valid, res.Signed, tc.valid, tc.signed, res)
			}
			switch {
			case tc.valid:
				if res.Fingerprint != tc.fp || res.String() != "valid, signed by key "+tc.fp {
					t.Errorf("got %q, want signed by %s", res, tc.fp)
				}
			case tc.signed:
				if !strings.HasPrefix(res.String(), "MODIFIED: the content does not match its signature") {
					t.Errorf("got %q, want MODIFIED", res)
				}
			default:
				if !strings.HasPrefix(res.String(), "NOT SIGNED") {
					t.Errorf("got %q, want NOT SIGNED", res)
				}
			}
		})
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

func TestVerifyPDF(t *testing.T) {
	r, _ := signedSample(t)
	dir := t.TempDir()
	write := func(name string, rep *Report, compress bool, edit func([]byte) []byte) string {
		var buf bytes.Buffer
		if err := rep.writePDF(&buf, compress); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		if edit != nil {
			data = edit(bytes.Clone(data))
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}

	t.Run("valid", func(t *testing.T) {
		for _, compress := range []bool{true, false} {
			res, err := Verify(write("good.pdf", r, compress, nil))
			if err != nil {
				t.Fatal(err)
			}
			if !res.Valid || res.Report.Number != r.Number {
				t.Fatalf("compress=%v: %s", compress, res)
			}
		}
	})
	t.Run("visible figure changed", func(t *testing.T) {
		path := write("figure.pdf", r, false, func(b []byte) []byte {
			old, repl := utf16be("23.4%"), utf16be("03.4%")
			if bytes.Count(b, old) != 1 {
				t.Fatalf("the uncompressed PDF shows %q %d times, want once", "23.4%", bytes.Count(b, old))
			}
			return bytes.Replace(b, old, repl, 1)
		})
		res, err := Verify(path)
		if err != nil {
			t.Fatal(err)
		}
		if res.Valid || !strings.HasPrefix(res.String(), "MODIFIED") || !strings.Contains(res.String(), `"23.4%"`) {
			t.Fatalf("got %s, want MODIFIED naming 23.4%%", res)
		}
	})
	// Edits of the text layer of an uncompressed PDF, as a PDF editor would make them: each must be
	// found, and named by its paragraph.
	textEdits := []struct {
		name, old, repl, want string
	}{
		{"paragraph text changed", "进行，结果表明所提方法", "进行，结果未能表明方法", "paragraph 8 "},
		{"English paragraph changed", "We build on that", "We did not copy", "paragraph 7 "},
		{"excerpt figure changed", "Jaccard 0.41", "Jaccard 0.11", "paragraph 4 "},
		{"excerpt text changed", "然而，模型的可解释性", "然而，模型的准确率性", "paragraph 4 "},
	}
	for _, tc := range textEdits {
		t.Run(tc.name, func(t *testing.T) {
			path := write("text.pdf", r, false, func(b []byte) []byte {
				old := utf16be(tc.old)
				if n := bytes.Count(b, old); n != 1 {
					t.Fatalf("the uncompressed PDF shows %q %d times, want once", tc.old, n)
				}
				return bytes.Replace(b, old, utf16be(tc.repl), 1)
			})
			res, err := Verify(path)
			if err != nil {
				t.Fatal(err)
			}
			if res.Valid || !strings.HasPrefix(res.String(), "MODIFIED") || !strings.Contains(res.String(), tc.want) {
				t.Fatalf("got %s, want MODIFIED naming %q", res, tc.want)
			}
		})
	}
	t.Run("embedded report changed", func(t *testing.T) {
		changed := *r
		changed.CopiedChars = 1 // after signing
		res, err := Verify(write("embedded.pdf", &changed, true, nil))
		if err != nil {
			t.Fatal(err)
		}
		if res.Valid || !strings.HasPrefix(res.String(), "MODIFIED") {
			t.Fatalf("got %s, want MODIFIED", res)
		}
	})
	t.Run("unsigned", func(t *testing.T) {
		res, err := Verify(write("unsigned.pdf", sampleReport(t), true, nil))
		if err != nil {
			t.Fatal(err)
		}
		if res.Valid || res.Signed || !strings.HasPrefix(res.String(), "NOT SIGNED") {
			t.Fatalf("got %s, want NOT SIGNED", res)
		}
	})
	t.Run("not a report", func(t *testing.T) {
		path := filepath.Join(dir, "other.pdf")
		os.WriteFile(path, []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"), 0o644)
		if _, err := Verify(path); !errors.Is(err, ErrNoReport) {
			t.Fatalf("got %v, want ErrNoReport", err)
		}
		path = filepath.Join(dir, "other.json")
		os.WriteFile(path, []byte(`{"hello": "world"}`), 0o644)
		if _, err := Verify(path); !errors.Is(err, ErrNoReport) {
			t.Fatalf("got %v, want ErrNoReport", err)
		}
	})
}

func TestSignRejectsNaN(t *testing.T) {
	r := sampleReport(t)
	r.Similarity = 0
	r.Similarity /= r.Similarity // NaN, as a division by an empty document would give
	if err := r.Sign(testKey(t)); err == nil {
		t.Fatal("Sign accepted a NaN figure it cannot encode")
	}
}

// BenchmarkVerifyPDF verifies a signed 100-page thesis report: signature, first page and full text.
func BenchmarkVerifyPDF(b *testing.B) {
	r := bigReport(b, 100)
	if err := r.Sign(fixedKey()); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "big.pdf")
	if err := r.SavePDF(path); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		res, err := Verify(path)
		if err != nil || !res.Valid {
			b.Fatalf("%v %s", err, res)
		}
	}
}
