// Command wordveil-beam privatizes a corpus of text records keyed by user
// on Apache Beam, with a privacy budget per user: the SDK's engine on
// every worker, Prism (Beam's local runner, in this process) by default.
//
//	wordveil-beam -input 'corpus/*.jsonl' -output out -cap-words 500
//
// writes out/records-*.jsonl (each record privatized, or withheld over its
// user's cap) and out/budget-*.jsonl (each user's spending). Beam's own
// flags pick another runner (docs/BEAM.md): --runner=dataflow with its
// project flags, or --runner=flink, spark or universal with a job
// server's --endpoint.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx" // Beam's runners (dataflow, flink, spark, universal, ...) and file systems (gs://)

	"github.com/wordveil/wordveil/beam/pipeline"
)

const usage = `Usage: wordveil-beam -input GLOB -output DIR [flags] [Beam flags]

Privatizes every record of the files matching GLOB with the wordveil engine
and writes DIR/records-*.jsonl (one line per record: the privatized text and
its accounting; one file per MiB of input, in line order) and
DIR/budget-*.jsonl (one line per user: records released and withheld, the
loss spent, what is left of the cap).

Input: JSON lines {"user": "...", "text": "..."} (-format jsonl, the
default), or "user<TAB>text" lines (-format tsv); .gz files are read
compressed. Each user's records are charged, in (file, line) order, against
-cap-words (words at the level or ε given: the recommended unit) or -cap
(metric loss ε·P_avg, which does not compare across mechanisms); a record
that does not fit is withheld, never released (-over-cap).

Runner: Prism in this process by default; otherwise --runner=dataflow with
its project flags, or --runner=flink|spark|universal with the --endpoint of a
job server (docs/BEAM.md: universal against Prism's job server, with
workers in separate processes, is tested; Dataflow, Flink and Spark are not).

With -state DIR, each user's spending carries across runs: the run reads
it, charges it, and writes its next generation when it commits. A run
commits by writing DIR/MANIFEST.json last: read only the files it names.

Exit codes: 0 ok (committed), 1 error (nothing committed), 2 usage or
invalid settings, 130 interrupted (nothing committed).
`

// flagGroups are the command's own flags, in the order -h shows them;
// every other flag in the process-wide set is Beam's.
var flagGroups = []struct {
	title string
	names []string
}{
	{"Input and output", []string{"input", "format", "output", "shards", "max-record", "skip-malformed"}},
	{"Caps and the state across runs", []string{"cap-words", "cap", "over-cap", "withheld-text", "state", "state-key", "state-anchor"}},
	{"The engine", []string{"mechanism", "preset", "epsilon", "asset", "oov", "placeholder", "numbers", "punct", "all-outputs"}},
	{"The run", []string{"threads", "seed", "v"}},
}

// printUsage prints the usage, the command's flags by group, then Beam's
// under one heading.
func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, usage)
	ours := map[string]bool{}
	section := func(title string, keep func(*flag.Flag) bool) {
		sub := flag.NewFlagSet(title, flag.ContinueOnError)
		fs.VisitAll(func(f *flag.Flag) {
			if keep(f) {
				sub.Var(f.Value, f.Name, f.Usage)
				sub.Lookup(f.Name).DefValue = f.DefValue
			}
		})
		fmt.Fprintf(w, "\n%s:\n", title)
		sub.SetOutput(w)
		sub.PrintDefaults()
	}
	for _, g := range flagGroups {
		in := map[string]bool{}
		for _, n := range g.names {
			in[n], ours[n] = true, true
		}
		section(g.title, func(f *flag.Flag) bool { return in[f.Name] })
	}
	section("Apache Beam's flags (the runner, its job server, Dataflow's project; docs/BEAM.md)", func(f *flag.Flag) bool { return !ours[f.Name] })
}

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	var o pipeline.Options
	fs := flag.CommandLine
	fs.SetOutput(stderr)
	fs.Usage = func() { printUsage(stderr, fs) }
	fs.StringVar(&o.Input, "input", "", "input file glob, e.g. 'corpus/*.jsonl' (quote it)")
	fs.StringVar(&o.Output, "output", "", "output directory (new or empty)")
	fs.StringVar(&o.Format, "format", pipeline.FormatJSONL, "input format: jsonl or tsv")
	fs.IntVar(&o.Shards, "shards", pipeline.DefaultShards, "budget (and state) files, a user's line in one of them; each is sorted in memory by one worker (the records files are one per MiB of input with a record to write)")
	fs.StringVar(&o.Engine.Mechanism, "mechanism", "brr", "mechanism: brr, tem-hamming, 1dg, 1dt (TEM over precomputed neighbour lists), santext or custext")
	fs.StringVar(&o.Engine.Level, "preset", "balanced", "privacy level: strong, balanced or light")
	fs.Float64Var(&o.Engine.Epsilon, "epsilon", 0, "ε in the mechanism's metric (instead of -preset; not with it)")
	fs.StringVar(&o.Engine.AssetFile, "asset", "", "asset file, readable by every worker (default: the embedded English asset)")
	fs.StringVar(&o.Engine.OOV, "oov", "random-word", "out-of-vocabulary policy: random-word or placeholder")
	fs.StringVar(&o.Engine.Placeholder, "placeholder", "", "with -oov placeholder: the replacement (default •)")
	fs.StringVar(&o.Engine.Numbers, "numbers", "privatize", "numbers the vocabulary has: privatize or replace")
	fs.BoolVar(&o.Engine.PrivatizePunctuation, "punct", false, "privatize punctuation too")
	fs.BoolVar(&o.Engine.AllowExcludedOutputs, "all-outputs", false, "also release the asset's excluded (offensive) words")
	fs.Float64Var(&o.Cap, "cap", 0, "each user's cap in metric loss ε·P_avg per word (0 = none; prefer -cap-words: a loss does not compare across mechanisms)")
	fs.IntVar(&o.CapWords, "cap-words", 0, "each user's cap in words at the mechanism's ε, the recommended cap: exactly N words granted (0 = none; not with -cap)")
	fs.StringVar(&o.OverCap, "over-cap", pipeline.OverCapDrop, "a record over its user's cap: drop (not written) or placeholder (written as withheld)")
	fs.StringVar(&o.Placeholder, "withheld-text", "", "with -over-cap placeholder: the withheld record's text (default •)")
	fs.StringVar(&o.State, "state", "", "directory of each user's spending across runs: read, charged, and written as its next generation when the run commits")
	fs.StringVar(&o.StateKey, "state-key", "", "the operator's key file sealing -state (≥ 32 bytes; created for a new state)")
	fs.StringVar(&o.StateAnchor, "state-anchor", "", "the state's anchor file, kept apart from -state (default: the key file's path + .anchor)")
	fs.BoolVar(&o.SkipMalformed, "skip-malformed", false, "count and skip lines that are not records instead of failing")
	fs.IntVar(&o.MaxRecordBytes, "max-record", pipeline.DefaultMaxRecordBytes, "longest input line in bytes")
	fs.IntVar(&o.Parallelism, "threads", 0, "goroutines privatizing in each worker's DoFn instance (0 = the worker's cores; 1 on a runner that runs an instance per core)")
	fs.Uint64Var(&o.Seed, "seed", 0, "EVALUATION ONLY: reproducible output (0 = secure randomness)")
	verbose := fs.Bool("v", false, "print the runner's log (Prism's job and worker messages)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if set := setFlags(fs); set["epsilon"] && !set["preset"] {
		// -preset's default names the level that -epsilon replaces; both
		// given is refused by core.Open (an invalid setting).
		o.Engine.Level = ""
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "wordveil-beam: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if o.Seed != 0 {
		fmt.Fprintln(stderr, "wordveil-beam: WARNING: -seed makes the output reproducible by anyone who knows the seed; use it for evaluation only, never on real data")
	}
	beam.Init() // a worker started by a remote runner runs as a worker from here
	if !*verbose {
		// Prism logs every job step at INFO, and a failed bundle's whole
		// plan at ERROR; the counters at the end say what a run did, and
		// an error's cause is printed below. (After beam.Init, which sets
		// Beam's own logging up.)
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := pipeline.Run(ctx, o, *runners.Runner)
	switch {
	case errors.Is(err, pipeline.ErrInvalidOptions):
		fmt.Fprintf(stderr, "wordveil-beam: %v\n", err)
		return 2
	case errors.Is(err, pipeline.ErrInterrupted):
		fmt.Fprintln(stderr, err)
		return 130
	case err != nil:
		fmt.Fprintln(stderr, err)
		if full := errors.Unwrap(err); *verbose && full != nil {
			fmt.Fprintf(stderr, "the runner's error in full:\n%v\n", full)
		}
		return 1
	}
	fmt.Fprintf(stderr, "wordveil-beam: %d records read (%d malformed lines skipped), %d released, %d withheld over a cap; %d words privatized; %d users, %d of them capped\n",
		c.RecordsRead, c.Malformed, c.Released, c.Withheld, c.WordsReleased, c.Users, c.UsersCapped)
	fmt.Fprintf(stderr, "wordveil-beam: committed %s (records-*.jsonl and budget-*.jsonl)\n", filepath.Join(o.Output, pipeline.ManifestName))
	return 0
}

// setFlags is the set of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}
