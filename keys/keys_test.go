package keys

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLoadOrCreate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "config", "thesischeck")
	s1, err := LoadOrCreate(dir)
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
	if s1.CertPath != filepath.Join(dir, CertFile) {
		t.Errorf("certificate path %q", s1.CertPath)
	}
	cert, err := readCert(s1.CertPath)
	if err != nil {
		t.Fatal(err)
	}
	if !sameKey(cert.PublicKey, s1.Key.Public()) {
		t.Error("the certificate file does not hold the signing key")
	}
	if cn := cert.Subject.CommonName; !strings.HasPrefix(cn, "ThesisCheck ") || !strings.Contains(cn, "@") {
		t.Errorf("subject %q does not name ThesisCheck and the installation", cn)
	}
	if err := cert.CheckSignature(cert.SignatureAlgorithm, cert.RawTBSCertificate, cert.Signature); err != nil {
		t.Errorf("the certificate is not self-signed: %v", err)
	}
	if years := time.Until(cert.NotAfter).Hours() / 24 / 365; years < certYears-1 {
		t.Errorf("the certificate is valid for %.1f more years, want about %d", years, certYears)
	}
	if cert.KeyUsage&x509.KeyUsageDigitalSignature == 0 {
		t.Error("the certificate does not allow digital signatures")
	}
	if !regexp.MustCompile(`^([0-9a-f]{4}:){7}[0-9a-f]{4}$`).MatchString(s1.Fingerprint()) {
		t.Errorf("fingerprint %q", s1.Fingerprint())
	}

	s2, err := LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !s1.Key.Equal(s2.Key) || !s1.Cert.Equal(s2.Cert) {
		t.Error("a second LoadOrCreate made a new key or certificate instead of loading them")
	}

	// A lost certificate is made again for the same key.
	os.Remove(s1.CertPath)
	s3, err := LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !s3.Key.Equal(s1.Key) || !sameKey(s3.Cert.PublicKey, s1.Key.Public()) {
		t.Error("the remade certificate is not for the same key")
	}
	// So is a damaged one.
	os.WriteFile(s1.CertPath, []byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"), 0o644)
	s4, err := LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if cert, err := readCert(s1.CertPath); err != nil || !sameKey(cert.PublicKey, s4.Key.Public()) || !s4.Key.Equal(s1.Key) {
		t.Errorf("a damaged certificate was not made again for the same key: %v", err)
	}
}

func TestLoadOrCreateConcurrent(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	signers := make([]*Signer, 4)
	for i := range signers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := LoadOrCreate(dir)
			if err != nil {
				t.Error(err)
				return
			}
			signers[i] = s
		}()
	}
	wg.Wait()
	for _, s := range signers[1:] {
		if s != nil && signers[0] != nil && !s.Key.Equal(signers[0].Key) {
			t.Fatal("processes starting at once made different keys")
		}
	}
}

func TestLoadOrCreateRejectsGarbage(t *testing.T) {
	for _, content := range []string{"not a key", legacyPEM(t)} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, KeyFile), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadOrCreate(dir); err == nil {
			t.Fatalf("a key file holding %.20q was accepted (or silently replaced)", content)
		}
	}
}

// legacyPEM is an Ed25519 private key as ThesisCheck wrote report-key.
func legacyPEM(t *testing.T) string {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

func TestNewSignerDeterministic(t *testing.T) {
	s, err := LoadOrCreate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a, err := NewSigner(s.Key, "a@b", when)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewSigner(s.Key, "a@b", when)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Cert.Equal(b.Cert) {
		t.Error("the same key, name and time made two certificates")
	}
}

func TestTrustStore(t *testing.T) {
	mine := t.TempDir()
	me, err := LoadOrCreate(mine)
	if err != nil {
		t.Fatal(err)
	}
	colleague, err := LoadOrCreate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	other, err := LoadOrCreate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store, err := Open(mine)
	if err != nil {
		t.Fatal(err)
	}
	if k, ok := store.Find(me.Key.Public()); !ok || !k.Own || k.Fingerprint != me.Fingerprint() {
		t.Fatalf("own key not trusted: %+v %v", k, ok)
	}
	if _, ok := store.Find(colleague.Key.Public()); ok {
		t.Fatal("a key nobody added is trusted")
	}
	if _, _, err := store.Trust(me.CertPath, ""); err == nil || !strings.Contains(err.Error(), "your own key") {
		t.Errorf("trusting the own key: %v", err)
	}

	k, added, err := store.Trust(colleague.CertPath, "Li Wei")
	if err != nil || !added || k.Name != "Li Wei" || k.Fingerprint != colleague.Fingerprint() || k.Subject != colleague.Cert.Subject.CommonName {
		t.Fatalf("trust: %+v %v %v", k, added, err)
	}
	if _, _, err := store.Trust(other.CertPath, "Li Wei"); err == nil {
		t.Error("a second key was trusted under a name already taken")
	}
	k, added, err = store.Trust(other.CertPath, "")
	if err != nil || !added || k.Name != other.Cert.Subject.CommonName {
		t.Fatalf("trust without a name: %+v %v %v", k, added, err)
	}
	if _, added, err := store.Trust(colleague.CertPath, "Li Wei (maths)"); err != nil || added {
		t.Errorf("renaming a trusted key: added=%v %v", added, err)
	}

	// What was trusted is read back by a new Store, as another process would.
	again, err := Open(mine)
	if err != nil {
		t.Fatal(err)
	}
	if k, ok := again.Find(colleague.Key.Public()); !ok || k.Own || k.Name != "Li Wei (maths)" {
		t.Fatalf("reopened store: %+v %v", k, ok)
	}
	if n := len(again.Keys()); n != 3 {
		t.Errorf("%d keys listed, want own + 2", n)
	}

	if _, err := again.Remove(me.Fingerprint()); err == nil || !strings.Contains(err.Error(), "cannot be removed") {
		t.Errorf("removing the own key: %v", err)
	}
	if _, err := again.Remove("nobody"); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("removing an unknown key: %v", err)
	}
	if _, err := again.Remove(colleague.Fingerprint()[:4]); err == nil {
		t.Error("a 4-digit fingerprint prefix was taken")
	}
	// By fingerprint, upper case and without separators.
	prefix := strings.ToUpper(strings.ReplaceAll(colleague.Fingerprint()[:14], ":", ""))
	if k, err := again.Remove(prefix); err != nil || k.Name != "Li Wei (maths)" {
		t.Fatalf("remove by fingerprint %s: %+v %v", prefix, k, err)
	}
	if k, err := again.Remove(other.Cert.Subject.CommonName); err != nil || k.Fingerprint != other.Fingerprint() {
		t.Fatalf("remove by name: %+v %v", k, err)
	}
	final, err := Open(mine)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := final.Find(colleague.Key.Public()); ok {
		t.Error("a removed key is still trusted")
	}
}

func TestTrustLegacyKeys(t *testing.T) {
	// An installation from before PDF signatures: report-key and report-key.pub.
	old := t.TempDir()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(priv)
	os.WriteFile(filepath.Join(old, LegacyKeyFile), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600)
	pubDER, _ := x509.MarshalPKIXPublicKey(priv.Public())
	pubPath := filepath.Join(old, LegacyPublicKeyFile)
	os.WriteFile(pubPath, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Headers: map[string]string{"Fingerprint": "5647:5aa7:5463:474c"}, Bytes: pubDER}), 0o644)

	// Upgraded, the installation keeps its old key as its own, beside the new one.
	if _, err := LoadOrCreate(old); err != nil {
		t.Fatal(err)
	}
	store, err := Open(old)
	if err != nil {
		t.Fatal(err)
	}
	if k, ok := store.Find(priv.Public()); !ok || !k.Own || k.Algorithm != "Ed25519" {
		t.Fatalf("the previous Ed25519 key is not the installation's own: %+v %v", k, ok)
	}
	if n := len(store.Keys()); n != 2 {
		t.Errorf("%d own keys, want the new and the previous", n)
	}

	// Another installation trusts the old public key file.
	other := t.TempDir()
	ostore, err := Open(other)
	if err != nil {
		t.Fatal(err)
	}
	k, added, err := ostore.Trust(pubPath, "old colleague")
	if err != nil || !added || k.Algorithm != "Ed25519" {
		t.Fatalf("trusting report-key.pub: %+v %v", k, err)
	}
	if _, ok := ostore.Find(priv.Public()); !ok {
		t.Error("the trusted Ed25519 key is not found")
	}
}

func TestTrustRejects(t *testing.T) {
	dir := t.TempDir()
	store, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"garbage.pem": "hello",
		"private.pem": legacyPEM(t),
		"report.json": `{"report_number": "TC-1"}`,
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(content), 0o644)
		if _, _, err := store.Trust(path, ""); err == nil {
			t.Errorf("%s was trusted", name)
		}
	}
	if _, _, err := store.Trust(dir, ""); err == nil {
		t.Error("a folder was trusted")
	}
	if len(store.Keys()) != 0 {
		t.Errorf("keys after failures: %+v", store.Keys())
	}
}

func TestOpenDamagedTrustFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, TrustFile), []byte(`{"version":1,"keys":[{"name":"x","public_key":"AAAA"`), 0o644)
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("a damaged trust file: %v", err)
	}
	os.WriteFile(filepath.Join(dir, TrustFile), []byte(`{"version":1,"keys":[{"name":"x","public_key":"AAAA"}]}`), 0o644)
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("a trust file with a bad key: %v", err)
	}
}
