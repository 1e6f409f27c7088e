package sample

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
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

// fit is the verdict of every chi-square test here: counts against the law
// p must pass at stattest.FalseFailureRate, unless the case is a negative
// control (draws from a deliberately wrong sampler or parameter), which
// must be rejected, so that each test shows it can fail at its size.
func fit(t *testing.T, name string, control bool, counts []int, p []float64) {
	t.Helper()
	stat, df, pv := stattest.ChiSquare(counts, p)
	switch {
	case !control && pv < stattest.FalseFailureRate:
		t.Errorf("%s: chi2=%.1f df=%d p=%.3g < %g", name, stat, df, pv, stattest.FalseFailureRate)
	case control && pv >= stattest.FalseFailureRate:
		t.Errorf("negative control %s not rejected: chi2=%.1f df=%d p=%.3g", name, stat, df, pv)
	}
}

// Every one of the 64 mask bits is set with probability q, independently
// of the others (checked on the popcount law, Binomial(64, q)). Control:
// masks drawn at q = 0.21 against the law of 0.2 (20000 masks detect it:
// the mean popcount moves by 0.64 with standard error 0.023).
func TestBernoulliMask(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("mask"))
	const q, draws = 0.2, 20000
	binom := make([]float64, 65)
	for k := range binom {
		lc, _ := math.Lgamma(65)
		la, _ := math.Lgamma(float64(k + 1))
		lb, _ := math.Lgamma(float64(65 - k))
		binom[k] = math.Exp(lc - la - lb + float64(k)*math.Log(q) + float64(64-k)*math.Log(1-q))
	}
	for _, c := range []struct {
		drawQ   float64
		control bool
	}{{q, false}, {0.21, true}} {
		th := BernoulliThreshold(c.drawQ)
		perBit := make([]int, 64)
		pop := make([]int, 65)
		for range draws {
			m := Mask64(src, th)
			pop[bits.OnesCount64(m)]++
			for i := range 64 {
				perBit[i] += int(m >> i & 1)
			}
		}
		fit(t, "popcount law of masks drawn at q="+strconv.FormatFloat(c.drawQ, 'g', -1, 64), c.control, pop, binom)
		if c.control {
			continue
		}
		for i, c := range perBit {
			// 5σ band on each bit's frequency.
			if sd := math.Sqrt(draws * q * (1 - q)); math.Abs(float64(c)-draws*q) > 5*sd {
				t.Errorf("bit %d set %d times, want %.0f±%.0f", i, c, draws*q, 5*sd)
			}
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
		fit(t, "UniformInt n="+strconv.Itoa(n), false, counts, p)
	}
	// For n = 3·2^61, modulo reduction would make [0, 2^62) twice as
	// likely as the rest; the unbiased draw gives it probability 2/3.
	// (3·2^29 and 2^30 where int has 32 bits.) Control: the modulo draw
	// itself (probability 3/4 below 2^62) is rejected by the same test.
	n, draws := 3<<(bits.UintSize-3), 30000
	for _, c := range []struct {
		name    string
		draw    func() int
		control bool
	}{
		{"UniformInt n=3·2^61", func() int { return UniformInt(src, n) }, false},
		{"modulo reduction n=3·2^61", func() int { return int(src.Uint64() >> (64 - bits.UintSize + 1) % uint64(n)) }, true},
	} {
		low := 0
		for range draws {
			if c.draw() < 1<<(bits.UintSize-2) {
				low++
			}
		}
		fit(t, c.name, c.control, []int{low, draws - low}, []float64{2.0 / 3, 1.0 / 3})
	}
	defer func() {
		if recover() == nil {
			t.Error("UniformInt(0) did not panic")
		}
	}()
	UniformInt(src, 0)
}

// Gumbel(0, β) has CDF exp(−exp(−x/β)); test 40 equiprobable cells.
// Control: draws at β = 0.44 against the cells of 0.4.
func TestGumbel(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("gumbel"))
	const beta, cells = 0.4, 40
	edges := make([]float64, cells-1) // quantiles −β·ln(−ln(k/cells))
	for k := range edges {
		edges[k] = -beta * math.Log(-math.Log(float64(k+1)/cells))
	}
	p := make([]float64, cells)
	for i := range p {
		p[i] = 1.0 / cells
	}
	for _, c := range []struct {
		drawBeta float64
		control  bool
	}{{beta, false}, {0.44, true}} {
		counts := make([]int, cells)
		for range 40000 {
			x := Gumbel(src, c.drawBeta)
			if math.IsInf(x, 0) || math.IsNaN(x) {
				t.Fatalf("non-finite Gumbel %v", x)
			}
			k := 0
			for k < len(edges) && x > edges[k] {
				k++
			}
			counts[k]++
		}
		fit(t, "Gumbel drawn at β="+strconv.FormatFloat(c.drawBeta, 'g', -1, 64), c.control, counts, p)
	}
}
