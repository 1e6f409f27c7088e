package fasttext

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// synth makes n documents over vocab ids: each token is drawn from the
// label's half of the vocabulary with probability signal, else uniformly;
// about 10% of tokens are out of vocabulary (-1).
func synth(n, vocab, length int, signal float64, seed uint64) []Doc {
	rng := rand.New(rand.NewPCG(seed, 9))
	docs := make([]Doc, n)
	half := vocab / 2
	for i := range docs {
		label := i % 2
		toks := make([]int32, length)
		for j := range toks {
			switch u := rng.Float64(); {
			case u < 0.1:
				toks[j] = -1
			case u < 0.1+signal:
				toks[j] = int32(label*half + rng.IntN(half))
			default:
				toks[j] = int32(rng.IntN(vocab))
			}
		}
		docs[i] = Doc{Tokens: toks, Label: label}
	}
	return docs
}

func small() Config {
	c := DefaultConfig()
	c.Buckets = 1 << 12
	return c
}

func TestSeparable(t *testing.T) {
	train := synth(400, 200, 30, 0.9, 1)
	test := synth(400, 200, 30, 0.9, 2)
	for _, bigrams := range []bool{false, true} {
		cfg := small()
		cfg.Bigrams = bigrams
		m, err := Train(train, 200, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if acc := m.Accuracy(test); acc < 0.95 {
			t.Errorf("bigrams %v: accuracy %.3f on a separable task, want ≥ 0.95", bigrams, acc)
		}
	}
}

func TestNoisy(t *testing.T) {
	train := synth(2000, 500, 20, 0.08, 3)
	test := synth(2000, 500, 20, 0.08, 4)
	m, err := Train(train, 500, small())
	if err != nil {
		t.Fatal(err)
	}
	acc := m.Accuracy(test)
	t.Logf("noisy accuracy %.3f", acc)
	if acc < 0.55 {
		t.Errorf("accuracy %.3f on a noisy task, want clearly better than chance", acc)
	}
}

func TestMultiClass(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var docs []Doc
	for i := range 600 {
		label := i % 3
		toks := make([]int32, 15)
		for j := range toks {
			toks[j] = int32(label*30 + rng.IntN(30))
		}
		docs = append(docs, Doc{toks, label})
	}
	cfg := small()
	cfg.Classes = 3
	m, err := Train(docs[:300], 90, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if acc := m.Accuracy(docs[300:]); acc < 0.95 {
		t.Errorf("3 classes: accuracy %.3f", acc)
	}
}

func TestDeterministic(t *testing.T) {
	docs := synth(300, 100, 25, 0.3, 6)
	a, _ := Train(docs, 100, small())
	b, _ := Train(docs, 100, small())
	if !reflect.DeepEqual(a, b) {
		t.Error("two trainings with one seed differ")
	}
	cfg := small()
	cfg.Seed = 2
	c, _ := Train(docs, 100, cfg)
	if reflect.DeepEqual(a.in, c.in) {
		t.Error("seeds 1 and 2 give the same model")
	}
}

func TestValidation(t *testing.T) {
	docs := []Doc{{[]int32{1, 2}, 0}, {[]int32{3}, 1}}
	mod := func(f func(*Config)) Config { c := small(); f(&c); return c }
	cases := []struct {
		name  string
		docs  []Doc
		vocab int
		cfg   Config
		want  string
	}{
		{"dim", docs, 10, mod(func(c *Config) { c.Dim = 0 }), "Dim"},
		{"epochs", docs, 10, mod(func(c *Config) { c.Epochs = 0 }), "Epochs"},
		{"lr", docs, 10, mod(func(c *Config) { c.LR = 0 }), "LR"},
		{"lr nan", docs, 10, mod(func(c *Config) { c.LR = -c.LR }), "LR"},
		{"buckets", docs, 10, mod(func(c *Config) { c.Buckets = 0 }), "Buckets"},
		{"neg buckets", docs, 10, mod(func(c *Config) { c.Buckets = -1 }), "Buckets"},
		{"classes", docs, 10, mod(func(c *Config) { c.Classes = 1 }), "Classes"},
		{"vocab", docs, 0, small(), "vocab"},
		{"no docs", nil, 10, small(), "no training documents"},
		{"label", []Doc{{[]int32{1}, 2}}, 10, small(), "label 2"},
		{"neg label", []Doc{{[]int32{1}, -1}}, 10, small(), "label -1"},
		{"token", []Doc{{[]int32{10}, 0}}, 10, small(), "token id 10"},
	}
	for _, c := range cases {
		if _, err := Train(c.docs, c.vocab, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want it to mention %q", c.name, err, c.want)
		}
	}
	noBigrams := mod(func(c *Config) { c.Bigrams = false; c.Buckets = 0 })
	if _, err := Train(docs, 10, noBigrams); err != nil {
		t.Errorf("no bigrams, no buckets: %v", err)
	}
}

func TestEmptyDocs(t *testing.T) {
	docs := []Doc{{nil, 1}, {[]int32{-1, -1}, 1}, {[]int32{}, 0}}
	m, err := Train(docs, 5, small())
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Predict(nil); got != 1 {
		t.Errorf("empty doc predicted %d, want the majority label 1", got)
	}
	if got := m.Predict([]int32{-1, 3}); got < 0 || got > 1 {
		t.Errorf("Predict = %d", got)
	}
	for _, v := range m.in {
		if v != v {
			t.Fatal("NaN in the model")
		}
	}
	if acc := m.Accuracy(docs); acc != 2.0/3 {
		t.Errorf("accuracy %v, want 2/3", acc)
	}
	if acc := m.Accuracy(nil); acc != 0 {
		t.Errorf("accuracy of no docs %v", acc)
	}
}

func TestPredictMatchesAccuracy(t *testing.T) {
	docs := synth(200, 100, 20, 0.2, 8)
	m, _ := Train(docs, 100, small())
	right := 0
	for _, d := range docs {
		if m.Predict(d.Tokens) == d.Label {
			right++
		}
	}
	if got := m.Accuracy(docs); got != float64(right)/float64(len(docs)) {
		t.Errorf("Accuracy %v, Predict gives %v", got, float64(right)/float64(len(docs)))
	}
}

// BenchmarkTrain trains the default configuration (Dim 16, bigrams) on
// IMDB-sized documents over a 50,000-word vocabulary.
func BenchmarkTrain(b *testing.B) {
	docs := synth(2000, 50000, 230, 0.05, 10)
	cfg := DefaultConfig()
	tokens := 0
	for _, d := range docs {
		tokens += len(d.Tokens)
	}
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if _, err := Train(docs, 50000, cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(tokens*cfg.Epochs*b.N)/time.Since(start).Seconds(), "tokens/s")
}

// TestProbs: the probabilities sum to 1, their argmax is Predict's class,
// a document without in-vocabulary tokens is certain of the majority
// label, and dst is reused when large enough.
func TestProbs(t *testing.T) {
	docs := synth(200, 100, 20, 0.5, 3)
	m, err := Train(docs, 100, small())
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]float64, 0, 4)
	for _, d := range append(docs[:20:20], Doc{Tokens: []int32{-1, -1}}, Doc{}) {
		p := m.Probs(d.Tokens, buf)
		if &p[0] != &buf[:1][0] {
			t.Fatal("Probs did not reuse dst")
		}
		sum, best := 0.0, 0
		for c, v := range p {
			sum += v
			if v > p[best] {
				best = c
			}
		}
		if sum < 1-1e-9 || sum > 1+1e-9 {
			t.Errorf("probabilities %v sum to %v", p, sum)
		}
		if got := m.Predict(d.Tokens); got != best {
			t.Errorf("argmax %d, Predict %d", best, got)
		}
	}
	if p := m.Probs(nil, nil); p[m.majority] != 1 {
		t.Errorf("empty document: %v, want certainty on the majority label %d", p, m.majority)
	}
}
