package attack

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/wordveil/wordveil/internal/audit"
	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
)

// zWide is the normal quantile of a two-sided stattest.FalseFailureRate
// (1e-6): the tests compare each exact rate with the sampled rate's
// Wilson interval at this level, so that a correct attacker fails one
// comparison with probability about 1e-6. The 95% intervals Attack
// reports would fail one comparison in twenty by design; how many of
// them cover the exact rate is logged.
const zWide = 4.891638

func tokensFrom(prior []float64, count int, label string) []int {
	d := newDrawer(prior, seeded.Key(stattest.Seed("attack/tokens/"+label)))
	tokens := make([]int, count)
	for i := range tokens {
		tokens[i] = d.draw()
	}
	return tokens
}

// rateCheck compares exact rates with sampled ones for k = 1 and 5 (and
// the baselines), counting how many 95% intervals covered the exact
// value.
type rateCheck struct {
	t                *testing.T
	tokens           int
	covered, checked int
}

func (r *rateCheck) compare(what string, exact float64, got Interval) {
	r.t.Helper()
	r.checked++
	if got.Lo <= exact && exact <= got.Hi {
		r.covered++
	}
	wide := wilson(got.Rate*float64(r.tokens), r.tokens, zWide)
	if exact < wide.Lo || exact > wide.Hi {
		r.t.Errorf("%s: exact %.4f outside the sampled rate's interval [%.4f, %.4f] (rate %.4f)", what, exact, wide.Lo, wide.Hi, got.Rate)
	}
}

func tokenCount() int {
	if testing.Short() {
		return 10000
	}
	return 100000
}

// TestExactRatesMatchSampled: on every mechanism of the audit's table,
// the exact top-1 and top-5 recovery rates and baselines (Exact) lie
// within the interval of the rates the sampled attacker reaches (Attack:
// tokens drawn from a skewed prior with a zero, privatized by the real
// sampler, seeded; the law as a Matrix). Negative control: the exact rate
// for the prior ignored (a uniform prior) must fall outside wherever it
// is more than two interval widths from the true rate.
func TestExactRatesMatchSampled(t *testing.T) {
	cs := mechCases(t)
	rc := &rateCheck{t: t, tokens: tokenCount()}
	controls, keptControls := 0, 0
	for i, c := range cs {
		name := c.Name + " ε=" + audit.FormatFloat(c.Eps) + "/" + c.Vocabulary
		n := len(c.P)
		prior := zipfPrior(n)
		ex, err := Exact(c.P, prior, 5)
		if err != nil {
			t.Fatal(err)
		}
		law, err := NewMatrix(c.P)
		if err != nil {
			t.Fatal(err)
		}
		label := "rates " + strconv.Itoa(i)
		got, err := Attack(tokensFrom(prior, rc.tokens, label), c.Mech, seeded.Key(stattest.Seed("attack/mech/"+label)), law, prior, 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 5} {
			rc.compare(name+" R_"+strconv.Itoa(k), ex.Recovery[k-1], got.Recovery[k-1])
			rc.compare(name+" baseline_"+strconv.Itoa(k), ex.Baseline[k-1], got.Baseline[k-1])
		}
		// The kept share: Σ_w prior(w)·P[w][w]; control: the same share
		// under a uniform prior, where it is far enough to be told apart.
		kept, keptUniform, total := 0.0, 0.0, 0.0
		for w := range n {
			kept += prior[w] * c.P[w][w]
			keptUniform += c.P[w][w] / float64(n)
			total += prior[w]
		}
		kept /= total
		rc.compare(name+" kept", kept, got.Kept)
		if wk := wilson(got.Kept.Rate*float64(rc.tokens), rc.tokens, zWide); math.Abs(keptUniform-kept) > 2*(wk.Hi-wk.Lo) {
			keptControls++
			if keptUniform >= wk.Lo && keptUniform <= wk.Hi {
				t.Errorf("%s: control (uniform prior) kept share %.4f inside [%.4f, %.4f]", name, keptUniform, wk.Lo, wk.Hi)
			}
		}
		wrong, err := Exact(c.P, uniformPrior(n), 1)
		if err != nil {
			t.Fatal(err)
		}
		wide := wilson(got.Recovery[0].Rate*float64(rc.tokens), rc.tokens, zWide)
		if math.Abs(wrong.Recovery[0]-ex.Recovery[0]) > 2*(wide.Hi-wide.Lo) {
			controls++
			if wrong.Recovery[0] >= wide.Lo && wrong.Recovery[0] <= wide.Hi {
				t.Errorf("%s: control (prior ignored) R_1 %.4f inside [%.4f, %.4f]", name, wrong.Recovery[0], wide.Lo, wide.Hi)
			}
		}
	}
	if controls < 8 {
		t.Errorf("the prior-ignored control ran on %d cases, want ≥ 8", controls)
	}
	if keptControls < 4 {
		t.Errorf("the kept-share control ran on %d cases, want ≥ 4", keptControls)
	}
	t.Logf("%d comparisons, %d inside their 95%% interval; control run on %d of %d cases", rc.checked, rc.covered, controls, len(cs))
}

// TestClosedFormColumnsAttack: the attacker using the per-column laws
// (Geometric, NewRestrictedGeometric, NewListTEM, NewTEM: what runs at
// N = 50,000) against the
// real samplers reaches the exact rates computed from dpexact's matrices.
func TestClosedFormColumnsAttack(t *testing.T) {
	const n, L = 24, 10
	low := dpexact.SyntheticCodes(n, L, "attack/rate codes")
	codes := make([]hamming.Code, n)
	for i, c := range low {
		codes[i][0] = c
	}
	x, err := hamming.NewIndex(codes)
	if err != nil {
		t.Fatal(err)
	}
	hd := func(a, b int) float64 { return float64(bits.OnesCount64(low[a] ^ low[b])) }
	var lists []wva.Permutation
	var pos [][]int
	for _, label := range []string{"attack/rate list0", "attack/rate list1"} {
		order := dpexact.SyntheticOrder(n, label)
		p, err := wva.NewPermutation(order)
		if err != nil {
			t.Fatal(err)
		}
		lists = append(lists, p)
		pos = append(pos, listPos(n, label))
	}
	excluded := []int{0, 3, 6, 9, 12, 15, 18, 21}
	outs, err := mechanism.NewOutputs(n, excluded)
	if err != nil {
		t.Fatal(err)
	}
	allowed := outs.Mask(n)
	type setup struct {
		mech mechanism.Mechanism
		col  Column
		P    [][]float64
	}
	must := func(t *testing.T, s setup, errs ...error) setup {
		t.Helper()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	for _, c := range []struct {
		name string
		eps  float64
		mk   func(t *testing.T, eps float64) setup
	}{
		{"1-DG two lists", 0.5, func(t *testing.T, eps float64) setup {
			m, err1 := mechanism.NewDiffractorGeometric(lists, eps)
			g0, err2 := NewGeometric(pos[0], eps)
			g1, err3 := NewGeometric(pos[1], eps)
			col, err4 := NewMixture(g0, g1)
			P, err5 := dpexact.DiffractorGeometric(pos, eps)
			return must(t, setup{m, col, P}, err1, err2, err3, err4, err5)
		}},
		{"1-DG over A, two lists", 0.5, func(t *testing.T, eps float64) setup {
			m, err1 := mechanism.NewDiffractorGeometric(lists, eps)
			if err1 == nil {
				m, err1 = mechanism.Restrict(m, outs)
			}
			g0, err2 := NewRestrictedGeometric(pos[0], eps, allowed)
			g1, err3 := NewRestrictedGeometric(pos[1], eps, allowed)
			col, err4 := NewMixture(g0, g1)
			P, err5 := dpexact.RestrictedDiffractorGeometric(pos, eps, allowed)
			return must(t, setup{m, col, P}, err1, err2, err3, err4, err5)
		}},
		{"1-DT two lists γ=4", 0.8, func(t *testing.T, eps float64) setup {
			m, err1 := mechanism.NewDiffractorTEM(lists, eps, mechanism.TEMOptions{Gamma: 4})
			g0, err2 := NewListTEM(pos[0], 4, eps, nil)
			g1, err3 := NewListTEM(pos[1], 4, eps, nil)
			col, err4 := NewMixture(g0, g1)
			P, err5 := dpexact.DiffractorTEM(pos, 4, eps)
			return must(t, setup{m, col, P}, err1, err2, err3, err4, err5)
		}},
		{"TEMHamming γ=3", 3, func(t *testing.T, eps float64) setup {
			m, err1 := mechanism.NewTEMHamming(x, eps, mechanism.TEMOptions{Gamma: 3})
			col, err2 := NewTEM(n, hd, 3, eps, nil)
			P, err3 := dpexact.TEM(dpexact.HammingDistances(low), 3, eps)
			return must(t, setup{m, col, P}, err1, err2, err3)
		}},
		{"TEMHamming over A γ=3", 3, func(t *testing.T, eps float64) setup {
			m, err1 := mechanism.NewTEMHamming(x, eps, mechanism.TEMOptions{Gamma: 3})
			if err1 == nil {
				m, err1 = mechanism.Restrict(m, outs)
			}
			col, err2 := NewTEM(n, hd, 3, eps, allowed)
			P, err3 := dpexact.RestrictedTEM(dpexact.HammingDistances(low), 3, eps, allowed)
			return must(t, setup{m, col, P}, err1, err2, err3)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.mk(t, c.eps)
			prior := zipfPrior(n)
			ex, err := Exact(s.P, prior, 5)
			if err != nil {
				t.Fatal(err)
			}
			rc := &rateCheck{t: t, tokens: tokenCount()}
			label := "closed " + c.name
			got, err := Attack(tokensFrom(prior, rc.tokens, label), s.mech, seeded.Key(stattest.Seed("attack/mech/"+label)), s.col, prior, 5)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []int{1, 5} {
				rc.compare("R_"+strconv.Itoa(k), ex.Recovery[k-1], got.Recovery[k-1])
			}
			t.Logf("R_1 exact %.4f sampled %.4f [%.4f, %.4f]; R_5 exact %.4f sampled %.4f; baseline_1 %.4f",
				ex.Recovery[0], got.Recovery[0].Rate, got.Recovery[0].Lo, got.Recovery[0].Hi, ex.Recovery[4], got.Recovery[4].Rate, ex.Baseline[0])
		})
	}
}

func TestAttackRejectsBadInput(t *testing.T) {
	cs := mechCases(t)
	c := cs[0]
	n := len(c.P)
	law, err := NewMatrix(c.P)
	if err != nil {
		t.Fatal(err)
	}
	small, err := NewMatrix(identity(2))
	if err != nil {
		t.Fatal(err)
	}
	src := seeded.Key(stattest.Seed("attack/bad"))
	prior := uniformPrior(n)
	for _, b := range []struct {
		name   string
		tokens []int
		m      Sampler
		law    Column
		prior  []float64
		kmax   int
	}{
		{"no tokens", nil, c.Mech, law, prior, 1},
		{"token out of range", []int{n}, c.Mech, law, prior, 1},
		{"negative token", []int{-1}, c.Mech, law, prior, 1},
		{"nil sampler", []int{0}, nil, law, prior, 1},
		{"nil law", []int{0}, c.Mech, nil, prior, 1},
		{"law of another size", []int{0}, c.Mech, small, prior, 1},
		{"bad prior", []int{0}, c.Mech, law, make([]float64, n), 1},
		{"kmax 0", []int{0}, c.Mech, law, prior, 0},
		{"kmax huge", []int{0}, c.Mech, law, prior, math.MaxInt},
	} {
		if _, err := Attack(b.tokens, b.m, src, b.law, b.prior, b.kmax); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
	if _, err := Attack([]int{0}, c.Mech, nil, law, prior, 1); err == nil {
		t.Error("nil source accepted")
	}
	if _, err := Attack([]int{0}, badSampler{n}, src, law, prior, 1); err == nil {
		t.Error("an output outside the vocabulary accepted")
	}
}

// badSampler releases a word outside its vocabulary.
type badSampler struct{ n int }

func (b badSampler) Privatize(int, rand.Source) (int, error) { return b.n, nil }
func (b badSampler) Len() int                                { return b.n }
