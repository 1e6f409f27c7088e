package attack

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Sampler is a mechanism's sampler: internal/mechanism.Mechanism
// satisfies it.
type Sampler interface {
	Privatize(w int, src rand.Source) (int, error)
	Len() int
}

// Interval is a rate with its 95% confidence interval.
type Interval struct{ Rate, Lo, Hi float64 }

// Sampled are top-k recovery rates measured on a token stream, k =
// 1..len(Recovery).
type Sampled struct {
	// Tokens is the number of tokens privatized and attacked.
	Tokens int
	// Kept is the share of tokens released unchanged (output = input),
	// from the same draws the attacker saw.
	Kept Interval
	// Recovery[k−1] is the attacker's mean top-k credit over the tokens.
	Recovery []Interval
	// Baseline[k−1] is the mean top-k credit of the prior's k most
	// probable words, the output ignored.
	Baseline []Interval
}

// Attack privatizes every token (a word id) once with m, drawing from
// src in token order, and scores the Bayes-optimal attacker who knows
// the law (law's columns) and the prior: for each output y its
// top-1..top-kmax guesses by prior(w)·P[w][y], with the fractional
// credit of Exact, so that the mean credit estimates Exact's R_k. It
// also reports the share of tokens released unchanged. Confidence
// intervals are Wilson's at 95% (see Wilson). kmax is in [1, MaxK].
//
// The guesses for an output depend on that output only, so the tokens
// are grouped by output and each distinct output's column is computed
// and ranked once: the cost is, per distinct output, the Column's plus
// O(N·kmax) to rank, and O(kmax) per token; memory O(tokens·kmax).
// Credits are summed in token order, so the result is that of attacking
// the tokens one by one.
func Attack(tokens []int, m Sampler, src rand.Source, law Column, prior []float64, kmax int) (Sampled, error) {
	if m == nil || law == nil || src == nil {
		return Sampled{}, fmt.Errorf("%w: nil sampler, law or source", ErrInvalid)
	}
	n := law.Len()
	if m.Len() != n {
		return Sampled{}, fmt.Errorf("%w: sampler over %d words, law over %d", ErrInvalid, m.Len(), n)
	}
	if len(tokens) == 0 {
		return Sampled{}, fmt.Errorf("%w: no tokens", ErrInvalid)
	}
	if err := checkK(kmax); err != nil {
		return Sampled{}, err
	}
	pr, err := normalize(prior, n)
	if err != nil {
		return Sampled{}, err
	}
	for i, w := range tokens {
		if w < 0 || w >= n {
			return Sampled{}, fmt.Errorf("%w: token %d is word %d, outside [0, %d)", ErrInvalid, i, w, n)
		}
	}
	outs := make([]int, len(tokens))
	kept := 0
	for i, w := range tokens {
		y, err := m.Privatize(w, src)
		if err != nil {
			return Sampled{}, err
		}
		if y < 0 || y >= n {
			return Sampled{}, fmt.Errorf("%w: the sampler released %d, outside [0, %d)", ErrInvalid, y, n)
		}
		outs[i] = y
		if y == w {
			kept++
		}
	}
	order := make([]int, len(tokens)) // token indices grouped by output
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(outs[a], outs[b]) })
	credits := make([]float64, len(tokens)*kmax) // token i's at [i·kmax, (i+1)·kmax)
	col, scores := make([]float64, n), make([]float64, n)
	for lo := 0; lo < len(order); {
		y := outs[order[lo]]
		hi := lo + 1
		for hi < len(order) && outs[order[hi]] == y {
			hi++
		}
		if err := law.Column(y, col); err != nil {
			return Sampled{}, err
		}
		scoresInto(scores, pr, col)
		rk := rank(scores, kmax)
		for _, i := range order[lo:hi] {
			rk.credit(scores[tokens[i]], credits[i*kmax:(i+1)*kmax])
		}
		lo = hi
	}
	rec, base, cr := make([]float64, kmax), make([]float64, kmax), make([]float64, kmax)
	baseRank := rank(pr, kmax)
	for i, w := range tokens {
		for k, c := range credits[i*kmax : (i+1)*kmax] {
			rec[k] += c
		}
		baseRank.credit(pr[w], cr)
		for k, c := range cr {
			base[k] += c
		}
	}
	s := Sampled{Tokens: len(tokens), Kept: Wilson(float64(kept), len(tokens)),
		Recovery: make([]Interval, kmax), Baseline: make([]Interval, kmax)}
	for k := range kmax {
		s.Recovery[k] = Wilson(rec[k], len(tokens))
		s.Baseline[k] = Wilson(base[k], len(tokens))
	}
	return s, nil
}

// z95 is the standard normal's 0.975 quantile.
const z95 = 1.959963984540054

// Wilson is the rate successes/n with Wilson's 95% score interval.
// successes may be fractional (a sum of credits in [0, 1]): a variable
// in [0, 1] with mean m has variance at most m(1−m), the Bernoulli's, so
// the interval is then conservative. n < 1 gives the vacuous [0, 1].
func Wilson(successes float64, n int) Interval { return wilson(successes, n, z95) }

// wilson is Wilson's score interval at the normal quantile z.
func wilson(successes float64, n int, z float64) Interval {
	if n < 1 {
		return Interval{Rate: math.NaN(), Lo: 0, Hi: 1}
	}
	nf := float64(n)
	p := math.Min(1, math.Max(0, successes/nf))
	z2 := z * z
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return Interval{Rate: p, Lo: math.Max(0, centre-half), Hi: math.Min(1, centre+half)}
}
