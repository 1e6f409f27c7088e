package study

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/mechanism"
	"github.com/wordveil/wordveil/research/euclid"
	"github.com/wordveil/wordveil/research/floatmech"
)

// temEuclid is TEM (the TEM paper's Algorithms 2–3) with the Euclidean
// metric over the whole vocabulary of float vectors: the TEM paper's own
// setting, which the phone cannot run (the precomputed lists of the
// default asset only serve ε ≥ 8.35). It samples the exact closed form:
// Pr[y] ∝ exp(−ε·d(w,y)/2) for y in the γ-ball L_w and ⊥ with mass
// (N−|L_w|)·exp(−ε·γ/2), released as a uniform word outside the ball —
// that is, every word y has weight exp(−ε·min(d(w,y), γ)/2). One pass over
// the vocabulary per input word builds the cumulative weights; each draw
// is then a binary search. Guarantee: ε·d metric DP (Theorem 4.1), γ from
// Theorem 4.2 with β = 0.001.
type temEuclid struct {
	emb        *floatmech.Embedding
	eps, gamma float64
}

func newTEM(emb *floatmech.Embedding, eps float64) (*temEuclid, error) {
	g, err := mechanism.TheoremGamma(eps, mechanism.DefaultBeta, emb.Len())
	if err != nil {
		return nil, fmt.Errorf("tem: %w", err)
	}
	return &temEuclid{emb: emb, eps: eps, gamma: g}, nil
}

// distances fills d with the exact (float64) Euclidean distance from w to
// every word.
func distances(emb *floatmech.Embedding, w int, d []float64) {
	x := emb.Vector(w)
	for y := range d {
		d[y] = euclid.Dist(x, emb.Vector(y))
	}
}

// cumulative fills cdf with the running sum of exp(−ε·(min(d, γ) − min
// d)/2) (shifted by the smallest distance, 0 for the word itself, so the
// largest weight is 1 and nothing underflows that matters).
func (t *temEuclid) cumulative(dist, cdf []float64) {
	var s float64
	for y, d := range dist {
		s += math.Exp(-t.eps * min(d, t.gamma) / 2)
		cdf[y] = s
	}
}

// drawFrom returns an index distributed by the cumulative weights.
func drawFrom(cdf []float64, src rand.Source) int {
	u := sample.UniformOpen(src) * cdf[len(cdf)-1]
	return min(sort.SearchFloat64s(cdf, u), len(cdf)-1)
}

func (t *temEuclid) drawMany(ws []int, out []int, src rand.Source) error {
	n := t.emb.Len()
	dist, cdf := make([]float64, n), make([]float64, n)
	last := -1
	for i, w := range ws {
		if w < 0 || w >= n {
			return fmt.Errorf("tem: %w: %d", mechanism.ErrWordOutOfRange, w)
		}
		if w != last {
			distances(t.emb, w, dist)
			t.cumulative(dist, cdf)
			last = w
		}
		out[i] = drawFrom(cdf, src)
	}
	return nil
}
