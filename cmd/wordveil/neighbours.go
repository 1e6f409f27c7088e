package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"
)

// loadAsset returns the asset at path, or the embedded default for "".
func loadAsset(path string) (*wva.Asset, error) {
	if path == "" {
		return wva.Default()
	}
	a, err := wva.Load(path)
	if err != nil {
		return nil, fmt.Errorf("load asset %s: %w", path, err)
	}
	return a, nil
}

// neighbours prints each word's exact nearest neighbours by Hamming distance
// of the asset's 256-bit codes (ties listed in id order, i.e. by frequency).
// A stand-in is shown as "word → vocabulary word" with the neighbours of
// the word it stands in for.
func neighbours(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil neighbours", flag.ContinueOnError)
	fs.SetOutput(stderr)
	k := fs.Int("k", 8, "neighbours per word")
	path := fs.String("asset", "", "asset file (default: the embedded English asset)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 || *k < 1 {
		return fmt.Errorf("%w: neighbours needs -k ≥ 1 and at least one WORD", errUsage)
	}
	a, err := loadAsset(*path)
	if err != nil {
		return err
	}
	idx, err := hamming.NewIndex(a.Codes)
	if err != nil {
		return err
	}
	buf := make([]hamming.Neighbor, 0, *k+16)
	for _, w := range fs.Args() {
		key := strings.ToLower(w)
		id, ok := a.Lookup(key)
		label := w
		if !ok {
			// A stand-in has no code of its own: it is privatized as
			// the vocabulary word it stands in for, so show that word's
			// neighbours (the word itself first, at distance 0).
			if id, ok = a.StandIn(key); !ok {
				fmt.Fprintf(stdout, "%-14s (not in the vocabulary)\n", w)
				continue
			}
			label = w + " → " + a.Word(id)
		}
		res, err := idx.KNN(buf, a.Codes[id], *k+1, hamming.Options{})
		if err != nil {
			return err
		}
		var parts []string
		for _, n := range res {
			if (int(n.ID) != id || label != w) && len(parts) < *k {
				parts = append(parts, fmt.Sprintf("%s %d", a.Word(int(n.ID)), n.Dist))
			}
		}
		fmt.Fprintf(stdout, "%-14s %s\n", label, strings.Join(parts, ", "))
	}
	return nil
}
