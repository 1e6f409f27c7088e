package core

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// DefaultDeniabilityDraws is the number of draws per word of the
// plausible-deniability protocol (docs/MECHANISMS.md).
const DefaultDeniabilityDraws = 100

// WordDeniability is the plausible-deniability estimate for one word.
type WordDeniability struct {
	// Word is the input word id the draws privatized.
	Word int
	// N is the estimate of N_w = Pr[M(w) = w]: the fraction of draws that
	// returned w.
	N float64
	// S is S_w: the number of distinct outputs among the draws.
	S int
}

// Deniability is the protocol's result: per-word estimates and their means.
type Deniability struct {
	// Words holds one estimate per input word, in the caller's order
	// (a word given twice is estimated twice).
	Words []WordDeniability
	// MeanN is the mean of Words[i].N; 0 when Words is empty.
	MeanN float64
	// MeanS is the mean of Words[i].S; 0 when Words is empty.
	MeanS float64
	// Draws is the number of draws made per word (DefaultDeniabilityDraws
	// when the caller asked for ≤ 0).
	Draws int
}

// EstimateDeniability runs the plausible-deniability protocol on any
// Mechanism: draws privatizations of each word in words (a sample the
// caller chose, e.g. with a seeded evaluation source) and reports N_w and
// S_w. draws ≤ 0 means DefaultDeniabilityDraws. Any mechanism error aborts
// the estimate.
func EstimateDeniability(m Mechanism, words []int, draws int, src rand.Source) (Deniability, error) {
	if draws <= 0 {
		draws = DefaultDeniabilityDraws
	}
	res := Deniability{Words: make([]WordDeniability, 0, len(words)), Draws: draws}
	outs := make([]int, draws)
	for _, w := range words {
		same := 0
		for k := range outs {
			y, err := m.Privatize(w, src)
			if err != nil {
				return Deniability{}, fmt.Errorf("deniability: word %d: %w", w, err)
			}
			outs[k] = y
			if y == w {
				same++
			}
		}
		slices.Sort(outs)
		wd := WordDeniability{Word: w, N: float64(same) / float64(draws), S: len(slices.Compact(outs))}
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
