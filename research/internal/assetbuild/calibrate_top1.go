package assetbuild

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/attack"
	"github.com/wordveil/wordveil/research/internal/eval/brrbound"
	"github.com/wordveil/wordveil/research/internal/eval/levels"
)

// Calibration on what an attacker recovers (typed weighting). A level's
// target is the top-1 recovery of the Bayes-optimal reconstruction
// attacker of one word: it knows the mechanism, ε, the asset and the
// prior, sees one released word, and guesses the input w maximizing
// prior(w)·Pr[M(w) = y]. Its success rate for inputs drawn from the
// prior, R₁ = Σ_y max_w prior(w)·Pr[M(w) = y], is what the level bounds,
// the same target for every mechanism; the share of words kept becomes a
// fact reported beside it. Why this and not the kept share: a mechanism
// that releases a near neighbour from a short list (1-Diffractor,
// CusText) keeps as few words as one that releases far words, yet the
// attacker inverts its release three times as often.
//
// The estimate. calTop1Tokens tokens are drawn from the prior (seeded),
// privatized once by the product's mechanism (its default output
// vocabulary) and attacked with the exact law's column
// (research/internal/eval/levels, attack.Attack): an unbiased estimate
// of R₁ whose standard error is below sqrt(0.25/calTop1Tokens) = 0.0035.
// The draws replay the same seeded stream at every ε (common random
// numbers), so the estimate is a deterministic function of ε and the
// search does not chase noise.
//
// BRR has no closed-form law. Its estimate is the midpoint of the
// two-sided interval of brrbound.Tight with calBRRDraws draws from the
// prior: the plug-in optimum (biased up) and the recovery of an attacker
// fitted on half of the draws (biased down) straddle R₁. At 2^18 draws
// the two are about 0.03–0.06 apart on the default asset, so the
// midpoint is within about ±0.02 of R₁; docs/eval's two-sided bound on
// held-out text (2^20 draws) says how close.
//
// The search. The attacker's recovery grows with ε for every mechanism
// here, so each (mechanism, level) is a root search on log ε: the
// Illinois variant of regula falsi, which keeps a bracket like bisection
// and converges in a handful of steps on a smooth curve, until the
// estimate is within calTol of the target; ε is then rounded to 4
// significant digits and re-estimated. BRR's bracket starts from its
// kept-share calibration at the same target (the attacker who guesses
// the released word recovers exactly the kept share, so the Bayes
// attacker recovers at least as much: that ε is at or above the root).
const (
	calTop1Tokens = 20000
	calBRRDraws   = 1 << 18
	calBRRDelta   = 0.025
	calBRRTau     = 1e-3
)

// calibrationMethodTop1 describes the recovery protocol in the presets.
func calibrationMethodTop1() string {
	return fmt.Sprintf("root search on log ε (regula falsi, Illinois) until the Bayes-optimal one-word attacker's top-1 recovery on typed text (inputs drawn from the prior, %d tokens each privatized once and attacked with the exact law; BRR: the midpoint of a two-sided bound from %d draws) is within %g of the level's target; the product's output vocabulary; ε rounded to 4 significant digits", calTop1Tokens, calBRRDraws, calTol)
}

// priorTokens draws n word ids from prior (which sums to 1), seeded.
func priorTokens(prior []float64, n int, seed uint64) []int {
	cum := make([]float64, len(prior))
	s := 0.0
	for i, p := range prior {
		s += p
		cum[i] = s
	}
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]int, n)
	for i := range out {
		out[i] = min(sort.SearchFloat64s(cum, r.Float64()*s), len(prior)-1)
	}
	return out
}

// top1Search is one (mechanism, level) calibration on the attacker's
// recovery.
type top1Search struct {
	a      *wva.Asset
	laws   *levels.Laws
	name   string
	level  string
	tokens []int
	prior  []float64
	brr    brrbound.Setup
	seed   uint64
	memo   map[float64]float64 // ε → recovery: a costly BRR estimate is made once
}

// recovery estimates R₁ at ε. A mechanism the product refuses at ε
// because it would keep nearly every word (saturated) counts as full
// recovery: the root lies below.
func (s *top1Search) recovery(eps float64) (float64, error) {
	if v, ok := s.memo[eps]; ok {
		return v, nil
	}
	v, err := s.estimate(eps)
	if err == nil {
		if s.memo == nil {
			s.memo = map[float64]float64{}
		}
		s.memo[eps] = v
	}
	return v, err
}

func (s *top1Search) estimate(eps float64) (float64, error) {
	p := levels.Preset{Mechanism: s.name, Level: s.level, Epsilon: eps}
	key := levels.Key(s.seed, p, "calibrate")
	if s.name == mechanism.NameBRR {
		b := s.brr
		b.Epsilon = eps
		t, err := brrbound.Tight(b, brrbound.TightConfig{Draws: calBRRDraws, Delta: calBRRDelta, Tau: calBRRTau, Workers: 1, Key: key})
		if err != nil {
			return 0, err
		}
		return (t.Fitted + t.PlugIn) / 2, nil
	}
	m, col, _, err := s.laws.Law(p, s.seed)
	if errors.Is(err, mechanism.ErrEpsilonSaturated) {
		return 1, nil
	}
	if err != nil {
		return 0, err
	}
	r, err := attack.Attack(s.tokens, m, seeded.Key(key), col, s.prior, 1)
	if err != nil {
		return 0, err
	}
	return r.Recovery[0].Rate, nil
}

// root finds ε in [lo, hi] whose recovery is within calTol of target,
// rounded to 4 significant digits, and returns it with its recovery.
// errUnreachable when the recovery at lo is already above the target or
// the one at hi below it.
func (s *top1Search) root(lo, hi, target float64) (eps, r float64, err error) {
	f := func(x float64) (float64, error) {
		v, err := s.recovery(math.Exp(x))
		return v - target, err
	}
	// Each end as given, so that the memo recognizes an ε already
	// estimated (exp(log(ε)) need not be ε).
	fl, err := s.recovery(lo)
	if err != nil {
		return 0, 0, err
	}
	fl -= target
	if fl > 0 {
		// Even at the smallest ε the attacker recovers more than the
		// target: the level is out of the mechanism's reach (CusText,
		// whose sets each hold a frequent word the attacker guesses).
		return 0, 0, errUnreachable
	}
	fh, err := s.recovery(hi)
	if err != nil {
		return 0, 0, err
	}
	fh -= target
	if fh < -calTol {
		return 0, 0, errUnreachable
	}
	xl, xh := math.Log(lo), math.Log(hi)
	x, fx := xl, fl
	if math.Abs(fh) < math.Abs(fl) {
		x, fx = xh, fh
	}
	side := 0
	for range calSteps {
		if math.Abs(fx) <= calTol {
			break
		}
		// Regula falsi; Illinois: halve the kept end's value when the
		// same end is kept twice, so the bracket shrinks from both sides.
		x = (xl*fh - xh*fl) / (fh - fl)
		if !(x > xl && x < xh) {
			x = (xl + xh) / 2
		}
		if fx, err = f(x); err != nil {
			return 0, 0, err
		}
		switch {
		case fx < 0:
			xl, fl = x, fx
			if side == -1 {
				fh /= 2
			}
			side = -1
		default:
			xh, fh = x, fx
			if side == 1 {
				fl /= 2
			}
			side = 1
		}
	}
	if math.Abs(fx) > calTol {
		return 0, 0, errUnreachable
	}
	eps = round4(math.Exp(x))
	r, err = s.recovery(eps)
	return eps, r, err
}

// top1Setup is what every recovery search of one calibration shares.
type top1Setup struct {
	a      *wva.Asset
	laws   *levels.Laws
	tokens []int
	prior  []float64
	brr    brrbound.Setup
	seed   uint64
}

func newTop1Setup(a *wva.Asset, prior []float64, outs *mechanism.Outputs, seed uint64, workers int) (*top1Setup, error) {
	// Every Hamming mechanism's column needs the histograms: name one.
	laws, err := levels.NewLaws(a, prior, []levels.Preset{{Mechanism: mechanism.NameTEMHamming}}, workers)
	if err != nil {
		return nil, err
	}
	allowed := outs.Mask(a.Len())
	return &top1Setup{a: a, laws: laws, tokens: priorTokens(prior, calTop1Tokens, seed), prior: prior,
		brr: brrbound.Setup{Codes: a.Codes, Allowed: allowed, Prior: prior}, seed: seed}, nil
}

// calibrate searches s's mechanism at level for the ε whose recovery is
// target, and reports the kept share (s's estimator) at it.
func (t *top1Setup) calibrate(s *search, level string, target float64) calResult {
	// The attacker who guesses the released word recovers the kept
	// share, so a level whose kept share at the bracket's low end is
	// already above the target is out of reach (and needs no column:
	// TEM on Euclidean lists).
	r := s.measure(s.b.lo)
	if r.err != nil {
		return r
	}
	if r.share > target+calTol {
		return calResult{err: errUnreachable}
	}
	ts := top1Search{a: t.a, laws: t.laws, name: s.b.name, level: level, tokens: t.tokens, prior: t.prior, brr: t.brr, seed: t.seed}
	lo, hi := s.b.lo, s.b.hi
	if s.b.name == mechanism.NameBRR {
		// The kept-share root is at or above the recovery root; a fifth
		// below it is usually below (widened if not).
		k := s.bisect(target)
		if k.err != nil {
			return k
		}
		hi = k.eps
		lo = max(s.b.lo, 0.8*hi)
		for lo > s.b.lo {
			v, err := ts.recovery(lo)
			if err != nil {
				return calResult{err: err}
			}
			if v < target {
				break
			}
			lo = max(s.b.lo, 0.8*lo)
		}
	}
	eps, top1, err := ts.root(lo, hi, target)
	if err != nil {
		return calResult{err: err}
	}
	r = s.measure(eps)
	r.top1 = top1
	return r
}
