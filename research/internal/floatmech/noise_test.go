package floatmech

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	evalseed "github.com/wordveil/wordveil/internal/seeded"
	"gonum.org/v1/gonum/stat/distuv"
)

func seeded(tag byte) rand.Source {
	var s [32]byte
	s[0] = tag
	return evalseed.Key(s)
}

// ksCritical is the Kolmogorov–Smirnov critical value at significance
// 1e-4 for n samples (asymptotic: √(ln(2/α)/2)/√n), so a correct sampler
// fails about once in 10,000 runs of each test.
func ksCritical(n int) float64 { return math.Sqrt(math.Log(2/1e-4)/2) / math.Sqrt(float64(n)) }

// ksStat returns sup |F_n − F| for the samples (sorted in place).
func ksStat(xs []float64, cdf func(float64) float64) float64 {
	sort.Float64s(xs)
	n := float64(len(xs))
	var d float64
	for i, x := range xs {
		f := cdf(x)
		d = max(d, math.Abs(float64(i+1)/n-f), math.Abs(f-float64(i)/n))
	}
	return d
}

func checkKS(t *testing.T, name string, xs []float64, cdf func(float64) float64) {
	t.Helper()
	if d, c := ksStat(xs, cdf), ksCritical(len(xs)); d > c {
		t.Errorf("%s: KS statistic %.5f > critical %.5f (n = %d)", name, d, c, len(xs))
	}
}

func samples(t *testing.T) int {
	if testing.Short() {
		return 4000
	}
	return 40000
}

func TestGammaRadiusKS(t *testing.T) {
	src := seeded(1)
	for _, tc := range []struct {
		d   int
		eps float64
	}{{1, 1}, {2, 0.5}, {100, 1}, {100, 20}, {300, 2}} {
		n := samples(t)
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = gammaRadius(src, tc.d, tc.eps)
		}
		g := distuv.Gamma{Alpha: float64(tc.d), Beta: tc.eps} // Beta is the rate
		checkKS(t, "gamma radius", xs, g.CDF)
	}
}

func TestDirectionUniform(t *testing.T) {
	src := seeded(2)
	n := samples(t)
	// d = 2: the angle is uniform on (−π, π].
	u := make([]float64, 2)
	xs := make([]float64, n)
	for i := range xs {
		unitDirection(src, u)
		if math.Abs(u[0]*u[0]+u[1]*u[1]-1) > 1e-12 {
			t.Fatalf("not a unit vector: %v", u)
		}
		xs[i] = math.Atan2(u[1], u[0])
	}
	checkKS(t, "angle (d=2)", xs, func(x float64) float64 { return (x + math.Pi) / (2 * math.Pi) })
	// d = 100: each coordinate of a uniform unit vector satisfies
	// (u_i+1)/2 ~ Beta((d−1)/2, (d−1)/2); check two coordinates and the
	// projection on a fixed oblique axis.
	const d = 100
	u = make([]float64, d)
	axis := make([]float64, d)
	for i := range axis {
		axis[i] = 1 / math.Sqrt(d)
	}
	a, b, c := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		unitDirection(src, u)
		var p float64
		for j := range u {
			p += u[j] * axis[j]
		}
		a[i], b[i], c[i] = (u[0]+1)/2, (u[d-1]+1)/2, (p+1)/2
	}
	beta := distuv.Beta{Alpha: (d - 1) / 2.0, Beta: (d - 1) / 2.0}
	checkKS(t, "coordinate 0 (d=100)", a, beta.CDF)
	checkKS(t, "coordinate 99 (d=100)", b, beta.CDF)
	checkKS(t, "oblique projection (d=100)", c, beta.CDF)
}

func TestLaplaceKS(t *testing.T) {
	src := seeded(3)
	xs := make([]float64, samples(t))
	for i := range xs {
		xs[i] = laplace(src, 2.5)
	}
	checkKS(t, "laplace", xs, distuv.Laplace{Mu: 0, Scale: 2.5}.CDF)
}

func TestGaussianKSAndSigma(t *testing.T) {
	src := seeded(4)
	n := samples(t)
	xs := make([]float64, n)
	fillNormal(src, xs)
	var ss float64
	for _, x := range xs {
		ss += x * x
	}
	// n·s²/σ² ~ χ²(n): mean n, sd √(2n); 5 sd is a 1-in-3.5M failure.
	if z := (ss - float64(n)) / math.Sqrt(2*float64(n)); math.Abs(z) > 5 {
		t.Errorf("variance: Σx² = %.1f for n = %d (z = %.2f)", ss, n, z)
	}
	checkKS(t, "normal", xs, distuv.UnitNormal.CDF)
}

func TestTruncatedLaplace(t *testing.T) {
	src := seeded(5)
	for _, tc := range []struct{ eps, c, delta float64 }{
		{0.05, 1, 0}, {1, 1, 0}, {1, 3.7, 0}, {4.9, 1, 0}, {10, 1, 0}, {0.5, 1, 1e-5},
	} {
		p, err := NewTrLaplaceParams(tc.eps, tc.c, tc.delta, 100)
		if err != nil {
			t.Fatal(err)
		}
		n := samples(t)
		xs := make([]float64, n)
		var ss float64
		for i := range xs {
			x := truncLaplace(src, p.Alpha, p.A, p.mass)
			if !(x >= -p.A && x <= p.A) {
				t.Fatalf("ε=%v: sample %v outside [−%v, %v]", tc.eps, x, p.A, p.A)
			}
			xs[i] = x
			ss += x * x
		}
		checkKS(t, "truncated laplace", xs, func(x float64) float64 { return 1 - p.tail(x) })
		// The sample variance against Variance (Var[x²] ≤ A⁴ bounds the sd).
		if got, want := ss/float64(n), p.Variance(); math.Abs(got-want) > 5*p.A*p.A/math.Sqrt(float64(n)) {
			t.Errorf("ε=%v: sample variance %.4f, Variance() %.4f", tc.eps, got, want)
		}
	}
	// The edges: the extreme uniforms map inside the support.
	p, _ := NewTrLaplaceParams(1, 1, 0, 100)
	for _, u := range []float64{0x1p-1074, 0.5, 1 - 0x1p-53} {
		x := -math.Log1p(-u*p.mass) / p.Alpha
		if x > p.A*(1+1e-12) {
			t.Errorf("u = %v maps to %v > A = %v before the clamp (more than rounding)", u, x, p.A)
		}
	}
}

func TestTrLaplaceParams(t *testing.T) {
	// Theorem 3's identities: B = Δ∞/δ^(1/d'), and ε < 2δ^(1/d')√d'.
	for _, eps := range []float64{0.05, 0.5, 1, 4.99, 5, 10, 20} {
		p, err := NewTrLaplaceParams(eps, 1.5, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		root := math.Exp(p.LnDelta / float64(p.DPrime))
		if want := p.DeltaInf / root; math.Abs(p.B-want) > 1e-9*want {
			t.Errorf("ε=%v: B = %v, Δ∞/δ^(1/d') = %v", eps, p.B, want)
		}
		if !(eps < 2*root*math.Sqrt(float64(p.DPrime))) {
			t.Errorf("ε=%v: d' = %d does not satisfy the theorem's condition", eps, p.DPrime)
		}
		if p.DPrime > p.D {
			prev := math.Exp(p.LnDelta/float64(p.DPrime-1)) * 2 * math.Sqrt(float64(p.DPrime-1))
			if eps < prev {
				t.Errorf("ε=%v: d' = %d is not the smallest", eps, p.DPrime)
			}
		}
		if (eps < 5) != (p.DPrime == 100) {
			t.Errorf("ε=%v: d' = %d (the trick is needed exactly from ε = 2·4^−1·√100 = 5)", eps, p.DPrime)
		}
		// Theorem 4's bound on the per-coordinate variance, and the
		// comparison with the Laplace baseline in the same dimension.
		if v, bound := p.Variance(), 2*p.Delta1*p.Delta1/(eps*eps); !(v < bound) {
			t.Errorf("ε=%v: variance %v not below 2Δ₁²/ε² = %v", eps, v, bound)
		}
	}
	for _, bad := range []struct{ eps, c, delta float64 }{
		{0, 1, 0}, {math.NaN(), 1, 0}, {1, 0, 0}, {1, math.Inf(1), 0}, {1, 1, 1}, {1, 1, -1}, {1, 1, math.NaN()},
	} {
		if _, err := NewTrLaplaceParams(bad.eps, bad.c, bad.delta, 100); err == nil {
			t.Errorf("NewTrLaplaceParams(%v) accepted", bad)
		}
	}
}
