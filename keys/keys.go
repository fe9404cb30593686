// Package keys is an installation's report-signing key and the keys it trusts.
//
// Each installation signs its reports with one ECDSA P-256 key and a self-signed X.509 certificate
// that names ThesisCheck and the installation: PDF readers (Adobe Reader, Okular, poppler's pdfsig)
// understand that pair, where they do not know Ed25519. The key, the certificate and the list of
// trusted keys live in the configuration directory (os.UserConfigDir()/thesischeck). A report is
// trusted when the key that signed it is this installation's own or one the user added with
// `thesischeck keys trust`: a signature only says that the holder of a key made the report, and a
// key anyone can make says nothing until a person vouches for it.
//
// ThesisCheck before this package signed with an Ed25519 key (report-key). That key is kept and
// never signs again; it stays this installation's own, so that the JSON reports it signed still
// verify, and another installation's old public key (report-key.pub) can be trusted like a
// certificate.
package keys

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"
)

// Files inside the key directory.
const (
	KeyFile  = "signing-key.pem"  // PKCS #8 PEM ECDSA P-256 private key, mode 0600
	CertFile = "signing-cert.pem" // the self-signed certificate: what others trust
	// LegacyKeyFile and LegacyPublicKeyFile are the Ed25519 key of ThesisCheck before PDF
	// signatures, and its public half.
	LegacyKeyFile       = "report-key"
	LegacyPublicKeyFile = "report-key.pub"
)

// certYears is the certificate's validity: a report must verify as long as anyone reads it, and a
// self-signed certificate has no issuer to renew it.
const certYears = 30

// oidDocumentSigning is the extended key usage for document signing (RFC 9336).
var oidDocumentSigning = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 36}

// DefaultDir is where the keys live: os.UserConfigDir()/thesischeck ($XDG_CONFIG_HOME/thesischeck
// on Linux).
func DefaultDir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("keys: configuration directory: %w", err)
	}
	return filepath.Join(d, "thesischeck"), nil
}

// Signer is an installation's signing key with its certificate.
type Signer struct {
	Key  *ecdsa.PrivateKey
	Cert *x509.Certificate
	// CertPath is the certificate file to give to readers; empty for a signer not kept in a
	// directory.
	CertPath string
}

// Fingerprint is the signer's key's fingerprint.
func (s *Signer) Fingerprint() string { return Fingerprint(s.Key.Public()) }

// Fingerprint names a public key in a form people can compare aloud: the first 128 bits of the
// SHA-256 of its SubjectPublicKeyInfo, in eight groups of four hex digits. It is "" for a key
// that cannot be encoded.
func Fingerprint(pub crypto.PublicKey) string {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(der)
	h := hex.EncodeToString(sum[:16])
	var b strings.Builder
	for i := 0; i < len(h); i += 4 {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteString(h[i : i+4])
	}
	return b.String()
}

// Algorithm names a public key's kind for people: "ECDSA P-256", "Ed25519", "RSA 2048".
func Algorithm(pub crypto.PublicKey) string {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		return "ECDSA " + k.Curve.Params().Name
	case ed25519.PublicKey:
		return "Ed25519"
	case *rsa.PublicKey:
		return fmt.Sprintf("RSA %d", k.Size()*8)
	}
	return fmt.Sprintf("%T", pub)
}

// LoadOrCreate returns the signer kept in dir, making the key (mode 0600) and its certificate on
// first use. Two processes starting at once end up with the same key: the key file is written aside
// and linked into place, and the loser reads the winner's. The certificate is made again whenever it
// is missing, damaged or not the key's; trust goes by key, so a new certificate changes nothing for
// readers.
func LoadOrCreate(dir string) (*Signer, error) {
	key, err := loadOrCreateKey(dir)
	if err != nil {
		return nil, err
	}
	certPath := filepath.Join(dir, CertFile)
	if cert, err := readCert(certPath); err == nil && sameKey(cert.PublicKey, key.Public()) {
		return &Signer{Key: key, Cert: cert, CertPath: certPath}, nil
	}
	// The certificate is made from the key; a lost or damaged one is made again.
	s, err := NewSigner(key, installationName(), time.Now())
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.Cert.Raw}), 0o644); err != nil {
		return nil, fmt.Errorf("keys: write certificate: %w", err)
	}
	s.CertPath = certPath
	return s, nil
}

// LoadOrCreateUser is LoadOrCreate on DefaultDir: the CLI and the desktop app sign with it.
func LoadOrCreateUser() (*Signer, error) {
	dir, err := DefaultDir()
	if err != nil {
		return nil, err
	}
	return LoadOrCreate(dir)
}

// NewSigner makes the self-signed certificate of key for the installation named name, valid from a
// day before notBefore (clocks differ) for certYears. The certificate is deterministic for the
// same arguments, which the golden tests rely on.
func NewSigner(key *ecdsa.PrivateKey, name string, notBefore time.Time) (*Signer, error) {
	pubDER, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return nil, fmt.Errorf("keys: encode public key: %w", err)
	}
	// The serial number only has to be unique per issuer, and each key is its own issuer.
	sum := sha256.Sum256(append(pubDER, notBefore.UTC().Format(time.RFC3339)...))
	from := notBefore.UTC().Add(-24 * time.Hour).Truncate(time.Second)
	tmpl := &x509.Certificate{
		SerialNumber: new(big.Int).SetBytes(sum[:16]),
		Subject: pkix.Name{
			CommonName:         "ThesisCheck " + name,
			Organization:       []string{"ThesisCheck"},
			OrganizationalUnit: []string{"Report signing key"},
		},
		NotBefore:             from,
		NotAfter:              from.AddDate(certYears, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageEmailProtection},
		UnknownExtKeyUsage:    []asn1.ObjectIdentifier{oidDocumentSigning},
		BasicConstraintsValid: true,
	}
	// A nil random source makes ECDSA signatures deterministic (RFC 6979).
	der, err := x509.CreateCertificate(nil, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, fmt.Errorf("keys: make certificate: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("keys: make certificate: %w", err)
	}
	return &Signer{Key: key, Cert: cert}, nil
}

// installationName names this installation in its certificate: user@host.
func installationName() string {
	name := os.Getenv("USER")
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	if name == "" {
		name = "user"
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return name + "@" + host
}

func loadOrCreateKey(dir string) (*ecdsa.PrivateKey, error) {
	path := filepath.Join(dir, KeyFile)
	if key, err := readKey(path); err == nil {
		return key, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("keys: key directory: %w", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("keys: generate key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("keys: encode key: %w", err)
	}
	tmp, err := writeTemp(dir, KeyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600)
	if err != nil {
		return nil, fmt.Errorf("keys: write key: %w", err)
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("keys: write key: %w", err)
		}
		return readKey(path) // another process won
	}
	return key, nil
}

func readKey(path string) (*ecdsa.PrivateKey, error) {
	k, err := readPrivateKey(path)
	if err != nil {
		return nil, err
	}
	key, ok := k.(*ecdsa.PrivateKey)
	if !ok || key.Curve != elliptic.P256() {
		return nil, fmt.Errorf("keys: %s is not an ECDSA P-256 key", path)
	}
	return key, nil
}

// readPrivateKey reads a PKCS #8 PEM private key.
func readPrivateKey(path string) (crypto.PrivateKey, error) {
	der, err := readPEM(path, "PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("keys: %s: %w", path, err)
	}
	return k, nil
}

func readCert(path string) (*x509.Certificate, error) {
	der, err := readPEM(path, "CERTIFICATE")
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("keys: %s: %w", path, err)
	}
	return cert, nil
}

// readPEM returns the DER bytes of the PEM block of type typ that the file at path holds.
func readPEM(path, typ string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != typ {
		return nil, fmt.Errorf("keys: %s is not a PEM %s", path, strings.ToLower(typ))
	}
	return block.Bytes, nil
}

// LegacyKey is the public half of dir's Ed25519 key from before PDF signatures, or nil when there is
// none. The private key is read when it is there (it is what signed), else the public key file.
func LegacyKey(dir string) (ed25519.PublicKey, error) {
	path := filepath.Join(dir, LegacyKeyFile)
	k, err := readPrivateKey(path)
	if err == nil {
		key, ok := k.(ed25519.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("keys: %s is not an Ed25519 key", path)
		}
		return key.Public().(ed25519.PublicKey), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	path = filepath.Join(dir, LegacyPublicKeyFile)
	pub, _, err := ReadPublicKey(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	key, ok := pub.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("keys: %s is not an Ed25519 key", path)
	}
	return key, nil
}

// ReadPublicKey reads the key a file gives to trust: a certificate (PEM or DER), whose subject it
// also returns, or a public key (PEM "PUBLIC KEY", as report-key.pub). Only ECDSA, Ed25519 and RSA
// keys are taken.
func ReadPublicKey(path string) (crypto.PublicKey, string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, "", fmt.Errorf("keys: %w", err)
	}
	if !st.Mode().IsRegular() || st.Size() > 1<<20 {
		return nil, "", fmt.Errorf("keys: %s is not a certificate or public key file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("keys: %w", err)
	}
	der, typ := data, "CERTIFICATE"
	if block, _ := pem.Decode(data); block != nil {
		der, typ = block.Bytes, block.Type
	}
	var pub crypto.PublicKey
	subject := ""
	switch typ {
	case "CERTIFICATE":
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, "", fmt.Errorf("keys: %s is not a certificate or public key file (%v)", path, err)
		}
		pub, subject = cert.PublicKey, cert.Subject.CommonName
	case "PUBLIC KEY":
		if pub, err = x509.ParsePKIXPublicKey(der); err != nil {
			return nil, "", fmt.Errorf("keys: %s: %w", path, err)
		}
	default:
		return nil, "", fmt.Errorf("keys: %s holds a %s, not a certificate or public key", path, strings.ToLower(typ))
	}
	switch pub.(type) {
	case *ecdsa.PublicKey, ed25519.PublicKey, *rsa.PublicKey:
	default:
		return nil, "", fmt.Errorf("keys: %s: unsupported key type %s", path, Algorithm(pub))
	}
	return pub, subject, nil
}

// sameKey reports whether a and b are the same public key.
func sameKey(a, b crypto.PublicKey) bool {
	da, err1 := x509.MarshalPKIXPublicKey(a)
	db, err2 := x509.MarshalPKIXPublicKey(b)
	return err1 == nil && err2 == nil && bytes.Equal(da, db)
}

// writeTemp writes data to a new file beside name in dir and returns its path.
func writeTemp(dir, name string, data []byte, mode os.FileMode) (string, error) {
	tmp, err := os.CreateTemp(dir, name+".tmp*")
	if err != nil {
		return "", err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// writeFileAtomic replaces path with data: readers see the old file or the new, never half of one.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := writeTemp(filepath.Dir(path), filepath.Base(path), data, mode)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
