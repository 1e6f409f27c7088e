package main

import (
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/assetbuild"
	"github.com/wordveil/wordveil/research/internal/eval/ctxattack"
	"github.com/wordveil/wordveil/research/internal/eval/levels"
	"github.com/wordveil/wordveil/research/internal/eval/typedtext"
)

// The context measurement's defaults: a seeded sample of segments of the
// held-out text holding at least contextTokens tokens, the held-out
// measurement's seed (the asset builder's), and the results file that
// wvcalibrate renders into docs/PRIVACY_LEVELS.md.
const (
	contextTokens  = 4000
	contextSeed    = 27
	contextResults = "docs/eval/context-attack.jsonl"
)

// evalContext measures the context attacker (package ctxattack) on the
// embedded asset's presets: a bigram LM trained on the induction text
// (IMDB TR1 and Brown), the held-out text's segments, the one-word
// attacker's laws and prior. The results file is replaced; the same
// flags and data give the same file.
func evalContext(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval context", flag.ContinueOnError)
	fs.SetOutput(stderr)
	results := fs.String("results", contextResults, "results file (replaced)")
	cache := fs.String("typed-text", defaultCache(), "directory with the pinned typed-text and IMDB data (make typed-text, make eval-data)")
	tokens := fs.Int("tokens", contextTokens, "measure seeded segments of the held-out text holding at least N tokens")
	k := fs.Int("k", ctxattack.DefaultK, "candidates per position: the one-word posterior's K most probable inputs")
	seed := fs.Uint64("seed", contextSeed, "seed of the sample, the draws and BRR's training")
	workers := fs.Int("workers", 0, "parallel cells (0: all cores)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *tokens < 1 || *k < 1 {
		return fmt.Errorf("%w: -tokens %d, -k %d: want both ≥ 1", errUsage, *tokens, *k)
	}
	w := *workers
	if w <= 0 {
		w = runtime.NumCPU()
	}
	start := time.Now()
	a, err := wva.Default()
	if err != nil {
		return err
	}
	typed, err := assetbuild.TypedEnglish(*cache)
	if err != nil {
		return fmt.Errorf("%w (run 'make typed-text')", err)
	}
	prior, _, err := assetbuild.CalibrationPrior(a, typed)
	if err != nil {
		return err
	}
	if prior == nil {
		return fmt.Errorf("the embedded asset is not calibrated on a typed-text prior")
	}
	train, err := ctxattack.Segments(a, func(fn func(string) error) error {
		return typedtext.Induction(*cache, func(_, doc string) error { return fn(doc) })
	})
	if err != nil {
		return err
	}
	counted, err := ctxattack.TrainLM(a.Len(), train)
	if err != nil {
		return err
	}
	// The lower order is the attacker's prior, the one-word attacker's
	// word frequencies: where the context says little, the two attackers
	// rank alike.
	lm, err := counted.WithBase(prior)
	if err != nil {
		return err
	}
	trainTokens := 0
	for _, s := range train {
		trainTokens += len(s.IDs)
	}
	held, err := ctxattack.Segments(a, func(fn func(string) error) error {
		return typedtext.HeldOut(*cache, func(_, doc string) error { return fn(doc) })
	})
	if err != nil {
		return err
	}
	segs, err := ctxattack.Sample(held, *tokens, *seed)
	if err != nil {
		return err
	}
	n := 0
	for _, s := range segs {
		n += len(s.IDs)
	}
	fmt.Fprintf(stderr, "eval context: LM on %d tokens (D = %.3f); %d held-out segments, sample of %d (%d tokens); data ready in %.1fs\n",
		trainTokens, lm.Discount(), len(held), len(segs), n, time.Since(start).Seconds())
	presets, err := levels.Presets(a)
	if err != nil {
		return err
	}
	laws, err := levels.NewLaws(a, prior, presets, w)
	if err != nil {
		return err
	}
	cells, err := ctxattack.Measure(laws, presets, prior, lm, segs, *k, *seed, w)
	if err != nil {
		return err
	}
	sum := a.SHA256()
	run := ctxattack.Run{Asset: a.Header.Name, AssetSHA256: hex.EncodeToString(sum[:]),
		HeldOut: fmt.Sprintf("nlp-corpus@4.4.0 builds/doc-0…29 as the asset's held-out measurement reads it: %d segments (runs of in-vocabulary word pieces) drawn uniformly (seed %d), %d tokens", len(segs), *seed, n),
		LMText:  fmt.Sprintf("IMDB TR1 (12,500 reviews) and the Brown corpus, never the held-out text: %d in-vocabulary tokens; bigrams interpolated as Kneser–Ney's (D = %.3f) down to the attacker's prior (the one-word attacker's frequencies) instead of continuation counts", trainTokens, lm.Discount()),
		Seed:    *seed,
		Command: fmt.Sprintf("wordveil-research eval context -tokens %d -k %d -seed %d", *tokens, *k, *seed)}
	if err := os.MkdirAll(filepath.Dir(*results), 0o755); err != nil {
		return err
	}
	if err := ctxattack.Write(*results, cells, run); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "eval context: %d cells in %s; results in %s\n", len(cells), time.Since(start).Round(time.Second), *results)
	return nil
}
