package ledger

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWordCapEdges: WordCap's accepted range and its refusals.
func TestWordCapEdges(t *testing.T) {
	const minNormal = 0x1p-1022
	for _, c := range []struct {
		name  string
		words int64 // int64: MaxCapWords overflows a 32-bit int
		cost  float64
		want  float64 // when ok
		ok    bool
	}{
		{"no cap", 0, 0.25, 0, true},
		{"no cap, unknown cost", 0, math.NaN(), 0, true},
		{"one word", 1, 0.25, 0.375, true},
		{"seven words", 7, 2, 15, true},
		{"largest", MaxCapWords, 1, MaxCapWords + 0.5, true},
		{"smallest normal cost", 1, minNormal, 1.5 * minNormal, true},
		{"negative words", -1, 1, 0, false},
		{"above MaxCapWords", MaxCapWords + 1, 1, 0, false},
		{"unknown cost", 5, math.NaN(), 0, false},
		{"zero cost", 5, 0, 0, false},
		{"negative zero cost", 5, math.Copysign(0, -1), 0, false},
		{"negative cost", 5, -1, 0, false},
		{"subnormal cost", 5, math.Nextafter(minNormal, 0), 0, false},
		{"infinite cost", 5, math.Inf(1), 0, false},
		{"cap overflows", MaxCapWords, math.MaxFloat64 / 2, 0, false},
	} {
		if int64(int(c.words)) != c.words {
			continue // beyond int on this platform: no caller can pass it
		}
		got, err := WordCap(int(c.words), c.cost)
		switch {
		case c.ok && (err != nil || got != c.want):
			t.Errorf("%s: WordCap(%d, %v) = %v, %v; want %v, nil", c.name, c.words, c.cost, got, err, c.want)
		case !c.ok && (!errors.Is(err, ErrInvalid) || got != 0):
			t.Errorf("%s: WordCap(%d, %v) = %v, %v; want 0 and an ErrInvalid", c.name, c.words, c.cost, got, err)
		}
	}
}

// TestCapsInLoss: a ledger converts its caps in words with WordCap, the
// lifetime's and the period's alike, keeps the words (for a refusal's
// message), and refuses a cap given twice or in words at an unknown cost,
// with nothing created on disk.
func TestCapsInLoss(t *testing.T) {
	const cost = 0.3
	want, err := WordCap(7, cost)
	if err != nil {
		t.Fatal(err)
	}
	l := mustOpen(t, Caps{LifetimeWords: 7, PerPeriodWords: 7, Period: time.Hour, WordCost: cost})
	defer l.Close()
	if c := l.Caps(); c.Lifetime != want || c.PerPeriod != want || c.LifetimeWords != 7 || c.PerPeriodWords != 7 {
		t.Fatalf("caps %+v, want both at %v", c, want)
	}
	for _, tc := range []struct {
		name string
		caps Caps
	}{
		{"lifetime in words and in loss", Caps{LifetimeWords: 5, Lifetime: 1, WordCost: cost}},
		{"per period in words and in loss", Caps{PerPeriodWords: 5, PerPeriod: 1, Period: time.Hour, WordCost: cost}},
		{"unknown cost", Caps{LifetimeWords: 5, WordCost: math.NaN()}},
		{"no cost", Caps{PerPeriodWords: 5, Period: time.Hour}},
		{"negative words", Caps{LifetimeWords: -1, WordCost: cost}},
		{"per period in words without a period", Caps{PerPeriodWords: 5, WordCost: cost}},
	} {
		dir := filepath.Join(t.TempDir(), "ledger")
		if l, err := Open(dir, tc.caps); !errors.Is(err, ErrInvalid) {
			l.Close()
			t.Errorf("%s: %v, want ErrInvalid", tc.name, err)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the directory exists after a refused Open (%v)", tc.name, err)
		}
	}
}
