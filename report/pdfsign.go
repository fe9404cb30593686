package report

// PDF reports are signed whole: an adbe.pkcs7.detached signature (ISO 32000-1, 12.8: a signature
// field in the AcroForm whose /ByteRange covers every byte of the file but the /Contents that holds
// the CMS signature), appended to what fpdf wrote as an incremental update. A DocMDP certification
// with no changes permitted tells PDF readers that any later change breaks it. Verify checks that
// the signed range is the whole file, so an edit saved as an incremental update, an overlay or a
// re-save fails, and PDF readers (Adobe Reader, Okular, poppler's pdfsig) show the signature too.
//
// github.com/digitorus/pdfsign writes the signature: it reads fpdf's output with its own parser,
// adds the signature dictionary, the field and a new catalog, and fills in the ByteRange and the
// signature, which github.com/digitorus/pkcs7 makes. Its verifier is not used (verifypdf.go says
// why).

import (
	"bytes"
	"crypto"
	"fmt"
	"strings"
	"time"

	"github.com/digitorus/pdf"
	"github.com/digitorus/pdfsign/sign"

	"thesischeck/keys"
)

// signPDF returns the PDF unsigned signed whole by s. reason is shown by PDF readers beside the
// signature.
func signPDF(unsigned []byte, s *keys.Signer, reason string, when time.Time) (out []byte, err error) {
	// pdfsign parses with a third-party PDF reader; whatever it panics on must reach the caller.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("report: signing PDF: %v", p)
		}
	}()
	rdr, err := pdf.NewReader(bytes.NewReader(unsigned), int64(len(unsigned)))
	if err != nil {
		return nil, fmt.Errorf("report: signing PDF: %w", err)
	}
	var buf bytes.Buffer
	buf.Grow(len(unsigned) + 16<<10)
	err = sign.Sign(bytes.NewReader(unsigned), &buf, rdr, int64(len(unsigned)), sign.SignData{
		Signature: sign.SignDataSignature{
			Info:       sign.SignDataSignatureInfo{Reason: asciiOnly(reason), Date: when},
			CertType:   sign.CertificationSignature,
			DocMDPPerm: sign.DoNotAllowAnyChangesPerms,
		},
		Signer:          s.Key,
		DigestAlgorithm: crypto.SHA256,
		Certificate:     s.Cert,
	})
	if err != nil {
		return nil, fmt.Errorf("report: signing PDF: %w", err)
	}
	return buf.Bytes(), nil
}

// asciiOnly replaces what is not printable ASCII: pdfsign writes other text as UTF-16 without
// escaping the bytes that end a PDF string, which would break the file.
func asciiOnly(s string) string {
	return strings.Map(func(c rune) rune {
		if c < ' ' || c > '~' {
			return '?'
		}
		return c
	}, s)
}
