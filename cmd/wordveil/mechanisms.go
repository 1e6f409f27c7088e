package main

import "github.com/wordveil/wordveil"

// presetMechanisms are the on-device mechanisms that have presets, in the
// order the CLI shows them.
var presetMechanisms = []wordveil.Mechanism{wordveil.BRR, wordveil.TEMHamming, wordveil.OneDG, wordveil.OneDT}

// presetPrivatizer opens the product's privatizer for mechanism m at
// level (the embedded asset, every other setting the default), as demo and
// bench show it. Errors come with the CLI's exit codes (fromRoot).
func presetPrivatizer(m wordveil.Mechanism, level string) (*wordveil.Privatizer, error) {
	p, err := wordveil.Open(wordveil.Config{Mechanism: m, Level: wordveil.Level(level)})
	return p, fromRoot(err, "")
}
