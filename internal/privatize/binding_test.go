package privatize

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/memo"
)

// TestLedgerBindingKeyed: the ledger file holds no name anyone can match
// against the mechanism, ε and asset (the old unkeyed hash is the negative
// control: it is what a guesser computes, and it must not appear); a
// ledger holding the old name bound to this memo file is carried over
// (renamed, and gone from the file), and bound to another memo file fails
// closed.
func TestLedgerBindingKeyed(t *testing.T) {
	a := defaultAsset(t)
	dg, _ := mechanism.NewDiffractorGeometric(a.Lists, 0.5)
	id := MemoIdentity(dg, a)
	guess := legacyMemoBinding(id)
	open := func(t *testing.T, dir, ldir string) (*memo.Memo, *ledger.Ledger) {
		m, err := memo.Open(dir, id, testSecret)
		if err != nil {
			t.Fatal(err)
		}
		return m, openLedger(t, ldir, m)
	}
	// A binding's first 25 bytes sit together in its first slot (the rest
	// in continuation slots), so those are what is looked for.
	prefix := func(s string) []byte { return []byte(s[:25]) }
	ledgerBytes := func(ldir string) []byte {
		b, _ := os.ReadFile(filepath.Join(ldir, ledger.FileName))
		return b
	}
	// A ledger bound under the old name, as earlier versions bound it.
	bindLegacy := func(t *testing.T, ldir, fileID string) {
		l, err := ledger.Open(ldir, ledger.Caps{})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if err := l.Bind(guess, fileID); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(ledgerBytes(ldir), prefix(guess)) {
			t.Fatal("control: the unkeyed name is not found where it was bound")
		}
	}
	t.Run("fresh", func(t *testing.T) {
		dir, ldir := t.TempDir(), t.TempDir()
		m, l := open(t, dir, ldir)
		if _, err := New(dg, a, Options{Memo: m, Ledger: l}); err != nil {
			t.Fatal(err)
		}
		b := ledgerBytes(ldir)
		if bytes.Contains(b, prefix(guess)) || !bytes.Contains(b, prefix(m.BindingName())) {
			t.Fatalf("ledger file holds the guessable name %v / the keyed one %v", bytes.Contains(b, prefix(guess)), bytes.Contains(b, prefix(m.BindingName())))
		}
		for _, leak := range []string{id.Mechanism, id.Params} {
			if bytes.Contains(b, []byte(leak)) {
				t.Fatalf("ledger file names %q", leak)
			}
		}
		// Another secret gives another name: the name is keyed.
		m2, _ := memo.Open(t.TempDir(), id, bytes.Repeat([]byte{9}, 32))
		if m2.BindingName() == m.BindingName() || !strings.HasPrefix(m.BindingName(), "memo ") {
			t.Fatalf("binding names %q %q", m.BindingName(), m2.BindingName())
		}
	})
	t.Run("legacy name renamed", func(t *testing.T) {
		dir, ldir := t.TempDir(), t.TempDir()
		m, err := memo.Open(dir, id, testSecret)
		if err != nil {
			t.Fatal(err)
		}
		bindLegacy(t, ldir, m.FileID())
		l := openLedger(t, ldir, m)
		if _, err := New(dg, a, Options{Memo: m, Ledger: l}); err != nil {
			t.Fatal(err)
		}
		if b := ledgerBytes(ldir); bytes.Contains(b, prefix(guess)) || !bytes.Contains(b, prefix(m.BindingName())) {
			t.Fatal("the unkeyed name is still in the ledger file")
		}
		// And the binding holds: another memo file under this ledger fails.
		m3, _ := memo.Open(t.TempDir(), id, testSecret)
		if _, err := ledger.OpenWith(ldir, ledger.Caps{}, ledger.Options{Bind: MemoBinding(m3)}); !errors.Is(err, ledger.ErrBindingMismatch) {
			t.Fatalf("another memo after the rename: %v", err)
		}
	})
	t.Run("legacy name of another memo", func(t *testing.T) {
		dir, ldir := t.TempDir(), t.TempDir()
		m, err := memo.Open(dir, id, testSecret)
		if err != nil {
			t.Fatal(err)
		}
		bindLegacy(t, ldir, strings.Repeat("0", 32))
		if _, err := ledger.OpenWith(ldir, ledger.Caps{}, ledger.Options{Bind: MemoBinding(m)}); !errors.Is(err, ledger.ErrBindingMismatch) {
			t.Fatalf("a memo replaced under a ledger bound by the old name: %v", err)
		}
	})
}
