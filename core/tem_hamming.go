package core

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/wordveil/wordveil/hamming"
)

// TEMHamming is TEM (docs/MECHANISMS.md, "TEM") with the Hamming distance between 256-bit
// codes, sampled exactly in its distance-histogram form:
//
//	Pr[i] ∝ exp(−ε·d(w,i)/2) for d(w,i) ≤ γ,  Pr[⊥] ∝ (N−|L_w|)·exp(−ε·γ/2),
//
// which is the law of the Gumbel-argmax form. L_w = {i : d(w,i) ≤ γ} is found
// exactly with hamming.Index.Range; a distance bucket is drawn from at most
// 257 weights (see Privatize), then a uniform word in it; ⊥ releases a
// uniform word of W \ L_w (rejection on the distance, so no membership set
// is needed).
//
// Metric: Hamming distance. Guarantee: ε·Hamming(w,w')-metric-DP (ε per
// bit, comparable with BRR's ε).
//
// Privatize reuses per-goroutine buffers from a sync.Pool, so it does not
// allocate in steady state when the index scans.
type TEMHamming struct {
	index *hamming.Index
	eps   float64
	gamma float64
	r     int // ⌊γ⌋ capped at 256: d ≤ γ ⟺ d ≤ r for integer d
	opts  TEMOptions
	pool  sync.Pool // *temHammingScratch
}

type temHammingScratch struct {
	nbrs    []hamming.Neighbor
	count   [hamming.Bits + 1]int
	lnCount [hamming.Bits + 1]float64
	lnR     [hamming.Bits + 1]float64
}

// NewTEMHamming returns TEM over the codes of index with ε per bit and γ
// (in bits) from opts.
func NewTEMHamming(index *hamming.Index, eps float64, opts TEMOptions) (*TEMHamming, error) {
	if err := checkEpsilon(eps); err != nil {
		return nil, fmt.Errorf("TEM (Hamming): %w", err)
	}
	if index == nil || index.Len() == 0 {
		return nil, fmt.Errorf("TEM (Hamming): %w", ErrEmptyVocabulary)
	}
	gamma, err := opts.gammaFor(eps, index.Len())
	if err != nil {
		return nil, fmt.Errorf("TEM (Hamming): %w", err)
	}
	t := &TEMHamming{
		index: index,
		eps:   eps,
		gamma: gamma,
		r:     int(math.Min(math.Floor(gamma), hamming.Bits)),
		opts:  opts,
	}
	t.pool.New = func() any { return new(temHammingScratch) }
	return t, nil
}

// Privatize returns TEM's output for word w.
//
// The draw is a chain of Bernoulli decisions whose probabilities are
// computed in log space and drawn with bernoulliLog, so none underflows or
// rounds to zero: first ⊥ against the ball, then, distance by distance
// from 0, "this bucket" against "a farther one" (each of these has
// probability at least 1/N, so is represented to ~2^-48 relative error),
// then a uniform word of the bucket.
func (t *TEMHamming) Privatize(w int, src rand.Source) (int, error) {
	n := t.index.Len()
	if err := checkCall("TEM (Hamming)", w, n, src); err != nil {
		return -1, err
	}
	sc := t.pool.Get().(*temHammingScratch)
	defer t.pool.Put(sc)
	codes := t.index.Codes()
	nbrs, err := t.index.Range(sc.nbrs[:0], codes[w], t.r, hamming.Options{ExpectedRadius: max(t.r, 1)})
	sc.nbrs = nbrs
	if err != nil {
		return -1, fmt.Errorf("TEM (Hamming): range search: %w", err)
	}
	sc.count = [hamming.Bits + 1]int{}
	for _, nb := range nbrs {
		sc.count[nb.Dist]++
	}
	if sc.count[0] == 0 {
		// Unreachable: w is at distance 0 from itself. Fail rather than
		// release anything from a wrong ball.
		return -1, fmt.Errorf("TEM (Hamming): word %d missing from its own ball", w)
	}
	// lnR[d] = ln Σ_{j ≥ d} count[j]·e^(−ε(j−d)/2) over non-empty buckets,
	// built from the farthest bucket inward.
	half := t.eps / 2
	next := -1
	for d := t.r; d >= 0; d-- {
		c := sc.count[d]
		if c == 0 {
			continue
		}
		sc.lnCount[d] = math.Log(float64(c))
		sc.lnR[d] = sc.lnCount[d]
		if next >= 0 {
			sc.lnR[d] = logAddExp(sc.lnCount[d], -half*float64(next-d)+sc.lnR[next])
		}
		next = d
	}
	// ⊥ against the ball: ball mass R_0, ⊥ mass (N−|L_w|)·e^(−εγ/2).
	if outside := n - len(nbrs); outside > 0 {
		x := sc.lnR[0] + half*t.gamma - math.Log(float64(outside))
		if bernoulliLog(src, -softplus(x)) {
			for {
				i := UniformInt(src, n)
				if hamming.Distance(codes[w], codes[i]) > t.r {
					return i, nil
				}
			}
		}
	}
	bucket := 0
	for d := 0; d <= t.r; d++ {
		if sc.count[d] == 0 {
			continue
		}
		bucket = d
		// Pr[d | not nearer] = count[d]/R_d; the last bucket takes the rest.
		if bernoulliLog(src, sc.lnCount[d]-sc.lnR[d]) {
			break
		}
	}
	j := UniformInt(src, sc.count[bucket])
	for _, nb := range nbrs {
		if int(nb.Dist) == bucket {
			if j == 0 {
				return int(nb.ID), nil
			}
			j--
		}
	}
	return -1, fmt.Errorf("TEM (Hamming): bucket %d miscounted", bucket)
}

// Epsilon returns the per-bit ε.
func (t *TEMHamming) Epsilon() float64 { return t.eps }

// Gamma returns γ in bits.
func (t *TEMHamming) Gamma() float64 { return t.gamma }

// Metric returns "hamming".
func (t *TEMHamming) Metric() string { return "hamming" }

// Len returns the vocabulary size.
func (t *TEMHamming) Len() int { return t.index.Len() }
