package ctxattack

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/research/internal/eval/levels"
)

// DefaultK is the candidates kept per position from each ranking: the
// one-word posterior's 50 most probable inputs and the context's 50
// (Cell.PrunedMass reports, for every cell, the share of one-word
// posterior mass outside them).
const DefaultK = 50

// Cell is one mechanism at one level, measured on a sample of segments.
type Cell struct {
	Mechanism string  `json:"mechanism"`
	Level     string  `json:"level"`
	Epsilon   float64 `json:"epsilon"`
	Segments  int     `json:"segments"`
	Tokens    int     `json:"tokens"`
	K         int     `json:"k"`
	// Kept is the share of tokens released unchanged.
	Kept Rate `json:"kept"`
	// OneWord and Context are the top-1 recovery of the one-word
	// attacker and of the context attacker on the same draws; Gain is
	// Context − OneWord with its paired interval.
	OneWord Rate `json:"one_word"`
	Context Rate `json:"context"`
	Gain    Rate `json:"gain"`
	// PerWord is the top-1 recovery of the context attacker who guesses
	// each word by its posterior given the whole segment (Marginals)
	// rather than reading it off the most probable sentence; PerWordGain
	// is PerWord − OneWord.
	PerWord     Rate `json:"per_word"`
	PerWordGain Rate `json:"per_word_gain"`
	// InCandidates is the share of tokens whose input is among their
	// position's candidates: the most the decoder can recover.
	InCandidates Rate `json:"in_candidates"`
	// PrunedMass is the mean, over tokens, of the one-word posterior
	// mass outside the candidates; PrunedMassMax its largest.
	PrunedMass    float64 `json:"pruned_mass"`
	PrunedMassMax float64 `json:"pruned_mass_max"`
	// LowerBound: the column is a trained model (BRR), so both rates are
	// lower bounds for an attacker of that kind.
	LowerBound bool `json:"lower_bound,omitempty"`
}

// Predictor is an LM that also gives the next word's distribution given
// a distribution over the word before (*ngram.Bigram.Mix): Measure then
// adds, at each position, the K inputs the context makes most probable
// to the one-word posterior's K best.
type Predictor interface {
	LM
	Mix(prevs []int, weights []float64, dst []float64) error
}

// Rate is a share with its 95% interval (cluster-robust).
type Rate struct {
	Rate float64 `json:"rate"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// Measure privatizes every token of segs once per preset with the
// product's mechanism (laws.Law, seed-keyed draws of purpose
// "context"), and scores the one-word attacker (ranking by
// prior(w)·P[w][y]) and the context attacker (Decode with lm over the K
// candidates of Candidates, with a Predictor also the context's K, and
// Marginals' best word at each position) on the same draws. Cells come back in
// mechanism order, levels strongest first; workers (< 1 means 1) measure
// cells in parallel.
func Measure(laws *levels.Laws, presets []levels.Preset, prior []float64, lm LM, segs []Segment, k int, seed uint64, workers int) ([]Cell, error) {
	if laws == nil || lm == nil || len(presets) == 0 || len(segs) == 0 || k < 1 {
		return nil, fmt.Errorf("%w: nil laws or LM, no presets or segments, or k = %d", ErrInvalid, k)
	}
	for _, p := range prior {
		if !(p >= 0) || math.IsInf(p, 1) {
			return nil, fmt.Errorf("%w: a prior entry %v", ErrInvalid, p)
		}
	}
	ps := slices.Clone(presets)
	rank := func(l string) int { return slices.Index(levels.Levels, l) }
	slices.SortFunc(ps, func(x, y levels.Preset) int {
		return cmp.Or(cmp.Compare(x.Mechanism, y.Mechanism), cmp.Compare(rank(x.Level), rank(y.Level)))
	})
	cells := make([]Cell, len(ps))
	errs := make([]error, len(ps))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(max(workers, 1), len(ps)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				cells[i], errs[i] = cell(laws, ps[i], prior, lm, segs, k, seed)
			}
		}()
	}
	for i := range ps {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("ctxattack: %s %s: %w", ps[i].Mechanism, ps[i].Level, err)
		}
	}
	return cells, nil
}

type tok struct{ seg, at int }

func cell(laws *levels.Laws, p levels.Preset, prior []float64, lm LM, segs []Segment, k int, seed uint64) (Cell, error) {
	m, law, lower, err := laws.Law(p, seed)
	if err != nil {
		return Cell{}, err
	}
	n := law.Len()
	if len(prior) != n || m.Len() != n {
		return Cell{}, fmt.Errorf("%w: prior over %d words, sampler over %d, law over %d", ErrInvalid, len(prior), m.Len(), n)
	}
	src := seeded.Key(levels.Key(seed, p, "context"))
	// Per segment: tokens, kept, one-word credit, context credit, input
	// among the candidates.
	size, kept, one, ctx, in := make([]float64, len(segs)), make([]float64, len(segs)), make([]float64, len(segs)), make([]float64, len(segs)), make([]float64, len(segs))
	per := make([]float64, len(segs))
	outs := make([][]int, len(segs))
	byY := map[int][]tok{}
	for i, s := range segs {
		outs[i] = make([]int, len(s.IDs))
		size[i] = float64(len(s.IDs))
		for j, w := range s.IDs {
			if w < 0 || w >= n {
				return Cell{}, fmt.Errorf("%w: word %d outside [0, %d)", ErrInvalid, w, n)
			}
			y, err := m.Privatize(w, src)
			if err != nil {
				return Cell{}, err
			}
			if y < 0 || y >= n {
				return Cell{}, fmt.Errorf("%w: the sampler released %d, outside [0, %d)", ErrInvalid, y, n)
			}
			outs[i][j] = y
			byY[y] = append(byY[y], tok{i, j})
			if y == w {
				kept[i]++
			}
		}
	}
	// Each distinct output's column once, in output order: its
	// candidates, and the one-word attacker's credit for every token
	// released as it (the top-1 credit of package attack: 1/e when the
	// input ties e words at the top score, else 0).
	ys := make([]int, 0, len(byY))
	for y := range byY {
		ys = append(ys, y)
	}
	slices.Sort(ys)
	col := make([]float64, n)
	cands := make(map[int]Position, len(ys))
	for _, y := range ys {
		if err := law.Column(y, col); err != nil {
			return Cell{}, err
		}
		pos, _, best, nBest := Candidates(col, prior, k)
		if len(pos.Words) == 0 {
			return Cell{}, fmt.Errorf("%w: output %d has no input of positive score", ErrInvalid, y)
		}
		cands[y] = pos
		for _, t := range byY[y] {
			if w := segs[t.seg].IDs[t.at]; prior[w]*col[w] == best {
				one[t.seg] += 1 / float64(nBest)
			}
		}
	}
	// Each segment's lattice, decoded.
	pred, isPred := lm.(Predictor)
	var pruned, prunedMax float64
	tokens := 0
	var lat []Position
	var alpha, next []float64
	var words []int
	q := make([]float64, n)
	for i, s := range segs {
		lat = lat[:0]
		for j, y := range outs[i] {
			pos := cands[y]
			if isPred {
				// The LM's prediction for this word given the segment so
				// far (the forward filter over the lattice's previous
				// position) names the inputs the context makes likely;
				// its K best by prediction·P[w][y] join the one-word
				// posterior's K best.
				if err := law.Column(y, col); err != nil {
					return Cell{}, err
				}
				words, alpha = words[:0], alpha[:0]
				if j == 0 {
					words, alpha = append(words, s.Start()), append(alpha, 1)
				} else {
					words, alpha = append(words, lat[j-1].Words...), append(alpha, next...)
				}
				if err := pred.Mix(words, alpha, q); err != nil {
					return Cell{}, err
				}
				extra, _, _, _ := Candidates(col, q, k)
				pos = union(pos, extra)
				next = filter(next[:0], lat, pos, j, s.Start(), alpha, lm)
			}
			lat = append(lat, pos)
			// The pruning check: the one-word posterior mass outside the
			// lattice's candidates, and whether the input is among them.
			if err := law.Column(y, col); err != nil {
				return Cell{}, err
			}
			var total, kept float64
			for w, c := range col {
				total += prior[w] * c
			}
			for _, w := range pos.Words {
				kept += prior[w] * col[w]
			}
			pr := max(0, 1-kept/total)
			pruned += pr
			prunedMax = max(prunedMax, pr)
			tokens++
			if slices.Contains(pos.Words, s.IDs[j]) {
				in[i]++
			}
		}
		dec, err := Decode(lat, lm, s.Start())
		if err != nil {
			return Cell{}, err
		}
		marg, err := Marginals(lat, lm, s.Start())
		if err != nil {
			return Cell{}, err
		}
		for j, w := range s.IDs {
			if dec[j] == w {
				ctx[i]++
			}
			if lat[j].Words[argmax(marg[j])] == w {
				per[i]++
			}
		}
	}
	gain, perGain := make([]float64, len(segs)), make([]float64, len(segs))
	for i := range gain {
		gain[i] = ctx[i] - one[i]
		perGain[i] = per[i] - one[i]
	}
	return Cell{Mechanism: p.Mechanism, Level: p.Level, Epsilon: p.Epsilon, Segments: len(segs), Tokens: tokens, K: k,
		Kept: clusterRate(kept, size, true), OneWord: clusterRate(one, size, true), Context: clusterRate(ctx, size, true),
		Gain: clusterRate(gain, size, false), PerWord: clusterRate(per, size, true), PerWordGain: clusterRate(perGain, size, false), InCandidates: clusterRate(in, size, true),
		PrunedMass: pruned / float64(tokens), PrunedMassMax: prunedMax, LowerBound: lower}, nil
}

// z95 is the standard normal's 0.975 quantile.
const z95 = 1.959963984540054

// clusterRate is the ratio Σc/Σn over clusters (segments) with its 95%
// interval from the linearized variance of a ratio estimator,
// S/(S−1)·Σ(c_i − r·n_i)²/(Σn)², clamped into [0, 1] when share, into
// [−1, 1] for a difference of shares. Fewer than two clusters give the
// vacuous interval.
func clusterRate(c, n []float64, share bool) Rate {
	var sc, sn float64
	for i := range c {
		sc += c[i]
		sn += n[i]
	}
	floor := -1.0
	if share {
		floor = 0
	}
	if sn == 0 {
		return Rate{Rate: 0, Lo: floor, Hi: 1}
	}
	r := sc / sn
	lo, hi := floor, 1.0
	if s := len(c); s > 1 {
		v := 0.0
		for i := range c {
			d := c[i] - r*n[i]
			v += d * d
		}
		v *= float64(s) / float64(s-1) / (sn * sn)
		half := z95 * math.Sqrt(v)
		lo, hi = r-half, r+half
	}
	return Rate{Rate: r, Lo: max(floor, lo), Hi: min(1, hi)}
}

// union is a's candidates followed by those of b that a lacks.
func union(a, b Position) Position {
	out := Position{Words: slices.Clone(a.Words), LogLaw: slices.Clone(a.LogLaw)}
	for i, w := range b.Words {
		if !slices.Contains(a.Words, w) {
			out.Words = append(out.Words, w)
			out.LogLaw = append(out.LogLaw, b.LogLaw[i])
		}
	}
	return out
}

// filter appends to dst the forward filter at position j, whose
// candidates are pos: P(w_j = c | y_1…y_j) over the lattice (lat[:j] and
// pos), from prev, the filter at j − 1 (ignored at j = 0).
func filter(dst []float64, lat []Position, pos Position, j, start int, prev []float64, lm LM) []float64 {
	terms := make([]float64, 0, len(prev))
	for c, w := range pos.Words {
		var s float64
		if j == 0 {
			s = lm.LogProb(start, w)
		} else {
			terms = terms[:0]
			for k, v := range lat[j-1].Words {
				terms = append(terms, math.Log(prev[k])+lm.LogProb(v, w))
			}
			s = logSumExp(terms)
		}
		dst = append(dst, s+pos.LogLaw[c])
	}
	z := logSumExp(dst)
	for c := range dst {
		dst[c] = math.Exp(dst[c] - z)
	}
	return dst
}
