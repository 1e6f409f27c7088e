package memo

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestHKDFMatchesStdlib checks the package's one-block HKDF against the
// standard library's, on RFC 5869's test case 1 and on the key sizes the
// memo uses; the last row is a negative control (another info string must
// give another key).
func TestHKDFMatchesStdlib(t *testing.T) {
	rfcIKM := bytes.Repeat([]byte{0x0b}, 22)
	rfcSalt, _ := hex.DecodeString("000102030405060708090a0b0c")
	rfcInfo, _ := hex.DecodeString("f0f1f2f3f4f5f6f7f8f9")
	want, _ := hex.DecodeString("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf")
	if got := hkdfExpand32(hkdfExtract(rfcIKM, rfcSalt), string(rfcInfo)); !bytes.Equal(got, want) {
		t.Fatalf("RFC 5869 case 1: %x, want %x", got, want)
	}
	secret := bytes.Repeat([]byte{7}, 32)
	salt := bytes.Repeat([]byte{9}, 32)
	for _, info := range []string{"wordveil memo v1 seal", "wordveil memo v1 header", "wordveil memo v1 lookup", ""} {
		std, err := hkdf.Key(sha256.New, secret, salt, info, 32)
		if err != nil {
			t.Fatal(err)
		}
		if got := hkdfExpand32(hkdfExtract(secret, salt), info); !bytes.Equal(got, std) {
			t.Errorf("info %q: %x, crypto/hkdf gives %x", info, got, std)
		}
	}
	a := hkdfExpand32(hkdfExtract(secret, salt), "wordveil memo v1 seal")
	if b := hkdfExpand32(hkdfExtract(secret, salt), "wordveil memo v1 sea1"); bytes.Equal(a, b) {
		t.Fatal("two info strings gave one key")
	}
}
