package mobile

import (
	"math"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/ledger"
)

// Privatizer privatizes texts. Safe for concurrent use.
type Privatizer struct {
	asset *wva.Asset
	mech  core.Mechanism
	text  *core.TextPrivatizer
	srcs  sync.Pool // *rand.ChaCha8, each keyed from crypto/rand
}

// OpenPrivatizer returns a privatizer over the embedded English asset.
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
	b, err := os.ReadFile(path)
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
func needsTEM(cfg *Config) bool { return cfg != nil && cfg.Mechanism == core.NameTEM }

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

func openPrivatizer(a *wva.Asset, cfg *Config) (*Privatizer, error) {
	if cfg == nil {
		cfg = NewConfig()
	}
	c := *cfg
	if c.Mechanism == "" {
		c.Mechanism = core.NameBRR
	}
	if c.Preset == "" {
		c.Preset = core.LevelBalanced
	}
	eps := c.Epsilon
	if eps < 0 || math.IsNaN(eps) || math.IsInf(eps, 0) {
		return nil, invalid("epsilon %v: must be a finite number > 0, or 0 to use the preset", eps)
	}
	if eps == 0 {
		var err error
		if eps, err = core.PresetEpsilon(c.Mechanism, c.Preset); err != nil {
			return nil, wrap(err)
		}
	}
	if c.MaxTextBytes < 0 || c.MaxTextBytes > 1<<30 {
		return nil, invalid("MaxTextBytes %d out of range [0, 2^30]", c.MaxTextBytes)
	}
	m, err := core.NewMechanism(c.Mechanism, a, eps)
	if err != nil {
		return nil, wrap(err)
	}
	opt := core.TextOptions{OOV: c.OOV, Placeholder: c.Placeholder, PrivatizePunctuation: c.PrivatizePunctuation,
		MaxTextBytes: int(c.MaxTextBytes)}
	if c.LedgerDir != "" {
		period := time.Duration(c.PeriodSeconds) * time.Second
		if c.PeriodSeconds == 0 {
			period = 24 * time.Hour
		}
		l, err := ledger.Open(c.LedgerDir, ledger.Caps{Lifetime: c.CapLifetime, PerPeriod: c.CapPerPeriod, Period: period})
		if err != nil {
			return nil, wrap(err)
		}
		opt.Ledger = l
	}
	if c.MemoDir != "" {
		memo, err := core.OpenMemo(c.MemoDir, core.MemoKey(m, a))
		if err != nil {
			return nil, wrap(err)
		}
		opt.Memo = memo
	}
	t, err := core.NewTextPrivatizer(m, a, opt)
	if err != nil {
		return nil, wrap(err)
	}
	p := &Privatizer{asset: a, mech: m, text: t}
	p.srcs.New = func() any { return core.NewSecureSource() }
	// Decoding the asset allocates ~19 MB of temporary buffers for ~7 MB of
	// kept data; hand the difference back to the OS now rather than at the
	// runtime's leisure (keyboard extensions are killed above ~50 MB).
	debug.FreeOSMemory()
	return p, nil
}

// Result is a privatized text and its privacy accounting.
type Result struct {
	Text         string  // upload this, never the input
	Words        int64   // words privatized by the mechanism
	OOV          int64   // tokens replaced by the out-of-vocabulary policy
	Memoized     int64   // words answered from the memo (no new loss)
	Epsilon      float64 // per-word ε, in Metric
	Metric       string
	TotalEpsilon float64 // (Words − Memoized)·Epsilon
	PAvg         float64 // mean vocabulary distance in Metric (0 if unknown)
	UnitFree     float64 // TotalEpsilon·PAvg: what the ledger is charged
	// With a ledger: spent in the current period and lifetime after this
	// call, and what is left (−1: no cap).
	PeriodSpent, LifetimeSpent, PeriodRemaining, LifetimeRemaining float64
}

// Privatize privatizes text. With a ledger, the call is charged first and
// fails with WV_BUDGET_EXCEEDED (and no text) when a cap would be exceeded.
func (p *Privatizer) Privatize(text string) (r *Result, err error) {
	defer guard(&err)
	src := p.srcs.Get().(*rand.ChaCha8)
	defer p.srcs.Put(src)
	res, err := p.text.Privatize(text, src)
	if err != nil {
		return nil, wrap(err)
	}
	acc := res.Accounting
	r = &Result{Text: res.Text, Words: int64(acc.Words), OOV: int64(acc.OOV), Memoized: int64(acc.Memoized),
		Epsilon: acc.Epsilon, Metric: acc.Metric, TotalEpsilon: acc.TotalEpsilon, PAvg: acc.PAvg, UnitFree: acc.UnitFree,
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

// Deniability estimates plausible deniability on words random words of the
// vocabulary, draws privatizations each (papers/diffractor.txt §5.1):
// N_w = Pr[output = input], S_w = distinct outputs.
type Deniability struct {
	MeanN, MeanS float64
	Words, Draws int64
}

// Deniability measures this privatizer's mechanism (1 ≤ words ≤ 10,000,
// 1 ≤ draws ≤ 10,000).
func (p *Privatizer) Deniability(words, draws int64) (d *Deniability, err error) {
	defer guard(&err)
	if words < 1 || words > 10000 || draws < 1 || draws > 10000 {
		return nil, invalid("words %d and draws %d must be in [1, 10000]", words, draws)
	}
	src := p.srcs.Get().(*rand.ChaCha8)
	defer p.srcs.Put(src)
	n := p.asset.Len()
	sample := make([]int, min(int(words), n))
	for i := range sample {
		sample[i] = core.UniformInt(src, n)
	}
	est, err := core.EstimateDeniability(p.mech, sample, int(draws), src)
	if err != nil {
		return nil, wrap(err)
	}
	return &Deniability{MeanN: est.MeanN, MeanS: est.MeanS, Words: int64(len(sample)), Draws: draws}, nil
}

// Epsilon returns the privatizer's per-word ε; Metric names its metric.
func (p *Privatizer) Epsilon() float64 { return p.mech.Epsilon() }

// Metric names the metric ε applies to.
func (p *Privatizer) Metric() string { return p.mech.Metric() }

// VocabularySize returns the number of words of the asset.
func (p *Privatizer) VocabularySize() int64 { return int64(p.asset.Len()) }

// SetMemoryLimit sets the Go runtime's soft memory limit in bytes (see
// runtime/debug.SetMemoryLimit; a keyboard extension may want ~30 MB) and
// returns the previous one. A negative value only reads it.
func SetMemoryLimit(bytes int64) int64 { return debug.SetMemoryLimit(bytes) }

// FreeOSMemory returns as much memory to the OS as the Go runtime can, for
// example when the app moves to the background.
func FreeOSMemory() { debug.FreeOSMemory() }

// Version returns the SDK version.
func Version() string { return version }

// version is set at release time with -ldflags "-X .../mobile.version=...".
var version = "dev"
