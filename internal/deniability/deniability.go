// Package deniability measures plausible deniability, the empirical privacy
// statistic of word-level mechanisms: for a word w, N_w = Pr[M(w) = w], the
// chance that it is released unchanged, and S_w, the number of distinct
// outputs in a fixed number of draws (docs/MECHANISMS.md, "Plausible
// deniability").
//
// It estimates by sampling and guarantees nothing about privacy: N_w and
// S_w describe what an observer sees on average, not the worst case that a
// mechanism's ε bounds. Estimates are exact counts of the draws made; their
// sampling error is the caller's to report (about sqrt(N(1−N)/draws) per
// word).
package deniability

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/wordveil/wordveil/internal/mechanism"
)

// DefaultDraws is the number of draws per word of the
// plausible-deniability protocol (docs/MECHANISMS.md).
const DefaultDraws = 100

// Word is the plausible-deniability estimate for one word.
type Word struct {
	// Word is the input word id the draws privatized.
	Word int
	// N is the estimate of N_w = Pr[M(w) = w]: the fraction of draws that
	// returned w.
	N float64
	// S is S_w: the number of distinct outputs among the draws.
	S int
}

// Result is the protocol's result: per-word estimates and their means.
type Result struct {
	// Words holds one estimate per input word, in the caller's order
	// (a word given twice is estimated twice).
	Words []Word
	// MeanN is the mean of Words[i].N; 0 when Words is empty.
	MeanN float64
	// MeanS is the mean of Words[i].S; 0 when Words is empty.
	MeanS float64
	// Draws is the number of draws made per word (DefaultDraws
	// when the caller asked for ≤ 0).
	Draws int
}

// Estimate runs the plausible-deniability protocol on any
// Mechanism: draws privatizations of each word in words (a sample the
// caller chose, e.g. with a seeded evaluation source) and reports N_w and
// S_w. draws ≤ 0 means DefaultDraws. Any mechanism error aborts
// the estimate.
func Estimate(m mechanism.Mechanism, words []int, draws int, src rand.Source) (Result, error) {
	if draws <= 0 {
		draws = DefaultDraws
	}
	res := Result{Words: make([]Word, 0, len(words)), Draws: draws}
	outs := make([]int, draws)
	for _, w := range words {
		same := 0
		for k := range outs {
			y, err := m.Privatize(w, src)
			if err != nil {
				return Result{}, fmt.Errorf("deniability: word %d: %w", w, err)
			}
			outs[k] = y
			if y == w {
				same++
			}
		}
		slices.Sort(outs)
		wd := Word{Word: w, N: float64(same) / float64(draws), S: len(slices.Compact(outs))}
		res.Words = append(res.Words, wd)
		res.MeanN += wd.N
		res.MeanS += float64(wd.S)
	}
	if len(words) > 0 {
		res.MeanN /= float64(len(words))
		res.MeanS /= float64(len(words))
	}
	return res, nil
}
