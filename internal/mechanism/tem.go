package mechanism

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/wordveil/wordveil/internal/epsrange"
	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/wva"
)

// temMech is the mechanism NewTEM documents.
type temMech struct {
	gapW  []float64 // gapW[Δ] = exp(−ε·Δ·step/2), Δ = 0..steps
	lists *wva.TEMLists
	// outputs, if not nil, is A: the ball is A ∩ L_w and ⊥ draws from
	// A \ L_w.
	outputs *Outputs
	eps     float64
	gamma   float64
	steps   uint32 // largest k with k·Step ≤ γ: L_w is the ball prefix with Dist ≤ steps
	step    float64
	opts    TEMOptions
	pool    sync.Pool // *temScratch
}

type temScratch struct {
	ball  []wva.Neighbor
	runs  []temRun
	ranks []int // ⊥: ranks in A of the ball's members, ascending
}

// temRun is a run of ball members at one quantized distance.
type temRun struct {
	start, count int
	dist         uint32  // in steps
	r            float64 // Σ over this and farther runs of count·e^(−ε(d − this d)/2)
}

// maxHalfEpsGamma bounds ε·γ/2: beyond it exp(−ε·d/2) could underflow to 0
// inside the ball, and a word that should be merely improbable would become
// impossible, breaking the DP ratio. Such a TEM releases the input with
// probability 1 − e^(−700) anyway.
const maxHalfEpsGamma = 700

// temFloor is TEM's ε floor on lists: 0.001/γ_max (γ_max is the largest
// distance the device's lists show: the diameter as far as the device
// knows), and, when γ comes from Theorem 4.2, the smallest ε whose γ
// (2/ε)·ln((1−β)(N−1)/β) fits in γ_max, below which the exact ball cannot
// be read from the lists.
func temFloor(lists *wva.TEMLists, opts TEMOptions) float64 {
	return listsFloor(lists.Len(), lists.GammaMax(), opts)
}

// listsFloor is temFloor for lists over n words whose largest distance is
// gammaMax (what an asset's header says of its lists).
func listsFloor(n int, gammaMax float64, opts TEMOptions) float64 {
	floor := epsrange.Floor(gammaMax)
	if opts.Gamma != 0 || n <= 1 {
		return floor
	}
	beta := opts.Beta
	if beta == 0 {
		beta = DefaultBeta
	}
	if !(beta > 0 && beta < 1) {
		return floor // gammaFor refuses β
	}
	if l := math.Log((1 - beta) * float64(n-1) / beta); l > 0 {
		floor = max(floor, 2*l/gammaMax)
	}
	return floor
}

// roundUp rounds a positive x up to 4 significant digits, so that "use
// ε ≥ roundUp(floor)" names an ε that is accepted.
func roundUp(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return x
	}
	scale := math.Pow(10, 3-math.Floor(math.Log10(x)))
	return math.Ceil(x*scale) / scale
}

// newTEM validates the parameters and builds the mechanism; see NewTEM.
func newTEM(lists *wva.TEMLists, eps float64, opts TEMOptions) (*temMech, error) {
	if lists == nil || lists.Len() == 0 {
		return nil, fmt.Errorf("tem: %w", ErrEmptyVocabulary)
	}
	// The 0.001/γ_max part of temFloor; the part that makes Theorem
	// 4.2's γ fit is StepsFor's check below, exact where a computed
	// floor could be off by a rounding.
	if err := checkEpsilonRange(eps, epsrange.Floor(lists.GammaMax())); err != nil {
		return nil, fmt.Errorf("tem: %w", err)
	}
	gamma, err := opts.gammaFor(eps, lists.Len())
	if err != nil {
		return nil, fmt.Errorf("tem: %w", err)
	}
	steps, err := lists.StepsFor(gamma)
	if err != nil && opts.Gamma == 0 {
		// Theorem 4.2's γ grows as ε shrinks: this ε is below the range
		// the lists support (temFloor, to rounding).
		return nil, errwrap.Also(errwrap.Tag(ErrInvalidEpsilon, "tem: ε = %v is too small for this asset's TEM lists: use ε ≥ %v, or rebuild the lists with larger balls (at this ε, Theorem 4.2's γ = %.4g exceeds the lists' γ_max = %v)",
			eps, roundUp(temFloor(lists, opts)), gamma, lists.GammaMax()), err)
	}
	if err != nil {
		return nil, errwrap.Also(errwrap.Tag(ErrInvalidTEMOptions, "tem: γ = %v exceeds the lists' γ_max = %v: give γ ≤ %[2]v, or rebuild the lists with larger balls", gamma, lists.GammaMax()), err)
	}
	if eps*gamma/2 > maxHalfEpsGamma {
		return nil, errwrap.Tag(ErrInvalidTEMOptions, "tem: ε·γ/2 = %v exceeds %v: the output would be the input word with probability 1 − e^-700 (give a smaller γ or ε)", eps*gamma/2, maxHalfEpsGamma)
	}
	t := &temMech{lists: lists, eps: eps, gamma: gamma, steps: steps, step: lists.Step(), opts: opts}
	t.gapW = make([]float64, steps+1)
	for d := range t.gapW {
		t.gapW[d] = math.Exp(-eps / 2 * float64(d) * t.step)
	}
	t.pool.New = func() any { return new(temScratch) }
	return t, nil
}

// Privatize returns TEM's output for word w.
func (t *temMech) Privatize(w int, src rand.Source) (int, error) {
	n := t.lists.Len()
	if err := checkCall(NameTEM, w, n, src); err != nil {
		return -1, err
	}
	sc := t.pool.Get().(*temScratch)
	defer t.pool.Put(sc)
	sc.ball = t.lists.BallWithin(w, t.steps, sc.ball[:0])
	ball := sc.ball
	if len(ball) == 0 || ball[0].Dist != 0 {
		// Unreachable: w is in its own ball at distance 0. Fail rather than
		// release anything from a wrong ball.
		return -1, fmt.Errorf("tem: word %d missing from its own ball", w)
	}
	if t.outputs != nil {
		// A ∩ L_w, in the same (distance) order.
		k := 0
		for _, nb := range ball {
			if t.outputs.Allowed(int(nb.ID)) {
				ball[k] = nb
				k++
			}
		}
		ball = ball[:k]
	}
	outside := t.outLen() - len(ball)
	if len(ball) == 0 {
		// No releasable word in the ball: ⊥ is certain (A is never empty).
		return t.outsideBall(sc, ball, src), nil
	}
	sc.runs = sc.runs[:0]
	for i := 0; i < len(ball); {
		j := i + 1
		for j < len(ball) && ball[j].Dist == ball[i].Dist {
			j++
		}
		sc.runs = append(sc.runs, temRun{start: i, count: j - i, dist: ball[i].Dist})
		i = j
	}
	runs := sc.runs
	for k := len(runs) - 1; k >= 0; k-- {
		runs[k].r = float64(runs[k].count)
		if k+1 < len(runs) {
			runs[k].r += t.gapW[runs[k+1].dist-runs[k].dist] * runs[k+1].r
		}
	}
	// ⊥ against the ball: ball mass e^(−ε·d_0/2)·R_0 (run 0 is the
	// nearest, at distance 0 unless the input is excluded), ⊥ mass
	// (|A| − |A ∩ L_w|)·e^(−εγ/2): Pr[⊥] = 1/(1 + e^x), which can be
	// tiny, so it is decided in log space.
	if outside > 0 {
		x := math.Log(runs[0].r) - t.eps/2*float64(runs[0].dist)*t.step + t.eps/2*t.gamma - math.Log(float64(outside))
		if sample.BernoulliLog(src, -sample.Softplus(x)) {
			return t.outsideBall(sc, ball, src), nil
		}
	}
	// Pr[run k | no nearer run] = count_k / R_k ≥ 1/|L_w|: never tiny, so a
	// 64-bit threshold decides it to a relative error below |L_w|·2^-64.
	pick := runs[len(runs)-1]
	for _, r := range runs[:len(runs)-1] {
		if src.Uint64() < sample.BernoulliThreshold(float64(r.count)/r.r) {
			pick = r
			break
		}
	}
	return int(ball[pick.start+sample.UniformInt(src, pick.count)].ID), nil
}

// outsideBall returns a uniform word of A \ ball (ball ⊆ A, A = W when
// unrestricted): j uniform among the |A| − |ball| ranks in A outside the
// ball, mapped past the ball's ranks in ascending order. Its cost is a
// sort of the ball (a few hundred entries at most), with no rejection
// loop, however much of A the ball covers.
func (t *temMech) outsideBall(sc *temScratch, ball []wva.Neighbor, src rand.Source) int {
	sc.ranks = sc.ranks[:0]
	for _, nb := range ball {
		r := int(nb.ID)
		if t.outputs != nil {
			r = t.outputs.rank(r)
		}
		sc.ranks = append(sc.ranks, r)
	}
	slices.Sort(sc.ranks)
	j := sample.UniformInt(src, t.outLen()-len(ball))
	for _, r := range sc.ranks {
		if r > j {
			break
		}
		j++
	}
	if t.outputs != nil {
		return int(t.outputs.ids[j])
	}
	return j
}

// outLen is |A|.
func (t *temMech) outLen() int {
	if t.outputs != nil {
		return t.outputs.Len()
	}
	return t.lists.Len()
}

// restrict returns TEM with the same lists, ε and γ options over outputs o.
func (t *temMech) restrict(o *Outputs) (Mechanism, error) {
	r, err := newTEM(t.lists, t.eps, t.opts)
	if err != nil {
		return nil, err
	}
	r.outputs = o
	return r, nil
}

// Epsilon returns ε.
func (t *temMech) Epsilon() float64 { return t.eps }

// Gamma returns the truncation radius γ.
func (t *temMech) Gamma() float64 { return t.gamma }

// Metric names the quantized Euclidean metric.
func (t *temMech) Metric() string {
	return fmt.Sprintf("euclidean-ceil-quantized(step=%v)", t.step)
}

// Len returns the vocabulary size.
func (t *temMech) Len() int { return t.lists.Len() }
