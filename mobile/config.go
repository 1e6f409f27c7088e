package mobile

import (
	"math"
	"time"

	"github.com/wordveil/wordveil/core"
)

// Config says how to privatize. Create it with NewConfig (which sets the
// defaults), change fields, pass it to OpenPrivatizer; it is copied there.
type Config struct {
	// Mechanism: "brr" (default), "tem-hamming", "1dg", "1dt", "santext"
	// or "custext"; "1dt" is TEM over precomputed neighbour lists.
	// Refused (WV_INVALID_ARGUMENT): "tem" (TEM over the asset's
	// Euclidean lists, whose only admitted ε keep nearly every word), and
	// "santext+" and "custext+", which release some words unchanged by
	// construction.
	Mechanism string
	// Preset: "strong", "balanced" (default) or "light"
	// (docs/PRIVACY_LEVELS.md). With Epsilon > 0, leave it "balanced" or
	// "": "strong" or "light" would be ignored, so is WV_INVALID_ARGUMENT.
	Preset string
	// Epsilon, if > 0, is ε in the mechanism's metric, instead of Preset
	// (0: the preset; negative, NaN, infinite, or below the mechanism's
	// floor, where the largest loss between two words is 0.001 nats, e.g.
	// 2·10^-8 for "1dg": WV_INVALID_ARGUMENT; docs/MECHANISMS.md, "The
	// accepted ε range").
	Epsilon float64
	// Word classes (RareEpsilon, CapitalizedEpsilon, NumberEpsilon): each
	// ε is in the mechanism's metric, like Epsilon, finite and ≤ 10^6; 0
	// means "the main ε"; a word in several classes gets the smallest of
	// their ε. A class at another ε than the main one cannot be combined
	// with MemoDir (WV_INVALID_ARGUMENT).
	//
	// RareEpsilon, if > 0, is the ε of rare words: those whose vocabulary
	// rank is ≥ RareRank (the asset lists words most frequent first). Set
	// both or neither. Whether a word is rare is disclosed: the guarantee
	// holds between words of the same class (docs/TEXT_PRIVACY.md,
	// "Per-class ε").
	RareEpsilon float64
	// RareRank is the first rare rank, in [1, vocabulary size − 1] with
	// RareEpsilon (0 without it).
	RareRank int64
	// CapitalizedEpsilon, if > 0, is the ε of Title and UPPER case words
	// ("Smith", "NASA"), a proxy for names.
	CapitalizedEpsilon float64
	// NumberEpsilon, if > 0, is the ε of numbers the vocabulary has (with
	// Numbers "privatize").
	NumberEpsilon float64

	// Numbers: "privatize" (default: a number the vocabulary has, such as
	// "5" or "1990", is privatized like a word) or "replace" (every number
	// goes to the OOV policy). A number outside the vocabulary is always
	// replaced.
	Numbers string
	// OOV: "random-word" (default) or "placeholder".
	OOV string
	// Placeholder replaces out-of-vocabulary tokens with OOV "placeholder"
	// ("" means "•").
	Placeholder string
	// PrivatizePunctuation replaces each punctuation mark by a random one.
	PrivatizePunctuation bool
	// MaxTextBytes bounds one call's text, at most 2^30 (0: 16 MiB).
	MaxTextBytes int64
	// LedgerDir, if set, is an app-private directory for the privacy budget;
	// each call is charged its unit-free loss (ε·P_avg per word) first.
	LedgerDir string
	// CapLifetime caps the unit-free loss the ledger ever charges (finite,
	// ≥ 0; 0: no cap); a cap without LedgerDir is refused, not ignored.
	CapLifetime float64
	// CapPerPeriod caps the unit-free loss charged within the last
	// PeriodSeconds, a rolling window (same rules as CapLifetime).
	CapPerPeriod float64
	// CapLifetimeWords caps the lifetime in words instead: exactly this
	// many fresh words at the main ε are granted, and the next is refused
	// (WV_BUDGET_EXCEEDED). Converted once, when the privatizer is opened,
	// to the unit-free loss of that many words at its mechanism and
	// preset (Privatizer.WordCost each): the same number is a different
	// budget at another preset. In [0, 2^40] (0: no cap); not with
	// CapLifetime; refused for "custext" (no cost per word on the device).
	// Words the memo answers again cost nothing (docs/TEXT_PRIVACY.md,
	// "Caps in words").
	CapLifetimeWords int64
	// CapPerPeriodWords caps, like CapLifetimeWords, the words granted
	// within the last PeriodSeconds; not with CapPerPeriod.
	CapPerPeriodWords int64
	// PeriodSeconds is the rolling window of CapPerPeriod or
	// CapPerPeriodWords in seconds, at most 100 years of 365 days (0:
	// 86400, one day).
	PeriodSeconds int64
	// MemoDir, if set, is an app-private directory for permanent responses
	// (each word keeps its first response; see docs/TEXT_PRIVACY.md).
	MemoDir string
	// AllowSaturatedEpsilon accepts such an ε (experiments only).
	AllowSaturatedEpsilon bool
	// AllowExcludedOutputs lets the mechanism release the words on the
	// asset's exclusion list (offensive words). Off by default: such words
	// are never output, though a user who types one still has it
	// privatized like any other word.
	AllowExcludedOutputs bool
	// MemoSecret (at least 32 bytes) seals the memo file: without it the
	// file reveals only its number of entries. Keep it in the platform's
	// key store (Android Keystore, iOS Keychain), never beside the memo.
	// Required with MemoDir.
	MemoSecret []byte
	// Anchor, if set, keeps the latest state of the memo and ledger files
	// outside their directories, so that a rolled-back file (an app backup
	// restored, records cut off, an older copy, a deleted file) fails
	// closed (WV_CORRUPT_STATE) instead of answering words afresh or handing
	// budget back. Keep it apart from MemoDir and LedgerDir, in storage not
	// backed up or restored with them (the samples' AnchorStore: Android
	// noBackupFilesDir, iOS Keychain …ThisDeviceOnly). It also remembers
	// which ledger and which secret's memos each directory held, so a
	// directory deleted whole and started afresh fails closed too; only
	// ResetState starts over. Required with MemoDir or LedgerDir
	// (WV_INVALID_ARGUMENT without it, unless NoAnchor); refused without
	// them.
	Anchor StateAnchor
	// NoAnchor opts out of the Anchor a MemoDir or LedgerDir requires.
	// Then a backup restored, a file cut at a record boundary or a
	// directory deleted whole goes unnoticed across opens: words already
	// answered are answered afresh (two responses for one word average
	// the noise away) and spent budget is handed back
	// (docs/STATE_FILES.md). Not with Anchor.
	NoAnchor bool
}

// StateAnchor is core.Anchor's method set, declared again here only because
// gomobile binds the interfaces of the bound package alone (a Java
// interface and an ObjC protocol are generated from it); a host's value is
// handed to package core as it is, with no adapter. (Not part of its doc
// comment, which the generated Java and ObjC carry to app developers.)

// StateAnchor is implemented by the host app: a small key-value store for
// the memo's and ledger's rollback anchors. Load returns the bytes last
// stored under name, or null/empty if none; Store must be durable when it
// returns. Names are short ASCII ("ledger-" or "memo-" and 32 hex digits);
// values are under 64 bytes and reveal nothing about the text (a count and
// a MAC or hash value). An error from either fails the call closed.
type StateAnchor interface {
	Load(name string) ([]byte, error)
	Store(name string, state []byte) error
}

// NewConfig returns the default configuration (nil should it ever panic;
// OpenPrivatizer takes nil as the defaults).
func NewConfig() (c *Config) {
	defer guardValue(&c, nil)
	return &Config{Mechanism: string(core.BRR), Preset: string(core.Balanced), OOV: string(core.RandomWord), Numbers: string(core.PrivatizeNumbers)}
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
