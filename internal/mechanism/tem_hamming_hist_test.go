package mechanism

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// temHammingLaw is TEM's closed form on Hamming codes, written from the
// definition (not from the sampler): Pr[i] ∝ exp(−ε·d(w,i)/2) for
// d(w,i) ≤ γ, and the ⊥ mass (N−|L_w|)·exp(−εγ/2) spread uniformly over
// the words outside the ball.
func temHammingLaw(codes []hamming.Code, w int, eps, gamma float64) []float64 {
	n := len(codes)
	p := make([]float64, n)
	ball, z := 0, 0.0
	for i, c := range codes {
		if d := float64(hamming.Distance(codes[w], c)); d <= gamma {
			p[i] = math.Exp(-eps * d / 2)
			z += p[i]
			ball++
		}
	}
	bottom := float64(n-ball) * math.Exp(-eps*gamma/2)
	for i, c := range codes {
		if float64(hamming.Distance(codes[w], c)) > gamma {
			p[i] = bottom / float64(n-ball)
		}
	}
	for i := range p {
		p[i] /= z + bottom
	}
	return p
}

// firstInBucket is a deliberately wrong TEMHamming: the right bucket (or
// ⊥) but always the lowest id in it instead of a uniform one. The
// chi-square test must reject it.
type firstInBucket struct{ *temHammingMech }

func (f firstInBucket) Privatize(w int, src rand.Source) (int, error) {
	t := f.temHammingMech
	var sc temHammingScratch
	h := t.index.Histogram(&sc.hist, t.index.Codes()[w])
	ball := 0
	for d := 0; d <= t.r; d++ {
		sc.count[d] = h.Count(d)
		ball += sc.count[d]
	}
	bucket, bottom, err := t.drawBucket(&sc, ball, true, src)
	if err != nil {
		return -1, err
	}
	if bottom {
		return h.Select(t.r+1, hamming.Bits, 0)
	}
	return h.Select(bucket, bucket, 0)
}

// TestTEMHammingHistogramLaw: both sampling paths (histogram + rank
// selection, and Index.Range) match the closed form by chi-square, at an ε
// where the ball is every word and at radii where it is small and ⊥ is
// drawn; the first-in-bucket sampler is rejected (negative control).
func TestTEMHammingHistogramLaw(t *testing.T) {
	draws := 40000
	if testing.Short() {
		draws = 10000
	}
	_, codes := syntheticCodes(48, 12, "temh-hist")
	x := newIndex(t, codes)
	cases := []struct {
		eps, gamma float64
		wholeBall  bool
	}{
		{0.3, 300, true}, // γ past 256 bits: the ball is every word
		{0.2, 0, true},   // Theorem 4.2's γ, past the 12 bits used
		{1, 2, false},    // small ball, ⊥ likely
		{0.6, 5, false},
	}
	for _, c := range cases {
		m, err := newTEMHamming(x, c.eps, TEMOptions{Gamma: c.gamma})
		if err != nil {
			t.Fatal(err)
		}
		if m.useRange {
			t.Fatalf("ε=%v γ=%v: a 48-word index chose Range; the histogram path is the one to test", c.eps, m.Gamma())
		}
		if got := m.Gamma() >= 12; got != c.wholeBall {
			t.Fatalf("ε=%v: γ=%v, want whole ball %v", c.eps, m.Gamma(), c.wholeBall)
		}
		forced, err := newTEMHamming(x, c.eps, TEMOptions{Gamma: c.gamma})
		if err != nil {
			t.Fatal(err)
		}
		forced.useRange = true // same parameters, Index.Range path
		for _, p := range []struct {
			name string
			m    Mechanism
		}{{"histogram", m}, {"range", forced}} {
			name := p.name + "/eps=" + ftoa(c.eps) + "/gamma=" + ftoa(m.Gamma())
			t.Run(name, func(t *testing.T) {
				src := seeded.Key(stattest.Seed("temh-hist/" + name))
				for _, w := range []int{0, 1, 10, 47} {
					counts, err := stattest.SampleCounts(p.m, w, draws, src)
					if err != nil {
						t.Fatal(err)
					}
					stat, df, pv := stattest.ChiSquare(counts, temHammingLaw(codes, w, c.eps, m.Gamma()))
					if pv < stattest.FalseFailureRate {
						t.Errorf("w=%d: chi2=%.1f df=%d p=%.3g < %g", w, stat, df, pv, stattest.FalseFailureRate)
					}
					if w == 0 {
						t.Logf("w=0: chi2=%.1f df=%d p=%.3g", stat, df, pv)
					}
				}
			})
		}
		// Negative control: same buckets, wrong choice inside them.
		src := seeded.Key(stattest.Seed("temh-hist/first"))
		counts, err := stattest.SampleCounts(firstInBucket{m}, 0, draws, src)
		if err != nil {
			t.Fatal(err)
		}
		stat, df, pv := stattest.ChiSquare(counts, temHammingLaw(codes, 0, c.eps, m.Gamma()))
		if pv >= stattest.FalseFailureRate {
			t.Errorf("ε=%v γ=%v: first-in-bucket sampler accepted: chi2=%.1f df=%d p=%.3g", c.eps, m.Gamma(), stat, df, pv)
		}
		t.Logf("negative control ε=%v γ=%v: chi2=%.1f df=%d p=%.3g (rejected)", c.eps, m.Gamma(), stat, df, pv)
	}
}

// TestTEMHammingPathsOnAsset: on the default asset, the presets take the
// histogram path and a high ε (small γ) takes Index.Range (MIH); at a radius
// where the ball is a few hundred words both paths, forced, give the
// closed-form law of the output's distance from the input (chi-square over
// the distance buckets, ⊥ as one cell).
func TestTEMHammingPathsOnAsset(t *testing.T) {
	if testing.Short() {
		t.Skip("full asset")
	}
	a := defaultAsset(t)
	x := newIndex(t, a.Codes)
	for _, level := range []string{LevelStrong, LevelBalanced, LevelLight} {
		eps, err := Preset(a, NameTEMHamming, level)
		if err != nil {
			t.Fatal(err)
		}
		m, err := newTEMHamming(x, eps, TEMOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if m.useRange {
			t.Errorf("%s: γ=%v: chose Range, want the histogram", level, m.Gamma())
		}
		t.Logf("%s: ε=%v γ=%.1f: histogram path", level, eps, m.Gamma())
	}
	const eps, gamma = 0.8, 28
	m, err := newTEMHamming(x, eps, TEMOptions{Gamma: gamma})
	if err != nil {
		t.Fatal(err)
	}
	if !m.useRange {
		t.Fatalf("γ=%v over %d words: expected the Range (MIH) path", gamma, x.Len())
	}
	// The word of the first 200 with the most neighbours within γ, so that
	// several buckets carry mass.
	w, best := 0, 0
	for v := range 200 {
		k := 0
		for _, c := range a.Codes {
			if hamming.Distance(a.Codes[v], c) <= gamma {
				k++
			}
		}
		if k > best {
			w, best = v, k
		}
	}
	// The closed form of the output distance: bucket d ≤ r has mass
	// count[d]·e^(−εd/2), ⊥ (any d > r) (N−|L_w|)·e^(−εγ/2).
	var count [hamming.Bits + 1]int
	for _, c := range a.Codes {
		count[hamming.Distance(a.Codes[w], c)]++
	}
	law := make([]float64, m.r+2)
	z := 0.0
	for d := 0; d <= m.r; d++ {
		law[d] = float64(count[d]) * math.Exp(-m.eps*float64(d)/2)
		z += law[d]
	}
	outside := len(a.Codes)
	for d := 0; d <= m.r; d++ {
		outside -= count[d]
	}
	law[m.r+1] = float64(outside) * math.Exp(-m.eps*m.gamma/2)
	z += law[m.r+1]
	for i := range law {
		law[i] /= z
	}
	forced, err := newTEMHamming(x, eps, TEMOptions{Gamma: gamma})
	if err != nil {
		t.Fatal(err)
	}
	forced.useRange = false
	for _, p := range []struct {
		name string
		m    *temHammingMech
	}{{"range", m}, {"histogram", forced}} {
		src := seeded.Key(stattest.Seed("temh-asset/" + p.name))
		counts := make([]int, len(law))
		for range 20000 {
			y, err := p.m.Privatize(w, src)
			if err != nil {
				t.Fatal(err)
			}
			counts[min(hamming.Distance(a.Codes[w], a.Codes[y]), m.r+1)]++
		}
		stat, df, pv := stattest.ChiSquare(counts, law)
		if pv < stattest.FalseFailureRate {
			t.Errorf("%s: chi2=%.1f df=%d p=%.3g < %g", p.name, stat, df, pv, stattest.FalseFailureRate)
		}
		t.Logf("%s: w=%d (%d words within γ): chi2=%.1f df=%d p=%.3g", p.name, w, best, stat, df, pv)
	}
}

// TestTEMHammingBucketRatios: the chain's decision at each non-empty bucket
// d, count[d]/R_d with R_d built by drawBucket's recurrence, equals the
// closed form count[d]·e^(−εd/2) / Σ_{j≥d} count[j]·e^(−εj/2) computed
// independently in log space, to 1e-12 relative, from ε = 0.01 (every
// bucket weighs about the same) to ε = 40 (e^(−ε/2) below 1e-8, and gaps of
// hundreds of empty buckets where the recurrence's far terms vanish). A
// negative control checks the comparison sees a 1% error in ε.
func TestTEMHammingBucketRatios(t *testing.T) {
	_, codes := syntheticCodes(48, 12, "temh-ratios")
	x := newIndex(t, codes)
	patterns := map[string]map[int]int{
		"dense":  {0: 1, 1: 2, 2: 5, 3: 9, 4: 11, 5: 9, 6: 6, 7: 3, 8: 2},
		"gaps":   {0: 1, 3: 4, 120: 20, 128: 22, 256: 1},
		"ends":   {0: 1, 256: 47},
		"single": {0: 48},
	}
	closed := func(count *[hamming.Bits + 1]int, d int, eps float64) float64 {
		// ln Σ_{j≥d} count[j]·e^(−ε(j−d)/2), term by term in log space.
		ln := math.Inf(-1)
		for j := d; j <= hamming.Bits; j++ {
			if count[j] > 0 {
				ln = sample.LogAddExp(ln, math.Log(float64(count[j]))-eps*float64(j-d)/2)
			}
		}
		return math.Log(float64(count[d])) - ln
	}
	for _, eps := range []float64{0.01, 0.17, 1, 5, 40} {
		m, err := newTEMHamming(x, eps, TEMOptions{Gamma: 300})
		if err != nil {
			t.Fatal(err)
		}
		for name, p := range patterns {
			var sc temHammingScratch
			total := 0
			for d, c := range p {
				sc.count[d] = c
				total += c
			}
			if total != x.Len() {
				t.Fatalf("%s: %d words, index has %d", name, total, x.Len())
			}
			src := seeded.Key(stattest.Seed("temh-ratios"))
			if _, bottom, err := m.drawBucket(&sc, total, true, src); err != nil || bottom {
				t.Fatalf("ε=%v %s: bottom=%v err=%v with the ball the whole vocabulary", eps, name, bottom, err)
			}
			for d := 0; d <= hamming.Bits; d++ {
				if sc.count[d] == 0 {
					continue
				}
				got := math.Log(float64(sc.count[d]) / sc.r[d])
				want := closed(&sc.count, d, eps)
				if math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
					t.Errorf("ε=%v %s d=%d: ln ratio %v, closed form %v", eps, name, d, got, want)
				}
				if name == "dense" && d == 0 && eps == 1 {
					if wrong := closed(&sc.count, d, 1.01*eps); math.Abs(got-wrong) <= 1e-12*max(1, math.Abs(wrong)) {
						t.Errorf("negative control: ε off by 1%% gave the same ratio")
					}
				}
			}
		}
	}
}
