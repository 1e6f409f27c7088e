package floatmech

import (
	"errors"
	"math"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/mechanism"
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

// wordLevel is the metric of word-level DP: 1 between distinct words.
func wordLevel(n int) [][]float64 {
	return dpexact.Distances(n, func(a, b int) float64 {
		if a == b {
			return 0
		}
		return 1
	})
}

// synTFLaw returns SynTF's exact law at ε on pts (dpexact.SynTF, the
// law the audit checks), failing the test on an error.
func synTFLaw(t *testing.T, pts [][]float64, eps float64) [][]float64 {
	t.Helper()
	law, err := dpexact.SynTF(pts, eps)
	if err != nil {
		t.Fatal(err)
	}
	return law
}

// TestSynTFExactGuarantee checks, with dpexact.Check, both guarantees on
// the exact law, that they are nearly attained on this vocabulary, and
// that the law without the factor 1/2 breaks word-level ε-DP.
func TestSynTFExactGuarantee(t *testing.T) {
	pts := synTFVocab()
	ch, err := dpexact.ChordDistances(pts)
	if err != nil {
		t.Fatal(err)
	}
	halfChord := dpexact.Distances(len(pts), func(a, b int) float64 { return ch[a][b] / 2 })
	word := wordLevel(len(pts))
	check := func(law, d [][]float64, eps float64) dpexact.Report {
		t.Helper()
		r, err := dpexact.Check(law, d, eps, 1e-12)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, eps := range []float64{0.5, 4, 12} {
		law := synTFLaw(t, pts, eps)
		if r := check(law, halfChord, eps); !r.Holds() {
			t.Errorf("ε=%v: chord bound exceeded by %.3g", eps, r.Excess)
		}
		r := check(law, word, eps)
		if !r.Holds() {
			t.Errorf("ε=%v: word-level ε exceeded by %.3g", eps, r.Excess)
		}
		// Power: the bound is nearly attained, so a check against a
		// guarantee 30% stronger fails.
		if r := check(law, halfChord, 0.7*eps); r.Holds() {
			t.Errorf("ε=%v: the worst ratio is far below the bound (excess at 0.7: %.3g)", eps, r.Excess)
		}
		// Negative control: the factor 2 dropped (scale ε/Δu) breaks
		// word-level ε-DP on this vocabulary.
		bad, err := dpexact.SynTFNoHalf(pts, eps)
		if err != nil {
			t.Fatal(err)
		}
		rb := check(bad, word, eps)
		if rb.Holds() {
			t.Errorf("ε=%v: dropping the factor 2 was not caught (excess %.3g)", eps, rb.Excess)
		}
		t.Logf("ε=%v: worst ln-ratio / ε = %.3f (correct); factor 2 dropped: excess over ε %.3f", eps, r.Tightness, rb.Excess)
	}
}

// TestSynTFSamplerMatchesLaw draws from the mechanism (batch and single
// paths) and compares with the exact law by chi-square; the negative
// control (coef doubled: the factor 2 dropped) must be rejected.
func TestSynTFSamplerMatchesLaw(t *testing.T) {
	pts := synTFVocab()
	e := tinyEmbedding(t, pts)
	const eps = 4.0
	law := synTFLaw(t, pts, eps)
	m, err := NewSynTF(e, eps)
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := NewSynTF(e, eps)
	bad.coef *= 2
	checkSamplerMatchesLaw(t, m, bad, law, 0, 80)
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
	checkBatchMatchesSingle(t, m, ws, 83)
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
	checkCallErrors(t, m, e.Len())
}
