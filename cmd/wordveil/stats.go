package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"text/tabwriter"

	"github.com/wordveil/wordveil/internal/deniability"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
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
		names = names[:0]
		for _, m := range presetMechanisms {
			names = append(names, string(m))
		}
	}
	sample := rand.New(rand.NewPCG(2026, 5)).Perm(a.Len())[:min(*nWords, a.Len())]
	src := seeded.Key([32]byte{'s', 't', 'a', 't', 's'})
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "mechanism\tε\tmetric\tmean N_w\tmean S_w\tP_avg\tε·P_avg per word\n")
	for _, name := range names {
		s := spec
		s.Name = name
		m, eps, err := s.build(a)
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

// mechanismSpec is how stats names a mechanism and its privacy.
type mechanismSpec struct {
	Name    string  // mechanism.NameBRR, ...
	Epsilon float64 // > 0, or 0 to use Preset
	Preset  string  // mechanism.LevelBalanced, ...
}

// build returns the bare mechanism (the asset's exclusion list applied,
// as in the product) and its ε, for the measurements of stats, which need
// the mechanism itself; privatizing goes through wordveil.Open. A refused
// ε (invalid, or so large the output is almost surely the input) and an
// unknown name are usage errors.
func (s mechanismSpec) build(a *wva.Asset) (mechanism.Mechanism, float64, error) {
	eps := s.Epsilon
	if eps == 0 {
		var err error
		if eps, err = mechanism.Preset(a, s.Name, s.Preset); err != nil {
			return nil, 0, fmt.Errorf("%w: -preset %s: %v", errUsage, s.Preset, err)
		}
	} else if !(eps > 0) || math.IsInf(eps, 0) {
		return nil, 0, fmt.Errorf("%w: -epsilon %v: must be a finite number > 0", errUsage, eps)
	}
	outputs, err := mechanism.DefaultOutputs(a)
	if err != nil {
		return nil, 0, err
	}
	m, err := mechanism.New(s.Name, a, eps, mechanism.Options{Outputs: outputs})
	if errors.Is(err, mechanism.ErrUnknownMechanism) || errors.Is(err, mechanism.ErrEpsilonSaturated) || errors.Is(err, mechanism.ErrInvalidEpsilon) {
		return nil, 0, fmt.Errorf("%w: %v", errUsage, err)
	}
	if err != nil {
		return nil, 0, err
	}
	return m, eps, nil
}
