package core

import (
	"math"
	"path/filepath"
	"slices"
	"time"

	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/privatize"
)

// Bounds of the numeric Config fields.
const (
	maxPeriod     = 100 * 365 * 24 * time.Hour // Caps.Period: 100 years of 365 days, the ledger's limit
	defaultPeriod = 24 * time.Hour             // Caps.Period 0
	maxRareRank   = math.MaxInt32              // Classes.RareRank: fits an int on every platform (the asset's vocabulary bounds it further)
)

// settings is a Config that passed validate: its defaults filled in, and
// what the engine takes already in the engine's terms, so that Open
// composes the engine from it top-down, without coming back to this
// package's helpers between the engine's steps.
type settings struct {
	Config                      // the defaults of the empty names filled in
	caps      ledger.Caps       // Config.Caps (Period 0: 24 hours); Open adds the cost per word
	classes   privatize.Classes // Config.Classes
	text      privatize.Options // the text privatizer's options; Open adds the memo and the ledger
	anchor    Anchor            // the memo's and ledger's: Config.Anchor or the default; nil for NoAnchor
	anchorDir string            // the default anchor's directory, if it is used
}

// validate checks every field of cfg that needs no asset, in one pass,
// one validator per field, then the fields that only make sense together.
// The ε range, which depends on the mechanism and the asset, is checked
// when the mechanism is built, and a class ε beside a memo once the ε is
// known (privatize.Classes.CheckMemo): both before any directory is
// touched.
func validate(cfg Config) (settings, error) {
	s := settings{Config: cfg}
	for _, check := range []func(*Config) error{
		validMechanism, validLevel, validEpsilon, validClasses, validOOV, validNumbers,
		validMaxTextBytes, validCaps, validAsset, validState,
	} {
		if err := check(&s.Config); err != nil {
			return settings{}, err
		}
	}
	var err error
	if s.anchor, s.anchorDir, err = stateAnchor(&s.Config); err != nil {
		return settings{}, err
	}
	c := s.Caps
	s.caps = ledger.Caps{Lifetime: c.Lifetime, PerPeriod: c.PerPeriod, Period: c.Period,
		LifetimeWords: c.LifetimeWords, PerPeriodWords: c.PerPeriodWords}
	if s.caps.Period == 0 {
		s.caps.Period = defaultPeriod
	}
	cl := s.Classes
	s.classes = privatize.Classes{RareRank: cl.RareRank, Rare: cl.Rare, Capitalized: cl.Capitalized, Number: cl.Number}
	s.text = privatize.Options{OOV: string(s.OOV), Placeholder: s.Placeholder, Numbers: string(s.Numbers),
		PrivatizePunctuation: s.PrivatizePunctuation, MaxTextBytes: s.MaxTextBytes}
	return s, nil
}

func validMechanism(c *Config) error {
	if c.Mechanism == "" {
		c.Mechanism = BRR
	}
	name := string(c.Mechanism)
	if slices.Contains(mechanism.Offered(), name) || mechanism.CheckOffered(name, nil) != nil {
		// A name the engine builds but the product does not offer is
		// refused once the asset is read, with its figures (openWith).
		return nil
	}
	return invalid("unknown mechanism %q (want one of %v)", c.Mechanism, mechanism.Offered())
}

func validLevel(c *Config) error {
	switch c.Level {
	case "":
		c.Level = Balanced
	case Strong, Balanced, Light:
		if c.Epsilon != 0 {
			// Epsilon replaces the level's ε: the level would be ignored.
			return invalid("Level %s and Epsilon %v are both set: give one (Epsilon replaces the level's ε)", c.Level, c.Epsilon)
		}
	default:
		return invalid("unknown privacy level %q (want %s, %s or %s)", c.Level, Strong, Balanced, Light)
	}
	return nil
}

func validEpsilon(c *Config) error {
	if eps := c.Epsilon; eps < 0 || eps > mechanism.MaxEpsilon || math.IsNaN(eps) {
		return invalid("Epsilon %v: must be a finite number in (0, %g], or 0 to use the level", eps, float64(mechanism.MaxEpsilon))
	}
	return nil
}

func validClasses(c *Config) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"Rare", c.Classes.Rare}, {"Capitalized", c.Classes.Capitalized}, {"Number", c.Classes.Number}} {
		if f.v < 0 || f.v > mechanism.MaxEpsilon || math.IsNaN(f.v) {
			return invalid("Classes.%s %v: must be a finite number in (0, %g], or 0 for the main ε", f.name, f.v, float64(mechanism.MaxEpsilon))
		}
	}
	switch r := c.Classes.RareRank; {
	case r < 0 || r > maxRareRank:
		return invalid("Classes.RareRank %d out of range [0, %d]", r, maxRareRank)
	case (r == 0) != (c.Classes.Rare == 0):
		return invalid("Classes.Rare %v and Classes.RareRank %d: set both or neither", c.Classes.Rare, r)
	}
	return nil
}

func validOOV(c *Config) error {
	switch c.OOV {
	case "":
		c.OOV = RandomWord
	case RandomWord, Placeholder:
	default:
		return invalid("unknown OOV policy %q (want %s or %s)", c.OOV, RandomWord, Placeholder)
	}
	return nil
}

func validNumbers(c *Config) error {
	switch c.Numbers {
	case "":
		c.Numbers = PrivatizeNumbers
	case PrivatizeNumbers, ReplaceNumbers:
	default:
		return invalid("unknown numbers policy %q (want %s or %s)", c.Numbers, PrivatizeNumbers, ReplaceNumbers)
	}
	return nil
}

func validMaxTextBytes(c *Config) error {
	if c.MaxTextBytes < 0 || c.MaxTextBytes > privatize.MaxTextBytesLimit {
		return invalid("MaxTextBytes %d out of range [0, 2^30] (0: 16 MiB)", c.MaxTextBytes)
	}
	return nil
}

func validCaps(c *Config) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"Caps.Lifetime", c.Caps.Lifetime}, {"Caps.PerPeriod", c.Caps.PerPeriod}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return invalid("%s %v: must be a finite number ≥ 0 (0: no cap)", f.name, f.v)
		}
	}
	for _, f := range []struct {
		name, loss string
		words      int
		lossSet    bool
	}{
		{"Caps.LifetimeWords", "Caps.Lifetime", c.Caps.LifetimeWords, c.Caps.Lifetime != 0},
		{"Caps.PerPeriodWords", "Caps.PerPeriod", c.Caps.PerPeriodWords, c.Caps.PerPeriod != 0},
	} {
		switch {
		case f.words < 0 || int64(f.words) > ledger.MaxCapWords: // int64: 2^40 overflows a 32-bit int
			return invalid("%s %d out of range [0, 2^40] (0: no cap)", f.name, f.words)
		case f.words != 0 && f.lossSet:
			return invalid("%s and %s are both set: give the cap once, in words or in metric loss", f.name, f.loss)
		}
	}
	if c.Caps.Period < 0 || c.Caps.Period > maxPeriod {
		return invalid("Caps.Period %v out of range [0, %v] (0: 24h)", c.Caps.Period, maxPeriod)
	}
	if c.LedgerDir == "" && c.Caps != (Caps{}) {
		return invalid("Caps %+v need a LedgerDir to be enforced", c.Caps)
	}
	return nil
}

func validAsset(c *Config) error {
	if c.AssetFile != "" && c.Asset != nil {
		return invalid("AssetFile and Asset are both set: give one")
	}
	return nil
}

func validState(c *Config) error {
	switch {
	case c.Anchor != nil && c.LedgerDir == "" && c.MemoDir == "":
		return invalid("an Anchor (or NoAnchor) needs MemoDir or LedgerDir: it anchors nothing without them")
	case c.MemoDir == "" && len(c.MemoSecret) > 0:
		return invalid("MemoSecret needs MemoDir")
	}
	return checkDefaultPlace(c)
}

// stateAnchor is the anchor cfg's memo and ledger use: Config.Anchor, or
// the default file anchor (dir says where), or nil for NoAnchor or
// without a memo or ledger. cfg has passed validState.
func stateAnchor(cfg *Config) (a Anchor, dir string, err error) {
	switch {
	case cfg.LedgerDir == "" && cfg.MemoDir == "":
		return nil, "", nil
	case cfg.Anchor == nil:
		home, err := defaultStateDir()
		if err != nil {
			return nil, "", err
		}
		dir = filepath.Join(home, "anchors")
		return anchor.Dir(dir), dir, nil
	case isNoAnchor(cfg.Anchor):
		return nil, "", nil
	}
	return cfg.Anchor, "", nil
}

func isNoAnchor(a Anchor) bool {
	_, ok := a.(noAnchor)
	return ok
}

// defaultStateDir is where the default anchor lives: the CLI's default
// state directory, os.UserConfigDir()/wordveil.
func defaultStateDir() (string, error) {
	home, err := anchor.DefaultHome()
	if err != nil {
		return "", invalid("no user configuration directory for the default anchor (%v): give Config.Anchor, or NoAnchor", err)
	}
	return home, nil
}

// checkDefaultPlace refuses a memo or ledger directory inside the default
// state directory, or containing it (symlinks resolved): a copy, backup
// or restore of the data would carry its anchors with it.
func checkDefaultPlace(cfg *Config) error {
	if cfg.Anchor != nil || cfg.LedgerDir == "" && cfg.MemoDir == "" {
		return nil
	}
	home, err := defaultStateDir()
	if err != nil {
		return err
	}
	for _, d := range []struct{ field, dir string }{{"LedgerDir", cfg.LedgerDir}, {"MemoDir", cfg.MemoDir}} {
		if d.dir != "" && (anchor.Within(d.dir, home) || anchor.Within(home, d.dir)) {
			return invalid("%s %s and the default anchor's directory %s are inside one another: a restore of the data would restore its anchors (move the data, or give Config.Anchor)", d.field, d.dir, home)
		}
	}
	return nil
}
