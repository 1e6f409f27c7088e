package core

import (
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/deniability"
	"github.com/wordveil/wordveil/internal/sample"
)

// Deniability is an estimate of plausible deniability (docs/MECHANISMS.md):
// N_w, the chance that word w is released unchanged, and S_w, the number
// of distinct outputs among the draws.
type Deniability struct {
	MeanN float64 // the mean of N_w over the sampled words
	MeanS float64 // the mean of S_w over the sampled words
	Words int     // words sampled (uniformly, with repeats): those asked, or the vocabulary size if smaller
	Draws int     // privatizations of each sampled word
}

// Bounds of Deniability's arguments: the work is words·draws draws.
const (
	maxDeniabilityWords = 10000
	maxDeniabilityDraws = 10000
	maxDeniabilityWork  = 1000000
)

// Deniability measures p's mechanism on words random vocabulary words,
// draws privatizations each (1 ≤ words ≤ 10,000, 1 ≤ draws ≤ 10,000,
// words·draws ≤ 1,000,000; else ErrInvalidConfig).
func (p *Privatizer) Deniability(words, draws int) (d Deniability, err error) {
	defer func() { err = classify(err) }()
	if words < 1 || words > maxDeniabilityWords || draws < 1 || draws > maxDeniabilityDraws ||
		words*draws > maxDeniabilityWork { // both ≤ 10^4 here: the product cannot overflow
		return Deniability{}, invalid("words %d and draws %d must be in [1, %d] with words·draws ≤ %d",
			words, draws, maxDeniabilityWords, maxDeniabilityWork)
	}
	h, err := p.enter()
	if err != nil {
		return Deniability{}, err
	}
	defer p.life.RUnlock()
	err = p.withSource(func(src rand.Source) error {
		n := h.info.VocabularySize
		ids := make([]int, min(words, n))
		for i := range ids {
			ids[i] = sample.UniformInt(src, n)
		}
		est, err := deniability.Estimate(h.mech, ids, draws, src)
		d = Deniability{MeanN: est.MeanN, MeanS: est.MeanS, Words: len(ids), Draws: draws}
		return err
	})
	return d, err
}
