package mobile

import (
	"math"
	"time"

	"github.com/wordveil/wordveil/mechanism"
)

// Bounds of the numeric Config fields.
const (
	maxTextBytesLimit = 1 << 30                  // Config.MaxTextBytes
	maxPeriodSeconds  = 100 * 365 * 24 * 60 * 60 // Config.PeriodSeconds: 100 years of 365 days, the ledger's limit
	maxRareRank       = math.MaxInt32            // Config.RareRank: fits an int on every platform (the asset's vocabulary bounds it further)
	defaultPeriod     = 24 * time.Hour           // Config.PeriodSeconds 0
)

// validate checks every numeric field of c, and the fields that only make
// sense together, before any of them is used: a value that would be
// silently ignored, wrap around or disable a cap is refused, so a setting
// never fails open. It returns the ledger's period. The names (mechanism,
// preset, OOV) are checked by packages mechanism and privatize, which know them.
func validate(c *Config) (period time.Duration, err error) {
	if eps := c.Epsilon; eps < 0 || math.IsNaN(eps) || math.IsInf(eps, 0) {
		return 0, invalid("Epsilon %v: must be a finite number > 0, or 0 to use the preset", eps)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"RareEpsilon", c.RareEpsilon}, {"CapitalizedEpsilon", c.CapitalizedEpsilon}, {"NumberEpsilon", c.NumberEpsilon}} {
		if f.v < 0 || f.v > mechanism.MaxEpsilon || math.IsNaN(f.v) {
			return 0, invalid("%s %v: must be a finite number in (0, %g], or 0 for the main ε", f.name, f.v, float64(mechanism.MaxEpsilon))
		}
	}
	switch {
	case c.RareRank < 0 || c.RareRank > maxRareRank:
		return 0, invalid("RareRank %d out of range [0, %d]", c.RareRank, int64(maxRareRank))
	case (c.RareRank == 0) != (c.RareEpsilon == 0):
		return 0, invalid("RareEpsilon %v and RareRank %d: set both or neither", c.RareEpsilon, c.RareRank)
	}
	if c.MaxTextBytes < 0 || c.MaxTextBytes > maxTextBytesLimit {
		return 0, invalid("MaxTextBytes %d out of range [0, 2^30] (0: 16 MiB)", c.MaxTextBytes)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"CapLifetime", c.CapLifetime}, {"CapPerPeriod", c.CapPerPeriod}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return 0, invalid("%s %v: must be a finite number ≥ 0 (0: no cap)", f.name, f.v)
		}
	}
	// Checked before the multiplication by time.Second, which wraps around
	// above 2^63 ns (≈ 292 years): 18446744074 s would become 0.3 s and the
	// per-period cap would stop capping.
	if c.PeriodSeconds < 0 || c.PeriodSeconds > maxPeriodSeconds {
		return 0, invalid("PeriodSeconds %d out of range [0, %d] (0: 86400)", c.PeriodSeconds, int64(maxPeriodSeconds))
	}
	if c.Anchor != nil && c.LedgerDir == "" && c.MemoDir == "" {
		return 0, invalid("an Anchor needs MemoDir or LedgerDir: it anchors nothing without them")
	}
	if c.LedgerDir == "" && (c.CapLifetime > 0 || c.CapPerPeriod > 0) {
		return 0, invalid("CapLifetime %v / CapPerPeriod %v need a LedgerDir to be enforced", c.CapLifetime, c.CapPerPeriod)
	}
	period = time.Duration(c.PeriodSeconds) * time.Second
	if c.PeriodSeconds == 0 {
		period = defaultPeriod
	}
	return period, nil
}
