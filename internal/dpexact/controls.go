package dpexact

import "fmt"

// ExcludeInput is the law of a Vickrey-style selection over W ∖ {w}: each
// row of P renormalized without the input word (uniform over the other
// words where P(w|w) = 1). It never outputs its input, so P(w|w')/P(w|w)
// is unbounded: a negative control for metric-DP checks. P must be a
// square matrix of at least 2 rows whose entries are ≥ 0 and finite.
func ExcludeInput(P [][]float64) ([][]float64, error) {
	n := len(P)
	if n < 2 {
		return nil, fmt.Errorf("%w: excluding the input needs at least 2 words, got %d", ErrInvalid, n)
	}
	if err := checkSquare("distribution", P); err != nil {
		return nil, err
	}
	bad := newMatrix(n)
	for w, row := range P {
		z := 0.0
		for y, p := range row {
			if !(p >= 0) || p > 1 {
				return nil, fmt.Errorf("%w: P(%d|%d) = %v", ErrInvalid, y, w, p)
			}
			if y != w {
				z += p
			}
		}
		for y, p := range row {
			switch {
			case y == w:
			case z > 0:
				bad[w][y] = p / z
			default: // P was deterministic on w: uniform over the others
				bad[w][y] = 1 / float64(n-1)
			}
		}
	}
	return bad, nil
}
