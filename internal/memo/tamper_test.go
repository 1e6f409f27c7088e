package memo

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

const tamperRecords = 6

// tamperFixture is a memo of tamperRecords records (words 0…5, one
// Resolve each) with an anchor, the file's bytes after 2 records (an older
// copy, as a backup holds) and the responses released.
type tamperFixture struct {
	dir      string
	path     string
	anchor   *mapAnchor
	old, cur []byte
	released map[int32]int32
}

func newTamperFixture(t *testing.T) *tamperFixture {
	t.Helper()
	fx := &tamperFixture{dir: t.TempDir(), anchor: &mapAnchor{}, released: map[int32]int32{}}
	m, err := OpenWith(fx.dir, testID, secretOf(1), Options{Anchor: fx.anchor})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	fx.path = memoFile(t, fx.dir)
	for w := range int32(tamperRecords) {
		fx.released[w] = mustResolve(t, m, w)[0]
		if w == 1 {
			fx.old, _ = os.ReadFile(fx.path)
		}
	}
	fx.cur, _ = os.ReadFile(fx.path)
	return fx
}

// failsClosed checks that, after the damage, Open fails and leaves the
// directory as it was (no second memo file), and that no word is answered
// with a response other than the one released.
func (fx *tamperFixture) failsClosed(t *testing.T, a anchor.Anchor) {
	t.Helper()
	before, _ := filepath.Glob(filepath.Join(fx.dir, "*"))
	m, err := OpenWith(fx.dir, testID, secretOf(1), Options{Anchor: a})
	if err == nil {
		// Not refused: then every word must still have its response.
		defer m.Close()
		for w, want := range fx.released {
			r, _, err := m.Resolve([]int32{w}, randDraw, noCharge)
			if err == nil && r[0] != want {
				t.Fatalf("word %d: second response %d (released %d)", w, r[0], want)
			}
		}
		t.Fatal("damaged memo opened")
	}
	if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrWrongSecret) {
		t.Fatalf("Open: %v, want ErrCorrupt or ErrWrongSecret", err)
	}
	after, _ := filepath.Glob(filepath.Join(fx.dir, "*"))
	if !slices.Equal(before, after) {
		t.Fatalf("Open changed the directory: %v → %v", before, after)
	}
}

// TestTamperMemoFailsClosed is the table of damage to a memo file: a bit
// flipped in every header field (every bit of the identity MAC), the file
// truncated at every record boundary, a middle record removed, an older
// copy restored, the file deleted, another memo's file put in its place.
// Each fails closed (Open errs and creates nothing) with the anchor;
// "anchor not needed" rows fail closed without one too.
func TestTamperMemoFailsClosed(t *testing.T) {
	type tc struct {
		name       string
		damage     func(fx *tamperFixture) []byte // the file's new bytes; nil: deleted
		noAnchorOK bool                           // detected without an anchor too
	}
	flip := func(off, bit int) func(fx *tamperFixture) []byte {
		return func(fx *tamperFixture) []byte {
			b := slices.Clone(fx.cur)
			b[off] ^= 1 << bit
			return b
		}
	}
	var cases []tc
	fields := []struct {
		name     string
		off, len int
	}{
		{"magic", 0, magicLen}, {"fileID", magicLen, fileIDLen}, {"salt", magicLen + fileIDLen, saltLen},
		{"check", fixedPrefix, macLen},
	}
	for _, f := range fields {
		for _, i := range []int{f.off, f.off + f.len - 1} { // first and last byte, two bits each
			for _, bit := range []int{0, 7} {
				cases = append(cases, tc{fmt.Sprintf("flip %s byte %d bit %d", f.name, i-f.off, bit), flip(i, bit), true})
			}
		}
	}
	for i := range macLen * 8 { // every bit of the identity MAC
		cases = append(cases, tc{fmt.Sprintf("flip idMAC bit %d", i), flip(fixedPrefix+macLen+i/8, i%8), true})
	}
	for k := range tamperRecords { // every record boundary short of the end
		cases = append(cases, tc{fmt.Sprintf("truncated to %d records", k), func(fx *tamperFixture) []byte {
			return fx.cur[:headerLen+k*recordLen]
		}, false})
	}
	cases = append(cases,
		tc{"truncated inside the header", func(fx *tamperFixture) []byte { return fx.cur[:headerLen-1] }, true},
		tc{"empty", func(fx *tamperFixture) []byte { return []byte{} }, true},
		tc{"middle record removed", func(fx *tamperFixture) []byte {
			r := headerLen + 2*recordLen
			return slices.Concat(fx.cur[:r], fx.cur[r+recordLen:])
		}, true},
		tc{"first record removed", func(fx *tamperFixture) []byte {
			return slices.Concat(fx.cur[:headerLen], fx.cur[headerLen+recordLen:])
		}, true},
		tc{"two records swapped", func(fx *tamperFixture) []byte {
			r := headerLen + 2*recordLen
			return slices.Concat(fx.cur[:r], fx.cur[r+recordLen:r+2*recordLen], fx.cur[r:r+recordLen], fx.cur[r+2*recordLen:])
		}, true},
		tc{"older copy restored", func(fx *tamperFixture) []byte { return fx.old }, false},
		tc{"deleted", func(fx *tamperFixture) []byte { return nil }, false},
		tc{"another memo's file (same secret and identity)", func(fx *tamperFixture) []byte {
			other := &tamperFixture{}
			*other = *newTamperFixture(t)
			return other.cur
		}, false},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx := newTamperFixture(t)
			b := c.damage(fx)
			if b == nil {
				os.Remove(fx.path)
			} else if err := os.WriteFile(fx.path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			fx.failsClosed(t, fx.anchor)
			if c.noAnchorOK {
				fx.failsClosed(t, nil)
			}
		})
	}
	t.Logf("%d kinds of damage, each failed closed", len(cases))
}

// TestTamperNegativeControls: what must not be refused — the memo as
// written, with and without its anchor; a torn final record (a crash
// mid-append); a file ahead of its anchor (a crash between the append and
// the anchor's store) — and, without an anchor, a truncation at a record
// boundary is not detected (documented in the package doc).
func TestTamperNegativeControls(t *testing.T) {
	fx := newTamperFixture(t)
	for _, a := range []anchor.Anchor{fx.anchor, nil} {
		m, err := OpenWith(fx.dir, testID, secretOf(1), Options{Anchor: a})
		if err != nil {
			t.Fatalf("intact memo: %v", err)
		}
		m.Close()
	}
	os.WriteFile(fx.path, append(slices.Clone(fx.cur), make([]byte, recordLen/2)...), 0o600)
	m, err := OpenWith(fx.dir, testID, secretOf(1), Options{Anchor: fx.anchor})
	if err != nil {
		t.Fatalf("torn final record: %v", err)
	}
	m.Close()
	// Ahead of the anchor: roll the anchor back instead of the file.
	m, _ = OpenWith(fx.dir, testID, secretOf(1), Options{})
	mustResolve(t, m, 100)
	m.Close()
	m, err = OpenWith(fx.dir, testID, secretOf(1), Options{Anchor: fx.anchor})
	if err != nil {
		t.Fatalf("file ahead of its anchor: %v", err)
	}
	m.Close()
	// Without an anchor, a cut at a record boundary is not detected.
	os.WriteFile(fx.path, fx.cur[:headerLen+2*recordLen], 0o600)
	if m, err = Open(fx.dir, testID, secretOf(1)); err != nil {
		t.Fatalf("cut without an anchor: %v (the docs say it is not detected)", err)
	}
	m.Close()
}

// TestTamperUnderOpenMemo: an open Memo notices a file cut at a record
// boundary, an older copy put in its place or the file deleted, without
// an anchor (it keeps its own count and chain head), and stays failed.
func TestTamperUnderOpenMemo(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(fx *tamperFixture)
	}{
		{"cut at a record boundary", func(fx *tamperFixture) { os.Truncate(fx.path, headerLen+3*recordLen) }},
		{"older copy renamed over", func(fx *tamperFixture) {
			os.WriteFile(fx.path+".tmp", fx.old, 0o600)
			os.Rename(fx.path+".tmp", fx.path)
		}},
		{"older copy written in place", func(fx *tamperFixture) { os.WriteFile(fx.path, fx.old, 0o600) }},
		{"deleted", func(fx *tamperFixture) { os.Remove(fx.path) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			fx := newTamperFixture(t)
			m := mustOpen(t, fx.dir, testID, secretOf(1))
			c.damage(fx)
			for range 2 {
				if _, _, err := m.Resolve([]int32{0, 1, 2, 3, 4, 5, 6}, randDraw, noCharge); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("open Memo after damage: %v, want ErrCorrupt", err)
				}
			}
		})
	}
}
