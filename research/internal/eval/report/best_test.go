package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/research/internal/eval/privacy"
	"github.com/wordveil/wordveil/research/internal/eval/study"
)

// cell is a test cell at N_w nw with accuracy mean ± h.
func cell(m string, e int, nw, mean, h float64) Cell {
	return Cell{Mechanism: m, EpsIndex: e, Epsilon: float64(e + 1), NW: nw, Mean: mean, Lo: mean - h, Hi: mean + h, Runs: 5, Matched: math.NaN(), SW: math.NaN()}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestBestInterpolate(t *testing.T) {
	cells := []Cell{
		cell("m", 2, 0.40, 0.80, 0.01),
		cell("m", 0, 0.05, 0.55, 0.05), // out of grid order: sorted by N_w
		cell("m", 1, 0.20, 0.70, 0.03),
		{Mechanism: "m", EpsIndex: 3, NW: math.NaN(), Mean: 0.9}, // no N_w: ignored
	}
	for _, tc := range []struct {
		name                  string
		x                     float64
		mean, lo, hi          float64
		reached, below        bool
		fromNW, toNW, weightB float64
	}{
		{"bracketed, midway", 0.30, 0.75, 0.75 - 0.02, 0.75 + 0.02, true, false, 0.20, 0.40, 0.5},
		{"bracketed, a third", 0.10, 0.55 + 0.15/3, 0.50 + (0.67-0.50)/3, 0.60 + (0.73-0.60)/3, true, false, 0.05, 0.20, 1.0 / 3},
		{"on a cell", 0.20, 0.70, 0.67, 0.73, true, false, 0.20, 0.20, 0},
		{"lowest cell", 0.05, 0.55, 0.50, 0.60, true, false, 0.05, 0.05, 0},
		{"below range: never as private", 0.01, 0.55, 0.50, 0.60, false, true, 0.05, 0.05, 0},
		{"above range: not reached", 0.60, 0.80, 0.79, 0.81, false, false, 0.40, 0.40, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := interpolate(cells, tc.x)
			if !ok {
				t.Fatal("no point")
			}
			if !near(p.Mean, tc.mean) || !near(p.Lo, tc.lo) || !near(p.Hi, tc.hi) {
				t.Errorf("got %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]", p.Mean, p.Lo, p.Hi, tc.mean, tc.lo, tc.hi)
			}
			if p.Reached != tc.reached || p.Below != tc.below {
				t.Errorf("reached %v below %v", p.Reached, p.Below)
			}
			if p.a.NW != tc.fromNW || p.b.NW != tc.toNW || !near(p.w, tc.weightB) {
				t.Errorf("read from %v–%v weight %v", p.a.NW, p.b.NW, p.w)
			}
			if p.Reached && !near(p.NW, tc.x) {
				t.Errorf("read at N_w %v, want %v", p.NW, tc.x)
			}
		})
	}
	if _, ok := interpolate(cells[3:], 0.2); ok {
		t.Error("no measured cell: a point")
	}
	if _, ok := interpolate(nil, 0.2); ok {
		t.Error("no cell: a point")
	}
}

// planeStudy is a study with two candidates near N_w = 0.25 and four
// other mechanisms of known standing there.
func planeStudy() *Study {
	s := &Study{Cells: map[string][]Cell{}}
	add := func(m string, cs ...Cell) {
		s.Order = append(s.Order, m)
		s.Cells[m] = cs
	}
	good := cell("cand:good", 1, 0.26, 0.72, 0.01)
	good.ByRun = map[int]float64{0: 0.71, 1: 0.72, 2: 0.73}
	add("cand:good", cell("cand:good", 0, 0.10, 0.60, 0.01), good)
	add("cand:worse", cell("cand:worse", 0, 0.25, 0.65, 0.01))
	add("cand:off", cell("cand:off", 0, 0.30, 0.95, 0.01)) // not at the level
	// Below, well apart: at 0.26 it reads 0.64 ± 0.02.
	low0, low1 := cell("low", 0, 0.16, 0.60, 0.02), cell("low", 1, 0.36, 0.68, 0.02)
	low0.ByRun = map[int]float64{0: 0.58, 1: 0.60, 2: 0.62}
	low1.ByRun = map[int]float64{0: 0.66, 1: 0.68, 2: 0.70}
	add("low", low0, low1)
	// Below on means, CIs overlap: 0.71 ± 0.03 at 0.26.
	add("close", cell("close", 0, 0.26, 0.71, 0.03))
	// Never as private: its most private cell has N_w 0.5.
	add("coarse", cell("coarse", 0, 0.50, 0.90, 0.01))
	// Not monotone: its cell at 0.2 (0.70) beats the interpolation at
	// 0.26 (0.62), and is what the candidate is compared with.
	add("bumpy", cell("bumpy", 0, 0.20, 0.70, 0.005), cell("bumpy", 1, 0.30, 0.58, 0.005))
	return s
}

func TestBestVerdicts(t *testing.T) {
	s := planeStudy()
	l := s.bestAt(0.25)
	if l.Cand == nil || l.Cand.Mechanism != "cand:good" {
		t.Fatalf("best %+v, want cand:good (cand:worse is worse, cand:off is at another level)", l.Cand)
	}
	if len(l.Also) != 1 || l.Also[0].Mechanism != "cand:worse" {
		t.Errorf("other candidates %+v", l.Also)
	}
	if l.X != 0.26 {
		t.Errorf("others read at %v, want the candidate's own N_w 0.26", l.X)
	}
	want := map[string]struct{ comparable, byMean, separated bool }{
		"low":    {true, true, true},
		"close":  {true, true, false},
		"coarse": {false, false, false},
		"bumpy":  {true, true, true},
	}
	for _, o := range l.Others {
		w, ok := want[o.Mechanism]
		if !ok {
			t.Errorf("%s compared: candidates are not compared with candidates", o.Mechanism)
			continue
		}
		delete(want, o.Mechanism)
		if o.Comparable != w.comparable || o.ByMean != w.byMean || o.Separated != w.separated {
			t.Errorf("%s: comparable %v, by mean %v, separated %v; want %+v", o.Mechanism, o.Comparable, o.ByMean, o.Separated, w)
		}
		if o.Mechanism == "bumpy" && (!o.At.Lower || o.At.Mean != 0.70) {
			t.Errorf("bumpy read %+v, want its cell at N_w 0.2", o.At)
		}
		if o.Mechanism == "low" {
			// Runs 0–2 pair: the candidate's 0.71, 0.72, 0.73 against
			// low read halfway between its cells (0.62, 0.64, 0.66).
			if o.DiffRuns != 3 || !near(o.Diff, 0.08) || !(o.DiffLo < o.Diff && o.Diff < o.DiffHi) {
				t.Errorf("paired difference %v [%v, %v] over %d runs, want 0.08 over 3", o.Diff, o.DiffLo, o.DiffHi, o.DiffRuns)
			}
		} else if o.DiffRuns != 0 || !math.IsNaN(o.Diff) {
			t.Errorf("%s: paired difference %v over %d runs without runs to pair", o.Mechanism, o.Diff, o.DiffRuns)
		}
	}
	if len(want) > 0 {
		t.Errorf("not compared: %v", want)
	}
	if leads, beaten := l.Leads(); !leads || len(beaten) > 0 {
		t.Errorf("leads %v, beaten by %v", leads, beaten)
	}

	// Negative control: a mechanism better at the same N_w must be
	// reported as beating the candidate, on means and in the text.
	s.Order = append(s.Order, "strong")
	s.Cells["strong"] = []Cell{cell("strong", 0, 0.20, 0.74, 0.01), cell("strong", 1, 0.30, 0.78, 0.01)}
	l = s.bestAt(0.25)
	leads, beaten := l.Leads()
	if leads || !slices.Equal(beaten, []string{"strong"}) {
		t.Errorf("leads %v, beaten by %v; want beaten by strong", leads, beaten)
	}
	md := bestSection(s)
	level := md[strings.Index(md, "### N_w ≈ 0.25"):strings.Index(md, "### N_w ≈ 0.5")]
	if !strings.Contains(level, "does not lead (beaten on means by strong)") || strings.Contains(level, "It leads every") {
		t.Errorf("the section does not say the candidate is beaten:\n%s", md)
	}

	// A level no candidate reaches, and one where the best candidate is
	// the only cell.
	if l := s.bestAt(0.5); l.Cand != nil {
		t.Errorf("N_w 0.5: candidate %+v", l.Cand)
	}
	if l := s.bestAt(0.1); l.Cand == nil || l.Cand.Mechanism != "cand:good" || l.X != 0.1 {
		t.Errorf("N_w 0.1: %+v at %v", l.Cand, l.X)
	}
}

func TestBestSection(t *testing.T) {
	s := planeStudy()
	md := bestSection(s)
	for _, want := range []string{
		"## Best on-device configuration at N_w ≈ 0.1, 0.25, 0.5",
		"Best candidate: **candidate: good** (`cand:good`",
		"It leads every other mechanism on means; it is CI-separated from 2 of the 3 mechanisms",
		"| bumpy | 70.0% | 69.5%–70.5% | its best cell at a lower N_w (0.200) | yes | yes | — |",
		"| low | 64.0% | 62.0%–66.0% | interpolated, N_w 0.160–0.360 | yes | yes | +8.0 (",
		"| close | 71.0% | 68.0%–74.0% | cell at N_w 0.260 | yes | no | — |",
		"| coarse | 90.0% | 89.0%–91.0% | never as private (nearest cell N_w 0.500) | no | no | — |",
		"| candidate: worse | 1 | 0.250 | — | 65.0% |",
		"No candidate reached N_w = 0.5",
		"**Summary.** At N_w ≈ 0.1 the best",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("section lacks %q:\n%s", want, md)
		}
	}
	if md := bestSection(&Study{Cells: map[string][]Cell{}}); !strings.Contains(md, "No candidate configuration") {
		t.Errorf("no candidates: %s", md)
	}
}

func TestLoadKeepsEachMechanismsLastConfiguration(t *testing.T) {
	recs := []study.Record{
		{Kind: "accuracy", Mechanism: "a", Run: 0, Accuracy: 0.1, Fingerprint: "a1"},
		{Kind: "accuracy", Mechanism: "b", Run: 0, Accuracy: 0.2, Fingerprint: "b1"},
		{Kind: "deniability", Mechanism: "a", NW: 0.3, Fingerprint: "a1"},
		{Kind: "accuracy", Mechanism: "a", Run: 0, Accuracy: 0.4, Fingerprint: "a2"},
		{Kind: "accuracy", Mechanism: "a", Run: 1, Accuracy: 0.5, Fingerprint: "a1"}, // a stale writer
		{Kind: "accuracy", Mechanism: "a", Run: 1, Accuracy: 0.6, Fingerprint: "a2"},
		{Kind: "baseline", Run: 0, Accuracy: 0.8, Fingerprint: "b1"},
	}
	got := study.Current(recs)
	want := []study.Record{recs[1], recs[2], recs[3], recs[5], recs[6]}
	if !slices.EqualFunc(got, want, func(a, b study.Record) bool { return a == b }) {
		t.Errorf("kept %+v,\nwant b's, a's deniability (its only one), a's a2 runs and the baseline", got)
	}
	// Load: a's cell takes the a2 runs, and not a1's N_w.
	path := filepath.Join(t.TempDir(), "r.jsonl")
	anys := make([]any, len(recs))
	for i, r := range recs {
		anys[i] = r
	}
	writeRecords(t, path, anys)
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	a := s.Cells["a"][0]
	if a.Runs != 2 || !near(a.Mean, 0.5) || a.Fingerprint != "a2" || !math.IsNaN(a.NW) || a.ByRun[1] != 0.6 {
		t.Errorf("cell a: %+v", a)
	}
	if b := s.Cells["b"][0]; b.Runs != 1 || b.Mean != 0.2 {
		t.Errorf("cell b: %+v", b)
	}
	// Negative control: with a's N_w of its current configuration, it is
	// attached.
	writeRecords(t, path, append(anys, study.Record{Kind: "deniability", Mechanism: "a", NW: 0.35, Fingerprint: "a2"}))
	if s, err = Load(path); err != nil {
		t.Fatal(err)
	}
	if nw := s.Cells["a"][0].NW; nw != 0.35 {
		t.Errorf("a's N_w %v, want 0.35", nw)
	}
}

func TestWriteCandidateFigures(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results.jsonl")
	var recs []any
	for run := range 3 {
		for e, nw := range []float64{0.1, 0.25, 0.5} {
			for i, m := range []string{"cand:1dt-1", "cand:brr", "brr-avg", "tem-hamming"} {
				acc := 0.55 + 0.3*nw + 0.01*float64(i) + 0.002*float64(run)
				recs = append(recs, study.Record{Kind: "accuracy", Mechanism: m, EpsIndex: e, Epsilon: float64(e + 1), Run: run, Accuracy: acc, Fingerprint: m})
				if run == 0 {
					recs = append(recs, study.Record{Kind: "deniability", Mechanism: m, EpsIndex: e, NW: nw + 0.001*float64(i), Fingerprint: m})
				}
			}
		}
	}
	writeRecords(t, res, recs)
	emp := filepath.Join(dir, "empirical.jsonl")
	writeRecords(t, emp, []any{
		study.EmpiricalRecord{Kind: "point", Mechanism: "tem-hamming", Epsilon: 1},
		study.EmpiricalRecord{Kind: "point", Mechanism: "tem-hamming", Epsilon: 2},
	})
	out := filepath.Join(dir, "out")
	if _, err := Write(res, emp, out, nil); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"fig-plane.png", "fig-candidates.svg", "fig-plane-inference.png"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "RESULTS.md"))
	for _, want := range []string{"## Best on-device configuration", "Best candidate: **candidate: BRR** (`cand:brr`", "| TEM (Hamming) |", "does not lead (beaten on means by BRR (P_avg-matched); TEM (Hamming))"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("RESULTS.md lacks %q", want)
		}
	}
	s, err := Load(res)
	if err != nil {
		t.Fatal(err)
	}
	best := s.bestSeries()
	if len(best) != 1 || best[0].Name != "best: BRR" || len(best[0].X) != 3 {
		t.Errorf("best series %+v", best)
	}
	// Without a new mechanism in the empirical records, no inference plane.
	if sr := s.inferencePlane([]study.EmpiricalRecord{{Kind: "point", Mechanism: "madlib", Epsilon: 1}}); sr != nil {
		t.Errorf("inference plane without new mechanisms: %+v", sr)
	}
	if sr := s.inferencePlane([]study.EmpiricalRecord{{Kind: "point", Mechanism: "tem-hamming", Epsilon: 2, Empirical: privacy.Empirical{InferenceError: 0.3}}}); len(sr) != 1 || sr[0].X[0] != 0.3 {
		t.Errorf("inference plane %+v", sr)
	}
}

func TestBestPlaneSplitsWhenCrowded(t *testing.T) {
	s := planeStudy()
	for i := range s.Cells["low"] {
		s.Cells["low"][i].Family = "hamming"
	}
	groups, cands := s.planeGroups()
	if len(groups) != 1 || len(groups[0]) != 5 || len(cands) != 1 || len(cands[0]) != 3 {
		t.Fatalf("few mechanisms: %d groups (first %d series), %d candidates; want 1 group of 4 + the best marker, 3 candidates", len(groups), len(groups[0]), len(cands))
	}
	if last := groups[0][len(groups[0])-1]; last.Name != "best: good" || len(last.X) != 2 {
		t.Errorf("best marker %+v", last)
	}
	// 16 more mechanisms, half on-device: two figures, each with the
	// marker, none holding more series than the plot tells apart.
	for i := range 16 {
		m := fmt.Sprintf("m%02d", i)
		c := cell(m, 0, 0.3, 0.6, 0.01)
		c.Family = "euclidean"
		if i%2 == 0 {
			c.Family = "list"
		}
		s.Order = append(s.Order, m)
		s.Cells[m] = []Cell{c}
	}
	groups, _ = s.planeGroups()
	if len(groups) != 2 {
		t.Fatalf("crowded plane: %d groups", len(groups))
	}
	for i, g := range groups {
		if len(g) > planeStyles || g[len(g)-1].Name != "best: good" {
			t.Errorf("group %d: %d series, last %q", i, len(g), g[len(g)-1].Name)
		}
	}
	if n := len(groups[0]) + len(groups[1]); n != 4+16+2 {
		t.Errorf("%d series in all, want every mechanism once and the marker twice", n)
	}
	// Candidates: the study's 15 split into plain and restricted outputs.
	for i, c := range study.Candidates {
		m := study.CandidatePrefix + c.Name
		s.Order = append(s.Order, m)
		s.Cells[m] = []Cell{cell(m, 0, 0.1, 0.6+0.001*float64(i), 0.01)}
	}
	_, cands = s.planeGroups()
	if len(study.Candidates) > planeStyles && len(cands) != 2 {
		t.Fatalf("%d candidates in %d figures", len(study.Candidates), len(cands))
	}
	n := 0
	for _, g := range cands {
		n += len(g)
		if len(g) > planeStyles {
			t.Errorf("a candidate figure with %d series", len(g))
		}
	}
	if n != len(study.Candidates)+3 {
		t.Errorf("%d candidate series, want %d", n, len(study.Candidates)+3)
	}
}
