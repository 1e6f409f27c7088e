package core

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/hamming"
)

// BRR is binary randomized response (the BRR paper's Algorithms 2 and 3;
// docs/MECHANISMS.md, "BRR"). Each of the 256 bits of the input word's code is flipped
// independently with probability q = 1/(1+e^ε), and the output is a
// nearest word to the noisy code over ALL of W (input included), ties
// broken uniformly at random.
//
// Metric: Hamming distance between codes. Guarantee: ε·Hamming(w, w')
// metric-DP (ε is per bit): randomized response is ε-DP per bit, so the
// noisy code is ε·Hamming-metric-DP, and the nearest-word step is
// post-processing, which needs the exact search and the unbiased tie-break
// hamming.Index provides. Useful range on the default asset: roughly
// 0.3 ≤ ε ≤ 1 (Pr[output = input] goes from ~0 at ε = 0.2 to ~1 at ε = 1).
//
// Privatize does not allocate when the index scans, which it does for the
// far queries BRR makes.
type BRR struct {
	index  *hamming.Index
	eps    float64
	thresh uint64 // BernoulliThreshold(q)
	radius int    // planner hint: the expected distance of the noisy code
	ties   hamming.Ties
}

// NewBRR returns BRR over the codes of index with per-bit ε.
func NewBRR(index *hamming.Index, eps float64) (*BRR, error) {
	if err := checkEpsilon(eps); err != nil {
		return nil, fmt.Errorf("BRR: %w", err)
	}
	if index == nil || index.Len() == 0 {
		return nil, fmt.Errorf("BRR: %w", ErrEmptyVocabulary)
	}
	q := 1 / (1 + math.Exp(eps))
	return &BRR{
		index:  index,
		eps:    eps,
		thresh: BernoulliThreshold(q),
		// The nearest word is at most as far as the input word, which is
		// 256q away on average: a hint that lets the planner pick the scan
		// for these far queries. Results never depend on it.
		radius: max(1, int(math.Round(hamming.Bits*q))),
		ties:   hamming.TiesRandom,
	}, nil
}

// Privatize returns BRR's output for word w.
func (b *BRR) Privatize(w int, src rand.Source) (int, error) {
	if err := checkCall("BRR", w, b.index.Len(), src); err != nil {
		return -1, err
	}
	q := b.index.Codes()[w]
	for i := range q {
		q[i] ^= bernoulliMask64(src, b.thresh)
	}
	nb, err := b.index.Nearest(q, hamming.Options{Ties: b.ties, Rand: src, ExpectedRadius: b.radius})
	if err != nil {
		return -1, fmt.Errorf("BRR: nearest word: %w", err)
	}
	return int(nb.ID), nil
}

// Epsilon returns the per-bit ε.
func (b *BRR) Epsilon() float64 { return b.eps }

// Metric returns "hamming".
func (b *BRR) Metric() string { return "hamming" }

// Len returns the vocabulary size.
func (b *BRR) Len() int { return b.index.Len() }

// FlipProbability returns q = 1/(1+e^ε), the per-bit flip probability.
func (b *BRR) FlipProbability() float64 { return 1 / (1 + math.Exp(b.eps)) }
