package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"text/tabwriter"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/internal/wva"
)

func runAssets(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: assets needs a subcommand: inspect (building is wordveil-research assets build)", errUsage)
	}
	switch args[0] {
	case "inspect", "info":
		return assetsInspect(args[1:], stdout, stderr)
	case "build":
		return fmt.Errorf("%w: building assets is in the research tool: wordveil-research assets build", errUsage)
	}
	return fmt.Errorf("%w: unknown assets subcommand %q (want inspect)", errUsage, args[0])
}

func assetsInspect(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil assets inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the header as JSON only")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return fmt.Errorf("%w: assets inspect takes at most one FILE", errUsage)
	}
	name, b := "(embedded) "+assets.DefaultName, assets.DefaultBytes()
	if fs.NArg() == 1 {
		var err error
		name = fs.Arg(0)
		if b, err = os.ReadFile(name); err != nil {
			return err
		}
	}
	in, err := wva.Inspect(b)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(in.Header)
	}
	h := in.Header
	fmt.Fprintf(stdout, "%s: %s\n", name, h.Name)
	fmt.Fprintf(stdout, "  %s\n  source %s@%s (%s), licence %s\n  %d words, dim %d, %d-bit codes, binarizer %s\n",
		h.Description, h.Source.Name, h.Source.Version, h.Source.Integrity, h.Licence.SPDX, h.Words, h.Dim, h.CodeBits, h.Binarizer.Name)
	if h.Lists != nil {
		fmt.Fprintf(stdout, "  %d 1-Diffractor lists (%s), start words %v\n", h.Lists.Count, h.Lists.Metric, h.Lists.StartWords)
	}
	if h.TEM != nil {
		fmt.Fprintf(stdout, "  TEM lists (%s): gamma_max %g, step %g, %d pairs\n", h.TEM.Metric, h.TEM.GammaMax, h.TEM.Step, h.TEM.Pairs)
	}
	if p := h.Presets; p != nil {
		fmt.Fprintf(stdout, "  presets for %d mechanisms at levels %v\n", len(p.Epsilon), sortedKeys(p.Targets))
	}
	if x := h.Excluded; x != nil {
		fmt.Fprintf(stdout, "  %d words excluded from outputs by default (%s, licence %s)\n", len(x.IDs), x.Source, x.Licence)
	}
	if s := h.StandIns; s != nil {
		fmt.Fprintf(stdout, "  %d stand-ins: words privatized as their nearest vocabulary word\n", s.Words)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "section\tstored bytes\traw bytes\t")
	for _, s := range in.Sections {
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", s.Kind, s.Stored, s.Raw)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "  %d bytes in all\n", len(b))
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
