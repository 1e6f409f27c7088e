package sample

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/stattest"
)

func TestBernoulliThreshold(t *testing.T) {
	for _, c := range []struct {
		q    float64
		want uint64
	}{
		{0, 0}, {-1, 0}, {math.NaN(), 0}, {1, math.MaxUint64}, {2, math.MaxUint64},
		{0.5, 1 << 63}, {0.25, 1 << 62}, {0x1p-64, 1},
		{1 / 3.0, uint64(math.Ldexp(1/3.0, 64))},
		{math.Nextafter(1, 0), math.MaxUint64 - (1<<11 - 1)}, // (1−2^-53)·2^64
	} {
		if got := BernoulliThreshold(c.q); got != c.want {
			t.Errorf("BernoulliThreshold(%v) = %d, want %d", c.q, got, c.want)
		}
	}
}

// Every one of the 64 mask bits is set with probability q, independently
// of the others (checked on the popcount law, Binomial(64, q)).
func TestBernoulliMask(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("mask"))
	const q, draws = 0.2, 20000
	th := BernoulliThreshold(q)
	perBit := make([]int, 64)
	pop := make([]int, 65)
	for range draws {
		m := Mask64(src, th)
		pop[bits.OnesCount64(m)]++
		for i := range 64 {
			perBit[i] += int(m >> i & 1)
		}
	}
	binom := make([]float64, 65)
	for k := range binom {
		lc, _ := math.Lgamma(65)
		la, _ := math.Lgamma(float64(k + 1))
		lb, _ := math.Lgamma(float64(65 - k))
		binom[k] = math.Exp(lc - la - lb + float64(k)*math.Log(q) + float64(64-k)*math.Log(1-q))
	}
	if stat, df, p := stattest.ChiSquare(pop, binom); p < stattest.FalseFailureRate {
		t.Errorf("popcount law: chi2=%.1f df=%d p=%.3g", stat, df, p)
	}
	for i, c := range perBit {
		// 5σ band on each bit's frequency.
		if sd := math.Sqrt(draws * q * (1 - q)); math.Abs(float64(c)-draws*q) > 5*sd {
			t.Errorf("bit %d set %d times, want %.0f±%.0f", i, c, draws*q, 5*sd)
		}
	}
}

func TestUniformInt(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("uniform"))
	for _, n := range []int{1, 2, 7, 10, 1000} {
		counts := make([]int, n)
		for range 50 * n {
			counts[UniformInt(src, n)]++
		}
		p := make([]float64, n)
		for i := range p {
			p[i] = 1 / float64(n)
		}
		if stat, df, pv := stattest.ChiSquare(counts, p); pv < stattest.FalseFailureRate {
			t.Errorf("n=%d: chi2=%.1f df=%d p=%.3g", n, stat, df, pv)
		}
	}
	// For n = 3·2^61, modulo reduction would make [0, 2^62) twice as
	// likely as the rest; the unbiased draw gives it probability 2/3.
	// (3·2^29 and 2^30 where int has 32 bits.)
	n, low, draws := 3<<(bits.UintSize-3), 0, 30000
	for range draws {
		if UniformInt(src, n) < 1<<(bits.UintSize-2) {
			low++
		}
	}
	if stat, _, p := stattest.ChiSquare([]int{low, draws - low}, []float64{2.0 / 3, 1.0 / 3}); p < stattest.FalseFailureRate {
		t.Errorf("n=3·2^61: %d of %d below 2^62 (chi2=%.1f)", low, draws, stat)
	}
	defer func() {
		if recover() == nil {
			t.Error("UniformInt(0) did not panic")
		}
	}()
	UniformInt(src, 0)
}

// Gumbel(0, β) has CDF exp(−exp(−x/β)); test 40 equiprobable cells.
func TestGumbel(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("gumbel"))
	const beta, cells = 0.4, 40
	edges := make([]float64, cells-1) // quantiles −β·ln(−ln(k/cells))
	for k := range edges {
		edges[k] = -beta * math.Log(-math.Log(float64(k+1)/cells))
	}
	counts := make([]int, cells)
	p := make([]float64, cells)
	for i := range p {
		p[i] = 1.0 / cells
	}
	for range 40000 {
		x := Gumbel(src, beta)
		if math.IsInf(x, 0) || math.IsNaN(x) {
			t.Fatalf("non-finite Gumbel %v", x)
		}
		k := 0
		for k < len(edges) && x > edges[k] {
			k++
		}
		counts[k]++
	}
	if stat, df, pv := stattest.ChiSquare(counts, p); pv < stattest.FalseFailureRate {
		t.Errorf("chi2=%.1f df=%d p=%.3g", stat, df, pv)
	}
}
