package ledger

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestAnchorNamedByID: a ledger's anchor is stored under "ledger-" and the
// hex of the id in its file, so an older copy restored at another path (a
// copy, a move) finds the same anchor and fails closed; a new ledger in
// another directory gets a name of its own in the same store.
func TestAnchorNamedByID(t *testing.T) {
	root := t.TempDir()
	a := &mapAnchor{}
	dir := filepath.Join(root, "l")
	l, err := OpenWith(dir, Caps{Lifetime: 100}, Options{Anchor: a})
	if err != nil {
		t.Fatal(err)
	}
	id := l.st.id
	name := anchorName(id)
	if len(name) != len(AnchorPrefix)+2*ledgerIDLen || name[:len(AnchorPrefix)] != AnchorPrefix {
		t.Fatalf("anchor name %q", name)
	}
	if b, _ := a.Load(name); len(b) != anchorLen {
		t.Fatalf("nothing stored under %q: %x", name, b)
	}
	if len(a.m) != 1 {
		t.Fatalf("anchor names %v, want one", a.m)
	}
	if _, err := l.Charge(1); err != nil {
		t.Fatal(err)
	}
	bak := filepath.Join(root, "l.bak")
	if err := exec.Command("cp", "-a", dir, bak).Run(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Charge(1); err != nil {
		t.Fatal(err)
	}
	l.Close()
	for _, c := range []struct {
		name string
		open string
		prep func() error
	}{
		{"copy at another path", bak, func() error { return nil }},
		{"renamed", filepath.Join(root, "moved"), func() error { return os.Rename(bak, filepath.Join(root, "moved")) }},
		{"through a symlink", filepath.Join(root, "link"), func() error { return os.Symlink(filepath.Join(root, "moved"), filepath.Join(root, "link")) }},
	} {
		if err := c.prep(); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenWith(c.open, Caps{Lifetime: 100}, Options{Anchor: a}); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("%s: older copy opened: %v", c.name, err)
		}
	}
	// Negative control: the current file at another path opens, under the
	// same anchor name; a new ledger gets another name.
	moved := filepath.Join(root, "cur")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if l, err := OpenWith(moved, Caps{Lifetime: 100}, Options{Anchor: a}); err != nil || l.st.id != id {
		t.Fatalf("current ledger moved: %v", err)
	}
	if _, err := OpenWith(filepath.Join(root, "new"), Caps{Lifetime: 100}, Options{Anchor: a}); err != nil {
		t.Fatal(err)
	}
	if len(a.m) != 2 {
		t.Fatalf("anchor names %d, want 2", len(a.m))
	}
}
