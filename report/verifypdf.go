package report

// Checking a PDF report's signature. pdfsign's own verifier is not used: it accepts a signature
// whose /ByteRange covers only the start of the file, so an edit appended after signing (an
// incremental update) passes, and it reads byte ranges of whatever length and number the file
// lists. Here the signature must cover every byte of the file but its own /Contents, the ranges are
// checked against the file before any of it is hashed, and the CMS signature is checked with
// github.com/digitorus/pkcs7.

import (
	"crypto/x509"
	"encoding/asn1"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/digitorus/pkcs7"
)

const (
	// maxSignatures bounds the /ByteRange entries looked at: a report has one.
	maxSignatures = 16
	// maxSigContents bounds the hex digits of one /Contents: a CMS signature with one certificate
	// takes a few thousand.
	maxSigContents = 256 << 10
)

var byteRangeRe = regexp.MustCompile(`/ByteRange\s*\[\s*(\d{1,15})\s+(\d{1,15})\s+(\d{1,15})\s+(\d{1,15})\s*\]`)

// pdfSig is what a PDF's signature says.
type pdfSig struct {
	found   bool              // the file has a signature with a byte range
	intact  bool              // a signature covers the whole file, and it holds
	cert    *x509.Certificate // the signer's certificate, when a signature holds (whole file or not)
	problem string            // why the file is not intact, in the reader's words
}

// byteRange is a signature's /ByteRange [0 a b c]: bytes [0, a) and [b, b+c) are signed, and
// [a, b) is the /Contents hex string that holds the signature.
type byteRange struct{ a, b, c int }

func (r byteRange) end() int { return r.b + r.c }

// checkPDFSignature finds the signature of a PDF and checks it.
func checkPDFSignature(data []byte) pdfSig {
	ms := byteRangeRe.FindAllSubmatch(data, maxSignatures+1)
	if len(ms) == 0 {
		return pdfSig{}
	}
	if len(ms) > maxSignatures {
		return pdfSig{found: true, problem: fmt.Sprintf("the file lists more than %d signatures, which no ThesisCheck report does", maxSignatures)}
	}
	// The last signature is the one that can cover the whole file.
	var partial *byteRange
	for i := len(ms) - 1; i >= 0; i-- {
		br, ok := parseByteRange(data, ms[i])
		if !ok {
			continue
		}
		if br.end() == len(data) {
			cert, err := verifyCMS(data, br)
			if err != nil {
				return pdfSig{found: true, problem: "the file was changed after it was signed: " + err.Error()}
			}
			return pdfSig{found: true, intact: true, cert: cert}
		}
		if partial == nil {
			partial = &br
		}
	}
	if partial != nil {
		added := byteCount(len(data) - partial.end())
		cert, err := verifyCMS(data, *partial)
		if err != nil {
			return pdfSig{found: true, problem: fmt.Sprintf("the signed part of the file was changed (%v), and %s added after it", err, added)}
		}
		return pdfSig{found: true, cert: cert, problem: fmt.Sprintf("%s added after the signed part: the file was edited after it was signed (an incremental update, the way PDF editors save changes)", added)}
	}
	return pdfSig{found: true, problem: "the signature's byte ranges do not match the file: it was rewritten (edited, or re-saved by another program) after it was signed"}
}

// parseByteRange reads a /ByteRange match and checks it against the file: it must start at 0 and
// leave out exactly one hex string, of a signature's size.
func parseByteRange(data []byte, m [][]byte) (byteRange, bool) {
	var n [4]int
	for i := range n {
		v, err := strconv.Atoi(string(m[i+1]))
		if err != nil {
			return byteRange{}, false
		}
		n[i] = v
	}
	br := byteRange{a: n[1], b: n[2], c: n[3]}
	if n[0] != 0 || br.a <= 0 || br.b < br.a+2 || br.b-br.a > maxSigContents+2 || br.b > len(data) || br.c > len(data)-br.b {
		return byteRange{}, false
	}
	if data[br.a] != '<' || data[br.b-1] != '>' {
		return byteRange{}, false
	}
	for _, c := range data[br.a+1 : br.b-1] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return byteRange{}, false
		}
	}
	return br, true
}

// verifyCMS checks the CMS signature in br's hex string over br's bytes and returns the signer's
// certificate. It checks that the holder of the certificate's key signed these bytes, nothing about
// who that is: trust is the caller's business.
func verifyCMS(data []byte, br byteRange) (cert *x509.Certificate, err error) {
	// pkcs7 parses ASN.1 that anyone may have written; whatever it panics on is a bad signature.
	defer func() {
		if p := recover(); p != nil {
			cert, err = nil, fmt.Errorf("the signature cannot be read (%v)", p)
		}
	}()
	digits := data[br.a+1 : br.b-1]
	if len(digits)%2 == 1 {
		digits = digits[:len(digits)-1] // an odd last digit pads a zero; signatures end in padding
	}
	raw := make([]byte, hex.DecodedLen(len(digits)))
	if _, err := hex.Decode(raw, digits); err != nil {
		return nil, errors.New("the signature cannot be read")
	}
	// The hex string is padded with zeros after the signature's DER encoding.
	var v asn1.RawValue
	rest, err := asn1.Unmarshal(raw, &v)
	if err != nil {
		return nil, errors.New("the signature cannot be read")
	}
	p7, err := pkcs7.Parse(raw[:len(raw)-len(rest)])
	if err != nil {
		return nil, fmt.Errorf("the signature cannot be read (%v)", err)
	}
	if len(p7.Signers) != 1 {
		return nil, fmt.Errorf("the signature has %d signers, not one", len(p7.Signers))
	}
	p7.Content = make([]byte, 0, br.a+br.c)
	p7.Content = append(append(p7.Content, data[:br.a]...), data[br.b:br.end()]...)
	if err := p7.Verify(); err != nil {
		var mismatch *pkcs7.MessageDigestMismatchError
		if errors.As(err, &mismatch) {
			return nil, errors.New("its content does not match its signature")
		}
		return nil, fmt.Errorf("the signature does not hold (%v)", err)
	}
	cert = p7.GetOnlySigner()
	if cert == nil {
		return nil, errors.New("the signature names no certificate")
	}
	return cert, nil
}

// byteCount is n bytes in words.
func byteCount(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return thousands(n) + " bytes"
}
