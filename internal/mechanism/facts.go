package mechanism

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/wordveil/wordveil/internal/epsrange"
	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/keepwords"
	"github.com/wordveil/wordveil/internal/wva"
)

// Facts are what an on-device mechanism knows about itself beyond its
// guarantee: the numbers accounting and validation need. Every mechanism
// New builds implements it; the text privatizer asks through this
// interface (never by type), so a mechanism that does not implement it is
// treated as "loss unknown" and cannot be charged to a ledger.
type Facts interface {
	// MeanDistance is P_avg, the mean metric distance between two
	// distinct vocabulary words; ok is false when it cannot be known on
	// this device (the metric loss ε·P_avg is then unknown, never 0).
	MeanDistance() (pavg float64, ok bool)
	// SaturationEpsilon is an ε above which the mechanism's output is
	// almost surely a fixed function of its input: for every input word,
	// the probability that the noise moves anything is at most
	// SaturationTolerance. The fixed output is the input itself when it
	// may be released (words sharing a code set aside), else the allowed
	// word the noiseless mechanism picks; CusText (an excluded input, or
	// two equal codes in a set) and SanText+ (P > SaturationTolerance)
	// answer +Inf instead of bounding those cases (docs/MECHANISMS.md,
	// "SaturationEpsilon"). A sound, conservative bound: the output may
	// be the input almost always at smaller ε too
	// (docs/PRIVACY_LEVELS.md shows the measured N_w).
	SaturationEpsilon() float64
	// EpsilonFloor is the smallest ε the mechanism accepts: where the
	// largest loss between two words, ε·D (D the metric's diameter), is
	// 0.001 nats (package internal/epsrange; TEM's may be higher, see
	// NewTEM). Every constructor refuses a smaller ε with
	// ErrInvalidEpsilon, so every sampler is exact over what it accepts.
	EpsilonFloor() float64
	// Name is the mechanism's name (NameBRR, ...).
	Name() string
	// Outputs is the output vocabulary the mechanism releases from, or nil
	// when it may release every word.
	Outputs() *Outputs
	// Params lists every parameter the output distribution depends on,
	// canonically ("epsilon=0.4845 gamma=..."), so that a memo of
	// responses is never reused under other settings.
	Params() string
}

// SaturationTolerance is the probability of a change below which a
// mechanism's output counts as "almost surely the input".
const SaturationTolerance = 0.01

// MaxEpsilon bounds ε for every mechanism, even when saturation is
// allowed: beyond it the per-text loss ε·words·P_avg could overflow.
const MaxEpsilon = epsrange.Max

// EpsilonRange returns the ε that New accepts for m without
// Options.AllowSaturated: [EpsilonFloor, min(SaturationEpsilon,
// MaxEpsilon)] (up to MaxEpsilon with it). ok is false when m does not
// implement Facts.
func EpsilonRange(m Mechanism) (lo, hi float64, ok bool) {
	f, ok := m.(Facts)
	if !ok {
		return 0, 0, false
	}
	return f.EpsilonFloor(), min(f.SaturationEpsilon(), MaxEpsilon), true
}

// ErrEpsilonSaturated: ε is above the mechanism's SaturationEpsilon, where
// the text would almost surely be released unchanged.
var ErrEpsilonSaturated = errors.New("ε so large that the output is almost surely the input")

// MeanDistance returns P_avg of m and whether it is known (see Facts); a
// mechanism that does not implement Facts has an unknown P_avg.
func MeanDistance(m Mechanism) (float64, bool) {
	f, ok := m.(Facts)
	if !ok {
		return math.NaN(), false
	}
	return f.MeanDistance()
}

// WordCost is the metric loss of one fresh word at m's ε, ε·P_avg,
// computed as the text privatizer computes a call's charge
// (internal/privatize: float64(fresh)·ε·P_avg) for one word, so that a
// call of one fresh word at the main ε is charged exactly this (package
// core's tests check it against Accounting.UnitFree). It is NaN when
// P_avg is not known (CusText's sets, TEM's Euclidean lists): such a
// mechanism has no cost per word on the device.
func WordCost(m Mechanism) float64 {
	pavg, ok := MeanDistance(m)
	if !ok {
		return math.NaN()
	}
	return float64(1) * m.Epsilon() * pavg
}

// checkSaturation refuses ε above m's SaturationEpsilon unless allowed,
// and ε above MaxEpsilon always (the constructors refused it already;
// this is the ceiling of EpsilonRange, next to the saturation bound).
func checkSaturation(m Mechanism, allow bool) error {
	eps := m.Epsilon()
	if eps > MaxEpsilon {
		return errwrap.Tag(ErrInvalidEpsilon, "ε = %g exceeds %g", eps, float64(MaxEpsilon))
	}
	f, ok := m.(Facts)
	if !ok || allow {
		return nil
	}
	if s := f.SaturationEpsilon(); eps > s {
		return errwrap.Tag(ErrEpsilonSaturated, "ε = %g is saturated: above %.4g the output equals the input with probability ≥ %g (use a smaller ε; allow a saturated ε only for experiments)", eps, s, 1-SaturationTolerance)
	}
	return nil
}

// The bounds below use P[output ≠ input] ≤ P[the noise moves anything].

// BRR: the output is the input's code unless a bit flips (ties between
// equal codes aside): P[some flip] = 1 − (1−q)^256 ≤ η for
// q ≤ 1 − (1−η)^(1/256), i.e. ε ≥ ln((1−q)/q).
func brrSaturation() float64 {
	q := -math.Expm1(math.Log1p(-SaturationTolerance) / hamming.Bits)
	return math.Log((1 - q) / q)
}

// TEM family: relative to the input (weight 1), every other word in the
// ball weighs at most e^(−ε·dmin/2) and ⊥ weighs (N−|L_w|)·e^(−εγ/2),
// which with Theorem 4.2's γ is at most β/(1−β). So P[≠] ≤
// (N−1)·e^(−ε·dmin/2) + β/(1−β) ≤ η when ε ≥ 2·ln((N−1)/(η − β/(1−β)))/dmin.
// A given γ (no β) bounds ⊥ by (N−1)·e^(−εγ/2), covered by dmin ≤ γ.
func temSaturation(n int, dmin float64, opts TEMOptions) float64 {
	if n <= 1 {
		return 0
	}
	if dmin <= 0 {
		return math.Inf(1) // equal points: the noise never vanishes
	}
	slack := SaturationTolerance
	if opts.Gamma == 0 {
		beta := opts.Beta
		if beta == 0 {
			beta = DefaultBeta
		}
		slack -= beta / (1 - beta)
	} else {
		dmin = min(dmin, opts.Gamma)
	}
	if slack <= 0 || dmin <= 0 {
		return math.Inf(1)
	}
	return 2 * math.Log(float64(n-1)/slack) / dmin
}

// 1-DG: the position moves unless the two-sided geometric noise is 0:
// P[G ≠ 0] = 2α/(1+α) ≤ 2α with α = e^(−ε), so ε ≥ ln(2/η).
func geometricSaturation() float64 { return math.Log(2 / SaturationTolerance) }

// MeanDistance: exact from per-bit counts.
func (b *brrMech) MeanDistance() (float64, bool) {
	if b.sh != nil {
		return b.sh.codesMeanOf(b.index.Codes()), true
	}
	return hamming.MeanDistance(b.index.Codes()), true
}

// SaturationEpsilon: see brrSaturation.
func (b *brrMech) SaturationEpsilon() float64 { return brrSaturation() }

// EpsilonFloor: 0.001/256 per bit.
func (b *brrMech) EpsilonFloor() float64 { return hammingFloor() }

// EpsilonFloor: 0.001/256 per bit (SanText's too).
func (t *temHammingMech) EpsilonFloor() float64 { return hammingFloor() }

// EpsilonFloor: 0.001/(N−1) per position.
func (m *dgMech) EpsilonFloor() float64 { return listFloor(m.n) }

// EpsilonFloor: 0.001/(N−1) per position.
func (m *dtMech) EpsilonFloor() float64 { return listFloor(m.n) }

// EpsilonFloor: see temFloor.
func (t *temMech) EpsilonFloor() float64 { return temFloor(t.lists, t.opts) }

// EpsilonFloor: 0.001/256 per bit.
func (m *santextPlusMech) EpsilonFloor() float64 { return hammingFloor() }

// MeanDistance: exact from per-bit counts.
func (t *temHammingMech) MeanDistance() (float64, bool) {
	if t.sh != nil {
		return t.sh.codesMeanOf(t.index.Codes()), true
	}
	return hamming.MeanDistance(t.index.Codes()), true
}

// SaturationEpsilon: the TEM bound with dmin = 1 bit.
func (t *temHammingMech) SaturationEpsilon() float64 { return temSaturation(t.index.Len(), 1, t.opts) }

// MeanDistance: exactly (N+1)/3 for one list, estimated for several.
func (m *dgMech) MeanDistance() (float64, bool) { return sharedListsMean(m.sh, m.lists), true }

// SaturationEpsilon: see geometricSaturation.
func (m *dgMech) SaturationEpsilon() float64 { return geometricSaturation() }

// MeanDistance: as 1-DG.
func (m *dtMech) MeanDistance() (float64, bool) { return sharedListsMean(m.sh, m.lists), true }

// sharedListsMean is listsMean(lists), computed once per asset through sh
// when the mechanism was built by New (sh not nil).
func sharedListsMean(sh *assetShared, lists []wva.Permutation) float64 {
	if sh != nil {
		return sh.listsMeanOf(lists)
	}
	return listsMean(lists)
}

// SaturationEpsilon: the TEM bound with dmin = 1 position.
func (m *dtMech) SaturationEpsilon() float64 { return temSaturation(m.n, 1, m.opts) }

// MeanDistance: unknown on the device (the float vectors are not there).
func (t *temMech) MeanDistance() (float64, bool) { return math.NaN(), false }

// SaturationEpsilon: the TEM bound with dmin = one quantization step, the
// smallest distance two distinct words can have in the quantized metric.
func (t *temMech) SaturationEpsilon() float64 { return temSaturation(t.lists.Len(), t.step, t.opts) }

// formatFloat writes x exactly (shortest round-trip form).
func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func temParams(eps, gamma float64, opts TEMOptions) string {
	return fmt.Sprintf("epsilon=%s gamma=%s given-gamma=%s beta=%s", formatFloat(eps), formatFloat(gamma), formatFloat(opts.Gamma), formatFloat(opts.Beta))
}

// Name returns NameBRR.
func (b *brrMech) Name() string { return NameBRR }

// Params returns ε per bit (and the output vocabulary's fingerprint).
func (b *brrMech) Params() string { return withOutputs("epsilon="+formatFloat(b.eps), b.outputs) }

// Name returns NameTEMHamming.
func (t *temHammingMech) Name() string { return NameTEMHamming }

// Params returns ε, γ, how γ was chosen (and the output vocabulary's
// fingerprint).
func (t *temHammingMech) Params() string {
	return withOutputs(temParams(t.eps, t.gamma, t.opts), t.outputs)
}

// Name returns Name1DG.
func (m *dgMech) Name() string { return Name1DG }

// Params returns ε and the lists' count (the lists themselves are part of
// the asset, whose hash the memo identity carries), and the output
// vocabulary's fingerprint.
func (m *dgMech) Params() string {
	return withOutputs(fmt.Sprintf("epsilon=%s lists=%d", formatFloat(m.eps), len(m.lists)), m.lo.outputs())
}

// Name returns Name1DT.
func (m *dtMech) Name() string { return Name1DT }

// Params returns ε, γ, how γ was chosen, the lists' count and the output
// vocabulary's fingerprint.
func (m *dtMech) Params() string {
	return withOutputs(fmt.Sprintf("%s lists=%d", temParams(m.eps, m.gamma, m.opts), len(m.lists)), m.lo.outputs())
}

// Name returns NameTEM.
func (t *temMech) Name() string { return NameTEM }

// Params returns ε, γ, how γ was chosen (and the output vocabulary's
// fingerprint).
func (t *temMech) Params() string { return withOutputs(temParams(t.eps, t.gamma, t.opts), t.outputs) }

// Outputs returns the output vocabulary, nil when every word may be
// released.
func (b *brrMech) Outputs() *Outputs { return b.outputs }

// Outputs returns the output vocabulary, nil when every word may be
// released.
func (t *temHammingMech) Outputs() *Outputs { return t.outputs }

// Outputs returns the output vocabulary, nil when every word may be
// released.
func (m *dgMech) Outputs() *Outputs { return m.lo.outputs() }

// Outputs returns the output vocabulary, nil when every word may be
// released.
func (m *dtMech) Outputs() *Outputs { return m.lo.outputs() }

// Outputs returns the output vocabulary, nil when every word may be
// released.
func (t *temMech) Outputs() *Outputs { return t.outputs }

// Name returns NameSanText.
func (s *santextMech) Name() string { return NameSanText }

// Params returns ε per bit (γ is always 256 bits, the whole vocabulary)
// and the output vocabulary's fingerprint.
func (s *santextMech) Params() string {
	return withOutputs("epsilon="+formatFloat(s.eps), s.outputs)
}

// MeanDistance and SaturationEpsilon of SanText are TEM (Hamming)'s:
// P_avg from the codes, and the TEM bound with dmin = 1 bit and no ⊥.

// MeanDistance is unknown for SanText+, deliberately: a non-sensitive
// word released unchanged has no finite metric-DP loss, so ε·P_avg would
// understate the loss of any text containing one. Reporting "unknown"
// makes the text privatizer refuse to charge a ledger a finite amount.
func (m *santextPlusMech) MeanDistance() (float64, bool) { return math.NaN(), false }

// SaturationEpsilon: a non-sensitive word in the output vocabulary
// changes with probability exactly P whatever ε, so for P above
// SaturationTolerance the output is never almost surely the input (+Inf:
// no ε is refused as saturated). Otherwise the sensitive words decide,
// with TEM's bound at dmin = 1 bit.
func (m *santextPlusMech) SaturationEpsilon() float64 {
	if m.opts.P > SaturationTolerance {
		return math.Inf(1)
	}
	return temSaturation(m.index.Len(), 1, m.sampler.opts)
}

// Name returns keepwords.NameSanTextPlus.
func (m *santextPlusMech) Name() string { return keepwords.NameSanTextPlus }

// Params returns ε per bit, the sensitive fraction, p, and the output
// vocabulary's fingerprint.
func (m *santextPlusMech) Params() string {
	return withOutputs(fmt.Sprintf("epsilon=%s sensitive=%s p=%s", formatFloat(m.sampler.eps), formatFloat(m.opts.Sensitive), formatFloat(m.opts.P)), m.outputs)
}

// Outputs returns the output vocabulary A (nil: every word): the draws
// are over its sensitive words, and only its words are kept unchanged.
func (m *santextPlusMech) Outputs() *Outputs { return m.outputs }
