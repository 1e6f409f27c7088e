package mechanism

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/epsrange"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
)

// sweepMech builds one product mechanism on a small synthetic vocabulary
// at ε, with its exact law (dpexact, computed from the closed form, not
// by the sampler) and its floor.
type sweepMech struct {
	name   string
	floor  float64 // the documented floor, computed here from D
	build  func(eps float64) (Mechanism, error)
	law    func(m Mechanism) ([][]float64, error)
	inputs []int
}

func sweepMechs(t *testing.T) []sweepMech {
	t.Helper()
	low, codes := syntheticCodes(16, 10, "sweep")
	idx := newIndex(t, codes)
	d := hammingMatrix(low)
	lp, lpos := syntheticList(t, 30, "sweep")
	lists := []wva.Permutation{lp}
	pos := [][]int{lpos}
	order := make([]int, len(lpos))
	for w, p := range lpos {
		order[p] = w
	}
	ct, _ := custextTestAsset(t, 20, 5)
	dct := hammingMatrix(ct.low)
	groups := make([]int, 20)
	for w := range groups {
		groups[w] = w % 5
	}
	s := assetSubset(t)
	hamFloor := 1e-3 / 256
	return []sweepMech{
		{"BRR", hamFloor, func(e float64) (Mechanism, error) { return NewBRR(idx, e) },
			func(m Mechanism) ([][]float64, error) { return dpexact.BRR(low, 10, m.Epsilon()) }, []int{0, 7, 15}},
		{"TEM (Hamming)", hamFloor, func(e float64) (Mechanism, error) { return NewTEMHamming(idx, e, TEMOptions{}) },
			func(m Mechanism) ([][]float64, error) {
				return dpexact.TEM(d, m.(*temHammingMech).Gamma(), m.Epsilon())
			}, []int{0, 7, 15}},
		{"SanText", hamFloor, func(e float64) (Mechanism, error) { return NewSanText(idx, e) },
			func(m Mechanism) ([][]float64, error) { return dpexact.SanText(d, m.Epsilon()) }, []int{0, 7, 15}},
		// Inputs at both ends of the list and inside it: the closed forms
		// differ (1/(1+r) at an end, (1−r)/(1+r) inside for 1-DG).
		{"1-DG", 1e-3 / 29, func(e float64) (Mechanism, error) { return NewDiffractorGeometric(lists, e) },
			func(m Mechanism) ([][]float64, error) { return dpexact.DiffractorGeometric(pos, m.Epsilon()) },
			[]int{order[0], order[1], order[15], order[29]}},
		{"1-DT", 1e-3 / 29, func(e float64) (Mechanism, error) { return NewDiffractorTEM(lists, e, TEMOptions{}) },
			func(m Mechanism) ([][]float64, error) {
				return dpexact.DiffractorTEM(pos, m.(*dtMech).Gamma(), m.Epsilon())
			}, []int{order[0], order[1], order[15], order[29]}},
		// TEM's floor is where Theorem 4.2's γ fits the lists' γ_max.
		{"TEM", temFloor(s.tem, TEMOptions{}), func(e float64) (Mechanism, error) { return NewTEM(s.tem, e, TEMOptions{}) },
			func(m Mechanism) ([][]float64, error) {
				return dpexact.TEM(s.dist, m.(*temMech).Gamma(), m.Epsilon())
			}, []int{0, 1, len(s.ids) - 1}},
		{"CusText", 1e-3, func(e float64) (Mechanism, error) { return NewCusText(ct.a, e) },
			func(m Mechanism) ([][]float64, error) { return dpexact.CusText(dct, groups, m.Epsilon(), nil) }, []int{0, 6, 19}},
	}
}

// binomialPValue is the exact two-sided p-value of x successes in n
// trials of probability p: the total probability of the counts no more
// likely than x.
func binomialPValue(x, n int, p float64) float64 {
	if p <= 0 {
		return b2f(x == 0)
	}
	if p >= 1 {
		return b2f(x == n)
	}
	lg := func(k int) float64 {
		a, _ := math.Lgamma(float64(n + 1))
		b, _ := math.Lgamma(float64(k + 1))
		c, _ := math.Lgamma(float64(n - k + 1))
		return a - b - c + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p)
	}
	at := lg(x)
	sum := 0.0
	for k := 0; k <= n; k++ {
		if l := lg(k); l <= at+1e-9 {
			sum += math.Exp(l)
		}
	}
	return min(sum, 1)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// sweepEpsilons is the accepted range [lo, hi] sampled: the floor, a few
// decades above it, and some working values, all within the range (fewer
// with -short).
func sweepEpsilons(lo, hi float64) []float64 {
	grid := []float64{lo, lo * 10, lo * 1000, 0.01, 0.3, 1, 3, hi}
	if testing.Short() {
		grid = []float64{lo, lo * 1000, 0.3, 1, hi}
	}
	var out []float64
	for _, e := range grid {
		if e >= lo && e <= hi && (len(out) == 0 || e > out[len(out)-1]) {
			out = append(out, e)
		}
	}
	return out
}

// releaseCheck draws m's output for w draws times and tests the count of
// outputs equal to w against want = Pr[output = w] (exact binomial test at
// stattest.FalseFailureRate). It reports whether the test rejected.
func releaseCheck(t *testing.T, m Mechanism, w, draws int, want float64, src rand.Source) (int, float64) {
	t.Helper()
	kept := 0
	for range draws {
		y, err := m.Privatize(w, src)
		if err != nil {
			t.Fatal(err)
		}
		if y == w {
			kept++
		}
	}
	return kept, binomialPValue(kept, draws, want)
}

// TestEpsilonSweep: over every product mechanism's accepted range, down
// to its floor, the probability of releasing the input matches its closed
// form (dpexact's exact law, diagonal). Power: with 2,500 draws (40,000
// without -short) the test rejects at p < 10^-6, which at Pr = 1/2 detects
// a shift of about 0.05 (0.013); at the floor, where 1-DG keeps an inner
// word with probability ≈ ε/2 ≈ 2·10^-5, a sampler that keeps it even
// 1% of the time is rejected. The old 1-DG/1-DT noise (a difference of
// two geometric draws capped at 2^52) was exact above ε ≈ 2^-52 per
// position, far below every floor, so the sweep also runs 1-DG's and
// 1-DT's samplers past the range check down to 5e-324 (the subtest
// "samplers below the floor"): with the old noise that subtest fails.
func TestEpsilonSweep(t *testing.T) {
	t.Run("samplers below the floor", testListSamplersBelowTheFloor)
	draws := 40000
	if testing.Short() {
		draws = 2500
	}
	src := rand.NewChaCha8(stattest.Seed("epsilon-sweep"))
	for _, sm := range sweepMechs(t) {
		t.Run(sm.name, func(t *testing.T) {
			probe, err := sm.build(1e3 * sm.floor)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi, ok := EpsilonRange(probe)
			if !ok || math.Abs(lo-sm.floor) > 1e-12*sm.floor {
				t.Fatalf("EpsilonRange floor %v, want %v", lo, sm.floor)
			}
			// TEM's floor comes from a formula a rounding may leave a hair
			// below what the lists accept.
			lo = lo * (1 + 1e-12)
			for _, eps := range sweepEpsilons(lo, hi) {
				m, err := sm.build(eps)
				if err != nil {
					t.Fatalf("ε=%g in [%g, %g] refused: %v", eps, lo, hi, err)
				}
				P, err := sm.law(m)
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range sm.inputs {
					kept, pv := releaseCheck(t, m, w, draws, P[w][w], src)
					if pv < stattest.FalseFailureRate {
						t.Errorf("ε=%g word %d: kept %d of %d, closed form %.6g (p=%.3g)", eps, w, kept, draws, P[w][w], pv)
					}
				}
			}
		})
	}
}

// keepsInput is what the old 1-DG was below ε ≈ 2^-52: the input back.
type keepsInput struct{ Mechanism }

func (keepsInput) Privatize(w int, _ rand.Source) (int, error) { return w, nil }

// TestEpsilonSweepControl: the sweep's test rejects a mechanism that keeps
// its input at the floor, and one whose law is 1-DG's at 4·ε (a wrong
// closed form) at working ε.
func TestEpsilonSweepControl(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("epsilon-sweep-control"))
	lp, lpos := syntheticList(t, 30, "sweep")
	m, err := NewDiffractorGeometric([]wva.Permutation{lp}, 1e-3/29)
	if err != nil {
		t.Fatal(err)
	}
	P, err := dpexact.DiffractorGeometric([][]int{lpos}, m.Epsilon())
	if err != nil {
		t.Fatal(err)
	}
	w := int(lp.Order[15])
	if kept, pv := releaseCheck(t, keepsInput{m}, w, 4000, P[w][w], src); pv >= stattest.FalseFailureRate {
		t.Errorf("control kept %d of 4000 against %.3g: not rejected (p=%.3g)", kept, P[w][w], pv)
	}
	m, _ = NewDiffractorGeometric([]wva.Permutation{lp}, 0.3)
	P, _ = dpexact.DiffractorGeometric([][]int{lpos}, 1.2)
	if kept, pv := releaseCheck(t, m, w, 4000, P[w][w], src); pv >= stattest.FalseFailureRate {
		t.Errorf("control at the law of 4ε: kept %d of 4000 against %.3g, not rejected (p=%.3g)", kept, P[w][w], pv)
	}
}

// TestEpsilonFloorRefused: below its floor every constructor and New
// refuse ε with ErrInvalidEpsilon (a usage error), down to the smallest
// float64; at the floor they accept it.
func TestEpsilonFloorRefused(t *testing.T) {
	for _, sm := range sweepMechs(t) {
		for _, eps := range []float64{sm.floor / 2, sm.floor * (1 - 1e-9), 1e-16, 1e-17, 1e-300, 5e-324} {
			if m, err := sm.build(eps); !errors.Is(err, ErrInvalidEpsilon) || m != nil {
				t.Errorf("%s at ε=%g below the floor %g: (%v, %v), want ErrInvalidEpsilon", sm.name, eps, sm.floor, m, err)
			}
		}
		if _, err := sm.build(sm.floor * (1 + 1e-12)); err != nil {
			t.Errorf("%s at its floor %g: %v", sm.name, sm.floor, err)
		}
	}
	a := defaultAsset(t)
	for _, name := range Names() {
		for _, eps := range []float64{1e-16, 1e-17, 1e-20, 1e-300, 5e-324} {
			if _, err := New(name, a, eps, Options{AllowSaturated: true}); !errors.Is(err, ErrInvalidEpsilon) {
				t.Errorf("New(%s, ε=%g): %v, want ErrInvalidEpsilon", name, eps, err)
			}
		}
	}
}

// TestPresetFloorMatchesFacts: the floor the asset reader checks presets
// with (epsrange.PresetFloor, by name) is the floor every mechanism
// reports, so a preset the reader accepts is one New accepts (up to the
// saturation bound, which needs the mechanism).
func TestPresetFloorMatchesFacts(t *testing.T) {
	a := defaultAsset(t)
	for _, name := range Names() {
		m, err := New(name, a, 20, Options{AllowSaturated: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, ok := epsrange.PresetFloor(name, a.Len(), a.TEM.GammaMax())
		want := m.(Facts).EpsilonFloor()
		if name == NameTEM {
			// TEM's floor also makes Theorem 4.2's γ fit; the reader
			// checks the 0.001/γ_max part, New the rest.
			want = epsrange.Floor(a.TEM.GammaMax())
		}
		if !ok || got != want {
			t.Errorf("%s: PresetFloor %v (%v), Facts %v", name, got, ok, want)
		}
	}
}

// testListSamplersBelowTheFloor (part of TestEpsilonSweep): the floor is a policy, not a crutch:
// 1-DG's and 1-DT's samplers, built past the range check, release the
// input with its closed-form probability at ε far below 2^-52 per
// position, where the old noise (a difference of two geometric draws
// capped at 2^52) was exactly 0 and kept every word. 1-DG keeps an inner
// word with probability (1−r)/(1+r) = tanh(ε/2) and an end word with
// 1/(1+r) (the clamped tail), r = e^−ε; 1-DT, whose ball is then the whole
// list, keeps any word with probability 1/Σ_k r^(|k|/2) ≈ 1/N.
func testListSamplersBelowTheFloor(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("below-floor"))
	lp, lpos := syntheticList(t, 30, "sweep")
	lists := []wva.Permutation{lp}
	inner, end := int(lp.Order[15]), int(lp.Order[29])
	const draws = 4000
	for _, eps := range []float64{1e-16, 1e-17, 1e-20, 1e-300, 5e-324} {
		dg, err := dgWith(lists, 30, eps)
		if err != nil {
			t.Fatal(err)
		}
		r := math.Exp(-eps)
		for _, c := range []struct {
			w    int
			want float64
		}{{inner, math.Tanh(eps / 2)}, {end, 1 / (1 + r)}} {
			if kept, pv := releaseCheck(t, dg, c.w, draws, c.want, src); pv < stattest.FalseFailureRate {
				t.Errorf("1-DG ε=%g word at position %d: kept %d of %d, closed form %.3g (p=%.3g)", eps, lpos[c.w], kept, draws, c.want, pv)
			}
		}
		if eps/2 == 0 {
			continue // 1-DT's ε/2 underflows: no sampler at all
		}
		dt, err := dtWith(lists, 30, eps, TEMOptions{})
		if err != nil {
			t.Fatal(err)
		}
		P, err := dpexact.DiffractorTEM([][]int{lpos}, dt.Gamma(), eps)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{inner, end} {
			if kept, pv := releaseCheck(t, dt, w, draws, P[w][w], src); pv < stattest.FalseFailureRate {
				t.Errorf("1-DT ε=%g word at position %d: kept %d of %d, closed form %.3g (p=%.3g)", eps, lpos[w], kept, draws, P[w][w], pv)
			}
		}
	}
}
