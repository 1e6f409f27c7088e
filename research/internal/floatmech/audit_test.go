package floatmech

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// Monte-Carlo DP audits on tiny vocabularies, where every output has a
// macroscopic probability: draw each word many times, bound each output
// probability with exact (Clopper–Pearson) confidence intervals, and
// require that the LOWER confidence bound of every log-ratio
// ln P[M(w)=y] − ln P[M(w')=y] stays within the guarantee. Intervals are
// Bonferroni-corrected, so a correct mechanism fails with probability
// below 1e-6 per test; the negative controls show the audit has power.

func tinyEmbedding(t *testing.T, pts [][]float64) *Embedding {
	t.Helper()
	d := len(pts[0])
	v := make([]float32, 0, len(pts)*d)
	for _, p := range pts {
		for _, x := range p {
			v = append(v, float32(x))
		}
	}
	e, err := NewEmbedding(v, d)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var (
	line1D = [][]float64{{0}, {0.3}, {0.5}, {1.4}, {2.0}, {3.1}}
	plane  = [][]float64{{0, 0}, {1, 0}, {0, 1}, {1.2, 1.1}, {-0.7, 0.4}, {2, -1}}
)

func drawCounts(t *testing.T, m mechanism.Mechanism, draws int, src rand.Source) [][]int {
	t.Helper()
	n := m.Len()
	counts := make([][]int, n)
	ws := make([]int, draws)
	out := make([]int, draws)
	for w := range n {
		counts[w] = make([]int, n)
		for i := range ws {
			ws[i] = w
		}
		if b, ok := m.(Batcher); ok {
			if err := b.PrivatizeBatch(ws, out, src, 2); err != nil {
				t.Fatal(err)
			}
		} else {
			for i := range out {
				y, err := m.Privatize(w, src)
				if err != nil {
					t.Fatal(err)
				}
				out[i] = y
			}
		}
		for _, y := range out {
			counts[w][y]++
		}
	}
	return counts
}

// cpLower and cpUpper are the exact one-sided Clopper–Pearson bounds at
// level alpha, found by bisection on the binomial tail (the regularized
// incomplete beta function): the Beta quantile functions lose all
// precision at the tiny levels a Bonferroni correction needs.
func cpLower(k, n int, alpha float64) float64 {
	if k == 0 {
		return 0
	}
	// Pr[X ≥ k | p] = I_p(k, n−k+1), increasing in p.
	return bisect(func(p float64) bool { return mathext.RegIncBeta(float64(k), float64(n-k+1), p) < alpha })
}

func cpUpper(k, n int, alpha float64) float64 {
	if k == n {
		return 1
	}
	// Pr[X ≤ k | p] = I_(1−p)(n−k, k+1), decreasing in p.
	return bisect(func(p float64) bool { return mathext.RegIncBeta(float64(n-k), float64(k+1), 1-p) > alpha })
}

// bisect returns the p in [0, 1] where below(p) turns false.
func bisect(below func(float64) bool) float64 {
	lo, hi := 0.0, 1.0
	for range 80 {
		mid := (lo + hi) / 2
		if below(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// violation is the largest lower-confidence excess found: for pure
// (metric) DP, max over w, w', y of lnLo(P_w(y)) − lnHi(P_w'(y)) −
// bound(w, w'); for (ε, δ), the excess of Lo(P_w(y)) − e^ε·Hi(P_w'(y))
// over δ. Positive means the audit proved a violation.
func violation(counts [][]int, draws int, bound func(w, w2 int) float64, delta float64) (worst float64, where string) {
	n := len(counts)
	alpha := 1e-6 / float64(n*n*n)
	worst = math.Inf(-1)
	for w := range n {
		for w2 := range n {
			if w == w2 {
				continue
			}
			for y := range n {
				lo := cpLower(counts[w][y], draws, alpha)
				if lo == 0 {
					continue
				}
				hi := cpUpper(counts[w2][y], draws, alpha)
				var v float64
				if delta == 0 {
					v = math.Log(lo) - math.Log(hi) - bound(w, w2)
				} else {
					v = lo - math.Exp(bound(w, w2))*hi - delta
				}
				if v > worst {
					worst, where = v, fmt.Sprintf("w=%d w'=%d y=%d: counts %d vs %d", w, w2, y, counts[w][y], counts[w2][y])
				}
			}
		}
	}
	return worst, where
}

func auditDraws(t *testing.T) int {
	if testing.Short() {
		return 20000
	}
	return 100000
}

// singleDraws is the size of the chi-square tests of the one-draw path
// (Privatize) and of their negative controls: auditDraws in test-full,
// 2000 with -short. Each single draw runs one nearest-neighbour search
// whose buffers the race detector makes about 50 times slower (1.5 ms a
// draw), while the batch path, the same sampler with batched searches,
// keeps auditDraws per word. 2000 draws reject each control (a factor
// dropped or a truncation changed, checked by the tests that use it),
// not small departures, which the batch tests are there to catch.
func singleDraws(t *testing.T) int {
	if testing.Short() {
		return 2000
	}
	return auditDraws(t)
}

func euclidBound(e *Embedding, eps float64) func(w, w2 int) float64 {
	return func(w, w2 int) float64 {
		var s float64
		for i, x := range e.Vector(w) {
			d := float64(x) - float64(e.Vector(w2)[i])
			s += d * d
		}
		return eps * math.Sqrt(s)
	}
}

func TestAuditMetricDP(t *testing.T) {
	e1, e2 := tinyEmbedding(t, line1D), tinyEmbedding(t, plane)
	must := func(m mechanism.Mechanism, err error) mechanism.Mechanism {
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	mahal := must(NewMahalanobis(e2, 1.5, 0.5))
	cases := []struct {
		name  string
		m     mechanism.Mechanism
		bound func(w, w2 int) float64
	}{
		{"madlib 1-D", must(NewMadlib(e1, 2)), euclidBound(e1, 2)},
		{"madlib 2-D", must(NewMadlib(e2, 1.5)), euclidBound(e2, 1.5)},
		{"vickrey t=0.5 2-D", must(NewVickrey(e2, 1.5, 0.5)), euclidBound(e2, 1.5)},
		{"vickrey t=1 2-D", must(NewVickrey(e2, 1.5, 1)), euclidBound(e2, 1.5)},
		{"vickrey k=3 2-D", must(NewVickreyK(e2, 1.5, []float64{1, 2, 0.5})), euclidBound(e2, 1.5)},
		{"vickrey t=0.5 1-D", must(NewVickrey(e1, 2, 0.5)), euclidBound(e1, 2)},
		{"mahalanobis λ=0.5 2-D", mahal, mahalanobisBound(t, e2, 0.5, 1.5)},
	}
	draws := auditDraws(t)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			counts := drawCounts(t, tc.m, draws, seeded(byte(40+i)))
			if v, where := violation(counts, draws, tc.bound, 0); v > 0 {
				t.Errorf("DP violation proved: excess %.3f at %s", v, where)
			}
			// Power: the same counts prove a violation of a guarantee a
			// third as strong, so the audit is not vacuous.
			third := func(w, w2 int) float64 { return tc.bound(w, w2) / 3 }
			if v, _ := violation(counts, draws, third, 0); !(v > 0) {
				t.Errorf("the audit cannot tell ε from ε/3 (excess %.3f)", v)
			}
		})
	}
}

// mahalanobisBound is ε·‖Σ_λ^(−1/2)(x − x')‖, computed independently of
// the mechanism from Σ_λ's inverse.
func mahalanobisBound(t *testing.T, e *Embedding, lambda, eps float64) func(w, w2 int) float64 {
	s, err := SigmaLambda(e, lambda)
	if err != nil {
		t.Fatal(err)
	}
	d := e.Dim()
	var inv mat.Dense
	if err := inv.Inverse(mat.NewDense(d, d, s)); err != nil {
		t.Fatal(err)
	}
	return func(w, w2 int) float64 {
		diff := make([]float64, d)
		for i := range diff {
			diff[i] = float64(e.Vector(w)[i]) - float64(e.Vector(w2)[i])
		}
		x := mat.NewVecDense(d, diff)
		return eps * math.Sqrt(mat.Inner(x, &inv, x))
	}
}

// TestAuditCatchesVickreyExcludingInput: the published Algorithm 1 (search
// W∖{w}) never releases the input, while a neighbour releases it often.
func TestAuditCatchesVickreyExcludingInput(t *testing.T) {
	e := tinyEmbedding(t, plane)
	for _, tt := range []float64{0, 0.5} {
		v, err := NewVickrey(e, 1.5, tt)
		if err != nil {
			t.Fatal(err)
		}
		v.excludeInput = true
		draws := auditDraws(t)
		counts := drawCounts(t, v, draws, seeded(60))
		for w := range counts {
			if counts[w][w] != 0 {
				t.Fatalf("t=%v: the excluding variant released its input", tt)
			}
		}
		if x, where := violation(counts, draws, euclidBound(e, 1.5), 0); !(x > 0) {
			t.Errorf("t=%v: the audit missed the input-excluding Vickrey (best excess %.3f at %s)", tt, x, where)
		}
	}
}

// TestMadlib1DExact compares Madlib's output frequencies in 1-D with its
// closed form: the noise is Laplace(1/ε) and the output is y exactly when
// the noisy point falls in y's Voronoi interval.
func TestMadlib1DExact(t *testing.T) {
	e := tinyEmbedding(t, line1D)
	const eps = 2.0
	m, err := NewMadlib(e, eps)
	if err != nil {
		t.Fatal(err)
	}
	draws := auditDraws(t)
	counts := drawCounts(t, m, draws, seeded(61))
	lap := distuv.Laplace{Scale: 1 / eps}
	n := len(line1D)
	for w := range n {
		var chi float64
		cells := 0
		for y := range n {
			lo, hi := math.Inf(-1), math.Inf(1)
			if y > 0 {
				lo = (line1D[y-1][0] + line1D[y][0]) / 2
			}
			if y < n-1 {
				hi = (line1D[y][0] + line1D[y+1][0]) / 2
			}
			p := lap.CDF(hi-line1D[w][0]) - lap.CDF(lo-line1D[w][0])
			exp := p * float64(draws)
			if exp < 5 {
				if counts[w][y] > int(exp)+40 {
					t.Errorf("w=%d y=%d: %d draws where %.2f expected", w, y, counts[w][y], exp)
				}
				continue
			}
			d := float64(counts[w][y]) - exp
			chi += d * d / exp
			cells++
		}
		crit := distuv.ChiSquared{K: float64(cells - 1)}.Quantile(1 - 1e-5)
		if chi > crit {
			t.Errorf("w=%d: χ² = %.1f > %.1f (%d cells)", w, chi, crit, cells)
		}
	}
}

func TestAuditClippedBaselines(t *testing.T) {
	// Pure word-level DP for Laplace: every pair within ε, whatever the
	// distance; Gaussian within (ε, δ).
	e := tinyEmbedding(t, plane)
	draws := auditDraws(t)
	lap, err := NewLaplace(e, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	counts := drawCounts(t, lap, draws, seeded(62))
	if v, where := violation(counts, draws, func(int, int) float64 { return 1 }, 0); v > 0 {
		t.Errorf("laplace: ε-DP violation proved: %.3f at %s", v, where)
	}
	g, err := NewGaussian(e, 1, 1, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	counts = drawCounts(t, g, draws, seeded(63))
	if v, where := violation(counts, draws, func(int, int) float64 { return 1 }, 1e-3); v > 0 {
		t.Errorf("gaussian: (ε, δ) violation proved: %.4f at %s", v, where)
	}
}

// TestTrLaplaceClaimFails is the counterexample to Theorem 3 of the
// TrLaplace paper (docs/REFERENCES.md), in d = 2 with the paper's δ = 4^−d = 1/16. Words
// w = (C, 0) and w' = (−C, 0), and z placed so that its Voronoi cell
// starts exactly where w”s noisy points end (r₁ ≤ −C + A). Then
// Pr[M(w') = z] = 0 while Pr[M(w) = z] = Pr[η₁ > A − 2C] ≈ 2C/2A ≈ 1/4 at
// small ε: far above δ. The audit proves the violation, and TrueDelta
// accounts for it.
func TestTrLaplaceClaimFails(t *testing.T) {
	const c, eps = 1.0, 0.05
	p, err := NewTrLaplaceParams(eps, c, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	z := 2*p.A - 3*c // the w–z boundary (C + z)/2 equals A − C
	e := tinyEmbedding(t, [][]float64{{c, 0}, {-c, 0}, {z, 0}})
	m, err := NewTrLaplace(e, eps, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if m.P.DPrime != 2 || math.Abs(math.Exp(m.P.LnDelta)-1.0/16) > 1e-15 {
		t.Fatalf("unexpected parameters %+v", m.P)
	}
	draws := auditDraws(t)
	counts := drawCounts(t, m, draws, seeded(64))
	if counts[1][2] != 0 {
		t.Fatalf("w' reached z %d times: the construction is wrong", counts[1][2])
	}
	want := p.tail(p.A - 2*c)
	got := float64(counts[0][2]) / float64(draws)
	if math.Abs(got-want) > 5*math.Sqrt(want*(1-want)/float64(draws)) {
		t.Errorf("Pr[M(w)=z] = %.4f, expected %.4f", got, want)
	}
	delta := math.Exp(m.P.LnDelta)
	v, where := violation(counts, draws, func(int, int) float64 { return eps }, delta)
	if !(v > 0) {
		t.Fatalf("the audit did not prove Theorem 3's violation (excess %.4f)", v)
	}
	t.Logf("claimed δ = %.4f; proved excess %.4f at %s; P[M(w)=z] ≈ %.4f", delta, v, where, got)
	if td, _ := p.TrueDelta(); td < want-1e-12 {
		t.Errorf("TrueDelta %.4f below the exhibited %.4f", td, want)
	}
}
