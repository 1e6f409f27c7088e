package levelfacts

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/wordveil/wordveil/internal/wva"
)

// WriteText writes rows as the aligned table `wordveil stats` prints,
// followed by a legend naming the asset's weighting and held-out text.
func WriteText(w io.Writer, a *wva.Asset, rows []Row, s Sample) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "mechanism\tlevel\tε\tmetric\ttop-1 (typed)\tkept (typed)\tworst word\theld-out kept\tattack top-1\tattack top-5\tmean N_w\tmean S_w\tε·P_avg per word\n")
	for _, r := range rows {
		level := r.Level
		if level == "" {
			level = "-"
		}
		kept, worst, held, top1, top5 := cells(a, r, plainRate, plainBound)
		fmt.Fprintf(tw, "%s\t%s\t%.4g\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.3f\t%.1f\t%s\n",
			r.Mechanism, level, r.Epsilon, r.Metric, typedTop1(r), kept, worst, held, top1, top5, r.N, r.S, cost(r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s\n", legend(a, s))
	return err
}

// WriteMarkdown writes rows as a Markdown table, one row per mechanism
// and level, followed by the legend.
func WriteMarkdown(w io.Writer, a *wva.Asset, rows []Row, s Sample) error {
	var b strings.Builder
	b.WriteString("| mechanism | level | ε | top-1 (typed) | kept (typed) | worst word | held-out kept | attack top-1 | attack top-5 | mean N_w | mean S_w | ε·P_avg per word |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		kept, worst, held, top1, top5 := cells(a, r, mdRate, mdBound)
		level := r.Level
		if level == "" {
			level = "—"
		}
		fmt.Fprintf(&b, "| %s (ε %s) | %s | %.4g | %s | %s | %s | %s | %s | %s | %.3f | %.1f | %s |\n",
			r.Mechanism, r.Metric, level, r.Epsilon, typedTop1(r), kept, worst, held, top1, top5, r.N, r.S, cost(r))
	}
	fmt.Fprintf(&b, "\n%s\n", legend(a, s))
	_, err := io.WriteString(w, b.String())
	return err
}

// cells formats the recorded facts of r; "—" where there are none. Where
// the facts give only a lower bound and a two-sided bound was measured
// for r on a (boundFor), top-1 is that interval, its lower end the larger
// of the two lower bounds, and so is top-5 where its bound was measured.
func cells(a *wva.Asset, r Row, rate func(wva.Rate) string, bound func(lo, hi float64) string) (kept, worst, held, top1, top5 string) {
	kept, worst, held, top1, top5 = "—", "—", "—", "—", "—"
	f := r.Facts
	if f == nil {
		return
	}
	kept = fmt.Sprintf("%.3f", f.Kept)
	if f.WorstWord != "" {
		worst = fmt.Sprintf("%q %.2f", f.WorstWord, f.WorstKept)
	}
	if h := f.HeldOut; h != nil {
		held, top1, top5 = rate(h.Kept), rate(h.Top1), rate(h.Top5)
		if h.Bound == "lower" {
			top1, top5 = "≥ "+top1, "≥ "+top5
			if b, ok := boundFor(a, r); ok {
				top1 = bound(max(b.lo, h.Top1.Lo), b.hi)
				if b.hi5 > 0 {
					top5 = bound(max(b.lo5, h.Top5.Lo), b.hi5)
				}
			}
		}
	}
	return
}

// typedTop1 is the calibration's estimate of the attacker's recovery
// on typed text; "—" when the builder did not measure it.
func typedTop1(r Row) string {
	if r.Facts == nil || r.Facts.Top1 == 0 {
		return "—"
	}
	return fmt.Sprintf("%.3f", r.Facts.Top1)
}

func plainRate(r wva.Rate) string { return fmt.Sprintf("%.3f [%.3f,%.3f]", r.Rate, r.Lo, r.Hi) }
func mdRate(r wva.Rate) string    { return fmt.Sprintf("%.3f (%.3f–%.3f)", r.Rate, r.Lo, r.Hi) }

func plainBound(lo, hi float64) string { return fmt.Sprintf("between %.3f and %.3f", lo, hi) }
func mdBound(lo, hi float64) string    { return fmt.Sprintf("between %.3f and %.3f", lo, hi) }

func cost(r Row) string {
	if !r.CostKnown {
		return "unknown"
	}
	return fmt.Sprintf("%.1f", r.Cost)
}

// Targets lists the levels' targets, strongest first: "strong 0.10,
// balanced 0.30, light 0.60" (a level without a target is left out).
func Targets(p *wva.Presets) string {
	var parts []string
	for _, l := range Levels {
		if t, ok := p.Targets[l]; ok {
			parts = append(parts, fmt.Sprintf("%s %.2f", l, t))
		}
	}
	return strings.Join(parts, ", ")
}

// legend says what each column measures on this asset.
func legend(a *wva.Asset, s Sample) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Asset %s (%d words). ", a.Header.Name, a.Len())
	p := a.Header.Presets
	switch {
	case p == nil:
		b.WriteString("It carries no presets. ")
	case p.Weighting == wva.WeightTyped && p.Objective == wva.ObjectiveTop1:
		fmt.Fprintf(&b, "Levels are calibrated on what an attacker recovers from typed text: each level's ε is the one at which the one-word attacker described below, with inputs drawn from the word frequencies (%s), recovers the level's target share of typed words with its first guess (top-1 (typed), the builder's estimate at the level's ε), the same target for every mechanism; kept (typed) is the share of typed word tokens released unchanged there. The levels' targets are", p.Prior)
		b.WriteString(" " + Targets(p))
		b.WriteString("; a level a mechanism cannot reach at any ε is left out. ")
	case p.Weighting == wva.WeightTyped:
		fmt.Fprintf(&b, "Levels are calibrated on typed text: kept (typed) is the share of typed word tokens released unchanged, each word weighted by its frequency (%s), as the builder estimated it at the level's ε; the levels' targets are", p.Prior)
		b.WriteString(" " + Targets(p))
		b.WriteString(". ")
	default:
		b.WriteString("Levels are calibrated on the mean N_w over the vocabulary, every word alike: kept (typed) is that mean as the builder estimated it. ")
	}
	b.WriteString("Worst word: the most often kept of the calibration's most frequent words, with its N_w. ")
	if p != nil && p.HeldOut != "" {
		fmt.Fprintf(&b, "Held-out kept and attack: measured on %s, each in-vocabulary token privatized once; attack top-k is the share of tokens a reconstruction attacker who knows the mechanism, ε and the word frequencies recovers among its k best guesses from the output word alone; intervals are 95%% confidence intervals (Wilson); ≥ marks a lower bound: BRR's law has no closed form, so its attacker is the better of one that learned the law from sampled draws and one that guesses the released word itself. ", p.HeldOut)
		if hasBound(a) {
			b.WriteString("\"Between\" gives a two-sided bound on the best one-word attacker's top-1 (or top-5) instead, measured offline on the same held-out tokens (research module, eval brrbound; docs/eval/README.md): each end holds with probability at least 0.975, for an attacker who knows the text's own word frequencies. ")
		}
	}
	fmt.Fprintf(&b, "Mean N_w and S_w: the papers' plausible deniability on %d words drawn uniformly from the vocabulary (seeded), %d draws each. ε·P_avg: the metric loss a ledger is charged per fresh word (it compares ε within one mechanism, not across mechanisms).", s.Words, s.Draws)
	return b.String()
}
