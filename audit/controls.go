package audit

import (
	"math"
	"slices"
)

// Negative controls: known-bad variants of the mechanisms, which violate
// metric-DP. Auditing them shows the audit can fail.

// ExcludeInput is a Vickrey-style selection over W \ {w}: P renormalized
// without the input word. Its ratio P(w|w')/P(w|w) is unbounded.
func ExcludeInput(P [][]float64) [][]float64 {
	n := len(P)
	bad := newMatrix(n)
	for w, row := range P {
		z := 1 - row[w]
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
	return bad
}

// TEMBottomScoreBug is TEM with the reference code's ⊥ score ln(N/|L_w|)
// instead of ln(N−|L_w|).
func TEMBottomScoreBug(d [][]float64, gamma, eps float64) [][]float64 {
	return tem(d, gamma, eps, func(n, ball int) float64 { return math.Log(float64(n) / float64(ball)) })
}

// TEMTopK is TEM whose L_w is w's k nearest words (a top-k neighbour list,
// ties by id) instead of the γ-ball, with ⊥ score −γ + (2/ε)·ln(N−|L_w|).
func TEMTopK(d [][]float64, k int, gamma, eps float64) [][]float64 {
	n := len(d)
	k = min(max(k, 1), n)
	P := newMatrix(n)
	for w := range n {
		ids := make([]int, n)
		for i := range ids {
			ids[i] = i
		}
		slices.SortStableFunc(ids, func(a, b int) int {
			switch {
			case d[w][a] < d[w][b]:
				return -1
			case d[w][a] > d[w][b]:
				return 1
			}
			return 0
		})
		in := make([]bool, n)
		z := 0.0
		for _, i := range ids[:k] {
			in[i] = true
			P[w][i] = math.Exp(-eps * d[w][i] / 2)
			z += P[w][i]
		}
		out := n - k
		bottom := float64(out) * math.Exp(-eps*gamma/2)
		z += bottom
		for i := range n {
			if in[i] {
				P[w][i] /= z
			} else {
				P[w][i] = bottom / z / float64(out)
			}
		}
	}
	return P
}
