package brrbound

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/attack"
)

// small is BRR over a dense corner of the embedded asset: the n words
// whose codes are nearest to the most frequent word's (itself included;
// ties to the lower id), so that, as in the whole vocabulary, a noisy
// code often lands nearer another word. The prior is Zipf's in the
// asset's (frequency) order, π ∝ 1/(rank+1), typed text being about
// Zipfian; the law is estimated to high precision: draws outputs per word
// for every pair.
type small struct {
	codes []hamming.Code
	m     mechanism.Mechanism
	prior []float64   // normalized
	law   [][]float64 // law[x][y] ≈ Pr[M(x) = y]
}

func newSmall(t *testing.T, n int, eps float64, draws int, src rand.Source) *small {
	t.Helper()
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int, a.Len())
	for i := range ids {
		ids[i] = i
	}
	slices.SortStableFunc(ids, func(x, y int) int {
		return cmp.Compare(hamming.Distance(a.Codes[0], a.Codes[x]), hamming.Distance(a.Codes[0], a.Codes[y]))
	})
	ids = ids[:n]
	slices.Sort(ids) // the asset's order: frequency
	codes := make([]hamming.Code, n)
	for i, w := range ids {
		codes[i] = a.Codes[w]
	}
	idx, err := hamming.NewIndex(codes)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mechanism.NewBRR(idx, eps)
	if err != nil {
		t.Fatal(err)
	}
	s := &small{codes: codes, m: m, prior: make([]float64, n), law: make([][]float64, n)}
	total := 0.0
	for r := range n {
		s.prior[r] = 1 / float64(r+1)
		total += s.prior[r]
	}
	for x := range n {
		s.prior[x] /= total
		s.law[x] = make([]float64, n)
		for range draws {
			y, err := m.Privatize(x, src)
			if err != nil {
				t.Fatal(err)
			}
			s.law[x][y] += 1 / float64(draws)
		}
	}
	return s
}

// optimum is the Bayes attacker's top-1 recovery on the estimated law,
// Σ_y max_x π(x)·P(y|x): an estimate biased upwards (Law.Bounds), which
// makes the check against it stricter, not looser.
func (s *small) optimum() float64 {
	v := 0.0
	for y := range s.law {
		best := 0.0
		for x := range s.law {
			best = max(best, s.prior[x]*s.law[x][y])
		}
		v += best
	}
	return v
}

// optimumK is the Bayes attacker's top-k recovery on the estimated law,
// Σ_y (sum of the k largest π(x)·P(y|x) over x): biased upwards, like
// optimum (which is optimumK(1)).
func (s *small) optimumK(k int) float64 {
	v := 0.0
	col := make([]float64, len(s.law))
	for y := range s.law {
		for x := range s.law {
			col[x] = s.prior[x] * s.law[x][y]
		}
		slices.SortFunc(col, func(a, b float64) int { return cmp.Compare(b, a) })
		for _, p := range col[:min(k, len(col))] {
			v += p
		}
	}
	return v
}

// recovery is attacker g's top-1 recovery on the estimated law,
// Σ_y π(g(y))·P(y|g(y)): unbiased for a g fitted on other draws.
func (s *small) recovery(g func(y int) int) float64 {
	v := 0.0
	for y := range s.law {
		if x := g(y); x >= 0 && x < len(s.law) {
			v += s.prior[x] * s.law[x][y]
		}
	}
	return v
}

// argmax returns the x maximizing score(x) (ties to the lowest).
func argmax(n int, score func(x int) float64) int {
	best := 0
	for x := 1; x < n; x++ {
		if score(x) > score(best) {
			best = x
		}
	}
	return best
}

// fittedAttacker is the attacker Law.Bounds measures for its lower
// bound, fitted on draws per word of fresh draws from src.
func (s *small) fittedAttacker(t *testing.T, draws int, src rand.Source) func(int) int {
	t.Helper()
	words := make([]int, len(s.codes))
	for i := range words {
		words[i] = i
	}
	l, err := EstimateLaw(s.m, words, draws, src)
	if err != nil {
		t.Fatal(err)
	}
	return l.guess(s.prior)
}

// keepKernelAttacker is the trained model of research/internal/eval/levels
// (attack.KeepKernel, 200 draws per word, shrinkage 10), ranking by
// π(x)·P̂(y|x).
func (s *small) keepKernelAttacker(t *testing.T, src rand.Source) func(int) int {
	t.Helper()
	h, err := attack.NewHammingHist(s.codes, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	words := make([]int, len(s.codes))
	for i := range words {
		words[i] = i
	}
	k, err := h.TrainKeepKernel(s.m, src, words, 200, 10)
	if err != nil {
		t.Fatal(err)
	}
	col := make([]float64, len(s.codes))
	return func(y int) int {
		if err := k.Column(y, col); err != nil {
			t.Fatal(err)
		}
		return argmax(len(col), func(x int) float64 { return s.prior[x] * col[x] })
	}
}

// TestAttackerNearOptimal is the optimality check of BRR's attacker on a
// vocabulary small enough that BRR's law is estimated for every pair: at
// each level's ε of the embedded asset, the attacker of the levels' table
// (attack.KeepKernel trained on 200 draws per word, the lower bound
// `wordveil stats` reports) recovers at least 0.95 of the Bayes optimum
// computed from the high-precision law. The raw plug-in attacker of
// Law.Bounds (200 draws per word) is logged beside it, not asserted: at
// strong it sits at the threshold (0.950 in the short run).
// The negative controls must fail the same check: an attacker that
// answers with its second-best guess, at every level, and one that
// ignores the prior (maximum likelihood, even with the high-precision law
// itself) at strong, where the prior matters (at balanced and light the
// likelihood alone comes within 3% of the optimum here, so that control
// is logged, not asserted).
func TestAttackerNearOptimal(t *testing.T) {
	n, hiDraws := 100, 4000
	if !testing.Short() {
		n, hiDraws = 200, 40000
	}
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []string{mechanism.LevelStrong, mechanism.LevelBalanced, mechanism.LevelLight} {
		eps, err := mechanism.Preset(a, mechanism.NameBRR, level)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(level, func(t *testing.T) {
			s := newSmall(t, n, eps, hiDraws, seeded.Source(1))
			opt := s.optimum()
			ml := func(y int) int { return argmax(n, func(x int) float64 { return s.law[x][y] }) }
			second := func(y int) int {
				first := argmax(n, func(x int) float64 { return s.prior[x] * s.law[x][y] })
				return argmax(n, func(x int) float64 {
					if x == first {
						return -1
					}
					return s.prior[x] * s.law[x][y]
				})
			}
			for _, tc := range []struct {
				name  string
				g     func(int) int
				pass  bool
				check bool
			}{
				{"fitted (Law.Bounds)", s.fittedAttacker(t, 200, seeded.Source(2)), true, false},
				{"keep-kernel model (levels)", s.keepKernelAttacker(t, seeded.Source(3)), true, true},
				{"control: ignores the prior", ml, false, level == mechanism.LevelStrong},
				{"control: second-best guess", second, false, true},
			} {
				r := s.recovery(tc.g)
				t.Logf("ε %.4f, %d words: %-28s %.4f of optimum %.4f (%.3f)", eps, n, tc.name, r, opt, r/opt)
				if got := r >= 0.95*opt; tc.check && got != tc.pass {
					t.Errorf("%s: recovery %.4f, optimum %.4f: ratio %.3f, want ≥ 0.95: %v", tc.name, r, opt, r/opt, tc.pass)
				}
			}
		})
	}
}

// TestBoundsBracketOptimum: on the small vocabulary, the interval of
// Law.Bounds (200 draws per word and half) and Upper's bound hold the
// optimum computed from the high-precision law, at every level.
func TestBoundsBracketOptimum(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	const n = 100
	for _, level := range []string{mechanism.LevelStrong, mechanism.LevelBalanced, mechanism.LevelLight} {
		eps, err := mechanism.Preset(a, mechanism.NameBRR, level)
		if err != nil {
			t.Fatal(err)
		}
		s := newSmall(t, n, eps, 4000, seeded.Source(1))
		opt := s.optimum()
		words := make([]int, n)
		for i := range words {
			words[i] = i
		}
		l, err := EstimateLaw(s.m, words, 200, seeded.Source(4))
		if err != nil {
			t.Fatal(err)
		}
		iv, err := l.Bounds(s.prior, 0.025)
		if err != nil {
			t.Fatal(err)
		}
		up, err := Upper(s.codes, eps, s.prior, 4000, 0.025, seeded.Source(5))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: optimum %.4f in [%.4f, %.4f] (plug-in %.4f); noisy-code bound %.4f", level, opt, iv.Lo, iv.Hi, iv.PlugIn, up.Hi[0])
		// The optimum is itself an estimate (4000 draws per word): a
		// slack of 0.01 covers its error.
		if !(iv.Lo <= opt+0.01 && opt <= iv.Hi+0.01 && opt <= up.Hi[0]+0.01) || iv.Mass < 1-1e-9 {
			t.Errorf("%s: optimum %.4f outside [%.4f, %.4f] or above %.4f (mass %v)", level, opt, iv.Lo, iv.Hi, up.Hi[0], iv.Mass)
		}
	}
}

// TestErrors: bad arguments are errors, never panics.
func TestErrors(t *testing.T) {
	codes := []hamming.Code{{}, {1}}
	src := seeded.Source(1)
	for _, f := range []func() error{
		func() error { _, err := Upper(nil, 1, nil, 1, 0.1, src); return err },
		func() error { _, err := Upper(codes, 0, []float64{1, 1}, 1, 0.1, src); return err },
		func() error { _, err := Upper(codes, 1, []float64{1}, 1, 0.1, src); return err },
		func() error { _, err := Upper(codes, 1, []float64{0, 0}, 1, 0.1, src); return err },
		func() error { _, err := Upper(codes, 1, []float64{1, 1}, 0, 0.1, src); return err },
		func() error { _, err := Upper(codes, 1, []float64{1, 1}, 1, 1, src); return err },
		func() error { _, err := Upper(codes, 1, []float64{1, 1}, 1, 0.1, nil); return err },
		func() error { _, err := EstimateLaw(nil, []int{0}, 1, src); return err },
		func() error { _, err := (*Law)(nil).Bounds([]float64{1}, 0.1); return err },
		func() error { _, err := Tokens([]int{2}, 2); return err },
	} {
		if err := f(); !errors.Is(err, ErrInvalid) {
			t.Errorf("err = %v, want ErrInvalid", err)
		}
	}
}
