package floatmech

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mathext"
)

// maxDummyDim bounds the dimension the dummy-dimension trick may reach.
const maxDummyDim = 1 << 24

// TrLaplaceParams are the constants of the TrLaplace paper's Theorem 3
// (docs/REFERENCES.md) for one (ε, C, δ, d).
type TrLaplaceParams struct {
	Epsilon float64
	C       float64 // clipping threshold
	LnDelta float64 // ln δ (δ = 4^−d underflows float64 beyond d ≈ 537)
	D       int     // the vectors' dimension
	// DPrime is the dimension Theorem 3 is applied in: D when
	// ε < 2·δ^(1/D)·√D, otherwise the smallest larger dimension for which
	// it holds (the paper's dummy-dimension trick: pad the clipped vector
	// with zero coordinates, add noise to all, drop the padding).
	DPrime   int
	Delta1   float64 // 2·√DPrime·C, the L1 sensitivity bound used
	DeltaInf float64 // 2·C
	Alpha    float64 // ε/Δ₁
	A        float64 // the truncation: every coordinate lies in [−A, A]
	B        float64 // the density's normalizer: f(x) = e^(−α|x|)/B
	mass     float64 // 1 − e^(−αA), computed without cancellation
}

// NewTrLaplaceParams computes Theorem 3's α, A and B. delta ≤ 0 means the
// paper's default δ = 4^−d.
func NewTrLaplaceParams(eps, c, delta float64, d int) (TrLaplaceParams, error) {
	if err := checkEps(eps); err != nil {
		return TrLaplaceParams{}, err
	}
	if !(c > 0) || math.IsInf(c, 0) {
		return TrLaplaceParams{}, fmt.Errorf("%w: clipping threshold C = %v must be finite and > 0", ErrInvalidParameter, c)
	}
	if d < 1 {
		return TrLaplaceParams{}, fmt.Errorf("%w: dimension %d", ErrInvalidParameter, d)
	}
	lnDelta := -float64(d) * math.Ln2 * 2
	if delta > 0 {
		if !(delta < 1) {
			return TrLaplaceParams{}, fmt.Errorf("%w: δ = %v not in (0, 1)", ErrInvalidParameter, delta)
		}
		lnDelta = math.Log(delta)
	} else if delta < 0 || math.IsNaN(delta) {
		return TrLaplaceParams{}, fmt.Errorf("%w: δ = %v not in (0, 1)", ErrInvalidParameter, delta)
	}
	// bound(d') = 2·δ^(1/d')·√d' grows with d'; Theorem 3 needs ε < bound.
	bound := func(dd int) float64 { return 2 * math.Exp(lnDelta/float64(dd)) * math.Sqrt(float64(dd)) }
	dp := d
	for !(eps < bound(dp)) {
		if dp >= maxDummyDim {
			return TrLaplaceParams{}, fmt.Errorf("%w: ε = %v needs more than %d dummy dimensions", ErrInvalidParameter, eps, maxDummyDim)
		}
		dp = max(dp+1, dp+dp/64)
	}
	// Walk back to the smallest dimension that satisfies the bound.
	for dp > d && eps < bound(dp-1) {
		dp--
	}
	p := TrLaplaceParams{Epsilon: eps, C: c, LnDelta: lnDelta, D: d, DPrime: dp}
	p.Delta1 = 2 * math.Sqrt(float64(dp)) * c
	p.DeltaInf = 2 * c
	p.Alpha = eps / p.Delta1
	p.A = -math.Log1p(-eps/bound(dp)) / p.Alpha
	p.mass = -math.Expm1(-p.Alpha * p.A)
	p.B = 2 * p.mass / p.Alpha
	return p, nil
}

// Variance is E[η_i²] of one noise coordinate: ∫ x²·e^(−α|x|)/B over
// [−A, A] = 2·P(3, αA)/(α²·(1 − e^(−αA))), with P the regularized lower
// incomplete gamma function (stable when αA is small and the noise is
// nearly uniform, where the paper's closed form (7) cancels
// catastrophically).
func (p TrLaplaceParams) Variance() float64 {
	x := p.Alpha * p.A
	return 2 * mathext.GammaIncReg(3, x) / (p.Alpha * p.Alpha * p.mass)
}

// tail returns Pr[η > t] for one coordinate.
func (p TrLaplaceParams) tail(t float64) float64 {
	switch {
	case t >= p.A:
		return 0
	case t <= -p.A:
		return 1
	case t < 0:
		return 1 - p.tail(-t)
	}
	// (e^(−αt) − e^(−αA)) / (2·(1 − e^(−αA)))
	return (math.Exp(-p.Alpha*t) - math.Exp(-p.Alpha*p.A)) / (2 * p.mass)
}

// TrueDelta returns a lower bound on the δ the noisy vector φ_C(w) + η
// really has at ε, which Theorem 3 claims is δ. For two clipped vectors
// whose difference is Δ (‖Δ‖₂ ≤ 2C), the noisy vectors' densities are
// within e^ε of each other on the intersection of their supports (the
// theorem's first step, correct), so the hockey-stick divergence is
// exactly the probability of the part of one support the other cannot
// reach: 1 − Π_i Pr[η_i ≤ A − |Δ_i|]. The proof bounds that part's volume
// by Δ∞^d, but it is a union over coordinates, not a product, and its
// probability is not small. This evaluates it for Δ spread equally over
// k coordinates (k = 1..d) and returns the largest value, with its k.
func (p TrLaplaceParams) TrueDelta() (delta float64, k int) {
	for kk := 1; kk <= p.D; kk++ {
		s := 2 * p.C / math.Sqrt(float64(kk))
		q := p.tail(p.A - s)
		v := -math.Expm1(float64(kk) * math.Log1p(-q))
		if v > delta {
			delta, k = v, kk
		}
	}
	return delta, k
}

// TrLaplace is the high-dimensional truncated Laplacian mechanism
// (the TrLaplace paper's Algorithm 1 and Theorem 3): clip φ(w) to norm C, add
// i.i.d. noise with density e^(−α|x|)/B on [−A, A] per coordinate (fresh
// for every word), release the exact nearest word to the noisy point.
//
// The paper claims (ε, δ)-DP at word level with δ = 4^−d. That proof is
// wrong for d ≥ 2 (see TrLaplaceParams.TrueDelta and
// docs/FLOAT_MECHANISMS.md): this mechanism is implemented as specified so
// that it can be compared, and its Metric says that its guarantee is not
// established.
type TrLaplace struct {
	pipeline
	P TrLaplaceParams
}

// NewTrLaplace returns TrLaplace at ε with clipping threshold c (≤ 0: the
// vocabulary's median norm) and δ (≤ 0: 4^−d).
func NewTrLaplace(emb *Embedding, eps, c, delta float64) (*TrLaplace, error) {
	if c <= 0 {
		c = emb.MedianNorm()
	}
	p, err := NewTrLaplaceParams(eps, c, delta, emb.Dim())
	if err != nil {
		return nil, fmt.Errorf("trlaplace: %w", err)
	}
	m := &TrLaplace{pipeline: pipeline{name: "trlaplace", emb: emb, eps: eps, k: 1}, P: p}
	m.noisy = func(q []float64, w int, src rand.Source) {
		clipped(q, emb, w, p.C)
		// Only the d real coordinates are drawn: the dummy ones are
		// independent of them and dropped by the projection.
		for i := range q {
			q[i] += truncLaplace(src, p.Alpha, p.A, p.mass)
		}
	}
	return m, nil
}

// Metric implements mechanism.Mechanism.
func (m *TrLaplace) Metric() string {
	return fmt.Sprintf("claimed (eps, delta=e^%.4g)-DP, word level; proof invalid for d>=2", m.P.LnDelta)
}

// clipped writes φ(w)·min(1, C/‖φ(w)‖₂) into q.
func clipped(q []float64, emb *Embedding, w int, c float64) {
	s := 1.0
	if n := emb.Norms()[w]; n > c {
		s = c / n
	}
	for i, x := range emb.Vector(w) {
		q[i] = float64(x) * s
	}
}
