package memo

import (
	"crypto/hmac"
	"crypto/rand"
	"encoding/binary"
	"fmt"
)

// File layout (all sizes fixed, so the file size reveals only the count):
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
//	  sealed  20   XChaCha20-Poly1305(seal key, nonce, response int32 LE, ad = fileID ‖ tag)
//
// check tells a wrong secret (ErrWrongSecret) from a file of another
// identity made with the same secret (skipped: every identity has its own
// file). The associated data binds each record to its word and its file,
// so records cannot be moved between words or files.
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

var magic = [magicLen]byte{'W', 'V', 'M', 'E', 'M', 'O', 0, 1}

// header is a parsed file header.
type header struct {
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
	b = append(b, magic[:]...)
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

func parseHeader(b []byte) (header, error) {
	var h header
	if len(b) < headerLen {
		return h, fmt.Errorf("%w: header is %d bytes, want %d", ErrCorrupt, len(b), headerLen)
	}
	if [magicLen]byte(b[:magicLen]) != magic {
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

// appendRecord appends the record for (tag, response) to b.
func (k *keys) appendRecord(b []byte, fileID [fileIDLen]byte, tag [tagLen]byte, response int32) []byte {
	var nonce [nonceLen]byte
	_, _ = rand.Read(nonce[:])
	var pt [4]byte
	binary.LittleEndian.PutUint32(pt[:], uint32(response))
	b = append(b, tag[:]...)
	b = append(b, nonce[:]...)
	ad := recordAD(fileID, tag)
	return k.seal.Seal(b, nonce[:], pt[:], ad[:])
}

// openRecord authenticates one record and returns its tag and response.
func (k *keys) openRecord(rec []byte, fileID [fileIDLen]byte) (tag [tagLen]byte, response int32, err error) {
	tag = [tagLen]byte(rec[:tagLen])
	nonce := rec[tagLen : tagLen+nonceLen]
	var buf [4]byte
	ad := recordAD(fileID, tag)
	pt, err := k.seal.Open(buf[:0], nonce, rec[tagLen+nonceLen:recordLen], ad[:])
	if err != nil {
		return tag, 0, fmt.Errorf("%w: a record fails authentication", ErrCorrupt)
	}
	response = int32(binary.LittleEndian.Uint32(pt))
	if response < 0 {
		return tag, 0, fmt.Errorf("%w: negative response", ErrCorrupt)
	}
	return tag, response, nil
}

// recordAD is a record's associated data: fileID ‖ tag (an array, so it
// needs no allocation per record).
func recordAD(fileID [fileIDLen]byte, tag [tagLen]byte) (ad [fileIDLen + tagLen]byte) {
	copy(ad[:], fileID[:])
	copy(ad[fileIDLen:], tag[:])
	return ad
}
