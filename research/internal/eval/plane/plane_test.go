package plane

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/fasttext"
	"github.com/wordveil/wordveil/research/internal/eval/imdb"
	"github.com/wordveil/wordveil/research/internal/eval/study"
)

func TestEstimate(t *testing.T) {
	cases := []struct {
		name       string
		xs         []float64
		mean, half float64 // NaN: want NaN
	}{
		{"none", nil, math.NaN(), math.NaN()},
		{"one run", []float64{0.7}, 0.7, math.NaN()},
		// s = 0.1/√2, t(0.975, 1) = 12.7062: half = 12.7062 · 0.05.
		{"two runs", []float64{0.7, 0.8}, 0.75, 12.7062047 * 0.05},
		// s = 0, any t: half 0.
		{"equal runs", []float64{0.6, 0.6, 0.6}, 0.6, 0},
		// mean 0.8, s = 0.02 (deviations −0.02, 0, +0.02, ±0 …), t(0.975, 4) = 2.7764451.
		{"five runs", []float64{0.78, 0.8, 0.82, 0.8, 0.8}, 0.8, 2.7764451 * math.Sqrt(0.0008/4) / math.Sqrt(5)},
	}
	same := func(a, b float64) bool {
		if math.IsNaN(b) {
			return math.IsNaN(a)
		}
		return math.Abs(a-b) < 1e-6
	}
	for _, c := range cases {
		e := estimate(c.xs)
		if e.Runs != len(c.xs) || !same(e.Mean, c.mean) || !same(e.Half, c.half) {
			t.Errorf("%s: %+v, want mean %v ± %v over %d runs", c.name, e, c.mean, c.half, len(c.xs))
		}
		if !math.IsNaN(c.half) && (!same(e.Lo, c.mean-c.half) || !same(e.Hi, c.mean+c.half)) {
			t.Errorf("%s: interval [%v, %v], want mean ∓ half", c.name, e.Lo, e.Hi)
		}
	}
}

func defaultAsset(t *testing.T) *wva.Asset {
	t.Helper()
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	if a.Header.Presets == nil {
		t.Skip("the embedded asset has no presets")
	}
	return a
}

// TestRecoveryOf checks each kind against the asset's own facts: a lower
// bound becomes two-sided only with a bound measured on this asset at this
// ε, and the baseline has none.
func TestRecoveryOf(t *testing.T) {
	a := defaultAsset(t)
	cells, err := Cells(a, Mechanisms)
	if err != nil {
		t.Fatal(err)
	}
	if r := RecoveryOf(a, cells[0], nil); cells[0].Mech != Baseline || r.Kind != "" || !math.IsNaN(r.Point) {
		t.Errorf("baseline: %+v", r)
	}
	for _, c := range cells[1:] {
		f := a.Header.Presets.Measured[c.Mech][c.Level]
		if f.HeldOut == nil {
			continue
		}
		top := f.HeldOut.Top1
		if f.HeldOut.Bound != "lower" {
			if r := RecoveryOf(a, c, nil); r.Kind != "exact" || r.Point != top.Rate {
				t.Errorf("%s %s: %+v, want exact %v", c.Mech, c.Level, r, top.Rate)
			}
			continue
		}
		if r := RecoveryOf(a, c, nil); r.Kind != "lower" || r.Point != top.Rate || !math.IsInf(r.Hi, 1) {
			t.Errorf("%s %s without a bound: %+v", c.Mech, c.Level, r)
		}
		lo, hi := top.Lo+0.01, top.Rate+0.05
		b := Bound{Asset: AssetID(a), Mechanism: c.Mech, Level: c.Level, Epsilon: c.Eps, Lo: lo, Hi: hi}
		if r := RecoveryOf(a, c, []Bound{b}); r.Kind != "bounded" || r.Lo != lo || r.Hi != hi || r.Point != (lo+hi)/2 {
			t.Errorf("%s %s with a bound: %+v", c.Mech, c.Level, r)
		}
		// Its lower end is the larger of the two lower bounds.
		low := b
		low.Lo = 0
		if r := RecoveryOf(a, c, []Bound{low}); r.Lo != top.Lo {
			t.Errorf("%s %s with a weaker bound: lower end %v, want the facts' %v", c.Mech, c.Level, r.Lo, top.Lo)
		}
		for name, other := range map[string]Bound{"another ε": {Epsilon: c.Eps * 1.01}, "another asset": {Asset: strings.Repeat("0", 64)}} {
			o := b
			if other.Epsilon != 0 {
				o.Epsilon = other.Epsilon
			}
			if other.Asset != "" {
				o.Asset = other.Asset
			}
			if r := RecoveryOf(a, c, []Bound{o}); r.Kind != "lower" {
				t.Errorf("%s %s with a bound of %s: %+v, want the lower bound", c.Mech, c.Level, name, r)
			}
		}
	}
}

// TestSummarizeKeepsTheCurrentCells: only records of the last record's
// configuration, of this asset and of the cell's current ε count, one per
// run, all on the smallest test slice the file holds for the cell.
func TestSummarizeKeepsTheCurrentCells(t *testing.T) {
	a := defaultAsset(t)
	eps, err := mechanism.Preset(a, mechanism.Name1DG, mechanism.LevelStrong)
	if err != nil {
		t.Fatal(err)
	}
	id := AssetID(a)
	rec := func(run int, clean float64, mod func(*Record)) Record {
		r := Record{Kind: "plane", Mechanism: mechanism.Name1DG, Level: mechanism.LevelStrong, Epsilon: eps, Run: run,
			Clean: clean, Privatized: clean - 0.05, Asset: id, Config: "new", TrainReviews: 10, TestReviews: 5}
		if mod != nil {
			mod(&r)
		}
		return r
	}
	recs := []Record{
		rec(0, 0.1, func(r *Record) { r.Config = "old" }),
		rec(0, 0.70, nil),
		rec(0, 0.2, nil), // a second record of run 0: not counted
		rec(1, 0.3, func(r *Record) { r.Asset = "other" }),
		rec(1, 0.4, func(r *Record) { r.Epsilon = eps * 2 }),
		rec(1, 0.80, nil),
		rec(2, 0.75, nil),
		// Runs on larger test slices: the cell has runs on smaller ones,
		// which replace them whole (not one run of either kind).
		rec(3, 0.1, func(r *Record) { r.TestReviews = 10 }),
		rec(0, 0.1, func(r *Record) { r.TestReviews = 10 }),
	}
	cells, config, err := Summarize(recs, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if config != "new" {
		t.Errorf("config %q", config)
	}
	found := false
	for _, c := range cells {
		if c.Mech == mechanism.Name1DG && c.Level == mechanism.LevelStrong {
			found = true
			if c.Clean.Runs != 3 || math.Abs(c.Clean.Mean-0.75) > 1e-12 || math.Abs(c.Privatized.Mean-0.70) > 1e-12 {
				t.Errorf("1dg strong: %+v", c)
			}
		} else if c.Clean.Runs != 0 {
			t.Errorf("%s %s: %d runs, want none", c.Mech, c.Level, c.Clean.Runs)
		}
	}
	if !found {
		t.Error("no 1dg strong cell")
	}
	// The smaller slices win wherever they appear in the file.
	recs = append([]Record{rec(5, 0.9, func(r *Record) { r.TestReviews = 4 }), rec(6, 0.8, func(r *Record) { r.TestReviews = 4 })}, recs...)
	cells, _, err = Summarize(recs, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		if c.Mech == mechanism.Name1DG && c.Level == mechanism.LevelStrong &&
			(c.Clean.Runs != 2 || c.TestReviews != 4 || math.Abs(c.Clean.Mean-0.85) > 1e-12) {
			t.Errorf("1dg strong with runs on 4 reviews: %+v", c)
		}
	}
}

func est(m, h float64) Estimate { return Estimate{Mean: m, Lo: m - h, Hi: m + h, Half: h, Runs: 5} }

func cellAt(mech, level string, rec float64, clean, priv Estimate) CellResult {
	return CellResult{Cell: Cell{Mech: mech, Level: level}, Recovery: Recovery{Point: rec, Kind: "exact"}, Clean: clean, Privatized: priv}
}

func TestVerdicts(t *testing.T) {
	cells := []CellResult{
		cellAt("a", mechanism.LevelStrong, 0.10, est(0.60, 0.01), est(0.55, 0.01)),
		cellAt("b", mechanism.LevelStrong, 0.12, est(0.70, 0.01), est(0.54, 0.02)),
		cellAt("c", mechanism.LevelStrong, 0.30, est(0.80, 0.01), est(0.75, 0.01)),
	}
	got := verdicts(cells, nil)
	for _, want := range []string{
		"clean test: b 70.0 ± 1.0;",                             // c is above the level's protection
		"privatized test: a 55.0 ± 1.0 (not told apart from b)", // overlapping intervals
		"Above the level's protection: c (recovery 0.300, +0.200",
		"**balanced**: not yet measured",
		"the plane is not complete",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("verdicts lack %q:\n%s", want, got)
		}
	}
}

// TestVerdictsTargets: with the asset's top-1 targets, a level's
// protection is its target plus the tolerance, not its lowest recovery:
// two mechanisms 0.06 apart, both within the tolerance of the target,
// are compared, and one beyond it is not.
func TestVerdictsTargets(t *testing.T) {
	cells := []CellResult{
		cellAt("a", mechanism.LevelBalanced, 0.275, est(0.60, 0.01), est(0.55, 0.01)),
		cellAt("b", mechanism.LevelBalanced, 0.325, est(0.70, 0.01), est(0.65, 0.01)),
		cellAt("c", mechanism.LevelBalanced, 0.335, est(0.80, 0.01), est(0.75, 0.01)),
	}
	presets := &wva.Presets{Objective: wva.ObjectiveTop1, Targets: map[string]float64{mechanism.LevelBalanced: 0.30}}
	got := verdicts(cells, presets)
	for _, want := range []string{
		"calibrated to one top-1 recovery target for every mechanism (balanced 0.30)",
		"**balanced** (recovery 0.275–0.330): clean test: b 70.0 ± 1.0;",
		"Above the level's protection: c (recovery 0.335",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("verdicts lack %q:\n%s", want, got)
		}
	}
	// The negative control: without targets, b (0.05 above the lowest)
	// is not at the level's protection.
	if got := verdicts(cells, nil); !strings.Contains(got, "clean test: a 60.0 ± 1.0;") {
		t.Errorf("without targets, a should lead alone:\n%s", got)
	}
}

// TestRecommend: another mechanism replaces the default only if it is at
// every level's protection, among the most accurate there, and more
// accurate than the default somewhere beyond the intervals.
func TestRecommend(t *testing.T) {
	brr, dg := mechanism.NameBRR, mechanism.Name1DG
	plane := func(dgStrongRec, dgStrongPriv float64) []CellResult {
		var cs []CellResult
		for _, l := range study.PresetLevels {
			cs = append(cs, cellAt(brr, l, 0.1, est(0.7, 0.01), est(0.6, 0.01)))
			rec, priv := 0.11, 0.605
			if l == mechanism.LevelStrong {
				rec, priv = dgStrongRec, dgStrongPriv
			}
			cs = append(cs, cellAt(dg, l, rec, est(0.7, 0.01), est(priv, 0.01)))
		}
		return cs
	}
	cases := []struct {
		name  string
		cells []CellResult
		want  string
	}{
		{"tied everywhere", plane(0.11, 0.61), "does not call for another default"},
		{"better at strong", plane(0.11, 0.65), "1dg (more accurate at strong). The plane calls for the default to follow it"},
		{"better only with more recovery", plane(0.30, 0.65), "does not call for another default"},
		{"incomplete", plane(0.11, 0.65)[:4], "not complete"},
	}
	for _, c := range cases {
		var vs []levelVerdict
		for _, l := range study.PresetLevels {
			vs = append(vs, verdictAt(c.cells, l, math.NaN()))
		}
		if got := recommend(vs); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want it to contain %q", c.name, got, c.want)
		}
	}
}

// TestRunResumesAndReports runs the plane on a few made-up reviews with
// 1-DG (cheap), resumes it, and writes the report twice, byte for byte.
func TestRunResumesAndReports(t *testing.T) {
	a := defaultAsset(t)
	r := rand.New(rand.NewPCG(1, 2))
	review := func(label int) imdb.Review {
		var b strings.Builder
		for range 20 {
			w := r.IntN(200)
			if label == 1 {
				w += 200
			}
			b.WriteString(a.Word(w) + " ")
		}
		return imdb.Review{Text: b.String(), Label: label}
	}
	corpus := func(n int) *study.Corpus {
		var rs []imdb.Review
		for i := range n {
			rs = append(rs, review(i%2))
		}
		c, err := study.Encode(rs, a.Lookup, a.Len())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	fc := fasttext.DefaultConfig()
	fc.Buckets, fc.Epochs = 1<<8, 2
	dir := t.TempDir()
	results := filepath.Join(dir, "plane.jsonl")
	cfg := Config{Asset: a, Train: corpus(40), Test: []*study.Corpus{corpus(20), corpus(20)},
		Mechanisms: []string{mechanism.Name1DG}, Seeds: 2, Seed: 3, Classifier: fc, Results: results}
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadRecords(results)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2*4 { // (baseline + 3 levels) × 2 runs
		t.Fatalf("%d records, want 8", len(recs))
	}
	for _, r := range recs {
		if r.Seeds != 2 || r.TrainReviews != 40 || r.TestReviews != 20 || r.Clean <= 0 || r.Privatized <= 0 {
			t.Errorf("record %+v", r)
		}
		if r.Mechanism == Baseline && r.Clean != r.Privatized {
			t.Errorf("baseline: clean %v ≠ privatized %v", r.Clean, r.Privatized)
		}
	}
	// Resumed: nothing to do. Another seed: every cell again.
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if again, _ := ReadRecords(results); len(again) != len(recs) {
		t.Errorf("a rerun added %d records", len(again)-len(recs))
	}
	cfg.Seed = 4
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if again, _ := ReadRecords(results); len(again) != 2*len(recs) {
		t.Errorf("another seed: %d records, want %d", len(again), 2*len(recs))
	}
	// Top-up: a target no interval meets adds runs up to MaxRuns; one
	// every interval meets adds none.
	cfg.Test = append(cfg.Test, corpus(20))
	cfg.Runs, cfg.MaxRuns = 2, 3
	cfg.TargetHalf = 10
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if again, _ := ReadRecords(results); len(again) != 2*len(recs) {
		t.Errorf("a target every cell meets: %d records, want %d", len(again), 2*len(recs))
	}
	cfg.TargetHalf = 1e-9
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	again, _ := ReadRecords(results)
	if len(again) != 2*len(recs)+4 {
		t.Errorf("a target no cell meets: %d records, want %d (run 2 of each cell)", len(again), 2*len(recs)+4)
	}
	for _, r := range again[2*len(recs):] {
		if r.Run != 2 {
			t.Errorf("top-up record of run %d, want 2", r.Run)
		}
	}
	recs = again
	var docs [2][]byte
	for i := range docs {
		out := filepath.Join(dir, "out", string(rune('a'+i)))
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		files, err := Write(recs, a, nil, out)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 3 {
			t.Errorf("wrote %v", files)
		}
		if docs[i], err = os.ReadFile(filepath.Join(out, "PLANE.md")); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(docs[0], docs[1]) {
		t.Error("the report is not deterministic")
	}
	for _, want := range []string{"| 1dg | strong |", "not yet run", " wider than ±1.5 points: "} {
		if !bytes.Contains(docs[0], []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestRunRejects(t *testing.T) {
	a := defaultAsset(t)
	c := &study.Corpus{}
	for name, cfg := range map[string]Config{
		"no asset":      {Train: c, Test: []*study.Corpus{c}},
		"no test":       {Asset: a, Train: c},
		"too many runs": {Asset: a, Train: c, Test: []*study.Corpus{c}, Runs: 2},
		"too many more": {Asset: a, Train: c, Test: []*study.Corpus{c}, Runs: 1, MaxRuns: 2},
		"unknown":       {Asset: a, Train: c, Test: []*study.Corpus{c}, Mechanisms: []string{"nope"}},
	} {
		cfg.Results = filepath.Join(t.TempDir(), "r.jsonl")
		if err := Run(context.Background(), cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
