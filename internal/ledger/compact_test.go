package ledger

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCompaction charges over many periods with an injected clock: the file
// stays within its bound (snapshot of the live charges plus at most
// 2·live + slack records), compactions happen, and the totals are exact,
// checked against sums computed independently, also after reopening.
func TestCompaction(t *testing.T) {
	dir := t.TempDir()
	const period = 30 * time.Minute
	caps := Caps{PerPeriod: 1e9, Period: period}
	l, err := Open(dir, caps)
	if err != nil {
		t.Fatal(err)
	}
	l.slack = 64
	t0 := time.Unix(1_700_000_000, 0)
	clock := t0
	l.now = func() time.Time { return clock }
	path := filepath.Join(dir, FileName)
	var all []float64
	var times []time.Time
	compactions, maxSize := 0, int64(0)
	prev, _ := os.Stat(path)
	for i := range 2000 {
		clock = t0.Add(time.Duration(i) * time.Minute)
		a := float64(i%7) * 0.1 // amounts that do not add up exactly in float64
		rec, err := l.Charge(a)
		if err != nil {
			t.Fatalf("charge %d: %v", i, err)
		}
		all, times = append(all, a), append(times, clock)
		var inWindow []float64
		for j, at := range times {
			if at.After(clock.Add(-period)) {
				inWindow = append(inWindow, all[j])
			}
		}
		if want := exactRound(all...); rec.LifetimeSpent != want {
			t.Fatalf("charge %d: lifetime %v, want %v", i, rec.LifetimeSpent, want)
		}
		if want := exactRound(inWindow...); rec.PeriodSpent != want {
			t.Fatalf("charge %d: period %v, want %v", i, rec.PeriodSpent, want)
		}
		fi, _ := os.Stat(path)
		if !os.SameFile(fi, prev) {
			compactions++
		}
		prev = fi
		maxSize = max(maxSize, fi.Size())
		live := int64(len(inWindow)) + 1 // the retention record
		if bound := headerSize + 64 + 16*live + 4 + slotSize*(2*live+int64(l.slack)+1); fi.Size() > bound {
			t.Fatalf("charge %d: file is %d bytes, bound %d", i, fi.Size(), bound)
		}
	}
	if compactions < 10 {
		t.Fatalf("%d compactions in 2000 charges", compactions)
	}
	t.Logf("2000 charges, %d compactions, file at most %d bytes", compactions, maxSize)
	r, err := Open(dir, caps)
	if err != nil {
		t.Fatal(err)
	}
	r.now = l.now
	p, life, _ := r.Spent()
	if want := exactRound(all...); life != want {
		t.Fatalf("reopened lifetime %v, want %v", life, want)
	}
	if want := exactRound(all[len(all)-30:]...); p != want {
		t.Fatalf("reopened period %v, want %v", p, want)
	}
}

// TestRetentionIsWidest: a handle with a short period (or none) compacting
// keeps the charges a handle with a longer period still counts.
func TestRetentionIsWidest(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Unix(1_700_000_000, 0)
	clock := t0
	now := func() time.Time { return clock }
	long, _ := Open(dir, Caps{PerPeriod: 10, Period: 24 * time.Hour})
	long.now = now
	short, _ := Open(dir, Caps{}) // no period of its own: would keep nothing
	short.now, short.slack = now, 0
	clock = t0.Add(-48 * time.Hour)
	for range 10 {
		short.Charge(0) // records that will have expired: compaction fodder
	}
	clock = t0
	long.Charge(6)
	before, _ := os.Stat(filepath.Join(dir, FileName))
	clock = t0.Add(time.Hour)
	short.Charge(0)
	if after, _ := os.Stat(filepath.Join(dir, FileName)); os.SameFile(before, after) {
		t.Fatalf("short handle did not compact")
	}
	if _, err := long.Charge(6); err == nil {
		t.Fatal("the long period's charge was forgotten by another handle's compaction")
	}
	if p, _, _ := long.Spent(); p != 6 {
		t.Fatalf("long handle's period: %v, want 6", p)
	}
	clock = t0.Add(25 * time.Hour) // control: a day later it is free
	if _, err := long.Charge(6); err != nil {
		t.Fatal(err)
	}
}

// TestOrphanRemoved: a compaction killed before its rename leaves a
// temporary file; the ledger is the old one, and Open removes the orphan.
func TestOrphanRemoved(t *testing.T) {
	dir := t.TempDir()
	l, _ := Open(dir, Caps{})
	l.Charge(5)
	orphan := filepath.Join(dir, "."+FileName+".123")
	os.WriteFile(orphan, []byte("half a snapshot"), 0o600)
	r, err := Open(dir, Caps{})
	if err != nil {
		t.Fatal(err)
	}
	if _, life, _ := r.Spent(); life != 5 {
		t.Fatalf("lifetime %v", life)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatalf("orphan left: %v", err)
	}
}
