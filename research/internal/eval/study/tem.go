package study

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/research/internal/floatmech"
)

// newTEM is TEM (the TEM paper's Algorithms 2–3) with the Euclidean
// metric over the whole vocabulary of float vectors: the TEM paper's own
// setting, which the phone cannot run (the precomputed lists of the
// default asset only serve ε ≥ 8.35). It samples the exact closed form:
// Pr[y] ∝ exp(−ε·d(w,y)/2) for y in the γ-ball L_w and ⊥ with mass
// (N−|L_w|)·exp(−ε·γ/2), released as a uniform word outside the ball —
// that is, every word y has weight exp(−ε·min(d(w,y), γ)/2), an expMech
// of kind distance. Guarantee: ε·d metric DP (Theorem 4.1), γ from
// Theorem 4.2 with β = 0.001.
func newTEM(emb *floatmech.Embedding, eps float64) (*expMech, error) {
	g, err := mechanism.TheoremGamma(eps, mechanism.DefaultBeta, emb.Len())
	if err != nil {
		return nil, fmt.Errorf("tem: %w", err)
	}
	return &expMech{name: "tem", emb: emb, coef: eps / 2, gamma: g}, nil
}
