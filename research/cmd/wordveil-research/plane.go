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
	"github.com/wordveil/wordveil/research/internal/eval/plane"
	"github.com/wordveil/wordveil/research/internal/eval/study"
)

// planeResults is the utility-vs-recovery plane's committed results.
const planeResults = "docs/eval/results-plane.jsonl"

// The plane's default sizes, chosen so that every (mechanism, level,
// protocol) interval is within ±1.5 points (docs/eval/README.md gives the
// pilots they come from). The runs' spread under the clean-test protocol
// is mostly the training noise (sd up to 2.3 points at 5,000 training
// reviews for 1-DG, and at 2,500 up to 6.4 for TEM on Hamming codes at
// strong; four classifier seeds per run did not shrink it), which only
// more runs, each a fresh privatization of the training reviews, average
// out. So every cell gets 8 runs, and then one more at a time while its
// interval under either protocol is wider than ±1.5 points, up to 25 (the
// whole IMDB test file in slices of 1,000): the cost goes to the noisy
// cells. The test slices stay small (a binomial sd of 1.4 points, inside
// the training noise), since privatizing them costs as much per word as
// training does.
const (
	DefaultPlaneTrain   = 5000 // the first reviews of TR1
	DefaultPlaneTest    = 1000 // test reviews per run, disjoint across runs
	DefaultPlaneRuns    = 8
	DefaultPlaneMaxRuns = 25
	DefaultPlaneSeeds   = 3 // as the committed plane ran (docs/eval/README.md)
)

// planeWordSeconds is each mechanism's CPU time per privatized word on
// one idle core (docs/BENCHMARKS.md: the Hamming scans 23–38 µs, the list
// mechanisms about 0.5 µs), and planeTrainSeconds a classifier's training
// on 5,000 reviews: the estimate eval plane prints before it starts.
var planeWordSeconds = map[string]float64{
	"brr": 23e-6, "tem-hamming": 38e-6, "santext": 30e-6, "1dg": 0.4e-6, "1dt": 0.6e-6, "custext": 0.5e-6,
}

const planeTrainSeconds = 1.0

// evalPlane measures the plane at the embedded asset's presets: training
// reviews the first -train of TR1, run r's test reviews the r-th slice of
// -test reviews of the IMDB test file (TE1, then TE2).
func evalPlane(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval plane", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var d evalData
	d.flags(fs)
	results := fs.String("results", planeResults, "results file (appended to; finished cells are skipped on a rerun)")
	mechs := fs.String("mechanisms", strings.Join(plane.Mechanisms, ","), "comma-separated mechanisms, each run at the strong, balanced and light presets (the baseline always runs)")
	runs := fs.Int("runs", DefaultPlaneRuns, "base runs per cell, each on its own test reviews")
	maxRuns := fs.Int("max-runs", DefaultPlaneMaxRuns, "runs a cell may reach while its interval is wider than -target")
	target := fs.Float64("target", plane.TargetHalf, "the 95% half-width (accuracy) a cell gets more runs until (0: base runs only)")
	train := fs.Int("train", DefaultPlaneTrain, "training reviews: the first N of TR1")
	test := fs.Int("test", DefaultPlaneTest, "test reviews per run (runs × test ≤ 25,000)")
	seeds := fs.Int("seeds", DefaultPlaneSeeds, "classifiers per run (their seeds differ; the run's accuracy is their mean)")
	workers := fs.Int("workers", 1, "parallel cells")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *runs < 1 || *test < 1 || *train < 1 || *seeds < 1 {
		return fmt.Errorf("%w: -runs, -test, -train and -seeds want ≥ 1", errUsage)
	}
	if *maxRuns < *runs {
		*maxRuns = *runs
	}
	if !(*target >= 0) {
		return fmt.Errorf("%w: -target %v, want ≥ 0", errUsage, *target)
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
	if *train > len(sp.TR1) {
		return fmt.Errorf("%w: -train %d, want 1..%d", errUsage, *train, len(sp.TR1))
	}
	pool := append(sp.TE1[:len(sp.TE1):len(sp.TE1)], sp.TE2...)
	if *maxRuns**test > len(pool) {
		return fmt.Errorf("%w: -max-runs %d × -test %d, want at most %d test reviews", errUsage, *maxRuns, *test, len(pool))
	}
	trainC, err := study.Encode(sp.TR1[:*train], a.Lookup, a.Len())
	if err != nil {
		return err
	}
	tests := make([]*study.Corpus, *maxRuns)
	testTokens := 0
	for r := range tests {
		if tests[r], err = study.Encode(pool[r**test:(r+1)**test], a.Lookup, a.Len()); err != nil {
			return err
		}
		if r < *runs {
			testTokens += tests[r].InVocab()
		}
	}
	fmt.Fprintf(stderr, "eval plane: %d training reviews (%d in-vocabulary tokens), %d base runs (up to %d) × %d test reviews (%d tokens in the base runs); data ready in %.1fs\n",
		*train, trainC.InVocab(), *runs, *maxRuns, *test, testTokens, time.Since(start).Seconds())
	perMech := float64(3 * (*runs*trainC.InVocab() + testTokens))
	cpu := float64(*runs**seeds*(1+3*len(splitList(*mechs)))) * planeTrainSeconds * float64(*train) / 5000
	for _, m := range splitList(*mechs) {
		cpu += perMech * planeWordSeconds[m]
	}
	fmt.Fprintf(stderr, "eval plane: each mechanism privatizes %.1f M tokens over its 3 levels' %d base runs; they take ≈ %.0f CPU-minutes at docs/BENCHMARKS.md's single-core speeds (finished cells are skipped)\n",
		perMech/1e6, *runs, cpu/60)
	perRun := float64(trainC.InVocab() + testTokens/(*runs))
	fmt.Fprintf(stderr, "eval plane: a top-up run of one cell ≈ %.0f CPU-s with brr, %.0f with tem-hamming, %.0f with santext, ≈ %.0f with the list mechanisms\n",
		perRun*planeWordSeconds["brr"]+planeTrainSeconds, perRun*planeWordSeconds["tem-hamming"]+planeTrainSeconds,
		perRun*planeWordSeconds["santext"]+planeTrainSeconds, perRun*planeWordSeconds["1dt"]+planeTrainSeconds)
	if err := os.MkdirAll(filepath.Dir(*results), 0o755); err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	err = plane.Run(ctx, plane.Config{
		Asset: a, Train: trainC, Test: tests, Mechanisms: splitList(*mechs), Runs: *runs, MaxRuns: *maxRuns, TargetHalf: *target, Seeds: *seeds,
		Seed: d.seed, Classifier: fasttext.DefaultConfig(), Results: *results, Workers: *workers, Log: stderr,
	})
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: finished cells are in %s; rerun the same command to resume", errInterrupted, *results)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "eval plane: done in %s; results in %s\n", time.Since(start).Round(time.Second), *results)
	return nil
}

// evalPlaneReport writes docs/eval/PLANE.md and the plane's figure from
// the committed results (no data, no privatization).
func evalPlaneReport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval plane-report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	results := fs.String("results", planeResults, "results file of 'eval plane'")
	bounds := fs.String("bounds", brrBoundResults, "BRR's two-sided attacker bounds (eval brrbound; empty: none)")
	out := fs.String("out", "docs/eval", "directory for PLANE.md and fig-levels-plane.{png,svg}")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	recs, err := plane.ReadRecords(*results)
	if err != nil {
		return err
	}
	var bs []plane.Bound
	if *bounds != "" {
		brs, err := study.ReadLines[brrBoundRecord](*bounds)
		if err != nil {
			return err
		}
		for _, r := range brs {
			if r.Kind == "brr-bound" {
				bs = append(bs, plane.Bound{Asset: r.AssetSHA256, Mechanism: "brr", Level: r.Level, Epsilon: r.Epsilon, Lo: r.Lo, Hi: r.Hi})
			}
		}
	}
	a, err := wva.Default()
	if err != nil {
		return err
	}
	files, err := plane.Write(recs, a, bs, *out)
	if err != nil {
		return err
	}
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return nil
}
