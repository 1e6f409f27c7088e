package floatmech

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/research/internal/euclid"
)

// Vickrey is the Vickrey mechanism of Xu et al. (the Vickrey paper's
// Algorithms 1 and 3, docs/REFERENCES.md): Madlib's noise, then a random choice among the k
// words nearest to the noisy point, searched over ALL of W.
//
// With k = 2 and t ∈ [0, 1] (Algorithm 1) the nearest word w1 is released
// with probability p = (1−t)·d2 / (t·d1 + (1−t)·d2), else w2, where d1, d2
// are their distances to the noisy point; t = 0 is Madlib. The generalized
// form (Algorithm 3) releases the r-th nearest with probability
// ∝ exp(−t_r·d_r).
//
// Guarantee: ε·‖φ(w)−φ(w')‖₂ metric DP, because the choice depends on the
// noisy point and fresh randomness only. The printed Algorithm 1 searches
// W∖{w}: then Pr[M(w) = w] = 0 < Pr[M(w') = w] and no ε bounds the ratio.
// This implementation never excludes the input.
type Vickrey struct {
	pipeline
	t  float64   // Algorithm 1's t (k = 2), or NaN for the generalized form
	ts []float64 // Algorithm 3's t_1..t_k
}

// NewVickrey returns Algorithm 1 (k = 2) at ε with tuning parameter t.
func NewVickrey(emb *Embedding, eps, t float64) (*Vickrey, error) {
	if err := checkEps(eps); err != nil {
		return nil, fmt.Errorf("vickrey: %w", err)
	}
	if !(t >= 0 && t <= 1) {
		return nil, fmt.Errorf("vickrey: %w: t = %v not in [0, 1]", ErrInvalidParameter, t)
	}
	v := &Vickrey{pipeline: pipeline{name: "vickrey", emb: emb, eps: eps, k: 2}, t: t}
	v.noisy = madlibNoise(emb, eps)
	v.pick = v.pickTwo
	return v, nil
}

// NewVickreyK returns the generalized mechanism (Algorithm 3) over the
// len(ts) nearest words with tuning parameters t_r ≥ 0.
func NewVickreyK(emb *Embedding, eps float64, ts []float64) (*Vickrey, error) {
	if err := checkEps(eps); err != nil {
		return nil, fmt.Errorf("vickrey: %w", err)
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("vickrey: %w: no tuning parameters", ErrInvalidParameter)
	}
	for r, t := range ts {
		if !(t >= 0) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("vickrey: %w: t_%d = %v must be finite and >= 0", ErrInvalidParameter, r+1, t)
		}
	}
	v := &Vickrey{pipeline: pipeline{name: "vickrey", emb: emb, eps: eps, k: len(ts)}, t: math.NaN(), ts: append([]float64(nil), ts...)}
	v.noisy = madlibNoise(emb, eps)
	v.pick = v.pickSoftmax
	return v, nil
}

// Metric implements mechanism.Mechanism.
func (v *Vickrey) Metric() string { return "euclidean" }

// T returns Algorithm 1's t (NaN for the generalized form).
func (v *Vickrey) T() float64 { return v.t }

func (v *Vickrey) pickTwo(nb []euclid.Neighbor, src rand.Source) int {
	d1, d2 := nb[0].Dist, nb[1].Dist
	den := v.t*d1 + (1-v.t)*d2
	if !(den > 0) {
		// Both weights vanish only on a null set (t = 0 with d2 = 0, t = 1
		// with d1 = 0); the nearest is the limit of p there.
		return int(nb[0].ID)
	}
	p := (1 - v.t) * d2 / den
	if sample.UniformOpen(src) < p {
		return int(nb[0].ID)
	}
	return int(nb[1].ID)
}

func (v *Vickrey) pickSoftmax(nb []euclid.Neighbor, src rand.Source) int {
	// Log-weights −t_r·d_r, shifted by their maximum so the largest weight
	// is exactly 1 and none overflows.
	var lw [16]float64
	ws := lw[:0]
	mx := math.Inf(-1)
	for r, n := range nb {
		x := -v.ts[r] * n.Dist
		ws = append(ws, x)
		mx = max(mx, x)
	}
	var total float64
	for r := range ws {
		ws[r] = math.Exp(ws[r] - mx)
		total += ws[r]
	}
	u := sample.UniformOpen(src) * total
	for r, x := range ws {
		if u < x {
			return int(nb[r].ID)
		}
		u -= x
	}
	return int(nb[len(nb)-1].ID)
}
