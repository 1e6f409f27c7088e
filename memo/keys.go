package memo

import (
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"hash"

	"crypto/hkdf"

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
}

func deriveKeys(secret, salt []byte) (*keys, error) {
	k := func(info string) []byte {
		// HKDF-SHA256 (the standard library's, RFC 5869) can yield 255·32
		// bytes; 32 never fails.
		out, err := hkdf.Key(sha256.New, secret, salt, "wordveil memo v1 "+info, 32)
		if err != nil {
			panic("memo: hkdf: " + err.Error())
		}
		return out
	}
	aead, err := chacha20poly1305.NewX(k("seal"))
	if err != nil {
		return nil, err
	}
	return &keys{header: k("header"), lookup: hmac.New(sha256.New, k("lookup")), seal: aead}, nil
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
