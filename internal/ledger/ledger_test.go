package ledger

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestChargeAndCaps(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir, Caps{PerPeriod: 10, Period: time.Hour, Lifetime: 25})
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Unix(1_700_000_000, 0)
	l.now = func() time.Time { return clock }
	for i := 0; i < 3; i++ {
		if _, err := l.Charge(3); err != nil {
			t.Fatalf("charge %d: %v", i, err)
		}
	}
	// 9 spent this hour: 2 more would exceed the period cap; nothing recorded.
	if _, err := l.Charge(2); !errors.Is(err, ErrBudgetExceeded) {
		t.Fatalf("over the period cap: %v", err)
	}
	if p, life, _ := l.Spent(); p != 9 || life != 9 {
		t.Fatalf("after a refused charge: period %v lifetime %v, want 9 9", p, life)
	}
	// An hour later the window is empty again; the lifetime is not.
	clock = clock.Add(time.Hour + time.Second)
	rec, err := l.Charge(10)
	if err != nil || rec.PeriodSpent != 10 || rec.LifetimeSpent != 19 || rec.PeriodRemaining != 0 || rec.LifetimeRemaining != 6 {
		t.Fatalf("next period: %+v, %v", rec, err)
	}
	clock = clock.Add(2 * time.Hour)
	if _, err := l.Charge(7); !errors.Is(err, ErrBudgetExceeded) {
		t.Fatalf("over the lifetime cap: %v", err)
	}
	// The state survives reopening.
	l2, err := Open(dir, Caps{Lifetime: 25})
	if err != nil {
		t.Fatal(err)
	}
	if _, life, _ := l2.Spent(); life != 19 {
		t.Fatalf("reopened lifetime %v", life)
	}
}

func TestInvalid(t *testing.T) {
	for _, tc := range []struct {
		caps Caps
		ok   bool
	}{
		{Caps{PerPeriod: -1, Period: time.Hour}, false},
		{Caps{PerPeriod: 1}, false}, // a per-period cap without a period
		{Caps{Lifetime: math.NaN()}, false},
		{Caps{Lifetime: math.Inf(1)}, false},
		{Caps{PerPeriod: math.Inf(1), Period: time.Hour}, false},
		{Caps{Period: -time.Second}, false},
		{Caps{PerPeriod: 1, Period: maxPeriod + 1}, false},
		{Caps{PerPeriod: 1, Period: math.MaxInt64}, false}, // an overflowed conversion
		{Caps{PerPeriod: 1, Period: maxPeriod}, true},
		{Caps{Period: time.Hour}, true}, // a period without a cap: tracked, not capped
		{Caps{}, true},
	} {
		_, err := Open(t.TempDir(), tc.caps)
		if tc.ok && err != nil || !tc.ok && !errors.Is(err, ErrInvalid) {
			t.Errorf("caps %+v: %v", tc.caps, err)
		}
		if err != nil && (strings.Count(err.Error(), "ledger:") != 1 || strings.Contains(err.Error(), ErrInvalid.Error())) {
			t.Errorf("caps %+v: error %q repeats its prefix or the generic %q", tc.caps, err, ErrInvalid)
		}
	}
	l, _ := Open(t.TempDir(), Caps{})
	for _, a := range []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := l.Charge(a); !errors.Is(err, ErrInvalid) {
			t.Errorf("charge %v: %v", a, err)
		}
	}
	if rec, err := l.Charge(5); err != nil || !math.IsInf(rec.LifetimeRemaining, 1) || !math.IsInf(rec.PeriodRemaining, 1) {
		t.Errorf("uncapped charge: %+v %v", rec, err)
	}
	if c := (Caps{PerPeriod: 2, Period: time.Minute, Lifetime: 3}); mustOpen(t, c).Caps() != c {
		t.Error("Caps() does not return the caps")
	}
}

func mustOpen(t *testing.T, c Caps) *Ledger {
	t.Helper()
	l, err := Open(t.TempDir(), c)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestCorruptFailsClosed: a damaged ledger is an error, never a fresh budget.
func TestCorruptFailsClosed(t *testing.T) {
	dir := t.TempDir()
	l, _ := Open(dir, Caps{Lifetime: 100})
	if err := l.Bind("memo", "id-1"); err != nil {
		t.Fatal(err)
	}
	l.Charge(40)
	path := filepath.Join(dir, FileName)
	good, _ := os.ReadFile(path)
	for i := range good {
		for _, mask := range []byte{0x01, 0x80} {
			b := append([]byte(nil), good...)
			b[i] ^= mask
			os.WriteFile(path, b, 0o600)
			// Every byte is covered by a checksum, so every change is caught.
			if _, err := Open(dir, Caps{Lifetime: 100}); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("byte %d ^ %#x: %v", i, mask, err)
			}
		}
	}
	// A cut inside the snapshot is never a torn append (snapshots are
	// written whole): corrupt. (Cuts inside the records: TestTornTail.)
	_, bodyLen, _, _ := parseHeader(good)
	for n := 0; n < int(headerSize+bodyLen+4); n++ {
		os.WriteFile(path, good[:n], 0o600)
		if _, err := Open(dir, Caps{}); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
	// Negative control: the intact file opens with the charge.
	os.WriteFile(path, good, 0o600)
	if l, err := Open(dir, Caps{}); err != nil {
		t.Fatal(err)
	} else if _, life, _ := l.Spent(); life != 40 {
		t.Fatalf("intact file: lifetime %v", life)
	}
}

// TestNegativeChargeRefused: even with valid checksums, a ledger claiming
// a negative, NaN or infinite charge (which would refund budget or poison
// the totals), or charges going back in time, does not open.
func TestNegativeChargeRefused(t *testing.T) {
	for _, tc := range []struct {
		name    string
		charges []charge
	}{
		{"negative", []charge{{at: 10, amount: -5}}},
		{"minus zero", []charge{{at: 10, amount: math.Copysign(0, -1)}}},
		{"NaN", []charge{{at: 10, amount: math.NaN()}}},
		{"+Inf", []charge{{at: 10, amount: math.Inf(1)}}},
		{"overflowing total", []charge{{at: 10, amount: math.MaxFloat64}, {at: 10, amount: math.MaxFloat64}}},
		{"time going back", []charge{{at: 10, amount: 1}, {at: 9, amount: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeLog(t, dir, newState(0), tc.charges...)
			if _, err := Open(dir, Caps{}); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("opened: %v", err)
			}
		})
	}
	// Negative control: the same file with valid charges opens.
	dir := t.TempDir()
	writeLog(t, dir, newState(0), charge{at: 10, amount: 5}, charge{at: 10, amount: 0})
	if l, err := Open(dir, Caps{}); err != nil {
		t.Fatal(err)
	} else if _, life, _ := l.Spent(); life != 5 {
		t.Fatalf("lifetime %v", life)
	}
}

// TestConcurrent: many goroutines and two handles (as two processes would)
// on one directory never overspend: exactly the cap is granted.
func TestConcurrent(t *testing.T) {
	dir := t.TempDir()
	caps := Caps{Lifetime: 300}
	a, _ := Open(dir, caps)
	b, _ := Open(dir, caps)
	var granted atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < 32; g++ {
		wg.Add(1)
		go func(l *Ledger) {
			defer wg.Done()
			for i := 0; i < 15; i++ {
				_, err := l.Charge(1)
				switch {
				case err == nil:
					granted.Add(1)
				case !errors.Is(err, ErrBudgetExceeded):
					t.Error(err)
				}
			}
		}([]*Ledger{a, b}[g%2])
	}
	wg.Wait()
	if _, life, _ := a.Spent(); granted.Load() != 300 || life != 300 {
		t.Fatalf("granted %d, ledger says %v; want exactly 300", granted.Load(), life)
	}
}
