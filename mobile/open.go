package mobile

// Opening a privatizer: the binding's Config is checked where its int64
// fields would not fit package core's int and time.Duration fields, and
// for the StateAnchor rule only the binding has; every other rule is
// package core's (core.Open), so that the binding and the Go API agree by
// construction.

import (
	"fmt"
	"io/fs"
	"math"
	"runtime/debug"
	"time"

	"github.com/wordveil/wordveil/core"
)

// OpenPrivatizer returns a privatizer over the embedded English asset
// (cfg nil: NewConfig's defaults).
func OpenPrivatizer(cfg *Config) (p *Privatizer, err error) {
	defer guard(&err)
	return open(cfg, func(c *core.Config) {})
}

// OpenPrivatizerFromAsset returns a privatizer over an asset file's bytes
// (copied; the caller may reuse the array).
func OpenPrivatizerFromAsset(asset []byte, cfg *Config) (p *Privatizer, err error) {
	defer guard(&err)
	if asset == nil {
		asset = []byte{} // an empty array is a corrupt asset, not the embedded one
	}
	return open(cfg, func(c *core.Config) { c.Asset = asset })
}

// OpenPrivatizerFromFile returns a privatizer over an asset file.
func OpenPrivatizerFromFile(path string, cfg *Config) (p *Privatizer, err error) {
	defer guard(&err)
	if path == "" {
		// Package core reads "" as "the embedded asset"; here it is a
		// file that does not exist.
		return nil, wrap(&fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist})
	}
	return open(cfg, func(c *core.Config) { c.AssetFile = path })
}

// open converts cfg (nil: the defaults) to package core's Config, lets
// asset name the asset, and opens it.
func open(cfg *Config, asset func(*core.Config)) (*Privatizer, error) {
	c, err := cfg.root()
	if err != nil {
		return nil, err
	}
	asset(&c)
	p, err := core.Open(c)
	if err != nil {
		return nil, wrap(err)
	}
	// An asset read from a file or copied from an array is a new buffer of
	// its size per open (about 5 MB), which a closed privatizer leaves as
	// garbage: hand what is free back to the OS now rather than at the
	// runtime's leisure, since keyboard extensions are killed above
	// ~50 MB. The embedded asset is used where it lies and verified once
	// per process, so opening it leaves next to nothing (under 1 MiB the
	// first time, a few KiB after): no collection is forced for it.
	if c.AssetFile != "" || c.Asset != nil {
		debug.FreeOSMemory()
	}
	return &Privatizer{p: p}, nil
}

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
	anchor, err := c.stateAnchor()
	if err != nil {
		return core.Config{}, err
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
		// core.Anchor's.
		Anchor: anchor,
	}, nil
}

// stateAnchor is the core.Anchor c asks for: the host's, or
// core.NoAnchor. A memo or ledger without either is refused: package
// core's default (files in the user's configuration directory) is no
// place for a phone's anchors, which must stay out of the app's backups.
func (c *Config) stateAnchor() (core.Anchor, error) {
	dirs := c.LedgerDir != "" || c.MemoDir != ""
	switch {
	case c.NoAnchor && c.Anchor != nil:
		return nil, invalid("NoAnchor and Anchor are both set: give one")
	case c.NoAnchor && !dirs:
		return nil, invalid("NoAnchor needs MemoDir or LedgerDir: it opts out of nothing without them")
	case c.NoAnchor:
		return core.NoAnchor, nil
	case c.Anchor == nil && dirs:
		return nil, invalid("MemoDir and LedgerDir need an Anchor (a StateAnchor kept apart from them, in storage not backed up: docs/STATE_FILES.md), or NoAnchor to opt out")
	case c.Anchor == nil:
		return nil, nil // a nil StateAnchor would convert to a non-nil core.Anchor
	}
	return c.Anchor, nil
}

// invalid returns a WV_INVALID_ARGUMENT error.
func invalid(format string, a ...any) error {
	return &codedError{code: CodeInvalidArgument, err: fmt.Errorf(format, a...)}
}
