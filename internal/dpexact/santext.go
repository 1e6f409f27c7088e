package dpexact

import (
	"fmt"
	"math"
)

// SanText is the exact law of SanText, the exponential mechanism over
// every word with utility −d:
//
//	Pr[y | x] = exp(−ε·d(x,y)/2) / Σ_z exp(−ε·d(x,z)/2),
//
// which is TEM with γ = ∞ (no truncation, no ⊥). It is ε·d metric-DP.
// It is computed here directly, not through TEM, so that the sampler
// (which reuses TEM's) is checked against an independent formula. d must
// be square with zero diagonal and finite, non-negative entries; ε finite
// and > 0.
func SanText(d [][]float64, eps float64) ([][]float64, error) {
	return sanText(d, eps, nil, 0.5)
}

// RestrictedSanText is SanText over the allowed outputs A: Pr[y | x] ∝
// exp(−ε·d(x,y)/2) for y ∈ A, 0 elsewhere (the input may be outside A).
// The utility's sensitivity is d over any output set, so it is ε·d
// metric-DP.
func RestrictedSanText(d [][]float64, eps float64, allowed []bool) ([][]float64, error) {
	if allowed == nil {
		return nil, fmt.Errorf("%w: no allowed outputs given", ErrInvalid)
	}
	return sanText(d, eps, allowed, 0.5)
}

// SanTextNoHalf is SanText scored exp(−ε·d) instead of exp(−ε·d/2): the
// exponential mechanism without its factor 1/2, which is only 2ε·d
// metric-DP. A negative control: audited at ε·d it violates wherever a
// word's normalizer is smaller than a neighbour's.
func SanTextNoHalf(d [][]float64, eps float64) ([][]float64, error) {
	return sanText(d, eps, nil, 1)
}

// sanText is Pr[y | x] ∝ exp(−scale·ε·d(x,y)) over the allowed outputs
// (every word for nil allowed). The weights are taken relative to the
// best allowed score of each row, so the nearest allowed word has weight
// 1 and nothing that matters underflows.
func sanText(d [][]float64, eps float64, allowed []bool, scale float64) ([][]float64, error) {
	if err := checkSanText(d, eps); err != nil {
		return nil, err
	}
	n := len(d)
	if err := checkAllowed(allowed, n); err != nil {
		return nil, err
	}
	ok := func(y int) bool { return allowed == nil || allowed[y] }
	P := newMatrix(n)
	for x, row := range d {
		near := math.Inf(1)
		for y, dy := range row {
			if ok(y) {
				near = math.Min(near, dy)
			}
		}
		z := 0.0
		for y, dy := range row {
			if ok(y) {
				P[x][y] = math.Exp(-scale * eps * (dy - near))
				z += P[x][y]
			}
		}
		for y := range P[x] {
			P[x][y] /= z
		}
	}
	return P, nil
}

// SanTextPlus is the exact law of SanText+ with sensitive words S
// (sensitive[w]), sampling probability p for non-sensitive words, and
// allowed outputs A (nil: every word):
//
//	Pr[y | x] = q_x·E_x(y) + (1 − q_x)·[y = x],
//
// where E_x is RestrictedSanText over S ∩ A (the sampled word is always a
// sensitive one, as in the SanText+ paper), q_x = 1 for a sensitive input
// or an input outside A (never released unchanged), and q_x = p for a
// non-sensitive input in A. It is ε·d metric-DP for pairs of sensitive
// words only (audit it with SensitivePairs); a non-sensitive input
// released unchanged is disclosed outright, so with p < 1 it is not
// metric-DP for pairs involving a non-sensitive word.
func SanTextPlus(d [][]float64, eps float64, sensitive []bool, p float64, allowed []bool) ([][]float64, error) {
	return sanTextPlus(d, eps, sensitive, p, allowed, false)
}

// SanTextPlusKeepsSensitive is SanText+ that also releases SENSITIVE
// inputs unchanged with probability 1 − p (every word treated as
// non-sensitive for the keep step): a negative control, it violates the
// guarantee even between sensitive words.
func SanTextPlusKeepsSensitive(d [][]float64, eps float64, sensitive []bool, p float64) ([][]float64, error) {
	return sanTextPlus(d, eps, sensitive, p, nil, true)
}

func sanTextPlus(d [][]float64, eps float64, sensitive []bool, p float64, allowed []bool, keepAll bool) ([][]float64, error) {
	n := len(d)
	if len(sensitive) != n {
		return nil, fmt.Errorf("%w: sensitive set covers %d words, want %d", ErrInvalid, len(sensitive), n)
	}
	if math.IsNaN(p) || p < 0 || p > 1 {
		return nil, fmt.Errorf("%w: p = %v, want in [0, 1]", ErrInvalid, p)
	}
	if err := checkAllowed(allowed, n); err != nil {
		return nil, err
	}
	inA := func(y int) bool { return allowed == nil || allowed[y] }
	out := make([]bool, n) // S ∩ A
	for y := range out {
		out[y] = sensitive[y] && inA(y)
	}
	E, err := RestrictedSanText(d, eps, out)
	if err != nil {
		return nil, err
	}
	for x, row := range E {
		q := 1.0
		if (keepAll || !sensitive[x]) && inA(x) {
			q = p
		}
		for y := range row {
			row[y] *= q
		}
		row[x] += 1 - q
	}
	return E, nil
}

// SensitivePairs is the metric SanText+'s guarantee covers: d(x, x') when
// both x and x' are sensitive, +Inf (unconstrained) for every pair
// involving a non-sensitive word.
func SensitivePairs(d [][]float64, sensitive []bool) ([][]float64, error) {
	if err := checkDistances(d); err != nil {
		return nil, err
	}
	if len(sensitive) != len(d) {
		return nil, fmt.Errorf("%w: sensitive set covers %d words, want %d", ErrInvalid, len(sensitive), len(d))
	}
	return Distances(len(d), func(a, b int) float64 {
		if a == b || sensitive[a] && sensitive[b] {
			return d[a][b]
		}
		return math.Inf(1)
	}), nil
}

// checkSanText: at least one word, distances finite (SanText weighs every
// word, so no pair may be "beyond every radius"), ε valid.
func checkSanText(d [][]float64, eps float64) error {
	if len(d) == 0 {
		return fmt.Errorf("%w: no words", ErrInvalid)
	}
	if err := checkDistances(d); err != nil {
		return err
	}
	for a, row := range d {
		for b, x := range row {
			if math.IsInf(x, 0) {
				return fmt.Errorf("%w: d(%d,%d) = %v, SanText needs every distance", ErrInvalid, a, b, x)
			}
		}
	}
	return checkEps(eps)
}
