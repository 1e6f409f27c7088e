package core

import (
	"context"

	"github.com/wordveil/wordveil/internal/seeded"
)

// UseEvaluationSeed makes p draw every later call from one deterministic
// stream, ChaCha8 keyed by seed (written little-endian into the first 8
// bytes of the key, the rest zero), one call at a time, so that the same
// seed, configuration and texts give the same outputs on every platform.
//
// It is for tests and reproducible evaluation only (the CLI's -seed, the
// Beam pipeline's -seed, golden outputs). Anyone who knows the seed
// reproduces every draw, and so can invert the privatization: never use
// it on real data. The mobile binding does not offer it, and without it a
// Privatizer draws from crypto/rand.
//
// It is an explicit call on one Privatizer, never a setting of the package
// or of Config, so that no product path can reach it by accident. On a nil
// or zero-value Privatizer it returns ErrInvalidConfig, on a closed one
// ErrClosed; it never panics. It is not meant to be called while other
// calls of p run: they keep the source they started with.
func UseEvaluationSeed(p *Privatizer, seed uint64) error {
	return classify(p.useSource(seeded.Source(seed)))
}

// PrivatizeEvaluationBlock privatizes texts as p.PrivatizeBlock does (one
// ledger charge, all or nothing), drawing from ChaCha8 keyed by seed and
// block (seed written little-endian into the key's first 8 bytes, block
// into the next 8, the rest zero) whatever source p has. Its output
// depends on the seed, the block's index, the texts and p's configuration
// only, not on which calls ran before: a seeded run can privatize its
// blocks on several goroutines at once and still give, block for block,
// what it gives on one (the CLI's -seed with -threads). Block 0 draws
// UseEvaluationSeed's stream for the same seed.
//
// Like UseEvaluationSeed it is for tests and reproducible evaluation only:
// anyone who knows the seed reproduces every draw. On a nil or zero-value
// Privatizer it returns ErrInvalidConfig, on a closed one ErrClosed; it
// never panics.
func PrivatizeEvaluationBlock(ctx context.Context, p *Privatizer, texts []string, seed, block uint64) (res []Result, err error) {
	return AppendEvaluationBlock(ctx, nil, p, texts, seed, block)
}

// AppendEvaluationBlock is PrivatizeEvaluationBlock appending the block's
// results to dst, as AppendBlock does (dst itself on an error), for a
// seeded stream that reuses its arrays. Evaluation only, like
// PrivatizeEvaluationBlock.
func AppendEvaluationBlock(ctx context.Context, dst []Result, p *Privatizer, texts []string, seed, block uint64) (res []Result, err error) {
	defer func() { err = classify(err) }()
	h, err := p.enter()
	if err != nil {
		return dst, err
	}
	defer p.life.RUnlock()
	return h.block(ctx, dst, texts, seeded.Block(seed, block))
}
