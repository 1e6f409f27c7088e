package mobile

import (
	"math"
	"math/rand/v2"
	"runtime/debug"
	"sync"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/deniability"
	"github.com/wordveil/wordveil/internal/buildinfo"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/ledger"
	"github.com/wordveil/wordveil/mechanism"
	"github.com/wordveil/wordveil/memo"
	"github.com/wordveil/wordveil/privatize"
)

// Privatizer privatizes texts. Safe for concurrent use. Only the Open…
// functions make a usable one: the methods of a nil or zero-value
// Privatizer (gobind's no-argument constructor) return WV_INVALID_ARGUMENT
// or their documented zero value. Close it when done (Close).
type Privatizer struct {
	// life guards the fields below against Close (close.go): methods
	// read them under its read lock, Close clears them under its lock.
	life   sync.RWMutex
	closed bool
	asset  *wva.Asset
	mech   mechanism.Mechanism
	text   *privatize.Privatizer
	srcs   sync.Pool // *rand.ChaCha8, each keyed from crypto/rand
}

// OpenPrivatizer returns a privatizer over the embedded English asset
// (cfg nil: NewConfig's defaults).
func OpenPrivatizer(cfg *Config) (p *Privatizer, err error) {
	defer guard(&err)
	var a *wva.Asset
	if needsTEM(cfg) {
		a, err = assets.Default()
	} else {
		a, err = slimDefault()
	}
	if err != nil {
		return nil, wrap(err)
	}
	return openPrivatizer(a, cfg)
}

// OpenPrivatizerFromAsset returns a privatizer over an asset file's bytes
// (copied; the caller may reuse the array).
func OpenPrivatizerFromAsset(asset []byte, cfg *Config) (p *Privatizer, err error) {
	defer guard(&err)
	a, err := wva.DecodeWith(append([]byte(nil), asset...), decodeOptions(cfg))
	if err != nil {
		return nil, wrap(err)
	}
	return openPrivatizer(a, cfg)
}

// OpenPrivatizerFromFile returns a privatizer over an asset file.
func OpenPrivatizerFromFile(path string, cfg *Config) (p *Privatizer, err error) {
	defer guard(&err)
	b, err := wva.ReadFile(path) // size-checked before reading; devices and pipes refused
	if err != nil {
		return nil, wrap(err)
	}
	a, err := wva.DecodeWith(b, decodeOptions(cfg))
	if err != nil {
		return nil, wrap(err)
	}
	return openPrivatizer(a, cfg)
}

// Only Euclidean TEM reads the asset's TEM lists (~3 MB decoded); every
// other mechanism gets an asset decoded without them.
func needsTEM(cfg *Config) bool { return cfg != nil && cfg.Mechanism == mechanism.NameTEM }

func decodeOptions(cfg *Config) wva.DecodeOptions {
	return wva.DecodeOptions{SkipTEM: !needsTEM(cfg), SkipFloats: true}
}

// slimDefault is the embedded asset without its TEM lists, decoded once and
// shared by every privatizer of the process.
var slimDefault = sync.OnceValues(func() (*wva.Asset, error) {
	a, err := wva.DecodeWith(assets.DefaultBytes(), wva.DecodeOptions{SkipTEM: true, SkipFloats: true})
	// The decoded asset shares no memory with the embedded bytes, which
	// decoding paged in (3.4 MB): give those pages back to the kernel.
	releasePages(assets.DefaultBytes())
	return a, err
})

func openPrivatizer(a *wva.Asset, cfg *Config) (_ *Privatizer, err error) {
	if cfg == nil {
		cfg = NewConfig()
	}
	c := *cfg
	if c.Mechanism == "" {
		c.Mechanism = mechanism.NameBRR
	}
	if c.Preset == "" {
		c.Preset = mechanism.LevelBalanced
	}
	period, err := validate(&c)
	if err != nil {
		return nil, err
	}
	eps := c.Epsilon
	if eps == 0 {
		if eps, err = mechanism.Preset(a, c.Mechanism, c.Preset); err != nil {
			return nil, wrap(err)
		}
	}
	opts := mechanism.Options{AllowSaturated: c.AllowSaturatedEpsilon}
	if !c.AllowExcludedOutputs {
		if opts.Outputs, err = mechanism.DefaultOutputs(a); err != nil {
			return nil, wrap(err)
		}
	}
	m, err := mechanism.New(c.Mechanism, a, eps, opts)
	if err != nil {
		return nil, wrap(err)
	}
	classes := privatize.Classes{RareRank: int(c.RareRank), Rare: c.RareEpsilon, Capitalized: c.CapitalizedEpsilon, Number: c.NumberEpsilon}
	if c.MemoDir != "" && !classes.AtEpsilon(eps) {
		// Refused before the memo directory is opened (or created).
		return nil, invalid("a class ε other than the main ε (%v) cannot share MemoDir's one response per word", eps)
	}
	opt := privatize.Options{OOV: c.OOV, Placeholder: c.Placeholder, PrivatizePunctuation: c.PrivatizePunctuation,
		MaxTextBytes: int(c.MaxTextBytes), Numbers: c.Numbers}
	// Until the text privatizer owns them, a failure closes what was opened.
	defer func() {
		if err != nil {
			_ = opt.Memo.Close()
			_ = opt.Ledger.Close()
		}
	}()
	if c.LedgerDir != "" {
		var lo ledger.Options
		if c.Anchor != nil {
			lo.Anchor = c.Anchor
		}
		l, err := ledger.OpenWith(c.LedgerDir, ledger.Caps{Lifetime: c.CapLifetime, PerPeriod: c.CapPerPeriod, Period: period}, lo)
		if err != nil {
			return nil, wrap(err)
		}
		opt.Ledger = l
	}
	if c.MemoDir != "" {
		var mo memo.Options
		if c.Anchor != nil {
			mo.Anchor = c.Anchor
		}
		mm, err := memo.OpenWith(c.MemoDir, privatize.MemoIdentity(m, a), c.MemoSecret, mo)
		if err != nil {
			return nil, wrap(err)
		}
		opt.Memo = mm
	}
	var t *privatize.Privatizer
	if classes == (privatize.Classes{}) {
		t, err = privatize.New(m, a, opt)
	} else {
		// The class mechanisms get m's options (output vocabulary,
		// saturation); the default class is m itself.
		t, err = privatize.NewWithClasses(m, a, classes, opts, opt)
	}
	if err != nil {
		return nil, wrap(err)
	}
	p := &Privatizer{asset: a, mech: m, text: t}
	p.srcs.New = func() any { return mechanism.NewSecureSource() }
	// Decoding the asset allocates ~19 MB of temporary buffers for ~7 MB of
	// kept data; hand the difference back to the OS now rather than at the
	// runtime's leisure (keyboard extensions are killed above ~50 MB).
	debug.FreeOSMemory()
	return p, nil
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
}

// Privatize privatizes text. With a ledger, the call is charged first and
// fails with WV_BUDGET_EXCEEDED (and no text) when a cap would be exceeded.
// On a nil or zero-value Privatizer: WV_INVALID_ARGUMENT; after Close:
// WV_CLOSED.
func (p *Privatizer) Privatize(text string) (r *Result, err error) {
	defer guard(&err)
	h, err := p.use()
	if err != nil {
		return nil, err
	}
	src, err := p.source()
	if err != nil {
		return nil, err
	}
	defer p.srcs.Put(src)
	res, err := h.text.Privatize(text, src)
	if err != nil {
		return nil, wrap(err)
	}
	acc := res.Accounting
	r = &Result{Text: res.Text, Words: int64(acc.Words), OOV: int64(acc.OOV), Memoized: int64(acc.Memoized),
		Epsilon: acc.Epsilon, Metric: acc.Metric, TotalEpsilon: acc.TotalEpsilon, PAvg: acc.PAvg, UnitFree: acc.UnitFree,
		LossKnown: acc.LossUnknown == "", LossUnknown: acc.LossUnknown,
		PeriodRemaining: -1, LifetimeRemaining: -1}
	if l := acc.Ledger; l != nil {
		r.PeriodSpent, r.LifetimeSpent = l.PeriodSpent, l.LifetimeSpent
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
	p.life.Lock()
	text := p.text
	p.closed = true
	p.asset, p.mech, p.text = nil, nil, nil
	p.life.Unlock()
	if text == nil {
		return nil
	}
	return wrap(text.Close())
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
	h, err := p.use()
	if err != nil {
		return nil, err
	}
	if words < 1 || words > maxDeniabilityWords || draws < 1 || draws > maxDeniabilityDraws ||
		words*draws > maxDeniabilityWork { // both ≤ 10^4 here: the product cannot overflow
		return nil, invalid("words %d and draws %d must be in [1, %d] with words·draws ≤ %d",
			words, draws, maxDeniabilityWords, maxDeniabilityWork)
	}
	src, err := p.source()
	if err != nil {
		return nil, err
	}
	defer p.srcs.Put(src)
	n := h.asset.Len()
	ids := make([]int, min(int(words), n))
	for i := range ids {
		ids[i] = sample.UniformInt(src, n)
	}
	est, err := deniability.Estimate(h.mech, ids, int(draws), src)
	if err != nil {
		return nil, wrap(err)
	}
	return &Deniability{MeanN: est.MeanN, MeanS: est.MeanS, Words: int64(len(ids)), Draws: draws}, nil
}

// Bounds of Deniability's arguments.
const (
	maxDeniabilityWords = 10000
	maxDeniabilityDraws = 10000
	maxDeniabilityWork  = 1000000
)

// opened reports whether p was made by an Open… function (and is not
// closed); read under p.life.
func (p *Privatizer) opened() bool {
	return p != nil && p.asset != nil && p.mech != nil && p.text != nil && p.srcs.New != nil
}

// source takes a random source from p's pool (put it back when done);
// call it after use.
func (p *Privatizer) source() (*rand.ChaCha8, error) {
	src, ok := p.srcs.Get().(*rand.ChaCha8)
	if !ok || src == nil {
		return nil, errNotOpened
	}
	return src, nil
}

// Epsilon returns the privatizer's per-word ε (with word classes, the main
// ε: that of words in no configured class); Metric names its metric.
// 0 on a nil, zero-value or closed Privatizer.
func (p *Privatizer) Epsilon() (eps float64) {
	defer guardValue(&eps, 0)
	h, err := p.use()
	if err != nil {
		return 0
	}
	return h.mech.Epsilon()
}

// Metric names the metric ε applies to. "" on a nil, zero-value or closed
// Privatizer.
func (p *Privatizer) Metric() (metric string) {
	defer guardValue(&metric, "")
	h, err := p.use()
	if err != nil {
		return ""
	}
	return h.mech.Metric()
}

// VocabularySize returns the number of words of the asset. 0 on a nil,
// zero-value or closed Privatizer.
func (p *Privatizer) VocabularySize() (n int64) {
	defer guardValue(&n, 0)
	h, err := p.use()
	if err != nil {
		return 0
	}
	return int64(h.asset.Len())
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
