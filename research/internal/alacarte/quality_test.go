package alacarte

import (
	"errors"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/research/internal/binarize"
)

// evalSynthetic runs Evaluate on a synthetic corpus with SRP codes. Only
// the training-like words occur often enough (5 times, MinCount 3) to be
// held out (context words occur at most 3 times, MinCount is 4); they never appear in another word's window, so holding them
// out changes no context average.
func evalSynthetic(t *testing.T, related bool, extra []string) (*EvalReport, *synthetic) {
	t.Helper()
	s := newSynthetic(t, 16, 300, 5, 3, related, 11)
	// One more target seen once: too rare to induce.
	s.docs = append(s.docs, []string{"c0", "once", "c1"})
	proj, err := binarize.NewSRP(s.src, 2)
	if err != nil {
		t.Fatal(err)
	}
	codes, err := proj.EncodeAll(s.src)
	if err != nil {
		t.Fatal(err)
	}
	cfg := EvalConfig{
		Config: Config{Window: 1, Train: 300 - 30}, Fit: FitConfig{MinCount: 3, Ridge: 1e-9},
		MinCount: 4, Held: 30, Seed: 4, K: 10, Extra: extra,
	}
	rep, err := Evaluate(s.corpus(), s.src, codes, proj, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rep, s
}

// TestEvaluateSynthetic: where the model holds exactly, induced held-out
// words land on their true neighbours (recall near 1) while random codes
// do not; with unrelated vectors (the negative control) the induced
// codes do no better than chance-like levels.
func TestEvaluateSynthetic(t *testing.T) {
	rep, _ := evalSynthetic(t, true, []string{"t0", "t1", "t2", "once", "w0"})
	if rep.Held != 30 || rep.Induced != 30 || len(rep.Words) != 30 || rep.Eligible != 300 {
		t.Fatalf("held %d, induced %d, words %d, eligible %d", rep.Held, rep.Induced, len(rep.Words), rep.Eligible)
	}
	t.Logf("exact model: Hamming recall induced %.3f, context %.3f, random %.4f; cosine %.3f",
		rep.HammingInduced, rep.HammingContext, rep.HammingRandom, rep.CosineInduced)
	if rep.Fit.Words != 270 {
		t.Fatalf("fit on %d words, want 270", rep.Fit.Words)
	}
	if rep.HammingInduced < 0.95 || rep.CosineInduced < 0.95 {
		t.Errorf("exact model: Hamming recall %.3f, cosine %.3f; want ≥ 0.95", rep.HammingInduced, rep.CosineInduced)
	}
	if rep.HammingRandom > 0.1 {
		t.Errorf("random codes: recall %.3f", rep.HammingRandom)
	}
	if !slices.IsSortedFunc(rep.Words, func(a, b HeldResult) int { return wordRow(a.Word) - wordRow(b.Word) }) {
		t.Error("held-out words not in source order")
	}
	// Extras: t0..t2 induced with neighbours, "once" rare, "w0" listed
	// unless it was held out (then it is measured, not listed).
	var names []string
	for _, x := range rep.Extra {
		names = append(names, x.Word)
		switch {
		case x.Word == "once":
			if x.Hamming != nil || x.Count != 1 {
				t.Errorf("once: %+v, want rare with count 1", x)
			}
		case len(x.Hamming) != 10 || len(x.Cosine) != 10:
			t.Errorf("%s: %d Hamming and %d cosine neighbours, want 10", x.Word, len(x.Hamming), len(x.Cosine))
		case slices.Contains(x.Hamming, x.Word) || slices.Contains(x.Cosine, x.Word):
			t.Errorf("%s is its own neighbour", x.Word)
		}
	}
	if len(names) < 4 || !slices.Equal(names[:4], []string{"t0", "t1", "t2", "once"}) {
		t.Errorf("extras %v", names)
	}
	if len(rep.Rare) != 1 || rep.Rare[0].Word != "once" {
		t.Errorf("rare %v", rep.Rare)
	}

	control, _ := evalSynthetic(t, false, nil)
	t.Logf("unrelated vectors: Hamming recall induced %.3f, random %.4f; cosine %.3f",
		control.HammingInduced, control.HammingRandom, control.CosineInduced)
	if control.HammingInduced > 0.3 || control.CosineInduced > 0.3 {
		t.Errorf("unrelated vectors: Hamming recall %.3f, cosine %.3f; the measurement cannot tell good from bad",
			control.HammingInduced, control.CosineInduced)
	}
}

func wordRow(w string) int {
	n := 0
	for _, c := range w[1:] {
		n = 10*n + int(c-'0')
	}
	if w[0] == 'c' {
		n += 1 << 20
	}
	return n
}

func TestEvaluateErrors(t *testing.T) {
	s := newSynthetic(t, 4, 40, 3, 0, true, 5)
	proj, err := binarize.NewSRP(s.src, 1)
	if err != nil {
		t.Fatal(err)
	}
	codes, err := proj.EncodeAll(s.src)
	if err != nil {
		t.Fatal(err)
	}
	good := EvalConfig{Config: Config{Window: 1, Train: 30}, Fit: smallFit(), MinCount: 3, Held: 10, Seed: 1, K: 5}
	with := func(f func(*EvalConfig)) EvalConfig { c := good; f(&c); return c }
	otherProj, err := binarize.NewSRP(embeddings(2, "x", []float32{1, 0}, "y", []float32{0, 1}), 1)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		corpus Corpus
		src    *binarize.Embeddings
		codes  []hamming.Code
		proj   *binarize.Projection
		cfg    EvalConfig
		want   error
	}{
		{"nil corpus", nil, s.src, codes, proj, good, ErrConfig},
		{"nil source", s.corpus(), nil, codes, proj, good, ErrSource},
		{"zero config", s.corpus(), s.src, codes, proj, EvalConfig{}, ErrConfig},
		{"K 0", s.corpus(), s.src, codes, proj, with(func(c *EvalConfig) { c.K = 0 }), ErrConfig},
		{"held 0", s.corpus(), s.src, codes, proj, with(func(c *EvalConfig) { c.Held = 0 }), ErrConfig},
		{"codes short", s.corpus(), s.src, codes[1:], proj, good, ErrDim},
		{"nil projection", s.corpus(), s.src, codes, nil, good, ErrConfig},
		{"projection of another dimension", s.corpus(), s.src, codes, otherProj, good, ErrDim},
		{"too few eligible words", s.corpus(), s.src, codes, proj, with(func(c *EvalConfig) { c.Held = 41 }), ErrNoData},
		{"train beyond the rest", s.corpus(), s.src, codes, proj, with(func(c *EvalConfig) { c.Train = len(s.src.Words) }), ErrConfig},
		{"duplicate extra", s.corpus(), s.src, codes, proj, with(func(c *EvalConfig) { c.Extra = []string{"zz", "zz"} }), ErrConfig},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Evaluate(tc.corpus, tc.src, tc.codes, tc.proj, tc.cfg)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			checkPrefixOnce(t, err)
		})
	}
	stop := errors.New("corpus failed")
	_, err = Evaluate(func(func([]string) error) error { return stop }, s.src, codes, proj, good)
	if !errors.Is(err, stop) {
		t.Fatalf("corpus error: %v", err)
	}
}

func TestRecallAndSample(t *testing.T) {
	if r := recall([]int{1, 2, 3, 4}, []int{4, 9, 1}); r != 0.5 {
		t.Errorf("recall = %v, want 0.5", r)
	}
	if r := recall(nil, []int{1}); r != 0 {
		t.Errorf("empty truth: %v", r)
	}
	from := []int{3, 5, 7, 9, 11, 13}
	a, b := sample(from, 4, 1), sample(from, 4, 1)
	if !slices.Equal(a, b) || len(a) != 4 || !slices.IsSorted(a) {
		t.Fatalf("sample %v, %v", a, b)
	}
	for _, x := range a {
		if !slices.Contains(from, x) {
			t.Fatalf("sample %v has %d, not in %v", a, x, from)
		}
	}
	if slices.Equal(a, sample(from, 4, 2)) && slices.Equal(a, sample(from, 4, 3)) {
		t.Error("the seed changes nothing")
	}
	if !slices.Equal(from, []int{3, 5, 7, 9, 11, 13}) {
		t.Error("sample modified its input")
	}
}
