package ledger

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestTally: a tally grants a charge exactly when the exact sum stays
// within the cap, and a refused or invalid charge changes nothing.
func TestTally(t *testing.T) {
	type step struct {
		amount  float64
		granted bool
		invalid bool
	}
	inf := math.Inf(1)
	for _, c := range []struct {
		name      string
		cap       float64
		steps     []step
		spent     float64
		remaining float64
	}{
		{"exactly the cap", 1, []step{{0.5, true, false}, {0.5, true, false}}, 1, 0},
		{"just above the cap", 1, []step{{0.5, true, false}, {math.Nextafter(0.5, 1), false, false}}, 0.5, 0.5},
		{"refusal then a fitting charge", 1, []step{{0.75, true, false}, {0.5, false, false}, {0.25, true, false}}, 1, 0},
		{"zero charges", 1, []step{{0, true, false}, {math.Copysign(0, -1), true, false}, {1, true, false}, {0, true, false}}, 1, 0},
		{"zero at a full cap", 1, []step{{1, true, false}, {0, true, false}, {0x1p-1074, false, false}}, 1, 0},
		// 0.1+0.2 rounds above 0.3 as floats; the exact sum is what counts.
		{"exact, not rounded", 0.30000000000000004, []step{{0.1, true, false}, {0.2, true, false}}, 0.30000000000000004, 0},
		{"no cap", 0, []step{{1e300, true, false}, {1e300, true, false}}, 2e300, inf},
		{"invalid amounts", 1, []step{{-1, false, true}, {math.NaN(), false, true}, {inf, false, true}, {math.Inf(-1), false, true}, {0.5, true, false}}, 0.5, 0.5},
		{"past the largest float64", 0, []step{{math.MaxFloat64, true, false}, {math.MaxFloat64, false, true}, {0x1p-1074, false, true}, {0, true, false}}, math.MaxFloat64, inf},
	} {
		tl, err := NewTally(c.cap)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i, s := range c.steps {
			granted, err := tl.Charge(s.amount)
			if granted != s.granted || errors.Is(err, ErrInvalid) != s.invalid || (err != nil) != s.invalid {
				t.Errorf("%s: step %d: Charge(%v) = %v, %v; want %v, invalid %v", c.name, i, s.amount, granted, err, s.granted, s.invalid)
			}
		}
		if got := tl.Spent(); got != c.spent {
			t.Errorf("%s: Spent = %v, want %v", c.name, got, c.spent)
		}
		if got := tl.Remaining(); got != c.remaining {
			t.Errorf("%s: Remaining = %v, want %v", c.name, got, c.remaining)
		}
		if got := tl.Cap(); got != c.cap {
			t.Errorf("%s: Cap = %v, want %v", c.name, got, c.cap)
		}
	}
}

// TestNewTallyInvalid: a cap that is negative or not finite is refused.
func TestNewTallyInvalid(t *testing.T) {
	for _, c := range []float64{-1, math.Nextafter(0, -1), math.NaN(), math.Inf(1), math.Inf(-1)} {
		if tl, err := NewTally(c); tl != nil || !errors.Is(err, ErrInvalid) {
			t.Errorf("NewTally(%v) = %v, %v; want nil and an ErrInvalid", c, tl, err)
		}
	}
	tl, err := NewTally(math.Copysign(0, -1))
	if err != nil || tl.Cap() != 0 || math.Signbit(tl.Cap()) || !math.IsInf(tl.Remaining(), 1) {
		t.Errorf("NewTally(-0) = %v, %v; want no cap", tl, err)
	}
}

// TestTallyNil: a nil tally's methods return ErrInvalid or zero.
func TestTallyNil(t *testing.T) {
	var tl *Tally
	if granted, err := tl.Charge(1); granted || !errors.Is(err, ErrInvalid) {
		t.Errorf("nil Charge = %v, %v; want false and an ErrInvalid", granted, err)
	}
	if tl.Spent() != 0 || tl.Remaining() != 0 || tl.Cap() != 0 {
		t.Errorf("nil Spent, Remaining, Cap = %v, %v, %v; want zeros", tl.Spent(), tl.Remaining(), tl.Cap())
	}
}

// tallyCost is a per-word ε and P_avg; its cost per word is
// float64(1)·ε·P_avg, the privatizer's arithmetic for one fresh word.
type tallyCost struct{ eps, pavg float64 }

func (c tallyCost) charge(k int) float64 { return float64(k) * c.eps * c.pavg }

// tallyCosts are a few round and a few arbitrary costs (seeded: the same
// in every run).
func tallyCosts() []tallyCost {
	cs := []tallyCost{{0.1, 0.37}, {0.5, 1.9}, {1, 13.01}, {2.3, 3.3333}, {7, 0.0123}, {0.01, 41.7}}
	r := rand.New(rand.NewPCG(28, 1))
	for range 10 {
		cs = append(cs, tallyCost{0.01 + 10*r.Float64(), 0.01 + 50*r.Float64()})
	}
	return cs
}

// grantsExactly charges a tally capped at limit k words at a time (the
// last charge the words left) up to n words, then one word more: it
// reports whether the n words were granted and the extra one refused.
func grantsExactly(tb testing.TB, limit float64, c tallyCost, n, k int) bool {
	tl, err := NewTally(limit)
	if err != nil {
		tb.Fatal(err)
	}
	for done := 0; done < n; done += k {
		granted, err := tl.Charge(c.charge(min(k, n-done)))
		if err != nil {
			tb.Fatal(err)
		}
		if !granted {
			return false
		}
	}
	granted, err := tl.Charge(c.charge(1))
	if err != nil {
		tb.Fatal(err)
	}
	return !granted
}

var (
	tallyNs       = []int{1, 7, 500, 100000}
	tallyPerCalls = []int{1, 3, 1000}
)

// TestTallyWordCap: through a Tally, the cap WordCap(N, cost) grants
// exactly N words and refuses word N+1, for every cost, N and split of the
// words into charges (and all N words in one charge).
func TestTallyWordCap(t *testing.T) {
	for _, c := range tallyCosts() {
		for _, n := range tallyNs {
			limit, err := WordCap(n, c.charge(1))
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range append(tallyPerCalls, n) {
				if !grantsExactly(t, limit, c, n, k) {
					t.Errorf("ε %v, P_avg %v, N %d, charges of %d words: cap %v does not grant exactly N", c.eps, c.pavg, n, k, limit)
				}
			}
		}
	}
}

// TestTallyWordCapNegativeControl: the same check catches a cap without
// the half word (N·cost): the N-th word's charge then meets the cap with
// no margin, and rounding refuses it for some cost and N.
func TestTallyWordCapNegativeControl(t *testing.T) {
	wrong := 0
	for _, c := range tallyCosts() {
		for _, n := range tallyNs {
			for _, k := range append(tallyPerCalls, n) {
				if !grantsExactly(t, float64(n)*c.charge(1), c, n, k) {
					wrong++
				}
			}
		}
	}
	if wrong == 0 {
		t.Error("a cap of N·cost passes every case: the word-cap check detects nothing")
	}
	t.Logf("a cap of N·cost is wrong in %d cases", wrong)
}

// TestTallyChargeAllocs: a granted or refused charge allocates nothing
// once the tally's scratch has grown (a bulk pipeline charges every
// record), with and without a cap.
func TestTallyChargeAllocs(t *testing.T) {
	for _, capLoss := range []float64{0, 1e6} {
		tl, err := NewTally(capLoss)
		if err != nil {
			t.Fatal(err)
		}
		charges := []float64{0.25, 3e-300, 1.5, 7, 2e6} // the last refused under the cap
		for _, c := range charges {
			tl.Charge(c)
		}
		if n := testing.AllocsPerRun(100, func() {
			for _, c := range charges {
				tl.Charge(c)
			}
		}); n != 0 {
			t.Errorf("cap %v: %v allocations per round of charges, want 0", capLoss, n)
		}
	}
}
