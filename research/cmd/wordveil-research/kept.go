package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/wordveil/wordveil/research/internal/eval/study"
)

// evalKept prints, for each named mechanism and grid point, the share of
// TR1's in-vocabulary tokens one privatization keeps unchanged: N_w
// weighted by how often the text uses each word (study.KeptShares). It
// appends nothing to the results; it is the check REPORT.md §9 uses on
// the candidates restricted to frequent words.
func evalKept(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval kept", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var d evalData
	d.flags(fs)
	mechs := fs.String("mechanisms", "cand:*", "comma-separated mechanisms (the names of 'eval imdb -h')")
	grid := fs.String("eps", joinFloats(study.DefaultEuclideanGrid), "comma-separated Euclidean ε grid")
	train := fs.Int("train", DefaultTrain, "use the first N reviews of TR1 (0: all 12,500)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := parseFloats(*grid)
	if err != nil {
		return fmt.Errorf("%w: -eps: %v", errUsage, err)
	}
	env, _, trainC, err := d.load(*train)
	if err != nil {
		return err
	}
	specs, err := study.Specs(env, splitList(*mechs), g)
	if err != nil {
		return err
	}
	ks, err := study.KeptShares(env, trainC, specs, d.seed)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%-28s %10s  %s\n", "mechanism", "ε", "kept (share of TR1's in-vocabulary tokens unchanged)")
	for _, k := range ks {
		fmt.Fprintf(stdout, "%-28s %10.4g  %.3f\n", strings.TrimSpace(k.Mechanism), k.Epsilon, k.Share)
	}
	return nil
}
