package report

// Signing HTML reports. A browser checks no signature, but `thesischeck verify` and the app can: an
// HTML report or comparison ends with a comment that holds the signer's certificate and a signature
// over every byte before it, so that any edit to the page (a figure, a paragraph, a colour) breaks
// it. A JSON head at the top of the page names the report and its figures, as a JSON report's own
// fields do, for verify to say what the page claims; it is signed with the rest.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"thesischeck/compare"
	"thesischeck/internal/written"
	"thesischeck/keys"
)

const (
	htmlSignatureContext = "thesischeck html v1\n"
	htmlSignatureMark    = "<!-- thesischeck-signature "
	htmlHeadOpen         = written.HTMLHead
	htmlHeadClose        = "</script>"
)

// htmlHead is the JSON head of a report's HTML page: what verify reads of a JSON report.
func (r *Report) htmlHead() []byte {
	head, _ := json.Marshal(reportHead{r.Number, r.Created, r.Document, r.Similarity, r.SimilarityExcludingQuotes, r.MaxSingleSource})
	return head
}

// comparisonHead is the JSON head of a comparison's HTML page: jsonHead's fields of a comparison,
// its pairs only the flagged ones (the summary counts those).
func comparisonHead(c *compare.Result) []byte {
	type flagged struct {
		Flagged bool `json:"flagged"`
	}
	head := struct {
		Created         time.Time  `json:"created"`
		Threshold       float64    `json:"threshold"`
		CommonDocuments int        `json:"common_documents"`
		Documents       []struct{} `json:"documents"`
		Pairs           []flagged  `json:"pairs"`
	}{Created: c.Created, Threshold: c.Threshold, CommonDocuments: c.CommonDocuments, Documents: make([]struct{}, len(c.Documents))}
	for _, p := range c.Pairs {
		if p.Flagged {
			head.Pairs = append(head.Pairs, flagged{true})
		}
	}
	data, _ := json.Marshal(head)
	return data
}

// writeHead writes the JSON head into the page (json.Marshal escapes "<", so it cannot end the
// script early).
func (h *htmlWriter) writeHead(head []byte) {
	h.raw(htmlHeadOpen + string(head) + htmlHeadClose + "\n")
}

// signHTML returns the page with its signature by s appended; the page as it is when s is nil.
func signHTML(page []byte, s *keys.Signer) ([]byte, error) {
	if s == nil {
		return page, nil
	}
	sig, err := signBytes(htmlSignatureContext, page, s)
	if err != nil {
		return nil, fmt.Errorf("report: sign HTML: %w", err)
	}
	return fmt.Appendf(page, "%scertificate=%s signature=%s -->\n", htmlSignatureMark,
		base64.StdEncoding.EncodeToString(s.Cert.Raw), sig), nil
}

// htmlHead finds the JSON head in the first lines of a page that written.HTML took for a report.
func htmlHead(data []byte) (head []byte, ok bool) {
	i := bytes.Index(data[:min(len(data), 4096)], []byte(htmlHeadOpen))
	if i < 0 {
		return nil, false
	}
	rest := data[i+len(htmlHeadOpen):]
	j := bytes.Index(rest, []byte(htmlHeadClose))
	if j < 0 {
		return nil, false
	}
	return rest[:j], true
}

func verifyHTML(data []byte, trust *keys.Store) (VerifyResult, error) {
	res := VerifyResult{Format: "HTML"}
	head, ok := htmlHead(data)
	if !ok {
		return res, ErrNoReport
	}
	var h jsonHead
	if err := json.Unmarshal(head, &h); err != nil {
		return res, fmt.Errorf("%w (%v)", ErrNoReport, err)
	}
	if res.Summary = h.summary(); res.Summary == nil {
		return res, ErrNoReport
	}
	i := bytes.LastIndex(data, []byte(htmlSignatureMark))
	if i < 0 {
		res.Problems = append(res.Problems, "the HTML report carries no signature: it was made by a ThesisCheck from before HTML signatures, or its signature was removed; its page may have been changed")
		return res, nil
	}
	res.Signed = true
	line, after, found := bytes.Cut(data[i+len(htmlSignatureMark):], []byte(" -->"))
	var certificate, signature string
	for _, f := range strings.Fields(string(line)) {
		if v, ok := strings.CutPrefix(f, "certificate="); ok {
			certificate = v
		} else if v, ok := strings.CutPrefix(f, "signature="); ok {
			signature = v
		}
	}
	sig, err := base64.StdEncoding.DecodeString(signature)
	if !found || err != nil || signature == "" {
		res.Problems = append(res.Problems, "the signature is malformed")
		return res, nil
	}
	cert, err := parseCertificate(certificate)
	if err != nil {
		res.Problems = append(res.Problems, err.Error())
		return res, nil
	}
	res.Signer = signerInfo(cert.PublicKey, cert.Subject.CommonName, trust)
	if len(bytes.TrimSpace(after)) > 0 {
		res.Problems = append(res.Problems, "text was added to the page after its signature")
		return res, nil
	}
	if err := cert.CheckSignature(signatureAlgorithm(cert.PublicKey), append([]byte(htmlSignatureContext), data[:i]...), sig); err != nil {
		res.Problems = append(res.Problems, "the page was changed after it was signed")
		return res, nil
	}
	res.Intact = true
	return res, nil
}
