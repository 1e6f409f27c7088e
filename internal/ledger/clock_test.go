package ledger

import (
	"errors"
	"math"
	"testing"
	"time"
)

// TestPeriodCapAtExtremeClocks: the per-period cap binds whatever the
// clock says, MinInt64 and MaxInt64 included; no subtraction wraps. With
// the old saturating subtraction a clock at MinInt64 dropped every charge
// from the period at once (the negative control: the second charge went
// through).
func TestPeriodCapAtExtremeClocks(t *testing.T) {
	for _, ns := range []int64{math.MinInt64, math.MinInt64 + 1, math.MinInt64 + int64(time.Hour) - 1, math.MinInt64 + int64(time.Hour),
		-int64(time.Hour), -1, 0, 1, math.MaxInt64 - int64(time.Hour), math.MaxInt64 - 1, math.MaxInt64} {
		t.Run(time.Unix(0, ns).UTC().Format(time.RFC3339Nano), func(t *testing.T) {
			l, err := Open(t.TempDir(), Caps{PerPeriod: 1, Period: time.Hour, Lifetime: 10})
			if err != nil {
				t.Fatal(err)
			}
			l.now = func() time.Time { return time.Unix(0, ns) }
			if _, err := l.Charge(0.6); err != nil {
				t.Fatal(err)
			}
			if _, err := l.Charge(0.6); !errors.Is(err, ErrBudgetExceeded) {
				t.Fatalf("second charge in one period: %v, want ErrBudgetExceeded", err)
			}
			if p, _, err := l.Spent(); err != nil || p != 0.6 {
				t.Fatalf("Spent %v %v", p, err)
			}
			// One period later (when the clock can get there) the charge leaves.
			if ns <= math.MaxInt64-int64(time.Hour) {
				l.now = func() time.Time { return time.Unix(0, ns+int64(time.Hour)) }
				if _, err := l.Charge(0.6); err != nil {
					t.Fatalf("a period later: %v", err)
				}
			}
		})
	}
}

func TestBefore(t *testing.T) {
	for _, c := range []struct {
		now, d, want int64
		ok           bool
	}{
		{0, 0, 0, true}, {10, 3, 7, true}, {math.MinInt64, 0, math.MinInt64, true},
		{math.MinInt64, 1, 0, false}, {math.MinInt64 + 5, 5, math.MinInt64, true}, {math.MinInt64 + 5, 6, 0, false},
		{math.MaxInt64, math.MaxInt64, 0, true}, {-1, math.MaxInt64, math.MinInt64, true}, {-2, math.MaxInt64, 0, false},
	} {
		if got, ok := before(c.now, c.d); ok != c.ok || got != c.want {
			t.Errorf("before(%d, %d) = %d %v, want %d %v", c.now, c.d, got, ok, c.want, c.ok)
		}
	}
}
