package dpexact

import (
	"errors"
	"math"
	"testing"
)

// allowedExcept is an output vocabulary of n words without the given ones.
func allowedExcept(n int, excluded ...int) []bool {
	a := make([]bool, n)
	for i := range a {
		a[i] = true
	}
	for _, i := range excluded {
		a[i] = false
	}
	return a
}

func sameLaw(t *testing.T, name string, got, want [][]float64, tol float64) {
	t.Helper()
	for w := range want {
		for y := range want[w] {
			if math.Abs(got[w][y]-want[w][y]) > tol {
				t.Fatalf("%s: P(%d|%d) = %v, want %v", name, y, w, got[w][y], want[w][y])
			}
		}
	}
}

// Hand-computed restricted laws on three words in a line (codes 00, 01, 11
// or list positions 0, 1, 2) with the middle word excluded.
func TestRestrictedClosedForm(t *testing.T) {
	const eps = 0.8
	allowed := allowedExcept(3, 1)
	// BRR: q = 1/(1+e^ε) per bit. From 00 the noisy code is 00 w.p.
	// (1−q)², 01 or 10 (each at distance 1 from both 00 and 11: a tie
	// split in half) w.p. q(1−q) each, 11 w.p. q². From 01 the law is
	// symmetric under swapping 00 and 11, hence uniform.
	q := 1 / (1 + math.Exp(eps))
	brr, err := RestrictedBRR([]uint64{0, 1, 3}, 2, eps, allowed)
	if err != nil {
		t.Fatal(err)
	}
	p00 := (1-q)*(1-q) + q*(1-q)
	sameLaw(t, "BRR", brr, [][]float64{{p00, 0, 1 - p00}, {0.5, 0, 0.5}, {1 - p00, 0, p00}}, 1e-12)
	// 1-DG: r = e^−ε. From position 1 the noisy position is 1 w.p.
	// (1−r)/(1+r), pushed to 0 by the lower-position tie rule.
	r := math.Exp(-eps)
	dg, err := RestrictedDiffractorGeometric([][]int{{0, 1, 2}}, eps, allowed)
	if err != nil {
		t.Fatal(err)
	}
	mid := (1 - r) / (1 + r)
	if want := r/(1+r) + mid; math.Abs(dg[1][0]-want) > 1e-12 || math.Abs(dg[1][2]-r/(1+r)) > 1e-12 || dg[1][1] != 0 {
		t.Errorf("1-DG from the excluded middle: %v, want [%v 0 %v]", dg[1], want, r/(1+r))
	}
	// TEM with γ = 1: from the excluded middle both allowed words are in
	// the ball at distance 1: uniform. From 0: 0 at distance 0, ⊥ = {2}.
	d, _ := ListDistances([]int{0, 1, 2})
	tem, err := RestrictedTEM(d, 1, eps, allowed)
	if err != nil {
		t.Fatal(err)
	}
	p := 1 / (1 + math.Exp(-eps/2))
	sameLaw(t, "TEM", tem, [][]float64{{p, 0, 1 - p}, {0.5, 0, 0.5}, {1 - p, 0, p}}, 1e-12)
}

// Every restricted law is a distribution that never releases an excluded
// word and that Check proves ε·d-private, with excluded inputs, excluded
// duplicates (codes12 has two equal codes) and a single allowed word; with
// every word allowed it is the unrestricted law.
func TestRestrictedLawsPass(t *testing.T) {
	hd := HammingDistances(codes12)
	d0, _ := ListDistances(pos5[0])
	d1, _ := ListDistances(pos5[1])
	dmax, _ := MaxMetric(d0, d1)
	for _, ex := range [][]int{{}, {0}, {0, 1, 2}, {1, 3, 5, 7, 9, 11}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}} {
		allowed := allowedExcept(12, ex...)
		var ex5 []int // the same exclusions among 5 words, one word kept
		for _, i := range ex {
			if i < 4 {
				ex5 = append(ex5, i)
			}
		}
		allowed5 := allowedExcept(5, ex5...)
		for _, c := range []struct {
			name string
			law  func(eps float64) ([][]float64, error)
			ref  func(eps float64) ([][]float64, error) // the unrestricted law
			d    [][]float64
			a    []bool
		}{
			{"BRR", func(eps float64) ([][]float64, error) { return RestrictedBRR(codes12, 8, eps, allowed) },
				func(eps float64) ([][]float64, error) { return BRR(codes12, 8, eps) }, hd, allowed},
			{"TEM γ=2", func(eps float64) ([][]float64, error) { return RestrictedTEM(hd, 2, eps, allowed) },
				func(eps float64) ([][]float64, error) { return TEM(hd, 2, eps) }, hd, allowed},
			{"1-DG two lists", func(eps float64) ([][]float64, error) { return RestrictedDiffractorGeometric(pos5, eps, allowed5) },
				func(eps float64) ([][]float64, error) { return DiffractorGeometric(pos5, eps) }, dmax, allowed5},
			{"1-DT two lists", func(eps float64) ([][]float64, error) { return RestrictedDiffractorTEM(pos5, 2, eps, allowed5) },
				func(eps float64) ([][]float64, error) { return DiffractorTEM(pos5, 2, eps) }, dmax, allowed5},
		} {
			for _, eps := range []float64{0.3, 1, 3} {
				P, err := c.law(eps)
				if err != nil {
					t.Fatalf("%s excluding %v ε=%v: %v", c.name, ex, eps, err)
				}
				for w := range P {
					for y, p := range P[w] {
						if !c.a[y] && p != 0 {
							t.Fatalf("%s excluding %v: P(%d|%d) = %v for an excluded word", c.name, ex, y, w, p)
						}
					}
				}
				r, err := Check(P, c.d, eps, 1e-9)
				if err != nil || !r.Holds() {
					t.Errorf("%s excluding %v ε=%v: %+v %v", c.name, ex, eps, r, err)
				}
				if len(ex) == 0 {
					ref, _ := c.ref(eps)
					sameLaw(t, c.name+" all allowed", P, ref, 1e-12)
				}
			}
		}
	}
}

// For the TEM family, re-drawing until the output is allowed has exactly
// the restricted law (on one list: re-drawing a mixture would also re-draw
// the list).
func TestRedrawIsRestrictedTEM(t *testing.T) {
	hd := HammingDistances(codes12)
	allowed := allowedExcept(12, 0, 2, 6, 7)
	for _, gamma := range []float64{0, 1, 2, 4, 8} {
		for _, eps := range []float64{0.3, 2} {
			P, _ := TEM(hd, gamma, eps)
			redraw, err := Redraw(P, allowed)
			if err != nil {
				t.Fatal(err)
			}
			R, _ := RestrictedTEM(hd, gamma, eps, allowed)
			sameLaw(t, "TEM", R, redraw, 1e-12)
		}
	}
	P, _ := DiffractorTEM(pos5[1:], 2, 0.7)
	redraw, _ := Redraw(P, allowedExcept(5, 2))
	R, _ := RestrictedDiffractorTEM(pos5[1:], 2, 0.7, allowedExcept(5, 2))
	sameLaw(t, "1-DT", R, redraw, 1e-12)
}

// The negative control: BRR and 1-DG restricted by re-drawing until the
// output is allowed violate ε·d, by up to a factor 2 in the exponent,
// where the nearest-allowed restriction holds. The 1-DG case: one list of
// four words, only the two ends allowed; inputs at positions 1 and 0 at
// ε = 2 reach ln ratio 3.876 against ε·d = 2 (tightness 1.94).
func TestRedrawControlCaught(t *testing.T) {
	const eps = 2.0
	line := []int{0, 1, 2, 3}
	d, _ := ListDistances(line)
	ends := allowedExcept(4, 1, 2)
	codes := []uint64{0, 1, 3, 7, 15, 5, 6, 2}
	hd := HammingDistances(codes)
	brrAllowed := allowedExcept(8, 1, 2, 4, 5, 6, 7) // only 0000 and 0111
	for _, c := range []struct {
		name        string
		law, redraw func() ([][]float64, error)
		d           [][]float64
		minExcess   float64
	}{
		{"1-DG", func() ([][]float64, error) { return RestrictedDiffractorGeometric([][]int{line}, eps, ends) },
			func() ([][]float64, error) {
				P, err := DiffractorGeometric([][]int{line}, eps)
				if err != nil {
					return nil, err
				}
				return Redraw(P, ends)
			}, d, 1.8},
		{"BRR", func() ([][]float64, error) { return RestrictedBRR(codes, 4, eps, brrAllowed) },
			func() ([][]float64, error) {
				P, err := BRR(codes, 4, eps)
				if err != nil {
					return nil, err
				}
				return Redraw(P, brrAllowed)
			}, hd, 1},
	} {
		P, err := c.law()
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := Check(P, c.d, eps, 1e-9); !r.Holds() {
			t.Errorf("%s: the nearest-allowed restriction fails: %+v", c.name, r)
		}
		R, err := c.redraw()
		if err != nil {
			t.Fatal(err)
		}
		r, _ := Check(R, c.d, eps, 1e-9)
		if r.Holds() || r.Excess < c.minExcess || r.Tightness > 2+1e-9 {
			t.Errorf("%s re-draw: %+v, want an excess ≥ %v and tightness ≤ 2", c.name, r, c.minExcess)
		}
		t.Logf("%s re-draw caught: ln P(%d|%d) − ln P(%d|%d) = %.4f > ε·d = %v (tightness %.3f)", c.name, r.Y, r.W, r.Y, r.W2, r.LnRatio, r.Bound, r.Tightness)
	}
}

func TestRestrictedReject(t *testing.T) {
	hd := HammingDistances(codes12)
	none := make([]bool, 12)
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"BRR nil", func() error { _, err := RestrictedBRR(codes12, 8, 1, nil); return err }},
		{"BRR short", func() error { _, err := RestrictedBRR(codes12, 8, 1, make([]bool, 3)); return err }},
		{"BRR none", func() error { _, err := RestrictedBRR(codes12, 8, 1, none); return err }},
		{"TEM nil", func() error { _, err := RestrictedTEM(hd, 1, 1, nil); return err }},
		{"TEM none", func() error { _, err := RestrictedTEM(hd, 1, 1, none); return err }},
		{"TEM ε=0", func() error { _, err := RestrictedTEM(hd, 1, 0, allowedExcept(12)); return err }},
		{"1-DG none", func() error { _, err := RestrictedDiffractorGeometric(pos5, 1, make([]bool, 5)); return err }},
		{"1-DG long", func() error { _, err := RestrictedDiffractorGeometric(pos5, 1, allowedExcept(6)); return err }},
		{"1-DG ε NaN", func() error { _, err := RestrictedDiffractorGeometric(pos5, math.NaN(), allowedExcept(5)); return err }},
		{"1-DT nil lists", func() error { _, err := RestrictedDiffractorTEM(nil, 1, 1, allowedExcept(5)); return err }},
		{"1-DT nil", func() error { _, err := RestrictedDiffractorTEM(pos5, 1, 1, nil); return err }},
		{"redraw none", func() error { _, err := Redraw(rr(1), []bool{false, false}); return err }},
		{"redraw ragged", func() error { _, err := Redraw([][]float64{{1, 0}, {1}}, []bool{true, true}); return err }},
		{"redraw NaN", func() error { _, err := Redraw([][]float64{{math.NaN(), 1}, {0, 1}}, []bool{true, true}); return err }},
		{"redraw no allowed mass", func() error { _, err := Redraw([][]float64{{1, 0}, {0, 1}}, []bool{true, false}); return err }},
	} {
		if err := c.call(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", c.name, err)
		}
	}
}
