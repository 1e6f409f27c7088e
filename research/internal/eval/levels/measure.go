package levels

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/attack"
)

// Levels are the privacy levels measured, strongest first.
var Levels = []string{mechanism.LevelStrong, mechanism.LevelBalanced, mechanism.LevelLight}

// Cell is one mechanism at one level, measured on a token sample.
type Cell struct {
	Mechanism, Level string
	// Epsilon is the level's preset.
	Epsilon float64
	// Tokens is how many tokens were privatized (once each).
	Tokens int
	// Kept is the share of tokens released unchanged.
	Kept attack.Interval
	// Top1 and Top5 are the attacker's top-1 and top-5 recovery rates,
	// Baseline1 and Baseline5 those of guessing the prior's most
	// frequent words without looking at the output.
	Top1, Top5, Baseline1, Baseline5 attack.Interval
	// LowerBound: the attacker's column is a trained model (BRR), not
	// the exact law, so Top1 and Top5 (the better of that attacker and
	// the echo, who guesses the released word) are lower bounds on what
	// the best attacker recovers.
	LowerBound bool
}

// Measure privatizes each token once per mechanism and level the asset
// has presets for, with the product's mechanism (mechanism.New at the
// preset, restricted to the asset's default output vocabulary), and
// attacks it (attack.Attack) with prior, the attacker's word
// frequencies over a's vocabulary: cells[mechanism][level]. The random
// draws of each cell come from a generator keyed by seed, the mechanism
// and the level, so the result is the same for a seed whatever workers
// (goroutines; < 1 means 1). A mechanism whose attacker column is not
// implemented (Euclidean TEM) is an error, not a silent gap.
func Measure(a *wva.Asset, prior []float64, tokens []int, seed uint64, workers int) (map[string]map[string]Cell, error) {
	if a == nil || a.Len() == 0 {
		return nil, fmt.Errorf("%w: nil or empty asset", ErrInvalid)
	}
	if a.Header.Presets == nil || len(a.Header.Presets.Epsilon) == 0 {
		return nil, fmt.Errorf("%w: asset %q has no presets", ErrInvalid, a.Header.Name)
	}
	if len(prior) != a.Len() {
		return nil, fmt.Errorf("%w: prior over %d words, asset has %d", ErrInvalid, len(prior), a.Len())
	}
	for w, p := range prior {
		if !(p >= 0) || math.IsInf(p, 1) {
			return nil, fmt.Errorf("%w: prior(%d) = %v", ErrInvalid, w, p)
		}
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("%w: no tokens", ErrInvalid)
	}
	for i, w := range tokens {
		if w < 0 || w >= a.Len() {
			return nil, fmt.Errorf("%w: token %d is word %d, outside [0, %d)", ErrInvalid, i, w, a.Len())
		}
	}
	workers = max(workers, 1)
	jobs, err := Presets(a)
	if err != nil {
		return nil, err
	}
	needHist := false
	for _, j := range jobs {
		needHist = needHist || usesHist(j.Mechanism)
	}
	// The costliest cells (BRR's training) first: only the schedule
	// depends on this order, never a result.
	slices.SortFunc(jobs, func(x, y Preset) int {
		return cmp.Or(-cmp.Compare(cost(x.Mechanism), cost(y.Mechanism)), cmp.Compare(x.Mechanism, y.Mechanism), cmp.Compare(x.Level, y.Level))
	})
	s, err := newShared(a, prior, needHist, workers)
	if err != nil {
		return nil, err
	}
	cells := make([]Cell, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				cells[i], errs[i] = s.cell(jobs[i].Mechanism, jobs[i].Level, jobs[i].Epsilon, prior, tokens, seed)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	out := map[string]map[string]Cell{}
	for i, c := range cells {
		if errs[i] != nil {
			return nil, fmt.Errorf("levels: %s %s: %w", jobs[i].Mechanism, jobs[i].Level, errs[i])
		}
		if out[c.Mechanism] == nil {
			out[c.Mechanism] = map[string]Cell{}
		}
		out[c.Mechanism][c.Level] = c
	}
	return out, nil
}

// cost orders the cells for scheduling.
func cost(name string) int {
	if name == mechanism.NameBRR {
		return 1
	}
	return 0
}

// cellKey keys a cell's generator: SHA-256 of the seed, the mechanism,
// the level and the purpose.
func cellKey(seed uint64, name, level, purpose string) [32]byte {
	return sha256.Sum256(fmt.Appendf(nil, "wordveil/levels %d %s %s %s", seed, name, level, purpose))
}

func (s *shared) cell(name, level string, eps float64, prior []float64, tokens []int, seed uint64) (Cell, error) {
	m, col, lower, err := s.law(name, eps, seeded.Key(cellKey(seed, name, level, "train")))
	if err != nil {
		return Cell{}, err
	}
	r, err := attack.Attack(tokens, m, seeded.Key(cellKey(seed, name, level, "attack")), col, prior, 5)
	if err != nil {
		return Cell{}, err
	}
	c := Cell{Mechanism: name, Level: level, Epsilon: eps, Tokens: r.Tokens, Kept: r.Kept,
		Top1: r.Recovery[0], Top5: r.Recovery[4], Baseline1: r.Baseline[0], Baseline5: r.Baseline[4],
		LowerBound: lower}
	if lower {
		// The trained model is one valid attacker; the echo, who guesses
		// the released word, is another, and on these very draws it
		// recovers exactly the kept tokens. The better of the two is
		// still a lower bound on the best attacker's rate.
		if c.Kept.Rate > c.Top1.Rate {
			c.Top1 = c.Kept
		}
		if c.Kept.Rate > c.Top5.Rate {
			c.Top5 = c.Kept
		}
	}
	return c, nil
}
