package dpexact

import (
	"fmt"
	"math"
)

// EuclideanDistances is the Euclidean metric ‖v_a − v_b‖₂ of float
// vectors (the metric the truncated Gumbel mechanism claims). The
// squares of the float64 differences are summed in float64, in index
// order. vectors must pass the checks of checkVectors, and no distance
// may overflow.
func EuclideanDistances(vectors [][]float64) ([][]float64, error) {
	if err := checkVectors(vectors); err != nil {
		return nil, err
	}
	d := Distances(len(vectors), func(a, b int) float64 { return euclidean(vectors[a], vectors[b]) })
	for a, row := range d {
		for b, x := range row {
			if math.IsInf(x, 0) {
				return nil, fmt.Errorf("%w: distance between vectors %d and %d overflows", ErrInvalid, a, b)
			}
		}
	}
	return d, nil
}

// ChordDistances is the chord metric on the unit sphere,
// ‖v̂_a − v̂_b‖₂ with v̂ = v/‖v‖₂: at most 2, and 0 between vectors of the
// same direction (a pseudometric: distinct words may be at distance 0).
// Every vector must be non-zero.
func ChordDistances(vectors [][]float64) ([][]float64, error) {
	unit, err := unitVectors(vectors)
	if err != nil {
		return nil, err
	}
	return Distances(len(unit), func(a, b int) float64 { return euclidean(unit[a], unit[b]) }), nil
}

// euclidean is ‖a − b‖₂ (a and b of the same length).
func euclidean(a, b []float64) float64 {
	var s float64
	for i, x := range a {
		d := x - b[i]
		s += d * d
	}
	return math.Sqrt(s)
}

// unitVectors returns v/‖v‖₂ for every vector; a zero or overflowing norm
// is an error.
func unitVectors(vectors [][]float64) ([][]float64, error) {
	if err := checkVectors(vectors); err != nil {
		return nil, err
	}
	unit := make([][]float64, len(vectors))
	for i, v := range vectors {
		var s float64
		for _, x := range v {
			s += x * x
		}
		norm := math.Sqrt(s)
		if !(norm > 0) || math.IsInf(norm, 0) {
			return nil, fmt.Errorf("%w: vector %d has norm %v (need a finite non-zero norm)", ErrInvalid, i, norm)
		}
		unit[i] = make([]float64, len(v))
		for j, x := range v {
			unit[i][j] = x / norm
		}
	}
	return unit, nil
}

// checkVectors checks a vocabulary of float vectors: at least one
// vector, every vector of the same length ≥ 1, every entry finite.
func checkVectors(vectors [][]float64) error {
	if len(vectors) == 0 {
		return fmt.Errorf("%w: no vectors", ErrInvalid)
	}
	dim := len(vectors[0])
	if dim == 0 {
		return fmt.Errorf("%w: vectors of dimension 0", ErrInvalid)
	}
	for i, v := range vectors {
		if len(v) != dim {
			return fmt.Errorf("%w: vector %d has %d entries, vector 0 has %d", ErrInvalid, i, len(v), dim)
		}
		for j, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("%w: vector %d entry %d = %v", ErrInvalid, i, j, x)
			}
		}
	}
	return nil
}
