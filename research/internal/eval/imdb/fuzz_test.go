package imdb

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad: any file either loads into reviews with labels 0 or 1 or fails
// with an error; never a panic.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`[{"t":"good film","s":1},{"t":"bad","s":0}]`))
	f.Add([]byte(`[{"t":"x","s":2}]`))
	f.Add([]byte(`{"t":1}`))
	f.Add([]byte{0x1f, 0x8b, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "reviews.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		revs, err := Load(path)
		if err != nil {
			return
		}
		for _, r := range revs {
			if r.Label != 0 && r.Label != 1 {
				t.Fatalf("label %d accepted", r.Label)
			}
		}
	})
}
