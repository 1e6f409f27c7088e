package ctxattack

import (
	"fmt"
	"math"
)

// Marginals returns, for each position, the posterior of its candidates
// given the whole released segment under the same model as Decode,
//
//	P(w_i = c | y_1…y_n) ∝ Σ over the other positions' candidates of LM(w_1…w_n)·Π P[w_j][y_j],
//
// by the forward–backward recursions in log space (O(n·K²) LM lookups).
// Its argmax at each position is the attacker's best guess of that word
// (the Bayes decision for top-1 per word under this model), which the
// most probable sentence need not contain. Errors as Decode's.
func Marginals(pos []Position, lm LM, start int) ([][]float64, error) {
	if lm == nil {
		return nil, fmt.Errorf("%w: nil language model", ErrInvalid)
	}
	for i, p := range pos {
		if len(p.Words) == 0 || len(p.Words) != len(p.LogLaw) {
			return nil, fmt.Errorf("%w: position %d has %d candidates and %d law entries", ErrInvalid, i, len(p.Words), len(p.LogLaw))
		}
	}
	n := len(pos)
	if n == 0 {
		return nil, nil
	}
	// trans[i][k][j] = log LM(pos[i].Words[j] | pos[i−1].Words[k]).
	trans := make([][][]float64, n)
	for i := 1; i < n; i++ {
		trans[i] = make([][]float64, len(pos[i-1].Words))
		for k, v := range pos[i-1].Words {
			row := make([]float64, len(pos[i].Words))
			for j, w := range pos[i].Words {
				row[j] = lm.LogProb(v, w)
			}
			trans[i][k] = row
		}
	}
	fwd := make([][]float64, n)
	fwd[0] = make([]float64, len(pos[0].Words))
	for j, w := range pos[0].Words {
		fwd[0][j] = lm.LogProb(start, w) + pos[0].LogLaw[j]
	}
	terms := []float64{}
	for i := 1; i < n; i++ {
		fwd[i] = make([]float64, len(pos[i].Words))
		for j := range pos[i].Words {
			terms = terms[:0]
			for k := range pos[i-1].Words {
				terms = append(terms, fwd[i-1][k]+trans[i][k][j])
			}
			fwd[i][j] = logSumExp(terms) + pos[i].LogLaw[j]
		}
	}
	bwd := make([][]float64, n)
	bwd[n-1] = make([]float64, len(pos[n-1].Words)) // log 1
	for i := n - 2; i >= 0; i-- {
		bwd[i] = make([]float64, len(pos[i].Words))
		for k := range pos[i].Words {
			terms = terms[:0]
			for j := range pos[i+1].Words {
				terms = append(terms, trans[i+1][k][j]+pos[i+1].LogLaw[j]+bwd[i+1][j])
			}
			bwd[i][k] = logSumExp(terms)
		}
	}
	out := make([][]float64, n)
	for i := range pos {
		terms = terms[:0]
		for j := range pos[i].Words {
			terms = append(terms, fwd[i][j]+bwd[i][j])
		}
		z := logSumExp(terms)
		if math.IsInf(z, -1) || math.IsNaN(z) {
			return nil, fmt.Errorf("%w: no sentence has a positive probability", ErrInvalid)
		}
		out[i] = make([]float64, len(terms))
		for j, t := range terms {
			out[i][j] = math.Exp(t - z)
		}
	}
	return out, nil
}

// logSumExp is log Σ exp(x), −Inf for no terms or all −Inf.
func logSumExp(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = max(m, v)
	}
	if math.IsInf(m, -1) {
		return m
	}
	s := 0.0
	for _, v := range x {
		s += math.Exp(v - m)
	}
	return m + math.Log(s)
}

// argmax is the index of the largest entry (the earliest among equals).
func argmax(x []float64) int {
	best := 0
	for j, v := range x {
		if v > x[best] {
			best = j
		}
	}
	return best
}
