package dpexact

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// lineThree is three words on a line at 0, 1 and 3: Δmin = 1, Δmax = 3.
var lineThree = [][]float64{{0}, {1}, {3}}

// pairWin is Pr[g₀ − g₁ > δ] for independent Gumbel(0, b) variates
// conditioned on |g| ≤ D, in closed form: with T = e^(−g/b), T is Exp(1)
// truncated to [lo, hi] = [e^(−D/b), e^(D/b)], and the event is
// T₀ < r·T₁ with r = e^(−δ/b), so
//
//	Pr = Z^−2 ∫_{lo/r}^{hi} e^(−t)·(e^(−lo) − e^(−r·t)) dt,   Z = e^(−lo) − e^(−hi).
func pairWin(delta, b, D float64) float64 {
	lo, hi := math.Exp(-D/b), math.Exp(D/b)
	r := math.Exp(-delta / b)
	a := lo / r
	z := math.Exp(-lo) - math.Exp(-hi)
	return (math.Exp(-lo)*(math.Exp(-a)-math.Exp(-hi)) - (math.Exp(-(1+r)*a)-math.Exp(-(1+r)*hi))/(1+r)) / (z * z)
}

// On three words, K ≤ 2: the law is π₀ + π₁ on the input, and with
// probability π₂ a two-candidate contest between the input and its
// nearest word, whose odds pairWin gives in closed form.
func TestTruncGumbelClosedForm(t *testing.T) {
	mu := math.Log(2)
	z := 1 + mu + mu*mu/2
	pi0, pi1, pi2 := 1/z, mu/z, mu*mu/2/z
	for _, eps := range []float64{15, 40, 1000, 1e8} {
		b, err := TruncGumbelScale(eps, 3, 1, 3)
		if err != nil {
			t.Fatal(err)
		}
		q1, q2 := pairWin(1, b, 3), pairWin(2, b, 3)
		want := [][]float64{
			{pi0 + pi1 + pi2*(1-q1), pi2 * q1, 0},
			{pi2 * q1, pi0 + pi1 + pi2*(1-q1), 0}, // 0 is nearer to 1 than 2 is
			{0, pi2 * q2, pi0 + pi1 + pi2*(1-q2)},
		}
		P, err := TruncGumbel(lineThree, eps)
		if err != nil {
			t.Fatal(err)
		}
		for w := range want {
			for y := range want[w] {
				if math.Abs(P[w][y]-want[w][y]) > 1e-13 {
					t.Errorf("ε=%v (D/b=%.3g): P(%d|%d) = %.16g, want %.16g", eps, 3/b, y, w, P[w][y], want[w][y])
				}
			}
		}
	}
}

// The scale's formula: its Lambert W against known values, and its
// boundary ε = (2(1 + ln N) + 3)/Δmin.
func TestTruncGumbelScale(t *testing.T) {
	for _, c := range []struct{ x, w float64 }{
		{1, 0.5671432904097838}, // the omega constant
		{math.E, 1},
		{2 * math.Exp(2), 2},
		{1e-300, 1e-300},
	} {
		if w := lambertW0Bisect(c.x); math.Abs(w-c.w) > 1e-15*c.w {
			t.Errorf("W(%g) = %.17g, want %.17g", c.x, w, c.w)
		}
	}
	for _, x := range []float64{1e-9, 0.3, 7, 1e5, 1e300, math.MaxFloat64} {
		w := lambertW0Bisect(x)
		if got := w + math.Log(w); math.Abs(got-math.Log(x)) > 1e-14*math.Max(1, math.Abs(math.Log(x))) {
			t.Errorf("W(%g) = %g: w + ln w = %g, ln x = %g", x, w, got, math.Log(x))
		}
	}
	edge := (2*(1+math.Log(10)) + 3) / 0.5
	if _, err := TruncGumbelScale(edge*0.999, 10, 0.5, 2); !errors.Is(err, ErrInvalid) {
		t.Errorf("just below the minimum ε: %v", err)
	}
	b, err := TruncGumbelScale(edge*1.001, 10, 0.5, 2)
	if err != nil || !(b > 0) {
		t.Errorf("just above the minimum ε: %v, %v", b, err)
	}
	// A hand calculation: ε = 12 + 2(1 + ln 3), N = 3, Δmin = 1, Δmax = 3
	// gives a = 4, ln(a·Δmin) = ln 4 < W(24), so b = 6/ln 4.
	if b, err := TruncGumbelScale(12+2*(1+math.Log(3)), 3, 1, 3); err != nil || math.Abs(b-6/math.Log(4)) > 1e-14 {
		t.Errorf("b = %v (%v), want 6/ln 4 = %v", b, err, 6/math.Log(4))
	}
	// ε = 300 + 2(1 + ln 3), Δmin = Δmax = 1: a = 100, and
	// W(200) ≈ 3.93 < ln 100 ≈ 4.61, so b = 2/W(200).
	if b, err := TruncGumbelScale(300+2*(1+math.Log(3)), 3, 1, 1); err != nil || math.Abs(b-2/lambertW0Bisect(200)) > 1e-14 || b < 0.50 || b > 0.52 {
		t.Errorf("b = %v (%v)", b, err)
	}
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name       string
		eps        float64
		n          int
		dmin, dmax float64
	}{
		{"ε 0", 0, 10, 1, 2},
		{"ε NaN", nan, 10, 1, 2},
		{"ε Inf", inf, 10, 1, 2},
		{"N 2", 100, 2, 1, 2},
		{"N negative", 100, -5, 1, 2},
		{"Δmin 0", 100, 10, 0, 2},
		{"Δmin NaN", 100, 10, nan, 2},
		{"Δmax < Δmin", 100, 10, 1, 0.5},
		{"Δmax Inf", 100, 10, 1, inf},
		{"ε 1 on a large vocabulary", 1, 50000, 0.5, 10},
	} {
		if _, err := TruncGumbelScale(c.eps, c.n, c.dmin, c.dmax); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", c.name, err)
		}
	}
}

// The published claim fails on every vocabulary: the word farthest from
// w is never among the at most N − 1 candidates, so Pr[far | w] = 0 while
// a word nearer to it releases it. Check reports an unbounded ratio
// against ε·‖·‖, and against word-level DP at any ε.
func TestTruncGumbelClaimFails(t *testing.T) {
	for _, c := range []struct {
		name string
		vs   [][]float64
		eps  float64
	}{
		{"line of three", lineThree, 15},
		{"synthetic 16×4", SyntheticVectors(16, 4, "float"), 120},
		{"synthetic 12×3", SyntheticVectors(12, 3, "tg"), 1e4},
	} {
		P, err := TruncGumbel(c.vs, c.eps)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		d, _ := EuclideanDistances(c.vs)
		for w, row := range d {
			far := 0
			for y, x := range row {
				if x > row[far] {
					far = y
				}
			}
			if P[w][far] != 0 {
				t.Errorf("%s: P(far=%d | %d) = %v, want 0", c.name, far, w, P[w][far])
			}
		}
		for _, m := range []struct {
			name string
			d    [][]float64
			eps  float64
		}{{"ε·‖·‖", d, c.eps}, {"word level, ε = 1000", discrete(len(d)), 1000}} {
			r, err := Check(P, m.d, m.eps, 1e-9)
			if err != nil || !math.IsInf(r.Excess, 1) {
				t.Errorf("%s against %s: %+v %v, want an unbounded ratio", c.name, m.name, r, err)
			}
		}
	}
}

// The quadrature has converged: 8 panels per Gumbel scale agree with 32
// to 1e-13 on every entry, from a scale near the minimum ε (D/b ≈ 0) to
// a steep one (D/b ≈ 14).
func TestTruncGumbelQuadratureConverges(t *testing.T) {
	vs := SyntheticVectors(12, 3, "tg")
	d, _ := EuclideanDistances(vs)
	dmin := math.Inf(1)
	for a := range d {
		for b := range d {
			if a != b {
				dmin = min(dmin, d[a][b])
			}
		}
	}
	minEps := (2*(1+math.Log(12)) + 3) / dmin
	for _, f := range []float64{1.01, 2, 8, 1e3, 1e12} {
		coarse, err := truncGumbel(vs, f*minEps, truncGumbelPanels)
		if err != nil {
			t.Fatal(err)
		}
		fine, err := truncGumbel(vs, f*minEps, 32)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for w := range coarse {
			for y := range coarse[w] {
				worst = max(worst, math.Abs(coarse[w][y]-fine[w][y]))
			}
		}
		if worst > 1e-13 {
			t.Errorf("ε = %g × minimum: 8 and 32 panels differ by %.3g", f, worst)
		}
	}
}

func TestTruncGumbelReject(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		vs   [][]float64
		eps  float64
	}{
		{"nil", nil, 100},
		{"two words", [][]float64{{0}, {1}}, 100},
		{"ragged", [][]float64{{0, 0}, {1}, {2, 0}}, 100},
		{"NaN entry", [][]float64{{0}, {nan}, {2}}, 100},
		{"duplicate vectors", [][]float64{{0}, {1}, {1}, {3}}, 1e6},
		{"distance overflows", [][]float64{{-1e308}, {0}, {1e308}}, 100},
		{"ε below the minimum", lineThree, 7},
		{"ε 0", lineThree, 0},
		{"ε NaN", lineThree, nan},
	} {
		if P, err := TruncGumbel(c.vs, c.eps); !errors.Is(err, ErrInvalid) || P != nil {
			t.Errorf("%s: (%v, %v), want ErrInvalid", c.name, P, err)
		}
	}
	if _, err := EuclideanDistances([][]float64{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Euclidean distances of nothing: %v", err)
	}
}

// Every entry of both float laws is a probability and every row sums to
// 1, far within Check's RowSumSlack (the truncated Gumbel law is not
// renormalized: its rows sum to 1 only if the quadrature is right).
func TestFloatLawsRowsSumToOne(t *testing.T) {
	for _, c := range []struct {
		name string
		vs   [][]float64
		eps  []float64
	}{
		{"synthetic 16×4", SyntheticVectors(16, 4, "float"), []float64{61, 120, 400, 1e6}},
		{"synthetic 20×5", SyntheticVectors(20, 5, "sum"), []float64{1e3, 1e5}},
		{"line of three, off the origin", [][]float64{{1}, {2}, {4}}, []float64{15, 1e10}},
	} {
		for _, eps := range c.eps {
			for _, law := range []struct {
				name string
				f    func([][]float64, float64) ([][]float64, error)
			}{{"SynTF", SynTF}, {"SynTFNoHalf", SynTFNoHalf}, {"TruncGumbel", TruncGumbel}} {
				P, err := law.f(c.vs, eps)
				if err != nil {
					t.Fatalf("%s %s ε=%v: %v", law.name, c.name, eps, err)
				}
				if err := rowsSumToOne(P, 1e-13); err != nil {
					t.Errorf("%s %s ε=%v: %v", law.name, c.name, eps, err)
				}
			}
		}
	}
	// The check itself can fail.
	if rowsSumToOne([][]float64{{0.5, 0.5 + 1e-12}}, 1e-13) == nil || rowsSumToOne([][]float64{{1.5, -0.5}}, 1e-13) == nil {
		t.Error("rowsSumToOne accepts a bad row")
	}
}

// rowsSumToOne reports the first entry outside [0, 1+tol] or row whose sum is
// more than tol from 1.
func rowsSumToOne(P [][]float64, tol float64) error {
	for w, row := range P {
		s := 0.0
		for y, p := range row {
			if !(p >= 0 && p <= 1+tol) {
				return fmt.Errorf("P(%d|%d) = %v", y, w, p)
			}
			s += p
		}
		if math.Abs(s-1) > tol {
			return fmt.Errorf("row %d sums to 1%+.3g", w, s-1)
		}
	}
	return nil
}

// BenchmarkFloatLaws times the two float laws on the audit's vocabulary
// (16 vectors × 4 dims) and on 40 vectors, where the truncated Gumbel
// law's O(N³·Q) cost shows.
func BenchmarkFloatLaws(b *testing.B) {
	for _, c := range []struct {
		name     string
		vs       [][]float64
		synEps   float64
		truncEps float64
	}{
		{"16x4", SyntheticVectors(16, 4, "float"), 4, 400},
		{"40x8", SyntheticVectors(40, 8, "bench"), 4, 4000},
	} {
		b.Run("SynTF/"+c.name, func(b *testing.B) {
			for range b.N {
				if _, err := SynTF(c.vs, c.synEps); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("TruncGumbel/"+c.name, func(b *testing.B) {
			for range b.N {
				if _, err := TruncGumbel(c.vs, c.truncEps); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
