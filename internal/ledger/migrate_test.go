package ledger

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wordveil/wordveil/internal/safefile"
)

// writeV1 writes a version 1 ledger file, as version 1 did.
func writeV1(t *testing.T, dir string, v1 legacyState) []byte {
	t.Helper()
	body, _ := json.Marshal(v1)
	path := filepath.Join(dir, legacyName)
	if err := safefile.WriteChecked(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	return b
}

// TestMigrateV1: an upgraded app keeps its spent budget: the lifetime and
// the charges still in the window carry over, the version 1 file becomes a
// tombstone that version 1 reads as corrupt, and a crash between the two
// writes neither loses nor doubles anything.
func TestMigrateV1(t *testing.T) {
	t0 := time.Now() // migration drops what expired by the real clock
	caps := Caps{PerPeriod: 10, Period: time.Hour, Lifetime: 100}
	v1 := legacyState{Version: 1, Lifetime: 42.5, Charges: []legacyCharge{
		{At: t0.Add(-10 * time.Minute).UnixNano(), Amount: 3},
		{At: t0.Add(-2 * time.Hour).UnixNano(), Amount: 30}, // expired; unsorted, as a clock set back left it
		{At: t0.Add(-5 * time.Minute).UnixNano(), Amount: 4.5},
	}}
	dir := t.TempDir()
	original := writeV1(t, dir, v1)
	open := func() (*Ledger, error) {
		l, err := Open(dir, caps)
		if err == nil {
			l.now = func() time.Time { return t0 }
		}
		return l, err
	}
	l, err := open()
	if err != nil {
		t.Fatal(err)
	}
	if p, life, _ := l.Spent(); p != 7.5 || life != 42.5 {
		t.Fatalf("migrated: period %v lifetime %v, want 7.5 42.5", p, life)
	}
	if _, err := l.Charge(3); !errors.Is(err, ErrBudgetExceeded) {
		t.Fatalf("7.5 + 3 within the hour: %v", err)
	}
	marker, _ := os.ReadFile(filepath.Join(dir, legacyName))
	if string(marker) != tombstone {
		t.Fatalf("version 1 file after migration: %q", marker)
	}
	if _, err := parseLegacy(marker, 0); err == nil {
		t.Fatal("version 1 would read the tombstone as a ledger")
	}
	// A crash after the new file but before the tombstone: the new file
	// wins, nothing is migrated twice.
	os.WriteFile(filepath.Join(dir, legacyName), original, 0o600)
	l, err = open()
	if err != nil {
		t.Fatal(err)
	}
	if _, life, _ := l.Spent(); life != 42.5 {
		t.Fatalf("after a crash mid-migration: lifetime %v", life)
	}
	if marker, _ := os.ReadFile(filepath.Join(dir, legacyName)); string(marker) != tombstone {
		t.Fatalf("tombstone not rewritten: %q", marker)
	}
}

// TestMigrateCorruptV1 fails closed on a damaged version 1 file and leaves
// it as it was.
func TestMigrateCorruptV1(t *testing.T) {
	good := legacyState{Version: 1, Lifetime: 5, Charges: []legacyCharge{{At: 1, Amount: 5}}}
	for _, tc := range []struct {
		name string
		file func(t *testing.T, dir string) []byte
	}{
		{"flipped byte", func(t *testing.T, dir string) []byte {
			b := writeV1(t, dir, good)
			b[3] ^= 1
			return b
		}},
		{"no trailer", func(t *testing.T, dir string) []byte {
			b, _ := json.Marshal(good)
			return b
		}},
		{"version 3", func(t *testing.T, dir string) []byte {
			return writeV1(t, dir, legacyState{Version: 3, Lifetime: 5})
		}},
		{"negative lifetime", func(t *testing.T, dir string) []byte {
			return writeV1(t, dir, legacyState{Version: 1, Lifetime: -5})
		}},
		{"negative charge", func(t *testing.T, dir string) []byte {
			return writeV1(t, dir, legacyState{Version: 1, Lifetime: 5, Charges: []legacyCharge{{At: 1, Amount: -1}}})
		}},
		{"not JSON", func(t *testing.T, dir string) []byte {
			body := []byte("nope")
			safefile.WriteChecked(filepath.Join(dir, legacyName), body, 0o600)
			b, _ := os.ReadFile(filepath.Join(dir, legacyName))
			return b
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			b := tc.file(t, dir)
			os.WriteFile(filepath.Join(dir, legacyName), b, 0o600)
			if _, err := Open(dir, Caps{}); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Open: %v", err)
			}
			if after, _ := os.ReadFile(filepath.Join(dir, legacyName)); string(after) != string(b) {
				t.Fatal("the version 1 file was changed")
			}
			if _, err := os.Stat(filepath.Join(dir, FileName)); !os.IsNotExist(err) {
				t.Fatalf("a new ledger was created: %v", err)
			}
		})
	}
	// Control: the intact file migrates; its charge counts.
	dir := t.TempDir()
	writeV1(t, dir, good)
	l, err := Open(dir, Caps{})
	if err != nil {
		t.Fatal(err)
	}
	if _, life, _ := l.Spent(); life != 5 {
		t.Fatalf("lifetime %v", life)
	}
}

// TestDeletedLogFailsClosed: deleting the ledger file, from under an open
// ledger or between runs, is not a fresh budget; deleting the directory
// is (documented).
func TestDeletedLogFailsClosed(t *testing.T) {
	dir := t.TempDir()
	l, _ := Open(dir, Caps{Lifetime: 10})
	l.Charge(10)
	os.Remove(filepath.Join(dir, FileName))
	if _, err := l.Charge(1); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("charge after the file was deleted: %v", err)
	}
	if _, err := Open(dir, Caps{Lifetime: 10}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("open after the file was deleted: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName)); !os.IsNotExist(err) {
		t.Fatalf("a new ledger file was created: %v", err)
	}
	os.RemoveAll(dir)
	l, err := Open(dir, Caps{Lifetime: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Charge(10); err != nil {
		t.Fatalf("a deleted directory is a fresh ledger: %v", err)
	}
}
