package mechanism

import (
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
)

// Test1DTExactOverRange: 1-DT's sampler draws its closed-form law
// (dpexact, from the definition) over its whole ε range: at the floor
// (where the offset is drawn from the window's law, SignedGeometric.Within,
// since an unbounded draw would land in the window under 1% of the time),
// at a small ε with a narrow γ (Within on windows cut by the list's ends),
// at the balanced preset of the default asset (the unbounded draw) and at
// MaxEpsilon; unrestricted and over an output vocabulary without every
// third word. Negative control: the restricted sampler's counts against
// the unrestricted law (what a sampler ignoring A would draw) must fail
// (wherever the two laws differ: at MaxEpsilon both keep an allowed w).
func Test1DTExactOverRange(t *testing.T) {
	const n = 12
	draws := 40000
	if testing.Short() {
		draws = 10000
	}
	l1, p1 := syntheticList(t, n, "1dt-range-a")
	l2, p2 := syntheticList(t, n, "1dt-range-b")
	lists, pos := []wva.Permutation{l1, l2}, [][]int{p1, p2}
	balanced, err := Preset(defaultAsset(t), Name1DT, LevelBalanced)
	if err != nil {
		t.Fatal(err)
	}
	var excluded []int
	for w := 0; w < n; w += 3 {
		excluded = append(excluded, w)
	}
	o, allowed := testOutputs(t, n, excluded...)
	src := seeded.Key(stattest.Seed("1dt-exact-range"))
	for _, c := range []struct {
		name string
		eps  float64
		opts TEMOptions
	}{
		{"floor", listFloor(n), TEMOptions{}},
		{"small ε, γ=3", 0.05, TEMOptions{Gamma: 3}},
		{"balanced preset", balanced, TEMOptions{}},
		{"MaxEpsilon", MaxEpsilon, TEMOptions{}},
	} {
		m, err := newDT(lists, c.eps, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Restrict(m, o)
		if err != nil {
			t.Fatal(err)
		}
		free, err := dpexact.DiffractorTEM(pos, m.gamma, c.eps)
		if err != nil {
			t.Fatal(err)
		}
		over, err := dpexact.RestrictedDiffractorTEM(pos, m.gamma, c.eps, allowed)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{int(l1.Order[0]), int(l1.Order[n/2]), int(l2.Order[n-1])} {
			for _, k := range []struct {
				what     string
				m        Mechanism
				law      []float64
				wantFail bool
			}{
				{"unrestricted", m, free[w], false},
				{"over A", r, over[w], false},
				{"control: over A against the unrestricted law", r, free[w], true},
			} {
				if k.wantFail && c.eps == MaxEpsilon && allowed[w] {
					continue // both laws keep w: nothing to tell apart
				}
				counts, err := stattest.SampleCounts(k.m, w, draws, src)
				if err != nil {
					t.Fatal(err)
				}
				stat, df, pv := stattest.ChiSquare(counts, k.law)
				if failed := pv < stattest.FalseFailureRate; failed != k.wantFail {
					t.Errorf("%s (ε=%g) w=%d %s: chi2=%.1f df=%d p=%.3g, want failure %v", c.name, c.eps, w, k.what, stat, df, pv, k.wantFail)
				}
			}
		}
	}
}
