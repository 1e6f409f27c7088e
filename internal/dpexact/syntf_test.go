package dpexact

import (
	"errors"
	"math"
	"testing"
)

// halfChord is ½‖v̂_a − v̂_b‖: SynTF is ε·halfChord metric-DP.
func halfChord(t *testing.T, vs [][]float64) [][]float64 {
	t.Helper()
	ch, err := ChordDistances(vs)
	if err != nil {
		t.Fatal(err)
	}
	return Distances(len(ch), func(a, b int) float64 { return ch[a][b] / 2 })
}

// Hand-computed laws: the softmax of ε/4 times the cosines.
func TestSynTFClosedForm(t *testing.T) {
	const eps = 1.2
	e := func(c float64) float64 { return math.Exp(eps / 4 * c) }
	for _, c := range []struct {
		name string
		vs   [][]float64
		want [][]float64
	}{
		{"antipodal", [][]float64{{1, 0}, {-3, 0}},
			[][]float64{{e(1) / (e(1) + e(-1)), e(-1) / (e(1) + e(-1))}, {e(-1) / (e(1) + e(-1)), e(1) / (e(1) + e(-1))}}},
		{"orthogonal, norms ignored", [][]float64{{2, 0, 0}, {0, 0.5, 0}, {0, 0, 7}},
			[][]float64{{e(1), e(0), e(0)}, {e(0), e(1), e(0)}, {e(0), e(0), e(1)}}},
		{"same direction", [][]float64{{1, 1}, {2, 2}}, [][]float64{{0.5, 0.5}, {0.5, 0.5}}},
		{"one word", [][]float64{{-4}}, [][]float64{{1}}},
	} {
		P, err := SynTF(c.vs, eps)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for w, row := range c.want {
			z := 0.0
			for _, x := range row {
				z += x
			}
			for y, x := range row {
				if got := P[w][y]; math.Abs(got-x/z) > 1e-15 {
					t.Errorf("%s: P(%d|%d) = %v, want %v", c.name, y, w, got, x/z)
				}
			}
		}
	}
	// SynTFNoHalf at ε is SynTF at 2ε.
	vs := SyntheticVectors(9, 3, "nohalf")
	a, err := SynTFNoHalf(vs, eps)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SynTF(vs, 2*eps)
	for w := range a {
		for y := range a[w] {
			if math.Abs(a[w][y]-b[w][y]) > 1e-15 {
				t.Fatalf("no-half(ε) ≠ SynTF(2ε) at (%d, %d)", w, y)
			}
		}
	}
}

// Check proves SynTF ε-DP at word level and ε·½chord metric-DP on
// synthetic vocabularies (and two antipodal words), with the guarantee well used (tightness ≥ 1/2:
// between word 0 and the cluster facing it the numerators alone move by
// half the bound), and refutes both for the law without its factor 1/2.
func TestSynTFGuarantees(t *testing.T) {
	for _, c := range []struct {
		n, dim int
		label  string
	}{{16, 4, "float"}, {12, 3, "syntf-a"}, {20, 5, "syntf-b"}, {2, 1, "two"}} {
		vs := SyntheticVectors(c.n, c.dim, c.label)
		for _, eps := range []float64{0.1, 1, 4, 30} {
			P, err := SynTF(vs, eps)
			if err != nil {
				t.Fatal(err)
			}
			bad, err := SynTFNoHalf(vs, eps)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []struct {
				name string
				d    [][]float64
			}{{"word level", discrete(c.n)}, {"½ chord", halfChord(t, vs)}} {
				r, err := Check(P, m.d, eps, 1e-9)
				if err != nil || !r.Holds() {
					t.Errorf("%d×%d ε=%v %s: %+v %v", c.n, c.dim, eps, m.name, r, err)
				}
				if r.Tightness < 0.5-1e-9 {
					t.Errorf("%d×%d ε=%v %s: tightness %v", c.n, c.dim, eps, m.name, r.Tightness)
				}
				if c.n == 2 {
					continue // two antipodal words: the normalizers match, and 2ε·½chord is exactly ε
				}
				rb, err := Check(bad, m.d, eps, 1e-9)
				if err != nil || rb.Holds() {
					t.Errorf("%d×%d ε=%v %s: the law without 1/2 passed: %+v %v", c.n, c.dim, eps, m.name, rb, err)
				}
			}
		}
	}
}

func TestSynTFReject(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	ok := [][]float64{{1, 0}, {0, 1}}
	for _, c := range []struct {
		name string
		vs   [][]float64
		eps  float64
	}{
		{"nil", nil, 1},
		{"empty", [][]float64{}, 1},
		{"dimension 0", [][]float64{{}, {}}, 1},
		{"ragged", [][]float64{{1, 0}, {1}}, 1},
		{"NaN entry", [][]float64{{1, nan}, {0, 1}}, 1},
		{"Inf entry", [][]float64{{1, 0}, {inf, 1}}, 1},
		{"zero vector", [][]float64{{1, 0}, {0, 0}}, 1},
		{"norm overflows", [][]float64{{1e200, 1e200}, {0, 1}}, 1},
		{"ε 0", ok, 0},
		{"ε negative", ok, -1},
		{"ε NaN", ok, nan},
		{"ε Inf", ok, inf},
	} {
		for name, law := range map[string]func([][]float64, float64) ([][]float64, error){"SynTF": SynTF, "SynTFNoHalf": SynTFNoHalf} {
			if P, err := law(c.vs, c.eps); !errors.Is(err, ErrInvalid) || P != nil {
				t.Errorf("%s %s: (%v, %v), want ErrInvalid", name, c.name, P, err)
			}
		}
	}
	if _, err := ChordDistances([][]float64{{0}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("chord of a zero vector: %v", err)
	}
}

func TestSyntheticVectors(t *testing.T) {
	a, b := SyntheticVectors(16, 4, "float"), SyntheticVectors(16, 4, "float")
	if len(a) != 16 || len(a[0]) != 4 {
		t.Fatalf("shape %d×%d", len(a), len(a[0]))
	}
	d, err := EuclideanDistances(a)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		var s float64
		for j, x := range a[i] {
			if x != b[i][j] {
				t.Fatal("not deterministic")
			}
			s += x * x
		}
		if n := math.Sqrt(s); n < 0.5-1e-12 || n > 2+1e-12 {
			t.Errorf("vector %d has norm %v", i, n)
		}
		for k := range a {
			if k != i && !(d[i][k] > 0) {
				t.Errorf("vectors %d and %d coincide", i, k)
			}
		}
	}
	// Word 0 faces the cluster: its chord to every cluster word is near 2.
	ch, _ := ChordDistances(a)
	for i := 1; i <= 8; i++ {
		if ch[0][i] < 1.6 {
			t.Errorf("cluster word %d at chord %v from word 0", i, ch[0][i])
		}
	}
	if c := SyntheticVectors(16, 4, "other"); c[0][0] == a[0][0] {
		t.Error("the label does not change the vectors")
	}
	if SyntheticVectors(0, 4, "x") != nil || SyntheticVectors(3, 0, "x") != nil {
		t.Error("n or dim < 1 gives vectors")
	}
}
