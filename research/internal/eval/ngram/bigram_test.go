package ngram

import (
	"errors"
	"math"
	"testing"
)

func build(t *testing.T, n int, sentences ...[]int) *Bigram {
	t.Helper()
	b, err := NewBuilder(n)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sentences {
		if err := b.Add(s, true); err != nil {
			t.Fatal(err)
		}
	}
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Every context's distribution sums to 1 and gives every word a positive
// probability.
func TestDistributions(t *testing.T) {
	cases := []struct {
		name      string
		n         int
		sentences [][]int
	}{
		{"one sentence", 3, [][]int{{0, 1, 2}}},
		{"repeats", 5, [][]int{{0, 1, 0, 1}, {1, 0}, {4}, {0, 1, 2, 2, 2}}},
		{"starts only", 4, [][]int{{2}, {3}}},
		{"unseen words", 10, [][]int{{0, 1}, {1, 0}}},
	}
	for _, c := range cases {
		m := build(t, c.n, c.sentences...)
		base := make([]float64, c.n)
		for w := range base {
			base[w] = float64(w + 1)
		}
		mb, err := m.WithBase(base)
		if err != nil {
			t.Fatal(err)
		}
		check(t, c.name, m)
		check(t, c.name+" with a base", mb)
		if got, want := mb.Prob(Unknown, 0), 2/float64(c.n*(c.n+1)); math.Abs(got-want) > 1e-15 {
			t.Errorf("%s: base P1(0) = %v, want %v", c.name, got, want)
		}
	}
}

func check(t *testing.T, name string, m *Bigram) {
	t.Helper()
	c := struct {
		name string
		n    int
	}{name, m.Len()}
	{
		for prev := Unknown; prev < c.n; prev++ {
			s := 0.0
			for w := range c.n {
				p := m.Prob(prev, w)
				if !(p > 0) {
					t.Errorf("%s: P(%d | %d) = %v", c.name, w, prev, p)
				}
				s += p
			}
			if math.Abs(s-1) > 1e-12 {
				t.Errorf("%s: P(· | %d) sums to %v", c.name, prev, s)
			}
		}
	}
}

// The formula by hand on a small corpus: sentences "0 1" and "0 2" and
// "1 2" over N = 4. Bigrams: (S,0)×2, (S,1), (0,1), (0,2), (1,2): n1 = 4,
// n2 = 1, so D = 4/6. N1+(• •) = 3 (word contexts only: (0,1), (0,2),
// (1,2)); N1+(• 1) = 1, N1+(• 2) = 2; 2 words seen after a word.
func TestByHand(t *testing.T) {
	m := build(t, 4, []int{0, 1}, []int{0, 2}, []int{1, 2})
	d := 4.0 / 6
	if math.Abs(m.Discount()-d) > 1e-15 {
		t.Fatalf("D = %v, want %v", m.Discount(), d)
	}
	p1 := []float64{d * 2 / 3 / 4, (1-d)/3 + d*2/3/4, (2-d)/3 + d*2/3/4, d * 2 / 3 / 4}
	for w, want := range p1 {
		if got := m.Prob(Unknown, w); math.Abs(got-want) > 1e-15 {
			t.Errorf("P1(%d) = %v, want %v", w, got, want)
		}
		// Word 3 was never a context: P1.
		if got := m.Prob(3, w); math.Abs(got-want) > 1e-15 {
			t.Errorf("P(%d | 3) = %v, want P1 %v", w, got, want)
		}
	}
	// Context 0: c = 2, two types.
	want := (1-d)/2 + d*2/2*p1[1]
	if got := m.Prob(0, 1); math.Abs(got-want) > 1e-15 {
		t.Errorf("P(1 | 0) = %v, want %v", got, want)
	}
	// Start: c = 3, (S,0)×2, (S,1), two types.
	want = (2-d)/3 + d*2/3*p1[0]
	if got := m.Prob(Start, 0); math.Abs(got-want) > 1e-15 {
		t.Errorf("P(0 | Start) = %v, want %v", got, want)
	}
	if got := m.LogProb(Start, 3); math.Abs(got-math.Log(d*2/3*p1[3])) > 1e-12 {
		t.Errorf("log P(3 | Start) = %v", got)
	}
}

// Mix is the weighted sum of the contexts' distributions.
func TestMix(t *testing.T) {
	m := build(t, 5, []int{0, 1, 2}, []int{0, 2, 2, 4}, []int{3, 1})
	prevs := []int{Start, 0, 2, 3, Unknown, 4}
	weights := []float64{0.1, 0.3, 0.2, 0.15, 0.05, 0.2}
	dst := make([]float64, 5)
	if err := m.Mix(prevs, weights, dst); err != nil {
		t.Fatal(err)
	}
	for w := range dst {
		want := 0.0
		for i, v := range prevs {
			want += weights[i] * m.Prob(v, w)
		}
		if math.Abs(dst[w]-want) > 1e-15 {
			t.Errorf("Mix(%d) = %v, want %v", w, dst[w], want)
		}
	}
	if err := m.Mix([]int{0}, []float64{-1}, dst); !errors.Is(err, ErrInvalid) {
		t.Errorf("a negative weight: %v", err)
	}
	if err := m.Mix([]int{0}, []float64{1}, dst[:2]); !errors.Is(err, ErrInvalid) {
		t.Errorf("a short buffer: %v", err)
	}
}

func TestInvalid(t *testing.T) {
	if _, err := NewBuilder(0); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewBuilder(0): %v", err)
	}
	b, _ := NewBuilder(3)
	if err := b.Add([]int{0, 3}, true); !errors.Is(err, ErrInvalid) {
		t.Errorf("Add out of range: %v", err)
	}
	if _, err := b.Build(); !errors.Is(err, ErrInvalid) {
		t.Errorf("Build of nothing: %v", err)
	}
	var nb *Builder
	if err := nb.Add([]int{0}, true); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil Add: %v", err)
	}
	var m *Bigram
	if m.Prob(0, 0) != 0 || m.Len() != 0 || m.Discount() != 0 {
		t.Error("nil model")
	}
	if _, err := m.WithBase(nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil WithBase: %v", err)
	}
	if _, err := build(t, 2, []int{0, 1}).WithBase([]float64{1, 0}); !errors.Is(err, ErrInvalid) {
		t.Errorf("WithBase with a zero: %v", err)
	}
	// A sentence not from the start counts no Start bigram.
	b, _ = NewBuilder(2)
	if err := b.Add([]int{1}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(); !errors.Is(err, ErrInvalid) {
		t.Errorf("Build of one word not from the start: %v", err)
	}
	m = build(t, 3, []int{0, 1})
	for _, c := range [][2]int{{-3, 0}, {3, 0}, {0, -1}, {0, 3}} {
		if m.Prob(c[0], c[1]) != 0 {
			t.Errorf("P(%d | %d) outside the model is not 0", c[1], c[0])
		}
	}
}
