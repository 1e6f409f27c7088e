package memo

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// TestTornTailWithAnchor: bytes after the last complete record are
// dropped only once the records before them reach the anchor's count (so
// they are provably unreleased); a file cut short of the anchor with a
// part of a record after it fails closed and is left as it is.
func TestTornTailWithAnchor(t *testing.T) {
	dir, a := t.TempDir(), &mapAnchor{}
	m, err := OpenWith(dir, testID, secretOf(1), Options{Anchor: a})
	if err != nil {
		t.Fatal(err)
	}
	want := mustResolve(t, m, 0, 1, 2)
	m.Close()
	path := memoFile(t, dir)
	full, _ := os.ReadFile(path)

	// A part of a record past the anchor's count: dropped.
	appendBytes(t, path, bytes.Repeat([]byte{0xA5}, 30))
	m, err = OpenWith(dir, testID, secretOf(1), Options{Anchor: a})
	if err != nil {
		t.Fatalf("30 bytes after the anchored records: %v", err)
	}
	if got, _, err := m.Resolve([]int32{0, 1, 2}, refuseDraw(t), noCharge); err != nil || !slicesEqual(got, want) {
		t.Fatalf("after dropping the tail: %v %v, want %v", got, err, want)
	}
	m.Close()
	if b, _ := os.ReadFile(path); !bytes.Equal(b, full) {
		t.Fatalf("the tail was not dropped: %d bytes, want %d", len(b), len(full))
	}

	// One record cut off, a part of one left: fails closed, untouched.
	cut := append(append([]byte(nil), full[:len(full)-recordLen]...), full[len(full)-recordLen:len(full)-recordLen/2]...)
	if err := os.WriteFile(path, cut, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenWith(dir, testID, secretOf(1), Options{Anchor: a}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a record cut in half below the anchor: %v, want ErrCorrupt", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, cut) {
		t.Fatal("a file that failed closed was truncated")
	}
}

// TestReleasedFromUnanchoredRecordsIsAnchored: records another process
// appended without the anchor (or crashed before storing it) are
// anchored before a Resolve that answers from them returns, so cutting
// them off afterwards fails closed.
func TestReleasedFromUnanchoredRecordsIsAnchored(t *testing.T) {
	dir, a := t.TempDir(), &mapAnchor{}
	anchored, err := OpenWith(dir, testID, secretOf(1), Options{Anchor: a})
	if err != nil {
		t.Fatal(err)
	}
	defer anchored.Close()
	mustResolve(t, anchored, 0)
	path := memoFile(t, dir)
	before, _ := os.ReadFile(path)
	other := mustOpen(t, dir, testID, secretOf(1)) // no anchor
	mustResolve(t, other, 1)
	// Answered from the other process's record: no fresh draw.
	if _, _, err := anchored.Resolve([]int32{1}, refuseDraw(t), noCharge); err != nil {
		t.Fatal(err)
	}
	other.Close()
	anchored.Close()
	if err := os.WriteFile(path, before, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenWith(dir, testID, secretOf(1), Options{Anchor: a}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("the released record cut off: %v, want ErrCorrupt", err)
	}
}

// TestResetRetires: Reset deletes the memo files and retires their
// anchors: the same secret, or a copy restored, fails closed.
func TestResetRetires(t *testing.T) {
	dir, a := t.TempDir(), &mapAnchor{}
	m, err := OpenWith(dir, testID, secretOf(1), Options{Anchor: a})
	if err != nil {
		t.Fatal(err)
	}
	mustResolve(t, m, 0)
	m.Close()
	path := memoFile(t, dir)
	old, _ := os.ReadFile(path)
	if err := Reset(dir, a); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("memo file left: %v", err)
	}
	if _, err := OpenWith(dir, testID, secretOf(1), Options{Anchor: a}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("same secret after Reset: %v, want ErrCorrupt", err)
	}
	os.WriteFile(path, old, 0o600)
	if _, err := OpenWith(dir, testID, secretOf(1), Options{Anchor: a}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a copy restored after Reset: %v, want ErrCorrupt", err)
	}
	os.Remove(path)
	if m, err := OpenWith(dir, testID, secretOf(2), Options{Anchor: a}); err != nil {
		t.Fatalf("a new secret after Reset: %v", err)
	} else {
		m.Close()
	}
}

func slicesEqual(a, b []int32) bool {
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
