package ledger

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
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
	for _, c := range []Caps{{PerPeriod: -1, Period: time.Hour}, {PerPeriod: 1}, {Lifetime: math.NaN()}, {Lifetime: math.Inf(1)}} {
		if _, err := Open(t.TempDir(), c); !errors.Is(err, ErrInvalid) {
			t.Errorf("caps %+v: %v", c, err)
		}
	}
	l, _ := Open(t.TempDir(), Caps{})
	for _, a := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := l.Charge(a); !errors.Is(err, ErrInvalid) {
			t.Errorf("charge %v: %v", a, err)
		}
	}
	if rec, err := l.Charge(5); err != nil || !math.IsInf(rec.LifetimeRemaining, 1) {
		t.Errorf("uncapped charge: %+v %v", rec, err)
	}
}

// TestCorruptFailsClosed: a damaged ledger is an error, never a fresh budget.
func TestCorruptFailsClosed(t *testing.T) {
	dir := t.TempDir()
	l, _ := Open(dir, Caps{Lifetime: 100})
	l.Charge(40)
	path := filepath.Join(dir, FileName)
	good, _ := os.ReadFile(path)
	for i := range good {
		b := append([]byte(nil), good...)
		b[i] ^= 0x01
		os.WriteFile(path, b, 0o600)
		if _, err := Open(dir, Caps{Lifetime: 100}); err == nil {
			// A flip inside insignificant JSON whitespace cannot occur (none
			// is written), so every change must be caught.
			t.Fatalf("byte %d flipped: ledger opened", i)
		} else if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d flipped: %v", i, err)
		}
	}
	for n := 0; n < len(good); n += 7 {
		os.WriteFile(path, good[:n], 0o600)
		if _, err := Open(dir, Caps{}); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
}

// TestNegativeChargeRefused: even with a valid checksum, a ledger claiming
// a negative charge (which would refund budget) does not open.
func TestNegativeChargeRefused(t *testing.T) {
	dir := t.TempDir()
	l, _ := Open(dir, Caps{})
	if err := l.write(&state{Version: version, Lifetime: 1, Charges: []charge{{At: 1, Amount: -5}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, Caps{}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("negative charge: %v", err)
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

// TestCrashSafety kills a process that is charging, at arbitrary moments,
// and checks that the ledger always opens and holds the last committed
// state: the count the child reported, or one more (committed, not yet
// reported).
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	for round := 0; round < 12; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
		cmd.Env = append(os.Environ(), "WV_LEDGER_CHILD="+dir)
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		last := -1.0
		deadline := time.After(time.Duration(20+round*13) * time.Millisecond)
	read:
		for sc.Scan() {
			v, _ := strconv.ParseFloat(sc.Text(), 64)
			last = v
			select {
			case <-deadline:
				break read
			default:
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		l, err := Open(dir, Caps{})
		if err != nil {
			t.Fatalf("round %d: ledger unreadable after a kill: %v", round, err)
		}
		_, life, _ := l.Spent()
		if last >= 0 && life != last && life != last+1 {
			t.Fatalf("round %d: ledger lifetime %v, child last reported %v", round, life, last)
		}
	}
}

// TestCrashChild is the child of TestCrashSafety: it charges 1 forever and
// prints each committed lifetime total.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv("WV_LEDGER_CHILD")
	if dir == "" {
		t.Skip("child process of TestCrashSafety")
	}
	l, err := Open(dir, Caps{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	for {
		rec, err := l.Charge(1)
		if err != nil {
			os.Exit(1)
		}
		fmt.Println(rec.LifetimeSpent)
	}
}

func BenchmarkCharge(b *testing.B) {
	l, _ := Open(b.TempDir(), Caps{PerPeriod: 1e12, Period: 24 * time.Hour, Lifetime: 1e15})
	for b.Loop() {
		if _, err := l.Charge(1); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzOpen: any file content either opens (a valid ledger) or fails with
// ErrCorrupt; never a panic, never a negative or non-finite balance.
func FuzzOpen(f *testing.F) {
	f.Add([]byte("{\"version\":1,\"lifetime\":3,\"charges\":[]}\ncrc32c 00000000\n"))
	f.Add([]byte(""))
	f.Add([]byte("\n\n"))
	dir := f.TempDir()
	l, _ := Open(dir, Caps{PerPeriod: 5, Period: time.Hour})
	l.Charge(2)
	good, _ := os.ReadFile(filepath.Join(dir, FileName))
	f.Add(good)
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, FileName), b, 0o600)
		l, err := Open(dir, Caps{PerPeriod: 5, Period: time.Hour})
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		p, life, err := l.Spent()
		if err != nil || life < 0 || math.IsInf(life, 0) || math.IsNaN(p) {
			t.Fatalf("opened with period %v lifetime %v (%v)", p, life, err)
		}
	})
}
