package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/wordveil/wordveil/internal/levelfacts"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/progress"
)

// statsCmd prints what each privacy level means, per mechanism: its ε,
// the share of typed words it keeps and the word it protects least (as
// the asset's builder calibrated them), the kept share and the
// reconstruction attacker's recovery on held-out text (as the builder
// measured them), the papers' plausible deniability (N_w, S_w;
// docs/MECHANISMS.md) and the metric loss ε·P_avg a ledger charges
// per word. It is an evaluation tool: N_w and S_w are estimated with a
// seeded source so that reruns agree. `-markdown` prints the table of
// docs/PRIVACY_LEVELS.md.
func statsCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("mechanism", "", fmt.Sprintf("one of %v (default: all with a preset)", mechanism.Offered()))
	eps := fs.Float64("epsilon", 0, "ε in the mechanism's metric (instead of the levels; no recorded measurements)")
	level := fs.String("preset", "", "privacy level: strong, balanced or light (default: all three)")
	nWords := fs.Int("words", levelfacts.DefaultSample.Words, "words in the seeded uniform sample of N_w and S_w")
	draws := fs.Int("draws", levelfacts.DefaultSample.Draws, "draws per word")
	markdown := fs.Bool("markdown", false, "print the Markdown table of docs/PRIVACY_LEVELS.md")
	assetPath := fs.String("asset", "", "asset file (default: the embedded English asset)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case fs.NArg() > 0 || *nWords < 1 || *nWords > 100000 || *draws < 1 || *draws > 100000:
		return fmt.Errorf("%w: stats takes flags only, with -words and -draws in [1, 100000]", errUsage)
	case set["epsilon"] && (!(*eps > 0) || math.IsInf(*eps, 0)):
		return fmt.Errorf("%w: -epsilon %v: must be a finite number > 0", errUsage, *eps)
	case set["epsilon"] && set["preset"]:
		return fmt.Errorf("%w: give -epsilon or -preset, not both", errUsage)
	case set["epsilon"] && *name == "":
		return fmt.Errorf("%w: -epsilon needs -mechanism (ε is in each mechanism's own metric)", errUsage)
	}
	a, err := loadAsset(*assetPath)
	if err != nil {
		return err
	}
	if err := mechanism.CheckOffered(*name, a); err != nil {
		// What privatize refuses, stats does not measure; the research
		// tool does (wvcalibrate, docs/PRIVACY_LEVELS.md).
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	var names, levels []string
	if *name != "" {
		names = []string{*name}
	}
	if *level != "" {
		levels = []string{*level}
	}
	s := levelfacts.Sample{Words: *nWords, Draws: *draws}
	// Progress on a terminal for a run longer than a second (a large
	// -words or -draws): the bar starts with the first row's count.
	var bar *progress.Bar
	start, started := time.Now(), false
	rows, err := levelfacts.Rows(a, names, levels, *eps, s, func(done, total int) {
		if !started {
			bar, started = progress.NewTerminal(stderr, "stats (rows)", total, time.Second-time.Since(start)), true
		}
		bar.Set(done)
	})
	bar.Done()
	if errors.Is(err, levelfacts.ErrNoLevel) || errors.Is(err, mechanism.ErrUnknownMechanism) ||
		errors.Is(err, mechanism.ErrEpsilonSaturated) || errors.Is(err, mechanism.ErrInvalidEpsilon) {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err != nil {
		return err
	}
	if *markdown {
		return levelfacts.WriteMarkdown(stdout, a, rows, s)
	}
	return levelfacts.WriteText(stdout, a, rows, s)
}
