package main

import (
	"fmt"
	"io"

	"github.com/wordveil/wordveil/internal/levelfacts"
	"github.com/wordveil/wordveil/internal/wva"
)

// Markers around the named-level table: the lines between them are
// exactly what `wordveil stats -markdown` prints (scripts/check-docs.sh
// checks both generators agree).
const (
	statsBegin = "<!-- generated:wordveil-stats -markdown -->"
	statsEnd   = "<!-- /generated:wordveil-stats -->"
)

// namedLevels writes the named levels: how they were calibrated, and the
// table of internal/levelfacts, the one `wordveil stats` prints.
func namedLevels(out io.Writer, a *wva.Asset) error {
	p := a.Header.Presets
	fmt.Fprintf(out, "## Named levels\n\n"+
		"The ε of each level was calibrated by the asset builder and is stored in the asset (`mechanism.Preset`): %s.\n\n", p.Method)
	if p.Weighting == wva.WeightTyped {
		fmt.Fprintf(out, "So a level means the same thing for every mechanism on what people type: the same share of typed "+
			"words comes back unchanged. The frequencies are %s. The uniform mean N_w of the papers is kept beside it: it weighs "+
			"a rare word as much as \"the\", and typed text is mostly frequent words.\n\n", p.Prior)
	}
	if p.HeldOut != "" {
		fmt.Fprintf(out, "The held-out columns check the calibration on text it never saw (%s). "+
			"The attacker is the Bayes-optimal reconstruction adversary of one word: it knows the mechanism, ε, the asset "+
			"and the word frequencies, sees the released word alone, and ranks every vocabulary word w by prior(w)·Pr[M(w) = y]. "+
			"Top-1 is the share of tokens it recovers with its first guess; top-5 among its five best. It sees no context: an "+
			"attacker who reads the surrounding words, or the same word released many times, does better.\n\n", p.HeldOut)
	}
	fmt.Fprintf(out, "Printed by `wordveil stats -markdown`:\n\n%s\n", statsBegin)
	s := levelfacts.DefaultSample
	rows, err := levelfacts.Rows(a, nil, nil, 0, s)
	if err != nil {
		return err
	}
	if err := levelfacts.WriteMarkdown(out, a, rows, s); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s\n", statsEnd)
	return nil
}
