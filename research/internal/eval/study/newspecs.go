package study

import (
	"fmt"
	"math"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/research/internal/floatmech"
)

// CusTextGrid is CusText's own ε grid (its ε is in the units of its
// utility 1 − Hamming/256 ∈ [0, 1], not a metric's: no ratio matching
// applies, Matched is NaN). On the research asset (output sets of K = 20
// words) it spans N_w from 0.05 — ε = 0.01 is uniform over the input's
// set, 1/K, CusText's floor: it never leaves the set — to about 0.9 (the
// measured N_w per ε: docs/eval/RESULTS.md, generated); 3.65, 11.3 and
// 18.4 are the default asset's strong, balanced and light presets
// (docs/PRIVACY_LEVELS.md).
var CusTextGrid = []float64{0.01, 3.65, 8, 11.3, 18.4, 30}

// SynTFGrid is SynTF's ε grid (word-level DP, Matched NaN). Its utility
// is a cosine with sensitivity 2, so a word's own weight e^(ε/4) beats
// the other 50,000 words' only at large ε: on the research asset the
// grid spans N_w from about 0.01 to 0.9 (the measured N_w per ε:
// docs/eval/RESULTS.md, generated).
var SynTFGrid = []float64{28, 35, 40, 50, 60, 70}

// HammingExpGrid is the per-bit ε grid of the exponential mechanisms on
// Hamming codes (TEM (Hamming) and SanText). Their N_w goes from 0.02 to
// 0.99 between the P_avg matches of Euclidean ε 2 and 5 (Hamming ε 0.110
// and 0.276 on the research asset), so the Euclidean grid would leave
// four of its six points saturated; this grid spans N_w from almost 0 to
// about 0.9 instead (measured: docs/eval/RESULTS.md); 0.1416, 0.1656 and
// 0.1899 are the default asset's strong, balanced and light presets
// (docs/PRIVACY_LEVELS.md). Matched is the P_avg-matched Euclidean ε, as for brr-avg.
var HammingExpGrid = []float64{0.11, 0.13, 0.1416, 0.1656, 0.1899, 0.22}

// newSpec returns the spec of the mechanisms added after the first
// twelve (ok false for an unknown name).
func newSpec(env *Env, name string, grid []float64) (Spec, bool, error) {
	euc, ham := env.Ratios["euclidean"], env.Ratios["hamming"]
	hamMatched := make([]float64, len(HammingExpGrid))
	for i, x := range HammingExpGrid {
		hamMatched[i] = x * ham.Avg / euc.Avg
	}
	switch name {
	case "tem-hamming":
		// TEM over the 256-bit codes on its own grid; per-token fresh
		// draws (one histogram scan each).
		return Spec{Family: "hamming", Eps: HammingExpGrid, Matched: hamMatched, Pooled: true, build: func(env *Env, eps float64) (sampler, error) {
			return single(mechanism.NewTEMHamming(env.Ham, eps, mechanism.TEMOptions{}))
		}}, true, nil
	case "santext":
		// SanText over the codes (TEM (Hamming) without truncation) on
		// the same grid.
		return Spec{Family: "hamming", Eps: HammingExpGrid, Matched: hamMatched, Pooled: true, build: func(env *Env, eps float64) (sampler, error) {
			return single(mechanism.NewSanText(env.Ham, eps))
		}}, true, nil
	case "custext":
		// CusText over the asset's output sets: ε-DP among the words of
		// a set, the set itself disclosed (see mechanism.NewCusText).
		return Spec{Family: "custext", Eps: CusTextGrid, Matched: nans(len(CusTextGrid)), build: func(env *Env, eps float64) (sampler, error) {
			return single(mechanism.NewCusText(env.Asset, eps))
		}}, true, nil
	case "syntf":
		// SynTF: word-level ε-DP, sampled exactly in the corpus pass.
		return Spec{Family: "dp", Eps: SynTFGrid, Matched: nans(len(SynTFGrid)), lawKey: "syntf", law: func(env *Env, eps float64) (*expMech, error) {
			return newSynTF(env.Emb, eps)
		}}, true, nil
	case "santext-float":
		// SanText on the float vectors: ε·Euclidean metric DP, the
		// exponential mechanism TEM is without truncation.
		return Spec{Family: "euclidean", Eps: grid, Matched: grid, lawKey: "santext-float", law: func(env *Env, eps float64) (*expMech, error) {
			return newSanTextFloat(env.Emb, eps)
		}}, true, nil
	case "truncgumbel":
		s, err := truncGumbelSpec(env)
		return s, true, err
	}
	return Spec{}, false, nil
}

// TruncGumbelGrid is the truncated Gumbel mechanism's ε grid, in its
// CLAIMED units (ε·Euclidean metric DP). Its calibration gives no
// positive Gumbel scale below floatmech.MinTruncGumbelEpsilon, about
// 2(1 + ln N)/Δmin: 44.5 on the research asset (Δmin = 0.60), above the
// whole Euclidean grid, so the mechanism cannot run there and gets this
// grid instead. Its N_w hardly moves with ε (measured 0.17–0.20 from
// ε = 45 to 1,000: the Poisson number of candidates, not ε, decides
// how often the input survives).
var TruncGumbelGrid = []float64{45, 60, 80, 120, 200, 400}

// truncGumbelSpec runs the truncated Gumbel mechanism at the points of
// TruncGumbelGrid its calibration accepts (on a small vocabulary the
// minimum differs), Matched = ε: its claimed units. The claim does not
// hold: the input's farthest word can never be released while a
// neighbour can release it, so no finite ε covers it
// (floatmech.TruncGumbel); the study measures it as published. No
// accepted grid point is an error.
func truncGumbelSpec(env *Env) (Spec, error) {
	grid := TruncGumbelGrid
	m, err := cachedTruncGumbel(env, grid[len(grid)-1])
	if err != nil {
		return Spec{}, err
	}
	floor := floatmech.MinTruncGumbelEpsilon(env.Emb.Len(), m.P.DMin)
	s := Spec{Family: "euclidean", Pooled: true, build: func(env *Env, eps float64) (sampler, error) {
		return batch(cachedTruncGumbel(env, eps))
	}}
	for _, x := range grid {
		if x > floor {
			s.Eps = append(s.Eps, x)
			s.Matched = append(s.Matched, x)
		}
	}
	if len(s.Eps) == 0 {
		return Spec{}, fmt.Errorf("truncgumbel: no grid ε above its calibration's minimum %.4g", floor)
	}
	return s, nil
}

// cachedTruncGumbel builds the mechanism once per ε per Env: each build
// searches the nearest neighbour of every word (Δmin).
func cachedTruncGumbel(env *Env, eps float64) (*floatmech.TruncGumbel, error) {
	key := fmt.Sprintf("truncgumbel/%v", math.Float64bits(eps))
	if m, ok := env.built.Load(key); ok {
		return m.(*floatmech.TruncGumbel), nil
	}
	m, err := floatmech.NewTruncGumbel(env.Emb, eps)
	if err != nil {
		return nil, err
	}
	got, _ := env.built.LoadOrStore(key, m)
	return got.(*floatmech.TruncGumbel), nil
}
