package mobile

import "github.com/wordveil/wordveil/core"

// Config says how to privatize. Create it with NewConfig (which sets the
// defaults), change fields, pass it to OpenPrivatizer; it is copied there.
type Config struct {
	// Mechanism: "brr" (default), "tem-hamming", "1dg", "1dt", or "tem"
	// (Euclidean lists; needs Epsilon ≥ 8.35 and gives little deniability).
	Mechanism string
	// Preset: "strong", "balanced" (default) or "light"
	// (docs/PRIVACY_LEVELS.md). Ignored when Epsilon > 0.
	Preset string
	// Epsilon, if > 0, is ε in the mechanism's metric, instead of Preset.
	Epsilon float64
	// OOV: "random-word" (default) or "placeholder".
	OOV string
	// Placeholder replaces out-of-vocabulary tokens with OOV "placeholder"
	// ("" means "•").
	Placeholder string
	// PrivatizePunctuation replaces each punctuation mark by a random one.
	PrivatizePunctuation bool
	// MaxTextBytes bounds one call's text (0: 16 MiB).
	MaxTextBytes int64
	// LedgerDir, if set, is an app-private directory for the privacy budget;
	// each call is charged its unit-free loss (ε·P_avg per word) first.
	LedgerDir string
	// CapLifetime and CapPerPeriod cap the ledger (0: no cap);
	// PeriodSeconds is CapPerPeriod's rolling window (0: 86400).
	CapLifetime   float64
	CapPerPeriod  float64
	PeriodSeconds int64
	// MemoDir, if set, is an app-private directory for permanent responses
	// (each word keeps its first response; see docs/TEXT_PRIVACY.md).
	MemoDir string
}

// NewConfig returns the default configuration.
func NewConfig() *Config {
	return &Config{Mechanism: core.NameBRR, Preset: core.LevelBalanced, OOV: core.OOVRandomWord}
}
