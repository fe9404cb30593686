package keys

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
)

// TrustFile lists the keys trusted besides the installation's own, in the key directory.
const TrustFile = "trusted-keys.json"

// ErrUnknownKey means Remove found no trusted key by the name or fingerprint given.
var ErrUnknownKey = errors.New("keys: no such trusted key")

// Key is a key whose signatures are trusted.
type Key struct {
	Name        string    `json:"name"`
	Fingerprint string    `json:"fingerprint"`
	Algorithm   string    `json:"algorithm"`
	Subject     string    `json:"subject,omitempty"` // the certificate's common name, when one was given
	PublicKey   string    `json:"public_key"`        // base64 DER SubjectPublicKeyInfo
	Added       time.Time `json:"added"`
	// Own marks this installation's own keys (the signing key, and the Ed25519 key before it),
	// which are trusted without being listed in TrustFile.
	Own bool `json:"-"`

	spki []byte
}

// Store is the set of trusted keys of one key directory.
type Store struct {
	dir   string
	own   []Key
	added []Key
}

type trustFile struct {
	Version int   `json:"version"`
	Keys    []Key `json:"keys"`
}

// Open reads the trusted keys of dir: its own keys, if it has any yet (Open makes none), and the
// keys added to TrustFile. A damaged TrustFile is an error, not an empty list: verification must
// not quietly lose the keys it trusts.
func Open(dir string) (*Store, error) {
	s := &Store{dir: dir}
	if key, err := readKey(filepath.Join(dir, KeyFile)); err == nil {
		subject := ""
		if cert, err := readCert(filepath.Join(dir, CertFile)); err == nil && sameKey(cert.PublicKey, key.Public()) {
			subject = cert.Subject.CommonName
		}
		s.own = append(s.own, newKey("your own key", key.Public(), subject))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	legacy, err := LegacyKey(dir)
	if err != nil {
		return nil, err
	}
	if legacy != nil {
		s.own = append(s.own, newKey("your own previous key", legacy, ""))
	}
	for i := range s.own {
		s.own[i].Own = true
	}
	path := filepath.Join(dir, TrustFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	var tf trustFile
	if err := json.Unmarshal(data, &tf); err != nil {
		return nil, fmt.Errorf("keys: %s is damaged (%v): repair or remove it, then trust the keys again", path, err)
	}
	for _, k := range tf.Keys {
		der, err := base64.StdEncoding.DecodeString(k.PublicKey)
		if err == nil {
			_, err = x509.ParsePKIXPublicKey(der)
		}
		if err != nil {
			return nil, fmt.Errorf("keys: %s is damaged (the key of %q cannot be read): repair or remove it, then trust the keys again", path, k.Name)
		}
		k.spki = der
		s.added = append(s.added, k)
	}
	return s, nil
}

// OpenUser is Open on DefaultDir.
func OpenUser() (*Store, error) {
	dir, err := DefaultDir()
	if err != nil {
		return nil, err
	}
	return Open(dir)
}

func newKey(name string, pub crypto.PublicKey, subject string) Key {
	der, _ := x509.MarshalPKIXPublicKey(pub)
	return Key{
		Name: name, Fingerprint: Fingerprint(pub), Algorithm: Algorithm(pub), Subject: subject,
		PublicKey: base64.StdEncoding.EncodeToString(der), spki: der,
	}
}

// Keys lists the trusted keys, the installation's own first.
func (s *Store) Keys() []Key { return append(append([]Key(nil), s.own...), s.added...) }

// Find returns the trusted key pub is, if it is one.
func (s *Store) Find(pub crypto.PublicKey) (Key, bool) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return Key{}, false
	}
	for _, k := range s.Keys() {
		if bytes.Equal(k.spki, der) {
			return k, true
		}
	}
	return Key{}, false
}

// Trust adds the key in the certificate or public key file at path under name (empty: the
// certificate's common name, else the fingerprint). It reports whether the key is new; a key
// trusted already keeps its place and takes the new name if one is given.
func (s *Store) Trust(path, name string) (Key, bool, error) {
	pub, subject, err := ReadPublicKey(path)
	if err != nil {
		return Key{}, false, err
	}
	k := newKey(cleanName(name), pub, subject)
	if k.Name == "" {
		k.Name = cleanName(subject)
	}
	if k.Name == "" {
		k.Name = "key " + k.Fingerprint[:9]
	}
	if have, ok := s.Find(pub); ok && have.Own {
		return have, false, fmt.Errorf("keys: %s is your own key (%s): your own reports are always trusted", path, have.Fingerprint)
	}
	for i, have := range s.added {
		if have.Name == k.Name && !bytes.Equal(have.spki, k.spki) {
			return Key{}, false, fmt.Errorf("keys: another key (%s) is trusted as %q: choose another --name", have.Fingerprint, k.Name)
		}
		if bytes.Equal(have.spki, k.spki) {
			if name == "" || have.Name == k.Name {
				return have, false, nil
			}
			s.added[i].Name = k.Name
			return s.added[i], false, s.save()
		}
	}
	k.Added = time.Now().UTC().Truncate(time.Second)
	s.added = append(s.added, k)
	if err := s.save(); err != nil {
		s.added = s.added[:len(s.added)-1]
		return Key{}, false, err
	}
	return k, true, nil
}

// Remove stops trusting the key named ref, or whose fingerprint is or starts with ref (at least 8
// hex digits; separators and case do not matter).
func (s *Store) Remove(ref string) (Key, error) {
	var found []int
	for i, k := range s.added {
		if k.Name == ref {
			found = []int{i}
			break
		}
		if fp := normFingerprint(ref); len(fp) >= 8 && strings.HasPrefix(normFingerprint(k.Fingerprint), fp) {
			found = append(found, i)
		}
	}
	switch len(found) {
	case 0:
		for _, k := range s.own {
			if fp := normFingerprint(ref); len(fp) >= 8 && strings.HasPrefix(normFingerprint(k.Fingerprint), fp) {
				return Key{}, fmt.Errorf("keys: %s is %s: it cannot be removed", k.Fingerprint, k.Name)
			}
		}
		return Key{}, fmt.Errorf("%w named or fingerprinted %q (see thesischeck keys list)", ErrUnknownKey, ref)
	case 1:
	default:
		return Key{}, fmt.Errorf("keys: %q matches %d keys: give more of the fingerprint", ref, len(found))
	}
	k := s.added[found[0]]
	rest := append(append([]Key(nil), s.added[:found[0]]...), s.added[found[0]+1:]...)
	old := s.added
	s.added = rest
	if err := s.save(); err != nil {
		s.added = old
		return Key{}, err
	}
	return k, nil
}

func (s *Store) save() error {
	data, err := json.MarshalIndent(trustFile{Version: 1, Keys: s.added}, "", " ")
	if err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(s.dir, TrustFile), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("keys: write %s: %w", TrustFile, err)
	}
	return nil
}

// normFingerprint keeps the hex digits of a fingerprint, in lower case.
func normFingerprint(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
			b.WriteRune(c)
		case c == ':' || c == ' ' || c == '-':
		default:
			return "" // not a fingerprint
		}
	}
	return b.String()
}

// cleanName makes a name fit for one line of a listing.
func cleanName(s string) string {
	s = strings.Map(func(c rune) rune {
		if unicode.IsControl(c) {
			return ' '
		}
		return c
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
