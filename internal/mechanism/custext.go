package mechanism

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/epsrange"
	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/keepwords"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/wva"
)

// CusText and CusText+ (Chen et al., Findings of ACL 2023;
// docs/MECHANISMS.md, "CusText and CusText+") over the asset's
// customized output sets and 256-bit codes. CusText+ releases stop words
// unchanged, so it is reachable only through internal/keepwords (the
// audit and research), never through New or an exported constructor.

// NameCusText names CusText. Its ε is on the utility u = 1 − d/256, and
// its guarantee covers only words of the same output set; the default
// asset carries its sets and presets (docs/PRIVACY_LEVELS.md).
const NameCusText = "custext"

// CusText on an asset built without output sets fails with ErrNoLists.
// An output vocabulary that excludes every word of some output set fails
// with ErrNoOutputs: Restrict fails instead of falling back to another
// set, which would disclose the input's set less predictably and break
// the per-set law.

// custextScale is the Hamming distance that makes the utility 0: u(x,y) =
// 1 − d(x,y)/256 is in [0, 1] for 256-bit codes.
const custextScale = hamming.Bits

// NewCusText returns CusText over asset a (its codes and its CusText
// sets, ErrNoLists if absent) with privacy parameter ε.
//
// Each word x belongs to one output set S(x) (the asset's group of x).
// CusText releases y ∈ S(x) with probability
//
//	Pr[y | x] = exp(ε·u(x,y)/2) / Σ_{z ∈ S(x)} exp(ε·u(x,z)/2),
//	u(x,y) = 1 − d(x,y)/256,
//
// d the Hamming distance between codes: the exponential mechanism with a
// utility in [0, 1], so of sensitivity 1. Restricted to an output
// vocabulary A (Restrict), the draw is over S(x) ∩ A with the same
// weights; an A that leaves some set empty is refused
// (ErrNoOutputs).
//
// Guarantee: for x, x' in the SAME set, ln Pr[y|x] − ln Pr[y|x'] ≤
// (ε/256)·d(x,x') ≤ ε — ε-DP among the words of a set, and the finer
// metric bound too. Words of different sets are told apart with
// certainty: the output discloses the input's set. A set of one word (the
// last group can be one when K does not divide N) releases it unchanged.
// Its Facts report the mean distance as unknown, so a text privatized
// with it is never charged a finite metric loss.
func NewCusText(a *wva.Asset, eps float64) (Mechanism, error) {
	return asMechanism(newCusText(a, eps, false, nil))
}

// newCusTextPlus is CusText+ (keepwords.NewCusTextPlus): CusText, except
// that a stop word (keepwords.IsStopWord) that may be released is
// released unchanged, always. Stop words are NOT protected: their output
// discloses them, so there is no finite loss between a stop word and any
// other word. The guarantee of NewCusText holds for pairs of non-stop
// words of the same set.
func newCusTextPlus(a *wva.Asset, eps float64) (Mechanism, error) {
	return asMechanism(newCusText(a, eps, true, nil))
}

// custextMech is the mechanism NewCusText and newCusTextPlus document.
type custextMech struct {
	asset   *wva.Asset
	eps     float64
	plus    bool
	codes   []hamming.Code
	group   []uint32 // group of each word
	order   []uint32 // each group's releasable members, concatenated
	start   []uint32 // group g's members are order[start[g]:start[g+1]]
	stop    []bool   // CusText+: stop words (nil for CusText)
	outputs *Outputs
	// weight[k] = exp(−ε·k/(2·256)): the weight of a member k bits
	// farther than the nearest one. Shifting by the nearest keeps the
	// largest weight 1, so nothing that matters underflows at large ε.
	weight [hamming.Bits + 1]float64
	sat    float64
}

// custextFloor is CusText's ε floor: the utility spans [0, 1], so the
// largest loss within a set is ε and the floor is 0.001.
func custextFloor() float64 { return epsrange.Floor(1) }

func newCusText(a *wva.Asset, eps float64, plus bool, o *Outputs) (*custextMech, error) {
	name := NameCusText
	if plus {
		name = keepwords.NameCusTextPlus
	}
	if err := checkEpsilonRange(eps, custextFloor()); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if a == nil || a.Len() == 0 {
		return nil, fmt.Errorf("%s: %w", name, ErrEmptyVocabulary)
	}
	s := a.CusText
	if s == nil {
		return nil, errwrap.Tag(ErrNoLists, "%s: the asset has no CusText output sets (use an asset built with them, or another mechanism)", name)
	}
	n := a.Len()
	if s.Len() != n || len(a.Codes) != n {
		return nil, errwrap.Tag(ErrListMismatch, "%s: the asset has %d words, %d codes and output sets for %d", name, n, len(a.Codes), s.Len())
	}
	m := &custextMech{asset: a, eps: eps, plus: plus, codes: a.Codes, outputs: o,
		group: make([]uint32, n), order: make([]uint32, 0, n), start: make([]uint32, 1, s.Groups()+1)}
	var buf []uint32
	for g := range s.Groups() {
		buf = s.Members(g, buf[:0])
		for _, w := range buf {
			m.group[w] = uint32(g)
			if o == nil || o.Allowed(int(w)) {
				m.order = append(m.order, w)
			}
		}
		if int(m.start[g]) == len(m.order) {
			return nil, errwrap.Tag(ErrNoOutputs, "%s: the output vocabulary excludes every word of the output set of %q (%d words), which would leave its words nothing to release (allow one of them, or use another mechanism)", name, a.Word(int(buf[0])), len(buf))
		}
		m.start = append(m.start, uint32(len(m.order)))
	}
	if plus {
		m.stop = make([]bool, n)
		for id := range m.stop {
			m.stop[id] = keepwords.IsStopWord(a.Word(id))
		}
	}
	for k := range m.weight {
		m.weight[k] = math.Exp(-eps * float64(k) / (2 * custextScale))
	}
	m.sat = m.saturation()
	return m, nil
}

// members returns the releasable members of w's set.
func (m *custextMech) members(w int) []uint32 {
	g := m.group[w]
	return m.order[m.start[g]:m.start[g+1]]
}

// kept reports whether CusText+ releases w unchanged.
func (m *custextMech) kept(w int) bool {
	return m.plus && m.stop[w] && (m.outputs == nil || m.outputs.Allowed(w))
}

// Privatize returns the mechanism's output for word w: one scan of w's
// set for the normalizer, one draw, one scan to invert it. It does not
// allocate.
func (m *custextMech) Privatize(w int, src rand.Source) (int, error) {
	if err := checkCall(m.Name(), w, len(m.group), src); err != nil {
		return -1, err
	}
	if m.kept(w) {
		return w, nil
	}
	set := m.members(w)
	// The three scans below need each member's distance: the first
	// len(first) are computed once, here (a set of the default asset has
	// 20 members), the others again in each scan.
	cw := m.codes[w]
	var first [64]uint16
	cached := first[:min(len(set), len(first))]
	for i := range cached {
		cached[i] = uint16(hamming.Distance(cw, m.codes[set[i]]))
	}
	dist := func(i int) int {
		if i < len(cached) {
			return int(cached[i])
		}
		return hamming.Distance(cw, m.codes[set[i]])
	}
	near := hamming.Bits
	for i := range set {
		near = min(near, dist(i))
	}
	z := 0.0
	for i := range set {
		z += m.weight[dist(i)-near]
	}
	// UniformOpen is never 0, so the member whose cumulative weight
	// first exceeds u has a positive weight.
	u := sample.UniformOpen(src) * z
	c := 0.0
	for i, y := range set {
		c += m.weight[dist(i)-near]
		if u < c {
			return int(y), nil
		}
	}
	// Rounding can leave u a hair above the last partial sum: release
	// the last member with a positive weight (far members' weights
	// underflow to 0 at large ε; the nearest one's is 1).
	for i := len(set) - 1; i >= 0; i-- {
		if m.weight[dist(i)-near] > 0 {
			return int(set[i]), nil
		}
	}
	return -1, fmt.Errorf("%s: internal error: empty output set for word %d", m.Name(), w)
}

// saturation is the ε above which, for every word, the output equals the
// input with probability ≥ 1 − SaturationTolerance. For an input x in its
// own releasable set, every other member y weighs e^(−ε·d(x,y)/512)
// relative to x's 1, so P[≠ x] ≤ (m−1)·e^(−ε·dmin/512) with m the largest
// set and dmin the smallest distance between two members of a set: ≤ η
// when ε ≥ 512·ln((m−1)/η)/dmin. Two members with equal codes (dmin = 0),
// or an input outside the output vocabulary (never released unchanged),
// make it +Inf.
func (m *custextMech) saturation() float64 {
	largest, dmin := 1, hamming.Bits+1
	for w := range m.group {
		if m.kept(w) {
			continue
		}
		set := m.members(w)
		largest = max(largest, len(set))
		self := false
		for _, y := range set {
			if int(y) == w {
				self = true
				continue
			}
			dmin = min(dmin, hamming.Distance(m.codes[w], m.codes[y]))
		}
		if !self && len(set) > 0 {
			return math.Inf(1)
		}
	}
	switch {
	case largest == 1:
		return 0 // every output is its input already
	case dmin == 0:
		return math.Inf(1)
	}
	return 2 * custextScale * math.Log(float64(largest-1)/SaturationTolerance) / float64(dmin)
}

// restrict returns the same mechanism over outputs o.
func (m *custextMech) restrict(o *Outputs) (Mechanism, error) {
	return asMechanism(newCusText(m.asset, m.eps, m.plus, o))
}

// Epsilon returns ε: the bound on the privacy loss between two words of
// the same output set.
func (m *custextMech) Epsilon() float64 { return m.eps }

// Metric names the guarantee's d: (1/256)·Hamming within a set (≤ 1, so
// at most ε), unbounded across sets.
func (m *custextMech) Metric() string { return "custext-set(hamming/256 within a set)" }

// Len returns the vocabulary size.
func (m *custextMech) Len() int { return len(m.group) }

// MeanDistance is unknown: words of different sets are at an infinite
// distance in the guarantee's metric, so no finite P_avg charges a text
// correctly.
func (m *custextMech) MeanDistance() (float64, bool) { return math.NaN(), false }

// SaturationEpsilon: see saturation.
func (m *custextMech) SaturationEpsilon() float64 { return m.sat }

// Name returns NameCusText or NameCusTextPlus.
func (m *custextMech) Name() string {
	if m.plus {
		return keepwords.NameCusTextPlus
	}
	return NameCusText
}

// Params returns ε and K (the sets themselves are part of the asset, whose
// hash the memo identity carries), the stop-word list for CusText+, and
// the output vocabulary's fingerprint.
func (m *custextMech) Params() string {
	p := fmt.Sprintf("epsilon=%s k=%d", formatFloat(m.eps), m.asset.CusText.K())
	if m.plus {
		p += " stopwords=" + keepwords.StopWordsSource
	}
	return withOutputs(p, m.outputs)
}

// Outputs returns the output vocabulary, nil when every word may be
// released.
func (m *custextMech) Outputs() *Outputs { return m.outputs }

// EpsilonFloor: see custextFloor.
func (m *custextMech) EpsilonFloor() float64 { return custextFloor() }
