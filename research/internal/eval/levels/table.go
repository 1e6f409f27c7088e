package levels

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wordveil/wordveil/research/internal/eval/attack"
)

// Table formats cells as a Markdown table, one row per mechanism and
// level (mechanisms in name order, levels strongest first): ε, kept
// share, top-1 and top-5 recovery and their baselines, each with its 95%
// interval. A rate from a trained attacker (BRR) is marked ≥: a lower
// bound.
func Table(cells map[string]map[string]Cell) string {
	var b strings.Builder
	b.WriteString("| mechanism | level | ε | tokens | kept | top-1 | top-5 | baseline top-1 | baseline top-5 |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	names := make([]string, 0, len(cells))
	for n := range cells {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		for _, l := range Levels {
			c, ok := cells[n][l]
			if !ok {
				continue
			}
			bound := ""
			if c.LowerBound {
				bound = "≥ "
			}
			fmt.Fprintf(&b, "| %s | %s | %.4g | %d | %s | %s%s | %s%s | %s | %s |\n", n, l, c.Epsilon, c.Tokens,
				interval(c.Kept), bound, interval(c.Top1), bound, interval(c.Top5), interval(c.Baseline1), interval(c.Baseline5))
		}
	}
	return b.String()
}

func interval(i attack.Interval) string {
	return fmt.Sprintf("%.3f [%.3f, %.3f]", i.Rate, i.Lo, i.Hi)
}
