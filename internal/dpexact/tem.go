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
	return tem(d, gamma, eps, func(n, ball int) float64 { return math.Log(float64(n - ball)) })
}

// TEMBottomScoreBug is TEM with the published code's ⊥ score ln(N/|L_w|)
// in place of ln(N − |L_w|): a negative control, it violates metric DP
// wherever ball sizes differ.
func TEMBottomScoreBug(d [][]float64, gamma, eps float64) ([][]float64, error) {
	return tem(d, gamma, eps, func(n, ball int) float64 { return math.Log(float64(n) / float64(ball)) })
}

// tem is TEM with lnOut(N, |L_w|) as the log-count term of ⊥'s score; it
// is called only when |L_w| < N (and |L_w| ≥ 1, the diagonal being 0).
func tem(d [][]float64, gamma, eps float64, lnOut func(n, ball int) float64) ([][]float64, error) {
	if err := checkLaw(d, gamma, eps); err != nil {
		return nil, err
	}
	n := len(d)
	P := newMatrix(n)
	for w := range n {
		in := make([]bool, n)
		for i := range n {
			in[i] = d[w][i] <= gamma
		}
		fill(P[w], d[w], in, gamma, eps, lnOut)
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
		fill(P[w], d[w], in, gamma, eps, func(n, ball int) float64 { return math.Log(float64(n - ball)) })
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
// row and whose L_w is {i : in[i]}.
func fill(p, row []float64, in []bool, gamma, eps float64, lnOut func(n, ball int) float64) {
	n, ball := len(row), 0
	z := 0.0
	for i := range n {
		p[i] = 0
		if in[i] {
			ball++
			p[i] = math.Exp(-eps * row[i] / 2)
			z += p[i]
		}
	}
	bottom := 0.0
	if ball < n {
		bottom = math.Exp(-eps*gamma/2 + lnOut(n, ball))
		z += bottom
	}
	for i := range n {
		if in[i] {
			p[i] /= z
		} else {
			p[i] = bottom / z / float64(n-ball)
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
