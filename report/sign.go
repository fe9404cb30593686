package report

// Signing a report's JSON form. The signature covers a canonical form of the JSON (every field but
// "signature", keys sorted, numbers as written), so that the JSON file, the copy embedded in a PDF
// and a re-indented file all verify alike, and any changed figure or text does not. PDF files are
// also signed whole (pdfsign.go): that is what keeps their pages honest.

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"thesischeck/compare"
	"thesischeck/keys"
)

// Signature contexts separate report signatures from anything else a key might ever sign, and the
// two schemes from each other.
const (
	signatureContext       = "thesischeck report v2\n" // certificate key (ECDSA), over SHA-256
	legacySignatureContext = "thesischeck report v1\n" // Ed25519 public_key, before PDF signatures
)

// maxJSONDepth bounds the nesting of a signed JSON document. A report nests six deep (report,
// paragraphs, a paragraph, its matches, a match's spans, a span); canonicalJSON copies a value once
// per level it is nested in, so a bound on the depth bounds its time.
const maxJSONDepth = 16

// Sign signs r with s: it sets Certificate and Signature (and clears an old PublicKey). Any later
// change to r invalidates the signature, so sign last, right before saving. It fails only when r
// cannot be encoded as JSON (a NaN figure).
func (r *Report) Sign(s *keys.Signer) error {
	r.Certificate = base64.StdEncoding.EncodeToString(s.Cert.Raw)
	r.PublicKey, r.Signature = "", ""
	sig, err := signJSON(r, s)
	if err != nil {
		return fmt.Errorf("report: sign: %w", err)
	}
	r.Signature = sig
	return nil
}

// SignComparison signs a class comparison as Sign signs a report.
func SignComparison(c *compare.Result, s *keys.Signer) error {
	c.Certificate = base64.StdEncoding.EncodeToString(s.Cert.Raw)
	c.Signature = ""
	sig, err := signJSON(c, s)
	if err != nil {
		return fmt.Errorf("report: sign comparison: %w", err)
	}
	c.Signature = sig
	return nil
}

// signJSON is the base64 ECDSA signature of v's canonical JSON form.
func signJSON(v any, s *keys.Signer) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	msg, err := canonicalJSON(data)
	if err != nil {
		return "", err
	}
	return signBytes(signatureContext, msg, s)
}

// signBytes is the base64 signature of msg after context, by s's key over SHA-256.
func signBytes(context string, msg []byte, s *keys.Signer) (string, error) {
	digest := sha256.Sum256(append([]byte(context), msg...))
	// A nil random source makes the signature deterministic (RFC 6979): the same report signs the
	// same, which the golden files rely on.
	sig, err := s.Key.Sign(nil, digest[:], crypto.SHA256)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(sig), nil
}

// checkJSONSignature checks the signature of a JSON report or comparison: the certificate's key over
// the canonical form, or for a report from before PDF signatures the Ed25519 key in publicKey. It
// returns the signer's key (and the certificate's common name) whenever they can be read, and says
// what is wrong when the signature does not hold.
func checkJSONSignature(data []byte, certificate, publicKey, signature string) (crypto.PublicKey, string, error) {
	sig, err := base64.StdEncoding.DecodeString(signature)
	if err != nil {
		return nil, "", errors.New("the signature is malformed")
	}
	msg, err := canonicalJSON(data)
	if err != nil {
		return nil, "", fmt.Errorf("the report cannot be read for its signature: %v", err)
	}
	if certificate == "" {
		pub, err := verifyLegacy(msg, publicKey, sig)
		return pub, "", err
	}
	cert, err := parseCertificate(certificate)
	if err != nil {
		return nil, "", err
	}
	name := cert.Subject.CommonName
	if publicKey != "" {
		return cert.PublicKey, name, errors.New("the report carries both a certificate and an old-style public key")
	}
	if err := cert.CheckSignature(signatureAlgorithm(cert.PublicKey), append([]byte(signatureContext), msg...), sig); err != nil {
		return cert.PublicKey, name, errors.New("the report's content was changed after it was signed")
	}
	return cert.PublicKey, name, nil
}

// parseCertificate reads the base64 DER certificate a report carries.
func parseCertificate(certificate string) (*x509.Certificate, error) {
	der, err := base64.StdEncoding.DecodeString(certificate)
	if err != nil {
		return nil, errors.New("the certificate in the report is malformed")
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("the certificate in the report is malformed: %v", err)
	}
	return cert, nil
}

// signatureAlgorithm is how a key of pub's kind signs a report: ECDSA and RSA over SHA-256, Ed25519
// over the message itself.
func signatureAlgorithm(pub crypto.PublicKey) x509.SignatureAlgorithm {
	switch pub.(type) {
	case ed25519.PublicKey:
		return x509.PureEd25519
	case *rsa.PublicKey:
		return x509.SHA256WithRSA
	}
	return x509.ECDSAWithSHA256
}

// canonicalJSON is the signed form of a JSON document: the top-level "signature" dropped, object
// keys sorted (the last of repeated keys kept), no insignificant space, numbers exactly as written,
// strings re-escaped one way. It reads the document a value at a time, so that its memory stays in
// proportion to the document: decoded into maps, as the first version did, a crafted 5 MB report of
// two million empty paragraphs held 207 MB of heap; this way `thesischeck verify` on a 63 MB one
// peaks at 366 MB in all (TestVerifyHostileFiles). The bytes are those the first version signed,
// so its reports still verify.
//
// A document json.Valid accepts is read in place (scanCanon); any other, and one scanCanon turns
// down (not an object, nested too deep), by json.Decoder's tokens, which also give the error.
// Tokens cost: 113-125 ms for a thesis's 2.4 MB report and 632 ms for a class comparison's 20 MB,
// on every signature and every verification.
func canonicalJSON(data []byte) ([]byte, error) {
	if json.Valid(data) {
		if out, ok := scanCanonical(data); ok {
			return out, nil
		}
	}
	return tokenCanonical(data)
}

// tokenCanonical is canonicalJSON by json.Decoder's tokens.
func tokenCanonical(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var out bytes.Buffer
	out.Grow(len(data))
	c := canonicalizer{dec: dec}
	if err := c.object(&out, true, 1); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return out.Bytes(), nil
}

type canonicalizer struct {
	dec *json.Decoder
	str stringEncoder
}

func (c *canonicalizer) value(out *bytes.Buffer, tok json.Token, depth int) error {
	switch v := tok.(type) {
	case json.Delim:
		if depth >= maxJSONDepth {
			return fmt.Errorf("nested more than %d deep", maxJSONDepth)
		}
		if v == '{' {
			return c.object(out, false, depth+1)
		}
		return c.array(out, depth+1)
	case string:
		return c.writeString(out, v)
	case json.Number:
		out.WriteString(string(v))
	case bool:
		if v {
			out.WriteString("true")
		} else {
			out.WriteString("false")
		}
	case nil:
		out.WriteString("null")
	}
	return nil
}

func (c *canonicalizer) array(out *bytes.Buffer, depth int) error {
	out.WriteByte('[')
	for i := 0; c.dec.More(); i++ {
		if i > 0 {
			out.WriteByte(',')
		}
		tok, err := c.dec.Token()
		if err != nil {
			return err
		}
		if err := c.value(out, tok, depth); err != nil {
			return err
		}
	}
	if _, err := c.dec.Token(); err != nil { // ']'
		return err
	}
	out.WriteByte(']')
	return nil
}

func (c *canonicalizer) object(out *bytes.Buffer, top bool, depth int) error {
	type member struct {
		key string
		val []byte
	}
	var members []member
	for c.dec.More() {
		tok, err := c.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if tok, err = c.dec.Token(); err != nil {
			return err
		}
		var val bytes.Buffer
		if err := c.value(&val, tok, depth); err != nil {
			return err
		}
		if top && key == "signature" {
			continue
		}
		members = append(members, member{key, val.Bytes()})
	}
	if _, err := c.dec.Token(); err != nil { // '}'
		return err
	}
	sort.SliceStable(members, func(i, j int) bool { return members[i].key < members[j].key })
	out.WriteByte('{')
	first := true
	for i, m := range members {
		if i+1 < len(members) && members[i+1].key == m.key {
			continue // a repeated key: the last one counts
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		if err := c.writeString(out, m.key); err != nil {
			return err
		}
		out.WriteByte(':')
		out.Write(m.val)
	}
	out.WriteByte('}')
	return nil
}

// writeString escapes s as encoding/json does without HTML escaping.
func (c *canonicalizer) writeString(out *bytes.Buffer, s string) error {
	b, err := c.str.encode(s)
	out.Write(b)
	return err
}

// stringEncoder writes strings as encoding/json does without HTML escaping, the one way the
// canonical form escapes them.
type stringEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// encode returns s encoded, valid until the next call.
func (e *stringEncoder) encode(s string) ([]byte, error) {
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
		e.enc.SetEscapeHTML(false)
	}
	e.buf.Reset()
	if err := e.enc.Encode(s); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")), nil
}

// scanCanon makes the canonical form of a document json.Valid accepts, reading it in place: the
// checks a decoder makes are json.Valid's, done once before. A string that encoding/json would
// write back as it is (no escape, no control character, valid UTF-8 without U+2028 or U+2029) is
// copied; any other is decoded and encoded again by encoding/json, as tokenCanonical does.
type scanCanon struct {
	data []byte
	pos  int
	str  stringEncoder
}

// scanCanonical is canonicalJSON of data, which json.Valid accepts; false when it is not an object
// or is nested deeper than maxJSONDepth (tokenCanonical says why).
func scanCanonical(data []byte) ([]byte, bool) {
	c := scanCanon{data: data}
	c.space()
	if c.pos >= len(data) || data[c.pos] != '{' {
		return nil, false
	}
	return c.object(make([]byte, 0, len(data)), true, 1)
}

func (c *scanCanon) space() {
	for c.pos < len(c.data) {
		switch c.data[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

// value appends the value at c.pos; depth is that of the container holding it.
func (c *scanCanon) value(out []byte, depth int) ([]byte, bool) {
	c.space()
	switch c.data[c.pos] {
	case '{':
		if depth >= maxJSONDepth {
			return out, false
		}
		return c.object(out, false, depth+1)
	case '[':
		if depth >= maxJSONDepth {
			return out, false
		}
		return c.array(out, depth+1)
	case '"':
		raw := c.stringToken()
		if plain, _ := plainJSONString(raw[1 : len(raw)-1]); plain {
			return append(out, raw...), true
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return out, false
		}
		return c.appendString(out, s)
	}
	start := c.pos // a number or true, false, null: as written
	for c.pos < len(c.data) && !valueEnd(c.data[c.pos]) {
		c.pos++
	}
	return append(out, c.data[start:c.pos]...), true
}

func valueEnd(b byte) bool {
	return b == ',' || b == ']' || b == '}' || b == ' ' || b == '\t' || b == '\n' || b == '\r'
}

// stringToken returns the string at c.pos, quotes included, and moves past it.
func (c *scanCanon) stringToken() []byte {
	i := c.pos + 1
	for c.data[i] != '"' {
		if c.data[i] == '\\' {
			i++
		}
		i++
	}
	raw := c.data[c.pos : i+1]
	c.pos = i + 1
	return raw
}

// plainJSONString reports whether s, the inside of a JSON string, is what encoding/json (without
// HTML escaping) writes for the string it stands for, and whether it holds an escape. It is when
// it is valid UTF-8 without U+2028 or U+2029 and its only escapes are those encoding/json writes
// for the characters they stand for: \" \\ \b \f \n \r \t (a control character cannot stand
// unescaped in a string json.Valid accepts).
func plainJSONString(s []byte) (plain, escaped bool) {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b == '\\':
			escaped = true
			if i+1 == len(s) || strings.IndexByte(`"\\bfnrt`, s[i+1]) < 0 {
				return false, true
			}
			i++
		case b < 0x20 || b == '"':
			return false, escaped
		case b >= utf8.RuneSelf:
			ascii = false
		}
	}
	return ascii || utf8.Valid(s) && !bytes.Contains(s, []byte("\u2028")) && !bytes.Contains(s, []byte("\u2029")), escaped
}

// appendString appends s as tokenCanonical writes it.
func (c *scanCanon) appendString(out []byte, s string) ([]byte, bool) {
	b, err := c.str.encode(s)
	return append(out, b...), err == nil
}

func (c *scanCanon) array(out []byte, depth int) ([]byte, bool) {
	c.pos++ // [
	out = append(out, '[')
	c.space()
	if c.data[c.pos] == ']' {
		c.pos++
		return append(out, ']'), true
	}
	for {
		var ok bool
		if out, ok = c.value(out, depth); !ok {
			return out, false
		}
		c.space()
		if c.data[c.pos] == ']' {
			c.pos++
			return append(out, ']'), true
		}
		c.pos++ // ,
		out = append(out, ',')
	}
}

func (c *scanCanon) object(out []byte, top bool, depth int) ([]byte, bool) {
	type member struct {
		key      string
		raw, val []byte // raw: the key as written, when that is how encoding/json writes it
	}
	var members []member
	c.pos++ // {
	c.space()
	for c.data[c.pos] != '}' {
		raw := c.stringToken()
		inner := raw[1 : len(raw)-1]
		plain, escaped := plainJSONString(inner)
		m := member{key: string(inner)}
		if plain {
			m.raw = raw
		}
		if (!plain || escaped) && json.Unmarshal(raw, &m.key) != nil { // the key it stands for
			return out, false
		}
		c.space()
		c.pos++ // :
		var ok bool
		if m.val, ok = c.value(nil, depth); !ok {
			return out, false
		}
		if !top || m.key != "signature" {
			members = append(members, m)
		}
		c.space()
		if c.data[c.pos] == ',' {
			c.pos++
			c.space()
		}
	}
	c.pos++ // }
	sort.SliceStable(members, func(i, j int) bool { return members[i].key < members[j].key })
	out = append(out, '{')
	first := true
	for i, m := range members {
		if i+1 < len(members) && members[i+1].key == m.key {
			continue // a repeated key: the last one counts
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		if m.raw != nil {
			out = append(out, m.raw...)
		} else {
			var ok bool
			if out, ok = c.appendString(out, m.key); !ok {
				return out, false
			}
		}
		out = append(out, ':')
		out = append(out, m.val...)
	}
	return append(out, '}'), true
}
