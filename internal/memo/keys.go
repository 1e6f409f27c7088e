package memo

import (
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"hash"

	"golang.org/x/crypto/chacha20poly1305"
)

// MinSecretLen is the shortest secret Open accepts: 32 bytes, the key size
// of every primitive used here, so the secret is never the weak link.
const MinSecretLen = 32

// keys are one file's keys, derived from the secret and the file's salt.
// Separate keys per purpose (HKDF info strings) so that no value computed
// for one purpose can be replayed as another.
type keys struct {
	header []byte      // MACs the header (key check and identity)
	lookup hash.Hash   // HMAC-SHA256 keyed for word tags; guarded by Memo.mu
	seal   cipher.AEAD // XChaCha20-Poly1305 for responses
	chain  hash.Hash   // HMAC-SHA256 keyed for the record chain; guarded by Memo.mu
}

func deriveKeys(secret, salt []byte) (*keys, error) {
	prk := hkdfExtract(secret, salt)
	k := func(info string) []byte { return hkdfExpand32(prk, "wordveil memo v1 "+info) }
	aead, err := chacha20poly1305.NewX(k("seal"))
	if err != nil {
		return nil, err
	}
	return &keys{header: k("header"), lookup: hmac.New(sha256.New, k("lookup")), seal: aead,
		chain: hmac.New(sha256.New, k("chain"))}, nil
}

// secretKey is a key derived from the secret alone (no per-file salt), for
// what must be the same for every file made with the secret: the file
// name of an identity (names.go) and the memo's name in a ledger.
func secretKey(secret []byte, purpose string) []byte {
	return hkdfExpand32(hkdfExtract(secret, []byte("wordveil memo secret keys")), "wordveil memo v2 "+purpose)
}

// keyedID is HMAC-SHA256(secretKey(secret, purpose), canonical identity),
// truncated to 16 bytes: without the secret it says nothing about the
// identity (not even whether two directories serve the same one, across
// secrets).
func keyedID(secret []byte, purpose string, canon []byte) [16]byte {
	h := hmac.New(sha256.New, secretKey(secret, purpose))
	h.Write(canon)
	return [16]byte(h.Sum(nil))
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

// hkdfExtract and hkdfExpand32 are HKDF-SHA256 (RFC 5869) for one 32-byte
// output block, written out with HMAC so that the package needs no KDF
// package beside crypto/hmac: extract is PRK = HMAC(salt, secret) and a
// one-block expand is T(1) = HMAC(PRK, info || 0x01). They give the same
// bytes as the standard library's crypto/hkdf.Key (TestHKDFMatchesStdlib).
func hkdfExtract(secret, salt []byte) []byte {
	h := hmac.New(sha256.New, salt)
	h.Write(secret)
	return h.Sum(nil)
}

func hkdfExpand32(prk []byte, info string) []byte {
	h := hmac.New(sha256.New, prk)
	h.Write([]byte(info))
	h.Write([]byte{1})
	return h.Sum(nil)
}
