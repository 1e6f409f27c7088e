package main

import (
	"fmt"
	"io"
	"maps"
	"slices"

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
	switch {
	case p.Weighting == wva.WeightTyped && p.Objective == wva.ObjectiveTop1:
		fmt.Fprintf(out, "So a level means the same protection for every mechanism on what people type: an attacker who knows "+
			"the mechanism, ε and how often each word is typed, and sees one released word, recovers the same share of typed "+
			"words with its first guess (the level's target: %s). The share of words released unchanged is no longer the "+
			"target but a fact beside it (kept (typed)): against a mechanism that releases near neighbours from short lists "+
			"(1-Diffractor, CusText) the attacker also recovers many of the words that were changed, so such a mechanism "+
			"needs a smaller ε, and keeps fewer words, to give the same protection. A level that even ε → 0 cannot reach is "+
			"not offered. The frequencies are %s. The uniform mean N_w of the papers is kept beside it: it weighs "+
			"a rare word as much as \"the\", and typed text is mostly frequent words.\n\n"+
			"Why these targets: they are the shares of typed words kept that the levels targeted before, so a level's "+
			"name keeps its meaning in round numbers (one word in ten recovered at strong); for the mechanisms whose "+
			"attacker recovered about what they kept (BRR, TEM on codes, SanText) ε hardly moved, and the others now give "+
			"the same protection by drawing more widely. Strong cannot go much lower: an attacker who ignores the output "+
			"and guesses the most frequent word already recovers %s of the held-out tokens, and a target near that would "+
			"leave only ε → 0.\n\n", levelfacts.Targets(p), p.Prior, baseline(p))
	case p.Weighting == wva.WeightTyped:
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
	rows, err := levelfacts.Rows(a, nil, nil, 0, s, nil)
	if err != nil {
		return err
	}
	if err := levelfacts.WriteMarkdown(out, a, rows, s); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s\n", statsEnd)
	return capsBuy(out, rows)
}

// baseline is the held-out top-1 of the attacker who ignores the
// output (the same in every measured cell), "—" when none was measured.
func baseline(p *wva.Presets) string {
	for _, m := range slices.Sorted(maps.Keys(p.Measured)) {
		for _, l := range levelfacts.Levels {
			if f, ok := p.Measured[m][l]; ok && f.HeldOut != nil {
				return fmt.Sprintf("%.3f", f.HeldOut.Baseline1.Rate)
			}
		}
	}
	return "—"
}

// capWords is the example cap of capsBuy: 500 words a day.
const capWords = 500

// capsBuy says what a cap in words buys against the attacker: the
// metric loss it allows, and how many of its words the one-word
// attacker recovers, at the default level.
func capsBuy(out io.Writer, rows []levelfacts.Row) error {
	fmt.Fprintf(out, "\n## What a cap in words buys\n\n"+
		"A ledger cap of N words at a level (`Caps.PerPeriodWords`, `-cap-period-words`, docs/TEXT_PRIVACY.md) lets at most N "+
		"fresh words out per period, and charges (N + ½)·ε·P_avg of metric loss at most. It does not change what each word gives "+
		"away: against the attacker above, who guesses each released word alone, the expected number of those N words it recovers "+
		"is N times its top-1 rate (N times the top-5 rate are among its five guesses). For %d words a day at %s:\n\n", capWords, levelfacts.Levels[1])
	fmt.Fprintf(out, "| mechanism | metric loss allowed per day | words recovered (top-1) | among 5 guesses (top-5) |\n|---|---|---|---|\n")
	for _, r := range rows {
		if r.Level != levelfacts.Levels[1] {
			continue
		}
		loss := "no ledger (P_avg unknown)"
		if r.CostKnown {
			loss = fmt.Sprintf("%.4g", (capWords+0.5)*r.Cost)
		}
		top1, top5 := "—", "—"
		if f := r.Facts; f != nil && f.HeldOut != nil {
			ge := ""
			if f.HeldOut.Bound == "lower" {
				ge = "≥ "
			}
			top1 = fmt.Sprintf("%s%.0f (%.0f–%.0f)", ge, capWords*f.HeldOut.Top1.Rate, capWords*f.HeldOut.Top1.Lo, capWords*f.HeldOut.Top1.Hi)
			top5 = fmt.Sprintf("%s%.0f (%.0f–%.0f)", ge, capWords*f.HeldOut.Top5.Rate, capWords*f.HeldOut.Top5.Lo, capWords*f.HeldOut.Top5.Hi)
		}
		fmt.Fprintf(out, "| %s | %s | %s | %s |\n", r.Mechanism, loss, top1, top5)
	}
	fmt.Fprintln(out, "\nThe attacker sees single words. One who reads context, or sees the same word released again and again (without a memo), recovers more; the memo (docs/TEXT_PRIVACY.md) releases a repeated word once.")
	return nil
}
