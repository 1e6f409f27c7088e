package core

import (
	"errors"
	"time"

	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/privatize"
)

// Mechanism names a metric-DP word mechanism. Every mechanism offered here
// releases a word only as a draw from its output distribution: none keeps
// a word by construction (SanText+ and CusText+, which do, are not
// offered).
type Mechanism string

// The mechanisms Open accepts. docs/MECHANISMS.md states each one's
// guarantee and metric. OneDT is the device's TEM over precomputed
// neighbour lists; "tem", TEM over the asset's Euclidean lists, is not
// offered (ErrInvalidConfig): the only ε those lists admit keep nearly
// every word (docs/MECHANISMS.md).
const (
	BRR        Mechanism = mechanism.NameBRR        // binary randomized response on the 256-bit codes (Hamming metric); the default
	TEMHamming Mechanism = mechanism.NameTEMHamming // truncated exponential mechanism on the codes (Hamming metric)
	OneDG      Mechanism = mechanism.Name1DG        // 1-Diffractor, geometric noise along each list (list-position metric)
	OneDT      Mechanism = mechanism.Name1DT        // 1-Diffractor, truncated exponential along each list (list-position metric)
	SanText    Mechanism = mechanism.NameSanText    // SanText's exponential mechanism on the codes (Hamming metric)
	CusText    Mechanism = mechanism.NameCusText    // CusText's exponential mechanism within the asset's customized sets
)

// Level names a calibrated privacy level: the asset stores, per mechanism,
// the ε at which a stated share of typed words is released unchanged
// (the embedded asset: 0.10 Strong, 0.30 Balanced, 0.60 Light, each word
// weighted by its frequency in everyday English), so a level means the
// same for every mechanism. docs/PRIVACY_LEVELS.md gives, per mechanism
// and level, that share on held-out text and what a reconstruction
// attacker recovers.
type Level string

// The privacy levels.
const (
	Strong   Level = mechanism.LevelStrong
	Balanced Level = mechanism.LevelBalanced // the default
	Light    Level = mechanism.LevelLight
)

// OOVPolicy says what replaces a token the mechanism cannot privatize (a
// word outside the vocabulary, an e-mail address, a URL, emoji). Both
// policies release nothing about the token; there is no pass-through.
type OOVPolicy string

// The out-of-vocabulary policies.
const (
	RandomWord  OOVPolicy = privatize.OOVRandomWord  // a uniformly random allowed word (the default)
	Placeholder OOVPolicy = privatize.OOVPlaceholder // Config.Placeholder ("•" when empty)
)

// NumberPolicy says what happens to numbers ("5", "1990", "3.5").
type NumberPolicy string

// The number policies. A number outside the vocabulary always goes to the
// OOV policy.
const (
	PrivatizeNumbers NumberPolicy = privatize.NumbersPrivatize // a number the vocabulary has is privatized like a word (the default)
	ReplaceNumbers   NumberPolicy = privatize.NumbersReplace   // every number goes to the OOV policy
)

// Config says how to privatize. The zero value is the product default:
// BRR at the Balanced level on the embedded English asset, the asset's
// offensive words never output, out-of-vocabulary tokens replaced by random
// words, no ledger, no memo. Open validates every field once; a value that
// would be ignored, wrap around or disable a cap is an error
// (ErrInvalidConfig), never silently changed.
type Config struct {
	// Mechanism: "" means BRR.
	Mechanism Mechanism
	// Level: "" means Balanced. Give either Level or Epsilon: both is
	// an error.
	Level Level
	// Epsilon, if not 0, is ε in the mechanism's metric instead of a
	// level's (Level must then be ""). It must lie in the mechanism's accepted range: not below
	// its floor, where the largest loss between two words is 0.001 nats,
	// nor above 10^6 (docs/MECHANISMS.md, "The accepted ε range"), nor
	// above the ε where the output is almost surely the input unless
	// AllowSaturatedEpsilon.
	Epsilon float64
	// AllowSaturatedEpsilon accepts an ε so large that the output is almost
	// surely the input (experiments only).
	AllowSaturatedEpsilon bool
	// AllowExcludedOutputs lets the mechanism release the words on the
	// asset's exclusion list (offensive words). Off, such words are never
	// output, though one the user types is privatized like any other.
	AllowExcludedOutputs bool

	// AssetFile, if set, is an asset file (wordveil asset format) to use
	// instead of the embedded English asset. Its size and checksums are
	// checked before use.
	AssetFile string
	// Asset, if not nil, is an asset file's bytes (copied), instead of the
	// embedded asset. At most one of AssetFile and Asset.
	Asset []byte

	// Classes gives word classes their own ε (docs/TEXT_PRIVACY.md,
	// "Per-class ε"); the zero value: every word at the main ε.
	Classes Classes

	// OOV: "" means RandomWord.
	OOV OOVPolicy
	// Placeholder replaces out-of-vocabulary tokens with OOV Placeholder
	// ("" means "•").
	Placeholder string
	// Numbers: "" means PrivatizeNumbers.
	Numbers NumberPolicy
	// PrivatizePunctuation replaces each punctuation mark by a uniformly
	// random one.
	PrivatizePunctuation bool
	// MaxTextBytes bounds one text, in [0, 2^30] (0: 16 MiB).
	MaxTextBytes int

	// LedgerDir, if set, is a private directory keeping the privacy budget:
	// each call is charged its metric loss (ε·P_avg per fresh word)
	// before any text is returned.
	LedgerDir string
	// Caps bound what the ledger charges; a cap without LedgerDir is an
	// error, not ignored.
	Caps Caps
	// MemoDir, if set, is a private directory of permanent responses: each
	// word keeps its first response, so repeating it costs nothing more
	// (docs/TEXT_PRIVACY.md). Needs MemoSecret.
	MemoDir string
	// MemoSecret (at least 32 bytes) seals the memo. Keep it in the
	// platform's key store, never beside the memo.
	MemoSecret []byte
	// Anchor keeps the latest state of the memo and ledger files outside
	// their directories, so that a rolled-back, truncated, replaced or
	// deleted file fails closed (ErrCorruptState) instead of answering
	// words afresh or handing budget back (docs/STATE_FILES.md). It also
	// keeps a pin per directory (which ledger, which secret's memos it
	// held) and the marks of Reset.
	//
	// nil (the default) with MemoDir or LedgerDir: Open keeps the anchors
	// in files in the user's configuration directory,
	// os.UserConfigDir()/wordveil/anchors — the CLI's default state
	// directory, so the two share them — and says so in
	// Info.AnchorDir; a MemoDir or LedgerDir inside
	// os.UserConfigDir()/wordveil, or containing it, is ErrInvalidConfig
	// (a backup or restore of the data must not carry its anchors). An
	// app whose data is backed up should give an Anchor in storage that
	// is not (Android no-backup or Keystore storage, the iOS Keychain
	// …ThisDeviceOnly). NoAnchor opts out. An Anchor (NoAnchor too)
	// without MemoDir or LedgerDir is ErrInvalidConfig.
	Anchor Anchor
}

// Classes gives word classes their own ε, in the mechanism's metric, each
// in (0, 10^6]; 0 leaves a class unconfigured. A word in several classes
// gets the smallest of their ε. Which class a word falls in is disclosed:
// the guarantee holds between words of the same class. A class at another
// ε than the main one cannot share a memo (ErrInvalidConfig).
type Classes struct {
	// RareRank: a word whose vocabulary rank (most frequent first, from 0)
	// is at least RareRank is rare; in [1, vocabulary size − 1] with Rare,
	// 0 without it.
	RareRank int
	// Rare is the ε of rare words.
	Rare float64
	// Capitalized is the ε of Title and UPPER case words ("Smith", "NASA").
	Capitalized float64
	// Number is the ε of numbers the vocabulary has.
	Number float64
}

// Caps bound the metric loss a ledger charges, given in words (the
// recommended unit: LifetimeWords, PerPeriodWords) or in that loss
// (Lifetime, PerPeriod), which compares ε within one mechanism but not
// across mechanisms (docs/TEXT_PRIVACY.md, "The unit of a person's
// budget"). Each is ≥ 0 (the losses finite); 0 means no cap. A cap
// may be given one way only: Lifetime with LifetimeWords, or PerPeriod
// with PerPeriodWords, is an error (ErrInvalidConfig).
type Caps struct {
	// Lifetime caps what the ledger ever charges.
	Lifetime float64
	// PerPeriod caps what it charges within any Period-long window.
	PerPeriod float64
	// LifetimeWords caps the lifetime in words: exactly this many fresh
	// words at the main ε are granted, and the next is refused. Open
	// converts it once, to (LifetimeWords + ½) × Info.WordCost (ε·P_avg at
	// the mechanism and ε or level opened), the metric loss the ledger
	// keeps; the half word keeps float rounding off the boundary. At most
	// 2^40. Only fresh words count: a word the memo answers again costs
	// nothing, and a word of a class at ε_c (Classes) counts ε_c/ε of a
	// word. A mechanism whose P_avg is unknown on the device (CusText)
	// has no cost per word: a word cap is then an error.
	// The ledger stores the charges, not the cap: a directory reopened at
	// another level with the same word cap has the same charges behind
	// it, counted in words at the new level's cost (docs/TEXT_PRIVACY.md,
	// "Caps in words").
	LifetimeWords int
	// PerPeriodWords caps, like LifetimeWords, the words granted within
	// any Period-long window.
	PerPeriodWords int
	// Period is the rolling window of PerPeriod or PerPeriodWords, at
	// most 100 years of 365 days (0: 24 hours).
	Period time.Duration
}

// Anchor is a small durable key-value store, kept apart from the memo and
// ledger directories (not backed up or restored with them), for their
// rollback anchors. Load returns the bytes last stored under name, or nil
// or empty if none; Store must be durable when it returns. Names are short
// ASCII ("ledger-" or "memo-" and 32 hex digits); values are under 64
// bytes and reveal nothing about the text. An error from either fails the
// call closed. One value may serve any number of privatizers, memos and
// ledgers.
//
// It is the engine's one anchor interface (an alias, so a value of any
// type with these two methods, such as the binding's mobile.StateAnchor,
// is passed to the memo and the ledger as it is).
type Anchor = anchor.Anchor

// NoAnchor, as Config.Anchor, opts out of every anchor: the memo and the
// ledger then detect damage to their files and, while a Privatizer is
// open, a file cut, replaced or deleted under it, but across Opens not: a
// backup restored, a file cut at a record boundary, a directory deleted
// whole and started afresh. Each of those answers again, afresh, words
// already answered (two responses for one word average the noise away),
// or hands spent budget back; Reset cannot keep a restored copy from
// undoing it either (docs/STATE_FILES.md). Its methods fail: it is never
// called.
var NoAnchor Anchor = noAnchor{}

type noAnchor struct{}

func (noAnchor) Load(string) ([]byte, error) { return nil, errNoAnchor }
func (noAnchor) Store(string, []byte) error  { return errNoAnchor }

var errNoAnchor = errors.New("core.NoAnchor: no anchor")
