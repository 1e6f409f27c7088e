package mobile

import (
	"math"
	"runtime/debug"
	"sync/atomic"

	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/internal/buildinfo"
)

// Privatizer privatizes texts. Safe for concurrent use. Only the Open…
// functions make a usable one: the methods of a nil or zero-value
// Privatizer (gobind's no-argument constructor) return WV_INVALID_ARGUMENT
// or their documented zero value. Close it when done (Close).
type Privatizer struct {
	p      *core.Privatizer // nil: not opened
	closed atomic.Bool      // Close was called (on a zero value too: later calls are WV_CLOSED)
}

// root returns p's privatizer: WV_CLOSED after Close, WV_INVALID_ARGUMENT
// on a nil or zero-value Privatizer. (An open privatizer closed meanwhile
// returns WV_CLOSED from package core itself.)
func (p *Privatizer) root() (*core.Privatizer, error) {
	switch {
	case p == nil:
		return nil, errNotOpened
	case p.closed.Load():
		return nil, errClosed
	case p.p == nil:
		return nil, errNotOpened
	}
	return p.p, nil
}

// Result is a privatized text and its privacy accounting.
type Result struct {
	// Text is the privatized text: upload this, never the input.
	Text string
	// Words is how many words the mechanism privatized.
	Words int64
	// OOV is how many tokens the out-of-vocabulary policy replaced.
	OOV int64
	// Memoized is how many of Words were answered from the memo (no new loss).
	Memoized int64
	// Epsilon is the per-word ε, in Metric (with word classes, the ε of
	// words in no configured class: the main ε).
	Epsilon float64
	// Metric names the metric d of the mechanism.
	Metric string
	// TotalEpsilon is (Words − Memoized)·Epsilon; with word classes
	// (Config.RareEpsilon, ...), the sum of each fresh word's class ε.
	TotalEpsilon float64
	// PAvg is the mean vocabulary distance in Metric; NaN when unknown on
	// the device (LossKnown false), never 0, which would read as "no loss".
	PAvg float64
	// UnitFree is TotalEpsilon·PAvg, what the ledger is charged; NaN when
	// PAvg is unknown.
	UnitFree float64
	// LossKnown reports whether PAvg and UnitFree are known.
	LossKnown bool
	// LossUnknown says why they are not ("" when LossKnown).
	LossUnknown string
	// PeriodSpent is, with a ledger, what is spent in the current period
	// after this call (0 without a ledger).
	PeriodSpent float64
	// LifetimeSpent is, with a ledger, what is spent over the ledger's
	// lifetime after this call (0 without a ledger).
	LifetimeSpent float64
	// PeriodRemaining is what is left in the period (−1: no per-period cap
	// or no ledger).
	PeriodRemaining float64
	// LifetimeRemaining is what is left over the lifetime (−1: no lifetime
	// cap or no ledger).
	LifetimeRemaining float64
	// PeriodWordsRemaining is PeriodRemaining in fresh words at the main
	// ε (WordCost each), rounded down: what an app shows as "N words left
	// today" (−1: no per-period cap or no ledger).
	PeriodWordsRemaining int64
	// LifetimeWordsRemaining is LifetimeRemaining in words, likewise (−1:
	// no lifetime cap or no ledger).
	LifetimeWordsRemaining int64
}

// Privatize privatizes text. With a ledger, the call is charged first and
// fails with WV_BUDGET_EXCEEDED (and no text) when a cap would be exceeded.
// On a nil or zero-value Privatizer: WV_INVALID_ARGUMENT; after Close:
// WV_CLOSED.
func (p *Privatizer) Privatize(text string) (r *Result, err error) {
	defer guard(&err)
	root, err := p.root()
	if err != nil {
		return nil, err
	}
	res, err := root.Privatize(text)
	if err != nil {
		return nil, wrap(err)
	}
	acc := res.Accounting
	r = &Result{Text: res.Text, Words: int64(acc.Words), OOV: int64(acc.OOV), Memoized: int64(acc.Memoized),
		Epsilon: acc.Epsilon, Metric: acc.Metric, TotalEpsilon: acc.TotalEpsilon, PAvg: acc.PAvg, UnitFree: acc.UnitFree,
		LossKnown: acc.LossUnknown == "", LossUnknown: acc.LossUnknown,
		PeriodRemaining: -1, LifetimeRemaining: -1, PeriodWordsRemaining: -1, LifetimeWordsRemaining: -1}
	if l := acc.Ledger; l != nil {
		r.PeriodSpent, r.LifetimeSpent = l.PeriodSpent, l.LifetimeSpent
		r.PeriodWordsRemaining, r.LifetimeWordsRemaining = l.PeriodWordsRemaining, l.LifetimeWordsRemaining // −1 without the cap
		if !math.IsInf(l.PeriodRemaining, 1) {
			r.PeriodRemaining = l.PeriodRemaining
		}
		if !math.IsInf(l.LifetimeRemaining, 1) {
			r.LifetimeRemaining = l.LifetimeRemaining
		}
	}
	return r, nil
}

// Close releases the privatizer: the memo's file and the ledger it opened,
// and its references to the decoded asset and the mechanism, so that the
// garbage collector can reclaim them even while the Java or Swift object
// that wraps this one waits for its finalizer (gobind keeps the Go object
// reachable until then). Call it when the privatizer is no longer needed:
// a keyboard in onDestroy (Android) or deinit (iOS). The embedded asset,
// which every privatizer of the process shares, stays decoded; call
// FreeOSMemory afterwards to hand freed memory back to the OS at once.
//
// Every later call returns WV_CLOSED (Epsilon, Metric, VocabularySize their
// zero value); a call already running when Close is called finishes first
// (Close waits for it) or, if it had not reached the text yet, returns
// WV_CLOSED. Close again, or on a nil or zero-value Privatizer, returns nil.
// An error (WV_IO) means the memo file could not be closed cleanly; the
// privatizer is closed all the same.
func (p *Privatizer) Close() (err error) {
	defer guard(&err)
	if p == nil {
		return nil
	}
	p.closed.Store(true)
	if p.p == nil {
		return nil
	}
	return wrap(p.p.Close())
}

// Deniability estimates plausible deniability on words random words of the
// vocabulary, draws privatizations each (docs/MECHANISMS.md):
// N_w = Pr[output = input], S_w = distinct outputs.
type Deniability struct {
	// MeanN is the mean of N_w over the sampled words.
	MeanN float64
	// MeanS is the mean of S_w over the sampled words.
	MeanS float64
	// Words is the number of words sampled (uniformly, with repeats):
	// the words asked, or the vocabulary size if smaller.
	Words int64
	// Draws is the number of privatizations of each sampled word.
	Draws int64
}

// Deniability measures this privatizer's mechanism (1 ≤ words ≤ 10,000,
// 1 ≤ draws ≤ 10,000, words·draws ≤ 1,000,000: the work is words·draws
// privatizations). Out of range, or on a nil or zero-value Privatizer:
// WV_INVALID_ARGUMENT; after Close: WV_CLOSED.
func (p *Privatizer) Deniability(words, draws int64) (d *Deniability, err error) {
	defer guard(&err)
	root, err := p.root()
	if err != nil {
		return nil, err
	}
	if words < 1 || words > math.MaxInt32 || draws < 1 || draws > math.MaxInt32 {
		// Bounded here so that the conversion to int cannot wrap on a
		// 32-bit platform; package core checks the tighter bounds.
		return nil, invalid("words %d and draws %d out of range", words, draws)
	}
	est, err := root.Deniability(int(words), int(draws))
	if err != nil {
		return nil, wrap(err)
	}
	return &Deniability{MeanN: est.MeanN, MeanS: est.MeanS, Words: int64(est.Words), Draws: int64(est.Draws)}, nil
}

// Epsilon returns the privatizer's per-word ε (with word classes, the main
// ε: that of words in no configured class); Metric names its metric.
// 0 on a nil, zero-value or closed Privatizer.
func (p *Privatizer) Epsilon() (eps float64) {
	defer guardValue(&eps, 0)
	return p.info().Epsilon
}

// Metric names the metric ε applies to. "" on a nil, zero-value or closed
// Privatizer.
func (p *Privatizer) Metric() (metric string) {
	defer guardValue(&metric, "")
	return p.info().Metric
}

// WordCost returns the metric loss ε·P_avg a ledger charges for one
// fresh word at the main ε: the unit of CapLifetimeWords and
// CapPerPeriodWords. NaN when P_avg is unknown on the device ("custext");
// 0 on a nil, zero-value or closed Privatizer.
func (p *Privatizer) WordCost() (cost float64) {
	defer guardValue(&cost, 0)
	return p.info().WordCost
}

// VocabularySize returns the number of words of the asset. 0 on a nil,
// zero-value or closed Privatizer.
func (p *Privatizer) VocabularySize() (n int64) {
	defer guardValue(&n, 0)
	return int64(p.info().VocabularySize)
}

// info is p's description, the zero Info when p is not open.
func (p *Privatizer) info() core.Info {
	root, err := p.root()
	if err != nil {
		return core.Info{}
	}
	return root.Info()
}

// SetMemoryLimit sets the Go runtime's soft memory limit in bytes (see
// runtime/debug.SetMemoryLimit; a keyboard extension may want ~30 MB) and
// returns the previous one. A value ≤ 0 only reads it: 0, the zero value,
// would make the runtime collect garbage without pause. Returns -1 should
// the runtime ever panic.
func SetMemoryLimit(bytes int64) (previous int64) {
	defer guardValue(&previous, -1)
	if bytes <= 0 {
		bytes = -1
	}
	return debug.SetMemoryLimit(bytes)
}

// FreeOSMemory returns as much memory to the OS as the Go runtime can, for
// example when the app moves to the background.
func FreeOSMemory() {
	defer guardNone()
	debug.FreeOSMemory()
}

// Version returns the SDK version: the release version stamped into the
// binding, else the Go module version or VCS revision the build recorded,
// else "devel" ("" should it ever panic).
func Version() (v string) {
	defer guardValue(&v, "")
	return buildinfo.Version(version)
}

// version is the release version, set by scripts/mobile-bind.sh with
// -ldflags "-X .../mobile.version=..."; empty, Version reads the build
// information instead.
var version string

// ResetState deletes the memo and ledger state of cfg's MemoDir and
// LedgerDir (the memo files and the ledger's files, nothing else) and
// records the reset in cfg's Anchor, so that a copy of the old state
// restored later (a backup) fails with WV_CORRUPT_STATE instead of
// undoing what was spent since: the one way to start over, for an app's
// "forget me" or "clear data". Close every Privatizer on the directories
// first. The old memos are retired under their secret: open the fresh
// memo with a new MemoSecret (delete the old one from the key store). With
// NoAnchor it only deletes the files. The other fields of cfg are not
// used.
func ResetState(cfg *Config) (err error) {
	defer guard(&err)
	c, err := cfg.root()
	if err != nil {
		return err
	}
	return wrap(core.Reset(c))
}
