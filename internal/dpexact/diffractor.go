package dpexact

import (
	"fmt"
	"math"
)

// DiffractorGeometric is the exact law of 1-DG over one or more lists,
// pos[l][w] being word w's position in list l: a list chosen uniformly,
// then the output at position clamp(pos[w] + G, 0, N−1), G the two-sided
// geometric Pr[G = k] = (1−r)/(1+r)·r^|k| with r = e^−ε. Clamping puts
// Pr[G ≤ −a] = r^a/(1+r) on the first position (a = pos[w]) and likewise
// on the last. Every pos[l] must be a permutation of [0, N).
func DiffractorGeometric(pos [][]int, eps float64) ([][]float64, error) {
	if err := checkLists(pos); err != nil {
		return nil, err
	}
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	Ps := make([][][]float64, len(pos))
	for l, p := range pos {
		Ps[l] = geometricList(p, eps)
	}
	return Mixture(Ps...)
}

// DiffractorTEM is the exact law of 1-DT over one or more lists given as
// positions: a list chosen uniformly, then TEM with d(w, w') =
// |pos[w] − pos[w']|. Every pos[l] must be a permutation of [0, N).
func DiffractorTEM(pos [][]int, gamma, eps float64) ([][]float64, error) {
	if err := checkLists(pos); err != nil {
		return nil, err
	}
	Ps := make([][][]float64, len(pos))
	for l, p := range pos {
		d, err := ListDistances(p)
		if err != nil {
			return nil, err
		}
		if Ps[l], err = TEM(d, gamma, eps); err != nil {
			return nil, err
		}
	}
	return Mixture(Ps...)
}

func geometricList(pos []int, eps float64) [][]float64 {
	n := len(pos)
	order := make([]int, n)
	for w, p := range pos {
		order[p] = w
	}
	r := math.Exp(-eps)
	P := newMatrix(n)
	for w := range n {
		p := pos[w]
		for t := range n {
			var pr float64
			switch {
			case n == 1:
				pr = 1
			case t == 0:
				pr = math.Pow(r, float64(p)) / (1 + r)
			case t == n-1:
				pr = math.Pow(r, float64(n-1-p)) / (1 + r)
			default:
				pr = (1 - r) / (1 + r) * math.Pow(r, math.Abs(float64(t-p)))
			}
			P[w][order[t]] += pr
		}
	}
	return P
}

// checkLists checks that pos is at least one list over N ≥ 1 words, each a
// permutation of [0, N).
func checkLists(pos [][]int) error {
	if len(pos) == 0 || len(pos[0]) == 0 {
		return fmt.Errorf("%w: no lists or no words", ErrInvalid)
	}
	for l, p := range pos {
		if len(p) != len(pos[0]) {
			return fmt.Errorf("%w: list %d has %d words, list 0 has %d", ErrInvalid, l, len(p), len(pos[0]))
		}
		if err := checkPermutation(fmt.Sprintf("list %d positions", l), p); err != nil {
			return err
		}
	}
	return nil
}
