package main

import "github.com/wordveil/wordveil/core"

// presetMechanisms are the on-device mechanisms that have presets, in the
// order the CLI shows them.
var presetMechanisms = []core.Mechanism{core.BRR, core.TEMHamming, core.OneDG, core.OneDT}

// presetPrivatizer opens the product's privatizer for mechanism m at
// level (the embedded asset, every other setting the default), as demo and
// bench show it. Errors come with the CLI's exit codes (fromRoot).
func presetPrivatizer(m core.Mechanism, level string) (*core.Privatizer, error) {
	p, err := core.Open(core.Config{Mechanism: m, Level: core.Level(level)})
	return p, fromRoot(err, "")
}
