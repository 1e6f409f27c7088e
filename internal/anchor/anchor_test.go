package anchor_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/wordveil/wordveil/internal/anchor"
)

// TestDir: values round-trip, a missing name is nil, names that could
// leave the directory are refused, and files are private.
func TestDir(t *testing.T) {
	d := anchor.Dir(filepath.Join(t.TempDir(), "anchors"))
	if b, err := d.Load("memo-00"); b != nil || err != nil {
		t.Fatalf("missing: %q %v", b, err)
	}
	if err := d.Store("memo-00", []byte("state")); err != nil {
		t.Fatal(err)
	}
	if b, err := d.Load("memo-00"); string(b) != "state" || err != nil {
		t.Fatalf("Load = %q %v", b, err)
	}
	st, err := os.Stat(filepath.Join(string(d), "memo-00.anchor"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file: %v %v", st, err)
	}
	for _, n := range []string{"", "../x", `a\b`, ".hidden"} {
		if err := d.Store(n, nil); err == nil {
			t.Errorf("Store(%q) accepted", n)
		}
	}
}

// TestPinned: the first ledger stored pins the directory; another
// ledger's name at that path is ErrMismatch on Load and Store; other
// names pass through; after Reset the next ledger is pinned afresh.
func TestPinned(t *testing.T) {
	store := anchor.Dir(t.TempDir())
	dir := filepath.Join(t.TempDir(), "ledger")
	pin, err := anchor.NewPin(store, "ledger", dir)
	if err != nil {
		t.Fatal(err)
	}
	a := anchor.Pinned(store, pin, "ledger-")
	if err := a.Store("memo-1", []byte("m")); err != nil {
		t.Fatal(err)
	}
	if v, _ := pin.Value(); v != "" {
		t.Fatalf("a memo name pinned the ledger directory: %q", v)
	}
	if err := a.Store("ledger-a", []byte("l")); err != nil {
		t.Fatal(err)
	}
	if v, _ := pin.Value(); v != "ledger-a" {
		t.Fatalf("pin %q, want ledger-a", v)
	}
	// Another handle on the same store and path.
	b := anchor.Pinned(store, pin, "ledger-")
	if _, err := b.Load("ledger-b"); !errors.Is(err, anchor.ErrMismatch) {
		t.Fatalf("Load of another ledger: %v", err)
	}
	if err := b.Store("ledger-b", nil); !errors.Is(err, anchor.ErrMismatch) {
		t.Fatalf("Store of another ledger: %v", err)
	}
	if got, err := b.Load("ledger-a"); err != nil || string(got) != "l" {
		t.Fatalf("Load(ledger-a) = %q %v", got, err)
	}
	// The same path named through a symlink is the same pin.
	link := filepath.Join(t.TempDir(), "link")
	os.MkdirAll(dir, 0o700)
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if p2, _ := anchor.NewPin(store, "ledger", link); p2.Name() != pin.Name() {
		t.Errorf("a symlink gives pin %s, the path %s", p2.Name(), pin.Name())
	}
	if err := pin.Reset(); err != nil {
		t.Fatal(err)
	}
	c := anchor.Pinned(store, pin, "ledger-")
	if _, err := c.Load("ledger-b"); err != nil {
		t.Fatalf("after Reset: %v", err)
	}
	if err := c.Store("ledger-b", []byte("l2")); err != nil {
		t.Fatal(err)
	}
	if v, _ := pin.Value(); v != "ledger-b" {
		t.Fatalf("after Reset, pin %q, want ledger-b", v)
	}
	if !anchor.IsRetired(anchor.Retired()) || anchor.IsRetired([]byte("l")) || bytes.Equal(anchor.Retired(), nil) {
		t.Error("Retired/IsRetired")
	}
}

// Example: the default store of package core and the CLI, and a
// directory's pin in it.
func Example() {
	store := anchor.Dir(filepath.Join(os.TempDir(), "wordveil-example-anchors"))
	defer os.RemoveAll(string(store))
	pin, _ := anchor.NewPin(store, "ledger", "/data/ledger")
	unset, _ := pin.Check("ledger-0123")
	fmt.Println("first ledger seen there:", unset)
	_ = pin.Set("ledger-0123")
	_, err := pin.Check("ledger-4567")
	fmt.Println("another ledger there refused:", errors.Is(err, anchor.ErrMismatch))
	// Output:
	// first ledger seen there: true
	// another ledger there refused: true
}
