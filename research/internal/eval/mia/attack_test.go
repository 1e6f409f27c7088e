package mia

import (
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/research/internal/eval/fasttext"
)

// synthDocs returns k documents of random tokens with random labels:
// nothing to generalize, so whatever a model learns of them is
// memorization.
func synthDocs(rng *rand.Rand, k, vocab, length int) []fasttext.Doc {
	docs := make([]fasttext.Doc, k)
	for i := range docs {
		toks := make([]int32, length)
		for j := range toks {
			toks[j] = int32(rng.IntN(vocab))
		}
		docs[i] = fasttext.Doc{Tokens: toks, Label: rng.IntN(2)}
	}
	return docs
}

func features(probs func([]int32) []float64, docs []fasttext.Doc) [][]float64 {
	out := make([][]float64, len(docs))
	for i, d := range docs {
		out[i] = Features(probs(d.Tokens), d.Label)
	}
	return out
}

// TestAttackDetectsMembership: the shadow-model attack on an overfit
// target (fastText memorizing random labels) against a control where
// membership cannot show (a model that never saw the data: members and
// non-members from the same distribution get the same law of outputs).
func TestAttackDetectsMembership(t *testing.T) {
	const vocab, length, k = 3000, 30, 300
	rng := rand.New(rand.NewPCG(7, 8))
	shadowIn, shadowOut := synthDocs(rng, k, vocab, length), synthDocs(rng, k, vocab, length)
	targetIn, targetOut := synthDocs(rng, k, vocab, length), synthDocs(rng, k, vocab, length)
	fc := fasttext.Config{Dim: 16, Epochs: 20, LR: 0.5, Classes: 2, Seed: 1}
	train := func(docs []fasttext.Doc, seed uint64) func([]int32) []float64 {
		c := fc
		c.Seed = seed
		m, err := fasttext.Train(docs, vocab, c)
		if err != nil {
			t.Fatal(err)
		}
		return func(toks []int32) []float64 { return m.Probs(toks, nil) }
	}
	// The control's model: a fixed rule of the document (the share of
	// tokens in the vocabulary's lower half), the same for every set.
	fixed := func(toks []int32) []float64 {
		low := 0
		for _, w := range toks {
			if w < vocab/2 {
				low++
			}
		}
		p := (float64(low) + 1) / float64(len(toks)+2)
		return []float64{p, 1 - p}
	}
	for _, tc := range []struct {
		name           string
		shadow, target func([]int32) []float64
		member         bool // membership should show
	}{
		{"overfit", train(shadowIn, 11), train(targetIn, 12), true},
		{"control", fixed, fixed, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultMLP()
			a, err := Attack(features(tc.shadow, shadowIn), features(tc.shadow, shadowOut),
				features(tc.target, targetIn), features(tc.target, targetOut), cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("target AUC %.3f [%.3f, %.3f], shadow %.3f", a.Target.AUC, a.Target.Lo, a.Target.Hi, a.Shadow.AUC)
			if tc.member && !(a.Target.Lo > 0.6) {
				t.Errorf("overfit target: AUC %.3f [%.3f, %.3f], want its interval above 0.6", a.Target.AUC, a.Target.Lo, a.Target.Hi)
			}
			if !tc.member && !(a.Target.Lo < 0.5 && 0.5 < a.Target.Hi) {
				t.Errorf("control: AUC %.3f [%.3f, %.3f], want an interval covering 0.5", a.Target.AUC, a.Target.Lo, a.Target.Hi)
			}
		})
	}
}

func TestFeatures(t *testing.T) {
	x := Features([]float64{0.25, 0.75}, 1)
	if x[0] != 0.75 || x[2] != 0 || x[3] != 1 {
		t.Errorf("Features = %v", x)
	}
	if x := Features([]float64{0, 1}, 0); x[1] != logFloor {
		t.Errorf("log of 0: %v, want %v", x[1], logFloor)
	}
}
