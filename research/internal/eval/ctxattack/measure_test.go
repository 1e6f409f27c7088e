package ctxattack

import (
	"math"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/levels"
)

// unigram is an LM without context: every word scored by the prior.
type unigram []float64

func (u unigram) LogProb(_, w int) float64 { return math.Log(u[w]) }

// predictor is unigram with Mix: the context attackers' extra candidates
// are then the one-word posterior's own.
type predictor struct{ unigram }

func (p predictor) Mix(prevs []int, weights []float64, dst []float64) error {
	s := 0.0
	for _, a := range weights {
		s += a
	}
	for w := range dst {
		dst[w] = s * p.unigram[w]
	}
	return nil
}

// With an LM that ignores context and whose word frequencies are the
// attacker's prior, the posterior of a sentence factorizes: both context
// attackers must recover exactly what the one-word attacker recovers, on
// the embedded asset with the product's 1-DG and CusText at their
// presets. And the cells do not depend on the number of workers.
func TestMeasureWithoutContextIsOneWord(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	all, err := levels.Presets(a)
	if err != nil {
		t.Fatal(err)
	}
	var ps []levels.Preset
	for _, p := range all {
		if (p.Mechanism == mechanism.Name1DG || p.Mechanism == mechanism.NameCusText) && p.Level != mechanism.LevelBalanced {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		t.Fatal("no 1-DG or CusText presets")
	}
	prior := make([]float64, a.Len())
	s := 0.0
	for w := range prior {
		prior[w] = 1 / (float64(w) + 1.5) // Zipf-like, all distinct
		s += prior[w]
	}
	for w := range prior {
		prior[w] /= s
	}
	// Segments of frequent words (low ids), as text mostly is.
	var segs []Segment
	for i := range 12 {
		seg := Segment{FromStart: i%2 == 0}
		for j := range 3 + i%3 {
			seg.IDs = append(seg.IDs, (i*7+j*13)%200)
		}
		segs = append(segs, seg)
	}
	laws, err := levels.NewLaws(a, prior, ps, 1)
	if err != nil {
		t.Fatal(err)
	}
	one, err := Measure(laws, ps, prior, unigram(prior), segs, 5, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	two, err := Measure(laws, ps, prior, unigram(prior), segs, 5, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := Measure(laws, ps, prior, predictor{unigram(prior)}, segs, 5, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range one {
		if c != pred[i] {
			t.Errorf("%s %s: unigram %+v, as a predictor %+v", c.Mechanism, c.Level, c, pred[i])
		}
		if c != two[i] {
			t.Errorf("%s %s: 1 worker %+v, 2 workers %+v", c.Mechanism, c.Level, c, two[i])
		}
		if math.Abs(c.Context.Rate-c.OneWord.Rate) > 1e-12 || math.Abs(c.PerWord.Rate-c.OneWord.Rate) > 1e-12 {
			t.Errorf("%s %s: one-word %v, sentence %v, per word %v", c.Mechanism, c.Level, c.OneWord.Rate, c.Context.Rate, c.PerWord.Rate)
		}
		if c.Tokens == 0 || c.OneWord.Rate == 0 {
			t.Errorf("%s %s: a vacuous cell %+v", c.Mechanism, c.Level, c)
		}
	}
	// The control: a context-blind LM with other frequencies (uniform)
	// changes the context attackers' guesses somewhere.
	flat := make(unigram, a.Len())
	for w := range flat {
		flat[w] = 1 / float64(a.Len())
	}
	other, err := Measure(laws, ps, prior, flat, segs, 5, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	differs := false
	for _, c := range other {
		differs = differs || c.Context.Rate != c.OneWord.Rate
	}
	if !differs {
		t.Error("a uniform LM recovers exactly what the one-word attacker recovers in every cell: the check is vacuous")
	}
}
