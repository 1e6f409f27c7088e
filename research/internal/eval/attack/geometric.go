package attack

import (
	"fmt"
	"math"
)

// Geometric is the Column of 1-DG on one list (dpexact.DiffractorGeometric's
// law, entry by entry): the output position is clamp(pos[w] + G, 0, N−1)
// with Pr[G = k] = (1−r)/(1+r)·r^|k|, r = e^−ε, so
//
//	P[w][y] = r^pos[w]/(1+r)              if pos[y] = 0,
//	        = r^(N−1−pos[w])/(1+r)         if pos[y] = N−1,
//	        = (1−r)/(1+r)·r^|pos[y]−pos[w]| otherwise (and 1 when N = 1).
//
// A column costs O(N) with a table of r^k; memory O(N). Combine lists
// with NewMixture. NewRestrictedGeometric is the nearest-allowed variant.
type Geometric struct {
	pos []int
	pow []float64 // pow[k] = r^k
	r   float64
	// span[t] is, for a restricted law, the interval of noisy positions
	// released as the word at position t ({−1, −1}: none; nil when
	// unrestricted: every position releases its own word).
	span [][2]int
	word []int // word[t]: the word at position t (restricted only)
}

// NewGeometric checks that pos is a permutation of [0, N) and ε is
// finite and > 0.
func NewGeometric(pos []int, eps float64) (*Geometric, error) {
	if err := checkPermutation(pos); err != nil {
		return nil, err
	}
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	r := math.Exp(-eps)
	pow := make([]float64, len(pos))
	for k := range pow {
		pow[k] = math.Pow(r, float64(k)) // as dpexact, so the entries agree to the last bit
	}
	return &Geometric{pos: pos, pow: pow, r: r}, nil
}

// NewRestrictedGeometric is the Column of 1-DG on one list restricted to
// the allowed outputs (dpexact.RestrictedDiffractorGeometric): the noisy
// position as in NewGeometric, then the word at the nearest position
// holding an allowed word, the lower position on a tie. P[w][y] is the
// sum of the noisy position's probabilities over the interval of
// positions released as y (0 for a word not allowed): a column costs
// O(N·s), s that interval's length (1 plus the excluded positions next
// to y's).
func NewRestrictedGeometric(pos []int, eps float64, allowed []bool) (*Geometric, error) {
	g, err := NewGeometric(pos, eps)
	if err != nil {
		return nil, err
	}
	n := len(pos)
	if len(allowed) != n {
		return nil, fmt.Errorf("%w: allowed outputs cover %d words, want %d", ErrInvalid, len(allowed), n)
	}
	g.word = make([]int, n)
	for w, p := range pos {
		g.word[p] = w
	}
	// target[q]: the position whose word noisy position q releases, as
	// dpexact's pushToAllowed: the nearest allowed, the lower on a tie.
	prev, next := make([]int, n), make([]int, n) // nearest allowed at or below / above q
	last := -1
	for q := range n {
		if allowed[g.word[q]] {
			last = q
		}
		prev[q] = last
	}
	if last < 0 {
		return nil, fmt.Errorf("%w: no allowed output", ErrInvalid)
	}
	last = -1
	for q := n - 1; q >= 0; q-- {
		if allowed[g.word[q]] {
			last = q
		}
		next[q] = last
	}
	g.span = make([][2]int, n)
	for t := range g.span {
		g.span[t] = [2]int{-1, -1}
	}
	for q := range n {
		t := prev[q]
		if t < 0 || next[q] >= 0 && next[q]-q < q-t {
			t = next[q]
		}
		if g.span[t][0] < 0 {
			g.span[t][0] = q
		}
		g.span[t][1] = q
	}
	return g, nil
}

// Len is N.
func (g *Geometric) Len() int {
	if g == nil {
		return 0
	}
	return len(g.pos)
}

// Column writes P[w][y] for every w.
func (g *Geometric) Column(y int, dst []float64) error {
	n := g.Len()
	if err := checkColumn(y, dst, n); err != nil {
		return err
	}
	t := g.pos[y]
	if g.span == nil {
		for w, p := range g.pos {
			dst[w] = g.at(p, t)
		}
		return nil
	}
	clear(dst)
	lo, hi := g.span[t][0], g.span[t][1]
	if lo < 0 {
		return nil // y is not allowed: never released
	}
	for w, p := range g.pos {
		for q := lo; q <= hi; q++ {
			dst[w] += g.at(p, q)
		}
	}
	return nil
}

// at is the probability that the noisy position from position p is t.
func (g *Geometric) at(p, t int) float64 {
	n, r := len(g.pos), g.r
	switch {
	case n == 1:
		return 1
	case t == 0:
		return g.pow[p] / (1 + r)
	case t == n-1:
		return g.pow[n-1-p] / (1 + r)
	}
	d := t - p
	if d < 0 {
		d = -d
	}
	return (1 - r) / (1 + r) * g.pow[d]
}

func checkPermutation(pos []int) error {
	if len(pos) == 0 {
		return fmt.Errorf("%w: empty list", ErrInvalid)
	}
	seen := make([]bool, len(pos))
	for w, p := range pos {
		if p < 0 || p >= len(pos) || seen[p] {
			return fmt.Errorf("%w: position %d of word %d is out of range or repeated", ErrInvalid, p, w)
		}
		seen[p] = true
	}
	return nil
}

func checkEps(eps float64) error {
	if !(eps > 0) || math.IsInf(eps, 1) {
		return fmt.Errorf("%w: ε = %v, want finite and > 0", ErrInvalid, eps)
	}
	return nil
}
