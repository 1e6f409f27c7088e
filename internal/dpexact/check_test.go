package dpexact

import (
	"errors"
	"math"
	"testing"
)

// two is the metric of two words at distance 1.
var two = [][]float64{{0, 1}, {1, 0}}

// rr is binary randomized response at ε, exactly tight for d = 1.
func rr(eps float64) [][]float64 {
	p := math.Exp(eps) / (1 + math.Exp(eps))
	return [][]float64{{p, 1 - p}, {1 - p, p}}
}

func TestCheck(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name      string
		P, d      [][]float64
		eps       float64
		holds     bool
		excess    float64 // checked when finite or +Inf; NaN = not checked
		w, w2, y  int     // checked when w ≥ 0
		tightness float64 // NaN = not checked
	}{
		{"RR tight", rr(0.7), two, 0.7, true, 0, -1, -1, -1, 1},
		{"RR at 0.9ε", rr(0.7), two, 0.63, false, 0.07, -1, -1, -1, 0.7 / 0.63},
		{"impossible output", [][]float64{{1, 0}, {0.5, 0.5}}, two, 5, false, inf, 1, 0, 1, inf},
		{"unconstrained pair", [][]float64{{1, 0}, {0, 1}}, [][]float64{{0, inf}, {inf, 0}}, 1, true, 0, -1, -1, -1, 0},
		{"unconstrained at ε=0", [][]float64{{1, 0}, {0, 1}}, [][]float64{{0, inf}, {inf, 0}}, 0, true, 0, -1, -1, -1, 0},
		{"ε=0 uniform", [][]float64{{0.5, 0.5}, {0.5, 0.5}}, two, 0, true, 0, -1, -1, -1, math.NaN()},
		{"ε=0 not uniform", rr(0.1), two, 0, false, 0.1, -1, -1, -1, math.NaN()},
		{"empty", nil, nil, 1, true, math.Inf(-1), -1, -1, -1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Check(c.P, c.d, c.eps, 1e-9)
			if err != nil {
				t.Fatal(err)
			}
			if r.Holds() != c.holds {
				t.Errorf("Holds = %v, want %v (%+v)", r.Holds(), c.holds, r)
			}
			if !math.IsNaN(c.excess) && !(r.Excess == c.excess || math.Abs(r.Excess-c.excess) < 1e-12) {
				t.Errorf("Excess = %v, want %v", r.Excess, c.excess)
			}
			if c.w >= 0 && (r.W != c.w || r.W2 != c.w2 || r.Y != c.y) {
				t.Errorf("worst at (%d, %d, %d), want (%d, %d, %d)", r.W, r.W2, r.Y, c.w, c.w2, c.y)
			}
			if !math.IsNaN(c.tightness) && !(r.Tightness == c.tightness || math.Abs(r.Tightness-c.tightness) < 1e-9) {
				t.Errorf("Tightness = %v, want %v", r.Tightness, c.tightness)
			}
		})
	}
}

// The tolerance is a real argument: the same excess passes or fails
// depending on it.
func TestCheckTolerance(t *testing.T) {
	for _, c := range []struct {
		tol   float64
		holds bool
	}{{0, false}, {0.06, false}, {0.08, true}} {
		r, err := Check(rr(0.7), two, 0.63, c.tol)
		if err != nil || r.Holds() != c.holds {
			t.Errorf("tol %v: holds=%v err=%v, want %v", c.tol, r.Holds(), err, c.holds)
		}
	}
}

func TestCheckRejects(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name     string
		P, d     [][]float64
		eps, tol float64
		want     error
	}{
		{"row short", [][]float64{{1}, {0.5, 0.5}}, two, 1, 0, ErrNotDistribution},
		{"row sum", [][]float64{{0.5, 0.4}, {0.5, 0.5}}, two, 1, 0, ErrNotDistribution},
		{"negative", [][]float64{{1.5, -0.5}, {0.5, 0.5}}, two, 1, 0, ErrNotDistribution},
		{"NaN entry", [][]float64{{nan, 1}, {0.5, 0.5}}, two, 1, 0, ErrNotDistribution},
		{"Inf entry", [][]float64{{math.Inf(1), 1}, {0.5, 0.5}}, two, 1, 0, ErrNotDistribution},
		{"metric size", rr(1), [][]float64{{0}}, 1, 0, ErrInvalid},
		{"metric ragged", rr(1), [][]float64{{0, 1}, {1}}, 1, 0, ErrInvalid},
		{"metric NaN", rr(1), [][]float64{{0, nan}, {1, 0}}, 1, 0, ErrInvalid},
		{"metric negative", rr(1), [][]float64{{0, -1}, {1, 0}}, 1, 0, ErrInvalid},
		{"metric diagonal", rr(1), [][]float64{{1, 1}, {1, 0}}, 1, 0, ErrInvalid},
		{"nil metric", rr(1), nil, 1, 0, ErrInvalid},
		{"ε NaN", rr(1), two, nan, 0, ErrInvalid},
		{"ε negative", rr(1), two, -1, 0, ErrInvalid},
		{"ε Inf", rr(1), two, math.Inf(1), 0, ErrInvalid},
		{"tol negative", rr(1), two, 1, -1, ErrInvalid},
		{"tol NaN", rr(1), two, 1, nan, ErrInvalid},
	} {
		if _, err := Check(c.P, c.d, c.eps, c.tol); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
}

func BenchmarkCheck(b *testing.B) {
	pos := make([]int, 48)
	for i := range pos {
		pos[i] = (i * 7) % 48
	}
	d, err := ListDistances(pos)
	if err != nil {
		b.Fatal(err)
	}
	P, err := TEM(d, 5, 0.5)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Check(P, d, 0.5, 1e-9); err != nil {
			b.Fatal(err)
		}
	}
}
