package attack

import (
	"fmt"
	"math"
	"slices"
)

// ranking is the top-kmax structure of one score vector (prior(w)·P[w][y]
// over w): for each k ≤ kmax, the k-th largest score v[k−1], the number
// of scores strictly above it above[k−1] and the number equal to it
// equal[k−1]. It is what the credit of every word needs, in O(kmax).
type ranking struct {
	v            []float64
	above, equal []int
}

// rank builds the ranking of scores for k = 1..kmax (kmax ≥ 1; a kmax
// above len(scores) is clamped: a top-k list longer than the vocabulary
// names every word). It keeps the kmax largest scores in a small sorted
// buffer, then counts, for each, the scores above and equal to it: two
// passes, O(N·kmax) at worst but O(N) for the scores below the kmax-th
// largest (most of them), no sort of the vocabulary.
func rank(scores []float64, kmax int) ranking {
	kmax = min(kmax, len(scores))
	top := make([]float64, 0, kmax) // descending, with multiplicity
	for _, s := range scores {
		if len(top) == kmax && s <= top[kmax-1] {
			continue
		}
		i := len(top)
		if i < kmax {
			top = append(top, s)
		} else {
			i--
		}
		for ; i > 0 && top[i-1] < s; i-- {
			top[i] = top[i-1]
		}
		top[i] = s
	}
	r := ranking{v: top, above: make([]int, kmax), equal: make([]int, kmax)}
	if len(top) == 0 {
		return r
	}
	low := top[len(top)-1] // a score below the smallest kept one counts nowhere
	for _, s := range scores {
		if s < low {
			continue
		}
		for k, v := range top {
			switch {
			case s > v:
				r.above[k]++
			case s == v:
				r.equal[k]++
			}
		}
	}
	return r
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// credit is the top-k credit of a word whose score is s, for k = 1..kmax
// written into out (len(out) = kmax; entries beyond the ranking's
// clamped length are 1: every word is guessed). A word scoring above the
// k-th largest score is in every top-k list (credit 1); words tied with
// it share its remaining k − above slots (credit (k − above)/equal, the
// chance that a uniform tie-break puts this word in the list); the rest
// get 0.
func (r ranking) credit(s float64, out []float64) {
	for k := range out {
		switch {
		case k >= len(r.v):
			out[k] = 1
		case s > r.v[k]:
			out[k] = 1
		case s == r.v[k]:
			out[k] = float64(k+1-r.above[k]) / float64(r.equal[k])
		default:
			out[k] = 0
		}
	}
}

// TopK returns the attacker's k guesses for scores prior(w)·P[w][y] (or
// any vector proportional to the posterior), most probable first, ties
// broken deterministically towards the lower word id. k is clamped to
// len(scores). It is the guess list; the recovery rates score ties with
// fractional credit instead (see the package doc).
func TopK(scores []float64, k int) ([]int, error) {
	if k < 1 {
		return nil, fmt.Errorf("%w: k = %d, want ≥ 1", ErrInvalid, k)
	}
	if err := checkScores(scores); err != nil {
		return nil, err
	}
	ids := make([]int, len(scores))
	for i := range ids {
		ids[i] = i
	}
	slices.SortStableFunc(ids, func(a, b int) int { return -cmpFloat(scores[a], scores[b]) })
	return ids[:min(k, len(ids))], nil
}

func checkScores(scores []float64) error {
	if len(scores) == 0 {
		return fmt.Errorf("%w: no scores", ErrInvalid)
	}
	for w, s := range scores {
		if !(s >= 0) || math.IsInf(s, 1) {
			return fmt.Errorf("%w: score %d = %v, want finite and ≥ 0", ErrInvalid, w, s)
		}
	}
	return nil
}
