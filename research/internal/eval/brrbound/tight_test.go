package brrbound

import (
	"errors"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
)

// TestTightBracketsOptimum: on the small vocabulary (optimal_test.go),
// Tight's interval for top-1 and for top-5 holds the optimum computed
// from the high-precision law at every level, and is at most 0.06 wide;
// the fitted attacker recovers at least 0.95 of the optimum.
// The controls must fail the same check: the upper end without the k·τ
// term at a large τ (a bound missing mass it left out), and the plug-in
// on few draws taken as an attacker's recovery (an in-sample "lower
// bound": the plug-in is the fitted attacker measured on the draws it
// was fitted on).
func TestTightBracketsOptimum(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	const n = 100
	draws := 1 << 16
	if !testing.Short() {
		draws = 1 << 18
	}
	for i, level := range []string{mechanism.LevelStrong, mechanism.LevelBalanced, mechanism.LevelLight} {
		eps, err := mechanism.Preset(a, mechanism.NameBRR, level)
		if err != nil {
			t.Fatal(err)
		}
		s := newSmall(t, n, eps, 4000, seeded.Source(1))
		setup := Setup{Codes: s.codes, Epsilon: eps, Prior: s.prior}
		key := [32]byte{byte(i + 1)}
		b, err := Tight(setup, TightConfig{Draws: draws, Delta: 0.025, Tau: 1e-3, Workers: 2, Key: key, TopK: MaxK})
		if err != nil {
			t.Fatal(err)
		}
		cut, err := Tight(setup, TightConfig{Draws: draws, Delta: 0.025, Tau: 0.3, Workers: 2, Key: key, TopK: MaxK})
		if err != nil {
			t.Fatal(err)
		}
		// The few-draw plug-in's upward bias is its expectation; one run
		// of 256 draws varies by about as much, so the control averages
		// eight independent ones.
		var fewPlug [MaxK]float64
		const fewRuns = 8
		for j := range fewRuns {
			fk := key
			fk[31] = byte(j + 1)
			few, err := Tight(setup, TightConfig{Draws: 1 << 8, Delta: 0.025, Workers: 2, Key: fk, TopK: MaxK})
			if err != nil {
				t.Fatal(err)
			}
			for k := range MaxK {
				fewPlug[k] += few.TopK[k].PlugIn / fewRuns
			}
		}
		for _, k := range []int{1, MaxK} {
			opt := s.optimumK(k)
			kb, kc, kf := b.TopK[k-1], cut.TopK[k-1], fewPlug[k-1]
			noTau := kc.PlugIn + cut.DevHi
			t.Logf("%s top-%d: optimum %.4f in [%.4f, %.4f] (width %.4f; fitted %.4f = %.3f of it, plug-in %.4f); controls: no k·τ term %.4f, few-draw plug-in %.4f",
				level, k, opt, kb.Lo, kb.Hi, kb.Hi-kb.Lo, kb.Fitted, kb.Fitted/opt, kb.PlugIn, noTau, kf)
			// The optimum is itself an estimate (4000 draws per word): a
			// slack of 0.01 covers its error.
			const slack = 0.01
			if !(kb.Lo <= opt+slack && opt <= kb.Hi+slack) || kb.Hi-kb.Lo > 0.06 {
				t.Errorf("%s top-%d: optimum %.4f outside [%.4f, %.4f] or wider than 0.06", level, k, opt, kb.Lo, kb.Hi)
			}
			// The fitted attacker (the lower end before its deviation)
			// reaches 0.95 of the optimum at every k.
			if kb.Fitted < 0.95*opt {
				t.Errorf("%s top-%d: the fitted attacker recovers %.4f, below 0.95 of the optimum %.4f", level, k, kb.Fitted, opt)
			}
			if opt <= noTau+slack {
				t.Errorf("%s top-%d: control not caught: the upper end without k·τ at τ = 0.3, %.4f, holds the optimum %.4f", level, k, noTau, opt)
			}
			if kf <= opt+slack {
				t.Errorf("%s top-%d: control not caught: the few-draw plug-in %.4f does not exceed the optimum %.4f", level, k, kf, opt)
			}
		}
	}
}

// TestTightTopK: asking for top-k changes none of the top-1 fields, and
// TopK[0] repeats them; both ends grow with k, also where a large τ
// leaves columns of fewer than k words (the attacker's list is then
// shorter than k, and its sum stays).
func TestTightTopK(t *testing.T) {
	s := newSmall(t, 50, 0.5, 10, seeded.Source(1))
	setup := Setup{Codes: s.codes, Epsilon: 0.5, Prior: s.prior}
	for _, tau := range []float64{1e-3, 0.3} {
		cfg := TightConfig{Draws: TightChunk + 5, Delta: 0.1, Tau: tau, Workers: 2, Key: [32]byte{9}}
		one, err := Tight(setup, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if one.TopK != ([MaxK]KBound{}) {
			t.Errorf("τ %v, TopK 0: TopK = %+v, want zero", tau, one.TopK)
		}
		cfg.TopK = MaxK
		five, err := Tight(setup, cfg)
		if err != nil {
			t.Fatal(err)
		}
		top := five.TopK
		five.TopK = [MaxK]KBound{}
		if five != one {
			t.Errorf("τ %v: top-1 fields with TopK 5 %+v, without %+v", tau, five, one)
		}
		if top[0] != (KBound{Lo: one.Lo, Hi: one.Hi, PlugIn: one.PlugIn, Fitted: one.Fitted}) {
			t.Errorf("τ %v: TopK[0] = %+v, top-1 fields %+v", tau, top[0], one)
		}
		for k := 1; k < MaxK; k++ {
			if !(top[k].Fitted >= top[k-1].Fitted && top[k].PlugIn >= top[k-1].PlugIn && top[k].Lo >= top[k-1].Lo && top[k].Hi >= top[k-1].Hi && top[k].Lo <= top[k].Hi) {
				t.Errorf("τ %v: top-%d %+v after top-%d %+v", tau, k+1, top[k], k, top[k-1])
			}
		}
	}
}

// TestTightWorkers: the result does not depend on the number of workers.
func TestTightWorkers(t *testing.T) {
	s := newSmall(t, 50, 0.5, 10, seeded.Source(1))
	setup := Setup{Codes: s.codes, Epsilon: 0.5, Prior: s.prior}
	var got []TightBound
	for _, w := range []int{1, 3} {
		b, err := Tight(setup, TightConfig{Draws: 3*TightChunk + 5, Delta: 0.1, Tau: 1e-3, Workers: w, Key: [32]byte{7}})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, b)
	}
	if got[0] != got[1] {
		t.Errorf("1 worker %+v, 3 workers %+v", got[0], got[1])
	}
}

// TestReleaseIsTheProducts: Tight draws BRR's release exactly as the
// product's mechanism does, with the output restriction: from the same
// seeded source, the same word, draw for draw.
func TestReleaseIsTheProducts(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	outs, err := mechanism.DefaultOutputs(a)
	if err != nil {
		t.Fatal(err)
	}
	allowed := outs.Mask(a.Len())
	eps, err := mechanism.Preset(a, mechanism.NameBRR, mechanism.LevelStrong)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mechanism.New(mechanism.NameBRR, a, eps, mechanism.Options{Outputs: outs})
	if err != nil {
		t.Fatal(err)
	}
	prior := make([]float64, a.Len())
	prior[0] = 1
	tt, err := newTight(Setup{Codes: a.Codes, Allowed: allowed, Epsilon: eps, Prior: prior})
	if err != nil {
		t.Fatal(err)
	}
	s1, s2 := seeded.Source(3), seeded.Source(3)
	for i := range 300 {
		w := (i * 7919) % a.Len()
		want, err := m.Privatize(w, s1)
		if err != nil {
			t.Fatal(err)
		}
		_, got, err := tt.release(w, s2)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("draw %d of word %d: %d, the product released %d", i, w, got, want)
		}
	}
}

// TestTightErrors: bad arguments are errors, never panics.
func TestTightErrors(t *testing.T) {
	codes := []hamming.Code{{}, {1}}
	ok := TightConfig{Draws: 4, Delta: 0.1}
	for _, tc := range []struct {
		s Setup
		c TightConfig
	}{
		{Setup{}, ok},
		{Setup{Codes: codes, Epsilon: 1, Prior: []float64{1}}, ok},
		{Setup{Codes: codes, Epsilon: 0, Prior: []float64{1, 1}}, ok},
		{Setup{Codes: codes, Epsilon: 1, Prior: []float64{0, 0}}, ok},
		{Setup{Codes: codes, Epsilon: 1, Prior: []float64{1, 1}, Allowed: []bool{false, false}}, ok},
		{Setup{Codes: codes, Epsilon: 1, Prior: []float64{1, 1}, Allowed: []bool{true}}, ok},
		{Setup{Codes: codes, Epsilon: 1, Prior: []float64{1, 1}}, TightConfig{Draws: 1, Delta: 0.1}},
		{Setup{Codes: codes, Epsilon: 1, Prior: []float64{1, 1}}, TightConfig{Draws: 4, Delta: 1}},
		{Setup{Codes: codes, Epsilon: 1, Prior: []float64{1, 1}}, TightConfig{Draws: 4, Delta: 0.1, Tau: 1}},
		{Setup{Codes: codes, Epsilon: 1, Prior: []float64{1, 1}}, TightConfig{Draws: 4, Delta: 0.1, TopK: -1}},
		{Setup{Codes: codes, Epsilon: 1, Prior: []float64{1, 1}}, TightConfig{Draws: 4, Delta: 0.1, TopK: MaxK + 1}},
	} {
		if _, err := Tight(tc.s, tc.c); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v %+v: err = %v, want ErrInvalid", tc.s.Prior, tc.c, err)
		}
	}
}
