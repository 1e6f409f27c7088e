package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/typedtext"
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
		a, err = wva.Default()
	} else {
		name = filepath.Base(*assetPath)
		a, err = wva.LoadWith(*assetPath, wva.DecodeOptions{MaxMemory: 1 << 30}) // research assets carry float vectors
	}
	if err != nil {
		return err
	}
	// The same asset without its stand-ins, to count the tokens they take.
	core := (&wva.Asset{Header: a.Header, Codes: a.Codes, Lists: a.Lists, TEM: a.TEM, CusText: a.CusText}).SetWords(a.WordList())
	core.Header.StandIns = nil
	with, err := oovCounts(a, *cache)
	if err != nil {
		return err
	}
	without, err := oovCounts(core, *cache)
	if err != nil {
		return err
	}
	total := with.words + with.oov
	if total == 0 {
		return fmt.Errorf("no content tokens in the held-out text")
	}
	pct := func(n int64) float64 { return 100 * float64(n) / float64(total) }
	fmt.Fprintf(stdout, "%s: %d held-out documents, %d content tokens, %d to the mechanism, %d to the OOV policy = %.2f%%\n",
		name, with.docs, total, with.words, with.oov, pct(with.oov))
	if a.StandIns.Len() > 0 {
		fmt.Fprintf(stdout, "  vocabulary words %d = %.2f%%; stand-ins (%d in the asset) %d = %.2f%%; without stand-ins the OOV policy would take %d = %.2f%%\n",
			without.words, pct(without.words), a.StandIns.Len(), with.words-without.words, pct(with.words-without.words), without.oov, pct(without.oov))
	}
	return nil
}

type oovCount struct{ docs, words, oov int64 }

// oovCounts privatizes the held-out text over a and adds up the bills.
func oovCounts(a *wva.Asset, cache string) (oovCount, error) {
	var c oovCount
	// The mechanism does not matter for the count; BRR at a mid ε.
	m, err := mechanism.New(mechanism.NameBRR, a, 0.5, mechanism.Options{})
	if err != nil {
		return c, err
	}
	p, err := privatize.New(m, a, privatize.Options{})
	if err != nil {
		return c, err
	}
	src := seeded.Key([32]byte{'o', 'o', 'v'})
	err = typedtext.HeldOut(cache, func(_, doc string) error {
		r, err := p.Privatize(doc, src)
		if err != nil {
			return err
		}
		c.docs++
		c.words += int64(r.Accounting.Words)
		c.oov += int64(r.Accounting.OOV)
		return nil
	})
	return c, err
}
