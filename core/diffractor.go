package core

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/binaryembed/wva"
)

// DiffractorGeometric is 1-DG, 1-Diffractor with geometric noise
// (the 1-Diffractor paper's §3; docs/MECHANISMS.md, "1-Diffractor"). On a list π it releases
// the word at position clamp(π(w) + G, 0, N−1), with Pr[G = k] ∝ e^(−ε|k|);
// clamping is post-processing. With several lists it picks one uniformly
// at random with fresh randomness and runs on it, which has the same law as
// running on every list and releasing one result chosen uniformly.
//
// Metric: d_π(w,w') = |π(w) − π(w')|, and with several lists
// max_i d_πi(w,w'). Guarantee: ε·max_i d_πi(w,w')-metric-DP (each list's
// mechanism is ε·d_πi-DP, and a uniform mixture of them is ε·max_i d_πi-DP).
// Privatize does not allocate.
type DiffractorGeometric struct {
	lists []wva.Permutation
	n     int
	eps   float64
}

// NewDiffractorGeometric returns 1-DG over lists (not copied; treat as
// read-only) with parameter ε per list position.
func NewDiffractorGeometric(lists []wva.Permutation, eps float64) (*DiffractorGeometric, error) {
	if err := checkEpsilon(eps); err != nil {
		return nil, fmt.Errorf("1-DG: %w", err)
	}
	n, err := checkLists("1-DG", lists)
	if err != nil {
		return nil, err
	}
	return &DiffractorGeometric{lists: lists, n: n, eps: eps}, nil
}

// Privatize returns 1-DG's output for word w.
func (m *DiffractorGeometric) Privatize(w int, src rand.Source) (int, error) {
	if err := checkCall("1-DG", w, m.n, src); err != nil {
		return -1, err
	}
	l := &m.lists[UniformInt(src, len(m.lists))]
	p := clampPos(int(l.Pos[w])+TwoSidedGeometric(src, m.eps), m.n)
	return int(l.Order[p]), nil
}

// Epsilon returns ε.
func (m *DiffractorGeometric) Epsilon() float64 { return m.eps }

// Metric names the list-position metric.
func (m *DiffractorGeometric) Metric() string { return listMetric(m.lists) }

// Len returns the vocabulary size.
func (m *DiffractorGeometric) Len() int { return m.n }

// DiffractorTEM is 1-DT: TEM (docs/MECHANISMS.md, "TEM") with the list-position metric
// d_π(w,w') = |π(w) − π(w')|, γ in positions from Theorem 4.2 or given.
// It samples TEM's exact form: Pr[position p'] ∝ exp(−ε|p'−π(w)|/2) for
// |p' − π(w)| ≤ γ, Pr[⊥] ∝ (N − |L_w|)·exp(−εγ/2), ⊥ releasing a uniform
// position outside the ball. Several lists: as DiffractorGeometric.
//
// Metric: max_i d_πi(w,w'). Guarantee: ε·max_i d_πi(w,w')-metric-DP.
// Privatize does not allocate.
type DiffractorTEM struct {
	lists []wva.Permutation
	n     int
	eps   float64
	gamma float64
	r     int // ⌊γ⌋ capped at N−1: |p'−p| ≤ γ ⟺ |p'−p| ≤ r
	opts  TEMOptions
}

// NewDiffractorTEM returns 1-DT over lists (not copied; treat as read-only).
func NewDiffractorTEM(lists []wva.Permutation, eps float64, opts TEMOptions) (*DiffractorTEM, error) {
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
	return &DiffractorTEM{
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
func (m *DiffractorTEM) Privatize(w int, src rand.Source) (int, error) {
	if err := checkCall("1-DT", w, m.n, src); err != nil {
		return -1, err
	}
	l := &m.lists[UniformInt(src, len(m.lists))]
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
		if bernoulliLog(src, -softplus(x)) {
			// ⊥: a uniform position of [0, p−left) ∪ (p+right, N−1].
			j := UniformInt(src, outside)
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
		if k := TwoSidedGeometric(src, half); k >= -left && k <= right {
			return int(l.Order[p+k]), nil
		}
	}
}

// Epsilon returns ε.
func (m *DiffractorTEM) Epsilon() float64 { return m.eps }

// Gamma returns γ in list positions.
func (m *DiffractorTEM) Gamma() float64 { return m.gamma }

// Metric names the list-position metric.
func (m *DiffractorTEM) Metric() string { return listMetric(m.lists) }

// Len returns the vocabulary size.
func (m *DiffractorTEM) Len() int { return m.n }
