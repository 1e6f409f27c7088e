package core

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/wordveil/wordveil/binaryembed/wva"
)

// TEM is the truncated exponential mechanism (papers/tem.txt, Algorithms 2
// and 3; SPEC "TEM") on the asset's precomputed Euclidean neighbour balls.
//
// Metric: the ceil-quantized Euclidean distance d'(w,i) = q·⌈d(w,i)/q⌉
// (q = the lists' Step), which is a metric (see wva.TEMLists).
// Guarantee: ε·d'-metric-DP, hence ε·(d + q)-metric-DP for the Euclidean
// distance d.
//
// L_w is the exact γ-ball {i : d'(w,i) ≤ γ}, read from the lists; γ comes
// from Theorem 4.2 or is given, and must not exceed the lists' γ_max:
// NewTEM fails (wrapping wva.ErrGammaMax) rather than use a smaller stored
// ball, which would not be the ball Lemma 4.1 needs. Each member i scores
// −d'(w,i); the ⊥ element scores −γ + (2/ε)·ln(N − |L_w|) and exists only
// when N − |L_w| > 0. Gumbel(0, 2/ε) noise is added to every score and the
// argmax is released; if ⊥ wins, a uniformly random word of W \ L_w is.
// The Gumbel noise has unbounded tails (see Gumbel), so no word of L_w
// becomes unable to win through floating-point truncation.
//
// Privatize reuses per-goroutine buffers from a sync.Pool, so it does not
// allocate in steady state.
type TEM struct {
	lists *wva.TEMLists
	eps   float64
	gamma float64
	steps uint32 // largest k with k·Step ≤ γ: L_w is the ball prefix with Dist ≤ steps
	step  float64
	pool  sync.Pool // *temScratch
}

type temScratch struct {
	ball []wva.Neighbor
	ids  []uint32
}

// NewTEM returns TEM over lists with parameter ε and γ from opts.
func NewTEM(lists *wva.TEMLists, eps float64, opts TEMOptions) (*TEM, error) {
	if err := checkEpsilon(eps); err != nil {
		return nil, fmt.Errorf("core: TEM: %w", err)
	}
	if lists == nil || lists.Len() == 0 {
		return nil, fmt.Errorf("core: TEM: %w", ErrEmptyVocabulary)
	}
	gamma, err := opts.gammaFor(eps, lists.Len())
	if err != nil {
		return nil, fmt.Errorf("core: TEM: %w", err)
	}
	steps, err := lists.StepsFor(gamma)
	if err != nil {
		return nil, fmt.Errorf("core: TEM with ε=%v: γ=%v needs larger neighbour balls (raise ε or rebuild the lists): %w", eps, gamma, err)
	}
	t := &TEM{lists: lists, eps: eps, gamma: gamma, steps: steps, step: lists.Step()}
	t.pool.New = func() any { return new(temScratch) }
	return t, nil
}

// Privatize returns TEM's output for word w.
func (t *TEM) Privatize(w int, src rand.Source) (int, error) {
	n := t.lists.Len()
	if err := checkCall("core: TEM", w, n, src); err != nil {
		return -1, err
	}
	sc := t.pool.Get().(*temScratch)
	defer t.pool.Put(sc)
	sc.ball = t.lists.BallWithin(w, t.steps, sc.ball[:0])
	scale := 2 / t.eps
	best, pick := math.Inf(-1), -1
	for _, nb := range sc.ball {
		if s := -float64(nb.Dist)*t.step + Gumbel(src, scale); s > best {
			best, pick = s, int(nb.ID)
		}
	}
	outside := n - len(sc.ball)
	if outside > 0 {
		s := -t.gamma + scale*math.Log(float64(outside)) + Gumbel(src, scale)
		if s > best {
			return t.outside(sc, n, src), nil
		}
	}
	if pick < 0 {
		// Unreachable: L_w always holds w. Fail rather than guess.
		return -1, fmt.Errorf("core: TEM: empty ball for word %d", w)
	}
	return pick, nil
}

// outside returns a uniform word of W \ L_w by rejection: draw uniformly
// from W until the word is not in the ball (sorted ids, binary search).
// Expected draws: N/(N − |L_w|).
func (t *TEM) outside(sc *temScratch, n int, src rand.Source) int {
	sc.ids = sc.ids[:0]
	for _, nb := range sc.ball {
		sc.ids = append(sc.ids, nb.ID)
	}
	slices.Sort(sc.ids)
	for {
		i := UniformInt(src, n)
		if _, in := slices.BinarySearch(sc.ids, uint32(i)); !in {
			return i
		}
	}
}

// Epsilon returns ε.
func (t *TEM) Epsilon() float64 { return t.eps }

// Gamma returns the truncation radius γ.
func (t *TEM) Gamma() float64 { return t.gamma }

// Metric names the quantized Euclidean metric.
func (t *TEM) Metric() string {
	return fmt.Sprintf("euclidean-ceil-quantized(step=%v)", t.step)
}

// Len returns the vocabulary size.
func (t *TEM) Len() int { return t.lists.Len() }
