package dpexact

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Small fixtures: codes with a duplicate and a tight cluster (so that
// ties and varied ball sizes occur), and two lists.
var (
	codes12 = []uint64{0x2d, 0x2d, 0x2c, 0x2f, 0x29, 0x25, 0xb3, 0x1e, 0xf0, 0x47, 0x9a, 0x63}
	pos5    = [][]int{{0, 1, 2, 3, 4}, {3, 0, 4, 1, 2}}
)

// Hand-computed laws on two words at distance 1 (one bit, or adjacent
// list positions): each is randomized response with a known p = P(w|w).
func TestLawsClosedForm(t *testing.T) {
	const eps = 0.8
	e := math.Exp(eps)
	r := math.Exp(-eps)
	for _, c := range []struct {
		name string
		law  func() ([][]float64, error)
		p    float64
	}{
		{"BRR one bit", func() ([][]float64, error) { return BRR([]uint64{0, 1}, 1, eps) }, e / (1 + e)},
		{"BRR ties split", func() ([][]float64, error) { return BRR([]uint64{1, 1}, 1, eps) }, 0.5},
		{"TEM γ=1", func() ([][]float64, error) { return TEM(two, 1, eps) }, 1 / (1 + math.Exp(-eps/2))},
		{"TEM γ=0 (⊥ only)", func() ([][]float64, error) { return TEM(two, 0, eps) }, 1 / (1 + math.Exp(0))},
		{"TEM γ=0.5 ⊥ weight", func() ([][]float64, error) { return TEM(two, 0.5, eps) }, 1 / (1 + math.Exp(-eps*0.5/2))},
		{"1-DG", func() ([][]float64, error) { return DiffractorGeometric([][]int{{0, 1}}, eps) }, 1 / (1 + r)},
		{"1-DG two lists", func() ([][]float64, error) { return DiffractorGeometric([][]int{{0, 1}, {1, 0}}, eps) }, 1 / (1 + r)},
		{"1-DT", func() ([][]float64, error) { return DiffractorTEM([][]int{{1, 0}}, 1, eps) }, 1 / (1 + math.Exp(-eps/2))},
	} {
		P, err := c.law()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := [][]float64{{c.p, 1 - c.p}, {1 - c.p, c.p}}
		for w := range want {
			for y := range want[w] {
				if math.Abs(P[w][y]-want[w][y]) > 1e-12 {
					t.Errorf("%s: P(%d|%d) = %v, want %v", c.name, y, w, P[w][y], want[w][y])
				}
			}
		}
	}
}

// Every law is a distribution that Check proves ε·d-private, and uses the
// guarantee: randomized response and the geometric attain it (tightness
// 1), the exponential mechanisms reach at least half of it (the ratio of
// numerators alone is e^(ε·d/2)).
func TestLawsPassAndAreTight(t *testing.T) {
	hd := HammingDistances(codes12)
	d0, _ := ListDistances(pos5[0])
	d1, _ := ListDistances(pos5[1])
	dmax, err := MaxMetric(d0, d1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		law   func(eps float64) ([][]float64, error)
		d     [][]float64
		tight float64
	}{
		{"BRR", func(eps float64) ([][]float64, error) { return BRR(codes12, 8, eps) }, hd, 1},
		{"BRR lowest-index ties", func(eps float64) ([][]float64, error) { return BRRLowestIndexTies(codes12, 8, eps) }, hd, 0.5},
		{"TEM γ=1", func(eps float64) ([][]float64, error) { return TEM(hd, 1, eps) }, hd, 0.5},
		{"TEM γ=2", func(eps float64) ([][]float64, error) { return TEM(hd, 2, eps) }, hd, 0.5},
		{"TEM γ=4", func(eps float64) ([][]float64, error) { return TEM(hd, 4, eps) }, hd, 0.5},
		{"1-DG one list", func(eps float64) ([][]float64, error) { return DiffractorGeometric(pos5[:1], eps) }, d0, 1},
		{"1-DG two lists", func(eps float64) ([][]float64, error) { return DiffractorGeometric(pos5, eps) }, dmax, 0.5},
		{"1-DT two lists", func(eps float64) ([][]float64, error) { return DiffractorTEM(pos5, 2, eps) }, dmax, 0.45},
	} {
		for _, eps := range []float64{0.3, 1, 3} {
			P, err := c.law(eps)
			if err != nil {
				t.Fatalf("%s ε=%v: %v", c.name, eps, err)
			}
			r, err := Check(P, c.d, eps, 1e-9)
			if err != nil || !r.Holds() {
				t.Errorf("%s ε=%v: %+v %v", c.name, eps, r, err)
			}
			if r.Tightness < c.tight-1e-9 {
				t.Errorf("%s ε=%v: tightness %v < %v", c.name, eps, r.Tightness, c.tight)
			}
		}
	}
}

// Negative controls: each known-bad law is refuted by Check, on inputs
// where the correct law passes (TEM γ=2 and γ=4 in TestLawsPassAndAreTight).
func TestControlsFail(t *testing.T) {
	hd := HammingDistances(codes12)
	const eps = 0.5
	tem, err := TEM(hd, 4, eps)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		law  func() ([][]float64, error)
		inf  bool // the worst ratio is unbounded
	}{
		{"input exclusion", func() ([][]float64, error) { return ExcludeInput(tem) }, true},
		{"input exclusion, deterministic", func() ([][]float64, error) { return ExcludeInput([][]float64{{1, 0}, {0, 1}}) }, true},
		{"⊥ score ln(N/|L_w|)", func() ([][]float64, error) { return TEMBottomScoreBug(hd, 2, eps) }, false},
		{"top-1 list", func() ([][]float64, error) { return TEMTopK(hd, 1, 4, eps) }, false},
		{"top-3 list", func() ([][]float64, error) { return TEMTopK(hd, 3, 4, eps) }, false},
	} {
		P, err := c.law()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		d := hd
		if len(P) == 2 {
			d = two
		}
		r, err := Check(P, d, eps, 1e-9)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Holds() || math.IsInf(r.Excess, 1) != c.inf {
			t.Errorf("%s not caught as expected: %+v", c.name, r)
		}
	}
	// The lowest-index tie-break moves mass to the lower of two equal codes.
	P, err := BRRLowestIndexTies([]uint64{1, 1}, 1, eps)
	if err != nil || P[1][0] != 1 || P[1][1] != 0 {
		t.Errorf("lowest-index ties: %v %v", P, err)
	}
	// TEMTopK with k = N has no ⊥ and no bug: it is TEM with γ ≥ every distance.
	all, err := TEMTopK(hd, len(hd), 8, eps)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := TEM(hd, 8, eps) // 8 bits: every word in every ball
	for w := range ref {
		for y := range ref {
			if math.Abs(all[w][y]-ref[w][y]) > 1e-15 {
				t.Fatalf("top-N ≠ TEM at (%d, %d)", w, y)
			}
		}
	}
}

func TestLawsReject(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"BRR nil", func() error { _, err := BRR(nil, 4, 1); return err }},
		{"BRR L=0", func() error { _, err := BRR(codes12, 0, 1); return err }},
		{"BRR L too long", func() error { _, err := BRR(codes12, MaxBRRBits+1, 1); return err }},
		{"BRR wide code", func() error { _, err := BRR([]uint64{1 << 9}, 8, 1); return err }},
		{"BRR ε=0", func() error { _, err := BRR(codes12, 8, 0); return err }},
		{"BRR ε NaN", func() error { _, err := BRRLowestIndexTies(codes12, 8, nan); return err }},
		{"TEM nil", func() error { _, err := TEM(nil, 1, 1); return err }},
		{"TEM ragged", func() error { _, err := TEM([][]float64{{0, 1}, {0}}, 1, 1); return err }},
		{"TEM diagonal", func() error { _, err := TEM([][]float64{{1}}, 1, 1); return err }},
		{"TEM γ<0", func() error { _, err := TEM(two, -1, 1); return err }},
		{"TEM γ Inf", func() error { _, err := TEM(two, inf, 1); return err }},
		{"TEM ε Inf", func() error { _, err := TEM(two, 1, inf); return err }},
		{"TEM bug ε<0", func() error { _, err := TEMBottomScoreBug(two, 1, -1); return err }},
		{"top-k k=0", func() error { _, err := TEMTopK(two, 0, 1, 1); return err }},
		{"top-k k>N", func() error { _, err := TEMTopK(two, 3, 1, 1); return err }},
		{"top-k nil", func() error { _, err := TEMTopK(nil, 1, 1, 1); return err }},
		{"1-DG nil", func() error { _, err := DiffractorGeometric(nil, 1); return err }},
		{"1-DG empty list", func() error { _, err := DiffractorGeometric([][]int{{}}, 1); return err }},
		{"1-DG repeat", func() error { _, err := DiffractorGeometric([][]int{{0, 0}}, 1); return err }},
		{"1-DG out of range", func() error { _, err := DiffractorGeometric([][]int{{0, 2}}, 1); return err }},
		{"1-DG sizes differ", func() error { _, err := DiffractorGeometric([][]int{{0, 1}, {0}}, 1); return err }},
		{"1-DG ε=0", func() error { _, err := DiffractorGeometric([][]int{{0, 1}}, 0); return err }},
		{"1-DT negative position", func() error { _, err := DiffractorTEM([][]int{{-1, 0}}, 1, 1); return err }},
		{"1-DT γ NaN", func() error { _, err := DiffractorTEM([][]int{{1, 0}}, nan, 1); return err }},
		{"list distances", func() error { _, err := ListDistances([]int{1, 1}); return err }},
		{"mixture none", func() error { _, err := Mixture(); return err }},
		{"mixture sizes", func() error { _, err := Mixture(rr(1), [][]float64{{1}}); return err }},
		{"mixture ragged", func() error { _, err := Mixture([][]float64{{1, 0}, {1}}); return err }},
		{"max metric none", func() error { _, err := MaxMetric(); return err }},
		{"max metric NaN", func() error { _, err := MaxMetric([][]float64{{0, nan}, {1, 0}}); return err }},
		{"exclude one word", func() error { _, err := ExcludeInput([][]float64{{1}}); return err }},
		{"exclude NaN", func() error { _, err := ExcludeInput([][]float64{{nan, 1}, {0, 1}}); return err }},
		{"exclude ragged", func() error { _, err := ExcludeInput([][]float64{{1, 0}, {1}}); return err }},
	} {
		if err := c.call(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", c.name, err)
		}
	}
	if d := Distances(-3, nil); len(d) != 0 {
		t.Errorf("Distances(-3) = %v", d)
	}
}

// FuzzLaws: for any small list and code set, every law is a distribution
// that Check proves private at its ε (where no probability underflows),
// and nothing panics.
func FuzzLaws(f *testing.F) {
	f.Add([]byte{3, 1, 2, 0, 7, 5}, uint8(4), 0.5, 2.0)
	f.Add([]byte{0}, uint8(1), 3.0, 0.0)
	f.Add([]byte{9, 9, 9, 9}, uint8(20), 1e-9, 1e9)
	f.Fuzz(func(t *testing.T, data []byte, L uint8, eps, gamma float64) {
		if len(data) > 12 {
			data = data[:12] // keeps the O(N³) check and the 2^L masks small
		}
		L = L%6 + 1
		n := len(data)
		codes := make([]uint64, n)
		pos := make([]int, n)
		for i, b := range data {
			codes[i] = uint64(b) & (1<<L - 1)
			pos[i] = i
		}
		for i := n - 1; i > 0; i-- { // a permutation driven by the data
			j := int(data[i]) % (i + 1)
			pos[i], pos[j] = pos[j], pos[i]
		}
		hd := HammingDistances(codes)
		ld, errL := ListDistances(pos)
		allowed := make([]bool, n) // every other word, and the last: never empty
		for i := range allowed {
			allowed[i] = data[i]&0x80 == 0 || i == n-1
		}
		valid := n > 0 && eps > 0 && !math.IsInf(eps, 0) && gamma >= 0 && !math.IsInf(gamma, 0)
		for _, c := range []struct {
			name string
			d    [][]float64
			law  func() ([][]float64, error)
		}{
			{"BRR", hd, func() ([][]float64, error) { return BRR(codes, int(L), eps) }},
			{"TEM", hd, func() ([][]float64, error) { return TEM(hd, gamma, eps) }},
			{"1-DG", ld, func() ([][]float64, error) { return DiffractorGeometric([][]int{pos}, eps) }},
			{"1-DT", ld, func() ([][]float64, error) { return DiffractorTEM([][]int{pos}, gamma, eps) }},
			{"BRR restricted", hd, func() ([][]float64, error) { return RestrictedBRR(codes, int(L), eps, allowed) }},
			{"TEM restricted", hd, func() ([][]float64, error) { return RestrictedTEM(hd, gamma, eps, allowed) }},
			{"1-DG restricted", ld, func() ([][]float64, error) { return RestrictedDiffractorGeometric([][]int{pos}, eps, allowed) }},
			{"1-DT restricted", ld, func() ([][]float64, error) { return RestrictedDiffractorTEM([][]int{pos}, gamma, eps, allowed) }},
		} {
			P, err := c.law()
			if err != nil {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("%s: unexpected error %v", c.name, err)
				}
				if valid && (!strings.HasPrefix(c.name, "BRR") || checkEps(eps) == nil) && errL == nil {
					t.Fatalf("%s rejected valid input: %v", c.name, err)
				}
				continue
			}
			if eps*math.Max(gamma, 12) > 600 {
				continue // probabilities as small as e^−600 may underflow (see the package doc)
			}
			r, err := Check(P, c.d, eps, 1e-9)
			// ln of probabilities near e^−600 rounds: allow a relative slack.
			if err != nil || (!r.Holds() && r.Excess > 1e-9*math.Max(1, eps*12)) {
				t.Fatalf("%s ε=%v γ=%v: %+v %v\nP=%v", c.name, eps, gamma, r, err, P)
			}
		}
	})
}
