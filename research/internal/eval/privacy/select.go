package privacy

import (
	"errors"
	"fmt"
	"math"
)

// Select solves the paper's Eq. (5) over a finite candidate set: among the
// candidates with UtilityLoss < maxLoss it returns the one with the largest
// InferenceError (ties: smaller Epsilon, then earlier in candidates). ok is
// false when no candidate meets the constraint.
func Select(candidates []Empirical, maxLoss float64) (best Empirical, ok bool) {
	for _, c := range candidates {
		if !(c.UtilityLoss < maxLoss) || math.IsNaN(c.InferenceError) {
			continue
		}
		if !ok || c.InferenceError > best.InferenceError ||
			(c.InferenceError == best.InferenceError && c.Epsilon < best.Epsilon) {
			best, ok = c, true
		}
	}
	return best, ok
}

// ErrInfeasible: Algorithm2 found no ε meeting the utility constraint.
var ErrInfeasible = errors.New("privacy: no parameters meet the utility-loss bound")

// VickreyTs is Algorithm 2's grid of t: 0.05, 0.1, …, 1.
func VickreyTs() []float64 {
	ts := make([]float64, 20)
	for k := range ts {
		ts[k] = float64(k+1) / 20
	}
	return ts
}

// Algorithm2 is the Vickrey paper's Algorithm 2 (empirical parameter
// selection), a search over (ε, t), not a full grid:
//
//  1. ε = eps0, t = 0; while L(ε, 0) ≥ maxLoss, double ε (at most
//     maxDoublings times, else ErrInfeasible);
//  2. E_max = E(ε, 0), t_opt = 0;
//  3. for t in ts (the paper: VickreyTs), at that same ε: if L(ε, t) <
//     maxLoss and E(ε, t) > E_max, take t.
//
// The paper's line 7 tests L ≤ C while line 3 and Eq. (5) use L < C; this
// uses < throughout. measure returns the point for (ε, t), e.g. by building
// the Vickrey mechanism and calling Measure; Algorithm2 sets Params["t"]
// when measure leaves it unset. It returns the chosen point and every
// point measured, in order.
func Algorithm2(eps0 float64, ts []float64, maxLoss float64, maxDoublings int, measure func(eps, t float64) (Empirical, error)) (Empirical, []Empirical, error) {
	if !(eps0 > 0) || math.IsInf(eps0, 0) {
		return Empirical{}, nil, fmt.Errorf("privacy: Algorithm2: invalid eps0 %v", eps0)
	}
	var tried []Empirical
	run := func(eps, t float64) (Empirical, error) {
		e, err := measure(eps, t)
		if err != nil {
			return Empirical{}, fmt.Errorf("privacy: Algorithm2: ε=%v t=%v: %w", eps, t, err)
		}
		if _, set := e.Params["t"]; !set {
			p := make(map[string]float64, len(e.Params)+1)
			for k, v := range e.Params {
				p[k] = v
			}
			p["t"] = t
			e.Params = p
		}
		tried = append(tried, e)
		return e, nil
	}
	eps := eps0
	cur, err := run(eps, 0)
	if err != nil {
		return Empirical{}, tried, err
	}
	for d := 0; !(cur.UtilityLoss < maxLoss); d++ {
		if d == maxDoublings {
			return Empirical{}, tried, fmt.Errorf("%w: L=%v at ε=%v after %d doublings", ErrInfeasible, cur.UtilityLoss, eps, d)
		}
		eps *= 2
		if cur, err = run(eps, 0); err != nil {
			return Empirical{}, tried, err
		}
	}
	best := cur
	for _, t := range ts {
		c, err := run(eps, t)
		if err != nil {
			return Empirical{}, tried, err
		}
		if c.UtilityLoss < maxLoss && c.InferenceError > best.InferenceError {
			best = c
		}
	}
	return best, tried, nil
}
