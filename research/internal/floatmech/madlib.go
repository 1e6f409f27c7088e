package floatmech

import (
	"fmt"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/mechanism"
)

// Madlib is the multivariate Laplace mechanism of Feyisetan et al. (CMP;
// Algorithm 1 of the TEM and BRR papers, docs/REFERENCES.md): noise with density
// ∝ exp(−ε‖z‖₂), then the exact nearest word. Guarantee: ε·‖φ(w)−φ(w')‖₂
// metric DP.
type Madlib struct{ pipeline }

// NewMadlib returns Madlib at ε over emb.
func NewMadlib(emb *Embedding, eps float64) (*Madlib, error) {
	if err := checkEps(eps); err != nil {
		return nil, fmt.Errorf("madlib: %w", err)
	}
	m := &Madlib{pipeline{name: "madlib", emb: emb, eps: eps, k: 1}}
	m.noisy = madlibNoise(emb, eps)
	return m, nil
}

// Metric implements mechanism.Mechanism.
func (m *Madlib) Metric() string { return "euclidean" }

// madlibNoise adds r·u to φ(w): r ~ Gamma(d, 1/ε), u uniform on the sphere
// (the polar form of the density ∝ exp(−ε‖z‖₂)).
func madlibNoise(emb *Embedding, eps float64) func([]float64, int, rand.Source) {
	return func(q []float64, w int, src rand.Source) {
		unitDirection(src, q) // q holds u until addTo overwrites it in place
		r := gammaRadius(src, len(q), eps)
		addTo(q, emb.Vector(w), r, q)
	}
}

func checkEps(eps float64) error {
	if !(eps > 0) || eps > 1e300 {
		return fmt.Errorf("%w (got %v)", mechanism.ErrInvalidEpsilon, eps)
	}
	return nil
}
