package alacarte

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/wordveil/wordveil/research/internal/binarize"
)

// Source for the hand-checked cases: x, y, z have vectors; x and y are the
// training words (Train 2); "t" is a target; "q" is unknown.
func handSource() *binarize.Embeddings {
	return embeddings(2, "x", []float32{1, 0}, "y", []float32{0, 1}, "z", []float32{2, 2})
}

func TestAccumulatorHandChecked(t *testing.T) {
	tests := []struct {
		name   string
		window int
		docs   [][]string
		word   string
		count  int64
		u      []float64 // context average (nil when count is 0)
	}{
		{"both sides", 1, [][]string{{"x", "t", "y"}}, "t", 1, []float64{0.5, 0.5}},
		{"no context vector", 1, [][]string{{"t"}, {"q", "t", "q"}}, "t", 0, nil},
		{"windows do not cross documents", 1, [][]string{{"x"}, {"t"}, {"y"}}, "t", 0, nil},
		{"unknown words skipped, positions kept", 2, [][]string{{"x", "q", "t", "q", "z"}}, "t", 1, []float64{1.5, 1}},
		{"outside the window", 1, [][]string{{"x", "q", "t", "q", "z"}}, "t", 0, nil},
		{"average of per-occurrence averages", 1, [][]string{{"x", "t", "y"}, {"t", "z"}}, "t", 2, []float64{(0.5 + 2) / 2, (0.5 + 2) / 2}},
		{"a word is not its own context", 1, [][]string{{"t", "t"}, {"x", "t"}}, "t", 1, []float64{1, 0}},
		{"training word", 1, [][]string{{"z", "x", "y"}}, "x", 1, []float64{1, 1.5}},
		{"training word in another's context", 1, [][]string{{"x", "y"}}, "y", 1, []float64{1, 0}},
		{"empty document", 3, [][]string{{}, {"t"}}, "t", 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := NewAccumulator(handSource(), []string{"t"}, Config{Window: tc.window, Train: 2})
			if err != nil {
				t.Fatal(err)
			}
			var tokens int64
			for _, d := range tc.docs {
				if err := a.Add(d); err != nil {
					t.Fatal(err)
				}
				tokens += int64(len(d))
			}
			if a.Tokens() != tokens || a.Docs() != int64(len(tc.docs)) {
				t.Errorf("Tokens, Docs = %d, %d; want %d, %d", a.Tokens(), a.Docs(), tokens, len(tc.docs))
			}
			n, ok := a.Count(tc.word)
			if !ok || n != tc.count {
				t.Fatalf("Count(%q) = %d, %t; want %d, true", tc.word, n, ok, tc.count)
			}
			if tc.count == 0 {
				return
			}
			u := make([]float64, 2)
			a.context(int(a.index[tc.word].slot), u)
			for k := range u {
				if math.Abs(u[k]-tc.u[k]) > 1e-12 {
					t.Fatalf("u = %v, want %v", u, tc.u)
				}
			}
		})
	}
}

func TestAccumulatorTracking(t *testing.T) {
	a, err := NewAccumulator(handSource(), []string{"t", "z", "x"}, Config{Window: 1, Train: 2})
	if err != nil {
		t.Fatal(err)
	}
	// x is both a training word and a target: tracked once.
	if len(a.words) != 4 || !slices.Equal(a.words, []string{"x", "y", "t", "z"}) {
		t.Fatalf("slots %v, want [x y t z]", a.words)
	}
	if _, ok := a.Count("q"); ok {
		t.Error("untracked word reported as tracked")
	}
	// Memory: one dim-vector per tracked word, not per token.
	for i := 0; i < 1000; i++ {
		if err := a.Add([]string{"x", "t", "y", "q", "z"}); err != nil {
			t.Fatal(err)
		}
	}
	if len(a.sums) != 4*2 || len(a.counts) != 4 {
		t.Fatalf("state grew with the corpus: %d sums, %d counts", len(a.sums), len(a.counts))
	}
	if n, _ := a.Count("t"); n != 1000 {
		t.Fatalf("Count(t) = %d, want 1000", n)
	}
}

// TestAccumulatorDeterministic: the same documents give the same bits, and
// a different document order (a negative control for the comparison) may
// not be needed to differ, but different documents must.
func TestAccumulatorDeterministic(t *testing.T) {
	s := newSynthetic(t, 8, 50, 4, 5, true, 1)
	run := func(docs [][]string) []float64 {
		a, err := NewAccumulator(s.src, s.targetNames(), Config{Window: 2, Train: 50})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if err := a.Add(d); err != nil {
				t.Fatal(err)
			}
		}
		return a.sums
	}
	bits := func(x []float64) []uint64 {
		out := make([]uint64, len(x))
		for i, v := range x {
			out[i] = math.Float64bits(v)
		}
		return out
	}
	first, second := bits(run(s.docs)), bits(run(s.docs))
	if !slices.Equal(first, second) {
		t.Fatal("same input, different bits")
	}
	if slices.Equal(first, bits(run(s.docs[1:]))) {
		t.Fatal("dropping a document changed nothing: the comparison cannot fail")
	}
}

func TestNewAccumulatorErrors(t *testing.T) {
	nan := embeddings(2, "x", []float32{float32(math.NaN()), 0})
	dup := embeddings(2, "x", []float32{1, 0}, "x", []float32{0, 1})
	empty := &binarize.Embeddings{Dim: 2}
	badShape := &binarize.Embeddings{Dim: 2, Words: []string{"x"}, Vectors: []float32{1}}
	ok := Config{Window: 1, Train: 1}
	tests := []struct {
		name    string
		src     *binarize.Embeddings
		targets []string
		cfg     Config
		want    error
	}{
		{"nil source", nil, nil, ok, ErrSource},
		{"empty source", empty, nil, ok, ErrSource},
		{"NaN", nan, nil, ok, ErrSource},
		{"duplicate source word", dup, nil, ok, ErrSource},
		{"ragged vectors", badShape, nil, ok, ErrSource},
		{"zero config", handSource(), nil, Config{}, ErrConfig},
		{"window 0", handSource(), nil, Config{Window: 0, Train: 1}, ErrConfig},
		{"window too wide", handSource(), nil, Config{Window: MaxWindow + 1, Train: 1}, ErrConfig},
		{"train 0", handSource(), nil, Config{Window: 1, Train: 0}, ErrConfig},
		{"train beyond source", handSource(), nil, Config{Window: 1, Train: 4}, ErrConfig},
		{"empty target", handSource(), []string{""}, ok, ErrConfig},
		{"duplicate target", handSource(), []string{"t", "t"}, ok, ErrConfig},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewAccumulator(tc.src, tc.targets, tc.cfg)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			checkPrefixOnce(t, err)
		})
	}
}

// TestNilAndZeroValues: methods of nil and zero values return errors or
// zeros and never panic.
func TestNilAndZeroValues(t *testing.T) {
	for _, a := range []*Accumulator{nil, {}} {
		if err := a.Add([]string{"x"}); !errors.Is(err, ErrNil) {
			t.Errorf("Add: %v", err)
		}
		if err := a.AddCorpus(func(func([]string) error) error { return nil }); !errors.Is(err, ErrNil) {
			t.Errorf("AddCorpus: %v", err)
		}
		if _, _, err := a.Fit(DefaultFitConfig()); !errors.Is(err, ErrNil) {
			t.Errorf("Fit: %v", err)
		}
		if _, err := a.Induce(identity(2), 1); !errors.Is(err, ErrNil) {
			t.Errorf("Induce: %v", err)
		}
		if n, ok := a.Count("x"); n != 0 || ok {
			t.Errorf("Count = %d, %t", n, ok)
		}
		if a.Tokens() != 0 || a.Docs() != 0 {
			t.Error("nonzero totals")
		}
	}
	var m *Map
	if _, err := m.Apply([]float64{1}); !errors.Is(err, ErrNil) {
		t.Errorf("nil Map.Apply: %v", err)
	}
	if _, err := (&Map{}).Apply(nil); !errors.Is(err, ErrNil) {
		t.Errorf("zero Map.Apply: %v", err)
	}
	if m.Dim() != 0 {
		t.Error("nil Map has a dimension")
	}
	a, err := NewAccumulator(handSource(), nil, Config{Window: 1, Train: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.AddCorpus(nil); !errors.Is(err, ErrConfig) {
		t.Errorf("nil corpus: %v", err)
	}
	if _, err := a.Induce(nil, 1); !errors.Is(err, ErrNil) {
		t.Errorf("Induce(nil map): %v", err)
	}
}

// TestAddCorpusStopsAtError: a corpus error is returned as is.
func TestAddCorpusStopsAtError(t *testing.T) {
	a, err := NewAccumulator(handSource(), nil, Config{Window: 1, Train: 1})
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("source failed")
	err = a.AddCorpus(func(fn func([]string) error) error {
		if err := fn([]string{"x", "y"}); err != nil {
			return err
		}
		return stop
	})
	if !errors.Is(err, stop) || a.Docs() != 1 {
		t.Fatalf("error %v after %d documents, want %v after 1", err, a.Docs(), stop)
	}
}

func BenchmarkAdd(b *testing.B) {
	// A 50,000-word source of dimension 100, 20,000 training words, and
	// documents of 250 Zipf-distributed tokens, 5% of them unknown.
	const n, dim, docLen = 50000, 100, 250
	r := rand.New(rand.NewPCG(1, 2))
	src := &binarize.Embeddings{Dim: dim, Vectors: make([]float32, n*dim)}
	for i := 0; i < n; i++ {
		src.Words = append(src.Words, "w"+strconv.Itoa(i))
	}
	for i := range src.Vectors {
		src.Vectors[i] = float32(r.NormFloat64())
	}
	for _, window := range []int{2, 5} {
		b.Run("window="+strconv.Itoa(window), func(b *testing.B) {
			a, err := NewAccumulator(src, []string{"lol", "thx"}, Config{Window: window, Train: 20000})
			if err != nil {
				b.Fatal(err)
			}
			z := rand.NewZipf(r, 1.1, 1, n-1)
			docs := make([][]string, 64)
			for d := range docs {
				for k := 0; k < docLen; k++ {
					w := src.Words[z.Uint64()]
					if r.IntN(20) == 0 {
						w = "unknown"
					}
					docs[d] = append(docs[d], w)
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := a.Add(docs[i%len(docs)]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(a.Tokens()), "ns/token")
		})
	}
}
