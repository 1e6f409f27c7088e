package mechanism

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/wva"
)

// dgMech is the mechanism NewDiffractorGeometric documents.
type dgMech struct {
	lists []wva.Permutation
	lo    *listOutputs // nil: every position may be released
	sh    *assetShared // set by New: what it shares with other mechanisms on the asset (nil otherwise)
	n     int
	eps   float64
	// noise is the two-sided geometric at ε pooled at ±(N−1): from any
	// position p in [0, N−1], every G ≥ N−1 clamps p+G to N−1 and every
	// G ≤ −(N−1) clamps it to 0, so pooling the tails there leaves the
	// clamped position's law exactly that of the unbounded noise.
	noise *sample.SignedGeometric
}

// newDG validates the parameters and builds the mechanism; see NewDiffractorGeometric.
func newDG(lists []wva.Permutation, eps float64) (*dgMech, error) {
	n, err := checkLists(Name1DG, lists)
	if err != nil {
		return nil, err
	}
	if err := checkEpsilonRange(eps, listFloor(n)); err != nil {
		return nil, fmt.Errorf("1dg: %w", err)
	}
	return dgWith(lists, n, eps)
}

// dgWith builds 1-DG on checked lists of n words at any ε > 0: the
// sampler is exact for every ε (tests use it below the floor too).
func dgWith(lists []wva.Permutation, n int, eps float64) (*dgMech, error) {
	noise, err := sample.NewSignedGeometric(eps, n-1)
	if err != nil {
		return nil, fmt.Errorf("1dg: %w", err)
	}
	return &dgMech{lists: lists, n: n, eps: eps, noise: noise}, nil
}

// Privatize returns 1-DG's output for word w.
func (m *dgMech) Privatize(w int, src rand.Source) (int, error) {
	if err := checkCall(Name1DG, w, m.n, src); err != nil {
		return -1, err
	}
	k := sample.UniformInt(src, len(m.lists))
	l := &m.lists[k]
	p := clampPos(int(l.Pos[w])+m.noise.Draw(src), m.n)
	// The nearest allowed position to the noisy one (the lower on a tie):
	// post-processing of the private position, in O(log N).
	return int(l.Order[m.lo.nearest(k, p)]), nil
}

// restrict returns 1-DG with the same lists and ε over outputs o.
func (m *dgMech) restrict(o *Outputs) (Mechanism, error) {
	r := *m
	r.lo = restrictLists(m.sh, m.lists, o)
	return &r, nil
}

// Epsilon returns ε.
func (m *dgMech) Epsilon() float64 { return m.eps }

// Metric names the list-position metric.
func (m *dgMech) Metric() string { return listMetric(m.lists) }

// Len returns the vocabulary size.
func (m *dgMech) Len() int { return m.n }

// dtMech is the mechanism NewDiffractorTEM documents.
type dtMech struct {
	lists []wva.Permutation
	lo    *listOutputs // nil: every position may be released
	sh    *assetShared // set by New: what it shares with other mechanisms on the asset (nil otherwise)
	n     int
	eps   float64
	gamma float64
	r     int // ⌊γ⌋ capped at N−1: |p'−p| ≤ γ ⟺ |p'−p| ≤ r
	opts  TEMOptions
	// noise is the two-sided geometric at ε/2 pooled at ±(r+1): the
	// window is [p−left, p+right] with left, right ≤ r, so every offset
	// of magnitude ≥ r+1 is outside it and rejected, pooled or not; the
	// accepted offsets keep their exact conditional law.
	noise *sample.SignedGeometric
	// Per-call constants of Privatize, computed once by dtWith with the
	// same expressions Privatize used to evaluate on every call (the same
	// float64 values, so the same outputs): g = ρ/(1−ρ) with ρ = e^(−ε/2),
	// tanh(ε/4), and the window's mass and its log when the window is
	// whole (left = right = r, every word but those within r of a list's
	// ends).
	g, tanhQuarter   float64
	fullMass, lnFull float64
	// fullBottom is the ⊥ decision (bottomLn) for a whole window without
	// excluded positions, which then has the mass fullMass and
	// fullOutside allowed positions outside it: the same LogBernoulli
	// Privatize would prepare, prepared once (by setFull) instead of with
	// three transcendental functions per word.
	fullBottom  sample.LogBernoulli
	fullOutside int
}

// bottomLn is the log-probability of ⊥ (a uniform allowed position
// outside the window), given the window's allowed mass e^lnMass and the
// outside allowed positions: e^(εγ/2)·outside⁻¹ against the window, so
// ln Pr[⊥] = −softplus(lnMass + εγ/2 − ln outside).
func (m *dtMech) bottomLn(lnMass float64, outside int) float64 {
	half := m.eps / 2
	x := lnMass + half*m.gamma - math.Log(float64(outside))
	return -sample.Softplus(x)
}

// setFull prepares fullBottom for m's outputs.
func (m *dtMech) setFull() {
	m.fullOutside = m.lo.size(m.n) - (2*m.r + 1)
	m.fullBottom = sample.LogBernoulli{}
	if m.fullOutside > 0 {
		m.fullBottom = sample.NewLogBernoulli(m.bottomLn(m.lnFull, m.fullOutside))
	}
}

// windowMass is 1 + Σ_{k=1..left} ρ^k + Σ_{k=1..right} ρ^k, ρ = e^(−ε/2),
// with Σ_{k=1..a} ρ^k = ρ·(1 − ρ^a)/(1 − ρ) via expm1 (no cancellation
// for small ε).
func windowMass(g, half float64, left, right int) float64 {
	return 1 - g*math.Expm1(-half*float64(left)) - g*math.Expm1(-half*float64(right))
}

// newDT validates the parameters and builds the mechanism; see NewDiffractorTEM.
func newDT(lists []wva.Permutation, eps float64, opts TEMOptions) (*dtMech, error) {
	n, err := checkLists(Name1DT, lists)
	if err != nil {
		return nil, err
	}
	if err := checkEpsilonRange(eps, listFloor(n)); err != nil {
		return nil, fmt.Errorf("1dt: %w", err)
	}
	return dtWith(lists, n, eps, opts)
}

// dtWith builds 1-DT on checked lists of n words at any ε > 0 (see
// dgWith).
func dtWith(lists []wva.Permutation, n int, eps float64, opts TEMOptions) (*dtMech, error) {
	gamma, err := opts.gammaFor(eps, n)
	if err != nil {
		return nil, fmt.Errorf("1dt: %w", err)
	}
	r := int(math.Min(math.Floor(gamma), float64(n-1)))
	noise, err := sample.NewSignedGeometric(eps/2, r+1)
	if err != nil {
		return nil, fmt.Errorf("1dt: %w", err)
	}
	half := eps / 2
	g := math.Exp(-half) / -math.Expm1(-half)
	full := windowMass(g, half, r, r)
	m := &dtMech{lists: lists, n: n, eps: eps, gamma: gamma, opts: opts, r: r, noise: noise,
		g: g, tanhQuarter: math.Tanh(half / 2), fullMass: full, lnFull: math.Log(full)}
	m.setFull()
	return m, nil
}

// dtTries bounds 1-DT's rejection sampler before it enumerates the ball.
const dtTries = 64

// Privatize returns 1-DT's output for word w.
//
// In the chosen list, the ball is the window [p−left, p+right] of
// positions within γ of p = π(w), and only its allowed positions count
// (all of them when unrestricted). It decides ⊥ against the ball with
// bernoulliLog on a probability computed in log space (never rounded to
// zero), ⊥ releasing a uniform allowed position outside the window. Then
// it draws the offset within the ball as a two-sided geometric with
// parameter ε/2 (weights e^(−ε|k|/2), exactly TEM's; see dtMech.noise for
// why pooling its tails beyond the window changes nothing), or when the
// window holds under half of that law's mass (near the ε floor), as the
// same law conditioned on the window (SignedGeometric.Within), rejected
// until it lands on an allowed position of the window: rejection from an
// exact sampler yields the exact conditional law. After dtTries rejections, or
// at once when excluded positions hold over half of the window's weight
// (an excluded input at large ε, where rejection would almost never
// succeed), it takes the argmax of −ε|q−p|/2 + Gumbel noise over the
// window's allowed positions, which has the same law (Gumbel-max): the
// output law is exact either way, and the work is bounded by dtTries plus
// the window whatever ε.
func (m *dtMech) Privatize(w int, src rand.Source) (int, error) {
	if err := checkCall("1-DT", w, m.n, src); err != nil {
		return -1, err
	}
	li := sample.UniformInt(src, len(m.lists))
	l := &m.lists[li]
	p := int(l.Pos[w])
	left, right := min(p, m.r), min(m.n-1-p, m.r) // window = [p−left, p+right]
	lo, hi := m.lo.rankBelow(li, p-left), m.lo.rankBelow(li, p+right+1)
	inBall := hi - lo // allowed positions in the window: ranks lo..hi−1
	outside := m.lo.size(m.n) - inBall
	bottom := func() int {
		// ⊥: a uniform allowed position outside the window.
		j := sample.UniformInt(src, outside)
		if j >= lo {
			j += inBall
		}
		return int(l.Order[m.lo.position(li, j)])
	}
	if inBall == 0 {
		return bottom(), nil // nothing releasable in the ball (A is never empty)
	}
	half := m.eps / 2
	// The window's mass (windowMass; precomputed for a whole window); the
	// excluded positions' weight is subtracted while it is at most half
	// (no cancellation either), else the allowed weights are summed in
	// log space.
	mass, lnMass := m.fullMass, m.lnFull
	if left != m.r || right != m.r {
		mass = windowMass(m.g, half, left, right)
		lnMass = math.Log(mass)
	}
	enumerate := false
	ex := m.lo.excludedIn(li, p-left, p+right)
	if len(ex) > 0 {
		x := 0.0
		for _, q := range ex {
			x += math.Exp(-half * float64(absInt(int(q)-p)))
		}
		if x <= mass/2 {
			lnMass = math.Log(mass - x)
		} else {
			enumerate = true
			lnMass = math.Inf(-1)
			for k := lo; k < hi; k++ {
				lnMass = sample.LogAddExp(lnMass, -half*float64(absInt(m.lo.position(li, k)-p)))
			}
		}
	}
	if outside > 0 {
		b := m.fullBottom
		if left != m.r || right != m.r || len(ex) > 0 || outside != m.fullOutside {
			b = sample.NewLogBernoulli(m.bottomLn(lnMass, outside))
		}
		if b.Draw(src) {
			return bottom(), nil
		}
	}
	if inBall == 1 {
		return int(l.Order[m.lo.position(li, lo)]), nil
	}
	if !enumerate {
		// Pr[noise in the window] = mass·(1−ρ)/(1+ρ) = mass·tanh(ε/4). At
		// least 1/2 (every preset on the default asset: it keeps their
		// seeded outputs), an unbounded draw is cheap and rejected at most
		// half the time; below, it would be rejected nearly always (near
		// the floor the window is the whole list and holds under 1% of
		// the mass, the rest pooled beyond it), so the offset is drawn
		// from the window's law directly (SignedGeometric.Within). Either
		// way it is then rejected only on excluded positions, which hold
		// at most half the window's weight here.
		within := mass*m.tanhQuarter < 0.5
		for range dtTries {
			var k int
			if within {
				k = m.noise.Within(src, left, right)
			} else {
				k = m.noise.Draw(src)
			}
			if k >= -left && k <= right && m.lo.allowedAt(li, p+k) {
				return int(l.Order[p+k]), nil
			}
		}
	}
	best, bestScore := -1, math.Inf(-1)
	for k := lo; k < hi; k++ {
		q := m.lo.position(li, k)
		if s := -half*float64(absInt(q-p)) + sample.Gumbel(src, 1); best < 0 || s > bestScore {
			best, bestScore = q, s
		}
	}
	return int(l.Order[best]), nil
}

// restrict returns 1-DT with the same lists, ε and γ options over
// outputs o.
func (m *dtMech) restrict(o *Outputs) (Mechanism, error) {
	r := *m
	r.lo = restrictLists(m.sh, m.lists, o)
	r.setFull()
	return &r, nil
}

// Epsilon returns ε.
func (m *dtMech) Epsilon() float64 { return m.eps }

// Gamma returns γ in list positions.
func (m *dtMech) Gamma() float64 { return m.gamma }

// Metric names the list-position metric.
func (m *dtMech) Metric() string { return listMetric(m.lists) }

// Len returns the vocabulary size.
func (m *dtMech) Len() int { return m.n }

// restrictLists is newListOutputs(lists, o), shared through sh when o is
// the default output vocabulary of the asset whose lists these are.
func restrictLists(sh *assetShared, lists []wva.Permutation, o *Outputs) *listOutputs {
	if sh.isDefault(o) {
		return sh.listOutputsOf(lists, o)
	}
	return newListOutputs(lists, o)
}
