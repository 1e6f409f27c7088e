package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/mechanism"
	"github.com/wordveil/wordveil/privatize"
	"github.com/wordveil/wordveil/research/eval/typedtext"
)

// evalOOV measures, on the held-out everyday English of package typedtext,
// the share of content tokens the text privatizer hands to the OOV policy
// (replaced by a random word) rather than to the mechanism. It runs the
// real privatizer, so tokenization, clitics and numbers count exactly as
// they do on a device.
func evalOOV(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval oov", flag.ContinueOnError)
	fs.SetOutput(stderr)
	assetPath := fs.String("asset", "", "asset file (default: the embedded asset)")
	cache := fs.String("typed-text", defaultCache(), "directory with the pinned typed-text data (make typed-text)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var a *wva.Asset
	var err error
	name := "(embedded) " + assets.DefaultName
	if *assetPath == "" {
		a, err = assets.Default()
	} else {
		name = filepath.Base(*assetPath)
		a, err = wva.Load(*assetPath)
	}
	if err != nil {
		return err
	}
	// The mechanism does not matter for the count; BRR at a mid ε.
	m, err := mechanism.New(mechanism.NameBRR, a, 0.5, mechanism.Options{})
	if err != nil {
		return err
	}
	p, err := privatize.New(m, a, privatize.Options{})
	if err != nil {
		return err
	}
	src := mechanism.NewSeededSourceForEvaluation([32]byte{'o', 'o', 'v'})
	var docs, words, oov int64
	err = typedtext.HeldOut(*cache, func(_, doc string) error {
		r, err := p.Privatize(doc, src)
		if err != nil {
			return err
		}
		docs++
		words += int64(r.Accounting.Words)
		oov += int64(r.Accounting.OOV)
		return nil
	})
	if err != nil {
		return err
	}
	total := words + oov
	if total == 0 {
		return fmt.Errorf("no content tokens in the held-out text")
	}
	fmt.Fprintf(stdout, "%s: %d held-out documents, %d content tokens, %d to the mechanism, %d to the OOV policy = %.2f%%\n",
		name, docs, total, words, oov, 100*float64(oov)/float64(total))
	return nil
}
