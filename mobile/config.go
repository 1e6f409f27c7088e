package mobile

import "github.com/wordveil/wordveil/core"

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
	// each call is charged its metric loss (ε·P_avg per word) first.
	LedgerDir string
	// CapLifetime caps the metric loss the ledger ever charges (finite,
	// ≥ 0; 0: no cap); a cap without LedgerDir is refused, not ignored.
	// Prefer CapLifetimeWords: the metric loss ε·P_avg compares ε within
	// one mechanism, not across mechanisms (docs/TEXT_PRIVACY.md, "The
	// unit of a person's budget").
	CapLifetime float64
	// CapPerPeriod caps the metric loss charged within the last
	// PeriodSeconds, a rolling window (same rules as CapLifetime).
	CapPerPeriod float64
	// CapLifetimeWords caps the lifetime in words instead: exactly this
	// many fresh words at the main ε are granted, and the next is refused
	// (WV_BUDGET_EXCEEDED). Converted once, when the privatizer is opened,
	// to the metric loss of that many words at its mechanism and
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
