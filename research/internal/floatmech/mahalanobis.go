package floatmech

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// DefaultLambda is the Mahalanobis mechanism's λ used by the papers.
const DefaultLambda = 0.2

// Mahalanobis is the mechanism of Xu et al. (2020, docs/REFERENCES.md): Z = r·Σ_λ^(1/2)·u with r ~ Gamma(d, 1/ε), u uniform on
// the unit sphere and Σ_λ = λ·Σ/σ̄² + (1−λ)·I, where Σ is the covariance of
// the vocabulary's vectors and σ̄² its mean variance (trace/d). The noise
// follows the embedding's elongated directions, which keeps more utility
// for the same ε. Guarantee: ε·‖Σ_λ^(−1/2)(φ(w)−φ(w'))‖₂ metric DP (Z has
// density ∝ exp(−ε‖Σ_λ^(−1/2)z‖₂)).
type Mahalanobis struct {
	pipeline
	lambda float64
	sqrt   []float64 // Σ_λ^(1/2), d×d row-major (symmetric)
}

// NewMahalanobis returns the mechanism at ε with λ ∈ [0, 1] (λ = 0 is
// Madlib). Σ_λ^(1/2) is computed here, once, from the vocabulary.
func NewMahalanobis(emb *Embedding, eps, lambda float64) (*Mahalanobis, error) {
	if err := checkEps(eps); err != nil {
		return nil, fmt.Errorf("mahalanobis: %w", err)
	}
	if !(lambda >= 0 && lambda <= 1) {
		return nil, fmt.Errorf("mahalanobis: %w: λ = %v not in [0, 1]", ErrInvalidParameter, lambda)
	}
	sq, err := SigmaLambdaSqrt(emb, lambda)
	if err != nil {
		return nil, fmt.Errorf("mahalanobis: %w", err)
	}
	m := &Mahalanobis{pipeline: pipeline{name: "mahalanobis", emb: emb, eps: eps, k: 1}, lambda: lambda, sqrt: sq}
	d := emb.Dim()
	m.noisy = func(q []float64, w int, src rand.Source) {
		u := make([]float64, d)
		unitDirection(src, u)
		r := gammaRadius(src, d, eps)
		v := emb.Vector(w)
		for i := range q {
			row := m.sqrt[i*d : (i+1)*d]
			var s float64
			for j, x := range row {
				s += x * u[j]
			}
			q[i] = float64(v[i]) + r*s
		}
	}
	return m, nil
}

// Metric implements mechanism.Mechanism.
func (m *Mahalanobis) Metric() string { return fmt.Sprintf("mahalanobis(lambda=%g)", m.lambda) }

// Lambda returns λ.
func (m *Mahalanobis) Lambda() float64 { return m.lambda }

// SigmaLambda returns Σ_λ = λ·Σ/σ̄² + (1−λ)·I for the vocabulary's vectors
// (d×d, row-major), Σ the population covariance.
func SigmaLambda(emb *Embedding, lambda float64) ([]float64, error) {
	n, d := emb.Len(), emb.Dim()
	mean := make([]float64, d)
	for w := range n {
		for i, x := range emb.Vector(w) {
			mean[i] += float64(x)
		}
	}
	for i := range mean {
		mean[i] /= float64(n)
	}
	cov := make([]float64, d*d)
	c := make([]float64, d)
	for w := range n {
		for i, x := range emb.Vector(w) {
			c[i] = float64(x) - mean[i]
		}
		for i := range d {
			ci := c[i]
			row := cov[i*d : (i+1)*d]
			for j := i; j < d; j++ {
				row[j] += ci * c[j]
			}
		}
	}
	var trace float64
	for i := range d {
		for j := i; j < d; j++ {
			cov[i*d+j] /= float64(n)
			cov[j*d+i] = cov[i*d+j]
		}
		trace += cov[i*d+i]
	}
	meanVar := trace / float64(d)
	if !(meanVar > 0) {
		return nil, fmt.Errorf("%w: the vectors have no variance", ErrInvalidParameter)
	}
	for i := range d {
		for j := range d {
			v := lambda * cov[i*d+j] / meanVar
			if i == j {
				v += 1 - lambda
			}
			cov[i*d+j] = v
		}
	}
	return cov, nil
}

// SigmaLambdaSqrt returns the symmetric square root of Σ_λ by eigen
// decomposition (V·diag(√λ_i)·Vᵀ). Σ_λ is positive definite for λ < 1;
// for λ = 1 eigenvalues that rounding pushed below zero are set to zero.
func SigmaLambdaSqrt(emb *Embedding, lambda float64) ([]float64, error) {
	s, err := SigmaLambda(emb, lambda)
	if err != nil {
		return nil, err
	}
	d := emb.Dim()
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(d, s), true) {
		return nil, fmt.Errorf("%w: eigen decomposition of Σ_λ failed", ErrInvalidParameter)
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	out := make([]float64, d*d)
	for k, l := range vals {
		r := math.Sqrt(max(l, 0))
		for i := range d {
			vik := vecs.At(i, k) * r
			for j := range d {
				out[i*d+j] += vik * vecs.At(j, k)
			}
		}
	}
	return out, nil
}
