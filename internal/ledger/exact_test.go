package ledger

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestExactSum: the sum is the correctly rounded exact sum, and adding then
// subtracting restores it bit for bit, where float64 arithmetic drifts.
func TestExactSum(t *testing.T) {
	tiny := math.SmallestNonzeroFloat64
	for _, tc := range []struct {
		name string
		xs   []float64
		want float64
	}{
		{"empty", nil, 0},
		{"integers", []float64{1, 2, 3}, 6},
		{"tenths", []float64{0.1, 0.2}, exactRound(0.1, 0.2)},
		{"absorbed in float64", []float64{1e16, 1, 1}, 1e16 + 2},
		{"subnormals", []float64{tiny, tiny, tiny}, 3 * tiny},
		{"largest", []float64{math.MaxFloat64}, math.MaxFloat64},
		{"halves of the largest", []float64{math.MaxFloat64 / 2, math.MaxFloat64 / 2}, math.MaxFloat64},
		{"huge and tiny", []float64{1e300, tiny}, 1e300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s exactSum
			for _, x := range tc.xs {
				s.add(x)
			}
			if got := s.float(); got != tc.want {
				t.Fatalf("sum %v, want %v", got, tc.want)
			}
		})
	}
	// A rolling window over random amounts: after 10⁵ adds and subtracts
	// the sum is exactly the exact sum of what is left, and exactly 0 when
	// nothing is. A float64 running sum fails this (negative control).
	r := rand.New(rand.NewPCG(1, 2))
	var s exactSum
	naive := 0.0
	xs := make([]float64, 100_000)
	for i := range xs {
		xs[i] = r.Float64() * math.Pow(10, float64(r.IntN(12)-6))
		s.add(xs[i])
		naive += xs[i]
		if i >= 100 {
			s.sub(xs[i-100])
			naive -= xs[i-100]
		}
	}
	if got, want := s.float(), exactRound(xs[len(xs)-100:]...); got != want {
		t.Fatalf("rolling sum %v, want %v", got, want)
	}
	for _, x := range xs[len(xs)-100:] {
		s.sub(x)
		naive -= x
	}
	if s.float() != 0 || s.v.Sign() != 0 {
		t.Fatalf("empty window sums to %v", s.float())
	}
	if naive == 0 {
		t.Fatalf("negative control: a float64 running sum returned exactly to 0")
	}
	// exceeds compares without rounding: 1 + 2⁻⁶⁰ rounds to 1 but is above 1.
	var one exactSum
	one.add(1)
	if one.exceeds(0, 1) || !one.exceeds(math.Ldexp(1, -60), 1) || one.plus(math.Ldexp(1, -60)) != 1 {
		t.Fatal("exceeds rounds")
	}
}

// exactRound sums xs with math/big at a precision that cannot round.
func exactRound(xs ...float64) float64 {
	s := new(big.Float).SetPrec(4096)
	for _, x := range xs {
		s.Add(s, new(big.Float).SetFloat64(x))
	}
	f, _ := s.Float64()
	return f
}
