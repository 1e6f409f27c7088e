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

	"github.com/wordveil/wordveil/research/internal/assetbuild"
	"github.com/wordveil/wordveil/research/internal/eval/imdb"
	"github.com/wordveil/wordveil/research/internal/eval/levels"
	"github.com/wordveil/wordveil/research/internal/eval/study"
)

// DefaultLevelsTokens is the size of the seeded token sample 'eval
// levels' measures: the held-out measurement's size (the asset builder's),
// so the two tables' intervals are alike.
const DefaultLevelsTokens = 20000

// evalLevels measures, on the IMDB study's own training text (the first
// -train reviews of TR1, tokenized as the product tokenizes them), each
// preset of the asset: the share of tokens released unchanged and the
// reconstruction attacker's top-1 and top-5 recovery with the typed-text
// frequency prior (levels.Measure on a seeded subsample of -tokens
// in-vocabulary tokens). The results file is replaced; the same flags
// and data give the same file.
func evalLevels(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval levels", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var d evalData
	d.flags(fs)
	results := fs.String("results", "docs/eval/levels-presets-typed.jsonl", "results file (replaced)")
	cache := fs.String("typed-text", defaultCache(), "directory with the pinned typed-text data, for the calibration's frequency prior (make typed-text)")
	train := fs.Int("train", DefaultTrain, "measure the first N reviews of TR1, the study's training text (0: all 12,500)")
	tokens := fs.Int("tokens", DefaultLevelsTokens, "measure a seeded sample of at most N of their in-vocabulary tokens")
	workers := fs.Int("workers", 0, "parallel cells (0: all cores)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *train < 0 || *tokens < 1 {
		return fmt.Errorf("%w: -train %d, -tokens %d: want -train ≥ 0 and -tokens ≥ 1", errUsage, *train, *tokens)
	}
	start := time.Now()
	a, err := d.asset()
	if err != nil {
		return err
	}
	sp, err := d.split()
	if err != nil {
		return err
	}
	tr := sp.TR1
	if *train > 0 && *train < len(tr) {
		tr = tr[:*train]
	}
	text, err := levels.TextIDs(a, func(fn func(string) error) error {
		for _, r := range tr {
			if err := fn(imdb.Clean(r.Text)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	sample, err := levels.Subsample(text.IDs, *tokens, d.seed)
	if err != nil {
		return err
	}
	typed, err := assetbuild.TypedEnglish(*cache)
	if err != nil {
		return fmt.Errorf("%w (run 'make typed-text')", err)
	}
	// The attacker knows the word frequencies the levels were calibrated
	// on: the default recipe's mixture.
	prior, _, err := assetbuild.CalibrationPrior(a, typed)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "eval levels: %d TR1 reviews, %d word pieces, %d in the vocabulary (%.1f%%), measuring %d; data ready in %.1fs\n",
		len(tr), text.Words, len(text.IDs), 100*text.InVocab(), len(sample), time.Since(start).Seconds())
	w := *workers
	if w <= 0 {
		w = runtime.NumCPU()
	}
	cells, err := levels.Measure(a, prior, sample, d.seed, w)
	if err != nil {
		return err
	}
	sum := a.SHA256()
	recs := study.LevelsRecords(cells, study.LevelsText{Asset: a.Header.Name, AssetSHA256: hex.EncodeToString(sum[:]),
		Reviews: len(tr), Words: text.Words, InVocab: len(text.IDs), Sample: len(sample), Seed: d.seed})
	if err := os.MkdirAll(filepath.Dir(*results), 0o755); err != nil {
		return err
	}
	if err := study.WriteLevels(*results, recs); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "eval levels: %d cells in %s; results in %s\n", len(recs), time.Since(start).Round(time.Second), *results)
	return nil
}
