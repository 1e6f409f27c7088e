package core

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/wordveil/wordveil/internal/ledger"
)

// ledgerCaps converts c to the caps the ledger enforces, in unit-free
// loss: a cap of N words becomes (N + ½)·cost (ledger.WordCap, which
// says why exactly N words are then granted and word N+1 refused), where
// cost is mechanism.WordCost of the mechanism (name, over metric; NaN: unknown),
// once, at Open. It fails (ErrInvalidConfig) when a word cap is set and
// the cost per word is unknown or not a positive normal float64, or the
// converted cap is not finite: a cap is never silently dropped.
func ledgerCaps(c Caps, period time.Duration, name Mechanism, metric string, cost float64) (ledger.Caps, error) {
	caps := ledger.Caps{Lifetime: c.Lifetime, PerPeriod: c.PerPeriod, Period: period}
	if c.LifetimeWords == 0 && c.PerPeriodWords == 0 {
		return caps, nil
	}
	if math.IsNaN(cost) { // ledger.WordCap refuses it too; this says why, for the app
		return ledger.Caps{}, invalid("a cap in words needs the cost of a word, ε·P_avg, and P_avg of the %s metric (mechanism %s) is not known on this device, so no ledger can charge it: use another mechanism", metric, name)
	}
	for _, f := range []struct {
		name  string
		words int
		dst   *float64
	}{{"Caps.LifetimeWords", c.LifetimeWords, &caps.Lifetime}, {"Caps.PerPeriodWords", c.PerPeriodWords, &caps.PerPeriod}} {
		if f.words == 0 {
			continue
		}
		v, err := ledger.WordCap(f.words, cost)
		if err != nil {
			return ledger.Caps{}, invalid("%s %d: %v", f.name, f.words, err)
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
