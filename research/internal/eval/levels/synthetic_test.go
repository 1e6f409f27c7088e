package levels

import (
	"math"
	"reflect"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/attack"
)

// A synthetic asset small enough for dpexact's exact laws: 16 words with
// 8-bit codes, two lists, CusText sets of 4, two excluded words, and
// presets for every mechanism Measure attacks.
const (
	synN, synL = 16, 8
	synSets    = 4
)

var synExcluded = []int{3, 9}

var synPresets = map[string]map[string]float64{
	mechanism.NameBRR:        {mechanism.LevelStrong: 0.8, mechanism.LevelLight: 1.6},
	mechanism.NameTEMHamming: {mechanism.LevelStrong: 0.5, mechanism.LevelBalanced: 1.2},
	mechanism.NameSanText:    {mechanism.LevelBalanced: 0.9},
	mechanism.Name1DG:        {mechanism.LevelStrong: 0.4, mechanism.LevelLight: 1.1},
	mechanism.Name1DT:        {mechanism.LevelBalanced: 0.9},
	mechanism.NameCusText:    {mechanism.LevelStrong: 2, mechanism.LevelLight: 6},
}

type synthetic struct {
	a       *wva.Asset
	low     []uint64
	pos     [][]int
	groups  []int
	allowed []bool
}

func newSynthetic(t *testing.T) synthetic {
	t.Helper()
	s := synthetic{low: dpexact.SyntheticCodes(synN, synL, "levels/codes"), groups: make([]int, synN), allowed: make([]bool, synN)}
	codes := make([]hamming.Code, synN)
	for i, c := range s.low {
		codes[i][0] = c
	}
	var lists []wva.Permutation
	for _, label := range []string{"levels/list0", "levels/list1"} {
		order := dpexact.SyntheticOrder(synN, label)
		p, err := wva.NewPermutation(order)
		if err != nil {
			t.Fatal(err)
		}
		lists = append(lists, p)
		pos := make([]int, synN)
		for q, w := range order {
			pos[w] = q
		}
		s.pos = append(s.pos, pos)
	}
	var sets [][]uint32
	for g := range synN / synSets {
		var m []uint32
		for w := g * synSets; w < (g+1)*synSets; w++ {
			m = append(m, uint32(w))
			s.groups[w] = g
		}
		sets = append(sets, m)
	}
	cs, err := wva.NewCusTextSets(synN, synSets, sets)
	if err != nil {
		t.Fatal(err)
	}
	words := make([]string, synN)
	for i := range words {
		words[i] = "w" + string(rune('a'+i))
	}
	a := (&wva.Asset{Codes: codes, Lists: lists, CusText: cs}).SetWords(words)
	a.Header.Name = "synthetic"
	a.Header.Presets = &wva.Presets{Method: "test", Epsilon: synPresets}
	ex := &wva.Excluded{Source: "test"}
	for w := range s.allowed {
		s.allowed[w] = true
	}
	for _, w := range synExcluded {
		ex.IDs = append(ex.IDs, uint32(w))
		s.allowed[w] = false
	}
	a.Header.Excluded = ex
	s.a = a
	return s
}

// law is dpexact's exact law of the product's mechanism name at ε on the
// synthetic asset, restricted to its allowed outputs.
func (s synthetic) law(t *testing.T, name string, eps float64) [][]float64 {
	t.Helper()
	dH := dpexact.HammingDistances(s.low)
	var P [][]float64
	var err error
	theorem := func() float64 {
		g, err := mechanism.TheoremGamma(eps, mechanism.DefaultBeta, synN)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	switch name {
	case mechanism.NameBRR:
		P, err = dpexact.RestrictedBRR(s.low, synL, eps, s.allowed)
	case mechanism.NameTEMHamming:
		P, err = dpexact.RestrictedTEM(dH, theorem(), eps, s.allowed)
	case mechanism.NameSanText:
		P, err = dpexact.RestrictedSanText(dH, eps, s.allowed)
	case mechanism.Name1DG:
		P, err = dpexact.RestrictedDiffractorGeometric(s.pos, eps, s.allowed)
	case mechanism.Name1DT:
		P, err = dpexact.RestrictedDiffractorTEM(s.pos, theorem(), eps, s.allowed)
	case mechanism.NameCusText:
		P, err = dpexact.CusText(dH, s.groups, eps, s.allowed)
	default:
		t.Fatalf("no law for %s", name)
	}
	if err != nil {
		t.Fatal(err)
	}
	return P
}

func synPrior() []float64 {
	p := make([]float64, synN)
	for w := range p {
		p[w] = 1 / math.Pow(float64(w+1), 0.8)
	}
	return p
}

// synTokens draws count tokens from prior (inverse CDF, seeded).
func synTokens(prior []float64, count int) []int {
	src := seeded.Key(stattest.Seed("levels/tokens"))
	total := 0.0
	for _, p := range prior {
		total += p
	}
	tokens := make([]int, count)
	for i := range tokens {
		u := float64(src.Uint64()>>11) / (1 << 53) * total
		w := 0
		for ; w < len(prior)-1 && u >= prior[w]; w++ {
			u -= prior[w]
		}
		tokens[i] = w
	}
	return tokens
}

// zWide is the normal quantile of a two-sided 1e-6 false-failure rate.
const zWide = 4.891638

func wide(r attack.Interval, n int) (lo, hi float64) {
	// Wilson's interval at zWide around the measured rate.
	z2 := zWide * zWide
	nf := float64(n)
	c := (r.Rate + z2/(2*nf)) / (1 + z2/nf)
	h := zWide / (1 + z2/nf) * math.Sqrt(r.Rate*(1-r.Rate)/nf+z2/(4*nf*nf))
	return c - h, c + h
}

// TestMeasureSyntheticExact: on the synthetic asset, every cell's kept
// share equals Σ_w prior(w)·P[w][w] and its top-1 and top-5 recovery the
// exact attacker's R_k (attack.Exact on dpexact's law of the restricted
// mechanism), within sampling error, tokens being drawn from the prior;
// BRR's trained attacker reaches at most the exact rate. Negative
// control: the kept share at 3 × the preset is rejected wherever it
// differs enough.
func TestMeasureSyntheticExact(t *testing.T) {
	s := newSynthetic(t)
	prior := synPrior()
	count := 20000
	if testing.Short() {
		count = 6000
	}
	tokens := synTokens(prior, count)
	cells, err := Measure(s.a, prior, tokens, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	controls := 0
	for name, levels := range synPresets {
		for level, eps := range levels {
			c, ok := cells[name][level]
			if !ok {
				t.Fatalf("%s %s: no cell", name, level)
			}
			if c.Tokens != count || c.Epsilon != eps || c.LowerBound != (name == mechanism.NameBRR) {
				t.Errorf("%s %s: cell %+v", name, level, c)
			}
			P := s.law(t, name, eps)
			ex, err := attack.Exact(P, prior, 5)
			if err != nil {
				t.Fatal(err)
			}
			kept := keptShare(P, prior)
			check := func(what string, exact float64, got attack.Interval, atMost bool) {
				t.Helper()
				lo, hi := wide(got, count)
				if exact < lo-1e-9 || !atMost && exact > hi+1e-9 {
					t.Errorf("%s %s %s: exact %.4f, measured %.4f (wide [%.4f, %.4f])", name, level, what, exact, got.Rate, lo, hi)
				}
			}
			check("kept", kept, c.Kept, false)
			lower := name == mechanism.NameBRR
			check("top-1", ex.Recovery[0], c.Top1, lower)
			check("top-5", ex.Recovery[4], c.Top5, lower)
			check("baseline top-1", ex.Baseline[0], c.Baseline1, false)
			check("baseline top-5", ex.Baseline[4], c.Baseline5, false)
			if lower && c.Top1.Rate < ex.Recovery[0]-0.05 {
				t.Errorf("%s %s: trained top-1 %.4f far below the exact %.4f", name, level, c.Top1.Rate, ex.Recovery[0])
			}
			// Control: the law at another ε.
			lo, hi := wide(c.Kept, count)
			if k := keptShare(s.law(t, name, 3*eps), prior); math.Abs(k-kept) > 2*(hi-lo) {
				controls++
				if k >= lo && k <= hi {
					t.Errorf("%s %s: control (ε×3) kept %.4f inside [%.4f, %.4f]", name, level, k, lo, hi)
				}
			}
			t.Logf("%s %s ε=%v: kept %.4f (exact %.4f), top-1 %.4f (exact %.4f), top-5 %.4f (exact %.4f)",
				name, level, eps, c.Kept.Rate, kept, c.Top1.Rate, ex.Recovery[0], c.Top5.Rate, ex.Recovery[4])
		}
	}
	if controls < 5 {
		t.Errorf("the ε control ran on %d cells, want ≥ 5", controls)
	}
}

func keptShare(P [][]float64, prior []float64) float64 {
	k, total := 0.0, 0.0
	for w, p := range prior {
		k += p * P[w][w]
		total += p
	}
	return k / total
}

// TestMeasureDeterministic: the same seed gives the same cells whatever
// the number of workers; another seed gives other draws.
func TestMeasureDeterministic(t *testing.T) {
	s := newSynthetic(t)
	prior := synPrior()
	tokens := synTokens(prior, 2000)
	one, err := Measure(s.a, prior, tokens, 7, 1)
	if err != nil {
		t.Fatal(err)
	}
	three, err := Measure(s.a, prior, tokens, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, three) {
		t.Fatal("results differ between 1 and 3 workers")
	}
	other, err := Measure(s.a, prior, tokens, 8, 2)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(one, other) {
		t.Fatal("seeds 7 and 8 gave the same results")
	}
}

// TestMeasureRejectsBadInput: nil and zero inputs are errors, not panics.
func TestMeasureRejectsBadInput(t *testing.T) {
	s := newSynthetic(t)
	prior := synPrior()
	tokens := []int{0, 1, 2}
	bare := (&wva.Asset{Codes: s.a.Codes}).SetWords([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"})
	unknown := newSynthetic(t).a
	unknown.Header.Presets = &wva.Presets{Epsilon: map[string]map[string]float64{"vickrey": {mechanism.LevelStrong: 1}}}
	nan := synPrior()
	nan[3] = math.NaN()
	for _, b := range []struct {
		name   string
		a      *wva.Asset
		prior  []float64
		tokens []int
	}{
		{"nil asset", nil, prior, tokens},
		{"zero asset", &wva.Asset{}, prior, tokens},
		{"no presets", bare, prior, tokens},
		{"unknown mechanism", unknown, prior, tokens},
		{"nil prior", s.a, nil, tokens},
		{"short prior", s.a, prior[:3], tokens},
		{"NaN prior", s.a, nan, tokens},
		{"zero prior", s.a, make([]float64, synN), tokens},
		{"no tokens", s.a, prior, nil},
		{"token out of range", s.a, prior, []int{synN}},
		{"negative token", s.a, prior, []int{-1}},
	} {
		if _, err := Measure(b.a, b.prior, b.tokens, 1, 1); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
	if _, err := TextIDs(nil, func(func(string) error) error { return nil }); err == nil {
		t.Error("TextIDs: nil asset accepted")
	}
	if _, err := TextIDs(s.a, nil); err == nil {
		t.Error("TextIDs: nil documents accepted")
	}
	if _, err := Subsample([]int{1, 2}, 0, 1); err == nil {
		t.Error("Subsample: m = 0 accepted")
	}
	if got := Table(nil); got == "" {
		t.Error("Table(nil) is empty, want the header")
	}
}

// TestMeasureAppliesExclusions: the cells run the product's mechanisms,
// restricted to the asset's exclusion list: an excluded word is never
// released, so tokens that are all excluded words are never kept.
// (Without the restriction every mechanism here keeps some.)
func TestMeasureAppliesExclusions(t *testing.T) {
	s := newSynthetic(t)
	tokens := make([]int, 400)
	for i := range tokens {
		tokens[i] = synExcluded[i%len(synExcluded)]
	}
	cells, err := Measure(s.a, synPrior(), tokens, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for name, levels := range cells {
		for level, c := range levels {
			n++
			if c.Kept.Rate != 0 {
				t.Errorf("%s %s: kept %.4f of excluded words", name, level, c.Kept.Rate)
			}
		}
	}
	if n != 10 {
		t.Errorf("%d cells, want 10", n)
	}
}
