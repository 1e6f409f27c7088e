package assetbuild

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/typedtext"
)

// Levels are the named privacy levels the builder calibrates, each with
// its target. On typed text (a prior) the target is the Bayes-optimal
// one-word attacker's top-1 recovery (calibrate_top1.go): one word in
// ten at strong, three in ten at balanced, six in ten at light, the same
// for every mechanism. The numbers are the kept shares the levels had
// before, so a level's name keeps its order of magnitude; what changed is
// that a mechanism whose releases are easy to invert now gets a smaller
// ε. Without a prior (uniform weighting) the target is the mean N_w =
// Pr[M(w) = w] over the vocabulary, as the papers measure it.
var Levels = []struct {
	Name   string
	Target float64
}{{mechanism.LevelStrong, 0.10}, {mechanism.LevelBalanced, 0.30}, {mechanism.LevelLight, 0.60}}

// Calibration protocol. Each (mechanism, level) is a bisection on log ε,
// at most calSteps halvings, until the estimated share is within calTol
// of the target; ε is then rounded to 4 significant digits so the table
// reads cleanly, and the share re-estimated at the rounded ε. Every
// estimate replays the same seeded stream (common random numbers), so the
// estimate is a deterministic function of ε and the bisection does not
// chase sampling noise.
//
// Uniform weighting (the papers' mean N_w): a seeded sample of
// calUniform words, calUniformDraws draws each.
//
// Typed weighting (Σ_w prior(w)·N_w, the expected share of typed tokens
// kept): stratified. The calTop most probable words are each estimated
// with calTopDraws draws and weighed by their probability; the rest of
// the prior's mass by calTail words drawn from it (seeded, with
// replacement), calTailDraws draws each. On SUBTLEXus the top 300 words
// hold about 72% of the tokens, and Σ p² over them is about 0.01; the
// standard error of the share is then below 0.008 (sqrt(0.01/4/60) for
// the top, 0.28·sqrt(1/4/1500) for the tail's choice of words, less for
// its draws). 36,000 draws per estimate keep the default asset's
// calibration within minutes.
const (
	calUniform      = 100
	calUniformDraws = 200
	calTop          = 300
	calTopDraws     = 60
	calTail         = 1500
	calTailDraws    = 12
	calTol          = 0.005
	calSteps        = 40
)

// calibrationMethod describes the protocol in the asset's presets.
func calibrationMethod(typed bool) string {
	if typed {
		return fmt.Sprintf("bisection on log ε until the share of typed word tokens released unchanged (Σ prior(w)·N_w, the prior's %d most probable words %d draws each, the rest of its mass from %d words drawn from it, %d draws each; the product's output vocabulary) is within %g of the level's target; ε rounded to 4 significant digits", calTop, calTopDraws, calTail, calTailDraws, calTol)
	}
	return fmt.Sprintf("bisection on log ε until the mean N_w of a seeded sample of %d words (%d draws each; the product's output vocabulary) is within %g of the level's target; ε rounded to 4 significant digits", calUniform, calUniformDraws, calTol)
}

// CalibrationMethod is recorded in the presets of an asset calibrated
// with uniform weighting; a typed calibration records its own.
var CalibrationMethod = calibrationMethod(false)

// estimator estimates a mechanism's share of words kept: Σ weight[i]·N̂
// of words[i] from draws[i] draws. The first top words are the most
// probable ones, among which the worst word is found (all of them under
// uniform weighting).
type estimator struct {
	words  []int
	draws  []int
	weight []float64
	top    int
}

// uniformEstimator is the papers' mean N_w on a seeded uniform sample.
func uniformEstimator(n int, seed uint64) *estimator {
	sample := rand.New(rand.NewPCG(seed, 5)).Perm(n)[:min(calUniform, n)]
	e := &estimator{words: sample, top: len(sample)}
	for range sample {
		e.draws = append(e.draws, calUniformDraws)
		e.weight = append(e.weight, 1/float64(len(sample)))
	}
	return e
}

// typedEstimator is the stratified estimator of Σ prior(w)·N_w (prior
// sums to 1, one entry per word).
func typedEstimator(prior []float64, seed uint64) (*estimator, error) {
	n := len(prior)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Most probable first, ties to the lower id: deterministic.
	sort.SliceStable(order, func(i, j int) bool { return prior[order[i]] > prior[order[j]] })
	top := min(calTop, n)
	e := &estimator{top: top}
	for _, w := range order[:top] {
		e.words = append(e.words, w)
		e.draws = append(e.draws, calTopDraws)
		e.weight = append(e.weight, prior[w])
	}
	rest := order[top:]
	cum := make([]float64, len(rest))
	mass := 0.0
	for i, w := range rest {
		mass += prior[w]
		cum[i] = mass
	}
	if len(rest) == 0 || !(mass > 0) {
		return e, nil
	}
	r := rand.New(rand.NewPCG(seed, 6))
	for range calTail {
		i := sort.SearchFloat64s(cum, r.Float64()*mass)
		e.words = append(e.words, rest[min(i, len(rest)-1)])
		e.draws = append(e.draws, calTailDraws)
		e.weight = append(e.weight, mass/calTail)
	}
	return e, nil
}

// share estimates m's share of words kept, and the most often kept of
// the top words with its N̂ (ties to the earlier, more probable word).
func (e *estimator) share(m mechanism.Mechanism, src rand.Source) (share float64, worst int, worstN float64, err error) {
	worst = -1
	for i, w := range e.words {
		same := 0
		for range e.draws[i] {
			y, err := m.Privatize(w, src)
			if err != nil {
				return 0, 0, 0, err
			}
			if y == w {
				same++
			}
		}
		nw := float64(same) / float64(e.draws[i])
		share += e.weight[i] * nw
		if i < e.top && (worst < 0 || nw > worstN) {
			worst, worstN = w, nw
		}
	}
	return share, worst, worstN, nil
}

// bracket is each mechanism's search interval for ε, wide enough to hold
// every level on a 256-bit asset (N_w grows with ε for all of them).
type bracket struct {
	name   string
	lo, hi float64
}

// calibrate finds, for every on-device mechanism a supports and every
// level, the ε whose estimated share kept hits the level's target:
// weighted by prior when it is non-nil (typed text; priorName names it),
// uniformly over the vocabulary otherwise. The mechanisms run as the
// product runs them: with the asset's default output vocabulary (its
// exclusion list). Every (mechanism, level) pair draws from its own
// seeded stream, so the result does not depend on the order or the
// parallelism of the search. A level a mechanism cannot reach (TEM on
// Euclidean lists: N_w ≈ 1 at every ε its balls serve) is left out, and
// Preset refuses it.
func calibrate(a *wva.Asset, seed uint64, workers int, prior []float64, priorName string) (*wva.Presets, error) {
	n := a.Len()
	if n < 2 {
		return nil, fmt.Errorf("%w: calibration needs at least 2 words", ErrConfig)
	}
	est := uniformEstimator(n, seed)
	if prior != nil {
		if len(prior) != n {
			return nil, fmt.Errorf("%w: a prior over %d words for %d", ErrConfig, len(prior), n)
		}
		var err error
		if est, err = typedEstimator(prior, seed); err != nil {
			return nil, err
		}
	}
	outputs, err := mechanism.DefaultOutputs(a)
	if err != nil {
		return nil, err
	}
	brackets := []bracket{{mechanism.NameBRR, 0.05, 3}, {mechanism.NameTEMHamming, 0.02, 3}, {mechanism.NameSanText, 0.02, 3}}
	if len(a.Lists) > 0 {
		// 1-DT's draw slows down near its floor (about 5 ms a word at
		// 10⁻⁴): its bracket starts where the levels are still far.
		brackets = append(brackets, bracket{mechanism.Name1DG, 1e-4, 10}, bracket{mechanism.Name1DT, 1e-3, 10})
	}
	if a.TEM != nil {
		// The smallest ε whose Theorem-4.2 radius fits the stored balls.
		lo := 2 / a.TEM.GammaMax() * math.Log((1-mechanism.DefaultBeta)*float64(n-1)/mechanism.DefaultBeta) * (1 + 1e-6)
		brackets = append(brackets, bracket{mechanism.NameTEM, lo, 200 * lo})
	}
	if a.CusText != nil {
		// Inside a set of K words N_w is 1/K at ε = 0 and grows with ε.
		brackets = append(brackets, bracket{mechanism.NameCusText, 1e-3, 1000})
	}
	type job struct {
		b      bracket
		level  string
		target float64
	}
	var jobs []job
	for _, b := range brackets {
		for _, l := range Levels {
			jobs = append(jobs, job{b, l.Name, l.Target})
		}
	}
	// On typed text the levels bound the attacker's recovery
	// (calibrate_top1.go), with the kept share reported beside it.
	var top1 *top1Setup
	if prior != nil {
		var err error
		if top1, err = newTop1Setup(a, prior, outputs, seed, workers); err != nil {
			return nil, err
		}
		// BRR's costly searches first: only the schedule depends on it.
		sort.SliceStable(jobs, func(i, j int) bool {
			return jobs[i].b.name == mechanism.NameBRR && jobs[j].b.name != mechanism.NameBRR
		})
	}
	results := make([]calResult, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				s := search{a: a, b: j.b, outputs: outputs, est: est, seed: calSeed(seed, j.b.name, j.level)}
				if top1 != nil {
					results[i] = top1.calibrate(&s, j.level, j.target)
				} else {
					results[i] = s.bisect(j.target)
				}
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	p := &wva.Presets{Method: calibrationMethod(prior != nil), Targets: map[string]float64{}, Epsilon: map[string]map[string]float64{},
		Measured: map[string]map[string]wva.LevelFacts{}}
	if prior != nil {
		p.Weighting, p.Prior = wva.WeightTyped, priorName
		p.Objective, p.Method = wva.ObjectiveTop1, calibrationMethodTop1()
	}
	for _, l := range Levels {
		p.Targets[l.Name] = l.Target
	}
	for i, j := range jobs {
		r := results[i]
		if r.err == errUnreachable {
			continue
		}
		if r.err != nil {
			return nil, fmt.Errorf("calibrate %s %s: %w", j.b.name, j.level, r.err)
		}
		if p.Epsilon[j.b.name] == nil {
			p.Epsilon[j.b.name] = map[string]float64{}
			p.Measured[j.b.name] = map[string]wva.LevelFacts{}
		}
		p.Epsilon[j.b.name][j.level] = r.eps
		p.Measured[j.b.name][j.level] = wva.LevelFacts{Kept: r.share, WorstWord: a.Word(r.worst), WorstKept: r.worstN, Top1: r.top1}
	}
	return p, nil
}

// errUnreachable marks a level the mechanism cannot reach on the asset.
var errUnreachable = fmt.Errorf("%w: level not reachable", ErrConfig)

// search is one (mechanism, level) calibration.
type search struct {
	a       *wva.Asset
	b       bracket
	outputs *mechanism.Outputs
	est     *estimator
	seed    [32]byte
}

// calResult is a search's ε and the estimates at it.
type calResult struct {
	eps, share, worstN float64
	top1               float64 // the attacker's recovery (typed calibration)
	worst              int
	err                error
}

// measure estimates the share kept at ε, replaying the search's stream.
func (s *search) measure(eps float64) calResult {
	m, err := mechanism.New(s.b.name, s.a, eps, mechanism.Options{Outputs: s.outputs, AllowSaturated: true})
	if err != nil {
		return calResult{err: err}
	}
	share, worst, worstN, err := s.est.share(m, seeded.Key(s.seed))
	return calResult{eps: eps, share: share, worst: worst, worstN: worstN, err: err}
}

// bisect searches log ε in the bracket for a share within calTol of
// target, and returns the estimates at the rounded ε.
func (s *search) bisect(target float64) calResult {
	r := s.measure(s.b.lo)
	if r.err != nil {
		return r
	}
	if r.share > target+calTol {
		return calResult{err: errUnreachable}
	}
	lo, hi := math.Log(s.b.lo), math.Log(s.b.hi)
	for range calSteps {
		mid := (lo + hi) / 2
		r := s.measure(math.Exp(mid))
		if r.err != nil {
			return r
		}
		if math.Abs(r.share-target) <= calTol {
			return s.measure(round4(math.Exp(mid)))
		}
		if r.share < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return calResult{err: errUnreachable}
}

func round4(x float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	return r
}

// calSeed derives the stream of one (mechanism, level) search from the
// build's seed.
func calSeed(seed uint64, name, level string) [32]byte {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:8], seed)
	copy(s[8:], name+"/"+level)
	return s
}

// workers resolves Config.Workers: 0 means every core.
func workers(n int) int {
	if n <= 0 {
		return runtime.NumCPU()
	}
	return n
}

// CalibrationPrior is the prior the levels of an asset built with t are
// calibrated on (and its name), for measurements that give the attacker
// the same word frequencies: nil when t calibrates uniformly.
func CalibrationPrior(a *wva.Asset, t *TypedText) ([]float64, string, error) {
	return calibrationPrior(a, t)
}

// calibrationPrior returns the typed-text prior over a's vocabulary when
// t has counts (nil, uniform calibration, otherwise) and its name: the
// ranking's frequencies (typedtext.Prior), mixed in equal parts with the
// token frequencies of each source of t.PriorTexts.
func calibrationPrior(a *wva.Asset, t *TypedText) ([]float64, string, error) {
	if t == nil || t.Counts == nil {
		return nil, "", nil
	}
	rank := make([]typedtext.WordFreq, len(t.Ranking))
	for i, w := range t.Ranking {
		rank[i] = typedtext.WordFreq{Word: w, Count: t.Counts[i]}
	}
	prior, mass, err := typedtext.Prior(rank, a.Len(), a.Lookup)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrConfig, err)
	}
	name := fmt.Sprintf("%s: each word's count (clitic pieces as the tokenizer splits them) plus %g, normalized over the vocabulary, which holds %.1f%% of the counted tokens", t.RankingSource, typedtext.PriorSmoothing, 100*mass)
	if t.PriorTexts == nil {
		return prior, name, nil
	}
	counts := map[string][]int64{}
	var sources []string
	err = t.PriorTexts(func(source, doc string) error {
		c := counts[source]
		if c == nil {
			c = make([]int64, a.Len())
			counts[source] = c
			sources = append(sources, source)
		}
		privatize.WordIDs(a, doc, func(_ string, id int, ok bool) {
			if ok {
				c[id]++
			}
		})
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	parts := [][]float64{prior}
	var names []string
	for _, src := range sources {
		f, err := typedtext.Frequencies(counts[src])
		if err != nil {
			return nil, "", fmt.Errorf("%w: %s: %v", ErrConfig, src, err)
		}
		parts = append(parts, f)
		var n int64
		for _, x := range counts[src] {
			n += x
		}
		names = append(names, fmt.Sprintf("%s (%d in-vocabulary tokens)", src, n))
	}
	if prior, err = typedtext.Mix(parts...); err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return prior, fmt.Sprintf("an equal mixture of %d sources of everyday English: %s; and the token frequencies of %s, as the privatizer cuts and looks them up", len(parts), name, strings.Join(names, ", ")), nil
}
