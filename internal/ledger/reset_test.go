package ledger

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

type resetAnchor struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (a *resetAnchor) Load(n string) ([]byte, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.m[n]), nil
}

func (a *resetAnchor) Store(n string, b []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[string][]byte{}
	}
	a.m[n] = slices.Clone(b)
	return nil
}

// TestReset: Reset deletes the ledger and its marker and retires its
// anchor: a fresh ledger opens at 0, and the old file restored fails
// closed; a name known only from a pin is retired too.
func TestReset(t *testing.T) {
	dir, a := t.TempDir(), &resetAnchor{}
	l, err := OpenWith(dir, Caps{}, Options{Anchor: a})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Charge(3); err != nil {
		t.Fatal(err)
	}
	l.Close()
	old, _ := os.ReadFile(filepath.Join(dir, FileName))
	if err := Reset(dir, a, AnchorPrefix+"00000000000000000000000000000000"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, legacyName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("marker left: %v", err)
	}
	if len(a.m) != 2 {
		t.Fatalf("retired %v, want the file's and the known name", a.m)
	}
	l, err = OpenWith(dir, Caps{}, Options{Anchor: a})
	if err != nil {
		t.Fatal(err)
	}
	if _, life, _ := l.Spent(); life != 0 {
		t.Fatalf("after Reset %v spent", life)
	}
	l.Close()
	os.WriteFile(filepath.Join(dir, FileName), old, 0o600)
	if _, err := OpenWith(dir, Caps{}, Options{Anchor: a}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("the pre-reset file restored: %v, want ErrCorrupt", err)
	}
}
