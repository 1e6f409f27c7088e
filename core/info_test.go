package core

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"github.com/wordveil/wordveil/assets"
)

// TestInfoAssetSHA256: Info reports the SHA-256 of the asset file a
// privatizer was opened on (computed on request, not at Open), whether
// the embedded asset, a file or bytes; the zero Info on a closed one.
func TestInfoAssetSHA256(t *testing.T) {
	file := assets.DefaultBytes()
	want := sha256.Sum256(file)
	path := filepath.Join(t.TempDir(), "a.wva")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"embedded", Config{Mechanism: BRR, Level: Balanced}},
		{"file", Config{Mechanism: BRR, Level: Balanced, AssetFile: path}},
		{"bytes", Config{Mechanism: OneDG, Level: Balanced, Asset: file}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Open(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Info().AssetSHA256; got != want {
				t.Fatalf("AssetSHA256 %x, want the file's %x", got, want)
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			if got := p.Info().AssetSHA256; got != ([32]byte{}) {
				t.Fatalf("closed: AssetSHA256 %x, want zero", got)
			}
		})
	}
}
