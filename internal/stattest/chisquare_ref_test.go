package stattest

import (
	"math"
	"testing"
)

// ChiSquare against reference values computed independently: by
// testdata/chisquare_ref.py (python3 with mpmath 1.3.0), which implements
// the documented pooling rule on its own, computes the statistic exactly
// with fractions and the p-value with mpmath.gammainc (regularized upper
// incomplete gamma) at 40 digits. The rows are its output, pasted.
// The cases exercise pooling (a pool below 5 merged into the smallest
// other cell, which is not the last; a pool of 5 or more kept as a cell; a
// cell of expected count exactly 5 not pooled), zero-probability cells
// (dropped when empty, p-value 0 on a draw), fewer than two cells, both
// branches of GammaQ (series and continued fraction) and a far tail.
func TestChiSquareReference(t *testing.T) {
	for _, c := range []struct {
		name   string
		counts []int
		p      []float64
		stat   float64
		df     int
		pvalue float64
	}{
		{"uniform 4 cells", []int{10, 20, 30, 40}, []float64{0.25, 0.25, 0.25, 0.25}, 20.0, 3, 0.00016974243555282643},
		{"fit", []int{52, 29, 19}, []float64{0.5, 0.3, 0.2}, 0.16333333333333333, 2, 0.92157910053671026},
		{"pool below 5 merged into the smallest cell", []int{9, 48, 7, 31, 4, 1}, []float64{0.1, 0.5, 0.06, 0.3, 0.03, 0.01}, 0.61333333333333333, 3, 0.89337334258362863},
		{"pool of 5 or more kept as a cell; expected 5 not pooled", []int{28, 33, 15, 1, 2, 4, 7, 9, 1}, []float64{0.3, 0.3, 0.15, 0.04, 0.04, 0.04, 0.04, 0.04, 0.05}, 4.0833333333333333, 4, 0.39484537126862385},
		{"empty zero-probability cell dropped", []int{20, 0, 30, 50}, []float64{0.25, 0, 0.25, 0.5}, 2.0, 2, 0.36787944117144232},
		{"a draw in a zero-probability cell", []int{25, 1, 25, 49}, []float64{0.25, 0, 0.25, 0.5}, math.Inf(1), 0, 0.0},
		{"many cells (continued fraction)", []int{80, 117, 113, 109, 105, 101, 97, 93, 89, 85, 81, 118, 114, 110, 106, 102, 98, 94, 90, 86, 82, 119, 115, 111, 107, 103, 99, 95, 91, 87, 83, 120, 116, 112, 108, 104, 100, 96, 92, 88, 84, 80, 117, 113, 109, 105, 101, 97, 93, 89, 85, 81, 118, 114, 110, 106, 102, 98, 94, 90}, []float64{1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 60}, 82.671776074641786, 59, 0.022701679372402747},
		{"far in the tail", []int{900, 50, 50}, []float64{0.6, 0.2, 0.2}, 375.0, 2, 3.7135103881019894e-82},
		{"every cell small: one pooled cell", []int{1, 2, 1, 1}, []float64{0.25, 0.25, 0.25, 0.25}, 0.0, 0, 1.0},
	} {
		stat, df, p := ChiSquare(c.counts, c.p)
		if df != c.df || !near(stat, c.stat, 1e-12) || !near(p, c.pvalue, 1e-9) {
			t.Errorf("%s: ChiSquare = (%v, %d, %v), reference (%v, %d, %v)", c.name, stat, df, p, c.stat, c.df, c.pvalue)
		}
	}
}

// near reports whether got is want within a relative tolerance (or both
// are the same infinity, or both are 0).
func near(got, want, rel float64) bool {
	if math.IsInf(want, 0) || want == 0 {
		return got == want
	}
	return math.Abs(got-want) <= rel*math.Abs(want)
}
