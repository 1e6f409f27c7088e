package safefile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	for _, s := range []string{"one", "two, longer"} {
		if err := WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		st, _ := os.Stat(p)
		if string(b) != s || st.Mode().Perm() != 0o600 {
			t.Fatalf("got %q %v", b, st.Mode())
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("temporary files left: %v", ents)
	}
	if err := WriteFile(filepath.Join(p, "under-a-file"), nil, 0o600); err == nil {
		t.Fatal("write under a file succeeded")
	}
}

func TestChecked(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c")
	if err := WriteChecked(p, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if body, err := ParseChecked(data); err != nil || string(body) != `{"a":1}` {
		t.Fatalf("round trip: %q %v", body, err)
	}
	for i := range data {
		bad := append([]byte(nil), data...)
		bad[i] ^= 1
		if _, err := ParseChecked(bad); err == nil {
			t.Fatalf("flip at %d not detected", i)
		}
	}
	for n := range data {
		if _, err := ParseChecked(data[:n]); err == nil {
			t.Fatalf("truncation to %d not detected", n)
		}
	}
}
