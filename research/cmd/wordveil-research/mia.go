package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/fasttext"
	"github.com/wordveil/wordveil/research/internal/eval/imdb"
	"github.com/wordveil/wordveil/research/internal/eval/mia"
	"github.com/wordveil/wordveil/research/internal/eval/study"
)

// miaResults is the membership-inference experiment's committed results.
const miaResults = "docs/eval/results-mia.jsonl"

// DefaultMIASize is the reviews per set of the membership experiment
// (target members and non-members, shadow members and non-members): the
// DeLong interval is then about ±0.025 wide, and a cell of a Hamming-scan
// mechanism (2,000 privatized reviews) takes a few minutes on one core.
const DefaultMIASize = 1000

// evalMIA runs the shadow-model membership attack at the embedded asset's
// presets, as the TEM paper's §5.3 sets it up: target members the first
// -size reviews of TR1, non-members of TR2, the shadow's members of TE2
// and non-members of TE1 (the papers' halves of the IMDB test set).
func evalMIA(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval mia", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var d evalData
	d.flags(fs)
	results := fs.String("results", miaResults, "results file (appended to; finished cells are skipped on a rerun)")
	mechs := fs.String("mechanisms", strings.Join(mia.Mechanisms, ","), "comma-separated mechanisms, each run at the strong, balanced and light presets (the baseline always runs)")
	shadows := fs.String("shadows", strings.Join(mia.Shadows, ","), "comma-separated attackers: clean (the papers' shadow, trained on original reviews), privatized (trained on reviews privatized like the target's)")
	runs := fs.Int("runs", 5, "runs per cell (each adds its cells to the results; 5 is the committed table)")
	size := fs.Int("size", DefaultMIASize, "reviews per set (target members, non-members, shadow members, non-members)")
	workers := fs.Int("workers", 1, "parallel cells")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	start := time.Now()
	a, err := wva.Default()
	if err != nil {
		return err
	}
	sp, err := d.split()
	if err != nil {
		return err
	}
	enc := func(r []imdb.Review) (*study.Corpus, error) {
		if *size < 2 || *size > len(r) {
			return nil, fmt.Errorf("%w: -size %d, want 2..%d", errUsage, *size, len(r))
		}
		return study.Encode(r[:*size], a.Lookup, a.Len())
	}
	var sets [4]*study.Corpus
	for i, r := range [][]imdb.Review{sp.TR1, sp.TR2, sp.TE2, sp.TE1} {
		if sets[i], err = enc(r); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "eval mia: 4 sets of %d reviews; data ready in %.1fs\n", *size, time.Since(start).Seconds())
	if err := os.MkdirAll(filepath.Dir(*results), 0o755); err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	err = mia.Run(ctx, mia.Config{
		Asset: a, TargetIn: sets[0], TargetOut: sets[1], ShadowIn: sets[2], ShadowOut: sets[3],
		Mechanisms: splitList(*mechs), Shadows: splitList(*shadows), Runs: *runs, Seed: d.seed,
		Classifier: fasttext.DefaultConfig(), Attack: mia.DefaultMLP(),
		Results: *results, Workers: *workers, Log: stderr,
	})
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: finished cells are in %s; rerun the same command to resume", errInterrupted, *results)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "eval mia: done in %s; results in %s\n", time.Since(start).Round(time.Second), *results)
	return nil
}

// evalMIAReport writes docs/eval/MIA.md from the committed results (no
// data needed).
func evalMIAReport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval mia-report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	results := fs.String("results", miaResults, "results file of 'eval mia'")
	ratiosFrom := fs.String("ratios", "docs/eval/results-presets-typed.jsonl", "study results whose privacy ratios place the presets on the papers' Euclidean ε axis (empty: none)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ratios := mia.Ratios{}
	if *ratiosFrom != "" {
		recs, err := study.ReadRecords(*ratiosFrom)
		if err != nil {
			return err
		}
		for _, r := range study.Current(recs) {
			if r.Kind == "ratio" {
				ratios[r.Metric] = r.Avg
			}
		}
	}
	recs, err := mia.ReadRecords(*results)
	if err != nil {
		return err
	}
	a, err := wva.Default()
	if err != nil {
		return err
	}
	doc, err := mia.Report(recs, a, ratios)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, doc)
	return err
}
