package dpexact

import "fmt"

// The laws below restrict a mechanism to an output vocabulary A, given as
// allowed[y] for every word y (len(allowed) = N, at least one true): the
// input may be any word, only outputs are restricted.

// RestrictedBRR is the exact law of BRR restricted to A: the noisy code as
// in BRR, then a nearest ALLOWED code to it, ties broken uniformly among
// the allowed minimizers. It is post-processing of the noisy code, so it
// is ε·Hamming metric-DP. Arguments as BRR's.
func RestrictedBRR(codes []uint64, L int, eps float64, allowed []bool) ([][]float64, error) {
	if allowed == nil {
		return nil, fmt.Errorf("%w: no allowed outputs given", ErrInvalid)
	}
	return brr(codes, L, eps, allowed, false)
}

// RestrictedTEM is the exact law of TEM restricted to A, the exponential
// mechanism over A with utility −min(d(w,y), γ):
//
//	Pr[y] ∝ exp(−ε·d(w,y)/2)                 for y ∈ A ∩ L_w,
//	Pr[⊥] ∝ |A \ L_w|·exp(−ε·γ/2),  ⊥ then uniform over A \ L_w,
//
// and 0 outside A. The utility's sensitivity is d over any output set, so
// it is ε·d metric-DP. Arguments as TEM's.
func RestrictedTEM(d [][]float64, gamma, eps float64, allowed []bool) ([][]float64, error) {
	if allowed == nil {
		return nil, fmt.Errorf("%w: no allowed outputs given", ErrInvalid)
	}
	return tem(d, gamma, eps, allowed, lnOutside)
}

// RestrictedDiffractorGeometric is the exact law of 1-DG restricted to A:
// a list chosen uniformly, the clamped noisy position as in
// DiffractorGeometric, then the nearest position holding an allowed word,
// the lower of two at the same distance. It is post-processing of the
// noisy position, so it is ε·max_i d_πi metric-DP.
func RestrictedDiffractorGeometric(pos [][]int, eps float64, allowed []bool) ([][]float64, error) {
	if err := checkLists(pos); err != nil {
		return nil, err
	}
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	if err := checkRestriction(allowed, len(pos[0])); err != nil {
		return nil, err
	}
	Ps := make([][][]float64, len(pos))
	for l, p := range pos {
		Ps[l] = pushToAllowed(geometricList(p, eps), p, allowed)
	}
	return Mixture(Ps...)
}

// RestrictedDiffractorTEM is the exact law of 1-DT restricted to A: a list
// chosen uniformly, then RestrictedTEM with d(w, w') = |pos[w] − pos[w']|.
func RestrictedDiffractorTEM(pos [][]int, gamma, eps float64, allowed []bool) ([][]float64, error) {
	if err := checkLists(pos); err != nil {
		return nil, err
	}
	Ps := make([][][]float64, len(pos))
	for l, p := range pos {
		d, err := ListDistances(p)
		if err != nil {
			return nil, err
		}
		if Ps[l], err = RestrictedTEM(d, gamma, eps, allowed); err != nil {
			return nil, err
		}
	}
	return Mixture(Ps...)
}

// Redraw is the law of "draw from P until the output is allowed": each row
// of P conditioned on A, P(y|w)/P(A|w) for y ∈ A. For the TEM family it
// equals the restricted law (TEM's law is the exponential mechanism with
// utility −min(d, γ) over W, and conditioning it on A gives the same
// mechanism over A). For BRR and 1-DG it is NOT their restricted law and
// not ε·d metric-DP in general: P(A|w) depends on w, so the ratio can
// reach e^(2ε·d). A negative control. Every row must give A positive
// probability.
func Redraw(P [][]float64, allowed []bool) ([][]float64, error) {
	if err := checkSquare("distribution", P); err != nil {
		return nil, err
	}
	if err := checkRestriction(allowed, len(P)); err != nil {
		return nil, err
	}
	R := newMatrix(len(P))
	for w, row := range P {
		z := 0.0
		for y, p := range row {
			if !(p >= 0) || p > 1 {
				return nil, fmt.Errorf("%w: P(%d|%d) = %v", ErrInvalid, y, w, p)
			}
			if allowed[y] {
				z += p
			}
		}
		if z == 0 {
			return nil, fmt.Errorf("%w: input %d never releases an allowed word", ErrInvalid, w)
		}
		for y, p := range row {
			if allowed[y] {
				R[w][y] = p / z
			}
		}
	}
	return R, nil
}

// pushToAllowed moves the mass of every position of a one-list law P
// (pos[w] = word w's position) to the nearest position holding an allowed
// word, the lower one on a tie.
func pushToAllowed(P [][]float64, pos []int, allowed []bool) [][]float64 {
	n := len(pos)
	order := make([]int, n)
	for w, p := range pos {
		order[p] = w
	}
	target := make([]int, n) // position → word it is released as
	for t := range n {
		for k := 0; ; k++ {
			if lo := t - k; lo >= 0 && allowed[order[lo]] {
				target[t] = order[lo]
				break
			}
			if hi := t + k; hi < n && allowed[order[hi]] {
				target[t] = order[hi]
				break
			}
		}
	}
	R := newMatrix(n)
	for w, row := range P {
		for y, p := range row {
			R[w][target[pos[y]]] += p
		}
	}
	return R
}

// checkAllowed accepts nil (every word allowed) or a restriction.
func checkAllowed(allowed []bool, n int) error {
	if allowed == nil {
		return nil
	}
	return checkRestriction(allowed, n)
}

// checkRestriction checks that allowed covers n words and allows one.
func checkRestriction(allowed []bool, n int) error {
	if len(allowed) != n {
		return fmt.Errorf("%w: allowed outputs cover %d words, want %d", ErrInvalid, len(allowed), n)
	}
	for _, ok := range allowed {
		if ok {
			return nil
		}
	}
	return fmt.Errorf("%w: no allowed output", ErrInvalid)
}
