package core

import (
	"sync"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/memo"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/wva"
)

// Open validates cfg, then composes the product in this order: the asset
// (embedded, AssetFile or Asset; checked before use), ε (Config.Epsilon,
// else the level's preset stored in the asset), the output vocabulary (the
// asset's exclusion list applied unless AllowExcludedOutputs), the
// mechanism (ε checked against its accepted range), the memo, the ledger
// (its caps in words converted to metric loss at the mechanism's cost
// per word; the memo file bound to it), and the word classes. Every error is one of the categories of this
// package (ErrInvalidConfig, ErrCorruptAsset, ErrCorruptState) or a
// file-system error. Nothing is created on disk before cfg is valid; on
// an error, what was opened is closed again.
func Open(cfg Config) (*Privatizer, error) {
	return openWith(cfg, loadAsset)
}

// openWith is Open with the asset loaded by load instead of loadAsset: the
// benchmarks of a keyboard's first open (open_bench_test.go) decode the
// embedded asset anew through it, so that they measure Open's own path.
func openWith(cfg Config, load func(*Config) (*wva.Asset, error)) (p *Privatizer, err error) {
	defer func() { err = classify(err) }()
	s, err := validate(cfg)
	if err != nil {
		return nil, err
	}
	// From here on, the engine is composed top-down, each step from the
	// settings and what the steps before it built.
	a, err := load(&s.Config)
	if err != nil {
		return nil, err
	}
	if err = mechanism.CheckOffered(string(s.Mechanism), a); err != nil {
		return nil, err
	}
	eps := s.Epsilon
	if eps == 0 {
		if eps, err = mechanism.Preset(a, string(s.Mechanism), string(s.Level)); err != nil {
			return nil, err
		}
	}
	if s.MemoDir != "" {
		// Refused before the memo directory is opened (or created).
		if err = s.classes.CheckMemo(eps); err != nil {
			return nil, err
		}
	}
	mopts := mechanism.Options{AllowSaturated: s.AllowSaturatedEpsilon}
	if !s.AllowExcludedOutputs {
		if mopts.Outputs, err = mechanism.DefaultOutputs(a); err != nil {
			return nil, err
		}
	}
	m, err := mechanism.New(string(s.Mechanism), a, eps, mopts)
	if err != nil {
		return nil, err
	}
	cost := mechanism.WordCost(m) // NaN when unknown
	opt := s.text
	// Until the text privatizer owns them, a failure closes what was opened.
	defer func() {
		if err != nil {
			_ = opt.Memo.Close()
			_ = opt.Ledger.Close()
		}
	}()
	caps := s.caps
	caps.WordCost = cost // the ledger converts the caps in words, once
	if s.LedgerDir != "" {
		// Refused before the memo directory is opened (or created).
		if err = caps.Validate(); err != nil {
			return nil, err
		}
	}
	if s.MemoDir != "" {
		// The directory's pin is checked before the memo is opened (or
		// created), and set once it is.
		pin, err := memoPin(s.anchor, s.MemoDir, s.MemoSecret)
		if err != nil {
			return nil, err
		}
		id := privatize.MemoIdentity(m, a)
		if opt.Memo, err = memo.OpenWith(s.MemoDir, id, s.MemoSecret, memo.Options{Anchor: s.anchor}); err != nil {
			return nil, err
		}
		if err = pin(); err != nil {
			return nil, err
		}
	}
	if s.LedgerDir != "" {
		la, err := ledgerAnchor(s.anchor, s.LedgerDir)
		if err != nil {
			return nil, err
		}
		// The memo file is bound to the ledger as the ledger opens.
		lopt := ledger.Options{Anchor: la, Bind: privatize.MemoBinding(opt.Memo)}
		if opt.Ledger, err = ledger.OpenWith(s.LedgerDir, caps, lopt); err != nil {
			return nil, err
		}
	}
	var t *privatize.Privatizer
	if s.Classes == (Classes{}) {
		t, err = privatize.New(m, a, opt)
	} else {
		// The class mechanisms get m's options (output vocabulary,
		// saturation); the default class is m itself.
		t, err = privatize.NewWithClasses(m, a, s.classes, mopts, opt)
	}
	if err != nil {
		return nil, err
	}
	p = &Privatizer{asset: a, mech: m, text: t, info: Info{Mechanism: s.Mechanism, Epsilon: m.Epsilon(),
		Metric: m.Metric(), WordCost: cost, VocabularySize: a.Len(), AssetName: a.Header.Name, AnchorDir: s.anchorDir}} // AssetSHA256: filled by Info, on request
	p.srcs.New = func() any { return mechanism.NewSecureSource() }
	return p, nil
}

// memoPin checks the pin of the memo directory against the secret before
// the memo is opened (a memo file made under a new secret would refuse
// the old one ever after), and returns what to store once it is open.
func memoPin(a Anchor, dir string, secret []byte) (set func() error, err error) {
	none := func() error { return nil }
	if a == nil {
		return none, nil
	}
	pin, err := anchor.NewPin(a, "memo", dir)
	if err != nil {
		return nil, err
	}
	want, err := memo.SecretPin(secret)
	if err != nil {
		return nil, err
	}
	unset, err := pin.Check(want)
	if err != nil || !unset {
		return none, err
	}
	return func() error { return pin.Set(want) }, nil
}

// ledgerAnchor is a with the ledger directory's pin (anchor.Pinned).
func ledgerAnchor(a Anchor, dir string) (Anchor, error) {
	if a == nil {
		return nil, nil
	}
	pin, err := anchor.NewPin(a, "ledger", dir)
	if err != nil {
		return nil, err
	}
	return anchor.Pinned(a, pin, ledger.AnchorPrefix), nil
}

// loadAsset returns the asset cfg names. Nothing this package offers
// reads the TEM lists (~3 MB decoded; only Euclidean TEM, which is not
// offered, would) and nothing on the device reads the float vectors, so
// they are left undecoded (still checked against their checksums).
//
// Every asset is used in place (wva.DecodeOptions.InPlace): the embedded
// one where the program's read-only data holds it; a file or Config.Asset
// in the one buffer it is read or copied into, which nothing else can
// reach and so never changes. A file is read, not mapped: a mapped file
// that another process truncates would fault the host app on the next
// access (SIGBUS), where a read file is only ever checked once.
func loadAsset(cfg *Config) (*wva.Asset, error) {
	opt := decodeOptions
	switch {
	case cfg.AssetFile != "":
		b, err := wva.ReadFile(cfg.AssetFile) // size-checked before reading; devices and pipes refused
		if err != nil {
			return nil, err
		}
		opt.InPlace = true
		return decode(b, opt)
	case cfg.Asset != nil:
		opt.InPlace = true
		return decode(append([]byte(nil), cfg.Asset...), opt)
	}
	return slimDefault()
}

// decodeOptions is what Open decodes of an asset.
var decodeOptions = wva.DecodeOptions{SkipTEM: true, SkipFloats: true}

// decode decodes an asset. Decoding leaves about twice the kept data as
// garbage; when to hand it back to the OS (debug.FreeOSMemory) is the
// caller's policy: the mobile binding and the CLI do it after Open.
func decode(b []byte, opt wva.DecodeOptions) (*wva.Asset, error) {
	return wva.DecodeWith(b, opt)
}

// slimDefault is the embedded asset without its TEM lists and float
// vectors, decoded once and shared by every privatizer of the process (it
// is never modified after decoding).
var slimDefault = sync.OnceValues(func() (*wva.Asset, error) {
	opt := decodeOptions
	opt.InPlace = true
	a, err := wva.DecodeDefault(opt) // structure proven at test time, trusted through its checksum
	// Decoding paged in the embedded bytes (3.4 MB); most are not read
	// again: give them back to the kernel. They are clean pages of the
	// program file, so the CODES section the asset aliases is paged back
	// in from the file as it is read.
	releasePages(assets.DefaultBytes())
	return a, err
})
