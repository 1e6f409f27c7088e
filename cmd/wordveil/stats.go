package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"text/tabwriter"

	"github.com/wordveil/wordveil/internal/deniability"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
)

// statsCmd prints plausible deniability (N_w, S_w; docs/MECHANISMS.md)
// and the unit-free loss ε·P_avg per word for mechanisms at a preset
// or ε. It is an evaluation tool: its sample and draws are seeded so that
// reruns agree.
func statsCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var spec mechanismSpec
	fs.StringVar(&spec.Name, "mechanism", "", fmt.Sprintf("one of %v (default: all with a preset)", mechanism.Names()))
	fs.Float64Var(&spec.Epsilon, "epsilon", 0, "ε (overrides -preset)")
	fs.StringVar(&spec.Preset, "preset", mechanism.LevelBalanced, "privacy level: strong, balanced or light")
	nWords := fs.Int("words", 100, "words in the seeded sample")
	draws := fs.Int("draws", 100, "draws per word")
	assetPath := fs.String("asset", "", "asset file (default: the embedded English asset)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *nWords < 1 || *nWords > 100000 || *draws < 1 || *draws > 100000 {
		return fmt.Errorf("%w: stats takes flags only, with -words and -draws in [1, 100000]", errUsage)
	}
	a, err := loadAsset(*assetPath)
	if err != nil {
		return err
	}
	names := []string{spec.Name}
	if spec.Name == "" {
		names = presetMechanisms
	}
	sample := rand.New(rand.NewPCG(2026, 5)).Perm(a.Len())[:min(*nWords, a.Len())]
	src := seeded.Key([32]byte{'s', 't', 'a', 't', 's'})
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "mechanism\tε\tmetric\tmean N_w\tmean S_w\tP_avg\tε·P_avg per word\n")
	for _, name := range names {
		s := spec
		s.Name = name
		m, eps, err := s.build(a, buildOptions{})
		if err != nil {
			return err
		}
		d, err := deniability.Estimate(m, sample, *draws, src)
		if err != nil {
			return err
		}
		pavg, known := mechanism.MeanDistance(m)
		if !known {
			fmt.Fprintf(tw, "%s\t%.4g\t%s\t%.3f\t%.1f\tunknown\tunknown\n", name, eps, m.Metric(), d.MeanN, d.MeanS)
			continue
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%s\t%.3f\t%.1f\t%.1f\t%.1f\n", name, eps, m.Metric(), d.MeanN, d.MeanS, pavg, eps*pavg)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nN_w = Pr[output = input], S_w = distinct outputs in %d draws; %d seeded words of %s.\n", *draws, len(sample), a.Header.Name)
	return nil
}
