package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/wordveil/wordveil/research/internal/eval/report"
	"github.com/wordveil/wordveil/research/internal/eval/study"
)

// evalPresets prints, as a Markdown table, the IMDB study's cells run at
// the assets' presets (mechanisms "preset:NAME") from two results files
// side by side: accuracy (mean and 95% CI over runs) and N_w per level.
// With -typed it prints typedPresetsTable instead.
func evalPresets(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval presets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	before := fs.String("before", "docs/eval/results-presets-before.jsonl", "results of the first asset")
	after := fs.String("after", "docs/eval/results-presets-after.jsonl", "results of the second asset (with -typed: the previous, uniform presets)")
	typed := fs.String("typed", "", "results at the typed-text presets: print their table (with -levels and, for comparison, -after) instead")
	levelsPath := fs.String("levels", "docs/eval/levels-presets-typed.jsonl", "with -typed: the results of 'wordveil-research eval levels' on the same asset")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *typed != "" {
		return typedPresetsTable(stdout, *typed, *levelsPath, *after)
	}
	b, err := presetCells(*before)
	if err != nil {
		return err
	}
	a, err := presetCells(*after)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "| mechanism | level | ε before | accuracy before | N_w before | ε after | accuracy after | N_w after |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|")
	keys := make([]string, 0, len(a))
	for k := range a {
		if k != "baseline" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		x, y := b[k], a[k]
		name, level, _ := strings.Cut(k, "/")
		fmt.Fprintf(stdout, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", name, study.PresetLevels[level[0]-'0'],
			x.eps(), x.acc(), x.nw(), y.eps(), y.acc(), y.nw())
	}
	for _, f := range []struct {
		name string
		c    map[string]*presetCell
	}{{"before", b}, {"after", a}} {
		if base := f.c["baseline"]; base != nil {
			fmt.Fprintf(stdout, "\nBaseline %s (trained on the original text): accuracy %s.\n", f.name, base.acc())
		}
	}
	return nil
}

type presetCell struct {
	epsilon float64
	accs    []float64
	nW      float64
	hasNW   bool
}

func (c *presetCell) eps() string {
	if c == nil {
		return "—"
	}
	return fmt.Sprintf("%.4g", c.epsilon)
}

func (c *presetCell) acc() string {
	if c == nil || len(c.accs) == 0 {
		return "—"
	}
	m, lo, hi := report.MeanCI(c.accs)
	return fmt.Sprintf("%.1f%% [%.1f, %.1f] (%d runs)", 100*m, 100*lo, 100*hi, len(c.accs))
}

func (c *presetCell) nw() string {
	if c == nil || !c.hasNW {
		return "—"
	}
	return fmt.Sprintf("%.3f", c.nW)
}

// presetCells groups a results file's preset cells by "name/level index";
// the key "baseline" holds the unprivatized runs.
func presetCells(path string) (map[string]*presetCell, error) {
	recs, err := study.ReadRecords(path)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: no records (run wordveil-research eval imdb -mechanisms preset:… first)", path)
	}
	out := map[string]*presetCell{}
	cell := func(k string) *presetCell {
		if out[k] == nil {
			out[k] = &presetCell{}
		}
		return out[k]
	}
	for _, r := range recs {
		name, ok := strings.CutPrefix(r.Mechanism, study.PresetPrefix)
		switch {
		case r.Kind == "baseline":
			c := cell("baseline")
			c.accs = append(c.accs, r.Accuracy)
		case !ok || r.EpsIndex < 0 || r.EpsIndex >= len(study.PresetLevels):
		case r.Kind == "accuracy":
			c := cell(fmt.Sprintf("%s/%d", name, r.EpsIndex))
			c.epsilon = r.Epsilon
			c.accs = append(c.accs, r.Accuracy)
		case r.Kind == "deniability":
			// ε too: a cell may have its N_w before (or without) an
			// accuracy run.
			c := cell(fmt.Sprintf("%s/%d", name, r.EpsIndex))
			c.epsilon = r.Epsilon
			c.nW, c.hasNW = r.NW, true
		}
	}
	return out, nil
}
