package dpexact

import (
	"fmt"
	"math"
)

// CusTextScale is the Hamming distance at which CusText's utility
// u(x,y) = 1 − d(x,y)/CusTextScale reaches 0: the code length, 256 bits.
const CusTextScale = 256

// CusText is the exact law of CusText over output sets groups (groups[x]
// is the set of word x) and allowed outputs A (nil: every word):
//
//	Pr[y | x] ∝ exp(ε·u(x,y)/2) for y in the set of x and in A, else 0,
//	u(x,y) = 1 − d(x,y)/CusTextScale.
//
// It is computed from the formula, not from the sampler, so that the
// mechanism is checked against an independent statement of its law. For x
// and x' of one set, ln Pr[y|x] − ln Pr[y|x'] ≤ (ε/CusTextScale)·d(x,x'):
// audit it with the metric SameSet. Words of different sets have
// disjoint outputs. d must be square with zero diagonal and finite,
// non-negative entries; every set must keep an allowed word.
func CusText(d [][]float64, groups []int, eps float64, allowed []bool) ([][]float64, error) {
	return cusText(d, groups, nil, eps, allowed, 0.5)
}

// CusTextPlus is the exact law of CusText+: a stop word x (stop[x]) in A
// is released unchanged with probability 1; every other input follows
// CusText. Audit it with SameSet(d, groups, stop), which leaves every
// pair involving a stop word unconstrained.
func CusTextPlus(d [][]float64, groups []int, stop []bool, eps float64, allowed []bool) ([][]float64, error) {
	if len(stop) != len(d) {
		return nil, fmt.Errorf("%w: stop-word set covers %d words, want %d", ErrInvalid, len(stop), len(d))
	}
	return cusText(d, groups, stop, eps, allowed, 0.5)
}

// CusTextNoHalf is CusText scored exp(ε·u) instead of exp(ε·u/2): the
// exponential mechanism without its factor 1/2, which is only
// (2ε/CusTextScale)·d within a set. A negative control: audited with
// SameSet at ε it violates wherever two words of a set have different
// normalizers.
func CusTextNoHalf(d [][]float64, groups []int, eps float64) ([][]float64, error) {
	return cusText(d, groups, nil, eps, nil, 1)
}

func cusText(d [][]float64, groups []int, stop []bool, eps float64, allowed []bool, scale float64) ([][]float64, error) {
	if err := checkSanText(d, eps); err != nil {
		return nil, err
	}
	n := len(d)
	if len(groups) != n {
		return nil, fmt.Errorf("%w: sets cover %d words, want %d", ErrInvalid, len(groups), n)
	}
	if err := checkAllowed(allowed, n); err != nil {
		return nil, err
	}
	inA := func(y int) bool { return allowed == nil || allowed[y] }
	P := newMatrix(n)
	for x, row := range d {
		if stop != nil && stop[x] && inA(x) {
			P[x][x] = 1
			continue
		}
		// Weights relative to the best allowed member, as in sanText.
		near := math.Inf(1)
		for y, dy := range row {
			if groups[y] == groups[x] && inA(y) {
				near = math.Min(near, dy)
			}
		}
		if math.IsInf(near, 1) {
			return nil, fmt.Errorf("%w: no allowed word in the set of word %d", ErrInvalid, x)
		}
		z := 0.0
		for y, dy := range row {
			if groups[y] == groups[x] && inA(y) {
				P[x][y] = math.Exp(scale * eps * (near - dy) / CusTextScale)
				z += P[x][y]
			}
		}
		for y := range P[x] {
			P[x][y] /= z
		}
	}
	return P, nil
}

// SameSet is the metric CusText's guarantee covers: d(x,x')/CusTextScale
// (at most 1, so the loss is at most ε) when x and x' are in the same set
// and neither is a stop word (stop may be nil), +Inf (unconstrained)
// otherwise.
func SameSet(d [][]float64, groups []int, stop []bool) ([][]float64, error) {
	if err := checkDistances(d); err != nil {
		return nil, err
	}
	if len(groups) != len(d) || (stop != nil && len(stop) != len(d)) {
		return nil, fmt.Errorf("%w: sets cover %d words, stop words %d, want %d", ErrInvalid, len(groups), len(stop), len(d))
	}
	return Distances(len(d), func(a, b int) float64 {
		if a == b || groups[a] == groups[b] && (stop == nil || !stop[a] && !stop[b]) {
			return d[a][b] / CusTextScale
		}
		return math.Inf(1)
	}), nil
}
