package alacarte

import (
	"errors"
	"math"
	"testing"
)

// maxDiff returns max |x − y|.
func maxDiff(x, y []float64) float64 {
	var m float64
	for i := range x {
		m = max(m, math.Abs(x[i]-y[i]))
	}
	return m
}

// fitSynthetic accumulates s and fits A on its training-like words.
func fitSynthetic(t *testing.T, s *synthetic, cfg FitConfig) (*Accumulator, *Map, FitReport) {
	t.Helper()
	a, err := NewAccumulator(s.src, s.targetNames(), Config{Window: 1, Train: s.words})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.AddCorpus(s.corpus()); err != nil {
		t.Fatal(err)
	}
	m, rep, err := a.Fit(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a, m, rep
}

// TestFitRecoversKnownMap: when v_w = A·u_w exactly, every weighting
// recovers A and induces the targets' A·u; when the vectors are random
// (the negative control) the same fit neither recovers A nor explains the
// vectors.
func TestFitRecoversKnownMap(t *testing.T) {
	tests := []struct {
		name    string
		related bool
		weight  Weighting
		ridge   float64
	}{
		{"log weights", true, WeightLog, 0},
		{"clipped weights", true, WeightClipped, 0},
		{"uniform weights", true, WeightUniform, 0},
		{"default ridge", true, WeightLog, 1e-6},
		{"random vectors (control)", false, WeightLog, 1e-6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSynthetic(t, 12, 300, 5, 20, tc.related, 3)
			a, m, rep := fitSynthetic(t, s, FitConfig{MinCount: 3, Weight: tc.weight, Ridge: tc.ridge})
			if rep.Words != 300 || rep.Rare != 0 {
				t.Fatalf("fit used %d words, %d rare; want 300, 0", rep.Words, rep.Rare)
			}
			d := maxDiff(m.a, s.a)
			if !tc.related {
				if d < 0.5 || rep.Residual < 0.5 {
					t.Fatalf("random vectors: max |A − A_true| = %.3g, residual %.3g; the fit found a map that is not there", d, rep.Residual)
				}
				return
			}
			// Vectors are stored as float32, so A is known to ~1e-6.
			if d > 1e-4 || rep.Residual > 1e-10 {
				t.Fatalf("max |A − A_true| = %.3g, residual %.3g", d, rep.Residual)
			}
			ind, err := a.Induce(m, 5)
			if err != nil {
				t.Fatal(err)
			}
			if ind.Vectors.Len() != len(s.targets) || len(ind.Rare) != 0 {
				t.Fatalf("induced %d, rare %d; want %d, 0", ind.Vectors.Len(), len(ind.Rare), len(s.targets))
			}
			for i, w := range ind.Vectors.Words {
				want := s.targets[w]
				for j, x := range ind.Vectors.Vector(i) {
					if math.Abs(float64(x-want[j])) > 1e-4*(1+math.Abs(float64(want[j]))) {
						t.Fatalf("%s: component %d is %v, want %v", w, j, x, want[j])
					}
				}
				if ind.Counts[i] != 5 {
					t.Fatalf("%s: count %d, want 5", w, ind.Counts[i])
				}
			}
		})
	}
}

// TestFitThresholds: words under the training minimum are left out and
// counted; targets under the induction minimum are reported as rare.
func TestFitThresholds(t *testing.T) {
	s := newSynthetic(t, 4, 40, 3, 2, true, 5)
	// Give t0 two more occurrences (5 in all) and w0 none extra.
	s.docs = append(s.docs, []string{"c0", "t0", "c1"}, []string{"c2", "t0", "c3"})
	a, m, rep := fitSynthetic(t, s, FitConfig{MinCount: 3})
	if rep.Words != 40 || rep.Rare != 0 {
		t.Fatalf("MinCount 3: %d used, %d rare", rep.Words, rep.Rare)
	}
	if _, rep, err := a.Fit(FitConfig{MinCount: 4}); !errors.Is(err, ErrNoData) || rep.Rare != 40 {
		t.Fatalf("MinCount 4: error %v, %d rare; want ErrNoData, 40", err, rep.Rare)
	}
	ind, err := a.Induce(m, 4)
	if err != nil {
		t.Fatal(err)
	}
	if ind.Vectors.Len() != 1 || ind.Vectors.Words[0] != "t0" || ind.Counts[0] != 5 {
		t.Fatalf("induced %v with counts %v, want [t0] with [5]", ind.Vectors.Words, ind.Counts)
	}
	if len(ind.Rare) != 1 || ind.Rare[0] != (WordCount{"t1", 3}) {
		t.Fatalf("rare %v, want [{t1 3}]", ind.Rare)
	}
}

func TestFitErrors(t *testing.T) {
	s := newSynthetic(t, 4, 40, 3, 0, true, 5)
	a, _, _ := fitSynthetic(t, s, smallFit())
	tests := []struct {
		name string
		cfg  FitConfig
		want error
	}{
		{"zero config", FitConfig{}, ErrConfig},
		{"negative min count", FitConfig{MinCount: -1}, ErrConfig},
		{"unknown weighting", FitConfig{MinCount: 1, Weight: 7}, ErrConfig},
		{"negative weighting", FitConfig{MinCount: 1, Weight: -1}, ErrConfig},
		{"NaN ridge", FitConfig{MinCount: 1, Ridge: math.NaN()}, ErrConfig},
		{"infinite ridge", FitConfig{MinCount: 1, Ridge: math.Inf(1)}, ErrConfig},
		{"negative ridge", FitConfig{MinCount: 1, Ridge: -1}, ErrConfig},
		{"too few words", FitConfig{MinCount: 1000}, ErrNoData},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := a.Fit(tc.cfg)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			checkPrefixOnce(t, err)
		})
	}
}

// smallFit is DefaultFitConfig with a minimum count the small
// synthetic corpora reach.
func smallFit() FitConfig {
	c := DefaultFitConfig()
	c.MinCount = 3
	return c
}

// TestFitSingular: when every training word has the same context the Gram
// matrix has rank 1; without a ridge the solve fails with ErrSingular, and
// the ridge makes it solvable.
func TestFitSingular(t *testing.T) {
	src := embeddings(3,
		"a", []float32{1, 2, 3}, "b", []float32{3, 2, 1}, "c", []float32{0, 1, 0}, "d", []float32{1, 1, 1},
		"ctx", []float32{1, 0, 0})
	a, err := NewAccumulator(src, nil, Config{Window: 1, Train: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"a", "b", "c", "d"} {
		if err := a.Add([]string{"ctx", w, "ctx"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := a.Fit(FitConfig{MinCount: 1}); !errors.Is(err, ErrSingular) {
		t.Fatalf("ridge 0: error %v, want ErrSingular", err)
	} else {
		checkPrefixOnce(t, err)
	}
	m, rep, err := a.Fit(FitConfig{MinCount: 1, Ridge: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Lambda <= 0 || m.Dim() != 3 {
		t.Fatalf("λ = %v, dim %d", rep.Lambda, m.Dim())
	}
}

func TestApplyAndInduceErrors(t *testing.T) {
	m := identity(3)
	if _, err := m.Apply([]float64{1, 2}); !errors.Is(err, ErrDim) {
		t.Errorf("short vector: %v", err)
	}
	if _, err := m.Apply([]float64{1, math.Inf(1), 0}); !errors.Is(err, ErrNotFinite) {
		t.Errorf("infinite input: %v", err)
	}
	if v, err := m.Apply([]float64{1, 2, 3}); err != nil || v[0] != 1 || v[1] != 2 || v[2] != 3 {
		t.Errorf("identity: %v, %v", v, err)
	}
	a, err := NewAccumulator(handSource(), []string{"t"}, Config{Window: 1, Train: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Induce(m, 1); !errors.Is(err, ErrDim) {
		t.Errorf("map of the wrong dimension: %v", err)
	}
	if _, err := a.Induce(identity(2), 0); !errors.Is(err, ErrConfig) {
		t.Errorf("min count 0: %v", err)
	}
	ind, err := a.Induce(identity(2), 1)
	if err != nil || ind.Vectors.Len() != 0 || len(ind.Rare) != 1 {
		t.Errorf("nothing seen: %+v, %v", ind, err)
	}
}
