package privacy

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
)

// table is a mechanism given by its exact f(w'|w) = f[w][w'].
type table struct {
	f   [][]float64
	eps float64
}

func (m table) Privatize(w int, src rand.Source) (int, error) {
	if w < 0 || w >= len(m.f) {
		return -1, mechanism.ErrWordOutOfRange
	}
	u := rand.New(src).Float64()
	for o, p := range m.f[w] {
		if u < p {
			return o, nil
		}
		u -= p
	}
	return len(m.f[w]) - 1, nil
}
func (m table) Epsilon() float64 { return m.eps }
func (m table) Metric() string   { return "table" }
func (m table) Len() int         { return len(m.f) }

// randomizedResponse keeps the word with probability p, else releases one
// of the other n−1 uniformly.
func randomizedResponse(n int, p float64) table {
	f := make([][]float64, n)
	for w := range f {
		f[w] = make([]float64, n)
		for o := range f[w] {
			f[w][o] = (1 - p) / float64(n-1)
		}
		f[w][w] = p
	}
	return table{f: f, eps: math.Log(p * float64(n-1) / (1 - p))}
}

// exact computes L_M, E_M (posterior adversary) and the MAP error from f.
func exact(f [][]float64, universe []int, prior []float64, dL func(w, w2 int) float64) (l, ePost, eMAP float64) {
	outs := len(f[0])
	for i, w := range universe {
		for o := range outs {
			l += prior[i] * f[w][o] * dL(w, o)
		}
	}
	hitPost, hitMAP := 0.0, 0.0
	for o := range outs {
		z, sq, best := 0.0, 0.0, 0.0
		for i, w := range universe {
			v := prior[i] * f[w][o]
			z += v
			sq += v * v
			best = max(best, v)
		}
		if z > 0 {
			hitPost += sq / z
		}
		hitMAP += best
	}
	return l, 1 - hitPost, 1 - hitMAP
}

func TestMeasureRandomizedResponse(t *testing.T) {
	m := randomizedResponse(3, 0.6)
	universe := []int{0, 1, 2}
	prior := []float64{0.5, 0.3, 0.2}
	// d_L: word 0 is positive, 1 negative, 2 negative.
	pol := []int{1, -1, -1}
	dL := func(w, w2 int) float64 {
		if pol[w] != pol[w2] {
			return 1
		}
		return 0
	}
	// By hand: f = 0.6 on the diagonal, 0.2 elsewhere.
	// L = 0.5·(0.2+0.2) + 0.3·0.2 + 0.2·0.2 = 0.3.
	// Output 0: v = (0.30, 0.06, 0.04); 1: (0.10, 0.18, 0.04); 2: (0.10, 0.06, 0.12).
	// MAP hits 0.30+0.18+0.12 = 0.6, E_MAP = 0.4.
	// Posterior hits 0.0952/0.4 + 0.0440/0.32 + 0.0280/0.28 = 0.475
	// → E_M = 0.525.
	wantL, wantPost, wantMAP := 0.3, 1-(0.0952/0.4+0.0440/0.32+0.0280/0.28), 0.4
	l, ep, em := exact(m.f, universe, prior, dL)
	if math.Abs(l-wantL) > 1e-12 || math.Abs(ep-wantPost) > 1e-12 || math.Abs(em-wantMAP) > 1e-12 {
		t.Fatalf("hand computation: %v %v %v vs %v %v %v", l, ep, em, wantL, wantPost, wantMAP)
	}
	draws := 40000
	if testing.Short() {
		draws = 20000
	}
	var calls atomic.Int64
	last := 0
	e, err := Measure(m, universe, prior, dL, draws, 7, func(done, total int) {
		calls.Add(1)
		if total != 3 || done != last+1 {
			t.Errorf("progress %d/%d after %d", done, total, last)
		}
		last = done
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 3 || e.Words != 3 || e.Draws != draws || e.Outputs != 9 || e.Epsilon != m.eps || e.Metric != "table" {
		t.Fatalf("%+v, %d progress calls", e, calls.Load())
	}
	if math.Abs(e.UtilityLoss-wantL) > 4*e.UtilityLossSE || e.UtilityLossSE <= 0 {
		t.Fatalf("L = %v ± %v, want %v", e.UtilityLoss, e.UtilityLossSE, wantL)
	}
	// f̂ has standard error ≤ 0.5/√draws ≈ 0.0035; E is Lipschitz in f̂
	// with a small constant, so 0.02 is many standard errors.
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"E_M", e.InferenceError, wantPost}, {"MAP", e.InferenceErrorMAP, wantMAP}, {"MAP held out", e.InferenceErrorMAPHeldOut, wantMAP}} {
		if math.Abs(c.got-c.want) > 0.02 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// Reproducible for a seed, whatever the scheduling.
	e2, err := Measure(m, universe, prior, dL, draws, 7, nil)
	if err != nil || e2.UtilityLoss != e.UtilityLoss || e2.InferenceError != e.InferenceError ||
		e2.InferenceErrorMAPHeldOut != e.InferenceErrorMAPHeldOut {
		t.Fatalf("not reproducible: %+v vs %+v (%v)", e2, e, err)
	}
	e3, _ := Measure(m, universe, prior, dL, draws, 8, nil)
	if e3.UtilityLoss == e.UtilityLoss && e3.InferenceError == e.InferenceError {
		t.Fatal("seed ignored")
	}
}

type identity struct{ n int }

func (m identity) Privatize(w int, src rand.Source) (int, error) { return w, nil }
func (m identity) Epsilon() float64                              { return math.Inf(1) }
func (m identity) Metric() string                                { return "identity" }
func (m identity) Len() int                                      { return m.n }

func flip(w, w2 int) float64 {
	if w != w2 {
		return 1
	}
	return 0
}

func TestMeasureIdentityAndUniform(t *testing.T) {
	universe := []int{4, 1, 7}
	prior := []float64{0.2, 0.5, 0.3}
	e, err := Measure(identity{10}, universe, prior, flip, 50, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.UtilityLoss != 0 || e.InferenceError != 0 || e.InferenceErrorMAP != 0 || e.InferenceErrorMAPHeldOut != 0 {
		t.Fatalf("identity: %+v", e)
	}
	// Uniform output over 4 words (one outside the universe): the posterior
	// is the prior, so E_M = 1 − Σπ² and the MAP error is 1 − max π.
	f := make([][]float64, 8)
	for w := range f {
		f[w] = []float64{0.25, 0.25, 0.25, 0.25, 0, 0, 0, 0}
	}
	uni := table{f: f, eps: 1}
	e, err = Measure(uni, []int{0, 1, 2}, []float64{0.5, 0.3, 0.2}, flip, 20000, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(e.InferenceError-(1-0.38)) > 0.02 || math.Abs(e.InferenceErrorMAP-0.5) > 0.02 ||
		math.Abs(e.InferenceErrorMAPHeldOut-0.5) > 0.02 {
		t.Fatalf("uniform: %+v", e)
	}
	if want := 0.5*0.75 + 0.3*0.75 + 0.2*0.75; math.Abs(e.UtilityLoss-want) > 4*e.UtilityLossSE {
		t.Fatalf("uniform L %v ± %v, want %v", e.UtilityLoss, e.UtilityLossSE, want)
	}
}

// With few draws over many outputs, every output seen looks identifying:
// the in-sample estimates collapse towards 0 while the held-out MAP error
// stays near the truth (the documented bracket).
func TestMeasureFewDrawsBias(t *testing.T) {
	n := 5000
	f := make([][]float64, n)
	row := make([]float64, n)
	for o := range row {
		row[o] = 1 / float64(n)
	}
	for w := range f {
		f[w] = row
	}
	e, err := Measure(table{f: f, eps: 1}, []int{0, 1, 2}, []float64{0.5, 0.3, 0.2}, flip, 10, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.InferenceErrorMAP > 0.1 || e.InferenceError > 0.1 || math.Abs(e.InferenceErrorMAPHeldOut-0.5) > 0.1 {
		t.Fatalf("%+v", e)
	}
	if !(e.InferenceErrorMAP <= 0.5 && 0.5 <= e.InferenceErrorMAPHeldOut+0.05) {
		t.Fatalf("no bracket: %+v", e)
	}
	one, err := Measure(table{f: f, eps: 1}, []int{0}, []float64{1}, flip, 1, 3, nil)
	if err != nil || !math.IsNaN(one.InferenceErrorMAPHeldOut) || one.InferenceError != 0 {
		t.Fatalf("draws=1: %+v %v", one, err)
	}
}

type failing struct{ identity }

func (m failing) Privatize(w int, src rand.Source) (int, error) {
	if w == 2 {
		return -1, errors.New("boom")
	}
	return w, nil
}

func TestMeasureErrors(t *testing.T) {
	m := identity{5}
	ok := []float64{0.5, 0.5}
	for _, c := range []struct {
		name  string
		m     mechanism.Mechanism
		u     []int
		p     []float64
		dL    func(w, w2 int) float64
		draws int
	}{
		{"nil mechanism", nil, []int{0, 1}, ok, flip, 1},
		{"empty universe", m, nil, nil, flip, 1},
		{"prior length", m, []int{0, 1}, []float64{1}, flip, 1},
		{"prior sum", m, []int{0, 1}, []float64{0.5, 0.5 + 1e-8}, flip, 1},
		{"negative prior", m, []int{0, 1}, []float64{1.5, -0.5}, flip, 1},
		{"NaN prior", m, []int{0, 1}, []float64{math.NaN(), 1}, flip, 1},
		{"draws", m, []int{0, 1}, ok, flip, 0},
		{"id too large", m, []int{0, 5}, ok, flip, 1},
		{"negative id", m, []int{-1, 0}, ok, flip, 1},
		{"duplicate id", m, []int{1, 1}, ok, flip, 1},
		{"nil dL", m, []int{0, 1}, ok, nil, 1},
	} {
		if _, err := Measure(c.m, c.u, c.p, c.dL, c.draws, 0, nil); !errors.Is(err, ErrBadMeasure) {
			t.Errorf("%s: err %v", c.name, err)
		}
	}
	if _, err := Measure(m, []int{0, 1}, []float64{0.5, 0.5 + 1e-10}, flip, 1, 0, nil); err != nil {
		t.Errorf("sum within 1e-9 rejected: %v", err)
	}
	if _, err := Measure(failing{m}, []int{0, 1, 2, 3}, []float64{0.25, 0.25, 0.25, 0.25}, flip, 3, 0, nil); err == nil {
		t.Error("Privatize error not returned")
	}
}

func TestSentimentFlip(t *testing.T) {
	words := []string{"good", "bad", "table", "great", "awful"}
	d := SentimentFlip(map[string]int{"good": 3, "bad": -3, "great": 3, "awful": -3, "zero": 0}, words)
	for _, c := range []struct {
		w, w2 int
		want  float64
	}{{0, 3, 0}, {0, 1, 1}, {1, 4, 0}, {0, 2, 1}, {2, 1, 1}, {2, 2, 0}, {2, 99, 0}, {0, -1, 1}} {
		if got := d(c.w, c.w2); got != c.want {
			t.Errorf("d(%d, %d) = %v, want %v", c.w, c.w2, got, c.want)
		}
	}
}

func TestSelect(t *testing.T) {
	cs := []Empirical{
		{Epsilon: 1, UtilityLoss: 0.5, InferenceError: 0.9},
		{Epsilon: 2, UtilityLoss: 0.2, InferenceError: 0.6},
		{Epsilon: 4, UtilityLoss: 0.1, InferenceError: 0.6},
		{Epsilon: 8, UtilityLoss: 0.05, InferenceError: 0.3},
		{Epsilon: 3, UtilityLoss: 0.3, InferenceError: 0.7},
	}
	if got, ok := Select(cs, 0.3); !ok || got.Epsilon != 2 {
		t.Fatalf("C=0.3 (strict): %+v %v", got, ok)
	}
	if got, ok := Select(cs, 0.31); !ok || got.Epsilon != 3 {
		t.Fatalf("C=0.31: %+v %v", got, ok)
	}
	if got, ok := Select(cs, 1); !ok || got.Epsilon != 1 {
		t.Fatalf("C=1: %+v %v", got, ok)
	}
	if _, ok := Select(cs, 0.05); ok {
		t.Fatal("C=0.05: nothing is feasible")
	}
	if _, ok := Select(nil, 1); ok {
		t.Fatal("empty")
	}
}

func TestAlgorithm2(t *testing.T) {
	// L falls with ε (as the paper assumes) and grows with t; E peaks at t = 0.5.
	measure := func(eps, t float64) (Empirical, error) {
		return Empirical{Epsilon: eps, UtilityLoss: 1/eps + 0.1*t, InferenceError: 1/eps + 0.2 - math.Abs(t-0.5)}, nil
	}
	best, tried, err := Algorithm2(0.5, VickreyTs(), 0.3, 20, measure)
	if err != nil {
		t.Fatal(err)
	}
	// ε: 0.5, 1, 2, 4 (L = 0.25 < 0.3); then t with 0.25 + 0.1t < 0.3: t < 0.5.
	if best.Epsilon != 4 || math.Abs(best.Params["t"]-0.45) > 1e-12 {
		t.Fatalf("best %+v", best)
	}
	if len(tried) != 4+20 {
		t.Fatalf("%d points", len(tried))
	}
	// Infeasible: L never below C.
	if _, _, err := Algorithm2(1, VickreyTs(), 0, 3, measure); !errors.Is(err, ErrInfeasible) {
		t.Fatalf("err %v", err)
	}
	// No t improves on t = 0.
	flat := func(eps, t float64) (Empirical, error) {
		return Empirical{Epsilon: eps, UtilityLoss: 0.1, InferenceError: 0.5 - t}, nil
	}
	if best, _, _ := Algorithm2(1, VickreyTs(), 0.3, 3, flat); best.Params["t"] != 0 {
		t.Fatalf("%+v", best)
	}
	if _, _, err := Algorithm2(0, nil, 1, 1, measure); err == nil {
		t.Fatal("eps0 = 0 accepted")
	}
	boom := func(eps, t float64) (Empirical, error) { return Empirical{}, errors.New("boom") }
	if _, _, err := Algorithm2(1, nil, 1, 1, boom); err == nil {
		t.Fatal("measure error lost")
	}
}
