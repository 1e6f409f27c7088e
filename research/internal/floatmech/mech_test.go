package floatmech

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/research/internal/euclid"
)

func randomEmbedding(t testing.TB, n, d int, seed uint64) *Embedding {
	r := rand.New(rand.NewPCG(seed, 1))
	v := make([]float32, n*d)
	for i := range v {
		v[i] = float32(r.NormFloat64() * 0.5)
	}
	e, err := NewEmbedding(v, d)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

type builder struct {
	name  string
	build func(e *Embedding, eps float64) (Batcher, error)
}

func allMechanisms() []builder {
	return []builder{
		{"madlib", func(e *Embedding, eps float64) (Batcher, error) { return NewMadlib(e, eps) }},
		{"mahalanobis", func(e *Embedding, eps float64) (Batcher, error) { return NewMahalanobis(e, eps, DefaultLambda) }},
		{"vickrey", func(e *Embedding, eps float64) (Batcher, error) { return NewVickrey(e, eps, 0.75) }},
		{"vickrey-k3", func(e *Embedding, eps float64) (Batcher, error) { return NewVickreyK(e, eps, []float64{0.5, 1, 2}) }},
		{"trlaplace", func(e *Embedding, eps float64) (Batcher, error) { return NewTrLaplace(e, eps, 0, 0) }},
		{"laplace", func(e *Embedding, eps float64) (Batcher, error) { return NewLaplace(e, eps, 0) }},
		{"gaussian", func(e *Embedding, eps float64) (Batcher, error) {
			if eps > 1 && !math.IsInf(eps, 1) {
				eps = 1 // the classical Gaussian mechanism's range
			}
			return NewGaussian(e, eps, 0, 0)
		}},
	}
}

// TestBatchMatchesBruteForce replays each mechanism's noise from the same
// seed and checks its outputs against a brute-force nearest-neighbour
// scan, for single calls and for batches with several worker counts.
func TestBatchMatchesBruteForce(t *testing.T) {
	e := randomEmbedding(t, 3000, 24, 1)
	ws := make([]int, 400)
	for i := range ws {
		ws[i] = (i * 7919) % e.Len()
	}
	for _, b := range allMechanisms() {
		for _, eps := range []float64{0.5, 5, 50} {
			m, err := b.build(e, eps)
			if err != nil {
				t.Fatal(err)
			}
			var first []int
			for _, workers := range []int{1, 2, 5} {
				out := make([]int, len(ws))
				if err := m.PrivatizeBatch(ws, out, seeded(7), workers); err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = out
				} else {
					for i := range out {
						if out[i] != first[i] {
							t.Fatalf("%s ε=%v: workers=%d differs at %d", b.name, eps, workers, i)
						}
					}
				}
			}
			// Replay: the batch draws every noisy point first, then the
			// selections, from one source.
			p := pipelineOf(m)
			src := seeded(7)
			qs := make([][]float64, len(ws))
			for i, w := range ws {
				qs[i] = make([]float64, e.Dim())
				p.noisy(qs[i], w, src)
			}
			for i, w := range ws {
				nb := bruteNearest(e, qs[i], p.searchK())
				if got, want := first[i], p.choose(w, nb, src); got != want {
					t.Fatalf("%s ε=%v: word %d → %d, brute force %d", b.name, eps, w, got, want)
				}
			}
		}
	}
}

func pipelineOf(m Batcher) *pipeline {
	switch v := m.(type) {
	case *Madlib:
		return &v.pipeline
	case *Mahalanobis:
		return &v.pipeline
	case *Vickrey:
		return &v.pipeline
	case *TrLaplace:
		return &v.pipeline
	case *Laplace:
		return &v.pipeline
	case *Gaussian:
		return &v.pipeline
	}
	panic("unknown mechanism")
}

// bruteNearest ranks all words by the float64 distance to the float32
// rounding of q (what the mechanisms search with), ties by lower id.
func bruteNearest(e *Embedding, q []float64, k int) []euclid.Neighbor {
	q32 := make([]float32, len(q))
	for i, v := range q {
		q32[i] = float32(v)
	}
	all := make([]euclid.Neighbor, e.Len())
	for w := range all {
		all[w] = euclid.Neighbor{ID: int32(w), Dist: euclid.Dist(q32, e.Vector(w))}
	}
	for i := range k {
		best := i
		for j := i + 1; j < len(all); j++ {
			if all[j].Dist < all[best].Dist || (all[j].Dist == all[best].Dist && all[j].ID < all[best].ID) {
				best = j
			}
		}
		all[i], all[best] = all[best], all[i]
	}
	return all[:k]
}

func TestSingleCalls(t *testing.T) {
	e := randomEmbedding(t, 500, 8, 2)
	for _, b := range allMechanisms() {
		m, err := b.build(e, 1)
		if err != nil {
			t.Fatal(err)
		}
		src := seeded(8)
		for w := range 50 {
			y, err := m.Privatize(w, src)
			if err != nil || y < 0 || y >= e.Len() {
				t.Fatalf("%s: Privatize(%d) = %d, %v", b.name, w, y, err)
			}
		}
		for _, bad := range []int{-1, e.Len()} {
			if y, err := m.Privatize(bad, src); !errors.Is(err, mechanism.ErrWordOutOfRange) || y != -1 {
				t.Errorf("%s: Privatize(%d) = %d, %v", b.name, bad, y, err)
			}
		}
		if y, err := m.Privatize(0, nil); !errors.Is(err, mechanism.ErrNilSource) || y != -1 {
			t.Errorf("%s: nil source: %d, %v", b.name, y, err)
		}
		out := []int{5, 5}
		if err := m.PrivatizeBatch([]int{0, e.Len()}, out, src, 1); !errors.Is(err, mechanism.ErrWordOutOfRange) || out[0] != -1 || out[1] != -1 {
			t.Errorf("%s: bad batch: %v, out %v", b.name, err, out)
		}
		if err := m.PrivatizeBatch([]int{0}, out, src, 1); !errors.Is(err, ErrInvalidParameter) {
			t.Errorf("%s: length mismatch: %v", b.name, err)
		}
		if err := m.PrivatizeBatch(nil, nil, src, 1); err != nil {
			t.Errorf("%s: empty batch: %v", b.name, err)
		}
		if m.Len() != e.Len() || m.Metric() == "" || !(m.Epsilon() > 0) {
			t.Errorf("%s: Len %d Metric %q Epsilon %v", b.name, m.Len(), m.Metric(), m.Epsilon())
		}
	}
}

func TestConstructorErrors(t *testing.T) {
	e := randomEmbedding(t, 20, 3, 3)
	for _, eps := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		for _, b := range allMechanisms() {
			if _, err := b.build(e, eps); !errors.Is(err, mechanism.ErrInvalidEpsilon) {
				t.Errorf("%s ε=%v: %v", b.name, eps, err)
			}
		}
	}
	bad := []struct {
		name string
		err  error
	}{
		{"vickrey t<0", second(NewVickrey(e, 1, -0.1))},
		{"vickrey t>1", second(NewVickrey(e, 1, 1.1))},
		{"vickrey t NaN", second(NewVickrey(e, 1, math.NaN()))},
		{"vickreyK empty", second(NewVickreyK(e, 1, nil))},
		{"vickreyK negative", second(NewVickreyK(e, 1, []float64{1, -1}))},
		{"vickreyK inf", second(NewVickreyK(e, 1, []float64{math.Inf(1)}))},
		{"mahalanobis λ>1", second(NewMahalanobis(e, 1, 1.5))},
		{"mahalanobis λ NaN", second(NewMahalanobis(e, 1, math.NaN()))},
		{"gaussian ε>1", second(NewGaussian(e, 1.5, 1, 0))},
		{"gaussian δ=1", second(NewGaussian(e, 0.5, 1, 1))},
		{"trlaplace δ=2", second(NewTrLaplace(e, 0.5, 1, 2))},
		{"laplace C=Inf", second(NewLaplace(e, 0.5, math.Inf(1)))},
	}
	for _, tc := range bad {
		if !errors.Is(tc.err, ErrInvalidParameter) {
			t.Errorf("%s: %v", tc.name, tc.err)
		}
	}
	if _, err := FromAsset(nil); !errors.Is(err, ErrNoFloats) {
		t.Errorf("FromAsset(nil): %v", err)
	}
	if _, err := NewEmbedding(nil, 3); err == nil {
		t.Error("empty embedding accepted")
	}
}

func second[T any](_ T, err error) error { return err }

func TestSigmaLambda(t *testing.T) {
	e := randomEmbedding(t, 400, 5, 4)
	// λ = 0 is the identity (Madlib's isotropic noise).
	s0, err := SigmaLambda(e, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		for j := range 5 {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(s0[i*5+j]-want) > 1e-12 {
				t.Fatalf("Σ_0[%d][%d] = %v", i, j, s0[i*5+j])
			}
		}
	}
	// The square root squares back to Σ_λ, and Σ_λ's trace is d (the
	// mean variance is normalized to 1).
	s, _ := SigmaLambda(e, 0.2)
	r, err := SigmaLambdaSqrt(e, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	var trace float64
	for i := range 5 {
		trace += s[i*5+i]
		for j := range 5 {
			var v float64
			for k := range 5 {
				v += r[i*5+k] * r[k*5+j]
			}
			if math.Abs(v-s[i*5+j]) > 1e-10 {
				t.Fatalf("(Σ^½)²[%d][%d] = %v, Σ = %v", i, j, v, s[i*5+j])
			}
		}
	}
	if math.Abs(trace-5) > 1e-9 {
		t.Errorf("trace Σ_λ = %v, want 5", trace)
	}
}

// TestMadlibNoiseNorm checks the noisy point's offset from the word
// (Madlib's noise) has the Gamma(d, 1/ε) norm, through the pipeline.
func TestMadlibNoiseNorm(t *testing.T) {
	e := randomEmbedding(t, 10, 100, 5)
	m, _ := NewMadlib(e, 4)
	src := seeded(9)
	n := samples(t)
	xs := make([]float64, n)
	q := make([]float64, 100)
	for i := range xs {
		m.noisy(q, 3, src)
		var s float64
		for j, v := range e.Vector(3) {
			d := q[j] - float64(v)
			s += d * d
		}
		xs[i] = math.Sqrt(s)
	}
	// Gamma(100, rate 4): mean 25, sd 2.5.
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	if math.Abs(mean-25) > 5*2.5/math.Sqrt(float64(n)) {
		t.Errorf("mean noise norm %.3f, want 25", mean)
	}
}
