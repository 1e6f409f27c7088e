package ledger

import (
	"math"
	"time"

	"github.com/wordveil/wordveil/internal/errwrap"
)

// Caps limit spending. A zero cap means no cap of that kind.
type Caps struct {
	PerPeriod float64       // at most this much within any Period-long window
	Period    time.Duration // the rolling window, e.g. 24h
	Lifetime  float64       // at most this much ever
}

// maxPeriod is the longest Period accepted. A longer one is almost surely
// a unit mistake in a caller (seconds taken as nanoseconds the other way
// round, an overflowed conversion) that would make the per-period cap
// useless, so it is refused rather than honoured.
const maxPeriod = 100 * 365 * 24 * time.Hour

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

// remaining is what is left under cap c after spent; +Inf without a cap.
func remaining(c, spent float64) float64 {
	if c == 0 {
		return math.Inf(1)
	}
	return max(0, c-spent)
}
