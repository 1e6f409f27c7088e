package floatmech

import (
	"errors"
	"math"
	"testing"

	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/mechanism"
)

// synTFVocab is built so that the exponential mechanism's factor 2 is
// needed: w = e₁, w' = −e₁ and twenty words near −e₁ make both the
// numerator and the normalizer of Pr[M(w) = e₁] / Pr[M(w') = e₁] move
// the same way, so dropping the factor pushes the ratio past e^ε.
func synTFVocab() [][]float64 {
	pts := [][]float64{{1, 0}, {-1, 0}, {0, 1}, {0.6, -0.8}}
	for j := range 20 {
		pts = append(pts, []float64{-1, 0.01 * float64(j+1)})
	}
	return pts
}

// synTFLaw is the exact output law of SynTF computed from the points in
// float64, independently of the mechanism's code: row w is
// Pr[M(w) = ·] ∝ exp(scale·cos(w, ·)), scale = ε/(2·2) for the correct
// mechanism.
func synTFLaw(pts [][]float64, scale float64) [][]float64 {
	unit := make([][]float64, len(pts))
	for i, p := range pts {
		var n float64
		for _, x := range p {
			n += x * x
		}
		n = math.Sqrt(n)
		for _, x := range p {
			unit[i] = append(unit[i], x/n)
		}
	}
	law := make([][]float64, len(pts))
	for w := range pts {
		law[w] = make([]float64, len(pts))
		var z float64
		for y := range pts {
			var c float64
			for i := range unit[w] {
				c += unit[w][i] * unit[y][i]
			}
			law[w][y] = math.Exp(scale * c)
			z += law[w][y]
		}
		for y := range law[w] {
			law[w][y] /= z
		}
	}
	return law
}

// chord is ‖φ̂(w) − φ̂(w')‖₂.
func chord(a, b []float64) float64 {
	na, nb := math.Hypot(a[0], a[1]), math.Hypot(b[0], b[1])
	return math.Hypot(a[0]/na-b[0]/nb, a[1]/na-b[1]/nb)
}

// worstExcess is max over w, w', y of ln law[w][y] − ln law[w'][y] −
// bound(w, w').
func worstExcess(law [][]float64, bound func(w, w2 int) float64) float64 {
	worst := math.Inf(-1)
	for w := range law {
		for w2 := range law {
			if w == w2 {
				continue
			}
			for y := range law[w] {
				switch {
				case law[w][y] == 0:
					// Nothing to bound: the ratio is 0.
				case law[w2][y] == 0:
					return math.Inf(1)
				default:
					worst = max(worst, math.Log(law[w][y])-math.Log(law[w2][y])-bound(w, w2))
				}
			}
		}
	}
	return worst
}

func TestSynTFExactGuarantee(t *testing.T) {
	pts := synTFVocab()
	for _, eps := range []float64{0.5, 4, 12} {
		law := synTFLaw(pts, eps/4)
		metric := func(w, w2 int) float64 { return eps / 2 * chord(pts[w], pts[w2]) }
		if x := worstExcess(law, metric); x > 1e-12 {
			t.Errorf("ε=%v: chord bound exceeded by %.3g", eps, x)
		}
		if x := worstExcess(law, func(int, int) float64 { return eps }); x > 1e-12 {
			t.Errorf("ε=%v: word-level ε exceeded by %.3g", eps, x)
		}
		// Power: the bound is nearly attained, so a check against a
		// guarantee 30% stronger fails.
		if x := worstExcess(law, func(w, w2 int) float64 { return 0.7 * metric(w, w2) }); !(x > 0) {
			t.Errorf("ε=%v: the worst ratio is far below the bound (excess at 0.7: %.3g)", eps, x)
		}
		// Negative control: the factor 2 dropped (scale ε/Δu) breaks
		// word-level ε-DP on this vocabulary.
		bad := synTFLaw(pts, eps/2)
		x := worstExcess(bad, func(int, int) float64 { return eps })
		if !(x > 0) {
			t.Errorf("ε=%v: dropping the factor 2 was not caught (excess %.3g)", eps, x)
		}
		t.Logf("ε=%v: worst ln-ratio / ε = %.3f (correct); factor 2 dropped: excess over ε %.3f",
			eps, worstExcess(law, func(int, int) float64 { return 0 })/eps, x)
	}
}

// TestSynTFSamplerMatchesLaw draws from the mechanism (batch and single
// paths) and compares with the exact law by chi-square; the negative
// control (coef doubled: the factor 2 dropped) must be rejected.
func TestSynTFSamplerMatchesLaw(t *testing.T) {
	pts := synTFVocab()
	e := tinyEmbedding(t, pts)
	const eps = 4.0
	law := synTFLaw(pts, eps/4)
	draws := auditDraws(t)
	m, err := NewSynTF(e, eps)
	if err != nil {
		t.Fatal(err)
	}
	counts := drawCounts(t, m, draws, seeded(80))
	for w := range counts {
		if _, _, p := stattest.ChiSquare(counts[w], law[w]); p < stattest.FalseFailureRate {
			t.Errorf("batch w=%d: χ² p = %.3g", w, p)
		}
	}
	single, err := stattest.SampleCounts(m, 0, draws, seeded(81))
	if err != nil {
		t.Fatal(err)
	}
	if stat, df, p := stattest.ChiSquare(single, law[0]); p < stattest.FalseFailureRate {
		t.Errorf("single w=0: χ² = %.1f (df %d), p = %.3g", stat, df, p)
	}
	bad, _ := NewSynTF(e, eps)
	bad.coef *= 2
	badCounts, err := stattest.SampleCounts(bad, 0, draws, seeded(82))
	if err != nil {
		t.Fatal(err)
	}
	stat, df, p := stattest.ChiSquare(badCounts, law[0])
	if !(p < stattest.FalseFailureRate) {
		t.Errorf("the factor-2-dropped sampler passed: χ² = %.1f (df %d), p = %.3g", stat, df, p)
	}
	t.Logf("negative control rejected: χ² = %.1f (df %d), p = %.3g", stat, df, p)
}

func TestSynTFBatchMatchesSingle(t *testing.T) {
	e := randomEmbedding(t, 500, 16, 3)
	m, err := NewSynTF(e, 8)
	if err != nil {
		t.Fatal(err)
	}
	ws := make([]int, 37)
	for i := range ws {
		ws[i] = (i * 131) % e.Len()
	}
	want := make([]int, len(ws))
	src := seeded(83)
	for i, w := range ws {
		if want[i], err = m.Privatize(w, src); err != nil {
			t.Fatal(err)
		}
	}
	for _, workers := range []int{1, 2, 5, 0} {
		out := make([]int, len(ws))
		if err := m.PrivatizeBatch(ws, out, seeded(83), workers); err != nil {
			t.Fatal(err)
		}
		for i := range out {
			if out[i] != want[i] {
				t.Fatalf("workers=%d: batch[%d] = %d, single = %d", workers, i, out[i], want[i])
			}
		}
	}
}

func TestSynTFErrors(t *testing.T) {
	e := tinyEmbedding(t, synTFVocab())
	zero := tinyEmbedding(t, [][]float64{{1, 0}, {0, 0}})
	for _, tc := range []struct {
		name string
		emb  *Embedding
		eps  float64
		want error
	}{
		{"eps 0", e, 0, mechanism.ErrInvalidEpsilon},
		{"eps negative", e, -1, mechanism.ErrInvalidEpsilon},
		{"eps NaN", e, math.NaN(), mechanism.ErrInvalidEpsilon},
		{"eps Inf", e, math.Inf(1), mechanism.ErrInvalidEpsilon},
		{"nil embedding", nil, 1, ErrInvalidParameter},
		{"zero vector", zero, 1, ErrInvalidParameter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewSynTF(tc.emb, tc.eps); !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
	m, err := NewSynTF(e, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{-1, e.Len()} {
		if y, err := m.Privatize(w, seeded(1)); !errors.Is(err, mechanism.ErrWordOutOfRange) || y != -1 {
			t.Errorf("w=%d: (%d, %v)", w, y, err)
		}
	}
	if y, err := m.Privatize(0, nil); !errors.Is(err, mechanism.ErrNilSource) || y != -1 {
		t.Errorf("nil source: (%d, %v)", y, err)
	}
	out := []int{5, 5}
	if err := m.PrivatizeBatch([]int{0, 99}, out, seeded(1), 1); !errors.Is(err, mechanism.ErrWordOutOfRange) || out[0] != -1 || out[1] != -1 {
		t.Errorf("batch with a bad word: %v, out %v", err, out)
	}
	if err := m.PrivatizeBatch([]int{0}, out, seeded(1), 1); !errors.Is(err, ErrInvalidParameter) || out[0] != -1 {
		t.Errorf("length mismatch: %v, out %v", err, out)
	}
}
