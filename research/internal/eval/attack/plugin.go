package attack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// MaxPlugInDraws bounds the training draws per word of NewPlugIn, so that
// counts fit in int32 and a mistaken setting fails instead of running for
// hours.
const MaxPlugInDraws = 1 << 24

// PlugIn is a sampled plug-in Column, for mechanisms whose law has no
// closed form per entry (BRR): the attacker's training. For each word w of
// a training list it draws D outputs from the real sampler and estimates
//
//	P̂[w][y] = (count_w(y) + α·F[w][y]) / (D + α),
//
// F a fallback law (its rows sum to 1, so do P̂'s), α > 0 its weight; for
// every other word P̂[w][y] = F[w][y]. P̂ is a law, so the attacker who
// ranks by prior(w)·P̂[w][y] is a valid attacker: an actual strategy that
// needs nothing but the sampler, the prior and the fallback. It is not the
// Bayes-optimal one (P̂ is not P), so on tokens drawn from the prior its
// rate is at most R_k, and on any text its measured rate is a LOWER bound
// on what the best attacker recovers from that text. As D grows, P̂[w][·]
// converges to P[w][·] for every trained word.
//
// A column costs the fallback's plus O(T) for the T trained words.
type PlugIn struct {
	fallback Column
	draws    int
	alpha    float64
	trained  []int         // ascending
	hits     map[int][]hit // output y → trained words that released it
}

type hit struct{ w, count int32 }

// NewPlugIn trains the plug-in column: draws outputs of m for each word
// of train (ids in [0, N), duplicates ignored), drawn from src in train's
// order, smoothed by fallback (over the same N words) with weight alpha
// (finite, > 0). draws is in [1, MaxPlugInDraws].
func NewPlugIn(m Sampler, src rand.Source, train []int, draws int, fallback Column, alpha float64) (*PlugIn, error) {
	if m == nil || src == nil || fallback == nil {
		return nil, fmt.Errorf("%w: nil sampler, source or fallback", ErrInvalid)
	}
	n := fallback.Len()
	if n == 0 || m.Len() != n {
		return nil, fmt.Errorf("%w: sampler over %d words, fallback over %d", ErrInvalid, m.Len(), n)
	}
	if draws < 1 || draws > MaxPlugInDraws {
		return nil, fmt.Errorf("%w: %d draws per word, want in [1, %d]", ErrInvalid, draws, MaxPlugInDraws)
	}
	if !(alpha > 0) || math.IsInf(alpha, 1) {
		return nil, fmt.Errorf("%w: fallback weight α = %v, want finite and > 0", ErrInvalid, alpha)
	}
	p := &PlugIn{fallback: fallback, draws: draws, alpha: alpha, hits: map[int][]hit{}}
	seen := make(map[int]bool, len(train))
	outs := make([]int, draws)
	for _, w := range train {
		if w < 0 || w >= n {
			return nil, fmt.Errorf("%w: training word %d outside [0, %d)", ErrInvalid, w, n)
		}
		if seen[w] {
			continue
		}
		seen[w] = true
		p.trained = append(p.trained, w)
		for i := range outs {
			y, err := m.Privatize(w, src)
			if err != nil {
				return nil, err
			}
			if y < 0 || y >= n {
				return nil, fmt.Errorf("%w: the sampler released %d, outside [0, %d)", ErrInvalid, y, n)
			}
			outs[i] = y
		}
		slices.Sort(outs)
		for lo := 0; lo < len(outs); {
			hi := lo + 1
			for hi < len(outs) && outs[hi] == outs[lo] {
				hi++
			}
			p.hits[outs[lo]] = append(p.hits[outs[lo]], hit{int32(w), int32(hi - lo)})
			lo = hi
		}
	}
	slices.Sort(p.trained)
	return p, nil
}

// Len is N.
func (p *PlugIn) Len() int {
	if p == nil {
		return 0
	}
	return p.fallback.Len()
}

// Trained is the number of trained words.
func (p *PlugIn) Trained() int {
	if p == nil {
		return 0
	}
	return len(p.trained)
}

// Column writes P̂[w][y] for every w.
func (p *PlugIn) Column(y int, dst []float64) error {
	if err := checkColumn(y, dst, p.Len()); err != nil {
		return err
	}
	if err := p.fallback.Column(y, dst); err != nil {
		return err
	}
	den := float64(p.draws) + p.alpha
	for _, w := range p.trained {
		dst[w] = p.alpha * dst[w] / den
	}
	for _, h := range p.hits[y] {
		dst[h.w] += float64(h.count) / den
	}
	return nil
}
