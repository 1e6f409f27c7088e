package stattest

import (
	"math"
	"testing"
)

// The chi-square helper's p-values against known quantiles.
func TestGammaQ(t *testing.T) {
	for _, c := range []struct{ df, x, want float64 }{
		{1, 3.841458820694124, 0.05},
		{10, 18.307038053275146, 0.05},
		{4, 13.276704135987622, 0.01},
		{100, 124.34211340400407, 0.05},
		{2, 0, 1},
	} {
		if got := GammaQ(c.df/2, c.x/2); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("chi2 survival(%v; df=%v) = %v, want %v", c.x, c.df, got, c.want)
		}
	}
}
