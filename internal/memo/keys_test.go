package memo

import (
	"bytes"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"

	"golang.org/x/crypto/chacha20poly1305"
)

// TestHKDFIsRFC5869 checks the HKDF the memo uses against RFC 5869's test
// case 1 (SHA-256, 32 of its 42 bytes of output).
func TestHKDFIsRFC5869(t *testing.T) {
	ikm := bytes.Repeat([]byte{0x0b}, 22)
	salt, _ := hex.DecodeString("000102030405060708090a0b0c")
	info, _ := hex.DecodeString("f0f1f2f3f4f5f6f7f8f9")
	want, _ := hex.DecodeString("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf")
	got, err := hkdf.Key(sha256.New, ikm, salt, string(info), 32)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("RFC 5869 case 1: %x, %v; want %x", got, err, want)
	}
}

// TestDerivedKeysUnchanged: the keys of a memo file and the secret's keyed
// names are the bytes the package's first, hand-written HKDF gave (the
// vectors were computed with it), so that every memo file written before
// keeps opening under its name and its MACs. Each derived key is checked
// through what the memo does with it: the header key as is, the lookup
// and chain keys as HMAC keys, the seal key by sealing. The secret is
// 0x00..0x1f, the salt 0xa0..0xbf.
func TestDerivedKeysUnchanged(t *testing.T) {
	secret, salt := make([]byte, 32), make([]byte, 32)
	for i := range secret {
		secret[i], salt[i] = byte(i), byte(0xa0+i)
	}
	k, err := deriveKeys(secret, salt)
	if err != nil {
		t.Fatal(err)
	}
	unhex := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	mac := func(key, msg []byte) []byte {
		h := hmac.New(sha256.New, key)
		h.Write(msg)
		return h.Sum(nil)
	}
	word := []byte{42, 0, 0, 0} // the tag of word 42 (little-endian)
	tag := k.tag(42)
	k.chain.Reset()
	k.chain.Write([]byte("chain"))
	chain := k.chain.Sum(nil)
	nonce := make([]byte, 24)
	sealed := k.seal.Seal(nil, nonce, []byte("response"), nil)
	wantAEAD, err := chacha20poly1305.NewX(unhex("4d72dadc38dfbf8ea4ac56a946b217180fa5d98c01128d9383865faf87f82000"))
	if err != nil {
		t.Fatal(err)
	}
	fileID, err1 := keyedID(secret, "file name", []byte("canonical identity"))
	bindID, err2 := keyedID(secret, "ledger binding", []byte("canonical identity"))
	nameKey, err3 := secretKey(secret, "file name")
	bindKey, err4 := secretKey(secret, "ledger binding")
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want []byte
	}{
		{"header key", k.header, unhex("ab7959a6c526f252930403fefa368c0ff5e730b292545c666af4f8bff8f7b296")},
		{"lookup key", tag[:], mac(unhex("c9027882e8a34d66452c8d2e70334879b2005bd1788f31056a6025a90753ecb3"), word)[:tagLen]},
		{"chain key", chain, mac(unhex("5c689c819884b3731eb4855e5d1fe0cf6e65ec13668dc8714be20950b15a6c07"), []byte("chain"))},
		{"seal key", sealed, wantAEAD.Seal(nil, nonce, []byte("response"), nil)},
		{"file name key", nameKey, unhex("a741e85551aa185d48e558ce20063575f115d5e7377153f97900531799c82423")},
		{"ledger binding key", bindKey, unhex("8f9bd1aaf46d771007cd3b9cb7cd67ec5b15b0d502082ead679dbf493caefa47")},
		{"file name id", fileID[:], unhex("21455f88c4c3c6bfd85ceaaee1c753a8")},
		{"ledger binding id", bindID[:], unhex("6526c7b9bc4981e9e9a62d03240fd10b")},
	} {
		if !bytes.Equal(c.got, c.want) {
			t.Errorf("%s: %x, want %x", c.name, c.got, c.want)
		}
	}
	// Negative control: another salt gives another header key.
	other, err := deriveKeys(secret, secret)
	if err != nil || bytes.Equal(other.header, k.header) {
		t.Fatalf("another salt: %x, %v: must differ from the header key", other.header, err)
	}
}
