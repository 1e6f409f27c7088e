package core

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/wva"
)

// Privatizer privatizes texts word by word, keeping their layout. Open
// makes one; it is safe for concurrent use, and draws its randomness from
// crypto/rand (a ChaCha8 generator per goroutine, keyed from it). Close it
// when done: it holds the memo's and ledger's files.
//
// What the output discloses about the input: its layout (whitespace, and
// punctuation unless Config.PrivatizePunctuation), the number and kinds of
// its tokens, each word's capitalization class, which apostrophe its
// clitics used and where its hyphenated words are cut. Every content token
// is replaced: vocabulary words, the asset's stand-ins and numbers by the
// mechanism, everything else by the OOV policy.
//
// The methods of a nil or zero-value Privatizer return ErrInvalidConfig
// (or their documented zero value); they never panic.
type Privatizer struct {
	// life guards the fields below against Close: methods read them under
	// its read lock, Close clears them under its lock.
	life  sync.RWMutex
	info  Info
	asset *wva.Asset
	mech  mechanism.Mechanism
	text  *privatize.Privatizer
	srcs  sync.Pool // *rand.ChaCha8, each keyed from crypto/rand

	// fixed, when set (UseEvaluationSeed, evaluation only), is the one
	// source every call draws from, one call at a time, so that a run is
	// reproducible.
	fixed atomic.Pointer[fixedSource]
}

// Info describes a privatizer: what its outputs are drawn from.
type Info struct {
	Mechanism Mechanism // the mechanism Config named (BRR for the zero Config)
	Epsilon   float64   // the main per-word ε, in Metric
	Metric    string    // the metric d that ε applies to
	// WordCost is the metric loss ε·P_avg a ledger charges for one
	// fresh word at the main ε: the unit of Caps.LifetimeWords and
	// Caps.PerPeriodWords, and of Receipt's words remaining. NaN when
	// P_avg is unknown on the device (never 0, which would read as "no
	// loss").
	WordCost       float64
	VocabularySize int      // words of the asset
	AssetName      string   // the asset's name (its header)
	AssetSHA256    [32]byte // SHA-256 of the asset file: what a memo's responses are bound to
	// AnchorDir is the directory of the default anchor
	// (os.UserConfigDir()/wordveil/anchors), when Open keeps the memo's
	// and ledger's anchors there (Config.Anchor nil); "" otherwise.
	AnchorDir string
}

// Info returns what p was opened with (the zero Info on a nil, zero-value
// or closed Privatizer).
func (p *Privatizer) Info() Info {
	h, err := p.enter()
	if err != nil {
		return Info{}
	}
	defer p.life.RUnlock()
	info := h.info
	// The asset's hash is computed on the first request (wva.Asset.SHA256
	// hashes the whole file), not when p is opened: most apps never ask.
	info.AssetSHA256 = p.asset.SHA256()
	return info
}

// handle is what a call needs, read under p.life.
type handle struct {
	info Info
	mech mechanism.Mechanism
	text *privatize.Privatizer
}

// enter read-locks p.life and returns p's parts; the caller unlocks
// p.life.RUnlock when it returns nil.
func (p *Privatizer) enter() (handle, error) {
	if p == nil {
		return handle{}, errNotOpened
	}
	p.life.RLock()
	if p.text == nil {
		closed := p.info.Mechanism != ""
		p.life.RUnlock()
		if closed {
			return handle{}, ErrClosed
		}
		return handle{}, errNotOpened
	}
	return handle{p.info, p.mech, p.text}, nil
}

// withSource runs f with a random source: the evaluation source if one is
// set (one call at a time), else a pooled secure one.
func (p *Privatizer) withSource(f func(rand.Source) error) error {
	if fs := p.fixed.Load(); fs != nil {
		fs.mu.Lock()
		defer fs.mu.Unlock()
		return f(fs.src)
	}
	src, ok := p.srcs.Get().(*rand.ChaCha8)
	if !ok || src == nil {
		return errNotOpened
	}
	defer p.srcs.Put(src)
	return f(src)
}

// Privatize privatizes one text. With a ledger, the text is charged first
// and the call fails with ErrBudgetExceeded (and no text) if a cap would be
// exceeded. An empty text is ErrEmptyText, one over Config.MaxTextBytes
// ErrTextTooLarge; after Close, ErrClosed.
func (p *Privatizer) Privatize(text string) (res Result, err error) {
	defer func() { err = classify(err) }()
	h, err := p.enter()
	if err != nil {
		return Result{}, err
	}
	defer p.life.RUnlock()
	err = p.withSource(func(src rand.Source) error {
		r, err := h.text.Privatize(text, src)
		if err == nil {
			res = newResult(r)
		}
		return err
	})
	return res, err
}

// PrivatizeBlock privatizes several texts as one block: one ledger charge
// (and one fsync) for all of them, after which every text is returned, or
// none if the charge is refused. It checks ctx between words, so a
// cancelled call returns ctx's error promptly and charges nothing. It is
// how the CLI privatizes a stream: a block per batch of lines at hand.
func (p *Privatizer) PrivatizeBlock(ctx context.Context, texts []string) (res []Result, err error) {
	return p.AppendBlock(ctx, nil, texts)
}

// AppendBlock is PrivatizeBlock appending the block's results to dst and
// returning the extended slice (dst itself on an error: nothing is
// appended). A stream that is done with a block's results passes them
// back as dst[:0] for the next block, which then reuses their array
// instead of leaving one Result of about 170 bytes per text to the
// garbage collector.
func (p *Privatizer) AppendBlock(ctx context.Context, dst []Result, texts []string) (res []Result, err error) {
	defer func() { err = classify(err) }()
	h, err := p.enter()
	if err != nil {
		return dst, err
	}
	defer p.life.RUnlock()
	res = dst
	err = p.withSource(func(src rand.Source) error {
		res, err = h.block(ctx, dst, texts, src)
		return err
	})
	return res, err
}

// block privatizes texts as one block drawing from src and appends their
// results to dst: the work of AppendBlock and AppendEvaluationBlock. On
// an error it returns dst.
func (h handle) block(ctx context.Context, dst []Result, texts []string, src rand.Source) ([]Result, error) {
	rs, err := h.text.PrivatizeBlock(ctx, texts, src, nil)
	if err != nil {
		return dst, err
	}
	res := slices.Grow(dst, len(rs))
	for i := range rs {
		// Every field is set: a reused element keeps nothing of the
		// block it held before.
		res = append(res, newResult(&rs[i]))
	}
	privatize.ReleaseResults(rs) // converted: the next block reuses the array
	return res, nil
}

// Close releases the privatizer: the memo's and ledger's files, and its
// references to the mechanism and the asset, so that the garbage collector
// can reclaim them even while a binding's handle to p stays reachable (the
// decoded embedded asset stays, shared by the process). A call already
// running finishes first.
// Every later call returns ErrClosed; Close again, or on a nil or
// zero-value Privatizer, returns nil. An error means the memo or ledger
// could not be closed cleanly; the privatizer is closed all the same.
func (p *Privatizer) Close() error {
	if p == nil {
		return nil
	}
	p.life.Lock()
	text := p.text
	p.asset, p.mech, p.text = nil, nil, nil
	p.life.Unlock()
	if text == nil {
		return nil
	}
	return classify(text.Close())
}

// useSource makes every later call draw from src, one call at a time
// (UseEvaluationSeed: reproducible evaluation only). A nil, zero-value or
// closed p is an error, as for every other call.
func (p *Privatizer) useSource(src rand.Source) error {
	if src == nil {
		return errNotOpened
	}
	if _, err := p.enter(); err != nil {
		return err
	}
	defer p.life.RUnlock()
	p.fixed.Store(&fixedSource{src: src})
	return nil
}

// fixedSource is an evaluation source and the lock that makes its calls
// take turns (a rand.Source is not safe for concurrent use). Held in an
// atomic pointer, so the product path (no such source) takes no lock.
type fixedSource struct {
	mu  sync.Mutex
	src rand.Source
}
