package memo

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpen: any bytes as the memo file either open or fail with ErrCorrupt
// or ErrWrongSecret; never a panic. An opened memo answers Len.
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	m, err := Open(dir, testID, secretOf(1))
	if err != nil {
		f.Fatal(err)
	}
	m.Resolve([]int32{1, 2, 3}, randDraw, noCharge)
	m.Close()
	name := filepath.Base(memoFile(f, dir))
	good, _ := os.ReadFile(filepath.Join(dir, name))
	f.Add(good)
	f.Add(good[:headerLen])
	f.Add(good[:headerLen-1])
	f.Add(append(good, 1, 2, 3))
	f.Add(append(good, good[headerLen:headerLen+recordLen]...))
	f.Add([]byte{})
	f.Add(magic[:])
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
		m, err := Open(dir, testID, secretOf(1))
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrWrongSecret) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		defer m.Close()
		if _, err := m.Len(); err != nil {
			t.Fatalf("opened, then Len: %v", err)
		}
	})
}
