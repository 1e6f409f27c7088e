package sample

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/stattest"
)

// windowLaw is the two-sided geometric with ratio e^−ε conditioned on
// [−left, right], from its closed form alone: Pr[k] ∝ e^(−ε|k|), index
// k+left.
func windowLaw(eps float64, left, right int) []float64 {
	p := make([]float64, left+right+1)
	sum := 0.0
	for k := -left; k <= right; k++ {
		p[k+left] = math.Exp(-eps * math.Abs(float64(k)))
		sum += p[k+left]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// TestSignedGeometricWithin: Within draws the window's conditional law at
// ε from 1-DT's floor on a small list (where nearly all of Draw's mass is
// pooled beyond the window) through moderate ε to the largest ε accepted
// (all of it at 0), on symmetric, one-sided and lopsided windows.
// Negative control: Draw clamped to the window (pooling the tails at its
// ends instead of rejecting them) must be rejected where the tails carry
// mass.
func TestSignedGeometricWithin(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("signed-geometric-within"))
	const draws = 40000
	for _, c := range []struct {
		eps                float64
		bound, left, right int
		control            bool // the clamped Draw must fail here
	}{
		{0.001 / 11 / 2, 12, 5, 6, true},
		{0.001 / 11 / 2, 12, 0, 11, true},
		{0.001 / 99999 / 2, 100000, 3, 40, true},
		{0.05, 30, 29, 7, true},
		{0.631, 29, 28, 28, false},
		{0.631, 29, 2, 28, false},
		{5e5, 12, 5, 6, false},
	} {
		g, err := NewSignedGeometric(c.eps, c.bound)
		if err != nil {
			t.Fatal(err)
		}
		p := windowLaw(c.eps, c.left, c.right)
		check := func(name string, draw func() int, wantFail bool) {
			counts := make([]int, len(p))
			for range draws {
				k := draw()
				if k < -c.left || k > c.right {
					t.Fatalf("ε=%g %s: %d outside [−%d, %d]", c.eps, name, k, c.left, c.right)
				}
				counts[k+c.left]++
			}
			stat, df, pv := stattest.ChiSquare(counts, p)
			if failed := pv < stattest.FalseFailureRate; failed != wantFail {
				t.Errorf("ε=%g [−%d, %d] %s: chi2=%.1f df=%d p=%.3g, want failure %v", c.eps, c.left, c.right, name, stat, df, pv, wantFail)
			}
		}
		check("Within", func() int { return g.Within(src, c.left, c.right) }, false)
		if c.control {
			check("control: Draw clamped to the window", func() int {
				return min(max(g.Draw(src), -c.left), c.right)
			}, true)
		}
	}
}
