package brrbound

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Sampler is what Law needs of a mechanism: its release of a word.
type Sampler interface {
	Privatize(w int, src rand.Source) (int, error)
	Len() int
}

// Law is a Monte Carlo estimate of a mechanism's law Pr[M(x) = y] for
// some input words: two independent halves of draws per word, one to fit
// an attacker on and one to measure it with.
type Law struct {
	n     int   // vocabulary size
	words []int // the estimated input words, distinct
	draws int   // draws per word in each half
	// half[h][i] counts the outputs of words[i] in half h.
	half [2][]map[int]int32
}

// EstimateLaw draws 2·draws outputs of m for each of words (distinct ids
// in [0, m.Len())), from src in words' order, draws in [1, 2^20].
func EstimateLaw(m Sampler, words []int, draws int, src rand.Source) (*Law, error) {
	if m == nil || src == nil || m.Len() < 1 || len(words) == 0 {
		return nil, fmt.Errorf("%w: nil sampler or source, or no words", ErrInvalid)
	}
	if draws < 1 || draws > 1<<20 {
		return nil, fmt.Errorf("%w: %d draws per half, want in [1, 2^20]", ErrInvalid, draws)
	}
	l := &Law{n: m.Len(), words: make([]int, 0, len(words)), draws: draws}
	seen := map[int]bool{}
	for _, w := range words {
		if w < 0 || w >= l.n || seen[w] {
			return nil, fmt.Errorf("%w: word %d outside [0, %d) or repeated", ErrInvalid, w, l.n)
		}
		seen[w] = true
		l.words = append(l.words, w)
		for h := range l.half {
			c := map[int]int32{}
			for range draws {
				y, err := m.Privatize(w, src)
				if err != nil {
					return nil, err
				}
				if y < 0 || y >= l.n {
					return nil, fmt.Errorf("%w: output %d outside [0, %d)", ErrInvalid, y, l.n)
				}
				c[y]++
			}
			l.half[h] = append(l.half[h], c)
		}
	}
	return l, nil
}

// Interval is Bounds' result: the best one-word attacker's top-1
// recovery, for inputs drawn from the prior, lies in [Lo, Hi] with
// probability at least 1 − 2δ.
type Interval struct {
	Lo, Hi float64
	// Fitted is the fitted attacker's measured recovery (before the
	// deviation is subtracted) and PlugIn the plug-in optimum on all the
	// draws (before the deviation and the tail are added).
	Fitted, PlugIn float64
	// Mass is the prior's share of the estimated words; the rest (the
	// tail) is added to Hi whole.
	Mass float64
}

// Bounds bounds the Bayes-optimal top-1 recovery R* = Σ_y max_x π(x)·P(y|x)
// for prior π (weights over the vocabulary, normalized here) at
// confidence 1 − delta on each side.
//
// Lo: the attacker g(y) = argmax over the estimated words x of
// π(x)·P̂₀(y|x), fitted on the first half of the draws (the echo, g(y) = y,
// where no estimated word produced y), is measured on the second half:
// Σ_x π(x)·P̂₁(g(Y) = x | x), an unbiased estimate of its recovery on the
// estimated words (the tail's inputs count 0: a lower bound). Each draw
// moves it by at most π(x)/D, so Hoeffding subtracts
// sqrt(ln(1/δ)·Σ_x π(x)²/(2D)).
//
// Hi: V(P) = Σ_y max_x π(x)·P(y|x) over the estimated words is convex in
// P, so E[V(P̂)] ≥ V(P) for the unbiased P̂ of all 2D draws (Jensen): the
// plug-in optimum is biased upwards, never downwards. One draw moves
// V(P̂) by at most π(x)/(2D) (its mass leaves one output and joins
// another), so McDiarmid adds sqrt(ln(1/δ)·Σ_x π(x)²/(4D)). The words
// not estimated add at most their prior mass (each input word is
// recovered at most always).
func (l *Law) Bounds(prior []float64, delta float64) (Interval, error) {
	if l == nil || len(prior) != l.n {
		return Interval{}, fmt.Errorf("%w: nil law or prior of the wrong length", ErrInvalid)
	}
	if !(delta > 0 && delta < 1) {
		return Interval{}, fmt.Errorf("%w: δ = %v, want in (0, 1)", ErrInvalid, delta)
	}
	total := 0.0
	for w, p := range prior {
		if !(p >= 0) || math.IsInf(p, 1) {
			return Interval{}, fmt.Errorf("%w: prior(%d) = %v", ErrInvalid, w, p)
		}
		total += p
	}
	if !(total > 0) || math.IsInf(total, 1) {
		return Interval{}, fmt.Errorf("%w: prior sums to %v", ErrInvalid, total)
	}
	pi := make([]float64, len(l.words))
	var mass, sq float64
	for i, w := range l.words {
		pi[i] = prior[w] / total
		mass += pi[i]
		sq += pi[i] * pi[i]
	}
	d := float64(l.draws)
	g := l.guess(prior)
	var fitted float64
	for i, c := range l.half[1] {
		w := l.words[i]
		for y, k := range c {
			if g(y) == w {
				fitted += pi[i] * float64(k) / d
			}
		}
	}
	// The plug-in optimum on both halves.
	top := map[int]float64{}
	for i := range l.words {
		sum := map[int]int32{}
		for h := range l.half {
			for y, k := range l.half[h][i] {
				sum[y] += k
			}
		}
		for y, k := range sum {
			top[y] = max(top[y], pi[i]*float64(k)/(2*d))
		}
	}
	var plug float64
	for _, v := range top {
		plug += v
	}
	ln := math.Log(1 / delta)
	return Interval{
		Lo:     max(0, fitted-math.Sqrt(ln*sq/(2*d))),
		Hi:     min(1, plug+math.Sqrt(ln*sq/(4*d))+(1-mass)),
		Fitted: fitted, PlugIn: plug, Mass: mass,
	}, nil
}

// guess returns the attacker fitted on the first half for prior (over
// the vocabulary; only ratios matter): for an output y, the estimated
// word x with the largest prior(x)·count of y among x's first-half draws
// (ties to the earlier word), or y itself (the echo) when no estimated
// word produced y.
func (l *Law) guess(prior []float64) func(y int) int {
	best := map[int]float64{}
	guess := map[int]int{}
	for i, c := range l.half[0] {
		w := l.words[i]
		for y, k := range c {
			if s := prior[w] * float64(k); s > best[y] || s == best[y] && s > 0 && w < guess[y] {
				best[y], guess[y] = s, w
			}
		}
	}
	return func(y int) int {
		if g, ok := guess[y]; ok {
			return g
		}
		return y
	}
}
