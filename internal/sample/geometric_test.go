package sample

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/stattest"
)

// signedLaw is SignedGeometric's documented law on −bound..bound, from its
// closed form alone: Pr[k] = (1−r)/(1+r)·r^|k| inside, r^bound/(1+r) at
// each end (all of it at 0 for bound 0).
func signedLaw(eps float64, bound int) []float64 {
	p := make([]float64, 2*bound+1)
	if bound == 0 {
		p[0] = 1
		return p
	}
	r := math.Exp(-eps)
	inner := -math.Expm1(-eps) / (1 + r) // (1−r)/(1+r) without cancellation
	for k := -bound + 1; k < bound; k++ {
		p[k+bound] = inner * math.Exp(-eps*math.Abs(float64(k)))
	}
	p[0] = math.Exp(-eps*float64(bound)) / (1 + r)
	p[2*bound] = p[0]
	return p
}

// TestSignedGeometricLaw: the drawn values follow the closed form, tails
// pooled at ±bound, at tiny, moderate and huge ε and at small and large
// bounds. The tiny cases are where a difference of two draws capped at
// 2^52 returned exactly 0 every time. Negative controls: draws at 1.1·ε
// (1.5·ε for bound 1, whose two cells carry less information) against
// the law of ε must be rejected at the same size.
func TestSignedGeometricLaw(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("signed-geometric"))
	for _, c := range []struct {
		name  string
		eps   float64
		bound int
		draws int
	}{
		{"moderate ε=1", 1, 40, 40000},
		{"ε=0.1, tails pooled at ±30", 0.1, 30, 40000},
		{"cap: ε=0.3, bound 3", 0.3, 3, 40000},
		{"bound 1", 0.5, 1, 20000},
		{"bound 0", 0.5, 0, 100},
		{"tiny ε=1e-3, bound 2000", 1e-3, 2000, 100000},
		{"huge ε=8", 8, 10, 200000},
		{"control: drawn at 1.1·ε=1.1, law of ε=1", 1, 40, 40000},
		{"control: drawn at 1.1·ε=0.11, law of ε=0.1", 0.1, 30, 40000},
		{"control: drawn at 1.5·ε=0.75, law of ε=0.5, bound 1", 0.5, 1, 20000},
	} {
		t.Run(c.name, func(t *testing.T) {
			control := strings.HasPrefix(c.name, "control")
			drawEps := c.eps
			if control {
				drawEps *= 1.1
				if c.bound == 1 {
					drawEps = c.eps * 1.5
				}
			}
			g, err := NewSignedGeometric(drawEps, c.bound)
			if err != nil {
				t.Fatal(err)
			}
			counts := make([]int, 2*c.bound+1)
			for range c.draws {
				k := g.Draw(src)
				if k < -c.bound || k > c.bound {
					t.Fatalf("draw %d outside ±%d", k, c.bound)
				}
				counts[k+c.bound]++
			}
			fit(t, c.name, control, counts, signedLaw(c.eps, c.bound))
		})
	}
}

// TestSignedGeometricTinyEpsilon: at ε far below 2^-52 per unit the law
// is almost all at ±bound; the sampler draws it with the right shares of
// 0, interior and ends. Grouped cells (0, 1..bound−1, bound, and their
// negatives) keep the expected counts testable. Negative control: the
// difference of two geometric draws capped at 2^52 (the old sampler)
// gives 0 every time here, which this test rejects.
func TestSignedGeometricTinyEpsilon(t *testing.T) {
	src := rand.NewChaCha8(stattest.Seed("signed-geometric-tiny"))
	const bound, draws = 1 << 24, 100000
	for _, eps := range []float64{1e-7, 1e-11, 1e-17, 5e-324} {
		r := math.Exp(-eps)
		rb := math.Exp(-eps * bound)
		// Pr[0] = (1−r)/(1+r), Pr[1..bound−1] = (r − r^bound)/(1+r) on each side.
		inner := (r - rb) / (1 + r)
		p := []float64{inner, -math.Expm1(-eps) / (1 + r), inner, rb / (1 + r), rb / (1 + r)}
		law := func(k int) int { // cell of k: −inner, 0, +inner, −end, +end
			switch {
			case k == 0:
				return 1
			case k == bound:
				return 4
			case k == -bound:
				return 3
			case k > 0:
				return 2
			}
			return 0
		}
		g, err := NewSignedGeometric(eps, bound)
		if err != nil {
			t.Fatal(err)
		}
		check := func(name string, draw func() int, wantFail bool) {
			counts := make([]int, 5)
			for range draws {
				counts[law(draw())]++
			}
			stat, df, pv := stattest.ChiSquare(counts, p)
			if failed := pv < stattest.FalseFailureRate; failed != wantFail {
				t.Errorf("ε=%g %s: counts %v, chi2=%.1f df=%d p=%.3g, want failure %v", eps, name, counts, stat, df, pv, wantFail)
			}
		}
		check("SignedGeometric", func() int { return g.Draw(src) }, false)
		// The old sampler, clamped to ±bound as 1-DG clamps it.
		capped := func() int {
			k := math.Floor(exponential(src) / eps)
			return int(min(k, 1<<52))
		}
		if eps*(1<<52) < 1 { // where both capped draws saturate
			check("control: difference of capped draws", func() int {
				//lint:ignore SA4000 two calls, two independent draws
				return min(max(capped()-capped(), -bound), bound)
			}, true)
		}
	}
}

// TestSignedGeometricNotAbsorbed: at the smallest ε a mechanism accepts
// (about 0.001/2^25 per unit on the largest vocabulary) every digit's
// probability is still below 1/2 and the zero decision's is ε/2 to float
// precision: nothing is rounded to the law of ε = 0.
func TestSignedGeometricNotAbsorbed(t *testing.T) {
	eps := 1e-3 / (1 << 25)
	g, err := NewSignedGeometric(eps, 1<<25)
	if err != nil {
		t.Fatal(err)
	}
	for j, d := range g.digit {
		want := 1 / (1 + math.Exp(math.Ldexp(eps, j)))
		if got := prob(d); !(got < 0.5) || math.Abs(got-want) > 0x1p-45*want {
			t.Errorf("digit %d: probability %v, want %v < 1/2", j, got, want)
		}
	}
	if got, want := prob(g.zero), math.Tanh(eps/2); math.Abs(got-want) > 0x1p-45*want {
		t.Errorf("zero decision: probability %v, want tanh(ε/2) = %v", got, want)
	}
}

// prob is the probability a LogBernoulli decides with.
func prob(d LogBernoulli) float64 {
	if d.sure {
		return 1
	}
	return math.Ldexp(float64(d.thresh), -64-16*int(d.chunks))
}

func TestSignedGeometricParams(t *testing.T) {
	// One past the largest bound, computed at run time: where int has 32
	// bits it wraps to a negative bound, refused as well.
	over := MaxGeometricBound
	over++
	for _, c := range []struct {
		eps   float64
		bound int
	}{{0, 1}, {-1, 1}, {math.NaN(), 1}, {math.Inf(1), 1}, {1, -1}, {1, over}} {
		if _, err := NewSignedGeometric(c.eps, c.bound); !errors.Is(err, errGeometricParams) {
			t.Errorf("NewSignedGeometric(%v, %d): %v", c.eps, c.bound, err)
		}
	}
	if _, err := NewSignedGeometric(5e-324, MaxGeometricBound); err != nil {
		t.Errorf("the smallest ε and the largest bound: %v", err)
	}
}
