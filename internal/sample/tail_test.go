package sample

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/wordveil/wordveil/internal/stattest"
)

// scripted is a rand.Source that replays fixed values, then a constant:
// it drives the samplers down chosen paths deterministically.
type scripted struct {
	vals []uint64
	i    int
	then uint64
}

func (s *scripted) Uint64() uint64 {
	if s.i < len(s.vals) {
		s.i++
		return s.vals[s.i-1]
	}
	return s.then
}

// Tails beyond what a 2^-53 uniform grid can reach must be reachable: a
// truncated tail makes some output impossible for one input and possible
// for a neighbour (an unbounded privacy-loss ratio).
func TestTailsAreNotTruncated(t *testing.T) {
	// Gumbel: Bernoulli trial fails (b = 0), then a uniform of ~2^-64.
	g := Gumbel(&scripted{vals: []uint64{math.MaxUint64, 1, 0}}, 1)
	if g < 40 {
		t.Errorf("Gumbel upper tail capped at %v; a 2^-53 grid stops at 36.7", g)
	}
	// SignedGeometric: every decision it makes has a positive
	// probability, however far out (e^-99 for the pool at ε = 1, 2^-92
	// for the top digit), so every value in [−bound, bound] is reachable;
	// a 2^-53 uniform grid would stop near 36.7/ε.
	sg, err := NewSignedGeometric(1, 100)
	if err != nil {
		t.Fatal(err)
	}
	for j, d := range append([]LogBernoulli{sg.zero, sg.pool}, sg.digit...) {
		if d.thresh == 0 || d.sure {
			t.Errorf("decision %d of SignedGeometric(1, 100) is impossible or certain: %+v", j, d)
		}
	}
	// uniformFine keeps 53 significant bits near zero and never returns 0.
	u := uniformFine(&scripted{vals: []uint64{0, 0, 1, math.MaxUint64}})
	if want := math.Ldexp(float64(uint64(1)<<53-1), -53-128-63); u != want {
		t.Errorf("uniformFine = %g, want %g", u, want)
	}
	if u := uniformFine(&scripted{then: 0}); !(u > 0) {
		t.Errorf("uniformFine with all-zero bits = %v, want > 0", u)
	}
}

func TestBernoulliLogPaths(t *testing.T) {
	ln := math.Log
	for _, c := range []struct {
		name string
		lnp  float64
		vals []uint64
		want bool
	}{
		{"certain", 0, nil, true},
		{"NaN", math.NaN(), nil, false},
		{"p=0.5 below", ln(0.5), []uint64{1<<63 - 1}, true},
		{"p=0.5 at", ln(0.5), []uint64{1 << 63}, false},
		// p = 2^-20: one chunk of exactly 2^-16 (draw < 2^48), then 2^-4.
		{"chunk fails", -20 * math.Ln2, []uint64{1 << 48}, false},
		// The chunk takes the draw's top 16 bits; the threshold 2^60 (top
		// byte 0x0f or 0x10, as exp rounds) is compared with the next bits,
		// byte by byte.
		{"chunk passes, rest passes", -20 * math.Ln2, []uint64{0x0000_0eff_ffff_ffff}, true},
		{"chunk passes, rest fails", -20 * math.Ln2, []uint64{0x0000_1000_0000_0001}, false},
		{"-Inf", math.Inf(-1), []uint64{0, 0, 0, 1 << 48}, false},
	} {
		if got := BernoulliLog(&scripted{vals: c.vals, then: math.MaxUint64}, c.lnp); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
	// Statistically, a probability far below 2^-16. Control: draws at 3p
	// against the law of p: with 2e6 draws, 120 expected hits against 40
	// (chi-square 160). The test's power is about this coarse: at 2p
	// (chi-square 40 on average) it rejects at 1e-6 only about half the time.
	src := rand.NewChaCha8(stattest.Seed("blog"))
	const p, draws = 2e-5, 2000000
	for _, c := range []struct {
		drawP   float64
		control bool
	}{{p, false}, {3 * p, true}} {
		hits := 0
		for range draws {
			if BernoulliLog(src, math.Log(c.drawP)) {
				hits++
			}
		}
		fit(t, "BernoulliLog drawn at p="+strconv.FormatFloat(c.drawP, 'g', -1, 64), c.control, []int{hits, draws - hits}, []float64{p, 1 - p})
	}
}

func TestLogHelpers(t *testing.T) {
	for _, c := range []struct{ a, b, want float64 }{
		{0, 0, math.Ln2},
		{1000, 1000, 1000 + math.Ln2},
		{-1000, math.Inf(-1), -1000},
		{math.Log(3), math.Log(5), math.Log(8)},
	} {
		if got := LogAddExp(c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("LogAddExp(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	for _, c := range []struct{ x, want float64 }{
		{0, math.Ln2}, {1000, 1000}, {-1000, math.Exp(-1000)}, {2, math.Log1p(math.Exp(2))},
	} {
		if got := Softplus(c.x); math.Abs(got-c.want) > 1e-12*math.Max(1, c.want) {
			t.Errorf("Softplus(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// Exp(1) from exponential: 40 equiprobable cells. Control: 1.1·E, an
// exponential of rate 1/1.1, against the cells of Exp(1).
func TestExponential(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("exp"))
	const cells = 40
	p := make([]float64, cells)
	for i := range p {
		p[i] = 1.0 / cells
	}
	for _, c := range []struct {
		scale   float64
		control bool
	}{{1, false}, {1.1, true}} {
		counts := make([]int, cells)
		for range 40000 {
			e := c.scale * exponential(src)
			// CDF 1 − e^−x maps E to a uniform cell.
			counts[min(int(-math.Expm1(-e)*cells), cells-1)]++
		}
		fit(t, "exponential scaled by "+strconv.FormatFloat(c.scale, 'g', -1, 64), c.control, counts, p)
	}
}

// The lazy bit-sliced mask equals 64 full per-lane comparisons of the
// uniform integers the same 64 draws define (draws the lazy version never
// reads cannot matter), on random streams and edge thresholds.
func TestBernoulliMaskEqualsPerLaneComparison(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("slice"))
	thresholds := []uint64{0, 1, 1 << 63, math.MaxUint64, BernoulliThreshold(1 / (1 + math.Exp(0.5)))}
	for range 20 {
		thresholds = append(thresholds, src.Uint64())
	}
	for _, th := range thresholds {
		for range 200 {
			// The first depth draws copy threshold's bits into most lanes
			// (all of them at depth 64), so lanes stay open deep into the
			// comparison and the equality case is reached.
			depth := UniformInt(src, 65)
			//lint:ignore SA4000 two independent draws: each lane is kept with probability 3/4
			keep := src.Uint64() | src.Uint64() // lanes forced to follow
			if depth == 64 {
				keep = math.MaxUint64
			}
			words := make([]uint64, 64)
			for j := range words {
				words[j] = src.Uint64()
				if j < depth {
					if th>>uint(63-j)&1 == 1 {
						words[j] |= keep
					} else {
						words[j] &^= keep
					}
				}
			}
			var want uint64
			for i := range 64 {
				var u uint64
				for j, w := range words {
					u |= (w >> uint(i) & 1) << uint(63-j)
				}
				if u < th {
					want |= 1 << uint(i)
				}
			}
			if got := Mask64(&scripted{vals: words}, th); got != want {
				t.Fatalf("threshold %#x: mask %#x, per-lane comparison %#x", th, got, want)
			}
		}
	}
}
