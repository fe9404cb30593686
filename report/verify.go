package report

// Verifying reports. A JSON report is checked against the signature of its canonical form
// (sign.go); a PDF report against its signature over the whole file (verifypdf.go), and the
// signed JSON it carries says what it is about. Then the signer's key is looked up among the keys
// the reader trusts (package keys): a report is valid only when it is unchanged and signed by one of
// them. A signature proves that the holder of a key made the report and that nothing changed since;
// it cannot say whether the check was run on the right library, and a key nobody vouched for proves
// nothing, since anyone can make one.

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"thesischeck/extract"
	"thesischeck/internal/written"
	"thesischeck/keys"
)

// maxReportFile bounds the file Verify reads: the PDF report of a 300-page thesis is 3.6 MB. A JSON
// report is bounded as the one embedded in a PDF is (maxEmbedded): making its canonical form costs
// some times its size in memory (canonicalJSON). A class comparison's JSON holds every
// submission's text: 70 MB for a thousand twenty-page Chinese ones (it verifies in 2.5 s), so a
// JSON comparison may be maxComparisonJSON; the one a PDF comparison carries leaves the text out.
const (
	maxReportFile     = maxComparisonJSON
	maxComparisonJSON = 256 << 20
)

// ErrNoReport means a file holds no ThesisCheck report to verify.
var ErrNoReport = errors.New("report: not a ThesisCheck report")

// Verdict is Verify's conclusion.
type Verdict int

const (
	// Invalid: changed since it was signed, unsigned, or not about the document given.
	Invalid Verdict = iota
	// Untrusted: unchanged since it was signed, but by a key the reader has not trusted.
	Untrusted
	// Trusted: unchanged since it was signed by the reader's own key or one they trusted.
	Trusted
)

// Kinds of report.
const (
	KindReport     = "report"     // a check of one document against the library
	KindComparison = "comparison" // a class's submissions compared with each other
)

// Summary is what a report says about itself: enough to name it and its figures.
type Summary struct {
	Kind     string
	Number   string // report number; for a comparison, made from its date
	Created  time.Time
	Document Document // the checked document (KindReport)
	// Figures of a check (KindReport).
	Similarity, SimilarityExcludingQuotes, MaxSingleSource float64
	// Figures of a comparison (KindComparison).
	Documents, Flagged int
}

// SignerInfo describes the key that signed a report.
type SignerInfo struct {
	Fingerprint string
	Algorithm   string // "ECDSA P-256", or "Ed25519" for reports from before PDF signatures
	Subject     string // the common name in the signer's certificate ("" for a bare Ed25519 key)
	Trusted     bool
	Own         bool   // one of the reader's own keys
	Name        string // the name it is trusted under
}

// VerifyResult is what Verify found in one file.
type VerifyResult struct {
	Verdict Verdict
	Format  string // "PDF", "JSON" or "HTML"
	Signed  bool   // the file carries a signature
	Intact  bool   // the signature holds, over the whole file
	Signer  *SignerInfo
	Summary *Summary
	// Embedded is, for a PDF whose own signature is missing or broken, the verdict on the JSON report
	// inside it: whether the figures it states are still those its signer signed.
	Embedded *VerifyResult
	// Document is the file the report was to be about (VerifyOptions.Document), DocumentMatches
	// whether it is.
	Document        string
	DocumentMatches bool
	Problems        []string // why the verdict is not Trusted, besides the signer, in the reader's words
}

// VerifyOptions are what Verify checks a report against.
type VerifyOptions struct {
	Trust *keys.Store // the keys trusted; nil trusts none
	// Document, when set, is the file the report must be about: its SHA-256 must be the one the
	// report states.
	Document string
}

// Verify checks the report in a JSON, PDF or HTML file (told apart by content, not name). The error is for
// files that cannot be read, are too large, or hold no report; a report that fails verification is
// a result with Verdict Invalid.
func Verify(path string, opts VerifyOptions) (VerifyResult, error) {
	data, err := readReportFile(path)
	if err != nil {
		return VerifyResult{}, fmt.Errorf("verify %s: %w", path, err)
	}
	var res VerifyResult
	switch {
	case bytes.HasPrefix(data, []byte("%PDF-")):
		res, err = verifyPDF(data, opts.Trust)
	case written.HTML(data[:min(len(data), 4096)]) != written.None:
		res, err = verifyHTML(data, opts.Trust)
	case len(data) > maxEmbedded && written.JSON(data[:min(len(data), 4096)]) != written.Comparison:
		err = fmt.Errorf("%w: the file is larger than any JSON report (limit %d MB)", ErrNoReport, maxEmbedded>>20)
	default:
		res, err = verifyJSON(data, opts.Trust)
	}
	if err != nil {
		return res, fmt.Errorf("verify %s: %w", path, err)
	}
	if opts.Document != "" {
		if err := res.checkDocument(opts.Document); err != nil {
			return res, err
		}
	}
	res.Verdict = res.verdict()
	return res, nil
}

// readReportFile reads a regular file of at most maxReportFile bytes.
func readReportFile(path string) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	tooLarge := fmt.Errorf("%w: the file is larger than any ThesisCheck report (limit %d MB)", ErrNoReport, maxReportFile>>20)
	if st.Size() > maxReportFile {
		return nil, tooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, maxReportFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxReportFile {
		return nil, tooLarge
	}
	return data, nil
}

func (r *VerifyResult) verdict() Verdict {
	switch {
	case !r.Signed || !r.Intact || len(r.Problems) > 0 || (r.Document != "" && !r.DocumentMatches):
		return Invalid
	case r.Signer != nil && r.Signer.Trusted:
		return Trusted
	}
	return Untrusted
}

// jsonHead is what Verify reads of a JSON report besides its signature: its name and figures. The
// paragraphs are skipped, not decoded: a crafted 5 MB report of two million empty paragraphs held
// 1.4 GB of heap decoded into a Report.
type jsonHead struct {
	reportHead

	Threshold *float64   `json:"threshold"`
	Documents []struct{} `json:"documents"`
	Pairs     []struct {
		Flagged bool `json:"flagged"`
	} `json:"pairs"`

	Certificate string `json:"certificate"`
	PublicKey   string `json:"public_key"`
	Signature   string `json:"signature"`
}

// reportHead is a report's name and figures, as its JSON has them.
type reportHead struct {
	Number                    string    `json:"report_number"`
	Created                   time.Time `json:"created"`
	Document                  Document  `json:"document"`
	Similarity                float64   `json:"similarity"`
	SimilarityExcludingQuotes float64   `json:"similarity_excluding_quotes"`
	MaxSingleSource           float64   `json:"max_single_source"`
}

func (h *jsonHead) summary() *Summary {
	switch {
	case h.Number != "" || h.Document.SHA256 != "":
		return &Summary{Kind: KindReport, Number: h.Number, Created: h.Created, Document: h.Document,
			Similarity: h.Similarity, SimilarityExcludingQuotes: h.SimilarityExcludingQuotes, MaxSingleSource: h.MaxSingleSource}
	case h.Threshold != nil && h.Documents != nil:
		s := &Summary{Kind: KindComparison, Number: comparisonNumber(h.Created), Created: h.Created, Documents: len(h.Documents)}
		for _, p := range h.Pairs {
			if p.Flagged {
				s.Flagged++
			}
		}
		return s
	}
	return nil
}

func verifyJSON(data []byte, trust *keys.Store) (VerifyResult, error) {
	res := VerifyResult{Format: "JSON"}
	var h jsonHead
	if err := json.Unmarshal(data, &h); err != nil {
		return res, fmt.Errorf("%w (%v)", ErrNoReport, err)
	}
	if res.Summary = h.summary(); res.Summary == nil {
		return res, ErrNoReport
	}
	if h.Signature == "" || (h.Certificate == "" && h.PublicKey == "") {
		res.Problems = append(res.Problems, "the report carries no signature: it was saved unsigned, or its signature was removed")
		return res, nil
	}
	res.Signed = true
	pub, subject, err := checkJSONSignature(data, h.Certificate, h.PublicKey, h.Signature)
	if pub != nil {
		res.Signer = signerInfo(pub, subject, trust)
	}
	if err != nil {
		res.Problems = append(res.Problems, err.Error())
		return res, nil
	}
	res.Intact = true
	return res, nil
}

// verifyLegacy checks an Ed25519 signature as ThesisCheck made them before it signed PDF files.
func verifyLegacy(msg []byte, publicKey string, sig []byte) (crypto.PublicKey, error) {
	raw, err := base64.StdEncoding.DecodeString(publicKey)
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, errors.New("the public key in the report is malformed")
	}
	pub := ed25519.PublicKey(raw)
	if len(sig) != ed25519.SignatureSize || !ed25519.Verify(pub, append([]byte(legacySignatureContext), msg...), sig) {
		return pub, errors.New("the report's content was changed after it was signed")
	}
	return pub, nil
}

func verifyPDF(data []byte, trust *keys.Store) (VerifyResult, error) {
	res := VerifyResult{Format: "PDF"}
	sig := checkPDFSignature(data)
	res.Signed = sig.found
	if sig.cert != nil {
		res.Signer = signerInfo(sig.cert.PublicKey, sig.cert.Subject.CommonName, trust)
	}
	files, err := embeddedFiles(data)
	if err != nil {
		if !sig.found || sig.intact {
			return res, err
		}
		// A broken signature is the verdict; what was appended to the file does not matter.
		res.Problems = append(res.Problems, sig.problem, err.Error())
		return res, nil
	}
	var inner *VerifyResult
	for _, f := range files {
		if r, err := verifyJSON(f, trust); err == nil {
			inner = &r
			break
		}
	}
	switch {
	case inner == nil && sig.found && !sig.intact:
		res.Problems = append(res.Problems, sig.problem, "the ThesisCheck report it carried is gone")
		return res, nil
	case inner == nil:
		return res, fmt.Errorf("%w: the PDF carries no embedded report (not made by ThesisCheck)", ErrNoReport)
	}
	res.Summary = inner.Summary
	switch {
	case !sig.found:
		res.Problems = append(res.Problems, "the PDF file carries no signature: it was made by a ThesisCheck from before PDF signatures, or re-saved by a program that dropped the signature; its pages may have been changed")
		res.Embedded = inner
	case !sig.intact:
		res.Problems = append(res.Problems, sig.problem)
		res.Embedded = inner
	case !inner.Intact || inner.Signer == nil || inner.Signer.Fingerprint != res.Signer.Fingerprint:
		res.Intact = true
		res.Problems = append(res.Problems, "the report inside the PDF is not signed by the key that signed the PDF")
	default:
		res.Intact = true
	}
	return res, nil
}

// signerInfo describes pub, and whether trust trusts it.
func signerInfo(pub crypto.PublicKey, subject string, trust *keys.Store) *SignerInfo {
	s := &SignerInfo{Fingerprint: keys.Fingerprint(pub), Algorithm: keys.Algorithm(pub), Subject: subject}
	if trust != nil {
		if k, ok := trust.Find(pub); ok {
			s.Trusted, s.Own, s.Name = true, k.Own, k.Name
		}
	}
	return s
}

// checkDocument checks that the report is about the file at path.
func (r *VerifyResult) checkDocument(path string) error {
	sum, err := fileSHA256(path)
	if err != nil {
		return fmt.Errorf("verify --document %s: %w", path, err)
	}
	r.Document = path
	switch {
	case r.Summary == nil:
	case r.Summary.Kind != KindReport:
		r.Problems = append(r.Problems, "a class comparison is about many documents: --document applies to the report of a check")
	case !strings.EqualFold(r.Summary.Document.SHA256, sum):
		r.Problems = append(r.Problems, fmt.Sprintf("the report is about another file: it names a file with SHA-256 %s, and %s has %s", r.Summary.Document.SHA256, path, sum))
	default:
		r.DocumentMatches = true
	}
	return nil
}

// openRegular opens path if it is a regular file. It looks before it opens: opening a named pipe
// waits for a writer, forever if none comes.
func openRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errNotRegular
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() { // replaced in between
		f.Close()
		return nil, errNotRegular
	}
	return f, nil
}

var errNotRegular = errors.New("not a regular file")

// fileSHA256 hashes a regular file no larger than a check reads.
func fileSHA256(path string) (string, error) {
	f, err := openRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, extract.MaxFileSize+1))
	if err != nil {
		return "", err
	}
	if n > extract.MaxFileSize {
		return "", fmt.Errorf("larger than any file a check reads (%d MB)", extract.MaxFileSize>>20)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// String is the verdict in a line, then what explains it, an indented line each.
func (r VerifyResult) String() string {
	var b strings.Builder
	switch r.Verdict {
	case Trusted:
		fmt.Fprintf(&b, "VALID: unchanged since it was signed by %s", r.Signer.describe())
	case Untrusted:
		fmt.Fprintf(&b, "NOT TRUSTED: unchanged since it was signed, but by a key you have not trusted: %s\n", r.Signer.describe())
		file := "certificate file (`thesischeck keys` there names it)"
		if r.Signer.Algorithm == "Ed25519" {
			file = "report-key.pub (an older ThesisCheck's public key, in its configuration folder)"
		}
		fmt.Fprintf(&b, "  To trust it, get that installation's %s, check that its fingerprint is %s, and run: thesischeck keys trust FILE --name NAME", file, r.Signer.Fingerprint)
	default:
		switch {
		case !r.Signed:
			b.WriteString("NOT SIGNED")
		case !r.Intact:
			b.WriteString("MODIFIED")
		case r.Document != "" && !r.DocumentMatches:
			b.WriteString("WRONG DOCUMENT")
		default:
			b.WriteString("INVALID")
		}
		for _, p := range r.Problems {
			b.WriteString("\n  - " + p)
		}
	}
	if s := r.Summary; s != nil {
		if r.Verdict == Trusted {
			b.WriteString("\n  " + s.describe())
		} else {
			b.WriteString("\n  it claims to be " + s.describe())
		}
	}
	if e := r.Embedded; e != nil && e.Intact && e.Signer != nil {
		trusted := "a key you have not trusted"
		if e.Signer.Trusted {
			trusted = "which you trust"
		}
		fmt.Fprintf(&b, "\n  The JSON report inside the PDF is unchanged since it was signed by %s, %s: those figures are what was signed; the pages are not covered by any signature.", e.Signer.describe(), trusted)
	}
	if r.Verdict == Trusted && r.Document != "" {
		b.WriteString("\n  and it is about " + r.Document + " (same SHA-256)")
	}
	return b.String()
}

func (s *SignerInfo) describe() string {
	var parts []string
	if s.Subject != "" {
		parts = append(parts, s.Subject)
	}
	parts = append(parts, s.Algorithm+" key "+s.Fingerprint)
	switch {
	case s.Own:
		return s.Name + " (" + strings.Join(parts, ", ") + ")"
	case s.Trusted:
		return fmt.Sprintf("%q (%s)", s.Name, strings.Join(parts, ", "))
	}
	return strings.Join(parts, ", ")
}

func (s *Summary) describe() string {
	if s.Kind == KindComparison {
		return fmt.Sprintf("class comparison %s of %d documents: %d pairs flagged", s.Number, s.Documents, s.Flagged)
	}
	name := s.Document.Path
	if name == "" {
		name = s.Document.Title
	}
	return fmt.Sprintf("report %s on %s (SHA-256 %s): similarity %s, excluding quotes %s, largest single source %s",
		s.Number, name, s.Document.SHA256, pct(s.Similarity), pct(s.SimilarityExcludingQuotes), pct(s.MaxSingleSource))
}

// LooksLikeReport tells a ThesisCheck report from a thesis by its content, for the app to know what
// a dropped file is: a JSON report or comparison, or a PDF that carries one (see package written).
// It says false for anything but a regular file.
func LooksLikeReport(path string) bool { return written.File(path) != written.None }
