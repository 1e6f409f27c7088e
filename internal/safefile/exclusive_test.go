package safefile

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestCreateExclusive: of many concurrent creators of one path exactly one
// creates it, the file holds that creator's whole content, and no
// temporary file is left.
func TestCreateExclusive(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	var wg sync.WaitGroup
	var mu sync.Mutex
	winners := []string{}
	for i := range 16 {
		wg.Go(func() {
			data := fmt.Sprintf("creator %d", i)
			created, err := CreateExclusive(p, []byte(data), 0o600)
			if err != nil {
				t.Error(err)
				return
			}
			if created {
				mu.Lock()
				winners = append(winners, data)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	b, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	if len(winners) != 1 || string(b) != winners[0] || st.Mode().Perm() != 0o600 {
		t.Fatalf("winners %v, file %q %v", winners, b, st.Mode())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("temporary files left: %v", ents)
	}
	if _, err := CreateExclusive(filepath.Join(p, "under-a-file"), nil, 0o600); err == nil {
		t.Fatal("create under a file succeeded")
	}
}
