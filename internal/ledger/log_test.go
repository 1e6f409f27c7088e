package ledger

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ledgerWith builds a real ledger through the API: charges 1 and 2, a
// binding long enough to need continuation slots, and a charge of 4 last.
// It returns the file and the start offsets of the binding and of the last
// charge.
func ledgerWith(t *testing.T, dir string) (file []byte, bindAt, lastAt int) {
	t.Helper()
	l, err := Open(dir, Caps{Lifetime: 1000})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName)
	size := func() int { fi, _ := os.Stat(path); return int(fi.Size()) }
	l.Charge(1)
	l.Charge(2)
	bindAt = size()
	if err := l.Bind("memo", strings.Repeat("i", 100)); err != nil {
		t.Fatal(err)
	}
	lastAt = size()
	l.Charge(4)
	file, _ = os.ReadFile(path)
	if lastAt-bindAt <= slotSize {
		t.Fatalf("binding took %d bytes: not a multi-slot record", lastAt-bindAt)
	}
	return file, bindAt, lastAt
}

// TestTornTail cuts the file at every byte of its last record (a charge,
// and in a second pass a multi-slot binding): Open must recover the state
// before that record, cut the torn bytes off so later appends are not
// stranded behind them, and never report less than the records that are
// whole.
func TestTornTail(t *testing.T) {
	dir := t.TempDir()
	good, bindAt, lastAt := ledgerWith(t, dir)
	path := filepath.Join(dir, FileName)
	for _, tc := range []struct {
		name     string
		file     []byte
		from     int     // cut at every offset in [from, len(file))
		life     float64 // lifetime of the whole records before from
		fullLife float64 // lifetime with nothing cut (control)
	}{
		{"last charge", good, lastAt, 3, 7},
		{"last binding", good[:lastAt], bindAt, 3, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for n := tc.from; n <= len(tc.file); n++ {
				os.WriteFile(path, tc.file[:n], 0o600)
				l, err := Open(dir, Caps{})
				if err != nil {
					t.Fatalf("cut at %d: %v", n, err)
				}
				life := tc.life
				if n == len(tc.file) {
					life = tc.fullLife
				}
				if _, got, _ := l.Spent(); got != life {
					t.Fatalf("cut at %d: lifetime %v, want %v", n, got, life)
				}
				if err := l.Bind("memo", strings.Repeat("i", 100)); err != nil {
					t.Fatalf("cut at %d: rebinding: %v", n, err)
				}
				if _, err := l.Charge(8); err != nil {
					t.Fatalf("cut at %d: charge after recovery: %v", n, err)
				}
				l2, err := Open(dir, Caps{})
				if err != nil {
					t.Fatalf("cut at %d: reopening after a charge: %v", n, err)
				}
				if _, got, _ := l2.Spent(); got != life+8 {
					t.Fatalf("cut at %d: reopened lifetime %v, want %v", n, got, life+8)
				}
			}
		})
	}
}

// TestTornBindingForgotten: a binding cut short was never acknowledged, so
// it is gone and another id may take the name; a whole one holds.
func TestTornBindingForgotten(t *testing.T) {
	dir := t.TempDir()
	good, bindAt, lastAt := ledgerWith(t, dir)
	path := filepath.Join(dir, FileName)
	for _, tc := range []struct {
		cut     int
		wantErr error
	}{
		{bindAt + 1, nil},
		{lastAt - 1, nil},
		{lastAt, ErrBindingMismatch}, // whole: the name stays bound (control)
	} {
		os.WriteFile(path, good[:tc.cut], 0o600)
		l, err := Open(dir, Caps{})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Bind("memo", "other"); !errors.Is(err, tc.wantErr) && err != tc.wantErr {
			t.Fatalf("cut at %d: Bind with another id: %v, want %v", tc.cut, err, tc.wantErr)
		}
	}
}

// TestDamageVersusTear: only what a crash can leave at the end is dropped;
// anything else is ErrCorrupt.
func TestDamageVersusTear(t *testing.T) {
	dir := t.TempDir()
	good, bindAt, lastAt := ledgerWith(t, dir)
	path := filepath.Join(dir, FileName)
	zeroed := func(from, to int) []byte {
		b := bytes.Clone(good)
		clear(b[from:to])
		return b
	}
	junk := bytes.Repeat([]byte{0xa5}, slotSize)
	for _, tc := range []struct {
		name string
		file []byte
		life float64 // when it opens
		err  error
	}{
		{"intact", good, 7, nil},
		{"last record zeroed (size grew before the data)", zeroed(lastAt, len(good)), 3, nil},
		{"last binding zeroed after its head", zeroed(bindAt+slotSize, lastAt)[:lastAt], 3, nil},
		{"fewer than a slot of junk at the end", append(bytes.Clone(good), junk[:slotSize-1]...), 7, nil},
		{"a slot of zeros at the end", append(bytes.Clone(good), make([]byte, slotSize)...), 7, nil},
		{"a slot of junk at the end", append(bytes.Clone(good), junk...), 0, ErrCorrupt},
		{"zeros then junk at the end", append(append(bytes.Clone(good), make([]byte, slotSize)...), 1), 0, ErrCorrupt},
		{"a zeroed record before the last", zeroed(bindAt-slotSize, bindAt), 0, ErrCorrupt},
		{"last record half zeroed", zeroed(lastAt, lastAt+slotSize/2), 0, ErrCorrupt},
		{"binding zeroed mid-log", zeroed(bindAt+slotSize, lastAt), 0, ErrCorrupt},
		{"a record repeated", append(bytes.Clone(good), good[lastAt:]...), 0, ErrCorrupt},
		{"too much zero to be one append", append(bytes.Clone(good), make([]byte, maxBindSize+slotSize)...), 0, ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.WriteFile(path, tc.file, 0o600)
			l, err := Open(dir, Caps{})
			if !errors.Is(err, tc.err) || (err != nil) != (tc.err != nil) {
				t.Fatalf("Open: %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if _, life, _ := l.Spent(); life != tc.life {
				t.Fatalf("lifetime %v, want %v", life, tc.life)
			}
		})
	}
}

// TestHandlesShareTheFile: two handles (as two processes) see each other's
// charges by reading only what was appended, and notice a compaction by the
// other by the file's identity, reading it whole once.
func TestHandlesShareTheFile(t *testing.T) {
	dir := t.TempDir()
	caps := Caps{Lifetime: 100} // no period: nothing is live, compaction comes soon
	a, _ := Open(dir, caps)
	b, _ := Open(dir, caps)
	a.Charge(1)
	b.Charge(2)
	loads := a.loads
	if p, life, _ := a.Spent(); p != 3 || life != 3 {
		t.Fatalf("a sees %v %v, want 3 3", p, life)
	}
	if a.loads != loads {
		t.Fatalf("a read the whole file again for one appended record")
	}
	b.slack = 2 // b compacts once the log holds more than 2 records
	for i := 0; i < 4; i++ {
		b.Charge(0)
	}
	fiA, _ := os.Stat(filepath.Join(dir, FileName))
	if os.SameFile(fiA, a.fi) {
		t.Fatalf("b did not compact (records %d, live %d)", b.st.records, len(b.st.win.live()))
	}
	if p, life, _ := a.Spent(); p != 3 || life != 3 {
		t.Fatalf("after b compacted, a sees %v %v, want 3 3", p, life)
	}
	if a.loads != loads+1 {
		t.Fatalf("a read the whole file %d times after a compaction, want 1", a.loads-loads)
	}
	a.Charge(4)
	c, err := Open(dir, caps)
	if err != nil {
		t.Fatal(err)
	}
	if p, life, _ := c.Spent(); p != 7 || life != 7 {
		t.Fatalf("a fresh handle sees %v %v, want 7 7", p, life)
	}
}

// TestClockBackwards: a clock set back hands no budget back; charges made
// meanwhile are stamped at ledger time, so the file stays in order.
func TestClockBackwards(t *testing.T) {
	dir := t.TempDir()
	caps := Caps{PerPeriod: 10, Period: time.Hour}
	l, _ := Open(dir, caps)
	t0 := time.Unix(1_700_000_000, 0)
	clock := t0
	l.now = func() time.Time { return clock }
	if _, err := l.Charge(6); err != nil {
		t.Fatal(err)
	}
	clock = t0.Add(-2 * time.Hour) // more than a period back
	if _, err := l.Charge(6); !errors.Is(err, ErrBudgetExceeded) {
		t.Fatalf("clock back: charge of 6 on 6 of 10 spent: %v", err)
	}
	rec, err := l.Charge(3)
	if err != nil || !rec.At.Equal(t0) || rec.PeriodSpent != 9 {
		t.Fatalf("clock back: %+v %v; want stamped at the last charge's time", rec, err)
	}
	fresh, err := Open(dir, caps)
	if err != nil {
		t.Fatal(err)
	}
	fresh.now = l.now
	if p, _, _ := fresh.Spent(); p != 9 {
		t.Fatalf("fresh handle, clock back: period %v, want 9", p)
	}
	clock = t0.Add(time.Hour) // an hour after the ledger's last charge
	if p, _, _ := l.Spent(); p != 0 {
		t.Fatalf("a period after the last charge: period %v, want 0", p)
	}
}

// TestBind: a name keeps its first id across handles and reopening.
func TestBind(t *testing.T) {
	dir := t.TempDir()
	a, _ := Open(dir, Caps{})
	b, _ := Open(dir, Caps{})
	steps := []struct {
		l        *Ledger
		name, id string
		want     error
	}{
		{a, "memo", "id-1", nil},
		{a, "memo", "id-1", nil},
		{a, "memo", "id-2", ErrBindingMismatch},
		{b, "memo", "id-2", ErrBindingMismatch},
		{b, "memo", "id-1", nil},
		{b, "other", "id-2", nil},
		{a, "other", "id-1", ErrBindingMismatch},
		{a, "", "id", ErrInvalid},
		{a, "memo", "", ErrInvalid},
		{a, strings.Repeat("n", maxName+1), "id", ErrInvalid},
		{a, "memo", strings.Repeat("i", maxID+1), ErrInvalid},
		{a, strings.Repeat("n", maxName), strings.Repeat("i", maxID), nil},
	}
	for i, s := range steps {
		err := s.l.Bind(s.name, s.id)
		if !errors.Is(err, s.want) || (err == nil) != (s.want == nil) {
			t.Fatalf("step %d: Bind(%.10q, %.10q) = %v, want %v", i, s.name, s.id, err, s.want)
		}
		if err != nil && strings.Count(err.Error(), "ledger:") != 1 {
			t.Fatalf("step %d: error %q repeats its prefix", i, err)
		}
	}
	// Bindings survive reopening and compaction.
	c, err := Open(dir, Caps{})
	if err != nil {
		t.Fatal(err)
	}
	c.slack = 0
	for i := 0; i < 10; i++ {
		c.Charge(1)
	}
	d, err := Open(dir, Caps{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Bind("memo", "id-2"); !errors.Is(err, ErrBindingMismatch) {
		t.Fatalf("after compaction: %v", err)
	}
	if err := d.Bind(strings.Repeat("n", maxName), strings.Repeat("i", maxID)); err != nil {
		t.Fatalf("after compaction: %v", err)
	}
}

// TestNilAndZeroLedger: no method panics on a nil or zero Ledger.
func TestNilAndZeroLedger(t *testing.T) {
	for _, l := range []*Ledger{nil, {}} {
		if _, err := l.Charge(1); !errors.Is(err, ErrInvalid) {
			t.Errorf("%p Charge: %v", l, err)
		}
		if _, _, err := l.Spent(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%p Spent: %v", l, err)
		}
		if err := l.Bind("a", "b"); !errors.Is(err, ErrInvalid) {
			t.Errorf("%p Bind: %v", l, err)
		}
		if l.Caps() != (Caps{}) {
			t.Errorf("%p Caps: %+v", l, l.Caps())
		}
	}
	if _, err := Open("", Caps{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Open(\"\"): %v", err)
	}
}

// TestOverflowRefused: a charge that would take the lifetime total to
// +Inf is refused and records nothing.
func TestOverflowRefused(t *testing.T) {
	l, _ := Open(t.TempDir(), Caps{})
	if _, err := l.Charge(math.MaxFloat64); err != nil {
		t.Fatal(err)
	}
	_, err := l.Charge(math.MaxFloat64)
	if !errors.Is(err, ErrInvalid) || strings.Count(err.Error(), "ledger:") != 1 {
		t.Fatalf("overflowing charge: %v", err)
	}
	if _, life, _ := l.Spent(); life != math.MaxFloat64 {
		t.Fatalf("lifetime %v", life)
	}
}
