package floatmech

import (
	"errors"
	"math"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/mechanism"
)

// sanTextVocab is a line on which the triangle inequality is tight and
// the exponential mechanism's factor 2 is needed: w = 0, w' = 1 and
// twenty words just beyond w' make the numerator and the normalizer of
// Pr[M(w) = 0] / Pr[M(w') = 0] move the same way.
func sanTextVocab() [][]float64 {
	pts := [][]float64{{0}, {1}, {-0.5}}
	for j := range 20 {
		pts = append(pts, []float64{2 + 0.01*float64(j)})
	}
	return pts
}

// sanTextLaw returns SanText's exact law at ε on pts (dpexact.SanText
// over the Euclidean distances, computed independently of the
// mechanism's code) and the distances.
func sanTextLaw(t *testing.T, pts [][]float64, eps float64) (law, d [][]float64) {
	t.Helper()
	d, err := dpexact.EuclideanDistances(pts)
	if err != nil {
		t.Fatal(err)
	}
	if law, err = dpexact.SanText(d, eps); err != nil {
		t.Fatal(err)
	}
	return law, d
}

// TestSanTextExactGuarantee checks, with dpexact.Check, ε·d metric DP on
// the exact law, that it is nearly attained on this vocabulary, and that
// the law without the factor 1/2 breaks it.
func TestSanTextExactGuarantee(t *testing.T) {
	pts := sanTextVocab()
	check := func(law, d [][]float64, eps float64) dpexact.Report {
		t.Helper()
		r, err := dpexact.Check(law, d, eps, 1e-12)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, eps := range []float64{0.5, 2, 4} {
		law, d := sanTextLaw(t, pts, eps)
		r := check(law, d, eps)
		if !r.Holds() {
			t.Errorf("ε=%v: ε·d bound exceeded by %.3g", eps, r.Excess)
		}
		// Power: the bound is nearly attained, so a guarantee 30%
		// stronger fails.
		if r := check(law, d, 0.7*eps); r.Holds() {
			t.Errorf("ε=%v: the worst ratio is far below the bound (excess at 0.7: %.3g)", eps, r.Excess)
		}
		// Negative control: the factor 2 dropped breaks ε·d.
		bad, err := dpexact.SanTextNoHalf(d, eps)
		if err != nil {
			t.Fatal(err)
		}
		rb := check(bad, d, eps)
		if rb.Holds() {
			t.Errorf("ε=%v: dropping the factor 2 was not caught (excess %.3g)", eps, rb.Excess)
		}
		t.Logf("ε=%v: worst ln-ratio / (ε·d) = %.3f (correct); factor 2 dropped: excess %.3f", eps, r.Tightness, rb.Excess)
	}
}

// TestSanTextSamplerMatchesLaw draws from the mechanism (batch and single
// paths) and compares with the exact law by chi-square; the negative
// control (coef doubled: the factor 2 dropped) must be rejected.
func TestSanTextSamplerMatchesLaw(t *testing.T) {
	pts := sanTextVocab()
	e := tinyEmbedding(t, pts)
	const eps = 3.0
	law, _ := sanTextLaw(t, pts, eps)
	m, err := NewSanText(e, eps)
	if err != nil {
		t.Fatal(err)
	}
	if m.Epsilon() != eps || m.Len() != len(pts) || m.Metric() != "euclidean" {
		t.Fatalf("facts: ε %v, N %d, metric %q", m.Epsilon(), m.Len(), m.Metric())
	}
	bad, _ := NewSanText(e, eps)
	bad.coef *= 2
	checkSamplerMatchesLaw(t, m, bad, law, 1, 90)
}

// TestSanTextFarWordsStayPossible: at a large ε the far words' weights
// underflow float64 (e^(−ε·d/2) < 1e-308), yet the Gumbel-max draw works
// on log-weights: the law is still concentrated on the input, and the
// draw never fails.
func TestSanTextFarWordsStayPossible(t *testing.T) {
	e := tinyEmbedding(t, [][]float64{{0}, {1}, {2000}})
	m, err := NewSanText(e, 1)
	if err != nil {
		t.Fatal(err)
	}
	sc := make([]float64, 3)
	m.scores(0, sc)
	if !(sc[2] > math.Inf(-1)) || math.Exp(sc[2]) != 0 {
		t.Fatalf("score of the far word %v: want finite with an underflowing weight", sc[2])
	}
	src := seeded(93)
	for range 1000 {
		if y, err := m.Privatize(2, src); err != nil || y != 2 {
			t.Fatalf("far word: (%d, %v)", y, err)
		}
	}
}

func TestSanTextBatchMatchesSingle(t *testing.T) {
	e := randomEmbedding(t, 300, 8, 4)
	m, err := NewSanText(e, 6)
	if err != nil {
		t.Fatal(err)
	}
	ws := make([]int, 23)
	for i := range ws {
		ws[i] = (i * 97) % e.Len()
	}
	checkBatchMatchesSingle(t, m, ws, 94)
}

func TestSanTextErrors(t *testing.T) {
	e := tinyEmbedding(t, sanTextVocab())
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewSanText(tc.emb, tc.eps); !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
	m, err := NewSanText(e, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkCallErrors(t, m, e.Len())
}
