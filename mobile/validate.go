package mobile

import (
	"math"
	"time"

	"github.com/wordveil/wordveil"
)

// Bounds of the int64 Config fields, checked before they become the root
// package's int and time.Duration fields (which would wrap around first on
// a 32-bit platform, or above 2^63 ns); every other rule is the root
// package's (wordveil.Open), so the binding and the Go API agree by
// construction.
const (
	maxTextBytesLimit = 1 << 30                  // Config.MaxTextBytes
	maxPeriodSeconds  = 100 * 365 * 24 * 60 * 60 // Config.PeriodSeconds: 100 years of 365 days, the ledger's limit
	maxRareRank       = math.MaxInt32            // Config.RareRank: fits an int on every platform
	maxCapWords       = 1 << 40                  // Config.CapLifetimeWords, CapPerPeriodWords: the root package's bound
)

// root converts c (nil: NewConfig's defaults) to the root package's Config.
func (c *Config) root() (wordveil.Config, error) {
	if c == nil {
		c = NewConfig()
	}
	switch {
	case c.RareRank < 0 || c.RareRank > maxRareRank:
		return wordveil.Config{}, invalid("RareRank %d out of range [0, %d]", c.RareRank, int64(maxRareRank))
	case c.MaxTextBytes < 0 || c.MaxTextBytes > maxTextBytesLimit:
		return wordveil.Config{}, invalid("MaxTextBytes %d out of range [0, 2^30] (0: 16 MiB)", c.MaxTextBytes)
	case c.PeriodSeconds < 0 || c.PeriodSeconds > maxPeriodSeconds:
		// Checked before the multiplication by time.Second, which wraps
		// around above 2^63 ns (≈ 292 years): 18446744074 s would become
		// 0.3 s and the per-period cap would stop capping.
		return wordveil.Config{}, invalid("PeriodSeconds %d out of range [0, %d] (0: 86400)", c.PeriodSeconds, int64(maxPeriodSeconds))
	}
	for _, f := range []struct {
		name  string
		words int64
	}{{"CapLifetimeWords", c.CapLifetimeWords}, {"CapPerPeriodWords", c.CapPerPeriodWords}} {
		// int64(int(w)) != w: above the largest int of a 32-bit platform,
		// where the conversion would wrap around.
		if w := f.words; w < 0 || w > maxCapWords || int64(int(w)) != w {
			return wordveil.Config{}, invalid("%s %d out of range [0, 2^40] (0: no cap)", f.name, w)
		}
	}
	r := wordveil.Config{
		Mechanism: wordveil.Mechanism(c.Mechanism), Level: wordveil.Level(c.Preset), Epsilon: c.Epsilon,
		AllowSaturatedEpsilon: c.AllowSaturatedEpsilon, AllowExcludedOutputs: c.AllowExcludedOutputs,
		Classes: wordveil.Classes{RareRank: int(c.RareRank), Rare: c.RareEpsilon, Capitalized: c.CapitalizedEpsilon, Number: c.NumberEpsilon},
		OOV:     wordveil.OOVPolicy(c.OOV), Placeholder: c.Placeholder, Numbers: wordveil.NumberPolicy(c.Numbers),
		PrivatizePunctuation: c.PrivatizePunctuation, MaxTextBytes: int(c.MaxTextBytes),
		LedgerDir: c.LedgerDir, MemoDir: c.MemoDir, MemoSecret: c.MemoSecret,
		Caps: wordveil.Caps{Lifetime: c.CapLifetime, PerPeriod: c.CapPerPeriod,
			LifetimeWords: int(c.CapLifetimeWords), PerPeriodWords: int(c.CapPerPeriodWords),
			Period: time.Duration(c.PeriodSeconds) * time.Second},
	}
	if c.Anchor != nil {
		r.Anchor = c.Anchor
	}
	return r, nil
}
