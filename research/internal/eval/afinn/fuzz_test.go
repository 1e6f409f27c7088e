package afinn

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad: any file either loads into valences in [-5, 5] or fails with
// an error; never a panic.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"good": 3, "bad": -3, "can't stand": -3}`))
	f.Add([]byte(`{"x": 6}`))
	f.Add([]byte(`{"x": 1.5}`))
	f.Add([]byte(`[1, 2]`))
	f.Add([]byte{0x1f, 0x8b, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "index.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := Load(path)
		if err != nil {
			return
		}
		for w, v := range m {
			if v < -5 || v > 5 {
				t.Fatalf("%q: valence %d accepted", w, v)
			}
		}
	})
}
