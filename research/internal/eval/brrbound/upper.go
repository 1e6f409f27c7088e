package brrbound

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/sample"
)

// ErrInvalid wraps every argument error of this package: nothing here
// panics on bad input.
var ErrInvalid = errors.New("brrbound: invalid argument")

// MaxK is the largest k Upper reports.
const MaxK = 5

// Bound is Upper's result.
type Bound struct {
	// Draws is the number of noisy codes drawn (tokens × reps).
	Draws int
	// Mean[k−1] is the share of draws in which the z-attacker ranks the
	// input word among its k best (ties counted as successes).
	Mean [MaxK]float64
	// Hi[k−1] is Mean[k−1] plus Hoeffding's deviation at δ, capped at 1:
	// an upper confidence bound on every one-word attacker's top-k
	// recovery on the tokens.
	Hi [MaxK]float64
}

// Upper bounds the top-k recovery (k = 1…MaxK) of any attacker who sees
// BRR's released word at per-bit ε eps, for input words drawn from prior
// (weights over codes, normalized here; the attacker may know them): n
// inputs drawn from prior and one noisy code each, from src, with
// confidence 1 − delta (delta in (0, 1)). Tokens counts a text's words
// into such a prior.
func Upper(codes []hamming.Code, eps float64, prior []float64, n int, delta float64, src rand.Source) (Bound, error) {
	switch {
	case len(codes) == 0 || src == nil:
		return Bound{}, fmt.Errorf("%w: no codes or nil source", ErrInvalid)
	case len(prior) != len(codes):
		return Bound{}, fmt.Errorf("%w: prior over %d words, %d codes", ErrInvalid, len(prior), len(codes))
	case !(eps > 0) || math.IsInf(eps, 1):
		return Bound{}, fmt.Errorf("%w: ε = %v, want finite and > 0", ErrInvalid, eps)
	case n < 1 || n > 1<<24:
		return Bound{}, fmt.Errorf("%w: %d draws, want in [1, 2^24]", ErrInvalid, n)
	case !(delta > 0 && delta < 1):
		return Bound{}, fmt.Errorf("%w: δ = %v, want in (0, 1)", ErrInvalid, delta)
	}
	// The candidates: the words with a positive prior (the others never
	// rank above one, their log-prior being −∞), with the cumulative
	// weights inputs are drawn from.
	var cand []int
	var cum []float64
	total := 0.0
	for w, p := range prior {
		if !(p >= 0) || math.IsInf(p, 1) {
			return Bound{}, fmt.Errorf("%w: prior(%d) = %v", ErrInvalid, w, p)
		}
		if p > 0 {
			total += p
			cand, cum = append(cand, w), append(cum, total)
		}
	}
	if !(total > 0) || math.IsInf(total, 1) {
		return Bound{}, fmt.Errorf("%w: prior sums to %v", ErrInvalid, total)
	}
	cc := make([]hamming.Code, len(cand))
	lp := make([]float64, len(cand))
	for i, w := range cand {
		cc[i], lp[i] = codes[w], math.Log(prior[w])
	}
	q := 1 / (1 + math.Exp(eps))
	thresh := sample.BernoulliThreshold(q)
	per := math.Log((1 - q) / q) // the log-likelihood lost per differing bit
	var hits [MaxK]int
	for range n {
		// The input: the first candidate whose cumulative weight
		// exceeds a uniform draw in (0, total).
		u := sample.UniformOpen(src) * total
		me := min(sort.SearchFloat64s(cum, u), len(cand)-1)
		z := cc[me]
		for i := range z {
			z[i] ^= sample.Mask64(src, thresh)
		}
		// A candidate whose score equals the input word's up to rounding
		// counts as tied, in the input word's favour.
		own := lp[me] - float64(hamming.Distance(z, cc[me]))*per
		own += 1e-9 * (1 + math.Abs(own))
		above := 0 // candidates scoring strictly above the input word
		for i, c := range cc {
			if lp[i]-float64(hamming.Distance(z, c))*per > own {
				if above++; above >= MaxK {
					break
				}
			}
		}
		for k := above; k < MaxK; k++ {
			hits[k]++
		}
	}
	b := Bound{Draws: n}
	dev := math.Sqrt(math.Log(1/delta) / (2 * float64(n)))
	for k := range MaxK {
		b.Mean[k] = float64(hits[k]) / float64(n)
		b.Hi[k] = min(1, b.Mean[k]+dev)
	}
	return b, nil
}

// Tokens returns the prior of a text's tokens (ids in [0, n)): each
// word's count.
func Tokens(tokens []int, n int) ([]float64, error) {
	prior := make([]float64, n)
	for i, w := range tokens {
		if w < 0 || w >= n {
			return nil, fmt.Errorf("%w: token %d is word %d, outside [0, %d)", ErrInvalid, i, w, n)
		}
		prior[w]++
	}
	return prior, nil
}
