package floatmech

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
)

// float32s rounds pts as the embedding stores them, so that the exact
// law sees the same distances (and the same ties) as the mechanism.
func float32s(pts [][]float64) [][]float64 {
	out := make([][]float64, len(pts))
	for i, p := range pts {
		for _, x := range p {
			out[i] = append(out[i], float64(float32(x)))
		}
	}
	return out
}

// truncGumbelLaw is the exact output law of the truncated Gumbel
// mechanism at ε on pts (dpexact.TruncGumbel, the law the audit checks;
// it computes Δmin, Δmax and the scale itself, from the definition),
// failing the test on an error.
func truncGumbelLaw(t *testing.T, pts [][]float64, eps float64) [][]float64 {
	t.Helper()
	law, err := dpexact.TruncGumbel(float32s(pts), eps)
	if err != nil {
		t.Fatal(err)
	}
	return law
}

func TestLambertW0(t *testing.T) {
	for _, x := range []float64{1e-12, 0.1, 1, math.E, 66, 1e6, 1e300} {
		w := lambertW0(x)
		if got := w * math.Exp(w); math.Abs(got-x) > 1e-12*x && !math.IsInf(got, 0) {
			t.Errorf("W(%g) = %g: w·e^w = %g", x, w, got)
		}
		if x == 1e300 && math.Abs(w+math.Log(w)-math.Log(x)) > 1e-12*math.Log(x) {
			t.Errorf("W(1e300) = %g", w)
		}
	}
}

func TestTruncGumbelParamsErrors(t *testing.T) {
	for _, tc := range []struct {
		name       string
		eps        float64
		n          int
		dmin, dmax float64
		want       error
	}{
		{"eps 0", 0, 10, 1, 2, mechanism.ErrInvalidEpsilon},
		{"eps NaN", math.NaN(), 10, 1, 2, mechanism.ErrInvalidEpsilon},
		{"n 2", 100, 2, 1, 2, ErrInvalidParameter},
		{"dmin 0 (duplicates)", 100, 10, 0, 2, ErrInvalidParameter},
		{"dmax < dmin", 100, 10, 1, 0.5, ErrInvalidParameter},
		{"dmax Inf", 100, 10, 1, math.Inf(1), ErrInvalidParameter},
		// MLDP's usual ε = 1: a < 0, no positive scale.
		{"MLDP eps 1", 1, 50000, 0.5, 10, ErrInvalidParameter},
		{"just below the minimum", 0.999 * MinTruncGumbelEpsilon(10, 1), 10, 1, 2, ErrInvalidParameter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewTruncGumbelParams(tc.eps, tc.n, tc.dmin, tc.dmax); !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := NewTruncGumbelParams(1.001*MinTruncGumbelEpsilon(10, 1), 10, 1, 2); err != nil {
		t.Errorf("just above the minimum: %v", err)
	}
	if _, err := NewTruncGumbel(nil, 1); !errors.Is(err, ErrInvalidParameter) {
		t.Errorf("nil embedding: %v", err)
	}
	dup := tinyEmbedding(t, [][]float64{{0}, {1}, {1}, {3}})
	if _, err := NewTruncGumbel(dup, 1e6); !errors.Is(err, ErrInvalidParameter) {
		t.Errorf("duplicate vectors: %v", err)
	}
}

// TestTruncGumbelSamplers checks the candidate count against the
// truncated Poisson law (chi-square) and the noise against the truncated
// Gumbel CDF (Kolmogorov–Smirnov), on both noise branches (inverse CDF
// and rejection).
func TestTruncGumbelSamplers(t *testing.T) {
	src := seeded(90)
	for _, tc := range []struct {
		eps        float64
		n          int
		dmin, dmax float64
	}{
		{60, 6, 0.2, 3.1},     // Δmax/B small: inverse CDF
		{1e5, 12, 0.05, 40},   // Δmax/B > 3.4: width > 30, rejection
		{1e4, 50000, 0.1, 12}, // a GloVe-sized vocabulary
	} {
		p, err := NewTruncGumbelParams(tc.eps, tc.n, tc.dmin, tc.dmax)
		if err != nil {
			t.Fatal(err)
		}
		draws := samples(t) * 5
		// Poisson: cells 0..kmax with the tail pooled by ChiSquare.
		cells := min(tc.n, 60)
		counts := make([]int, cells)
		for range draws {
			k := p.candidates(src)
			counts[min(k, cells-1)]++
		}
		probs := make([]float64, cells)
		var z float64
		for k := 0; k < tc.n; k++ {
			lg, _ := math.Lgamma(float64(k) + 1)
			q := math.Exp(float64(k)*math.Log(p.Mu) - p.Mu - lg)
			probs[min(k, cells-1)] += q
			z += q
		}
		for k := range probs {
			probs[k] /= z
		}
		if stat, df, pv := stattest.ChiSquare(counts, probs); pv < stattest.FalseFailureRate {
			t.Errorf("%+v: Poisson χ² = %.1f (df %d), p = %.3g", tc, stat, df, pv)
		}
		xs := make([]float64, samples(t))
		for i := range xs {
			xs[i] = p.noise(src)
			if math.Abs(xs[i]) > tc.dmax {
				t.Fatalf("noise %v outside ±%v", xs[i], tc.dmax)
			}
		}
		F := func(x float64) float64 { return math.Exp(-math.Exp(-x / p.B)) }
		lo, hi := F(-tc.dmax), F(tc.dmax)
		checkKS(t, "truncated Gumbel", xs, func(x float64) float64 { return (F(x) - lo) / (hi - lo) })
		t.Logf("ε=%v N=%d: a=%.4g B=%.4g Δmax/B=%.3g", tc.eps, tc.n, p.A, p.B, tc.dmax/p.B)
	}
}

// ringVocab has N = 16 words: w = 0 at the origin, w' = 1 at distance
// Δmin = 1, y = 2 on the far side of w' (the farthest word from w, the
// third-nearest from w'), and 13 words on a circle of radius 20 away from
// y. Pr[M(w) = y] needs K = N − 1, whose Poisson probability is tiny;
// Pr[M(w') = y] needs only K ≥ 3.
func ringVocab() [][]float64 {
	pts := [][]float64{{0, 0}, {1, 0}, {20.3, 0}}
	for j := range 13 {
		a := (60 + 20*float64(j)) * math.Pi / 180
		pts = append(pts, []float64{20 * math.Cos(a), 20 * math.Sin(a)})
	}
	return pts
}

// TestTruncGumbelExactLaw compares the sampler (batch path and single
// path) with the exact law by chi-square, and checks that a sampler whose
// noise is truncated at a tenth of Δmax (the negative control) is rejected
// at the single path's size.
//
// Sizes: the batch path draws auditDraws per input word (20000 with
// -short, 100000 in test-full), the single path and the control
// singleDraws (2000 with -short: enough to reject the control).
func TestTruncGumbelExactLaw(t *testing.T) {
	for i, tc := range []struct {
		name string
		pts  [][]float64
		eps  float64
	}{
		{"line", line1D, 60},
		{"plane", plane[1:], 40}, // plane without the origin: Δmin ≈ 0.22
		{"ring", ringVocab(), 1.01 * MinTruncGumbelEpsilon(16, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := tinyEmbedding(t, tc.pts)
			m, err := NewTruncGumbel(e, tc.eps)
			if err != nil {
				t.Fatal(err)
			}
			law := truncGumbelLaw(t, tc.pts, tc.eps)
			draws := auditDraws(t)
			counts := drawCounts(t, m, draws, seeded(byte(91+i)))
			for w := range counts {
				if stat, df, p := stattest.ChiSquare(counts[w], law[w]); p < stattest.FalseFailureRate {
					t.Errorf("batch w=%d: χ² = %.1f (df %d), p = %.3g", w, stat, df, p)
				}
			}
			single, err := stattest.SampleCounts(m, 0, singleDraws(t), seeded(byte(95+i)))
			if err != nil {
				t.Fatal(err)
			}
			if stat, df, p := stattest.ChiSquare(single, law[0]); p < stattest.FalseFailureRate {
				t.Errorf("single w=0: χ² = %.1f (df %d), p = %.3g", stat, df, p)
			}
			// Negative control: the same mechanism with its noise
			// truncated at a tenth of Δmax (a different law) must be
			// rejected.
			bad, _ := NewTruncGumbel(e, tc.eps)
			bad.P.DMax /= 10
			bad.P.tLo = math.Exp(-bad.P.DMax / bad.P.B)
			bad.P.width = math.Exp(bad.P.DMax/bad.P.B) - bad.P.tLo
			bad.P.mass = -math.Expm1(-bad.P.width)
			badCounts, err := stattest.SampleCounts(bad, 0, singleDraws(t), seeded(byte(99+i)))
			if err != nil {
				t.Fatal(err)
			}
			if stat, df, p := stattest.ChiSquare(badCounts, law[0]); !(p < stattest.FalseFailureRate) {
				t.Errorf("negative control passed: χ² = %.1f (df %d), p = %.3g", stat, df, p)
			}
		})
	}
}

// truncGumbelCase is a small vocabulary and an ε valid for it.
type truncGumbelCase struct {
	name string
	pts  [][]float64
	eps  float64
}

// truncGumbelCases are the vocabularies the claim and constant tests use,
// each at an ε the mechanism accepts.
func truncGumbelCases() []truncGumbelCase {
	return []truncGumbelCase{
		{"line", line1D, 60},
		{"plane", plane[1:], 40},
		{"ring", ringVocab(), 1.01 * MinTruncGumbelEpsilon(16, 1)},
	}
}

// TestTruncGumbelClaim checks the claimed ε·‖φ(w) − φ(w')‖₂ metric DP on
// the exact law with dpexact.Check. It fails on every vocabulary tested,
// for a structural reason: K ≤ N − 1 candidates are the K nearest words
// INCLUDING w, so the word farthest from w is never a candidate and
// Pr[M(w) = y] = 0, while a neighbour w' releases y with positive
// probability. No ε bounds that ratio. The exact law and the sampler
// agree on it (the sampler never released the farthest word in
// TestTruncGumbelExactLaw, where a draw in a zero-probability cell gives
// p = 0).
func TestTruncGumbelClaim(t *testing.T) {
	for _, tc := range truncGumbelCases() {
		t.Run(tc.name, func(t *testing.T) {
			e := tinyEmbedding(t, tc.pts)
			m, err := NewTruncGumbel(e, tc.eps)
			if err != nil {
				t.Fatal(err)
			}
			law := truncGumbelLaw(t, tc.pts, tc.eps)
			d, err := dpexact.EuclideanDistances(float32s(tc.pts))
			if err != nil {
				t.Fatal(err)
			}
			for w := range tc.pts {
				if far := farthest(d[w]); law[w][far] != 0 {
					t.Errorf("w=%d: farthest word %d has probability %g", w, far, law[w][far])
				}
			}
			r, err := dpexact.Check(law, d, tc.eps, 1e-12)
			if err != nil {
				t.Fatal(err)
			}
			if !math.IsInf(r.Excess, 1) {
				t.Errorf("expected an unbounded ratio; worst excess %.3f", r.Excess)
			}
			t.Logf("ε=%.4g B=%.4g Δmax=%.4g: Pr[M(0)=far] = 0 while Pr[M(w')=far] = %.3g for w' = 1",
				tc.eps, m.P.B, m.P.DMax, law[1][farthest(d[0])])
		})
	}
}

// farthest is the index of the largest distance in row (the lowest on a
// tie).
func farthest(row []float64) int {
	far := 0
	for y, x := range row {
		if x > row[far] {
			far = y
		}
	}
	return far
}

// TestTruncGumbelParamsMatchDefinition compares the mechanism's constants
// with dpexact's, computed independently from the definition: Δmin and
// Δmax from the exact distances, the scale from TruncGumbelScale (its own
// Lambert W). The chi-square tests could not see a small error in B.
func TestTruncGumbelParamsMatchDefinition(t *testing.T) {
	for _, tc := range append(truncGumbelCases(), truncGumbelCase{"ring, large ε", ringVocab(), 1e9}) {
		m, err := NewTruncGumbel(tinyEmbedding(t, tc.pts), tc.eps)
		if err != nil {
			t.Fatal(err)
		}
		d, err := dpexact.EuclideanDistances(float32s(tc.pts))
		if err != nil {
			t.Fatal(err)
		}
		dmin, dmax := math.Inf(1), 0.0
		for a, row := range d {
			for b, x := range row {
				if a != b {
					dmin, dmax = min(dmin, x), max(dmax, x)
				}
			}
		}
		b, err := dpexact.TruncGumbelScale(tc.eps, len(tc.pts), dmin, dmax)
		if err != nil {
			t.Fatal(err)
		}
		if m.P.DMin != dmin || m.P.DMax != dmax || math.Abs(m.P.B-b) > 1e-13*b || m.P.Mu != math.Log(float64(len(tc.pts)-1)) {
			t.Errorf("%s: mechanism Δmin %v Δmax %v B %v; definition %v %v %v", tc.name, m.P.DMin, m.P.DMax, m.P.B, dmin, dmax, b)
		}
	}
}

func TestTruncGumbelBatchDeterministic(t *testing.T) {
	e := randomEmbedding(t, 2000, 16, 5)
	dmin, err := minDistance(e)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewTruncGumbel(e, 2*MinTruncGumbelEpsilon(e.Len(), dmin))
	if err != nil {
		t.Fatal(err)
	}
	ws := make([]int, 600)
	for i := range ws {
		ws[i] = (i * 7919) % e.Len()
	}
	var first []int
	for _, workers := range []int{1, 2, 5} {
		out := make([]int, len(ws))
		if err := m.PrivatizeBatch(ws, out, seeded(97), workers); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = out
			continue
		}
		for i := range out {
			if out[i] != first[i] {
				t.Fatalf("workers=%d differs at %d", workers, i)
			}
		}
	}
	if y, err := m.Privatize(-1, seeded(1)); !errors.Is(err, mechanism.ErrWordOutOfRange) || y != -1 {
		t.Errorf("out of range: (%d, %v)", y, err)
	}
	if y, err := m.Privatize(0, nil); !errors.Is(err, mechanism.ErrNilSource) || y != -1 {
		t.Errorf("nil source: (%d, %v)", y, err)
	}
	out := []int{3}
	if err := m.PrivatizeBatch([]int{e.Len()}, out, seeded(1), 1); !errors.Is(err, mechanism.ErrWordOutOfRange) || out[0] != -1 {
		t.Errorf("batch out of range: %v %v", err, out)
	}
}

// floatsAsset returns the research floats asset from the cache, or skips.
func floatsAsset(b *testing.B) *Embedding {
	home, _ := os.UserHomeDir()
	path := filepath.Join(home, ".cache", "wordveil", "en-glove100-50k-floats.wva")
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("research floats asset absent (%s): build it with `make eval-data`", path)
	}
	a, err := wva.DecodeWith(raw, wva.DecodeOptions{SkipTEM: true})
	if err != nil {
		b.Fatal(err)
	}
	e, err := FromAsset(a)
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// BenchmarkSynTFTruncGumbel reports ns/word for both mechanisms on a
// synthetic vocabulary (always) and on the GloVe floats asset (when
// cached), single calls and batches.
func BenchmarkSynTFTruncGumbel(b *testing.B) {
	for _, data := range []string{"synthetic-50k", "glove-50k"} {
		b.Run(data, func(b *testing.B) {
			var e *Embedding
			if data == "glove-50k" {
				e = floatsAsset(b)
			} else {
				e = randomEmbedding(b, 50000, 100, 11)
			}
			dmin, err := minDistance(e)
			if err != nil {
				b.Fatal(err)
			}
			syn, err := NewSynTF(e, 10)
			if err != nil {
				b.Fatal(err)
			}
			tg, err := NewTruncGumbel(e, 2*MinTruncGumbelEpsilon(e.Len(), dmin))
			if err != nil {
				b.Fatal(err)
			}
			ws := make([]int, 64)
			for i := range ws {
				ws[i] = (i * 7919) % e.Len()
			}
			for _, m := range []struct {
				name string
				m    Batcher
			}{{"SynTF", syn}, {"TruncGumbel", tg}} {
				b.Run(m.name+"/single", func(b *testing.B) {
					src := seeded(2)
					for i := range b.N {
						if _, err := m.m.Privatize(ws[i%len(ws)], src); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/word")
				})
				b.Run(m.name+"/batch-all", func(b *testing.B) {
					src := seeded(3)
					out := make([]int, len(ws))
					for range b.N {
						if err := m.m.PrivatizeBatch(ws, out, src, 0); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ws)), "ns/word")
				})
			}
		})
	}
}
