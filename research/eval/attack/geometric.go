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
// with NewMixture. It is the unrestricted mechanism: the nearest-allowed
// variant (an exclusion list) is not covered.
type Geometric struct {
	pos []int
	pow []float64 // pow[k] = r^k
	r   float64
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

// Len is N.
func (g *Geometric) Len() int { return len(g.pos) }

// Column writes P[w][y] for every w.
func (g *Geometric) Column(y int, dst []float64) error {
	n := len(g.pos)
	if err := checkColumn(y, dst, n); err != nil {
		return err
	}
	t, r := g.pos[y], g.r
	for w, p := range g.pos {
		switch {
		case n == 1:
			dst[w] = 1
		case t == 0:
			dst[w] = g.pow[p] / (1 + r)
		case t == n-1:
			dst[w] = g.pow[n-1-p] / (1 + r)
		default:
			d := t - p
			if d < 0 {
				d = -d
			}
			dst[w] = (1 - r) / (1 + r) * g.pow[d]
		}
	}
	return nil
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
