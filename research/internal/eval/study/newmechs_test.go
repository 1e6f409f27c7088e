package study

import (
	"context"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/stattest"
)

// TestNewSpecs: the mechanisms added after the first twelve have the
// families, grids and matching the study documents, and build.
func TestNewSpecs(t *testing.T) {
	env, _, _ := fixture(t)
	withCusText(t, env)
	grid := []float64{2, 60}
	euc, ham := env.Ratios["euclidean"], env.Ratios["hamming"]
	hamMatched := make([]float64, len(HammingExpGrid))
	for i, x := range HammingExpGrid {
		hamMatched[i] = x * ham.Avg / euc.Avg
	}
	for _, tc := range []struct {
		name, family string
		eps, matched []float64 // matched nil: NaN
		law          bool
	}{
		{"tem-hamming", "hamming", HammingExpGrid, hamMatched, false},
		{"santext", "hamming", HammingExpGrid, hamMatched, false},
		{"custext", "custext", CusTextGrid, nil, false},
		{"syntf", "dp", SynTFGrid, nil, true},
		{"truncgumbel", "euclidean", TruncGumbelGrid, TruncGumbelGrid, false},
		{"santext-float", "euclidean", grid, grid, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			specs, err := Specs(env, []string{tc.name}, grid)
			if err != nil {
				t.Fatal(err)
			}
			s := specs[0]
			if s.Name != tc.name || s.Family != tc.family || (s.law != nil) != tc.law || len(s.Eps) != len(tc.eps) || len(s.Matched) != len(s.Eps) {
				t.Fatalf("spec %+v", s)
			}
			for i := range s.Eps {
				if math.Abs(s.Eps[i]-tc.eps[i]) > 1e-12*tc.eps[i] {
					t.Errorf("ε[%d] = %v, want %v", i, s.Eps[i], tc.eps[i])
				}
				if tc.matched == nil && !math.IsNaN(s.Matched[i]) || tc.matched != nil && s.Matched[i] != tc.matched[i] {
					t.Errorf("matched[%d] = %v, want %v", i, s.Matched[i], tc.matched)
				}
				smp, err := s.Build(env, i)
				if err != nil {
					t.Fatal(err)
				}
				out := make([]int, 3)
				if err := smp.drawMany([]int{0, 0, 59}, out, source(1, "spec")); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	env.Asset.CusText = nil
	s, err := Specs(env, []string{"custext"}, grid)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s[0].Build(env, 0); err == nil {
		t.Error("custext on an asset without output sets built")
	}
}

// fixtureLaw returns the exact law of a law spec on the fixture at ε,
// computed by package dpexact from the vectors, independently of the
// study's sampler: TEM's closed form, SanText's, SynTF's; and the law
// with the exponential mechanism's factor 1/2 dropped (a negative
// control; for TEM, SanText's: TEM without truncation).
func fixtureLaw(t *testing.T, env *Env, name string, eps float64) (law, wrong [][]float64) {
	t.Helper()
	n := env.Emb.Len()
	pts := make([][]float64, n)
	for w := range pts {
		for _, x := range env.Emb.Vector(w) {
			pts[w] = append(pts[w], float64(x))
		}
	}
	d, err := dpexact.EuclideanDistances(pts)
	if err != nil {
		t.Fatal(err)
	}
	switch name {
	case "tem", "tem-pool":
		var g float64
		if g, err = mechanism.TheoremGamma(eps, mechanism.DefaultBeta, n); err != nil {
			t.Fatal(err)
		}
		law, err = dpexact.TEM(d, g, eps)
		if err == nil {
			wrong, err = dpexact.SanText(d, 2*eps)
		}
	case "santext-float":
		law, err = dpexact.SanText(d, eps)
		if err == nil {
			wrong, err = dpexact.SanTextNoHalf(d, eps)
		}
	case "syntf":
		law, err = dpexact.SynTF(pts, eps)
		if err == nil {
			wrong, err = dpexact.SynTFNoHalf(pts, eps)
		}
	}
	if err != nil || law == nil {
		t.Fatalf("%s: law %v", name, err)
	}
	return law, wrong
}

// TestPassMatchesLaw: the corpus pass's outputs for a word (every
// occurrence in every run) follow the mechanism's exact law, for the
// law mechanisms, at grid points where their laws are spread out; the
// law with the factor 1/2 dropped is rejected (the test has power).
func TestPassMatchesLaw(t *testing.T) {
	env, _, _ := fixture(t)
	const w, occ, runs = 7, 4000, 3
	n := env.Asset.Len()
	c := &Corpus{Offsets: []int{0, occ}, Labels: []int{0}, Positions: make([][]int32, n), Types: []int{w}, OOV: []int32{0}}
	c.Tokens = make([]int32, occ)
	c.Tokens[0] = -1
	for p := 1; p < occ; p++ {
		c.Tokens[p] = int32(w)
		c.Positions[w] = append(c.Positions[w], int32(p))
	}
	grid := map[string][]float64{"tem": {1, 4}, "santext-float": {1, 4}, "syntf": {4, 12}}
	for name, g := range grid {
		cfg := Config{Env: env, Train: c, Runs: runs, Seed: 5, Workers: 2}
		cfg.defaults()
		specs, err := Specs(env, []string{name}, g)
		if err != nil {
			t.Fatal(err)
		}
		s := &specs[0]
		s.Eps = g
		var tasks []task
		for e := range g {
			for r := range runs {
				tasks = append(tasks, task{kind: "accuracy", spec: s, e: e, run: r})
			}
		}
		pc, err := cfg.passIfNeeded(context.Background(), tasks)
		if err != nil {
			t.Fatal(err)
		}
		for e, eps := range g {
			counts := make([]int, n)
			for r := range runs {
				toks := pc.take(name, e, r)
				if toks[0] < 0 || int(toks[0]) >= n {
					t.Fatalf("%s: OOV token → %d", name, toks[0])
				}
				for _, y := range toks[1:] {
					counts[y]++
				}
			}
			law, wrong := fixtureLaw(t, env, name, eps)
			stat, df, p := stattest.ChiSquare(counts, law[w])
			if p < stattest.FalseFailureRate {
				t.Errorf("%s ε=%v: χ² = %.1f (df %d), p = %.3g", name, eps, stat, df, p)
			}
			ws, wdf, wp := stattest.ChiSquare(counts, wrong[w])
			if !(wp < stattest.FalseFailureRate) {
				t.Errorf("%s ε=%v: the factor-2 law was not rejected: χ² = %.1f (df %d), p = %.3g", name, eps, ws, wdf, wp)
			}
			t.Logf("%s ε=%v: χ² = %.1f (df %d, p = %.3g); factor-2 law χ² = %.1f (p = %.3g); N_w = %.3f",
				name, eps, stat, df, p, ws, wp, float64(counts[w])/float64(runs*(occ-1)))
		}
	}
}

// TestTableTail: words below the head cut keep their exact share (an
// exact Bernoulli, then Gumbel-max over the tail). With the cut raised
// to e^(−1) most of the fixture's words fall in the tail, and the draws
// still follow the closed form; a table that dropped the tail does not.
func TestTableTail(t *testing.T) {
	env, _, _ := fixture(t)
	saved := headCut
	headCut = -1
	defer func() { headCut = saved }()
	const w, draws, eps = 3, 60000, 2.0
	m, err := newSanTextFloat(env.Emb, eps)
	if err != nil {
		t.Fatal(err)
	}
	u := make([]float64, env.Emb.Len())
	m.utility(w, u)
	var tab table
	m.prepare(u, &tab)
	if len(tab.tail) < 10 || len(tab.head) < 2 {
		t.Fatalf("head %d, tail %d words: the test needs both", len(tab.head), len(tab.tail))
	}
	law, _ := fixtureLaw(t, env, "santext-float", eps)
	src := source(9, "tail")
	counts := make([]int, len(u))
	for range draws {
		counts[tab.draw(src)]++
	}
	if stat, df, p := stattest.ChiSquare(counts, law[w]); p < stattest.FalseFailureRate {
		t.Errorf("χ² = %.1f (df %d), p = %.3g", stat, df, p)
	}
	// Negative control: the head alone.
	tab.tail = nil
	bad := make([]int, len(u))
	for range draws {
		bad[tab.draw(src)]++
	}
	stat, df, p := stattest.ChiSquare(bad, law[w])
	if !(p < stattest.FalseFailureRate) {
		t.Errorf("head-only table passed: χ² = %.1f (df %d), p = %.3g", stat, df, p)
	}
	t.Logf("tail share %.3f; head-only table rejected: χ² = %.1f (df %d)", math.Exp(tab.lnTailShare), stat, df)
}

// TestEmpiricalTakesNewMechanisms: the empirical study measures the new
// mechanisms at every point of their grids.
func TestEmpiricalTakesNewMechanisms(t *testing.T) {
	env, tr, _ := fixture(t)
	withCusText(t, env)
	val := map[string]int{}
	for w := range env.Asset.Len() {
		if w%3 == 0 {
			val[env.Asset.Word(w)] = 2*(w%2) - 1 // −1 or +1
		}
	}
	names := []string{"tem-hamming", "santext", "custext", "syntf", "truncgumbel", "santext-float"}
	out := filepath.Join(t.TempDir(), "e.jsonl")
	err := RunEmpirical(context.Background(), EmpiricalConfig{
		Env: env, Train: tr, Valence: val, Mechanisms: names, Grid: []float64{2},
		Words: 10, Draws: 20, Seed: 3, Out: out,
	})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadEmpirical(out)
	if err != nil {
		t.Fatal(err)
	}
	specs, err := Specs(env, names, []float64{2})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, s := range specs {
		want[s.Name] = len(s.Eps)
	}
	got := map[string]int{}
	for _, r := range recs {
		if r.Kind != "point" || !(r.UtilityLoss >= 0 && r.UtilityLoss <= 1) || !(r.InferenceError >= 0) {
			t.Errorf("record %+v", r)
		}
		got[r.Mechanism]++
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("points per mechanism %v, want %v", got, want)
	}
}
