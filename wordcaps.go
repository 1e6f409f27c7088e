package wordveil

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
)

// maxCapWords bounds Caps.LifetimeWords and Caps.PerPeriodWords: 2^40
// (about 1.1·10^12 words), far below where float rounding could move the
// boundary of a word cap (see ledgerCaps) and far above what anyone types.
const maxCapWords = 1 << 40

// wordCost is the unit-free loss of one fresh word at m's ε, ε·P_avg,
// computed as the text privatizer computes a call's charge
// (internal/privatize: float64(fresh)·ε·P_avg) for one word, so that a
// call of one fresh word at the main ε is charged exactly this (a test
// checks it against Accounting.UnitFree). It is NaN when P_avg is not
// known (CusText's sets, TEM's Euclidean lists): such a mechanism has no
// cost per word on the device.
func wordCost(m mechanism.Mechanism) float64 {
	pavg, ok := mechanism.MeanDistance(m)
	if !ok {
		return math.NaN()
	}
	return float64(1) * m.Epsilon() * pavg
}

// ledgerCaps converts c to the caps the ledger enforces, in unit-free
// loss: a cap of N words becomes (N + ½)·cost, where cost is wordCost of
// the mechanism (name, over metric; NaN: unknown), once, at Open. It
// fails (ErrInvalidConfig) when a word cap is set and the cost per word is
// unknown or not a positive normal float64, or the converted cap is not
// finite: a cap is never silently dropped.
//
// Why exactly N fresh words at the main ε are granted and word N+1 is
// refused, for every N ≤ maxCapWords and every cost. Let u = 2^-53 (the
// unit roundoff) and c = ε·P_avg exactly. A call with k fresh words at the
// main ε is charged x = fl(fl(k·ε)·P_avg) = k·c·(1+δ), |δ| ≤ 2u + u² (two
// roundings; k is an integer, exact in a float64; the zero terms of other
// word classes add nothing). The ledger compares the EXACT sum of its
// charges with the cap (internal/ledger keeps its lifetime and
// per-period sums as integers), so after
// calls totalling n words the spent amount S satisfies
// |S − n·c| ≤ (2u+u²)·n·c: the rounding errors do not accumulate beyond
// each charge's own. The cap is C = fl((N+½)·fl(ε·P_avg)) (N+½ is exact
// below 2^52), so |C − (N+½)·c| ≤ (2u+u²)·(N+½)·c. Hence, with
// γ = 2u+u² < 2.0001u:
//
//	n = N:   S ≤ N·c·(1+γ) ≤ (N+½)·c·(1−γ) ≤ C  ⇐  γ·(2N+½) ≤ ½;
//	n = N+1: S ≥ (N+1)·c·(1−γ) > (N+½)·c·(1+γ) ≥ C  ⇐  γ·(2N+3/2) < ½.
//
// Both hold while 4γ·(N+1) < 1, that is for N + 1 < about 2^50;
// maxCapWords = 2^40 leaves a factor 1000 of margin. Without the ½
// (C = N·c) the boundary would sit exactly on the N-th word's charge, and
// a rounding either way would refuse word N or grant word N+1
// (TestWordCapNegativeControl shows it).
// The argument needs every float involved to be normal (relative error
// bounds fail for subnormals), hence the check on the cost.
//
// A word of a class at ε_c (Config.Classes) costs about ε_c/ε of a word
// at the main ε: the cap then admits ⌊(N+½)·ε/ε_c⌋ such words when they
// are all in that class (up to rounding at an exact tie, which the ½ keeps
// away for the main ε only).
func ledgerCaps(c Caps, period time.Duration, name Mechanism, metric string, cost float64) (ledger.Caps, error) {
	caps := ledger.Caps{Lifetime: c.Lifetime, PerPeriod: c.PerPeriod, Period: period}
	if c.LifetimeWords == 0 && c.PerPeriodWords == 0 {
		return caps, nil
	}
	switch {
	case math.IsNaN(cost):
		return ledger.Caps{}, invalid("a cap in words needs the cost of a word, ε·P_avg, and P_avg of the %s metric (mechanism %s) is not known on this device, so no ledger can charge it: use another mechanism", metric, name)
	case !(cost >= 0x1p-1022) || math.IsInf(cost, 0):
		return ledger.Caps{}, invalid("a cap in words: the cost of a word, ε·P_avg = %v, is not a positive normal number", cost)
	}
	for _, f := range []struct {
		name  string
		words int
		dst   *float64
	}{{"Caps.LifetimeWords", c.LifetimeWords, &caps.Lifetime}, {"Caps.PerPeriodWords", c.PerPeriodWords, &caps.PerPeriod}} {
		if f.words == 0 {
			continue
		}
		v := (float64(f.words) + 0.5) * cost
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return ledger.Caps{}, invalid("%s %d: %d words at %v each is not a finite loss", f.name, f.words, f.words, cost)
		}
		*f.dst = v
	}
	return caps, nil
}

// wordCapsNote restates the caps of c given in words, at cost per word,
// for a refusal's message; "" when none is.
func wordCapsNote(c Caps, cost float64) string {
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
	return fmt.Sprintf("caps in words: %s, a word costing %.6g (the figures before are unit-free loss; a cap of N words is the loss of N + ½)", strings.Join(caps, ", "), cost)
}

// explainBudget adds p's caps in words to a budget refusal's message.
func (p *Privatizer) explainBudget(err error) error {
	if p == nil || p.wordCaps == "" || !errors.Is(err, ledger.ErrBudgetExceeded) {
		return err
	}
	return fmt.Errorf("%w; %s", err, p.wordCaps)
}
