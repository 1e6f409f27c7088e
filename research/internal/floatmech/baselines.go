package floatmech

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Laplace is the clipped Laplace baseline of the TrLaplace paper
// (Theorem 1, docs/REFERENCES.md): clip φ(w) to norm C, add i.i.d. Laplace(Δ₁/ε) noise per
// coordinate with Δ₁ = 2√d·C (an L1 bound on the difference of two clipped
// vectors), release the nearest word. Guarantee: ε-DP at word level (for
// any two words, not scaled by their distance).
type Laplace struct {
	pipeline
	C, Scale float64
}

// NewLaplace returns the baseline at ε with clipping threshold c (≤ 0: the
// vocabulary's median norm).
func NewLaplace(emb *Embedding, eps, c float64) (*Laplace, error) {
	if err := checkEps(eps); err != nil {
		return nil, fmt.Errorf("laplace: %w", err)
	}
	if c <= 0 {
		c = emb.MedianNorm()
	}
	if math.IsInf(c, 0) || math.IsNaN(c) {
		return nil, fmt.Errorf("laplace: %w: C = %v", ErrInvalidParameter, c)
	}
	m := &Laplace{pipeline: pipeline{name: "laplace", emb: emb, eps: eps, k: 1}, C: c}
	m.Scale = 2 * math.Sqrt(float64(emb.Dim())) * c / eps
	m.noisy = func(q []float64, w int, src rand.Source) {
		clipped(q, emb, w, c)
		for i := range q {
			q[i] += laplace(src, m.Scale)
		}
	}
	return m, nil
}

// Metric implements mechanism.Mechanism.
func (m *Laplace) Metric() string { return "discrete (word-level eps-DP)" }

// Variance is the per-coordinate noise variance 2·(Δ₁/ε)².
func (m *Laplace) Variance() float64 { return 2 * m.Scale * m.Scale }

// Gaussian is the clipped Gaussian baseline of the TrLaplace paper
// (Theorem 2): clip to norm C, add N(0, σ²I) with σ² = 8C²·ln(1.25/δ)/ε²
// (the classical Gaussian mechanism for L2 sensitivity 2C), release the
// nearest word. Guarantee: (ε, δ)-DP at word level, for ε ≤ 1 only; larger
// ε is refused.
type Gaussian struct {
	pipeline
	C, Sigma, Delta float64
}

// NewGaussian returns the baseline at ε ≤ 1 with clipping threshold c (≤ 0:
// the vocabulary's median norm) and δ ∈ (0, 1) (≤ 0: 4^−d, as TrLaplace).
func NewGaussian(emb *Embedding, eps, c, delta float64) (*Gaussian, error) {
	if err := checkEps(eps); err != nil {
		return nil, fmt.Errorf("gaussian: %w", err)
	}
	if eps > 1 {
		return nil, fmt.Errorf("gaussian: %w: ε = %v > 1, where the classical Gaussian mechanism's bound does not hold", ErrInvalidParameter, eps)
	}
	if c <= 0 {
		c = emb.MedianNorm()
	}
	lnInv := 2 * math.Ln2 * float64(emb.Dim()) // ln(1/δ) for δ = 4^−d
	if delta > 0 {
		if !(delta < 1) {
			return nil, fmt.Errorf("gaussian: %w: δ = %v not in (0, 1)", ErrInvalidParameter, delta)
		}
		lnInv = -math.Log(delta)
	} else if delta < 0 || math.IsNaN(delta) {
		return nil, fmt.Errorf("gaussian: %w: δ = %v not in (0, 1)", ErrInvalidParameter, delta)
	}
	m := &Gaussian{pipeline: pipeline{name: "gaussian", emb: emb, eps: eps, k: 1}, C: c, Delta: math.Exp(-lnInv)}
	m.Sigma = math.Sqrt(8*c*c*(math.Log(1.25)+lnInv)) / eps
	d := emb.Dim()
	m.noisy = func(q []float64, w int, src rand.Source) {
		clipped(q, emb, w, c)
		z := make([]float64, d)
		fillNormal(src, z)
		for i := range q {
			q[i] += m.Sigma * z[i]
		}
	}
	return m, nil
}

// Metric implements mechanism.Mechanism.
func (m *Gaussian) Metric() string { return "discrete (word-level (eps, delta)-DP)" }

// Variance is the per-coordinate noise variance σ².
func (m *Gaussian) Variance() float64 { return m.Sigma * m.Sigma }
