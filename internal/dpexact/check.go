package dpexact

import (
	"fmt"
	"math"
)

// RowSumSlack is how far from 1 a row of a distribution may sum in Check.
const RowSumSlack = 1e-9

// Report is the worst breach of the metric-DP inequality found by Check.
type Report struct {
	// Excess is max over w, w', y with P(y|w) > 0 and ε·d(w,w') finite of
	// ln P(y|w) − ln P(y|w') − ε·d(w,w'); +Inf if some output of w is
	// impossible from w' at a finite distance. It is ≥ 0 for a non-empty
	// distribution (w' = w gives 0) and −Inf for an empty one.
	Excess float64
	// W, W2 and Y attain Excess (−1 if P is empty).
	W, W2, Y int
	// LnRatio is ln P(Y|W) − ln P(Y|W2) and Bound is ε·d(W,W2).
	LnRatio, Bound float64
	// Tightness is max of (ln P(y|w) − ln P(y|w')) / (ε·d(w,w')) over
	// pairs at a finite positive bound: how much of the guarantee P uses
	// (1 = tight, > 1 = violated, 0 if there is no such pair).
	Tightness float64
	// Tolerance is the tol Check was given.
	Tolerance float64
}

// Holds reports whether the inequality holds within the tolerance:
// Excess ≤ Tolerance.
func (r Report) Holds() bool { return r.Excess <= r.Tolerance }

// Check proves or refutes that P (P[w][y] = Pr[M(w) = y]) is ε·d metric
// differentially private:
//
//	ln P(y|w) − ln P(y|w') ≤ ε·d(w, w') + tol   for every w, w', y,
//
// visiting every ordered pair (w, w') and every output y, and returns the
// worst case. d(w, w') = +Inf leaves the pair unconstrained. When
// Report.Holds, the inequality is proved for this P, ε and d up to tol
// (which absorbs floating-point rounding); otherwise W, W2, Y is a
// counterexample.
//
// P must be a square matrix of rows that are distributions (else
// ErrNotDistribution); d must be a distance matrix of the same size (zero
// diagonal, no negative or NaN entry); ε and tol must be finite and ≥ 0
// (else ErrInvalid).
func Check(P, d [][]float64, eps, tol float64) (Report, error) {
	r := Report{Excess: math.Inf(-1), W: -1, W2: -1, Y: -1, Tolerance: tol}
	if err := checkDistribution(P); err != nil {
		return r, err
	}
	if len(d) != len(P) {
		return r, fmt.Errorf("%w: metric has %d rows, distribution %d", ErrInvalid, len(d), len(P))
	}
	if err := checkDistances(d); err != nil {
		return r, err
	}
	if math.IsNaN(eps) || math.IsInf(eps, 0) || eps < 0 {
		return r, fmt.Errorf("%w: ε = %v, want finite and ≥ 0", ErrInvalid, eps)
	}
	if math.IsNaN(tol) || math.IsInf(tol, 0) || tol < 0 {
		return r, fmt.Errorf("%w: tolerance %v, want finite and ≥ 0", ErrInvalid, tol)
	}
	n := len(P)
	lns := newMatrix(n)
	for w, row := range P {
		for y, p := range row {
			lns[w][y] = math.Log(p) // −Inf for 0
		}
	}
	for w := range n {
		for w2 := range n {
			if math.IsInf(d[w][w2], 1) {
				continue // unconstrained (and ε = 0 must not make 0·Inf = NaN)
			}
			bound := eps * d[w][w2]
			if math.IsInf(bound, 1) {
				continue // ε·d overflowed: no finite bound to break
			}
			tight := bound > 0
			for y := range n {
				a := lns[w][y]
				if math.IsInf(a, -1) {
					continue
				}
				lr := a - lns[w2][y] // +Inf if P(y|w') = 0
				if tight && lr/bound > r.Tightness {
					r.Tightness = lr / bound
				}
				if ex := lr - bound; ex > r.Excess {
					r.Excess, r.W, r.W2, r.Y, r.LnRatio, r.Bound = ex, w, w2, y, lr, bound
				}
			}
		}
	}
	return r, nil
}

func checkDistribution(P [][]float64) error {
	for w, row := range P {
		if len(row) != len(P) {
			return fmt.Errorf("%w: P(.|%d) has %d outputs, want %d", ErrNotDistribution, w, len(row), len(P))
		}
		s := 0.0
		for y, p := range row {
			if p < 0 || math.IsNaN(p) || math.IsInf(p, 0) {
				return fmt.Errorf("%w: P(%d|%d) = %v", ErrNotDistribution, y, w, p)
			}
			s += p
		}
		if math.Abs(s-1) > RowSumSlack {
			return fmt.Errorf("%w: P(.|%d) sums to %v", ErrNotDistribution, w, s)
		}
	}
	return nil
}
