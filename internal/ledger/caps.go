package ledger

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/wordveil/wordveil/internal/errwrap"
)

// Caps limit spending. A zero cap means no cap of that kind. A cap is given
// in metric loss or in words (fresh words at WordCost each), not both:
// the ledger converts a cap in words to loss once, when it is opened
// (WordCap), and enforces the loss.
type Caps struct {
	PerPeriod float64       // at most this much within any Period-long window
	Period    time.Duration // the rolling window, e.g. 24h
	Lifetime  float64       // at most this much ever

	PerPeriodWords int // at most this many words within any Period-long window (instead of PerPeriod)
	LifetimeWords  int // at most this many words ever (instead of Lifetime)
	// WordCost is the metric loss of one fresh word (ε·P_avg of the
	// mechanism, computed as WordCap says), for the caps in words; NaN
	// when unknown, which refuses a cap in words.
	WordCost float64
}

// maxPeriod is the longest Period accepted. A longer one is almost surely
// a unit mistake in a caller (seconds taken as nanoseconds the other way
// round, an overflowed conversion) that would make the per-period cap
// useless, so it is refused rather than honoured.
const maxPeriod = 100 * 365 * 24 * time.Hour

// inLoss checks c and returns it with its caps in words converted to
// metric loss (WordCap); the words stay, to be restated in a refusal
// (wordsNote). Every error wraps ErrInvalid: a cap is never silently
// dropped.
func (c Caps) inLoss() (Caps, error) {
	for _, f := range []struct {
		name  string
		words int
		loss  *float64
	}{{"lifetime", c.LifetimeWords, &c.Lifetime}, {"per-period", c.PerPeriodWords, &c.PerPeriod}} {
		switch {
		case f.words == 0:
			continue
		case *f.loss != 0:
			return Caps{}, errwrap.Tag(ErrInvalid, "ledger: a %s cap in words and one in loss (%v): give the cap once", f.name, *f.loss)
		case math.IsNaN(c.WordCost) && f.words > 0:
			return Caps{}, errwrap.Tag(ErrInvalid, "ledger: a cap in words needs the cost of a word, ε·P_avg, and P_avg of the mechanism's metric is not known on this device, so no ledger can charge it: use another mechanism")
		}
		v, err := WordCap(f.words, c.WordCost)
		if err != nil {
			return Caps{}, err
		}
		*f.loss = v
	}
	return c, c.validate()
}

// Validate reports what OpenWith would refuse of c (ErrInvalid), so that
// a caller can refuse before it creates anything else on disk.
func (c Caps) Validate() error {
	_, err := c.inLoss()
	return err
}

func (c Caps) validate() error {
	bad := func(x float64) bool { return x < 0 || math.IsNaN(x) || math.IsInf(x, 0) }
	switch {
	case bad(c.PerPeriod) || bad(c.Lifetime):
		return errwrap.Tag(ErrInvalid, "ledger: caps must be finite and ≥ 0 (got per period %v, lifetime %v)", c.PerPeriod, c.Lifetime)
	case c.Period < 0 || c.Period > maxPeriod:
		return errwrap.Tag(ErrInvalid, "ledger: period %v is outside [0, %v]", c.Period, maxPeriod)
	case c.PerPeriod > 0 && c.Period == 0:
		return errwrap.Tag(ErrInvalid, "ledger: a per-period cap needs a positive period")
	}
	return nil
}

// wordsNote restates the caps of c given in words, at c.WordCost per
// word, for a refusal's message (whose figures are metric loss); ""
// when none is.
func (c Caps) wordsNote() string {
	var caps []string
	if c.LifetimeWords > 0 {
		caps = append(caps, fmt.Sprintf("%d words in the lifetime", c.LifetimeWords))
	}
	if c.PerPeriodWords > 0 {
		caps = append(caps, fmt.Sprintf("%d words per period", c.PerPeriodWords))
	}
	if caps == nil {
		return ""
	}
	return fmt.Sprintf("; caps in words: %s, a word costing %.6g (the figures before are metric loss; a cap of N words is the loss of N + ½)", strings.Join(caps, ", "), c.WordCost)
}

// remaining is what is left under cap c after spent; +Inf without a cap.
func remaining(c, spent float64) float64 {
	if c == 0 {
		return math.Inf(1)
	}
	return max(0, c-spent)
}

// MaxCapWords bounds a cap given in words (WordCap): 2^40 (about 1.1·10^12
// words), far below where float rounding could move the boundary of a word
// cap (see WordCap) and far above what anyone types.
const MaxCapWords = 1 << 40

// WordCap converts a cap of words fresh words, each costing cost in
// metric loss, to the cap in metric loss a Ledger or a Tally
// enforces: (words + ½)·cost. words == 0 is no cap and returns 0. It fails
// with an error wrapping ErrInvalid when words is negative or above
// MaxCapWords, when cost is NaN (unknown: the mechanism's P_avg is not
// known on the device) or not a positive normal float64, or when the cap
// is not finite: a cap is never silently dropped.
//
// cost must be computed as the text privatizer computes a call's charge
// (internal/privatize: float64(fresh)·ε·P_avg) for one word, so that a
// call of k fresh words is charged fl(fl(k·ε)·P_avg).
//
// Why exactly N = words fresh words are granted and word N+1 is refused,
// for every N ≤ MaxCapWords and every cost. Let u = 2^-53 (the unit
// roundoff) and c = ε·P_avg exactly. A call with k fresh words at the
// cost's ε is charged x = fl(fl(k·ε)·P_avg) = k·c·(1+δ), |δ| ≤ 2u + u²
// (two roundings; k is an integer, exact in a float64; the zero terms of
// other word classes add nothing). A Ledger or Tally compares the EXACT
// sum of its charges with the cap (exactSum), so after calls totalling n
// words the spent amount S satisfies |S − n·c| ≤ (2u+u²)·n·c: the
// rounding errors do not accumulate beyond each charge's own. The cap is
// C = fl((N+½)·fl(ε·P_avg)) (N+½ is exact below 2^52), so
// |C − (N+½)·c| ≤ (2u+u²)·(N+½)·c. Hence, with γ = 2u+u² < 2.0001u:
//
//	n = N:   S ≤ N·c·(1+γ) ≤ (N+½)·c·(1−γ) ≤ C  ⇐  γ·(2N+½) ≤ ½;
//	n = N+1: S ≥ (N+1)·c·(1−γ) > (N+½)·c·(1+γ) ≥ C  ⇐  γ·(2N+3/2) < ½.
//
// Both hold while 4γ·(N+1) < 1, that is for N + 1 < about 2^50;
// MaxCapWords = 2^40 leaves a factor 1000 of margin. Without the ½
// (C = N·c) the boundary would sit exactly on the N-th word's charge, and
// a rounding either way would refuse word N or grant word N+1 (the tests
// of this package and of package core show it).
// The argument needs every float involved to be normal (relative error
// bounds fail for subnormals), hence the check on the cost.
//
// A word of a class at ε_c costs about ε_c/ε of a word at the cost's ε:
// the cap then admits ⌊(N+½)·ε/ε_c⌋ such words when they are all in that
// class (up to rounding at an exact tie, which the ½ keeps away for the
// cost's own ε only).
func WordCap(words int, cost float64) (float64, error) {
	switch {
	case words < 0 || int64(words) > MaxCapWords: // int64: 2^40 overflows a 32-bit int
		return 0, errwrap.Tag(ErrInvalid, "ledger: a cap of %d words is out of range [0, 2^40] (0: no cap)", words)
	case words == 0:
		return 0, nil
	case math.IsNaN(cost):
		return 0, errwrap.Tag(ErrInvalid, "ledger: a cap in words needs the cost of a word, and it is unknown (NaN)")
	case !(cost >= 0x1p-1022) || math.IsInf(cost, 0):
		return 0, errwrap.Tag(ErrInvalid, "ledger: a cap in words: the cost of a word, %v, is not a positive normal number", cost)
	}
	v := (float64(words) + 0.5) * cost
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, errwrap.Tag(ErrInvalid, "ledger: a cap of %d words at %v each is not a finite loss", words, cost)
	}
	return v, nil
}
