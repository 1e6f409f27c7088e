package ledger

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/wordveil/wordveil/internal/anchor"
)

// mapAnchor is an Anchor in memory, as a host's key store would be.
type mapAnchor struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (a *mapAnchor) Load(name string) ([]byte, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.m[name]), nil
}

func (a *mapAnchor) Store(name string, b []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[string][]byte{}
	}
	a.m[name] = slices.Clone(b)
	return nil
}

const tamperCharges = 6

// ledgerFixture is a ledger with a binding and tamperCharges charges of 1
// (under an anchor), the file after 2 charges (an older copy) and now,
// and the offset where each log record starts.
type ledgerFixture struct {
	dir      string
	anchor   *mapAnchor
	old, cur []byte
	starts   []int
	body     [2]int // the snapshot body's [start, end)
}

func newLedgerFixture(t *testing.T) *ledgerFixture {
	t.Helper()
	fx := &ledgerFixture{dir: t.TempDir(), anchor: &mapAnchor{}}
	l, err := OpenWith(fx.dir, Caps{Lifetime: 100}, Options{Anchor: fx.anchor})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Bind("memo x", "file-id"); err != nil {
		t.Fatal(err)
	}
	// Compact so the snapshot holds the binding, then charge.
	l.mu.Lock()
	l.compact()
	fx.starts = []int{int(l.off)}
	l.mu.Unlock()
	for i := range tamperCharges {
		if _, err := l.Charge(1); err != nil {
			t.Fatal(err)
		}
		l.mu.Lock()
		fx.starts = append(fx.starts, int(l.off))
		l.mu.Unlock()
		if i == 1 {
			fx.old, _ = os.ReadFile(filepath.Join(fx.dir, FileName))
		}
	}
	fx.cur, _ = os.ReadFile(filepath.Join(fx.dir, FileName))
	_, n, _, _ := parseHeader(fx.cur)
	fx.body = [2]int{headerSize, headerSize + int(n) + 4}
	return fx
}

// failsClosed: Open fails with ErrCorrupt, and an already-open ledger
// (opened before the damage) refuses to charge.
func (fx *ledgerFixture) failsClosed(t *testing.T, a anchor.Anchor, live *Ledger) {
	t.Helper()
	l, err := OpenWith(fx.dir, Caps{Lifetime: 100}, Options{Anchor: a})
	if err == nil {
		_, life, _ := l.Spent()
		t.Fatalf("damaged ledger opened (lifetime %v, was %d)", life, tamperCharges)
	}
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open: %v, want ErrCorrupt", err)
	}
	if live != nil {
		if _, err := live.Charge(1); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("open ledger charged after the damage: %v", err)
		}
	}
}

// TestTamperLedgerFailsClosed is the table of damage to a ledger file: a
// bit flipped in every header field and in every byte of the snapshot
// (its clock, retention, id, chain count and head, lifetime, charges and
// bindings), the file truncated at every record boundary, a middle record
// removed, an older copy restored, the file deleted, another ledger's file
// put in its place. Each fails closed with the anchor, in a new Open and
// in a ledger opened before the damage; rows marked so fail closed without
// an anchor too.
func TestTamperLedgerFailsClosed(t *testing.T) {
	type tc struct {
		name       string
		damage     func(fx *ledgerFixture) []byte // nil: deleted
		noAnchorOK bool
		// inPlace: bytes already read, changed in place (same file, same
		// size). An open ledger keeps its checked copy of them, and goes
		// on charging against the true totals (nothing is handed back);
		// the next Open finds the damage.
		inPlace bool
		// liveOnly: only the open ledger can tell (a new Open finds the
		// anchor by the file's id, and a file of another ledger is that
		// ledger's: to a new Open it is the directory deleted whole and
		// another ledger moved in, docs/STATE_FILES.md).
		liveOnly bool
	}
	var cases []tc
	flip := func(off int) func(fx *ledgerFixture) []byte {
		return func(fx *ledgerFixture) []byte {
			b := slices.Clone(fx.cur)
			b[off] ^= 0x10
			return b
		}
	}
	for _, f := range []struct {
		name     string
		off, len int
	}{{"magic", 0, 8}, {"version", 8, 4}, {"nonce", 12, 8}, {"body length", 20, 8}, {"header checksum", 28, 4}} {
		for _, i := range []int{f.off, f.off + f.len - 1} {
			cases = append(cases, tc{fmt.Sprintf("flip header %s byte %d", f.name, i), flip(i), true, false, false})
		}
	}
	fx0 := newLedgerFixture(t)
	for i := fx0.body[0]; i < fx0.body[1]; i++ { // every snapshot byte, so every field
		cases = append(cases, tc{fmt.Sprintf("flip snapshot byte %d", i-headerSize), flip(i), true, true, false})
	}
	for i := range tamperCharges { // a byte inside every record
		cases = append(cases, tc{fmt.Sprintf("flip record %d", i), func(fx *ledgerFixture) []byte {
			b := slices.Clone(fx.cur)
			b[fx.starts[i]+9] ^= 1
			return b
		}, true, true, false})
	}
	for k := range tamperCharges { // every record boundary short of the end
		cases = append(cases, tc{fmt.Sprintf("truncated to %d records", k), func(fx *ledgerFixture) []byte {
			return fx.cur[:fx.starts[k]]
		}, false, false, false})
	}
	cases = append(cases,
		tc{"truncated inside the snapshot", func(fx *ledgerFixture) []byte { return fx.cur[:fx.starts[0]-1] }, true, false, false},
		tc{"middle record removed", func(fx *ledgerFixture) []byte {
			return slices.Concat(fx.cur[:fx.starts[2]], fx.cur[fx.starts[3]:])
		}, true, false, false},
		tc{"older copy restored", func(fx *ledgerFixture) []byte { return fx.old }, false, false, false},
		tc{"deleted", func(fx *ledgerFixture) []byte { return nil }, true, false, false},
		tc{"another ledger's file", func(fx *ledgerFixture) []byte { return newLedgerFixture(t).cur }, false, false, true},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx := newLedgerFixture(t)
			live, err := OpenWith(fx.dir, Caps{Lifetime: 100}, Options{Anchor: fx.anchor})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(fx.dir, FileName)
			if b := c.damage(fx); b == nil {
				os.Remove(path)
			} else if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			if c.inPlace {
				live = nil
			}
			if c.liveOnly {
				if _, err := live.Charge(1); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("open ledger charged after the damage: %v", err)
				}
				return
			}
			fx.failsClosed(t, fx.anchor, live)
			if c.noAnchorOK {
				fx.failsClosed(t, nil, nil)
			}
		})
	}
	t.Logf("%d kinds of damage, each failed closed", len(cases))
}

// TestTamperLedgerNegativeControls: the intact ledger opens with and
// without its anchor; a file ahead of its anchor (a crash between the
// append and the anchor's store) opens and moves the anchor; without an
// anchor a truncation at a record boundary across Opens is not detected
// (documented), and hands the cut charges back.
func TestTamperLedgerNegativeControls(t *testing.T) {
	fx := newLedgerFixture(t)
	for _, a := range []anchor.Anchor{fx.anchor, nil} {
		if _, err := OpenWith(fx.dir, Caps{Lifetime: 100}, Options{Anchor: a}); err != nil {
			t.Fatalf("intact ledger: %v", err)
		}
	}
	l, _ := Open(fx.dir, Caps{Lifetime: 100})
	l.Charge(1)
	if _, err := OpenWith(fx.dir, Caps{Lifetime: 100}, Options{Anchor: fx.anchor}); err != nil {
		t.Fatalf("ahead of its anchor: %v", err)
	}
	os.WriteFile(filepath.Join(fx.dir, FileName), fx.cur[:fx.starts[1]], 0o600)
	l, err := Open(fx.dir, Caps{Lifetime: 100})
	if err != nil {
		t.Fatalf("cut without an anchor: %v (documented as not detected)", err)
	}
	if _, life, _ := l.Spent(); life != 1 {
		t.Fatalf("lifetime %v after the cut", life)
	}
}

// TestShrunkUnderOpenLedger: without an anchor, a ledger that is open
// when its file is cut at a record boundary, or replaced by an older copy,
// refuses to charge (it used to reload the shorter file and hand the cut
// charges back), and stays refused.
func TestShrunkUnderOpenLedger(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(fx *ledgerFixture, path string)
	}{
		{"cut at a record boundary", func(fx *ledgerFixture, p string) { os.Truncate(p, int64(fx.starts[3])) }},
		{"older copy renamed over", func(fx *ledgerFixture, p string) {
			os.WriteFile(p+".x", fx.old, 0o600)
			os.Rename(p+".x", p)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fx := newLedgerFixture(t)
			l, err := Open(fx.dir, Caps{Lifetime: 100})
			if err != nil {
				t.Fatal(err)
			}
			if _, life, _ := l.Spent(); life != tamperCharges {
				t.Fatalf("lifetime %v", life)
			}
			c.damage(fx, filepath.Join(fx.dir, FileName))
			for range 2 {
				if _, err := l.Charge(1); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("open ledger after the damage: %v, want ErrCorrupt", err)
				}
			}
		})
	}
}
