package assetbuild

import (
	"fmt"
	"runtime"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/attack"
	"github.com/wordveil/wordveil/research/internal/eval/levels"
)

// The held-out measurement of the default recipe: a seeded sample of
// heldOutTokens in-vocabulary tokens of the held-out text, each
// privatized once per mechanism and level.
const (
	heldOutTokens = 20000
	heldOutSeed   = 27
)

// heldOutName describes the held-out text in the presets.
const heldOutName = "nlp-corpus@4.4.0 builds/doc-0…29 (SMS, TV transcripts, Reddit comments, lyrics, fiction, speeches; strings sharing an 8-word sequence with IMDB or Brown dropped), never used for calibration"

// measureHeldOut returns the Measure hook of the default recipe: the kept
// share and the reconstruction attacker (research/internal/eval/levels) on the
// held-out text in cacheDir, recorded in the asset's presets.
func measureHeldOut(cacheDir string) func(a *wva.Asset, prior []float64) error {
	return func(a *wva.Asset, prior []float64) error {
		text, err := levels.HeldOut(cacheDir, a)
		if err != nil {
			return err
		}
		tokens, err := levels.Subsample(text.IDs, heldOutTokens, heldOutSeed)
		if err != nil {
			return err
		}
		cells, err := levels.Measure(a, prior, tokens, heldOutSeed, runtime.NumCPU())
		if err != nil {
			return err
		}
		return recordHeldOut(a.Header.Presets, cells, fmt.Sprintf("%s: a seeded sample of %d of its %d in-vocabulary word tokens (%.1f%% of its %d word tokens)",
			heldOutName, len(tokens), len(text.IDs), 100*text.InVocab(), text.Words))
	}
}

// recordHeldOut stores cells in p's measured facts under name.
func recordHeldOut(p *wva.Presets, cells map[string]map[string]levels.Cell, name string) error {
	if p == nil {
		return fmt.Errorf("%w: no presets to measure", ErrConfig)
	}
	// Clamped into [0, 1] and ordered: a Wilson bound computed in
	// floating point may stray by an ulp, which the header would refuse.
	rate := func(i attack.Interval) wva.Rate {
		c := func(x float64) float64 { return min(1, max(0, x)) }
		r := c(i.Rate)
		return wva.Rate{Rate: r, Lo: min(c(i.Lo), r), Hi: max(c(i.Hi), r)}
	}
	for m, byLevel := range cells {
		for l, c := range byLevel {
			f, ok := p.Measured[m][l]
			if !ok {
				return fmt.Errorf("%w: measured %s/%s, which was not calibrated", ErrConfig, m, l)
			}
			h := &wva.HeldOutFacts{Tokens: c.Tokens, Kept: rate(c.Kept), Top1: rate(c.Top1), Top5: rate(c.Top5),
				Baseline1: rate(c.Baseline1), Baseline5: rate(c.Baseline5), Bound: "exact"}
			if c.LowerBound {
				// levels.Measure already took the better of its trained
				// attacker and the echo (who guesses the released word).
				h.Bound = "lower"
			}
			f.HeldOut = h
			p.Measured[m][l] = f
		}
	}
	p.HeldOut = name
	return nil
}
