package report

// Signed reports. A report is signed with an Ed25519 key kept in the user's configuration directory;
// the signature covers a canonical form of the JSON report (every field but "signature", keys sorted,
// numbers as written), so that the JSON file, the copy embedded in a PDF and a re-indented file all
// verify alike, and any changed figure or text does not. A PDF report is also checked against its
// own pages: the figures printed on the first page, and every paragraph and source excerpt of the
// full text, must be those of the signed report inside it.
//
// The signature proves that the report is unchanged since the holder of the key signed it. Whose key
// that is, the fingerprint tells; a reader compares it with the one the issuer publishes.

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

// Key file names inside the key directory.
const (
	KeyFile       = "report-key"     // PKCS #8 PEM private key, mode 0600
	PublicKeyFile = "report-key.pub" // PKIX PEM public key, for giving to readers
)

// signatureContext separates report signatures from anything else the key might ever sign.
const signatureContext = "thesischeck report v1\n"

// ErrNoReport means a file holds no ThesisCheck report to verify.
var ErrNoReport = errors.New("report: no ThesisCheck report found")

// DefaultKeyDir is where the signing key lives: os.UserConfigDir()/thesischeck.
func DefaultKeyDir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("report: key directory: %w", err)
	}
	return filepath.Join(d, "thesischeck"), nil
}

// LoadOrCreateKey returns the signing key kept in dir, creating the key (mode 0600) and its public
// half on first use. Two processes starting at once end up with the same key: the key file is written
// aside and linked into place, and the loser reads the winner's.
func LoadOrCreateKey(dir string) (ed25519.PrivateKey, error) {
	path := filepath.Join(dir, KeyFile)
	if key, err := readKey(path); err == nil {
		if err := ensurePublicKey(dir, key); err != nil {
			return nil, err
		}
		return key, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("report: key directory: %w", err)
	}
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("report: generate key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("report: encode key: %w", err)
	}
	tmp, err := os.CreateTemp(dir, KeyFile+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("report: write key: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("report: write key: %w", err)
	}
	if err := pem.Encode(tmp, &pem.Block{Type: "PRIVATE KEY", Bytes: der}); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("report: write key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("report: write key: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("report: write key: %w", err)
		}
		if key, err = readKey(path); err != nil { // another process won
			return nil, err
		}
	}
	if err := ensurePublicKey(dir, key); err != nil {
		return nil, err
	}
	return key, nil
}

func readKey(path string) (ed25519.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("report: read key: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("report: %s is not a PEM private key", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", path, err)
	}
	key, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("report: %s is not an Ed25519 key", path)
	}
	return key, nil
}

// ensurePublicKey writes the public key next to the private one unless it is there and right.
func ensurePublicKey(dir string, key ed25519.PrivateKey) error {
	pub := key.Public().(ed25519.PublicKey)
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return fmt.Errorf("report: encode public key: %w", err)
	}
	want := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Headers: map[string]string{"Fingerprint": Fingerprint(pub)}, Bytes: der})
	path := filepath.Join(dir, PublicKeyFile)
	if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, want) {
		return nil
	}
	if err := os.WriteFile(path, want, 0o644); err != nil {
		return fmt.Errorf("report: write public key: %w", err)
	}
	return nil
}

// Fingerprint names a public key in a form people can compare: the first 16 hex digits of its
// SHA-256, in groups of four.
func Fingerprint(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	h := hex.EncodeToString(sum[:8])
	return h[0:4] + ":" + h[4:8] + ":" + h[8:12] + ":" + h[12:16]
}

// SignWithUserKey signs r with the user's key in DefaultKeyDir, creating the key on first use. The
// CLI and the desktop app sign every report they write this way.
func (r *Report) SignWithUserKey() error {
	dir, err := DefaultKeyDir()
	if err != nil {
		return err
	}
	key, err := LoadOrCreateKey(dir)
	if err != nil {
		return err
	}
	return r.Sign(key)
}

// Sign signs r with key: it sets PublicKey and Signature. Any later change to r invalidates the
// signature, so sign last, right before saving. It fails only when r cannot be encoded as JSON
// (a NaN figure).
func (r *Report) Sign(key ed25519.PrivateKey) error {
	if len(key) != ed25519.PrivateKeySize {
		return errors.New("report: sign: not an Ed25519 private key")
	}
	r.PublicKey = base64.StdEncoding.EncodeToString(key.Public().(ed25519.PublicKey))
	r.Signature = ""
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("report: sign: %w", err)
	}
	msg, err := canonicalJSON(data)
	if err != nil {
		return fmt.Errorf("report: sign: %w", err)
	}
	r.Signature = base64.StdEncoding.EncodeToString(ed25519.Sign(key, append([]byte(signatureContext), msg...)))
	return nil
}

// canonicalJSON is the signed form of a JSON report: the signature field dropped, object keys sorted,
// no insignificant space, numbers exactly as written, strings re-escaped one way.
func canonicalJSON(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value")
	}
	delete(v, "signature")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// VerifyResult is what Verify found.
type VerifyResult struct {
	Valid       bool     // signed, unchanged, and (for a PDF) showing the signed figures
	Signed      bool     // the report carries a signature and a public key
	Fingerprint string   // of the key that signed it, when Signed
	Report      *Report  // the report that was checked (for a PDF, the one embedded in it)
	Problems    []string // what does not match, in the reader's words
}

// String is the verdict in one line, then the problems, one per line.
func (v VerifyResult) String() string {
	var head string
	switch {
	case v.Valid:
		return "valid, signed by key " + v.Fingerprint
	case !v.Signed:
		head = "NOT SIGNED: the report carries no signature"
	default:
		head = "MODIFIED: the content does not match its signature"
	}
	if len(v.Problems) == 0 {
		return head
	}
	return head + "\n  - " + strings.Join(v.Problems, "\n  - ")
}

// Verify checks the report in a JSON or PDF file (told apart by content, not name). The error is
// for files that cannot be read or hold no report; a report that fails verification is a result
// with Valid false.
func Verify(path string) (VerifyResult, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return VerifyResult{}, fmt.Errorf("report: %w", err)
	}
	if bytes.HasPrefix(data, []byte("%PDF-")) {
		res, err := verifyPDF(data)
		if err != nil {
			return res, fmt.Errorf("report %s: %w", path, err)
		}
		return res, nil
	}
	res, err := verifyJSON(data)
	if err != nil {
		return res, fmt.Errorf("report %s: %w", path, err)
	}
	return res, nil
}

func verifyJSON(data []byte) (VerifyResult, error) {
	var res VerifyResult
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return res, fmt.Errorf("%w: %v", ErrNoReport, err)
	}
	if r.Number == "" && r.Document.SHA256 == "" {
		return res, ErrNoReport
	}
	res.Report = &r
	if r.Signature == "" || r.PublicKey == "" {
		res.Problems = append(res.Problems, "the report has no signature: it was not signed when it was saved")
		return res, nil
	}
	res.Signed = true
	pub, err := base64.StdEncoding.DecodeString(r.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		res.Problems = append(res.Problems, "the public key in the report is malformed")
		return res, nil
	}
	res.Fingerprint = Fingerprint(pub)
	sig, err := base64.StdEncoding.DecodeString(r.Signature)
	if err != nil || len(sig) != ed25519.SignatureSize {
		res.Problems = append(res.Problems, "the signature is malformed")
		return res, nil
	}
	msg, err := canonicalJSON(data)
	if err != nil {
		return res, fmt.Errorf("%w: %v", ErrNoReport, err)
	}
	if !ed25519.Verify(ed25519.PublicKey(pub), append([]byte(signatureContext), msg...), sig) {
		res.Problems = append(res.Problems, "the report's content was changed after it was signed")
		return res, nil
	}
	res.Valid = true
	return res, nil
}

func verifyPDF(data []byte) (VerifyResult, error) {
	f, err := parsePDF(data)
	if err != nil {
		return VerifyResult{}, err
	}
	var res VerifyResult
	found := false
	for _, file := range f.embeddedFiles() {
		r, err := verifyJSON(file)
		if err != nil {
			continue // some other attachment
		}
		res, found = r, true
		break
	}
	if !found {
		return VerifyResult{}, fmt.Errorf("%w: the PDF carries no embedded report (not made by ThesisCheck, or re-saved without attachments)", ErrNoReport)
	}
	shown, err := f.pageStrings(0)
	if err != nil || len(shown) == 0 {
		res.Valid = false
		res.Problems = append(res.Problems, "the first page's figures cannot be read")
		return res, nil
	}
	have := make(map[string]bool, len(shown))
	for _, s := range shown {
		have[s] = true
	}
	for _, want := range res.Report.visibleFigures() {
		if want != "" && !have[want] {
			res.Valid = false
			res.Problems = append(res.Problems, fmt.Sprintf("the first page does not show %q, which the signed report inside the PDF says", want))
		}
	}
	if probs := missingText(f, res.Report); len(probs) > 0 {
		res.Valid = false
		res.Problems = append(res.Problems, probs...)
	}
	return res, nil
}

// maxTextProblems bounds how many differing paragraphs Verify names.
const maxTextProblems = 5

// missingText compares the text the PDF's pages show with the signed report: every paragraph, and
// every source excerpt printed under one, must be there, in order, as signed. Layout (line breaks,
// spaces, colours) does not matter, so that the check holds for any version of the writer; words
// added between paragraphs are not looked for, the signed report is what counts.
func missingText(f *pdfFile, r *Report) []string {
	shown, err := f.bodyText(r)
	if err != nil {
		return []string{"the text of the pages cannot be read: " + err.Error()}
	}
	var probs []string
	at := 0
	for _, piece := range r.shownPieces() {
		want := squeeze(piece.text)
		if want == "" {
			continue
		}
		if k := strings.Index(shown[at:], want); k >= 0 {
			at += k + len(want)
			continue
		}
		if len(probs) == maxTextProblems {
			probs = append(probs, "and more paragraphs differ")
			break
		}
		probs = append(probs, fmt.Sprintf("paragraph %d on the pages differs from the signed report inside the PDF", piece.para+1))
	}
	return probs
}

// bodyText is the text all pages show, in drawing order, without white space and without the
// running header and footer, which the writer draws last on each page.
func (f *pdfFile) bodyText(r *Report) (string, error) {
	var b strings.Builder
	for p := range f.pages() {
		strs, err := f.pageStrings(p)
		if err != nil {
			return "", err
		}
		// Page number and footer, and on later pages before them the document's name (shortened to
		// fit) and the report number.
		n := len(strs)
		if n >= 2 && pageNumber.MatchString(strs[n-1]) && strs[n-2] == "ThesisCheck 论文查重报告" {
			n -= 2
			if p > 0 && n >= 2 && strs[n-1] == "报告编号 "+r.Number {
				n -= 2
			}
		}
		for _, s := range strs[:n] {
			b.WriteString(squeeze(s))
		}
	}
	return b.String(), nil
}

var pageNumber = regexp.MustCompile(`^\d+ / \d+$`)

// squeeze drops white space, which line breaking adds and removes.
func squeeze(s string) string {
	return strings.Map(func(c rune) rune {
		if unicode.IsSpace(c) {
			return -1
		}
		return c
	}, s)
}
