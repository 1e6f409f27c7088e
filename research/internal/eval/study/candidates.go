package study

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/wordveil/wordveil/internal/mechanism"
)

// CandidatePrefix names a candidate on-device configuration of the search
// for the best one: "cand:1dt-1+top20k" runs that candidate at the ε that
// put its N_w on each of CandidateTargets.
//
// The search compares mechanisms on the empirical privacy–utility plane
// (accuracy against N_w), so a candidate is not run on the ε grid: its ε
// values are calibrated, when its spec is built, so that its N_w, measured
// with the study's own deniability protocol, hits each target within
// CandidateTolerance. Matched is NaN: no ratio matching applies.
const CandidatePrefix = "cand:"

// CandidateTargets are the N_w levels a candidate is calibrated to, in
// grid order.
var CandidateTargets = []float64{0.1, 0.25, 0.5}

// CandidateTolerance is how far a calibrated N_w may be from its target.
const CandidateTolerance = 0.01

// CandidateSeed is the seed of the calibration's deniability words and
// draws: the research CLI's default evaluation seed (-seed 1), so the
// calibration measures N_w on the same words, with the same draws, as the
// deniability cell a default study records for the candidate.
const CandidateSeed = 1

// ErrUnreachable is returned (wrapped, with the N_w range seen) for an N_w
// target a candidate cannot reach within its ε range.
var ErrUnreachable = errors.New("unreachable N_w target")

// Candidate is one on-device configuration: a mechanism of package
// mechanism, its lists (the list mechanisms) and its output vocabulary.
type Candidate struct {
	Name  string // the part after CandidatePrefix
	Mech  string // mechanism name (mechanism.NameBRR, ...)
	Lists int    // lists used by 1dg and 1dt (1 or 2); 0 for the others
	// Default restricts the outputs to the asset's default output
	// vocabulary (mechanism.DefaultOutputs: every word but the exclusion
	// list), as the mobile API and the CLI do.
	Default bool
	// Top > 0 restricts the outputs further to the Top most frequent
	// words (ids are in frequency order: ids < Top), minus the default
	// exclusions. An input outside them is never released unchanged, so
	// on words uniform over the vocabulary N_w ≤ Top/N: targets above
	// that are unreachable.
	Top   int
	Label string // display name in the report
}

// Candidates is the search space, in report order: every on-device base
// mechanism with all outputs allowed (the papers' protocol), then output
// vocabulary variants of the three that the earlier measurements and the
// mechanisms' shapes make most promising:
//   - 1-DT with one list led the on-device mechanisms at N_w ≈ 0.25
//     (72.4% against BRR's 67.4% on the previous asset);
//   - TEM on Hamming codes is the same exponential mechanism over a
//     finer metric and had not been measured;
//   - BRR is the simplest and cheapest; one variant tells whether a
//     restricted vocabulary helps it as much as the others.
//
// The variants are the asset's default output vocabulary (what the SDK
// ships) and the 20,000 and 10,000 most frequent words: noise that can
// only land on common words may leave a classifier more signal. The 5,000
// most frequent words are not a candidate: on words uniform over a
// vocabulary of 50,000, N_w ≤ 5,000/50,000 = 0.1, and on the research
// asset 1-DT so restricted measured at most 0.090 even at its largest ε,
// so no target is reachable. CusText is not restricted to frequent words:
// that would empty most of its output sets.
var Candidates = []Candidate{
	{Name: "brr", Mech: mechanism.NameBRR, Label: "BRR"},
	{Name: "tem-hamming", Mech: mechanism.NameTEMHamming, Label: "TEM (Hamming)"},
	{Name: "santext", Mech: mechanism.NameSanText, Label: "SanText (Hamming)"},
	{Name: "custext", Mech: mechanism.NameCusText, Label: "CusText"},
	{Name: "1dg-1", Mech: mechanism.Name1DG, Lists: 1, Label: "1-DG, 1 list"},
	{Name: "1dg-2", Mech: mechanism.Name1DG, Lists: 2, Label: "1-DG, 2 lists"},
	{Name: "1dt-1", Mech: mechanism.Name1DT, Lists: 1, Label: "1-DT, 1 list"},
	{Name: "1dt-2", Mech: mechanism.Name1DT, Lists: 2, Label: "1-DT, 2 lists"},
	{Name: "1dt-1+default", Mech: mechanism.Name1DT, Lists: 1, Default: true, Label: "1-DT, 1 list, default outputs"},
	{Name: "1dt-1+top20k", Mech: mechanism.Name1DT, Lists: 1, Default: true, Top: 20000, Label: "1-DT, 1 list, top 20k outputs"},
	{Name: "1dt-1+top10k", Mech: mechanism.Name1DT, Lists: 1, Default: true, Top: 10000, Label: "1-DT, 1 list, top 10k outputs"},
	{Name: "tem-hamming+default", Mech: mechanism.NameTEMHamming, Default: true, Label: "TEM (Hamming), default outputs"},
	{Name: "tem-hamming+top20k", Mech: mechanism.NameTEMHamming, Default: true, Top: 20000, Label: "TEM (Hamming), top 20k outputs"},
	{Name: "tem-hamming+top10k", Mech: mechanism.NameTEMHamming, Default: true, Top: 10000, Label: "TEM (Hamming), top 10k outputs"},
	{Name: "brr+top10k", Mech: mechanism.NameBRR, Default: true, Top: 10000, Label: "BRR, top 10k outputs"},
}

// CandidateNames returns the study mechanism names of all candidates
// ("cand:brr", ...), in report order.
func CandidateNames() []string {
	out := make([]string, len(Candidates))
	for i, c := range Candidates {
		out[i] = CandidatePrefix + c.Name
	}
	return out
}

// calibration is how candidate ε values are found: a bisection in log ε
// on a cheap N_w estimate (the study's words, fewer draws per word), then
// on the full protocol, whose value at the returned ε is exactly the
// deniability cell a study with the same seed records (same words, same
// draws: the study's label for that cell).
type calibration struct {
	Seed          uint64
	Words, Draws  int // the study's deniability protocol
	CoarseDraws   int // draws per word in the coarse stage
	Coarse, Final int // bisection steps per target in each stage
}

// defaultCalibration follows the study's defaults (Config.defaults).
var defaultCalibration = calibration{Seed: CandidateSeed, Words: 100, Draws: 100, CoarseDraws: 10, Coarse: 40, Final: 16}

// candidateSpec returns the spec of "cand:NAME", calibrated with the
// study's default deniability protocol. Levels whose target is unreachable
// are left out (they are reported as not reached); a candidate that
// reaches none is an error naming why.
func candidateSpec(env *Env, name string) (Spec, error) {
	short, ok := strings.CutPrefix(name, CandidatePrefix)
	if !ok {
		return Spec{}, fmt.Errorf("candidate %q: the name must start with %q", name, CandidatePrefix)
	}
	for _, c := range Candidates {
		if c.Name == short {
			s, _, err := calibrateCandidate(env, c, defaultCalibration)
			return s, err
		}
	}
	known := make([]string, len(Candidates))
	for i, c := range Candidates {
		known[i] = c.Name
	}
	return Spec{}, fmt.Errorf("unknown candidate %q (known: %v)", short, known)
}

// level is one calibrated target: its ε and the N_w measured there with
// the full protocol, or why it was not reached.
type level struct {
	Target, Eps, NW float64
	Err             error
}

// calibrateCandidate builds c's spec: one grid point per reachable target
// of CandidateTargets, in order. levels reports every target.
func calibrateCandidate(env *Env, c Candidate, cal calibration) (Spec, []level, error) {
	name := CandidatePrefix + c.Name
	if env == nil || env.Asset == nil || env.Ham == nil {
		return Spec{}, nil, fmt.Errorf("%s: no research environment", name)
	}
	if cal.Words <= 0 || cal.Draws <= 0 || cal.CoarseDraws <= 0 || cal.Coarse <= 0 || cal.Final <= 0 {
		return Spec{}, nil, fmt.Errorf("%s: calibration needs positive words, draws and steps: %+v", name, cal)
	}
	build, family, err := c.builder(env)
	if err != nil {
		return Spec{}, nil, fmt.Errorf("%s: %w", name, err)
	}
	lo, hi, err := epsRange(env, build)
	if err != nil {
		return Spec{}, nil, fmt.Errorf("%s: %w", name, err)
	}
	s := Spec{Name: name, Family: family, Pooled: family == "hamming", build: build}
	n := env.Asset.Len()
	var levels []level
	var errs []error
	for _, t := range CandidateTargets {
		e := len(s.Eps) // the grid index this level gets if reached
		// The coarse estimate: the study's words, its own draws.
		coarse := func(eps float64) (float64, error) {
			return nwAt(build, env, eps, n, cal.Words, cal.CoarseDraws, cal.Seed, source(cal.Seed, "calibrate/"+name))
		}
		// The full protocol, with the source of the study's own cell.
		full := func(eps float64) (float64, error) {
			label := fmt.Sprintf("%s/%s/%d/%d", "deniability", name, e, 0)
			return nwAt(build, env, eps, n, cal.Words, cal.Draws, cal.Seed, source(cal.Seed, label))
		}
		eps, nw, err := calibrateTarget(coarse, full, t, lo, hi, cal)
		if err != nil {
			err = fmt.Errorf("%s: N_w %.2f: %w", name, t, err)
			levels = append(levels, level{Target: t, Err: err})
			errs = append(errs, err)
			continue
		}
		levels = append(levels, level{Target: t, Eps: eps, NW: nw})
		s.Eps = append(s.Eps, eps)
		s.Matched = append(s.Matched, nan)
		// N_w grows with ε: the next target lies above this one.
		lo = eps
	}
	if len(s.Eps) == 0 {
		return Spec{}, levels, errors.Join(errs...)
	}
	return s, levels, nil
}

// nwAt is the mean N_w of build at eps under the deniability protocol.
func nwAt(build func(*Env, float64) (sampler, error), env *Env, eps float64, n, words, draws int, seed uint64, src rand.Source) (float64, error) {
	s, err := build(env, eps)
	if err != nil {
		return 0, err
	}
	nw, _, err := deniability(s, n, words, draws, seed, src)
	return nw, err
}

// calibrateTarget finds ε in [lo, hi] with |N_w(ε) − t| ≤ tolerance on the
// full estimate: bisection in log ε on the coarse estimate until it is
// within half the tolerance, then on the full one within the bracket
// left. N_w is taken to grow with ε (true of every candidate's law; with
// common draws at every ε the estimates are close to monotone too). Both
// stages are bounded by cal's step counts.
func calibrateTarget(coarse, full func(float64) (float64, error), t, lo, hi float64, cal calibration) (float64, float64, error) {
	// The range ends with the full protocol: a target outside it is
	// unreachable, whatever the bisection would do.
	fLo, err := full(lo)
	if err != nil {
		return 0, 0, err
	}
	fHi, err := full(hi)
	if err != nil {
		return 0, 0, err
	}
	switch {
	case math.Abs(fLo-t) <= CandidateTolerance:
		return lo, fLo, nil
	case math.Abs(fHi-t) <= CandidateTolerance:
		return hi, fHi, nil
	case t < fLo || t > fHi:
		return 0, 0, fmt.Errorf("%w: N_w runs from %.3f to %.3f over ε ∈ [%.4g, %.4g]", ErrUnreachable, fLo, fHi, lo, hi)
	}
	a, b := math.Log(lo), math.Log(hi)
	for range cal.Coarse {
		m := (a + b) / 2
		v, err := coarse(math.Exp(m))
		if err != nil {
			return 0, 0, err
		}
		if math.Abs(v-t) <= CandidateTolerance/2 {
			break
		}
		if v < t {
			a = m
		} else {
			b = m
		}
	}
	// The coarse point first; then bisect on the full estimate, widening
	// to the whole range if the coarse one misled the bracket.
	m := (a + b) / 2
	a, b = math.Log(lo), math.Log(hi)
	for range cal.Final {
		v, err := full(math.Exp(m))
		if err != nil {
			return 0, 0, err
		}
		if math.Abs(v-t) <= CandidateTolerance {
			return math.Exp(m), v, nil
		}
		if v < t {
			a = m
		} else {
			b = m
		}
		m = (a + b) / 2
	}
	return 0, 0, fmt.Errorf("%w: no ε within %d full-protocol steps put N_w within %.2f of the target", ErrUnreachable, cal.Final, CandidateTolerance)
}

// epsRange is the ε range a candidate is searched over: up to twice the
// mechanism's saturation ε (where N_w ≥ 0.99 without restriction) or
// 10^4, and down a factor 10^6 from there (every candidate is close to
// uniform noise, N_w ≈ 1/N, well above that), but never below the
// mechanism's accepted floor (mechanism.EpsilonRange), which it refuses.
func epsRange(env *Env, build func(*Env, float64) (sampler, error)) (float64, float64, error) {
	hi, floor := 1e4, 0.0
	s, err := build(env, 1)
	if err != nil {
		return 0, 0, err
	}
	if ss, ok := s.(singleSampler); ok {
		if f, ok := ss.m.(mechanism.Facts); ok {
			if sat := f.SaturationEpsilon(); sat > 0 && !math.IsInf(sat, 0) {
				hi = min(2*sat, hi)
			}
		}
		if lo, _, ok := mechanism.EpsilonRange(ss.m); ok {
			// A hair above: the floor is a quotient a rounding may leave
			// just below what the constructor accepts.
			floor = lo * (1 + 1e-9)
		}
	}
	return max(hi*1e-6, floor), hi, nil
}

// builder returns c's sampler constructor over env and its family. The
// output vocabulary is computed once here.
func (c Candidate) builder(env *Env) (func(*Env, float64) (sampler, error), string, error) {
	var base func(env *Env, eps float64) (mechanism.Mechanism, error)
	family := "hamming"
	switch c.Mech {
	case mechanism.NameBRR:
		base = func(env *Env, eps float64) (mechanism.Mechanism, error) { return mechanism.NewBRR(env.Ham, eps) }
	case mechanism.NameTEMHamming:
		base = func(env *Env, eps float64) (mechanism.Mechanism, error) {
			return mechanism.NewTEMHamming(env.Ham, eps, mechanism.TEMOptions{})
		}
	case mechanism.NameSanText:
		base = func(env *Env, eps float64) (mechanism.Mechanism, error) { return mechanism.NewSanText(env.Ham, eps) }
	case mechanism.NameCusText:
		family = "custext"
		base = func(env *Env, eps float64) (mechanism.Mechanism, error) { return mechanism.NewCusText(env.Asset, eps) }
	case mechanism.Name1DG, mechanism.Name1DT:
		k := c.Lists
		if k < 1 || k > len(env.Asset.Lists) {
			return nil, "", fmt.Errorf("%s needs 1 to %d lists, asked for %d", c.Mech, len(env.Asset.Lists), k)
		}
		family = "list"
		if k > 1 {
			family = "lists"
		}
		geometric := c.Mech == mechanism.Name1DG
		base = func(env *Env, eps float64) (mechanism.Mechanism, error) {
			if geometric {
				return mechanism.NewDiffractorGeometric(env.Asset.Lists[:k], eps)
			}
			return mechanism.NewDiffractorTEM(env.Asset.Lists[:k], eps, mechanism.TEMOptions{})
		}
	default:
		return nil, "", fmt.Errorf("no candidate mechanism %q", c.Mech)
	}
	if c.Lists != 0 && c.Mech != mechanism.Name1DG && c.Mech != mechanism.Name1DT {
		return nil, "", fmt.Errorf("%s takes no list count", c.Mech)
	}
	o, err := c.outputs(env)
	if err != nil {
		return nil, "", err
	}
	return func(env *Env, eps float64) (sampler, error) {
		m, err := base(env, eps)
		if err != nil || o == nil {
			return single(m, err)
		}
		return single(mechanism.Restrict(m, o))
	}, family, nil
}

// outputs is c's output vocabulary over env's asset (nil: every word).
func (c Candidate) outputs(env *Env) (*mechanism.Outputs, error) {
	if c.Top < 0 {
		return nil, fmt.Errorf("negative output vocabulary size %d", c.Top)
	}
	if !c.Default && c.Top == 0 {
		return nil, nil
	}
	def, err := mechanism.DefaultOutputs(env.Asset)
	if err != nil {
		return nil, err
	}
	n := env.Asset.Len()
	if c.Top == 0 || c.Top >= n {
		return def, nil
	}
	excluded := make([]int, 0, n-c.Top)
	for id := range n {
		if id >= c.Top || (def != nil && !def.Allowed(id)) {
			excluded = append(excluded, id)
		}
	}
	return mechanism.NewOutputs(n, excluded)
}
