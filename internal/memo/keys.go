package memo

import (
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"unicode/utf8"

	"github.com/wordveil/wordveil/internal/errwrap"
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

// appendRecord appends the record for (tag, response) at index to b.
func (k *keys) appendRecord(b []byte, fileID [fileIDLen]byte, index uint64, tag [tagLen]byte, response int32) []byte {
	var nonce [nonceLen]byte
	_, _ = rand.Read(nonce[:])
	var pt [4]byte
	binary.LittleEndian.PutUint32(pt[:], uint32(response))
	b = append(b, tag[:]...)
	b = append(b, nonce[:]...)
	ad := recordAD(fileID, tag, index)
	return k.seal.Seal(b, nonce[:], pt[:], ad[:])
}

// openRecord authenticates the record at index and returns its tag and
// response.
func (k *keys) openRecord(rec []byte, fileID [fileIDLen]byte, index uint64) (tag [tagLen]byte, response int32, err error) {
	ad := recordAD(fileID, [tagLen]byte(rec[:tagLen]), index)
	return k.openWith(rec, ad[:])
}

func (k *keys) openWith(rec, ad []byte) (tag [tagLen]byte, response int32, err error) {
	tag = [tagLen]byte(rec[:tagLen])
	nonce := rec[tagLen : tagLen+nonceLen]
	var buf [4]byte
	pt, err := k.seal.Open(buf[:0], nonce, rec[tagLen+nonceLen:recordLen], ad)
	if err != nil {
		return tag, 0, fmt.Errorf("%w: a record fails authentication (damaged, moved or removed records)", ErrCorrupt)
	}
	response = int32(binary.LittleEndian.Uint32(pt))
	if response < 0 {
		return tag, 0, fmt.Errorf("%w: negative response", ErrCorrupt)
	}
	return tag, response, nil
}

// recordAD is a record's associated data: fileID ‖ tag ‖ index (an array,
// so it needs no allocation per record).
func recordAD(fileID [fileIDLen]byte, tag [tagLen]byte, index uint64) (ad [fileIDLen + tagLen + 8]byte) {
	copy(ad[:], fileID[:])
	copy(ad[fileIDLen:], tag[:])
	binary.BigEndian.PutUint64(ad[fileIDLen+tagLen:], index)
	return ad
}

// chainStart is head₀, the chain head of a file with no record.
func (k *keys) chainStart(h *header) [macLen]byte {
	return [macLen]byte(k.headerMAC("chain", h.marshal()))
}

// chainNext is the head after rec.
func (k *keys) chainNext(head [macLen]byte, rec []byte) [macLen]byte {
	k.chain.Reset()
	k.chain.Write(head[:])
	k.chain.Write(rec)
	var out [macLen]byte
	k.chain.Sum(out[:0])
	return out
}

// SecretPin is the value a memo directory's pin (anchor.Pin) holds: a
// fingerprint of the secret its memos are sealed with, keyed by the
// secret itself, so it says nothing about the secret or the memos. A
// directory found with another secret's pin was deleted whole and
// started afresh under a new secret (or replaced), which would answer
// words already answered afresh: it fails closed unless it was reset.
func SecretPin(secret []byte) (string, error) {
	if len(secret) < MinSecretLen {
		return "", fmt.Errorf("%w: %d bytes, need at least %d", ErrSecret, len(secret), MinSecretLen)
	}
	key, err := secretKey(secret, "directory pin")
	if err != nil {
		return "", fmt.Errorf("memo: %w", err)
	}
	h := hmac.New(sha256.New, key)
	h.Write([]byte("wordveil memo directory"))
	return "secret-" + hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// maxIdentityField bounds Mechanism and Params, so that the canonical
// encoding stays small.
const maxIdentityField = 4096

// Identity says what a memo's responses are valid for: a response drawn
// for one mechanism, ε or asset is meaningless (and unsafe) for another.
type Identity struct {
	Mechanism string   // e.g. "brr"
	Params    string   // every parameter, canonical text, e.g. "epsilon=0.4845"; the caller builds it
	Asset     [32]byte // SHA-256 of the asset file
}

func (id Identity) validate() error {
	switch {
	case id.Mechanism == "":
		return errwrap.Tag(ErrInvalid, "memo: identity without a mechanism")
	case len(id.Mechanism) > maxIdentityField || len(id.Params) > maxIdentityField:
		return errwrap.Tag(ErrInvalid, "memo: identity field longer than %d bytes", maxIdentityField)
	case !utf8.ValidString(id.Mechanism) || !utf8.ValidString(id.Params):
		return errwrap.Tag(ErrInvalid, "memo: identity is not valid UTF-8")
	case id.Asset == [32]byte{}:
		return errwrap.Tag(ErrInvalid, "memo: identity without an asset hash")
	}
	return nil
}

// canonical encodes id unambiguously: each string is length-prefixed, so
// no two identities share an encoding (plain concatenation would let
// ("ab","c") and ("a","bc") collide).
func (id Identity) canonical() []byte {
	b := make([]byte, 0, 64+len(id.Mechanism)+len(id.Params))
	b = append(b, "wordveil memo identity v1\x00"...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(id.Mechanism)))
	b = append(b, id.Mechanism...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(id.Params)))
	b = append(b, id.Params...)
	return append(b, id.Asset[:]...)
}
