package attack

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// rr is 2-word randomized response keeping the input with probability p.
func rr(p float64) [][]float64 { return [][]float64{{p, 1 - p}, {1 - p, p}} }

// uniformRows is the law that ignores its input: every row uniform.
func uniformRows(n int) [][]float64 {
	P := make([][]float64, n)
	for w := range P {
		P[w] = make([]float64, n)
		for y := range P[w] {
			P[w][y] = 1 / float64(n)
		}
	}
	return P
}

func identity(n int) [][]float64 {
	P := make([][]float64, n)
	for w := range P {
		P[w] = make([]float64, n)
		P[w][w] = 1
	}
	return P
}

// TestExactRates: Exact against rates worked out by hand, including the
// edge cases (a prior with zeros, one word, k above N, ties).
func TestExactRates(t *testing.T) {
	for _, c := range []struct {
		name           string
		P              [][]float64
		prior          []float64
		kmax           int
		recovery, base []float64
	}{
		// R_1 = Σ_y max_w prior(w)·P[w][y].
		{"randomized response, skewed prior", rr(0.8), []float64{0.3, 0.7}, 1,
			[]float64{math.Max(0.3*0.8, 0.7*0.2) + math.Max(0.3*0.2, 0.7*0.8)}, []float64{0.7}},
		// The prior outweighs the output: the attacker always says word 1.
		{"prior beats the output", rr(0.6), []float64{0.2, 0.8}, 1, []float64{0.8}, []float64{0.8}},
		// Ties: every posterior equal, credit 1/N per slot.
		{"uniform law, uniform prior: ties", uniformRows(4), []float64{1, 1, 1, 1}, 3,
			[]float64{0.25, 0.5, 0.75}, []float64{0.25, 0.5, 0.75}},
		// Tie at the top-2 boundary: words 1 and 2 share the second slot.
		{"tie inside the top-k boundary", uniformRows(3), []float64{0.5, 0.25, 0.25}, 2,
			[]float64{0.5, 0.5 + 0.25*0.5 + 0.25*0.5}, []float64{0.5, 0.75}},
		{"identity law recovers everything", identity(5), []float64{5, 4, 3, 2, 1}, 2,
			[]float64{1, 1}, []float64{5.0 / 15, 9.0 / 15}},
		{"prior with zeros", identity(4), []float64{0, 1, 0, 3}, 1, []float64{1}, []float64{0.75}},
		{"prior with zeros, uniform law", uniformRows(4), []float64{0, 1, 0, 3}, 2, []float64{0.75, 1}, []float64{0.75, 1}},
		{"one word", [][]float64{{1}}, []float64{2}, 5, []float64{1, 1, 1, 1, 1}, []float64{1, 1, 1, 1, 1}},
		{"k above N", uniformRows(3), []float64{1, 1, 1}, 5,
			[]float64{1.0 / 3, 2.0 / 3, 1, 1, 1}, []float64{1.0 / 3, 2.0 / 3, 1, 1, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Exact(c.P, c.prior, c.kmax)
			if err != nil {
				t.Fatal(err)
			}
			for k := range c.kmax {
				if math.Abs(r.Recovery[k]-c.recovery[k]) > 1e-12 || math.Abs(r.Baseline[k]-c.base[k]) > 1e-12 {
					t.Errorf("k=%d: R=%v baseline=%v, want %v and %v", k+1, r.Recovery[k], r.Baseline[k], c.recovery[k], c.base[k])
				}
			}
		})
	}
}

// TestCreditMatchesRandomTieBreak: the fractional credit equals the
// average hit rate over every uniform tie-break, computed by enumerating
// the orderings of a small score vector with ties (brute force).
func TestCreditMatchesRandomTieBreak(t *testing.T) {
	scores := []float64{0.2, 0.5, 0.2, 0.2, 0.5, 0.1}
	perm := []int{0, 1, 2, 3, 4, 5}
	hits := make([][]float64, len(scores)) // hits[w][k]
	for w := range hits {
		hits[w] = make([]float64, len(scores))
	}
	count := 0
	var visit func(i int)
	visit = func(i int) {
		if i == len(perm) {
			// perm is an order; keep it only if it sorts scores descending.
			for j := 1; j < len(perm); j++ {
				if scores[perm[j-1]] < scores[perm[j]] {
					return
				}
			}
			count++
			for pos, w := range perm {
				for k := pos; k < len(scores); k++ {
					hits[w][k]++
				}
			}
			return
		}
		for j := i; j < len(perm); j++ {
			perm[i], perm[j] = perm[j], perm[i]
			visit(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
	}
	visit(0)
	rk := rank(scores, len(scores))
	out := make([]float64, len(scores))
	for w, s := range scores {
		rk.credit(s, out)
		for k := range out {
			if want := hits[w][k] / float64(count); math.Abs(out[k]-want) > 1e-12 {
				t.Errorf("w=%d k=%d: credit %v, random tie-break %v", w, k+1, out[k], want)
			}
		}
	}
}

func TestTopK(t *testing.T) {
	for _, c := range []struct {
		scores []float64
		k      int
		want   []int
	}{
		{[]float64{0.1, 0.4, 0.4, 0.1}, 2, []int{1, 2}},
		{[]float64{0.1, 0.4, 0.4, 0.1}, 3, []int{1, 2, 0}}, // tie: lower id first
		{[]float64{0, 0, 0}, 1, []int{0}},
		{[]float64{3}, 9, []int{0}}, // k above N
	} {
		got, err := TopK(c.scores, c.k)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("TopK(%v, %d) = %v, %v; want %v", c.scores, c.k, got, err, c.want)
		}
	}
	for _, c := range []struct {
		scores []float64
		k      int
	}{{nil, 1}, {[]float64{1}, 0}, {[]float64{math.NaN()}, 1}, {[]float64{-1}, 1}, {[]float64{math.Inf(1)}, 1}} {
		if _, err := TopK(c.scores, c.k); err == nil {
			t.Errorf("TopK(%v, %d) accepted", c.scores, c.k)
		}
	}
}

// TestRankMatchesSort: the O(N·kmax) ranking equals one from a full
// sort, on random vectors with many ties.
func TestRankMatchesSort(t *testing.T) {
	src := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 1 + src.IntN(12)
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(src.IntN(4))
		}
		kmax := 1 + src.IntN(n+2)
		r := rank(s, kmax)
		sorted := slices.Clone(s)
		slices.Sort(sorted)
		slices.Reverse(sorted)
		for k := range min(kmax, n) {
			v := sorted[k]
			above, equal := 0, 0
			for _, x := range s {
				if x > v {
					above++
				} else if x == v {
					equal++
				}
			}
			if r.v[k] != v || r.above[k] != above || r.equal[k] != equal {
				t.Fatalf("%v k=%d: rank (%v,%d,%d), sort (%v,%d,%d)", s, k+1, r.v[k], r.above[k], r.equal[k], v, above, equal)
			}
		}
	}
}

func TestPosterior(t *testing.T) {
	got, err := Posterior(rr(0.8), []float64{0.3, 0.7}, 0)
	if err != nil {
		t.Fatal(err)
	}
	z := 0.3*0.8 + 0.7*0.2
	if math.Abs(got[0]-0.3*0.8/z) > 1e-15 || math.Abs(got[1]-0.7*0.2/z) > 1e-15 {
		t.Errorf("posterior %v", got)
	}
	// y = 0 is impossible when only word 1 has prior mass.
	if _, err := Posterior(identity(2), []float64{0, 1}, 0); err == nil {
		t.Error("posterior of an impossible output accepted")
	}
}

func TestExactRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		name  string
		P     [][]float64
		prior []float64
		kmax  int
	}{
		{"no law", nil, nil, 1},
		{"kmax 0", identity(2), []float64{1, 1}, 0},
		{"kmax above MaxK", identity(2), []float64{1, 1}, MaxK + 1},
		{"kmax huge", identity(2), []float64{1, 1}, math.MaxInt},
		{"prior short", identity(2), []float64{1}, 1},
		{"prior negative", identity(2), []float64{-1, 2}, 1},
		{"prior NaN", identity(2), []float64{math.NaN(), 1}, 1},
		{"prior Inf", identity(2), []float64{math.Inf(1), 1}, 1},
		{"prior all zero", identity(2), []float64{0, 0}, 1},
		{"prior sum overflows", identity(2), []float64{math.MaxFloat64, math.MaxFloat64}, 1},
		{"rows not a law", [][]float64{{0.5, 0.6}, {0, 1}}, []float64{1, 1}, 1},
	} {
		if _, err := Exact(c.P, c.prior, c.kmax); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	if _, err := Posterior(identity(2), []float64{1, 1}, 2); err == nil {
		t.Error("Posterior: output out of range accepted")
	}
}

// TestWilson: reference values of the 95% Wilson score interval, from
// its closed form computed independently with Python 3's math module:
// 0/10 → [0, 0.2775], 5/10 → [0.2366, 0.7634], 10/10 → [0.7225, 1].
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		s      float64
		n      int
		lo, hi float64
	}{{0, 10, 0, 0.27753}, {5, 10, 0.23659, 0.76341}, {10, 10, 0.72247, 1}} {
		got := Wilson(c.s, c.n)
		if math.Abs(got.Lo-c.lo) > 1e-4 || math.Abs(got.Hi-c.hi) > 1e-4 {
			t.Errorf("Wilson(%v, %d) = %+v, want [%v, %v]", c.s, c.n, got, c.lo, c.hi)
		}
	}
	if got := Wilson(1, 0); got.Lo != 0 || got.Hi != 1 {
		t.Errorf("Wilson(1, 0) = %+v, want the vacuous [0, 1]", got)
	}
}
