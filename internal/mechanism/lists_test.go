package mechanism

import (
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// TEM on the full default asset: output frequencies of ball members (and
// of "anything outside the ball", one pooled cell) match the closed form.
func TestFullAssetTEMMatchesExact(t *testing.T) {
	if testing.Short() {
		t.Skip("full asset")
	}
	a := defaultAsset(t)
	const eps = 10.0
	m, err := newTEM(a.TEM, eps, TEMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	steps, err := a.TEM.StepsFor(m.Gamma())
	if err != nil {
		t.Fatal(err)
	}
	src := seeded.Key(stattest.Seed("full-tem"))
	for _, word := range []string{"good", "the", "paris"} {
		w, ok := a.Lookup(word)
		if !ok {
			continue
		}
		ball := a.TEM.BallWithin(w, steps, nil)
		cell := make(map[int]int, len(ball))
		p := make([]float64, len(ball)+1)
		z := 0.0
		for k, nb := range ball {
			cell[int(nb.ID)] = k
			p[k] = expNeg(eps * float64(nb.Dist) * a.TEM.Step() / 2)
			z += p[k]
		}
		p[len(ball)] = float64(a.Len()-len(ball)) * expNeg(eps*m.Gamma()/2)
		z += p[len(ball)]
		for k := range p {
			p[k] /= z
		}
		counts := make([]int, len(p))
		for range 30000 {
			y, err := m.Privatize(w, src)
			if err != nil {
				t.Fatal(err)
			}
			if k, in := cell[y]; in {
				counts[k]++
			} else {
				counts[len(ball)]++
			}
		}
		if stat, df, pv := stattest.ChiSquare(counts, p); pv < stattest.FalseFailureRate {
			t.Errorf("%q (|L_w|=%d): chi2=%.1f df=%d p=%.3g", word, len(ball), stat, df, pv)
		}
		if !slices.ContainsFunc(ball, func(nb wvaNeighbor) bool { return int(nb.ID) == w }) {
			t.Errorf("%q: ball lacks the word itself", word)
		}
	}
}
