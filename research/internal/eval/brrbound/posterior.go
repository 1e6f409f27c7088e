package brrbound

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/seeded"
)

// Setup is what Tight needs: BRR as the product ships it (the codes, the
// output restriction and the per-bit ε) and the prior the inputs are
// drawn from and the attacker knows.
type Setup struct {
	Codes []hamming.Code
	// Allowed[w] says whether w may be released; nil: every word.
	Allowed []bool
	Epsilon float64
	// Prior weights over the words (normalized here).
	Prior []float64
}

// TightConfig says how much Tight draws.
type TightConfig struct {
	// Draws is the number of (input, noisy code, output) draws, at least
	// 2 and at most 2^31−1; the first half fits the lower bound's attacker,
	// the second measures it, and the upper bound uses both.
	Draws int
	// Delta is the failure probability of each side, in (0, 1).
	Delta float64
	// Tau in [0, 1): posteriors below Tau·(the largest possible, 1) are
	// not accumulated, which bounds the memory; the upper bound adds Tau
	// (see Tight). Zero accumulates every positive posterior.
	Tau float64
	// Workers draw chunks in parallel (< 1: all cores); the result does
	// not depend on it.
	Workers int
	// Key keys the chunks' generators (chunk c: SHA-256 of Key and c).
	Key [32]byte
	// TopK in [0, MaxK]: also bound the top-k recovery for k = 1…TopK
	// (TightBound.TopK), from the same draws. Zero bounds top-1 alone;
	// the top-1 fields do not depend on it.
	TopK int
}

// TightChunk is the number of draws of one chunk: the unit of the
// workers' parallelism and of the generators' keying.
const TightChunk = 1 << 14

// TightBound is Tight's result: the Bayes-optimal top-1 recovery
// R* = Σ_y max_x π(x)·P(y|x) lies in [Lo, Hi] with probability at least
// 1 − 2·Delta.
type TightBound struct {
	Lo, Hi float64
	// PlugIn is the plug-in optimum on all draws (Hi before its
	// deviation and Tau), Fitted the fitted attacker's measured recovery
	// (Lo before its deviation).
	PlugIn, Fitted float64
	// DevHi and DevLo are the deviations added to PlugIn and subtracted
	// from Fitted.
	DevHi, DevLo float64
	// Draws is the number of draws; Pairs the number of (output, input)
	// pairs with an accumulated posterior; Columns the number of outputs
	// released at least once.
	Draws, Pairs, Columns int
	// TopK[k−1], for k = 1…TightConfig.TopK, bounds the Bayes-optimal
	// top-k recovery R_k* = Σ_y (sum of the k largest π(x)·P(y|x) over x)
	// the same way, each with probability at least 1 − 2·Delta (TopK[0]
	// repeats the top-1 fields); the rest are zero. DevHi and DevLo are
	// the same for every k; Hi adds k·Tau.
	TopK [MaxK]KBound
}

// KBound is one k's interval [Lo, Hi] and the estimates behind it (as
// in TightBound).
type KBound struct {
	Lo, Hi, PlugIn, Fitted float64
}

// Tight bounds the Bayes-optimal top-1 recovery of a one-word attacker
// against BRR for inputs drawn from the prior, from both sides, and its
// top-k recovery for k up to cfg.TopK.
//
// The draws. Each draw takes an input x ~ π, its noisy code z and the
// released word y = nearest allowed word to z (ties uniform), exactly as
// the product draws them, and the posterior of every word given the noisy
// code, post_z(w) = π(w)·Pr[z | w] / Σ_v π(v)·Pr[z | v], which has a
// closed form (Pr[z | w] ∝ ((1−q)/q)^(−d(z, c_w))). Since y depends on x
// only through z, π(w)·P(y|w) = E[1{Y = y}·post_Z(w)], so
// â(y, w) = (1/M)·Σ_j 1{y_j = y}·post_{z_j}(w) estimates each π(w)·P(y|w)
// without bias, for every pair at once, from M draws.
//
// Hi: the plug-in Σ_y max_w â(y, w) is a convex function of the
// estimates, so its expectation is at least R* (Jensen). Changing one
// draw moves it by at most 1/M (the draw's posteriors, each at most 1,
// leave one output's column and join one), so McDiarmid adds
// sqrt(ln(1/δ)/(2M)). Posteriors below Tau are not accumulated: in a
// column with n_y draws each left-out pair lost less than n_y·Tau/M, so
// the column's maximum at most that, Σ_y n_y·Tau/M = Tau in all, which is
// added.
//
// Lo: the attacker g(y) = argmax_w â_A(y, w) fitted on the first half of
// the draws (the echo where no draw of the first half released y) is
// measured on the second half as (1/M_B)·Σ_j post_{z_j}(g(y_j)), an
// unbiased estimate of its recovery Σ_y π(g(y))·P(y|g(y)) ≤ R* (a
// posterior below Tau counts 0, which only lowers it); each term lies in
// [0, 1], so Hoeffding subtracts sqrt(ln(1/δ)/(2·M_B)).
//
// Top-k (cfg.TopK), from the same draws: the attacker guesses k
// distinct words per output, and the optimum R_k* takes each column's k
// largest π(w)·P(y|w). Hi: the plug-in Σ_y (sum of the k largest
// â(y, w)) is convex in the estimates (a sum of the k largest of linear
// functions), so Jensen applies again; one draw still moves it by at
// most 1/M (a column's top-k sum moves by at most the ℓ1 change of the
// column, and the draw's posteriors sum to at most 1: removed from one
// column, which loses at most 1/M, added to one, which gains at most
// 1/M), so the deviation is the same; each of the k entries of a column
// loses less than n_y·Tau/M to the cut, so k·Tau is added. Lo: the
// fitted attacker guesses each output's k largest â_A (ties to the lower
// id; padded with the echo where the column holds fewer than k words and
// not the echo), measured on the second half by the sum of the
// posteriors of its k guesses: each draw's term lies in [0, 1] (distinct
// words' posteriors), so Hoeffding's deviation is the same too. Each k's
// interval holds with probability at least 1 − 2δ on its own (not
// jointly over k).
//
// Unlike Law.Bounds, no pair's law is estimated from its own rare
// releases: every draw informs every word's column entry through its
// posterior, which is why the plug-in's upward bias is small.
func Tight(s Setup, cfg TightConfig) (TightBound, error) {
	t, err := newTight(s)
	if err != nil {
		return TightBound{}, err
	}
	switch {
	case cfg.Draws < 2 || cfg.Draws > math.MaxInt32:
		return TightBound{}, fmt.Errorf("%w: %d draws, want in [2, 2^31−1]", ErrInvalid, cfg.Draws)
	case !(cfg.Delta > 0 && cfg.Delta < 1):
		return TightBound{}, fmt.Errorf("%w: δ = %v, want in (0, 1)", ErrInvalid, cfg.Delta)
	case !(cfg.Tau >= 0 && cfg.Tau < 1):
		return TightBound{}, fmt.Errorf("%w: τ = %v, want in [0, 1)", ErrInvalid, cfg.Tau)
	case cfg.TopK < 0 || cfg.TopK > MaxK:
		return TightBound{}, fmt.Errorf("%w: top-%d, want k in [0, %d]", ErrInvalid, cfg.TopK, MaxK)
	}
	k := max(1, cfg.TopK)
	w := cfg.Workers
	if w < 1 {
		w = runtime.NumCPU()
	}
	half := cfg.Draws / 2
	// The first half: the fitted attacker's estimates.
	accA, _, err := t.run(0, half, cfg, w, nil)
	if err != nil {
		return TightBound{}, err
	}
	g := fit(accA, k)
	accB, fitted, err := t.run(half, cfg.Draws, cfg, w, g)
	if err != nil {
		return TightBound{}, err
	}
	for key, v := range accB {
		accA[key] += v
	}
	m := float64(cfg.Draws)
	// Each column's k largest entries (their sums do not depend on the
	// map's order), summed in output order: the same bits every time.
	top := map[int32]*[MaxK]float64{}
	for key, v := range accA {
		y := int32(key >> 32)
		c := top[y]
		if c == nil {
			c = new([MaxK]float64)
			top[y] = c
		}
		for i := range k {
			if v > c[i] {
				copy(c[i+1:k], c[i:k-1])
				c[i] = v
				break
			}
		}
	}
	cols := make([]int32, 0, len(top))
	for y := range top {
		cols = append(cols, y)
	}
	slices.Sort(cols)
	var plug [MaxK]float64
	for _, y := range cols {
		var s float64
		for i, v := range top[y][:k] {
			s += v
			plug[i] += s
		}
	}
	mb := float64(cfg.Draws - half)
	ln := math.Log(1 / cfg.Delta)
	b := TightBound{
		DevHi: math.Sqrt(ln / (2 * m)), DevLo: math.Sqrt(ln / (2 * mb)),
		Draws: cfg.Draws, Pairs: len(accA), Columns: len(top),
	}
	for i := range k {
		kb := KBound{PlugIn: plug[i] / m, Fitted: fitted[i] / mb}
		kb.Hi = min(1, kb.PlugIn+b.DevHi+float64(i+1)*cfg.Tau)
		kb.Lo = max(0, kb.Fitted-b.DevLo)
		if i < cfg.TopK {
			b.TopK[i] = kb
		}
		if i == 0 {
			b.Lo, b.Hi, b.PlugIn, b.Fitted = kb.Lo, kb.Hi, kb.PlugIn, kb.Fitted
		}
	}
	return b, nil
}

// tight is Tight's precomputed state.
type tight struct {
	codes  []hamming.Code
	out    *hamming.Index // the allowed words, ids are word ids
	thresh uint64
	radius int
	// The support (words with a positive prior): ids, codes, prior, and
	// the cumulative weights inputs are drawn from.
	ids   []int32
	sc    []hamming.Code
	pi    []float64
	cum   []float64
	total float64
	pos   []int32 // pos[w]: w's place in the support, −1 outside
	// The support's words are scored in two ways: singles one by one,
	// and groups of at least minGroup words sharing one prior value by a
	// histogram of their distances (one vectorized scan), then a range
	// query for the few whose posterior reaches τ.
	singles []int32 // places in the support
	groups  []group
	// like[d] = ((1−q)/q)^(−d) = e^(−ε·d): Pr[z | w] up to a constant.
	like [hamming.Bits + 1]float64
}

func newTight(s Setup) (*tight, error) {
	switch {
	case len(s.Codes) == 0 || len(s.Codes) > math.MaxInt32:
		return nil, fmt.Errorf("%w: %d codes", ErrInvalid, len(s.Codes))
	case len(s.Prior) != len(s.Codes):
		return nil, fmt.Errorf("%w: prior over %d words, %d codes", ErrInvalid, len(s.Prior), len(s.Codes))
	case s.Allowed != nil && len(s.Allowed) != len(s.Codes):
		return nil, fmt.Errorf("%w: allowed over %d words, %d codes", ErrInvalid, len(s.Allowed), len(s.Codes))
	case !(s.Epsilon > 0) || math.IsInf(s.Epsilon, 1):
		return nil, fmt.Errorf("%w: ε = %v, want finite and > 0", ErrInvalid, s.Epsilon)
	}
	idx, err := hamming.NewIndex(s.Codes)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	t := &tight{codes: s.Codes, out: idx, pos: make([]int32, len(s.Codes))}
	if s.Allowed != nil {
		// As the product restricts its outputs (hamming.Index.Without).
		var skip []int32
		for w, ok := range s.Allowed {
			if !ok {
				skip = append(skip, int32(w))
			}
		}
		if len(skip) == len(s.Codes) {
			return nil, fmt.Errorf("%w: no allowed output", ErrInvalid)
		}
		if t.out, err = idx.Without(skip); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
	}
	for w, p := range s.Prior {
		t.pos[w] = -1
		if !(p >= 0) || math.IsInf(p, 1) {
			return nil, fmt.Errorf("%w: prior(%d) = %v", ErrInvalid, w, p)
		}
		if p > 0 {
			t.total += p
			t.pos[w] = int32(len(t.ids))
			t.ids, t.sc = append(t.ids, int32(w)), append(t.sc, s.Codes[w])
			t.pi, t.cum = append(t.pi, p), append(t.cum, t.total)
		}
	}
	if !(t.total > 0) || math.IsInf(t.total, 1) {
		return nil, fmt.Errorf("%w: prior sums to %v", ErrInvalid, t.total)
	}
	for i := range t.pi {
		t.pi[i] /= t.total
	}
	q := 1 / (1 + math.Exp(s.Epsilon))
	t.thresh = sample.BernoulliThreshold(q)
	t.radius = max(1, int(math.Round(hamming.Bits*q)))
	for d := range t.like {
		t.like[d] = math.Exp(-s.Epsilon * float64(d))
	}
	if err := t.grouped(); err != nil {
		return nil, err
	}
	return t, nil
}

// minGroup is the least number of words sharing a prior value that are
// scored as a group.
const minGroup = 32

// group is support words sharing one prior value.
type group struct {
	pi    float64
	idx   *hamming.Index // their codes; ids are places in ids
	ids   []int32        // word ids
	place []int32        // places in the support
}

// grouped splits the support into singles and groups.
func (t *tight) grouped() error {
	by := map[float64][]int32{}
	for i, p := range t.pi {
		by[p] = append(by[p], int32(i))
	}
	var vals []float64
	for p := range by {
		vals = append(vals, p)
	}
	sort.Float64s(vals) // a fixed order: sums do not depend on map order
	for _, p := range vals {
		places := by[p]
		if len(places) < minGroup {
			t.singles = append(t.singles, places...)
			continue
		}
		g := group{pi: p, place: places}
		codes := make([]hamming.Code, len(places))
		for j, i := range places {
			codes[j] = t.sc[i]
			g.ids = append(g.ids, t.ids[i])
		}
		var err error
		if g.idx, err = hamming.NewIndex(codes); err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		t.groups = append(t.groups, g)
	}
	sort.Slice(t.singles, func(a, b int) bool { return t.singles[a] < t.singles[b] })
	return nil
}

// release is BRR's release of word x as the product draws it (the
// mechanism's Privatize: the noise, then the nearest allowed word with
// uniform ties, from the same source in the same order): the noisy code
// and the released word.
func (t *tight) release(x int, src interface{ Uint64() uint64 }) (hamming.Code, int, error) {
	z := t.codes[x]
	for i := range z {
		z[i] ^= sample.Mask64(src, t.thresh)
	}
	nb, err := t.out.Nearest(z, hamming.Options{Ties: hamming.TiesRandom, Rand: src, ExpectedRadius: t.radius})
	if err != nil {
		return z, -1, err
	}
	return z, int(nb.ID), nil
}

// chunkResult is one chunk's accumulators.
type chunkResult struct {
	acc    map[uint64]float64 // key y<<32 | w: Σ posteriors of w over the draws releasing y
	fitted [MaxK]float64      // [k−1]: Σ of the posteriors of g's k best guesses (when g is set)
	err    error
}

// run draws chunks [from, to) of draws (in chunks of TightChunk, keyed by
// their index) with w workers, and returns the accumulated posteriors and,
// when g is not nil, for each k, Σ_j of the posteriors post_{z_j} of g's
// k best guesses for y_j. Chunks are merged in order, so the result does
// not depend on w.
func (t *tight) run(from, to int, cfg TightConfig, w int, g *guesses) (map[uint64]float64, [MaxK]float64, error) {
	first, last := from/TightChunk, (to+TightChunk-1)/TightChunk
	n := last - first
	results := make([]chan chunkResult, n)
	for i := range results {
		results[i] = make(chan chunkResult, 1)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	sem := make(chan struct{}, w+1) // bounds the chunks held unmerged
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				c := first + i
				lo, hi := max(from, c*TightChunk), min(to, (c+1)*TightChunk)
				results[i] <- t.chunk(c, lo, hi, cfg, g)
			}
		}()
	}
	go func() {
		for i := range n {
			sem <- struct{}{}
			next <- i
		}
		close(next)
	}()
	acc := map[uint64]float64{}
	var fitted [MaxK]float64
	var err error
	for i := range n {
		r := <-results[i]
		<-sem
		if r.err != nil && err == nil {
			err = r.err
		}
		for k, v := range r.acc {
			acc[k] += v
		}
		for k, v := range r.fitted {
			fitted[k] += v
		}
	}
	wg.Wait()
	return acc, fitted, err
}

// chunk draws draws [lo, hi) of chunk c.
func (t *tight) chunk(c, lo, hi int, cfg TightConfig, g *guesses) chunkResult {
	var key [40]byte
	copy(key[:], cfg.Key[:])
	binary.LittleEndian.PutUint64(key[32:], uint64(c))
	src := seeded.Key(sha256.Sum256(key[:]))
	r := chunkResult{acc: map[uint64]float64{}}
	ds := make([]int, len(t.singles))
	hists := make([]*hamming.Histogram, len(t.groups))
	var nbs []hamming.Neighbor
	var gs []int32
	for range hi - lo {
		x := t.ids[min(sort.SearchFloat64s(t.cum, sample.UniformOpen(src)*t.total), len(t.ids)-1)]
		z, y, err := t.release(int(x), src)
		if err != nil {
			r.err = err
			return r
		}
		// The normalizer Σ_w π(w)·e^(−ε·d(z, c_w)), exactly.
		var sum float64
		for j, i := range t.singles {
			d := hamming.Distance(z, t.sc[i])
			ds[j] = d
			sum += t.pi[i] * t.like[d]
		}
		for k := range t.groups {
			g := &t.groups[k]
			hists[k] = g.idx.Histogram(hists[k], z)
			var gs float64
			for d := range t.like {
				if c := hists[k].Count(d); c > 0 {
					gs += float64(c) * t.like[d]
				}
			}
			sum += g.pi * gs
		}
		cut := cfg.Tau * sum
		col := uint64(y) << 32
		for j, i := range t.singles {
			if s := t.pi[i] * t.like[ds[j]]; s > 0 && s >= cut {
				r.acc[col|uint64(t.ids[i])] += s / sum
			}
		}
		for k := range t.groups {
			g := &t.groups[k]
			// The largest distance at which a word of the group reaches
			// the cut: π·e^(−ε·d) ≥ cut.
			rad := -1
			for d := range t.like {
				if s := g.pi * t.like[d]; s > 0 && s >= cut {
					rad = d
				} else {
					break
				}
			}
			if rad < 0 {
				continue
			}
			if nbs, err = g.idx.Range(nbs[:0], z, rad, hamming.Options{}); err != nil {
				r.err = err
				return r
			}
			for _, nb := range nbs {
				r.acc[col|uint64(g.ids[nb.ID])] += g.pi * t.like[nb.Dist] / sum
			}
		}
		if g != nil {
			// The posteriors of the k best guesses, summed for each k (a
			// list shorter than k: all of it).
			gs = g.of(int32(y), gs[:0])
			var got float64
			for k := range g.k {
				if k < len(gs) {
					if p := t.pos[gs[k]]; p >= 0 {
						if s := t.pi[p] * t.like[hamming.Distance(z, t.sc[p])]; s > 0 && s >= cut {
							got += s / sum
						}
					}
				}
				r.fitted[k] += got
			}
		}
	}
	return r
}

// guesses is the fitted attacker: its k best guesses for each output.
type guesses struct {
	k   int
	col map[int32][]int32 // best first; only outputs with an accumulated posterior
}

// fit returns the fitted attacker for top-k: for each output with an
// accumulated posterior, its k words with the largest (ties to the lower
// id; fewer where the column has fewer).
func fit(acc map[uint64]float64, k int) *guesses {
	type entry struct {
		v float64
		w int32
	}
	better := func(a, b entry) bool { return a.v > b.v || a.v == b.v && a.w < b.w }
	best := map[int32][]entry{}
	for key, v := range acc {
		y, e := int32(key>>32), entry{v, int32(uint32(key))}
		c := best[y]
		i := len(c)
		for i > 0 && better(e, c[i-1]) {
			i--
		}
		if i >= k {
			continue
		}
		if len(c) < k {
			c = append(c, entry{})
		}
		copy(c[i+1:], c[i:len(c)-1])
		c[i] = e
		best[y] = c
	}
	g := &guesses{k: k, col: make(map[int32][]int32, len(best))}
	for y, c := range best {
		ws := make([]int32, len(c))
		for i, e := range c {
			ws[i] = e.w
		}
		g.col[y] = ws
	}
	return g
}

// of appends to buf the attacker's guesses for output y, best first: its
// column's, then the echo (y itself) if there are fewer than k and the
// echo is not among them.
func (g *guesses) of(y int32, buf []int32) []int32 {
	buf = append(buf, g.col[y]...)
	if len(buf) < g.k && !slices.Contains(buf, y) {
		buf = append(buf, y)
	}
	return buf
}
