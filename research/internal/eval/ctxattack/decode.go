package ctxattack

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalid wraps every argument error of this package.
var ErrInvalid = errors.New("ctxattack: invalid argument")

// LM is the attacker's sentence prior: log P(w | prev), prev the word
// before or the context of a segment's first word (ngram.Start,
// ngram.Unknown). *ngram.Bigram satisfies it.
type LM interface {
	LogProb(prev, w int) float64
}

// Position is what the attacker keeps of one released word: its
// candidate inputs and, for each, log P[w][y], the law's log
// probability of releasing the observed y from that input.
type Position struct {
	Words  []int
	LogLaw []float64
}

// Decode returns the most probable input sentence given the released
// one, over the candidates of each position: the words w_1…w_n
// maximizing log LM(w_1 | start) + Σ log LM(w_i | w_{i−1}) + Σ LogLaw,
// by Viterbi (O(n·K²) LM lookups for K candidates a position). Among
// equal scores it keeps the earlier candidate at each step. A position
// without candidates, mismatched lengths, or no sentence of finite
// score are errors.
func Decode(pos []Position, lm LM, start int) ([]int, error) {
	if lm == nil {
		return nil, fmt.Errorf("%w: nil language model", ErrInvalid)
	}
	for i, p := range pos {
		if len(p.Words) == 0 || len(p.Words) != len(p.LogLaw) {
			return nil, fmt.Errorf("%w: position %d has %d candidates and %d law entries", ErrInvalid, i, len(p.Words), len(p.LogLaw))
		}
	}
	if len(pos) == 0 {
		return nil, nil
	}
	// score[j]: the best log probability of a prefix ending in candidate
	// j of the current position; back[i][j] its predecessor's index.
	score := make([]float64, len(pos[0].Words))
	for j, w := range pos[0].Words {
		score[j] = lm.LogProb(start, w) + pos[0].LogLaw[j]
	}
	back := make([][]int, len(pos))
	for i := 1; i < len(pos); i++ {
		prev, cur := pos[i-1], pos[i]
		next := make([]float64, len(cur.Words))
		back[i] = make([]int, len(cur.Words))
		for j, w := range cur.Words {
			best, arg := math.Inf(-1), -1
			for k, v := range prev.Words {
				if s := score[k] + lm.LogProb(v, w); s > best {
					best, arg = s, k
				}
			}
			next[j], back[i][j] = best+cur.LogLaw[j], arg
		}
		score = next
	}
	best, arg := math.Inf(-1), -1
	for j, s := range score {
		if s > best {
			best, arg = s, j
		}
	}
	if arg < 0 || math.IsInf(best, -1) || math.IsNaN(best) {
		return nil, fmt.Errorf("%w: no sentence has a positive probability", ErrInvalid)
	}
	out := make([]int, len(pos))
	for i := len(pos) - 1; i >= 0; i-- {
		out[i] = pos[i].Words[arg]
		if i > 0 {
			arg = back[i][arg]
		}
	}
	return out, nil
}
