package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wordveil/wordveil/research/internal/eval/study"
)

// typedPresetsTable prints, as Markdown, the IMDB study's cells at the
// typed-text presets (typedPath, written by 'eval imdb -mechanisms
// preset:…') beside what 'eval levels' measured at the same presets on
// the study's training text (levelsPath): per mechanism and level, ε,
// accuracy (mean and 95% t-interval over runs), the study's N_w, the
// kept share and the attacker's top-1 and top-5 recovery (95% Wilson
// intervals; "≥" where the attacker is trained, a lower bound), the
// prior-only top-1, and ε and accuracy at the previous presets
// (prevPath) for comparison. A row is a cell of either file; a cell
// both files hold must have the same ε in both (the same asset), or the
// table is refused.
func typedPresetsTable(w io.Writer, typedPath, levelsPath, prevPath string) error {
	typed, err := presetCells(typedPath)
	if err != nil {
		return err
	}
	prev, err := presetCells(prevPath)
	if err != nil {
		return err
	}
	recs, err := study.ReadLevels(levelsPath)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s: no records (run wordveil-research eval levels first)", levelsPath)
	}
	type row struct {
		name  string
		level int
		study *presetCell
		lv    *study.LevelsRecord
	}
	rows := map[string]*row{}
	get := func(name string, level int) *row {
		k := fmt.Sprintf("%s/%d", name, level)
		if rows[k] == nil {
			rows[k] = &row{name: name, level: level}
		}
		return rows[k]
	}
	for k, c := range typed {
		if k == "baseline" {
			continue
		}
		name, level, _ := strings.Cut(k, "/")
		get(name, int(level[0]-'0')).study = c
	}
	text := recs[0].Text
	for i := range recs {
		r := &recs[i]
		if r.Text != text {
			return fmt.Errorf("%s: records of different texts or assets (%+v and %+v)", levelsPath, text, r.Text)
		}
		x := get(r.Mechanism, slices.Index(study.PresetLevels, r.Level))
		if x.lv != nil {
			return fmt.Errorf("%s: %s %s measured twice", levelsPath, r.Mechanism, r.Level)
		}
		x.lv = r
	}
	sorted := make([]*row, 0, len(rows))
	for _, x := range rows {
		if x.study != nil && x.lv != nil && x.study.epsilon != x.lv.Epsilon {
			return fmt.Errorf("%s %s: ε %v in %s but %v in %s: not the same asset's presets",
				x.name, study.PresetLevels[x.level], x.study.epsilon, typedPath, x.lv.Epsilon, levelsPath)
		}
		sorted = append(sorted, x)
	}
	slices.SortFunc(sorted, func(a, b *row) int { return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.level, b.level)) })

	fmt.Fprintln(w, "| mechanism | level | ε | accuracy | N_w | kept | attacker top-1 | attacker top-5 | prior-only top-1 | ε uniform | accuracy uniform |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	bound := false
	for _, x := range sorted {
		eps := x.study.eps()
		kept, top1, top5, base1 := "—", "—", "—", "—"
		if r := x.lv; r != nil {
			eps = fmt.Sprintf("%.4g", r.Epsilon)
			ge := ""
			if r.LowerBound {
				ge, bound = "≥ ", true
			}
			kept, top1, top5, base1 = rate(r.Kept), ge+rate(r.Top1), ge+rate(r.Top5), rate(r.Baseline1)
		}
		p := prev[fmt.Sprintf("%s/%d", x.name, x.level)]
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", x.name, study.PresetLevels[x.level],
			eps, x.study.acc(), x.study.nw(), kept, top1, top5, base1, p.eps(), p.acc())
	}
	fmt.Fprintf(w, "\nBaseline (trained on the original text): accuracy %s; at the uniform presets' asset %s.\n",
		typed["baseline"].acc(), prev["baseline"].acc())
	fmt.Fprintf(w, "\nKept share and attacker: %d of the %d in-vocabulary word pieces (%.1f%% of %d) of the first %d TR1 reviews, seed %d; asset %s (SHA-256 %.16s…).\n",
		text.Sample, text.InVocab, 100*float64(text.InVocab)/float64(max(text.Words, 1)), text.Words, text.Reviews, text.Seed, text.Asset, text.AssetSHA256)
	if bound {
		fmt.Fprintln(w, "\n≥: BRR's law has no closed form; its attacker is the better of a model trained on sampled draws and one that guesses the released word, so its rates are lower bounds on the best attacker's.")
	}
	return nil
}

func rate(r study.Rate) string { return fmt.Sprintf("%.3f [%.3f, %.3f]", r.Rate, r.Lo, r.Hi) }
