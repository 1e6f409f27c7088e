package attack

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/hamming"
)

// KeepKernel is a trained parametric plug-in Column for a mechanism on
// Hamming codes whose law has no closed form (BRR): the attacker models
//
//	P̂[w][y] = κ_w·[y = w] + (1 − κ_w)·e^(−λ·d(w,y)) / Z_w(λ)   y allowed, y ≠ w,
//
// Z_w(λ) the sum of e^(−λ·d(w,y)) over the allowed y ≠ w (from the
// HammingHist, so untrained words cost nothing to normalize). κ_w, the
// chance that w is released unchanged, is estimated from D training draws
// of the real sampler for each trained word, shrunk towards the pooled
// keep rate κ̄ with weight α: κ_w = (kept_w + α·κ̄)/(D + α); an untrained
// allowed word gets κ̄ and an excluded word 0. λ ≥ 0 is fitted by maximum
// likelihood on the training draws that changed the word (the
// log-likelihood is concave in λ; golden-section search on [0, MaxLambda]).
//
// Why a model rather than raw frequencies (PlugIn): BRR's off-diagonal
// probabilities are tiny and a few hundred draws see each only by luck,
// so raw counts make a frequent word that once produced y look like its
// likely source. The model is not BRR's law, so, like PlugIn, it is a
// valid attacker but not the Bayes-optimal one: its rate is a LOWER bound
// on what the best attacker recovers (at most R_k on tokens drawn from
// the prior). A column costs N distances and table look-ups.
type KeepKernel struct {
	h      *HammingHist
	lambda float64
	kappa  []float64 // κ_w
	scale  []float64 // (1 − κ_w)/Z_w(λ) (0 when w has no other allowed word)
	pow    [hamming.Bits + 1]float64
	// KeepRate is κ̄, the training draws' pooled keep rate.
	KeepRate float64
}

// MaxLambda bounds the fitted kernel rate λ (per bit): e^(−λ·256) stays a
// normal float64.
const MaxLambda = 2.0

// TrainKeepKernel trains the model on sampler m (over the histograms'
// words and allowed outputs): draws outputs for each word of train (ids
// in [0, N), duplicates ignored), drawn from src in train's order, with
// shrinkage weight alpha (finite, ≥ 0). draws is in [1, MaxPlugInDraws].
func (h *HammingHist) TrainKeepKernel(m Sampler, src rand.Source, train []int, draws int, alpha float64) (*KeepKernel, error) {
	n := h.Len()
	if n == 0 || m == nil || src == nil {
		return nil, fmt.Errorf("%w: empty histograms, nil sampler or source", ErrInvalid)
	}
	if m.Len() != n {
		return nil, fmt.Errorf("%w: sampler over %d words, histograms over %d", ErrInvalid, m.Len(), n)
	}
	if draws < 1 || draws > MaxPlugInDraws {
		return nil, fmt.Errorf("%w: %d draws per word, want in [1, %d]", ErrInvalid, draws, MaxPlugInDraws)
	}
	if !(alpha >= 0) || math.IsInf(alpha, 1) {
		return nil, fmt.Errorf("%w: shrinkage weight α = %v, want finite and ≥ 0", ErrInvalid, alpha)
	}
	kept := make(map[int]int, len(train)) // trained word → draws kept
	var order []int
	dsum := make(map[int]float64, len(train)) // trained word → Σ d over changed draws
	total, keptAll := 0, 0
	for _, w := range train {
		if w < 0 || w >= n {
			return nil, fmt.Errorf("%w: training word %d outside [0, %d)", ErrInvalid, w, n)
		}
		if _, ok := kept[w]; ok {
			continue
		}
		kept[w] = 0
		order = append(order, w)
		for range draws {
			y, err := m.Privatize(w, src)
			if err != nil {
				return nil, err
			}
			if y < 0 || y >= n || h.allowed != nil && !h.allowed[y] {
				return nil, fmt.Errorf("%w: the sampler released %d, not an allowed word of [0, %d)", ErrInvalid, y, n)
			}
			total++
			if y == w {
				kept[w]++
				keptAll++
				continue
			}
			dsum[w] += float64(hamming.Distance(h.codes[w], h.codes[y]))
		}
	}
	k := &KeepKernel{h: h, kappa: make([]float64, n), scale: make([]float64, n)}
	if total > 0 {
		k.KeepRate = float64(keptAll) / float64(total)
	}
	// λ: maximize Σ_w [−λ·dsum_w − changed_w·ln Z_w(λ)] over the trained
	// words (concave: ln Z is convex in λ).
	loglik := func(lambda float64) float64 {
		s := 0.0
		for _, w := range order {
			changed := draws - kept[w]
			if changed == 0 {
				continue
			}
			s -= lambda*dsum[w] + float64(changed)*math.Log(k.others(w, lambda))
		}
		return s
	}
	k.lambda = goldenMax(loglik, 0, MaxLambda, 60)
	for d := range k.pow {
		k.pow[d] = math.Exp(-k.lambda * float64(d))
	}
	for w := range n {
		if h.allowed != nil && !h.allowed[w] {
			k.kappa[w] = 0 // never released
		} else if c, ok := kept[w]; ok {
			k.kappa[w] = (float64(c) + alpha*k.KeepRate) / (float64(draws) + alpha)
		} else {
			k.kappa[w] = k.KeepRate
		}
		if z := k.others(w, k.lambda); z > 0 {
			k.scale[w] = (1 - k.kappa[w]) / z
		} else {
			k.kappa[w] = 1 // no other allowed word: w itself is the only output
		}
	}
	return k, nil
}

// others is Z_w(λ): Σ e^(−λ·d(w,y)) over the allowed y ≠ w.
func (k *KeepKernel) others(w int, lambda float64) float64 {
	c := &k.h.counts[w]
	z := float64(c[0]) // e^0 each
	if k.h.allowed == nil || k.h.allowed[w] {
		z-- // w itself, taken out before the sum (no cancellation)
	}
	for d := 1; d < len(c); d++ {
		if c[d] > 0 {
			z += float64(c[d]) * math.Exp(-lambda*float64(d))
		}
	}
	return z
}

// goldenMax returns the maximizer of a concave f on [lo, hi] by
// golden-section search (iters steps).
func goldenMax(f func(float64) float64, lo, hi float64, iters int) float64 {
	const g = 0.6180339887498949
	a, b := lo+(1-g)*(hi-lo), lo+g*(hi-lo)
	fa, fb := f(a), f(b)
	for range iters {
		if fa < fb {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = f(b)
		} else {
			hi, b, fb = b, a, fa
			a = lo + (1-g)*(hi-lo)
			fa = f(a)
		}
	}
	return (lo + hi) / 2
}

// Lambda is the fitted kernel rate λ.
func (k *KeepKernel) Lambda() float64 {
	if k == nil {
		return 0
	}
	return k.lambda
}

// Len is N.
func (k *KeepKernel) Len() int {
	if k == nil {
		return 0
	}
	return k.h.Len()
}

// Column writes P̂[w][y] for every w.
func (k *KeepKernel) Column(y int, dst []float64) error {
	if err := checkColumn(y, dst, k.Len()); err != nil {
		return err
	}
	if k.h.allowed != nil && !k.h.allowed[y] {
		clear(dst)
		return nil
	}
	codes := k.h.codes
	cy := codes[y]
	for w := range dst {
		dst[w] = k.pow[hamming.Distance(codes[w], cy)] * k.scale[w]
	}
	dst[y] = k.kappa[y]
	return nil
}
