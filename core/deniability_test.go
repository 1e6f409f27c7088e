package core

import (
	"errors"
	"math"
	"testing"
)

func TestEstimateDeniability(t *testing.T) {
	s := assetSubset(t)
	src := NewSeededSourceForEvaluation(testSeed("pd"))
	const eps, draws = 0.3, 20000
	m, err := NewDiffractorGeometric(s.lists, eps)
	if err != nil {
		t.Fatal(err)
	}
	var Ps [][][]float64
	for _, p := range s.pos {
		Ps = append(Ps, exactGeometricList(p, eps))
	}
	exact := mixture(Ps...)
	words := []int{0, 5, 20, 35}
	d, err := EstimateDeniability(m, words, draws, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Words) != len(words) || d.Draws != draws {
		t.Fatalf("got %d words, %d draws", len(d.Words), d.Draws)
	}
	meanN, meanS := 0.0, 0.0
	for i, wd := range d.Words {
		pw := exact[words[i]][words[i]]
		// 5σ binomial band around the exact N_w.
		if tol := 5 * math.Sqrt(pw*(1-pw)/draws); wd.Word != words[i] || math.Abs(wd.N-pw) > tol {
			t.Errorf("word %d: N_w = %v, exact %v ± %v", wd.Word, wd.N, pw, tol)
		}
		if wd.S < 2 || wd.S > len(exact) {
			t.Errorf("word %d: S_w = %d outside [2, %d]", wd.Word, wd.S, len(exact))
		}
		meanN += wd.N / float64(len(words))
		meanS += float64(wd.S) / float64(len(words))
	}
	if math.Abs(meanN-d.MeanN) > 1e-12 || math.Abs(meanS-d.MeanS) > 1e-12 {
		t.Errorf("means %v %v, want %v %v", d.MeanN, d.MeanS, meanN, meanS)
	}

	// Nearly noiseless: every draw is the word itself.
	m, err = NewDiffractorGeometric(s.lists, 60)
	if err != nil {
		t.Fatal(err)
	}
	d, err = EstimateDeniability(m, words, 0, src)
	if err != nil {
		t.Fatal(err)
	}
	if d.Draws != DefaultDeniabilityDraws || d.MeanN != 1 || d.MeanS != 1 {
		t.Errorf("ε=60: draws=%d N=%v S=%v, want 100, 1, 1", d.Draws, d.MeanN, d.MeanS)
	}

	if _, err := EstimateDeniability(m, []int{-1}, 10, src); !errors.Is(err, ErrWordOutOfRange) {
		t.Errorf("bad word: %v", err)
	}
}
