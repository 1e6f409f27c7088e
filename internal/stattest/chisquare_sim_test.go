package stattest

import (
	"math"
	"math/rand/v2"
	"testing"
)

// multinomial draws n outcomes from the distribution q with r and returns
// the counts (inverse of the cumulative distribution, linear search: the
// distributions here are small).
func multinomial(r *rand.Rand, q []float64, n int) []int {
	counts := make([]int, len(q))
	for range n {
		u := r.Float64()
		i := 0
		for ; i < len(q)-1 && u >= q[i]; i++ {
			u -= q[i]
		}
		counts[i]++
	}
	return counts
}

// The oracle's false-failure rate, by simulation: draws from the tested
// distribution itself are rejected at level α about α of the time, with
// and without pooling. With 2000 seeded trials the number rejected is
// Binomial(2000, α) for a correct test; the accepted band is that
// distribution's mean ± 5 standard deviations (a correct oracle falls
// outside it with probability below 1e-6; the chi-square approximation's
// own error at these sizes is far smaller than the band).
func TestChiSquareFalseFailureRate(t *testing.T) {
	geometric := make([]float64, 30) // most cells expected below 5 at n = 300: pooled
	rest := 1.0
	for i := range geometric[:len(geometric)-1] {
		geometric[i] = rest / 4
		rest -= geometric[i]
	}
	geometric[len(geometric)-1] = rest
	uniform := make([]float64, 10)
	for i := range uniform {
		uniform[i] = 0.1
	}
	const trials = 2000
	for _, c := range []struct {
		name string
		q    []float64
		n    int
	}{
		{"10 equal cells, n=1000", uniform, 1000},
		{"geometric over 30 cells, pooled, n=300", geometric, 300},
	} {
		r := rand.New(rand.NewPCG(1, uint64(len(c.q))))
		rejected := map[float64]int{0.05: 0, 0.01: 0}
		for range trials {
			_, _, p := ChiSquare(multinomial(r, c.q, c.n), c.q)
			for a := range rejected {
				if p < a {
					rejected[a]++
				}
			}
		}
		for a, k := range rejected {
			mean, sd := trials*a, math.Sqrt(trials*a*(1-a))
			if float64(k) < mean-5*sd || float64(k) > mean+5*sd {
				t.Errorf("%s: %d of %d rejected at α=%v, want %.0f ± %.0f", c.name, k, trials, a, mean, 5*sd)
			}
			t.Logf("%s: %d of %d rejected at α=%v (expected %.0f)", c.name, k, trials, a, mean)
		}
	}
}

// The oracle's power against a stated departure, and the negative control
// of the statistical suites' oracle itself: 0.02 of the mass moved between
// two of 10 equal cells (0.08 and 0.12 instead of 0.1), n = 10000 draws
// (the -short size of the sampler-versus-exact tests), rejected at the
// suites' level FalseFailureRate = 1e-6. Non-centrality λ = n·Σ(q−p)²/p =
// 80 gives power 0.997 (non-central chi-square with 9 df, Poisson mixture
// computed with mpmath); at half the shift (λ = 20) it would be 0.068. Of
// 200 seeded trials at least 190 must reject (a correct oracle with power
// 0.997 rejects fewer with probability below 1e-9).
func TestChiSquarePower(t *testing.T) {
	p := make([]float64, 10)
	for i := range p {
		p[i] = 0.1
	}
	q := append([]float64(nil), p...)
	q[3], q[7] = 0.08, 0.12
	r := rand.New(rand.NewPCG(2, 10))
	const trials = 200
	rejected := 0
	for range trials {
		if _, _, pv := ChiSquare(multinomial(r, q, 10000), p); pv < FalseFailureRate {
			rejected++
		}
	}
	if rejected < 190 {
		t.Errorf("power: %d of %d departures rejected at %g, want ≥ 190 (theory: 0.997)", rejected, trials, FalseFailureRate)
	}
	t.Logf("power: %d of %d departures rejected at %g", rejected, trials, FalseFailureRate)
}
