package memo

import (
	"crypto/hmac"
	"crypto/rand"
	"fmt"
)

// File layout, version 2 (all sizes fixed, so the file size reveals only
// the count):
//
//	header (headerLen bytes):
//	  magic    8   "WVMEMO" + version (uint16, big endian)
//	  fileID  16   random, made with the file
//	  salt    32   random, the HKDF salt of this file's keys
//	  check   32   HMAC(header key, "key check" ‖ magic ‖ fileID ‖ salt)
//	  idMAC   32   HMAC(header key, "identity" ‖ magic ‖ fileID ‖ salt ‖ canonical Identity)
//	records (recordLen bytes each), appended:
//	  tag     16   HMAC-SHA256(lookup key, word id)[:16]
//	  nonce   24   random
//	  sealed  20   XChaCha20-Poly1305(seal key, nonce, response int32 LE,
//	               ad = fileID ‖ tag ‖ record index uint64 BE)
//
// check tells a wrong secret (ErrWrongSecret) from a file of another
// identity made with the same secret. The file's name is keyed by the
// secret and the identity (fileName, open.go), so a file at this identity's name
// whose idMAC does not verify is damage (ErrCorrupt), never "another
// identity". The associated data binds each record to its word, its file
// and its place, so records cannot be moved between words or files, nor
// removed from the middle or reordered.
//
// The file's state is (record count, chain head): head₀ = HMAC(chain key,
// "chain" ‖ header), headᵢ = HMAC(chain key, headᵢ₋₁ ‖ recordᵢ). It is
// not stored in the file; an Anchor keeps it outside (anchor.go).
//
// Version 1 (migrate, open.go) had no index in the associated data and a random
// file name; it is migrated to version 2 on Open.
const (
	magicLen    = 8
	fileIDLen   = 16
	saltLen     = 32
	macLen      = 32
	headerLen   = magicLen + fileIDLen + saltLen + 2*macLen
	tagLen      = 16
	nonceLen    = 24
	sealedLen   = 4 + 16
	recordLen   = tagLen + nonceLen + sealedLen
	fixedPrefix = magicLen + fileIDLen + saltLen // the part the MACs cover
)

// MaxEntries is the most words a memo holds; a file claiming more is
// refused before it is read, which bounds memory (about 50 bytes per entry
// in memory, recordLen = 60 bytes per entry on disk). Vocabularies have at
// most a few hundred thousand words.
const MaxEntries = 1 << 20

var (
	magic   = [magicLen]byte{'W', 'V', 'M', 'E', 'M', 'O', 0, 2}
	magicV1 = [magicLen]byte{'W', 'V', 'M', 'E', 'M', 'O', 0, 1}
)

// header is a parsed file header.
type header struct {
	v1     bool // a version 1 file (migrate)
	fileID [fileIDLen]byte
	salt   [saltLen]byte
	check  [macLen]byte
	idMAC  [macLen]byte
}

func newHeader() header {
	var h header
	_, _ = rand.Read(h.fileID[:]) // never fails since Go 1.24 (aborts instead)
	_, _ = rand.Read(h.salt[:])
	return h
}

func (h *header) prefix() []byte {
	b := make([]byte, 0, fixedPrefix)
	if h.v1 {
		b = append(b, magicV1[:]...)
	} else {
		b = append(b, magic[:]...)
	}
	b = append(b, h.fileID[:]...)
	return append(b, h.salt[:]...)
}

// seal fills in the MACs for id under k.
func (h *header) seal(k *keys, id []byte) {
	p := h.prefix()
	copy(h.check[:], k.headerMAC("key check", p))
	copy(h.idMAC[:], k.headerMAC("identity", p, id))
}

func (h *header) marshal() []byte {
	b := h.prefix()
	b = append(b, h.check[:]...)
	return append(b, h.idMAC[:]...)
}

// parseHeader parses a version 2 or version 1 header.
func parseHeader(b []byte) (header, error) {
	var h header
	if len(b) < headerLen {
		return h, fmt.Errorf("%w: header is %d bytes, want %d", ErrCorrupt, len(b), headerLen)
	}
	switch [magicLen]byte(b[:magicLen]) {
	case magic:
	case magicV1:
		h.v1 = true
	default:
		return h, fmt.Errorf("%w: bad magic or version", ErrCorrupt)
	}
	b = b[magicLen:]
	h.fileID, b = [fileIDLen]byte(b), b[fileIDLen:]
	h.salt, b = [saltLen]byte(b), b[saltLen:]
	h.check, b = [macLen]byte(b), b[macLen:]
	h.idMAC = [macLen]byte(b)
	return h, nil
}

// verify reports whether the header was made with k's secret (keyOK) and
// for the identity id (idOK).
func (h *header) verify(k *keys, id []byte) (keyOK, idOK bool) {
	p := h.prefix()
	keyOK = hmac.Equal(h.check[:], k.headerMAC("key check", p))
	idOK = keyOK && hmac.Equal(h.idMAC[:], k.headerMAC("identity", p, id))
	return keyOK, idOK
}
