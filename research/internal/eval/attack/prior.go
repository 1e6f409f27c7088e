package attack

import (
	"fmt"
	"math"
)

// normalize checks a prior over n words (finite, ≥ 0, positive total;
// zeros allowed) and returns it scaled to sum 1.
func normalize(prior []float64, n int) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: empty vocabulary", ErrInvalid)
	}
	if len(prior) != n {
		return nil, fmt.Errorf("%w: prior over %d words, vocabulary has %d", ErrInvalid, len(prior), n)
	}
	total := 0.0
	for w, p := range prior {
		if !(p >= 0) || math.IsInf(p, 1) {
			return nil, fmt.Errorf("%w: prior(%d) = %v, want finite and ≥ 0", ErrInvalid, w, p)
		}
		total += p
	}
	if !(total > 0) || math.IsInf(total, 1) {
		return nil, fmt.Errorf("%w: prior sums to %v, want finite and > 0", ErrInvalid, total)
	}
	out := make([]float64, n)
	for w, p := range prior {
		out[w] = p / total
	}
	return out, nil
}

// MaxK is the largest top-k list the rates are computed for: ranking
// costs O(N·k) per output, and a longer guess list says little about
// reconstruction. A k above the vocabulary size is accepted (every word
// is guessed, credit 1).
const MaxK = 1000

// checkK checks the largest top-k asked for.
func checkK(kmax int) error {
	if kmax < 1 || kmax > MaxK {
		return fmt.Errorf("%w: kmax = %d, want in [1, %d]", ErrInvalid, kmax, MaxK)
	}
	return nil
}

// scoresInto writes prior(w)·col[w] into dst: the posterior of every w
// given the output whose column is col, up to its normalizer.
func scoresInto(dst, prior, col []float64) {
	for w := range dst {
		dst[w] = prior[w] * col[w]
	}
}
