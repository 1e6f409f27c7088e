package floatmech

import (
	"fmt"
	"math/rand/v2"

	"github.com/wordveil/wordveil/research/internal/euclid"
)

// SanTextSensitivity is the sensitivity SanText calibrates its utility
// u(w, y) = −‖φ(w) − φ(y)‖₂ with: 1 per unit of distance between inputs,
// because |u(w, y) − u(w', y)| ≤ ‖φ(w) − φ(w')‖₂ (the triangle
// inequality). It is a metric sensitivity: the utility's range is the
// vocabulary's diameter, so SanText is not ε-DP at word level.
const SanTextSensitivity = 1.0

// SanText is SanText (Yue et al., Findings of ACL 2021) on the float word
// vectors: the exponential mechanism over ALL N words, the input
// included, with the negative Euclidean distance as the utility:
//
//	Pr[M(w) = y] = exp(−ε·‖φ(w) − φ(y)‖₂/2) / Σ_z exp(−ε·‖φ(w) − φ(z)‖₂/2).
//
// Guarantee: ε·‖φ(w) − φ(w')‖₂ metric DP for every pair of words. The
// numerator moves by at most e^(ε·d(w,w')/2) between w and w' (triangle
// inequality), and so does every term of the normalizer.
//
// Departures from the paper, which uses this very form with the
// Euclidean distance between GloVe vectors: the vocabulary is the
// asset's N words (the paper takes the words of the task's corpus), the
// vectors are the asset's (100-d GloVe in the research asset, not the
// paper's 300-d), and SanText+'s split into sensitive and non-sensitive
// words is not implemented here (the on-device SanText+ is in package
// mechanism, over Hamming codes). The paper samples from the normalized
// probabilities as floats, which rounds the smallest weights to zero;
// here the draw is the Gumbel-max trick on the log-weights (untruncated
// Gumbel tails, sample.Gumbel), so every word keeps a positive
// probability. Each draw costs O(N·d): there is no approximate search.
type SanText struct {
	expMech
	eps  float64
	coef float64 // ε/(2Δu); tests double it (the dropped factor 2)
}

// NewSanText returns SanText at ε over emb.
func NewSanText(emb *Embedding, eps float64) (*SanText, error) {
	if err := checkEps(eps); err != nil {
		return nil, fmt.Errorf("santext: %w", err)
	}
	if emb == nil {
		return nil, fmt.Errorf("santext: %w: nil embedding", ErrInvalidParameter)
	}
	s := &SanText{eps: eps, coef: eps / (2 * SanTextSensitivity)}
	s.expMech = expMech{name: "santext", emb: emb, scores: s.scores}
	return s, nil
}

// Epsilon implements mechanism.Mechanism.
func (s *SanText) Epsilon() float64 { return s.eps }

// Len implements mechanism.Mechanism.
func (s *SanText) Len() int { return s.emb.Len() }

// Metric implements mechanism.Mechanism.
func (s *SanText) Metric() string { return "euclidean" }

// scores writes the log-weight −ε·‖φ(w) − φ(y)‖₂/2 of every y into dst
// (length N), the distance in float64 (euclid.Dist).
func (s *SanText) scores(w int, dst []float64) {
	v := s.emb.Vector(w)
	for y := range dst {
		dst[y] = -s.coef * euclid.Dist(v, s.emb.Vector(y))
	}
}

// Privatize releases one word for w.
func (s *SanText) Privatize(w int, src rand.Source) (int, error) { return s.privatize(w, src) }

// PrivatizeBatch implements Batcher, as SynTF's does (see expMech).
func (s *SanText) PrivatizeBatch(ws []int, out []int, src rand.Source, workers int) error {
	return s.privatizeBatch(ws, out, src, workers)
}
