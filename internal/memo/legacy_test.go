package memo

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// writeV1 writes a version 1 memo file of id under secret in dir, holding
// words[i] → resp[i], as version 1 did: random name from the file id, no
// index in the records' associated data. It returns the file's path and id.
func writeV1(t *testing.T, dir string, id Identity, secret []byte, words, resp []int32) (string, string) {
	t.Helper()
	h := newHeader()
	h.v1 = true
	k, err := deriveKeys(secret, h.salt[:])
	if err != nil {
		t.Fatal(err)
	}
	h.seal(k, id.canonical())
	b := h.marshal()
	for i, w := range words {
		tag := k.tag(w)
		var ad [fileIDLen + tagLen]byte
		copy(ad[:], h.fileID[:])
		copy(ad[fileIDLen:], tag[:])
		var nonce [nonceLen]byte
		pt := []byte{byte(resp[i]), byte(resp[i] >> 8), byte(resp[i] >> 16), byte(resp[i] >> 24)}
		b = append(b, tag[:]...)
		b = append(b, nonce[:]...)
		b = k.seal.Seal(b, nonce[:], pt, ad[:])
	}
	os.MkdirAll(dir, 0o700)
	p := filepath.Join(dir, fileNameV1(h.fileID))
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p, bytesHex(h.fileID[:])
}

func bytesHex(b []byte) string {
	const digits = "0123456789abcdef"
	var out []byte
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// TestMigrateV1: a version 1 memo is carried over on Open: same FileID
// (so a ledger bound to it still matches), same responses (no word
// answered afresh), the version 1 file removed, one version 2 file; a torn
// version 1 tail is dropped; damage in a version 1 file fails closed and
// leaves it in place; and a migration cut short (both files there) is
// finished only when the new file is exactly its copy.
func TestMigrateV1(t *testing.T) {
	words, resp := []int32{3, 1, 4, 15}, []int32{9, 2, 6, 5}
	t.Run("carried over", func(t *testing.T) {
		dir := t.TempDir()
		old, fileID := writeV1(t, dir, testID, secretOf(1), words, resp)
		appendBytes(t, old, make([]byte, 7)) // a torn tail
		other, _ := writeV1(t, dir, Identity{Mechanism: "other", Asset: testID.Asset}, secretOf(1), words, resp)
		m := mustOpen(t, dir, testID, secretOf(1))
		if m.FileID() != fileID {
			t.Fatalf("FileID %s, was %s", m.FileID(), fileID)
		}
		got, memoized, err := m.Resolve(words, refuseDraw(t), noCharge)
		if err != nil || !equal(got, resp) || !memoized[0] {
			t.Fatalf("responses %v %v, want %v", got, err, resp)
		}
		if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("version 1 file kept: %v", err)
		}
		if _, err := os.Stat(other); err != nil {
			t.Fatalf("another identity's version 1 file touched: %v", err)
		}
		b, _ := os.ReadFile(m.path)
		if !bytes.Equal(b[:magicLen], magic[:]) || len(b) != headerLen+len(words)*recordLen {
			t.Fatalf("new file: magic %q, %d bytes", b[:magicLen], len(b))
		}
	})
	t.Run("damaged", func(t *testing.T) {
		dir := t.TempDir()
		old, _ := writeV1(t, dir, testID, secretOf(1), words, resp)
		b, _ := os.ReadFile(old)
		b[headerLen+recordLen+tagLen+nonceLen] ^= 1
		os.WriteFile(old, b, 0o600)
		if _, err := Open(dir, testID, secretOf(1)); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("damaged version 1 file: %v", err)
		}
		if after, _ := os.ReadFile(old); !bytes.Equal(after, b) {
			t.Fatal("damaged version 1 file changed")
		}
		if ps, _ := filepath.Glob(filepath.Join(dir, "*"+fileSuffix)); len(ps) != 1 {
			t.Fatalf("files: %v", ps)
		}
	})
	t.Run("cut short", func(t *testing.T) {
		dir := t.TempDir()
		old, _ := writeV1(t, dir, testID, secretOf(1), words, resp)
		saved, _ := os.ReadFile(old)
		m, err := Open(dir, testID, secretOf(1))
		if err != nil {
			t.Fatal(err)
		}
		m.Close()
		os.WriteFile(old, saved, 0o600) // as if the removal never happened
		m, err = Open(dir, testID, secretOf(1))
		if err != nil {
			t.Fatalf("finishing a cut-short migration: %v", err)
		}
		mustResolve(t, m, 99) // the new file moves on
		m.Close()
		os.WriteFile(old, saved, 0o600)
		if _, err := Open(dir, testID, secretOf(1)); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("version 1 file beside a version 2 file that moved on: %v", err)
		}
	})
}

func equal(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
