package mechanism

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/internal/sample"
)

// dgMech is the mechanism NewDiffractorGeometric documents.
type dgMech struct {
	lists []wva.Permutation
	n     int
	eps   float64
}

// newDG validates the parameters and builds the mechanism; see NewDiffractorGeometric.
func newDG(lists []wva.Permutation, eps float64) (*dgMech, error) {
	if err := checkEpsilon(eps); err != nil {
		return nil, fmt.Errorf("1-DG: %w", err)
	}
	n, err := checkLists("1-DG", lists)
	if err != nil {
		return nil, err
	}
	return &dgMech{lists: lists, n: n, eps: eps}, nil
}

// Privatize returns 1-DG's output for word w.
func (m *dgMech) Privatize(w int, src rand.Source) (int, error) {
	if err := checkCall("1-DG", w, m.n, src); err != nil {
		return -1, err
	}
	l := &m.lists[sample.UniformInt(src, len(m.lists))]
	p := clampPos(int(l.Pos[w])+sample.TwoSidedGeometric(src, m.eps), m.n)
	return int(l.Order[p]), nil
}

// Epsilon returns ε.
func (m *dgMech) Epsilon() float64 { return m.eps }

// Metric names the list-position metric.
func (m *dgMech) Metric() string { return listMetric(m.lists) }

// Len returns the vocabulary size.
func (m *dgMech) Len() int { return m.n }

// dtMech is the mechanism NewDiffractorTEM documents.
type dtMech struct {
	lists []wva.Permutation
	n     int
	eps   float64
	gamma float64
	r     int // ⌊γ⌋ capped at N−1: |p'−p| ≤ γ ⟺ |p'−p| ≤ r
	opts  TEMOptions
}

// newDT validates the parameters and builds the mechanism; see NewDiffractorTEM.
func newDT(lists []wva.Permutation, eps float64, opts TEMOptions) (*dtMech, error) {
	if err := checkEpsilon(eps); err != nil {
		return nil, fmt.Errorf("1-DT: %w", err)
	}
	n, err := checkLists("1-DT", lists)
	if err != nil {
		return nil, err
	}
	gamma, err := opts.gammaFor(eps, n)
	if err != nil {
		return nil, fmt.Errorf("1-DT: %w", err)
	}
	return &dtMech{
		lists: lists, n: n, eps: eps, gamma: gamma, opts: opts,
		r: int(math.Min(math.Floor(gamma), float64(n-1))),
	}, nil
}

// Privatize returns 1-DT's output for word w.
//
// It decides ⊥ against the ball with bernoulliLog on a probability
// computed in log space (never rounded to zero), then draws the offset
// within the ball as a two-sided geometric with parameter ε/2 (weights
// e^(−ε|k|/2), exactly TEM's), rejected until it lands in the ball:
// rejection from an exact sampler yields the exact conditional law. The
// acceptance probability is at least 1/(1+e^(−ε/2)) > 1/2 unless γ is
// below 1/ε or so, which only a given γ can make it.
func (m *dtMech) Privatize(w int, src rand.Source) (int, error) {
	if err := checkCall("1-DT", w, m.n, src); err != nil {
		return -1, err
	}
	l := &m.lists[sample.UniformInt(src, len(m.lists))]
	p := int(l.Pos[w])
	left, right := min(p, m.r), min(m.n-1-p, m.r) // ball = [p−left, p+right]
	half := m.eps / 2
	if outside := m.n - (left + right + 1); outside > 0 {
		// Ball mass 1 + Σ_{k=1..left} ρ^k + Σ_{k=1..right} ρ^k, ρ = e^(−ε/2),
		// with Σ_{k=1..a} ρ^k = ρ·(1 − ρ^a)/(1 − ρ) via expm1 (no
		// cancellation for small ε).
		g := math.Exp(-half) / -math.Expm1(-half)
		mass := 1 - g*math.Expm1(-half*float64(left)) - g*math.Expm1(-half*float64(right))
		x := math.Log(mass) + half*m.gamma - math.Log(float64(outside))
		if sample.BernoulliLog(src, -sample.Softplus(x)) {
			// ⊥: a uniform position of [0, p−left) ∪ (p+right, N−1].
			j := sample.UniformInt(src, outside)
			if j >= p-left {
				j += left + right + 1
			}
			return int(l.Order[j]), nil
		}
	}
	if left == 0 && right == 0 {
		return int(l.Order[p]), nil
	}
	for {
		if k := sample.TwoSidedGeometric(src, half); k >= -left && k <= right {
			return int(l.Order[p+k]), nil
		}
	}
}

// Epsilon returns ε.
func (m *dtMech) Epsilon() float64 { return m.eps }

// Gamma returns γ in list positions.
func (m *dtMech) Gamma() float64 { return m.gamma }

// Metric names the list-position metric.
func (m *dtMech) Metric() string { return listMetric(m.lists) }

// Len returns the vocabulary size.
func (m *dtMech) Len() int { return m.n }
