package assetbuild

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"

	"github.com/wordveil/wordveil/internal/deniability"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
)

// Levels are the named privacy levels the builder calibrates, each with
// the mean N_w = Pr[M(w) = w] (the chance a word is released unchanged)
// it targets.
var Levels = []struct {
	Name   string
	Target float64
}{{mechanism.LevelStrong, 0.10}, {mechanism.LevelBalanced, 0.30}, {mechanism.LevelLight, 0.60}}

// Calibration protocol: a seeded sample of calSample words, calDraws draws
// each; bisection on log ε until the sample's mean N_w is within calTol of
// the target, at most calSteps halvings; ε then rounded to 4 significant
// digits so the table reads cleanly.
const (
	calSample = 100
	calDraws  = 200
	calTol    = 0.02
	calSteps  = 30
)

// CalibrationMethod is recorded in the asset's presets.
var CalibrationMethod = fmt.Sprintf("bisection on log ε until the mean N_w of a seeded sample of %d words (%d draws each) is within %g of the level's target; ε rounded to 4 significant digits", calSample, calDraws, calTol)

// bracket is each mechanism's search interval for ε, wide enough to hold
// every level on a 256-bit asset (N_w grows with ε for all of them).
type bracket struct {
	name   string
	lo, hi float64
}

// calibrate finds, for every on-device mechanism a supports and every
// level, the ε whose mean N_w hits the level's target. Every (mechanism,
// level) pair draws from its own seeded stream, so the result does not
// depend on the order or the parallelism of the search. A level a
// mechanism cannot reach (TEM on Euclidean lists: N_w ≈ 1 at every ε its
// balls serve) is left out, and Preset refuses it.
func calibrate(a *wva.Asset, seed uint64, workers int) (*wva.Presets, error) {
	n := a.Len()
	if n < 2 {
		return nil, fmt.Errorf("%w: calibration needs at least 2 words", ErrConfig)
	}
	sample := rand.New(rand.NewPCG(seed, 5)).Perm(n)[:min(calSample, n)]
	brackets := []bracket{{mechanism.NameBRR, 0.05, 3}, {mechanism.NameTEMHamming, 0.02, 3}, {mechanism.NameSanText, 0.02, 3}}
	if len(a.Lists) > 0 {
		brackets = append(brackets, bracket{mechanism.Name1DG, 1e-4, 10}, bracket{mechanism.Name1DT, 1e-4, 10})
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
	eps := make([]float64, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				src := seeded.Key(calSeed(seed, j.b.name, j.level))
				eps[i], errs[i] = bisect(a, j.b, j.target, sample, src)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	p := &wva.Presets{Method: CalibrationMethod, Targets: map[string]float64{}, Epsilon: map[string]map[string]float64{}}
	for _, l := range Levels {
		p.Targets[l.Name] = l.Target
	}
	for i, j := range jobs {
		if errs[i] == errUnreachable {
			continue
		}
		if errs[i] != nil {
			return nil, fmt.Errorf("calibrate %s %s: %w", j.b.name, j.level, errs[i])
		}
		if p.Epsilon[j.b.name] == nil {
			p.Epsilon[j.b.name] = map[string]float64{}
		}
		p.Epsilon[j.b.name][j.level] = eps[i]
	}
	return p, nil
}

// errUnreachable marks a level the mechanism cannot reach on the asset.
var errUnreachable = fmt.Errorf("%w: level not reachable", ErrConfig)

// bisect searches log ε in b for a mean N_w within calTol of target.
func bisect(a *wva.Asset, b bracket, target float64, sample []int, src rand.Source) (float64, error) {
	measure := func(e float64) (float64, error) {
		m, err := mechanism.New(b.name, a, e, mechanism.Options{AllowSaturated: true})
		if err != nil {
			return 0, err
		}
		d, err := deniability.Estimate(m, sample, calDraws, src)
		return d.MeanN, err
	}
	nlo, err := measure(b.lo)
	if err != nil {
		return 0, err
	}
	if nlo > target+calTol {
		return 0, errUnreachable
	}
	lo, hi := math.Log(b.lo), math.Log(b.hi)
	for range calSteps {
		mid := (lo + hi) / 2
		nw, err := measure(math.Exp(mid))
		if err != nil {
			return 0, err
		}
		if math.Abs(nw-target) <= calTol {
			return round4(math.Exp(mid)), nil
		}
		if nw < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return 0, errUnreachable
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
