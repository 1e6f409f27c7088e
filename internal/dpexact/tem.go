package dpexact

import (
	"fmt"
	"math"
)

// TEM is the exact law of the truncated exponential mechanism for a
// metric given as a matrix d (+Inf meaning "beyond every radius of
// interest"). For input w with ball L_w = {i : d(w,i) ≤ γ}:
//
//	Pr[i]  ∝ exp(−ε·d(w,i)/2)                         for i in L_w,
//	Pr[⊥]  ∝ exp(−ε·γ/2 + ln(N − |L_w|)),  ⊥ then uniform over W ∖ L_w,
//
// normalized together (no ⊥ when L_w = W). It is the law of TEMHamming
// (d = Hamming distance of codes), of TEM on an asset's balls (d =
// quantized Euclidean distance) and of 1-DT on one list (d =
// ListDistances). d must be square with zero diagonal and no negative or
// NaN entry; γ finite and ≥ 0; ε finite and > 0.
func TEM(d [][]float64, gamma, eps float64) ([][]float64, error) {
	return tem(d, gamma, eps, nil, lnOutside)
}

// lnOutside is the log-count term of ⊥'s score: ln(|A| − |A ∩ L_w|).
func lnOutside(n, ball int) float64 { return math.Log(float64(n - ball)) }

// TEMBottomScoreBug is TEM with the published code's ⊥ score ln(N/|L_w|)
// in place of ln(N − |L_w|): a negative control, it violates metric DP
// wherever ball sizes differ.
func TEMBottomScoreBug(d [][]float64, gamma, eps float64) ([][]float64, error) {
	return tem(d, gamma, eps, nil, func(n, ball int) float64 { return math.Log(float64(n) / float64(ball)) })
}

// tem is TEM over the allowed words (every word for nil allowed) with
// lnOut(|A|, |A ∩ L_w|) as the log-count term of ⊥'s score; lnOut is
// called only when |A ∩ L_w| < |A|.
func tem(d [][]float64, gamma, eps float64, allowed []bool, lnOut func(n, ball int) float64) ([][]float64, error) {
	if err := checkLaw(d, gamma, eps); err != nil {
		return nil, err
	}
	n := len(d)
	if err := checkAllowed(allowed, n); err != nil {
		return nil, err
	}
	P := newMatrix(n)
	in := make([]bool, n)
	for w := range n {
		for i := range n {
			in[i] = d[w][i] <= gamma
		}
		fill(P[w], d[w], in, allowed, gamma, eps, lnOut)
	}
	return P, nil
}

// TEMTopK is TEM whose L_w is w's k nearest words (ties by lower id)
// instead of the γ-ball, with ⊥ score −ε·γ/2 + ln(N − k): a top-k
// neighbour list standing in for the ball, as in the published code. A
// negative control: it violates metric DP. k must be in [1, N].
func TEMTopK(d [][]float64, k int, gamma, eps float64) ([][]float64, error) {
	if err := checkLaw(d, gamma, eps); err != nil {
		return nil, err
	}
	n := len(d)
	if k < 1 || k > n {
		return nil, fmt.Errorf("%w: top-k list with k = %d outside [1, %d]", ErrInvalid, k, n)
	}
	P := newMatrix(n)
	in := make([]bool, n)
	for w := range n {
		nearest(d[w], k, in)
		fill(P[w], d[w], in, nil, gamma, eps, lnOutside)
	}
	return P, nil
}

// nearest sets in[i] for the k smallest entries of row (ties by lower
// index) and clears the others, in O(N·k).
func nearest(row []float64, k int, in []bool) {
	clear(in)
	for range k {
		best := -1
		for i, x := range row {
			if !in[i] && (best < 0 || x < row[best]) {
				best = i
			}
		}
		in[best] = true
	}
}

// fill writes into p the law of TEM from one input whose distances are
// row and whose L_w is {i : in[i]}, over the allowed outputs (every word
// for nil allowed): the scores −ε·d/2 of A ∩ L_w and −ε·γ/2 +
// lnOut(|A|, |A ∩ L_w|) of ⊥ (split uniformly over A \ L_w) are
// exponentiated relative to the best score, so that an excluded input at
// a large ε does not underflow every weight.
func fill(p, row []float64, in, allowed []bool, gamma, eps float64, lnOut func(n, ball int) float64) {
	ok := func(i int) bool { return allowed == nil || allowed[i] }
	nA, ball := 0, 0
	top := math.Inf(-1)
	for i := range row {
		if !ok(i) {
			continue
		}
		nA++
		if in[i] {
			ball++
			top = math.Max(top, -eps*row[i]/2)
		}
	}
	bottomScore := math.Inf(-1)
	if ball < nA {
		bottomScore = -eps*gamma/2 + lnOut(nA, ball)
		top = math.Max(top, bottomScore)
	}
	z := 0.0
	for i := range row {
		p[i] = 0
		if ok(i) && in[i] {
			p[i] = math.Exp(-eps*row[i]/2 - top)
			z += p[i]
		}
	}
	bottom := math.Exp(bottomScore - top)
	z += bottom
	for i := range row {
		switch {
		case !ok(i):
			p[i] = 0
		case in[i]:
			p[i] /= z
		default:
			p[i] = bottom / z / float64(nA-ball)
		}
	}
}

func checkLaw(d [][]float64, gamma, eps float64) error {
	if len(d) == 0 {
		return fmt.Errorf("%w: no words", ErrInvalid)
	}
	if err := checkDistances(d); err != nil {
		return err
	}
	if err := checkGamma(gamma); err != nil {
		return err
	}
	return checkEps(eps)
}
