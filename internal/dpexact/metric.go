package dpexact

import (
	"fmt"
	"math"
	"math/bits"
)

// ListDistances is the list-position metric d(a, b) = |pos[a] − pos[b]|
// of one 1-Diffractor list, pos[w] being word w's position. pos must be a
// permutation of [0, len(pos)).
func ListDistances(pos []int) ([][]float64, error) {
	if err := checkPermutation("positions", pos); err != nil {
		return nil, err
	}
	return Distances(len(pos), func(a, b int) float64 { return math.Abs(float64(pos[a] - pos[b])) }), nil
}

// HammingDistances is the Hamming metric of codes held in one uint64 each
// (the short codes BRR takes).
func HammingDistances(codes []uint64) [][]float64 {
	return Distances(len(codes), func(a, b int) float64 { return float64(bits.OnesCount64(codes[a] ^ codes[b])) })
}

// Distances tabulates d on [0, n)²; n < 0 is treated as 0.
func Distances(n int, d func(a, b int) float64) [][]float64 {
	m := newMatrix(max(n, 0))
	for a := range m {
		for b := range m[a] {
			m[a][b] = d(a, b)
		}
	}
	return m
}

// MaxMetric is max_i d_i(a, b), the metric 1-Diffractor guarantees over
// several lists. It needs at least one matrix, all of the same size.
func MaxMetric(ds ...[][]float64) ([][]float64, error) {
	n, err := sameSize("metric", ds)
	if err != nil {
		return nil, err
	}
	m := newMatrix(n)
	for _, d := range ds {
		if err := checkDistances(d); err != nil {
			return nil, err
		}
		for a := range n {
			for b := range n {
				m[a][b] = math.Max(m[a][b], d[a][b])
			}
		}
	}
	return m, nil
}

// Mixture is the law of "pick one of the Ps uniformly at random, then
// draw from it": the entrywise mean. It needs at least one matrix, all of
// the same size.
func Mixture(Ps ...[][]float64) ([][]float64, error) {
	n, err := sameSize("distribution", Ps)
	if err != nil {
		return nil, err
	}
	m := newMatrix(n)
	for _, P := range Ps {
		if err := checkSquare("distribution", P); err != nil {
			return nil, err
		}
		for w := range n {
			for y := range n {
				m[w][y] += P[w][y] / float64(len(Ps))
			}
		}
	}
	return m, nil
}

func sameSize(what string, ms [][][]float64) (int, error) {
	if len(ms) == 0 {
		return 0, fmt.Errorf("%w: no %s matrices", ErrInvalid, what)
	}
	n := len(ms[0])
	for i, m := range ms {
		if len(m) != n {
			return 0, fmt.Errorf("%w: %s matrix %d has %d rows, matrix 0 has %d", ErrInvalid, what, i, len(m), n)
		}
	}
	return n, nil
}

// checkSquare checks that m is n×n.
func checkSquare(what string, m [][]float64) error {
	for i, row := range m {
		if len(row) != len(m) {
			return fmt.Errorf("%w: %s row %d has %d entries, want %d", ErrInvalid, what, i, len(row), len(m))
		}
	}
	return nil
}

// checkDistances checks that d is a square matrix of distances: no NaN, no
// negative entry, zero on the diagonal; +Inf is allowed (a pair beyond
// every radius of interest, or unconstrained).
func checkDistances(d [][]float64) error {
	if err := checkSquare("distance", d); err != nil {
		return err
	}
	for a, row := range d {
		for b, x := range row {
			if math.IsNaN(x) || x < 0 || (a == b && x != 0) {
				return fmt.Errorf("%w: d(%d,%d) = %v", ErrInvalid, a, b, x)
			}
		}
	}
	return nil
}

// checkPermutation checks that pos, named what in errors, holds each of
// 0..len(pos)−1 once.
func checkPermutation(what string, pos []int) error {
	seen := make([]bool, len(pos))
	for w, p := range pos {
		if p < 0 || p >= len(pos) || seen[p] {
			return fmt.Errorf("%w: %s are not a permutation (word %d at %d)", ErrInvalid, what, w, p)
		}
		seen[p] = true
	}
	return nil
}

// checkEps checks a mechanism's ε: finite and positive.
func checkEps(eps float64) error {
	if math.IsNaN(eps) || math.IsInf(eps, 0) || eps <= 0 {
		return fmt.Errorf("%w: ε = %v, want finite and > 0", ErrInvalid, eps)
	}
	return nil
}

// checkGamma checks TEM's radius γ: finite and ≥ 0.
func checkGamma(gamma float64) error {
	if math.IsNaN(gamma) || math.IsInf(gamma, 0) || gamma < 0 {
		return fmt.Errorf("%w: γ = %v, want finite and ≥ 0", ErrInvalid, gamma)
	}
	return nil
}

func newMatrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}
