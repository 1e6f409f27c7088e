package privacy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/wordveil/wordveil/internal/mechanism"
	evalseed "github.com/wordveil/wordveil/internal/seeded"
)

// Empirical is one mechanism's empirical privacy–utility point (Vickrey
// paper §3) measured by Measure.
type Empirical struct {
	// Metric and Epsilon are the mechanism's.
	Metric  string
	Epsilon float64
	// Params holds other tuning parameters (e.g. "t" for Vickrey); Measure
	// leaves it nil for the caller to fill.
	Params map[string]float64
	// UtilityLoss is L_M (Eq. 2), unbiased; UtilityLossSE its standard
	// error.
	UtilityLoss, UtilityLossSE float64
	// InferenceError is the paper's E_M (Eq. 4): the adversary draws ŵ from
	// the posterior g(ŵ|w') ∝ π(ŵ)f(w'|ŵ). Plug-in estimate, biased low.
	InferenceError float64
	// InferenceErrorMAP is the Bayes-optimal (MAP) adversary's error,
	// in-sample plug-in: biased low. InferenceErrorMAPHeldOut chooses the
	// MAP rule on one half of the draws and scores it on the other (both
	// ways, averaged): the error of a real adversary, so biased high. NaN
	// when Draws < 2.
	InferenceErrorMAP, InferenceErrorMAPHeldOut float64
	// Words is |U|, Draws the draws per word, Outputs the number of
	// distinct (w, w') pairs observed.
	Words, Draws, Outputs int
}

// ErrBadMeasure: invalid arguments to Measure; test with errors.Is.
var ErrBadMeasure = errors.New("privacy: invalid Measure input")

// Measure estimates mechanism m's empirical privacy–utility point over the
// universe U = universe (distinct word ids of m) with prior π = prior
// (same order, ≥ 0, summing to 1 within 1e-9).
//
// For each w ∈ U it draws m.Privatize(w) draws times; outputs may be any
// word of m's vocabulary (counts are kept sparse) and f̂(w'|w) is the
// observed frequency. Words run on GOMAXPROCS goroutines; word i of the
// universe uses its own ChaCha8 source keyed by (seed, i), so the result
// depends only on the seed and the arguments, not on scheduling. progress,
// if not nil, is called (serialized, from the workers) with the number of
// words done. dL(w, w') is called from the calling goroutine only.
//
// Estimators (the sums run over w ∈ U and the observed w'):
//
//   - UtilityLoss = Σ π(w) f̂(w'|w) d_L(w, w'): E[f̂] = f, so it is unbiased;
//     UtilityLossSE = sqrt(Σ π(w)² Var_w[d_L]/draws).
//   - InferenceError, Eq. (4) with d_E = 1{ŵ ≠ w} and the posterior over
//     ŵ ∈ U: E_M = 1 − Σ_w' Σ_w v_w(w')² / Σ_w v_w(w') with v_w(w') =
//     π(w) f(w'|w). The same draws give f̂ for the mechanism and for the
//     adversary's posterior. v ↦ ‖v‖₂²/‖v‖₁ is convex, so by Jensen
//     E[Ê_M] ≤ E_M: the estimate can only understate privacy, and the
//     bias vanishes as draws grow (it is large when draws is small
//     next to the number of distinct outputs per word: each rare output
//     then looks like it identifies its input).
//   - InferenceErrorMAP = 1 − Σ_w' max_w v̂_w(w'), the in-sample error of
//     the adversary that guesses the MAP word. It is the minimum over
//     guessing rules of their empirical error, so its expectation is at
//     most the minimum of their expected errors, the Bayes error.
//   - InferenceErrorMAPHeldOut: the MAP rule of the first ⌈draws/2⌉ draws
//     of every word (ties: larger prior, then earlier in universe; an
//     output never seen in that half is guessed as the word of largest
//     prior) scored on the other draws, and vice versa, averaged. Each
//     term is an unbiased estimate of a real adversary's error, so its
//     expectation is at least the Bayes error; with
//     InferenceErrorMAP it brackets the Bayes error in expectation.
func Measure(m mechanism.Mechanism, universe []int, prior []float64, dL func(w, w2 int) float64, draws int, seed uint64, progress func(done, total int)) (Empirical, error) {
	if err := checkMeasure(m, universe, prior, dL, draws); err != nil {
		return Empirical{}, err
	}
	nu := len(universe)
	nA := (draws + 1) / 2
	counts := make([][]outCount, nu) // per universe index, sorted by output
	var (
		next     atomic.Int64
		failed   atomic.Bool
		errOnce  sync.Once
		firstErr error
		mu       sync.Mutex
		done     int
		wg       sync.WaitGroup
	)
	workers := min(runtime.GOMAXPROCS(0), nu)
	for range workers {
		wg.Go(func() {
			seen := make(map[int32]int, 64)
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= nu {
					return
				}
				src := evalseed.Key(wordKey(seed, i))
				clear(seen)
				var cs []outCount
				for k := range draws {
					out, err := m.Privatize(universe[i], src)
					if err == nil && (out < 0 || out >= m.Len()) {
						err = fmt.Errorf("output %d not in [0, %d)", out, m.Len())
					}
					if err != nil {
						errOnce.Do(func() {
							firstErr = fmt.Errorf("privacy: Measure: word %d: %w", universe[i], err)
						})
						failed.Store(true)
						return
					}
					at, ok := seen[int32(out)]
					if !ok {
						at = len(cs)
						seen[int32(out)] = at
						cs = append(cs, outCount{out: int32(out), word: int32(i)})
					}
					if k < nA {
						cs[at].a++
					} else {
						cs[at].b++
					}
				}
				counts[i] = cs
				if progress != nil {
					mu.Lock()
					done++
					progress(done, nu)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return Empirical{}, firstErr
	}

	e := Empirical{Metric: m.Metric(), Epsilon: m.Epsilon(), Words: nu, Draws: draws}
	fd := float64(draws)
	var all []outCount
	variance := 0.0
	for i, cs := range counts {
		mean, sq := 0.0, 0.0
		for _, c := range cs {
			d := dL(universe[i], int(c.out))
			f := float64(c.a+c.b) / fd
			mean += f * d
			sq += f * d * d
		}
		e.UtilityLoss += prior[i] * mean
		if draws > 1 {
			v := max(sq-mean*mean, 0) * fd / (fd - 1) // sample variance of d_L
			variance += prior[i] * prior[i] * v / fd
		}
		all = append(all, cs...)
	}
	e.UtilityLossSE = math.Sqrt(variance)
	e.Outputs = len(all)
	slices.SortFunc(all, func(x, y outCount) int {
		if x.out != y.out {
			return int(x.out - y.out)
		}
		return int(x.word - y.word)
	})

	// The adversary's fallback guess: the word of largest prior.
	top := 0
	for i, p := range prior {
		if p > prior[top] {
			top = i
		}
	}
	fA, fB := float64(nA), float64(draws-nA)
	var post, mapHit, hitB, hitA float64
	for lo := 0; lo < len(all); {
		hi := lo
		for hi < len(all) && all[hi].out == all[lo].out {
			hi++
		}
		g := all[lo:hi]
		var z, sq, best float64
		ruleA, ruleB := -1, -1 // positions in g of the halves' MAP words
		for k, c := range g {
			v := prior[c.word] * float64(c.a+c.b) / fd
			z += v
			sq += v * v
			best = max(best, v)
			if c.a > 0 && (ruleA < 0 || better(prior, c.word, c.a, g[ruleA].word, g[ruleA].a)) {
				ruleA = k
			}
			if c.b > 0 && (ruleB < 0 || better(prior, c.word, c.b, g[ruleB].word, g[ruleB].b)) {
				ruleB = k
			}
		}
		post += sq / z
		mapHit += best
		if draws > 1 {
			// Rule from half A scored on half B, and the reverse.
			if ruleA >= 0 {
				hitB += prior[g[ruleA].word] * float64(g[ruleA].b) / fB
			} else if k := find(g, top); k >= 0 {
				hitB += prior[top] * float64(g[k].b) / fB
			}
			if ruleB >= 0 {
				hitA += prior[g[ruleB].word] * float64(g[ruleB].a) / fA
			} else if k := find(g, top); k >= 0 {
				hitA += prior[top] * float64(g[k].a) / fA
			}
		}
		lo = hi
	}
	e.InferenceError = clamp01(1 - post)
	e.InferenceErrorMAP = clamp01(1 - mapHit)
	e.InferenceErrorMAPHeldOut = math.NaN()
	if draws > 1 {
		e.InferenceErrorMAPHeldOut = clamp01(1 - (hitA+hitB)/2)
	}
	return e, nil
}

// outCount counts output out of universe word index word in the two halves
// of the draws.
type outCount struct {
	out, word int32
	a, b      int32
}

// better reports whether word i with count ci beats word j with count cj as
// a MAP guess: larger π·count, then larger prior, then earlier index.
func better(prior []float64, i int32, ci int32, j int32, cj int32) bool {
	vi, vj := prior[i]*float64(ci), prior[j]*float64(cj)
	if vi != vj {
		return vi > vj
	}
	if prior[i] != prior[j] {
		return prior[i] > prior[j]
	}
	return i < j
}

func find(g []outCount, word int) int {
	for k, c := range g {
		if int(c.word) == word {
			return k
		}
	}
	return -1
}

func clamp01(x float64) float64 { return min(max(x, 0), 1) }

// wordKey is the ChaCha8 key of universe word i: the seed, i and a tag.
func wordKey(seed uint64, i int) [32]byte {
	var k [32]byte
	binary.LittleEndian.PutUint64(k[0:], seed)
	binary.LittleEndian.PutUint64(k[8:], uint64(i))
	copy(k[16:], "eval/privacy")
	return k
}

func checkMeasure(m mechanism.Mechanism, universe []int, prior []float64, dL func(w, w2 int) float64, draws int) error {
	switch {
	case m == nil:
		return fmt.Errorf("%w: nil mechanism", ErrBadMeasure)
	case len(universe) == 0:
		return fmt.Errorf("%w: empty universe", ErrBadMeasure)
	case len(prior) != len(universe):
		return fmt.Errorf("%w: %d prior weights for %d words", ErrBadMeasure, len(prior), len(universe))
	case dL == nil:
		return fmt.Errorf("%w: nil d_L", ErrBadMeasure)
	case draws < 1:
		return fmt.Errorf("%w: draws %d < 1", ErrBadMeasure, draws)
	case int64(draws) > math.MaxInt32:
		return fmt.Errorf("%w: draws %d too large", ErrBadMeasure, draws)
	}
	n := m.Len()
	seen := make(map[int]bool, len(universe))
	for _, w := range universe {
		if w < 0 || w >= n {
			return fmt.Errorf("%w: word id %d not in [0, %d)", ErrBadMeasure, w, n)
		}
		if seen[w] {
			return fmt.Errorf("%w: word id %d twice in the universe", ErrBadMeasure, w)
		}
		seen[w] = true
	}
	sum := 0.0
	for i, p := range prior {
		if !(p >= 0) || math.IsInf(p, 0) {
			return fmt.Errorf("%w: prior[%d] = %v", ErrBadMeasure, i, p)
		}
		sum += p
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("%w: prior sums to %v, not 1", ErrBadMeasure, sum)
	}
	return nil
}

// SentimentFlip returns the d_L of the paper's word-level experiments,
// d_L(w, w') = 1{sentiment(w') ≠ sentiment(w)}, with sentiment the sign of
// the AFINN valence of words[id] (a word absent from valence, or an id
// outside words, is neutral: 0). The paper's formula is used, so a change
// between a polar and a neutral word also counts as a loss; its prose
// ("positive into negative, or vice versa") describes its Product Reviews
// vocabulary, where every word is polar and the two agree.
func SentimentFlip(valence map[string]int, words []string) func(w, w2 int) float64 {
	pol := make([]int8, len(words))
	for i, word := range words {
		v := valence[word]
		switch {
		case v > 0:
			pol[i] = 1
		case v < 0:
			pol[i] = -1
		}
	}
	get := func(w int) int8 {
		if w < 0 || w >= len(pol) {
			return 0
		}
		return pol[w]
	}
	return func(w, w2 int) float64 {
		if get(w) != get(w2) {
			return 1
		}
		return 0
	}
}
