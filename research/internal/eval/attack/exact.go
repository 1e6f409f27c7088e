package attack

import "fmt"

// Rates are top-k recovery rates for k = 1..len(Recovery).
type Rates struct {
	// Recovery[k−1] is R_k = Σ_w prior(w) Σ_y P[w][y]·credit_k(w, y):
	// the chance that the input is among the attacker's k guesses.
	Recovery []float64
	// Baseline[k−1] is the same rate for the attacker who ignores the
	// output and guesses the prior's k most probable words.
	Baseline []float64
}

// Posterior returns P(w | y) = prior(w)·P[w][y] / Σ_v prior(v)·P[v][y]
// for every w: the exact posterior of the input given output y under law
// P (P[w][y] = Pr[M(w) = y], rows summing to 1). An output with zero
// probability under the prior has no posterior: an error.
func Posterior(P [][]float64, prior []float64, y int) ([]float64, error) {
	m, err := NewMatrix(P)
	if err != nil {
		return nil, err
	}
	pr, err := normalize(prior, m.Len())
	if err != nil {
		return nil, err
	}
	col := make([]float64, m.Len())
	if err := m.Column(y, col); err != nil {
		return nil, err
	}
	scoresInto(col, pr, col)
	z := 0.0
	for _, s := range col {
		z += s
	}
	if z == 0 {
		return nil, fmt.Errorf("%w: output %d has probability 0 under this prior", ErrInvalid, y)
	}
	for w := range col {
		col[w] /= z
	}
	return col, nil
}

// Exact returns the exact top-1..top-kmax recovery rates of the
// Bayes-optimal attacker against law P with input prior prior, and the
// prior-only baseline, for k = 1..kmax (kmax in [1, MaxK]). O(N²·kmax)
// time, O(N + kmax) memory besides P.
func Exact(P [][]float64, prior []float64, kmax int) (Rates, error) {
	m, err := NewMatrix(P)
	if err != nil {
		return Rates{}, err
	}
	if err := checkK(kmax); err != nil {
		return Rates{}, err
	}
	pr, err := normalize(prior, m.Len())
	if err != nil {
		return Rates{}, err
	}
	n := m.Len()
	r := Rates{Recovery: make([]float64, kmax), Baseline: make([]float64, kmax)}
	col := make([]float64, n)
	scores := make([]float64, n)
	cr := make([]float64, kmax)
	for y := range n {
		if err := m.Column(y, col); err != nil {
			return Rates{}, err
		}
		scoresInto(scores, pr, col)
		rk := rank(scores, kmax)
		for _, s := range scores {
			if s == 0 {
				continue // prior(w) = 0 or y impossible from w: no mass
			}
			rk.credit(s, cr)
			for k, c := range cr {
				r.Recovery[k] += s * c
			}
		}
	}
	rk := rank(pr, kmax)
	for _, p := range pr {
		rk.credit(p, cr)
		for k, c := range cr {
			r.Baseline[k] += p * c
		}
	}
	return r, nil
}
