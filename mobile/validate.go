package mobile

import (
	"math"
	"time"

	"github.com/wordveil/wordveil/core"
)

// Bounds of the int64 Config fields, checked before they become the root
// package's int and time.Duration fields (which would wrap around first on
// a 32-bit platform, or above 2^63 ns); every other rule is the root
// package's (core.Open), so the binding and the Go API agree by
// construction.
const (
	maxTextBytesLimit = 1 << 30                  // Config.MaxTextBytes
	maxPeriodSeconds  = 100 * 365 * 24 * 60 * 60 // Config.PeriodSeconds: 100 years of 365 days, the ledger's limit
	maxRareRank       = math.MaxInt32            // Config.RareRank: fits an int on every platform
	maxCapWords       = 1 << 40                  // Config.CapLifetimeWords, CapPerPeriodWords: package core's bound
)

// root converts c (nil: NewConfig's defaults) to package core's Config.
func (c *Config) root() (core.Config, error) {
	if c == nil {
		c = NewConfig()
	}
	switch {
	case c.RareRank < 0 || c.RareRank > maxRareRank:
		return core.Config{}, invalid("RareRank %d out of range [0, %d]", c.RareRank, int64(maxRareRank))
	case c.MaxTextBytes < 0 || c.MaxTextBytes > maxTextBytesLimit:
		return core.Config{}, invalid("MaxTextBytes %d out of range [0, 2^30] (0: 16 MiB)", c.MaxTextBytes)
	case c.PeriodSeconds < 0 || c.PeriodSeconds > maxPeriodSeconds:
		// Checked before the multiplication by time.Second, which wraps
		// around above 2^63 ns (≈ 292 years): 18446744074 s would become
		// 0.3 s and the per-period cap would stop capping.
		return core.Config{}, invalid("PeriodSeconds %d out of range [0, %d] (0: 86400)", c.PeriodSeconds, int64(maxPeriodSeconds))
	}
	for _, f := range []struct {
		name  string
		words int64
	}{{"CapLifetimeWords", c.CapLifetimeWords}, {"CapPerPeriodWords", c.CapPerPeriodWords}} {
		// int64(int(w)) != w: above the largest int of a 32-bit platform,
		// where the conversion would wrap around.
		if w := f.words; w < 0 || w > maxCapWords || int64(int(w)) != w {
			return core.Config{}, invalid("%s %d out of range [0, 2^40] (0: no cap)", f.name, w)
		}
	}
	level := core.Level(c.Preset)
	if c.Epsilon != 0 && level == core.Balanced {
		// NewConfig's default preset, which an app that sets Epsilon
		// cannot tell apart from none: no level. Another preset beside
		// Epsilon is package core's ErrInvalidConfig (it would be ignored).
		level = ""
	}
	return core.Config{
		Mechanism: core.Mechanism(c.Mechanism), Level: level, Epsilon: c.Epsilon,
		AllowSaturatedEpsilon: c.AllowSaturatedEpsilon, AllowExcludedOutputs: c.AllowExcludedOutputs,
		Classes: core.Classes{RareRank: int(c.RareRank), Rare: c.RareEpsilon, Capitalized: c.CapitalizedEpsilon, Number: c.NumberEpsilon},
		OOV:     core.OOVPolicy(c.OOV), Placeholder: c.Placeholder, Numbers: core.NumberPolicy(c.Numbers),
		PrivatizePunctuation: c.PrivatizePunctuation, MaxTextBytes: int(c.MaxTextBytes),
		LedgerDir: c.LedgerDir, MemoDir: c.MemoDir, MemoSecret: c.MemoSecret,
		Caps: core.Caps{Lifetime: c.CapLifetime, PerPeriod: c.CapPerPeriod,
			LifetimeWords: int(c.CapLifetimeWords), PerPeriodWords: int(c.CapPerPeriodWords),
			Period: time.Duration(c.PeriodSeconds) * time.Second},
		// The host's StateAnchor is passed as it is: its method set is
		// core.Anchor's (a nil one converts to a nil core.Anchor).
		Anchor: c.Anchor,
	}, nil
}
