package study

import (
	"fmt"
	"math/rand/v2"
)

// Kept is the token-weighted counterpart of N_w for one spec and grid
// index: the share of the corpus's in-vocabulary tokens that one
// privatization of the corpus leaves unchanged. N_w averages over words
// drawn uniformly from the vocabulary, so it weighs a rare word like a
// frequent one; Kept weighs each word by how often the text uses it. The
// two differ most for a mechanism restricted to the frequent words: it
// can never release a rare word unchanged (N_w counts that fully) but may
// keep the frequent ones (most of the text) more often.
type Kept struct {
	Mechanism string
	Epsilon   float64
	Share     float64 // in [0, 1]
	Tokens    int     // in-vocabulary tokens of the corpus
}

// KeptShares privatizes c once with every grid point of each spec (fresh
// draws, no pool; the seeded stream of label "kept/NAME/e") and returns
// Kept per (spec, grid index), in order.
func KeptShares(env *Env, c *Corpus, specs []Spec, seed uint64) ([]Kept, error) {
	n := env.Asset.Len()
	var out []Kept
	for i := range specs {
		s := &specs[i]
		for e := range s.Eps {
			smp, err := s.Build(env, e)
			if err != nil {
				return nil, fmt.Errorf("%s ε#%d: %w", s.Name, e, err)
			}
			var src rand.Source = source(seed, fmt.Sprintf("kept/%s/%d", s.Name, e))
			priv, _, err := privatizeCorpus(c, smp, 0, n, src)
			if err != nil {
				return nil, fmt.Errorf("%s ε#%d: %w", s.Name, e, err)
			}
			k := Kept{Mechanism: s.Name, Epsilon: s.Eps[e]}
			for _, w := range c.Types {
				for _, p := range c.Positions[w] {
					k.Tokens++
					if priv[p] == int32(w) {
						k.Share++
					}
				}
			}
			if k.Tokens > 0 {
				k.Share /= float64(k.Tokens)
			}
			out = append(out, k)
		}
	}
	return out, nil
}
