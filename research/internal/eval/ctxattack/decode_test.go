package ctxattack

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/research/internal/eval/ngram"
)

// tableLM is an LM given by its table: p[prev+2][w] (prev = Unknown is
// row 0, Start row 1).
type tableLM [][]float64

func (t tableLM) LogProb(prev, w int) float64 { return math.Log(t[prev+2][w]) }

// randomLM draws a bigram table over n words: each row a Dirichlet-like
// random distribution, sharpened by power so that transitions matter.
func randomLM(r *rand.Rand, n int, power float64) tableLM {
	t := make(tableLM, n+2)
	for i := range t {
		t[i] = make([]float64, n)
		s := 0.0
		for w := range t[i] {
			t[i][w] = math.Pow(r.Float64()+1e-3, power)
			s += t[i][w]
		}
		for w := range t[i] {
			t[i][w] /= s
		}
	}
	return t
}

// randomLaw draws a law P[w][y] over n words: a diagonal weight keep
// plus random off-diagonal mass.
func randomLaw(r *rand.Rand, n int, keep float64) [][]float64 {
	p := make([][]float64, n)
	for w := range p {
		p[w] = make([]float64, n)
		s := 0.0
		for y := range p[w] {
			p[w][y] = r.Float64()
			s += p[w][y]
		}
		for y := range p[w] {
			p[w][y] = (1 - keep) * p[w][y] / s
		}
		p[w][w] += keep
	}
	return p
}

// enumerate returns the exact MAP sentence over every sentence whose
// words are among each position's candidates (every word when cands is
// nil), its score and the runner-up's score.
func enumerate(lm LM, law [][]float64, ys []int, start int, cands [][]int) (best []int, top, second float64) {
	n := len(law)
	top, second = math.Inf(-1), math.Inf(-1)
	cur := make([]int, len(ys))
	var rec func(i, prev int, s float64)
	rec = func(i, prev int, s float64) {
		if i == len(ys) {
			if s > top {
				top, second, best = s, top, slices.Clone(cur)
			} else if s > second {
				second = s
			}
			return
		}
		words := cands
		var ws []int
		if words == nil {
			for w := range n {
				ws = append(ws, w)
			}
		} else {
			ws = words[i]
		}
		for _, w := range ws {
			cur[i] = w
			rec(i+1, w, s+lm.LogProb(prev, w)+math.Log(law[w][ys[i]]))
		}
	}
	rec(0, start, 0)
	return best, top, second
}

// positions are the candidates of each position (every word when cands
// is nil) with their log law.
func positions(law [][]float64, ys []int, cands [][]int) []Position {
	pos := make([]Position, len(ys))
	for i, y := range ys {
		var ws []int
		if cands == nil {
			for w := range law {
				ws = append(ws, w)
			}
		} else {
			ws = cands[i]
		}
		pos[i].Words = ws
		for _, w := range ws {
			pos[i].LogLaw = append(pos[i].LogLaw, math.Log(law[w][y]))
		}
	}
	return pos
}

type decoder func(pos []Position, lm LM, start int) ([]int, error)

// mapMismatches runs decode on seeded toy cases (vocabularies of 4–6
// words, sentences of 3–4, several LMs and laws, with and without
// pruned candidate sets) and returns a description of each case where
// its sentence is not the enumerated MAP (where the MAP is unique by
// more than 1e-9; otherwise where its score is not the MAP's).
func mapMismatches(t *testing.T, decode decoder) []string {
	t.Helper()
	var bad []string
	r := rand.New(rand.NewPCG(38, 3))
	cases := []struct {
		name        string
		n, length   int
		power, keep float64
		prune       int // candidates per position (0: every word)
		start       int
	}{
		{"flat LM, leaky law", 4, 3, 1, 0.2, 0, ngram.Start},
		{"peaked LM, leaky law", 5, 4, 6, 0.1, 0, ngram.Start},
		{"peaked LM, sticky law", 6, 3, 6, 0.6, 0, ngram.Unknown},
		{"very peaked LM", 4, 4, 12, 0.3, 0, ngram.Start},
		{"pruned to 2", 6, 4, 6, 0.2, 2, ngram.Start},
		{"pruned to 3", 5, 4, 4, 0.3, 3, ngram.Unknown},
	}
	for _, c := range cases {
		for rep := range 40 {
			lm := randomLM(r, c.n, c.power)
			law := randomLaw(r, c.n, c.keep)
			ys := make([]int, c.length)
			for i := range ys {
				ys[i] = r.IntN(c.n)
			}
			var cands [][]int
			if c.prune > 0 {
				cands = make([][]int, c.length)
				for i := range cands {
					cands[i] = r.Perm(c.n)[:c.prune]
				}
			}
			want, top, second := enumerate(lm, law, ys, c.start, cands)
			got, err := decode(positions(law, ys, cands), lm, c.start)
			if err != nil {
				t.Fatalf("%s %d: %v", c.name, rep, err)
			}
			score := 0.0
			prev := c.start
			for i, w := range got {
				score += lm.LogProb(prev, w) + math.Log(law[w][ys[i]])
				prev = w
			}
			switch {
			case top-second > 1e-9 && !slices.Equal(got, want):
				bad = append(bad, fmt.Sprintf("%s %d: decoded %v, MAP %v", c.name, rep, got, want))
			case math.Abs(score-top) > 1e-9:
				bad = append(bad, fmt.Sprintf("%s %d: decoded score %v, MAP's %v", c.name, rep, score, top))
			}
		}
	}
	return bad
}

// The decoder's sentence is the MAP of the enumerated posterior over
// whole sentences.
func TestDecodeIsMAP(t *testing.T) {
	if bad := mapMismatches(t, Decode); len(bad) > 0 {
		t.Errorf("%d mismatches, first: %s", len(bad), bad[0])
	}
}

// unigramLM drops the transition: every word scored as a segment's first.
type unigramLM struct {
	lm    LM
	start int
}

func (u unigramLM) LogProb(_, w int) float64 { return u.lm.LogProb(u.start, w) }

// greedy picks each position's best word given the previous pick: a
// beam of one, not Viterbi.
func greedy(pos []Position, lm LM, start int) ([]int, error) {
	out := make([]int, len(pos))
	prev := start
	for i, p := range pos {
		best := math.Inf(-1)
		for j, w := range p.Words {
			if s := lm.LogProb(prev, w) + p.LogLaw[j]; s > best {
				best, out[i] = s, w
			}
		}
		prev = out[i]
	}
	return out, nil
}

// shiftedBack is Viterbi with an off-by-one in the backtrace: it follows
// the backpointer of the position after the one it fills.
func shiftedBack(pos []Position, lm LM, start int) ([]int, error) {
	score := make([]float64, len(pos[0].Words))
	for j, w := range pos[0].Words {
		score[j] = lm.LogProb(start, w) + pos[0].LogLaw[j]
	}
	back := make([][]int, len(pos))
	for i := 1; i < len(pos); i++ {
		next := make([]float64, len(pos[i].Words))
		back[i] = make([]int, len(pos[i].Words))
		for j, w := range pos[i].Words {
			best := math.Inf(-1)
			for k, v := range pos[i-1].Words {
				if s := score[k] + lm.LogProb(v, w); s > best {
					best, back[i][j] = s, k
				}
			}
			next[j] = best + pos[i].LogLaw[j]
		}
		score = next
	}
	arg := 0
	for j := range score {
		if score[j] > score[arg] {
			arg = j
		}
	}
	out := make([]int, len(pos))
	for i := len(pos) - 1; i >= 0; i-- {
		out[i] = pos[i].Words[arg]
		if i > 1 { // the bug: back[i] is skipped, back[i−1] used
			arg = min(back[i-1][arg%len(back[i-1])], len(pos[i-1].Words)-1)
		} else if i == 1 {
			arg = back[1][arg%len(back[1])]
		}
	}
	return out, nil
}

// The control: broken decoders are caught by the same check.
func TestBrokenDecodersCaught(t *testing.T) {
	broken := map[string]decoder{
		"no transition": func(pos []Position, lm LM, start int) ([]int, error) {
			return Decode(pos, unigramLM{lm, start}, start)
		},
		"greedy":               greedy,
		"off-by-one backtrace": shiftedBack,
	}
	for name, d := range broken {
		if bad := mapMismatches(t, d); len(bad) == 0 {
			t.Errorf("%s: not caught", name)
		} else {
			t.Logf("%s: caught in %d cases, e.g. %s", name, len(bad), bad[0])
		}
	}
}

func TestDecodeInvalid(t *testing.T) {
	lm := tableLM{{1}, {1}, {1}}
	if _, err := Decode([]Position{{Words: []int{0}, LogLaw: []float64{0}}}, nil, ngram.Start); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil LM: %v", err)
	}
	if _, err := Decode([]Position{{}}, lm, ngram.Start); !errors.Is(err, ErrInvalid) {
		t.Errorf("no candidates: %v", err)
	}
	if _, err := Decode([]Position{{Words: []int{0}, LogLaw: []float64{math.Inf(-1)}}}, lm, ngram.Start); !errors.Is(err, ErrInvalid) {
		t.Errorf("impossible sentence: %v", err)
	}
	if got, err := Decode(nil, lm, ngram.Start); err != nil || got != nil {
		t.Errorf("empty: %v %v", got, err)
	}
}
