package memo

import (
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"

	"golang.org/x/crypto/chacha20poly1305"
)

// MinSecretLen is the shortest secret Open accepts: 32 bytes, the key size
// of every primitive used here, so the secret is never the weak link.
const MinSecretLen = 32

// keys are one file's keys, derived from the secret and the file's salt
// with HKDF-SHA256 (RFC 5869, crypto/hkdf). Separate keys per purpose (HKDF
// info strings) so that no value computed for one purpose can be replayed
// as another. crypto/hkdf fails only in FIPS 140-only mode on a secret
// under 14 bytes, which Open refuses first (MinSecretLen); its errors are
// passed on all the same rather than assumed away.
type keys struct {
	header []byte      // MACs the header (key check and identity)
	lookup hash.Hash   // HMAC-SHA256 keyed for word tags; guarded by Memo.mu
	seal   cipher.AEAD // XChaCha20-Poly1305 for responses
	chain  hash.Hash   // HMAC-SHA256 keyed for the record chain; guarded by Memo.mu
}

func deriveKeys(secret, salt []byte) (*keys, error) {
	prk, err := hkdf.Extract(sha256.New, secret, salt)
	if err != nil {
		return nil, err
	}
	var k [4][]byte
	for i, purpose := range []string{"header", "lookup", "seal", "chain"} {
		if k[i], err = hkdf.Expand(sha256.New, prk, "wordveil memo v1 "+purpose, 32); err != nil {
			return nil, err
		}
	}
	aead, err := chacha20poly1305.NewX(k[2])
	if err != nil {
		return nil, err
	}
	return &keys{header: k[0], lookup: hmac.New(sha256.New, k[1]), seal: aead, chain: hmac.New(sha256.New, k[3])}, nil
}

// secretKey is a key derived from the secret alone (no per-file salt), for
// what must be the same for every file made with the secret: the file
// name of an identity (fileName) and the memo's name in a ledger.
func secretKey(secret []byte, purpose string) ([]byte, error) {
	return hkdf.Key(sha256.New, secret, []byte("wordveil memo secret keys"), "wordveil memo v2 "+purpose, 32)
}

// keyedID is HMAC-SHA256(secretKey(secret, purpose), canonical identity),
// truncated to 16 bytes: without the secret it says nothing about the
// identity (not even whether two directories serve the same one, across
// secrets).
func keyedID(secret []byte, purpose string, canon []byte) ([16]byte, error) {
	key, err := secretKey(secret, purpose)
	if err != nil {
		return [16]byte{}, err
	}
	h := hmac.New(sha256.New, key)
	h.Write(canon)
	return [16]byte(h.Sum(nil)), nil
}

// memoryKeys are random keys for a memo kept in memory only.
func memoryKeys() (*keys, error) {
	var secret, salt [32]byte
	_, _ = rand.Read(secret[:]) // never fails since Go 1.24 (aborts instead)
	_, _ = rand.Read(salt[:])
	return deriveKeys(secret[:], salt[:])
}

// tag is the keyed hash under which word is stored: without the lookup
// key it says nothing about the word. 16 bytes make a collision among 2^20
// entries a 2^-89 event.
func (k *keys) tag(word int32) [tagLen]byte {
	var w [4]byte
	binary.LittleEndian.PutUint32(w[:], uint32(word))
	k.lookup.Reset()
	k.lookup.Write(w[:])
	var sum [sha256.Size]byte
	var t [tagLen]byte
	copy(t[:], k.lookup.Sum(sum[:0]))
	return t
}

// headerMAC is HMAC-SHA256 under the header key of label and parts.
func (k *keys) headerMAC(label string, parts ...[]byte) []byte {
	h := hmac.New(sha256.New, k.header)
	h.Write([]byte(label))
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// fileName is the name of identity canon's file under secret: keyed, so
// that without the secret it says nothing about the mechanism, ε or asset
// (a name derived from the identity alone could be tested against the few
// known mechanisms and assets), and fixed, so that every process finds the
// same file and a damaged identity MAC at that name is damage, never a
// second memo. A wrong secret finds another name, but Open checks every
// file's header against the secret first and fails with ErrWrongSecret.
func fileName(secret, canon []byte) (string, error) {
	id, err := keyedID(secret, "file name", canon)
	return fmt.Sprintf("%s%x%s", filePrefix, id, fileSuffix), err
}

// bindingName is the memo's name in a privacy ledger (BindingName).
func bindingName(secret, canon []byte) (string, error) {
	id, err := keyedID(secret, "ledger binding", canon)
	return fmt.Sprintf("memo %x", id), err
}
