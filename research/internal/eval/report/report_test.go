package report

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/research/internal/eval/study"
)

func TestMeanCI(t *testing.T) {
	m, lo, hi := MeanCI([]float64{1, 2, 3, 4, 5})
	// sd = √2.5, t(0.975, 4) = 2.7764451
	h := 2.7764451 * math.Sqrt(2.5) / math.Sqrt(5)
	if m != 3 || math.Abs(lo-(3-h)) > 1e-6 || math.Abs(hi-(3+h)) > 1e-6 {
		t.Errorf("MeanCI = %v [%v, %v], want 3 ± %v", m, lo, hi, h)
	}
	if m, lo, hi := MeanCI([]float64{0.7}); m != 0.7 || lo != 0.7 || hi != 0.7 {
		t.Errorf("one value: %v %v %v", m, lo, hi)
	}
	if m, _, _ := MeanCI(nil); !math.IsNaN(m) {
		t.Errorf("no values: %v", m)
	}
}

func writeRecords(t *testing.T, path string, recs []any) {
	t.Helper()
	var b strings.Builder
	for _, r := range recs {
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results.jsonl")
	two, five := 2.0, 5.0
	recs := []any{
		study.Record{Kind: "accuracy", Mechanism: "madlib", EpsIndex: 0, Epsilon: 2, Matched: &two, Run: 0, Accuracy: 0.9, Fingerprint: "old"},
		study.Record{Kind: "ratio", Metric: "euclidean", Avg: 7.3, AvgLo: 7.2, AvgHi: 7.4, Max: 18.5, Fingerprint: "f"},
		study.Record{Kind: "baseline", Run: 0, Accuracy: 0.88, Fingerprint: "f"},
		study.Record{Kind: "baseline", Run: 1, Accuracy: 0.86, Fingerprint: "f"},
	}
	for run := range 3 {
		for e, eps := range []*float64{&two, &five} {
			recs = append(recs,
				study.Record{Kind: "accuracy", Mechanism: "tem", Family: "euclidean", EpsIndex: e, Epsilon: *eps, Matched: eps, Run: run, Accuracy: 0.6 + 0.1*float64(e) + 0.01*float64(run), Fingerprint: "f"},
				study.Record{Kind: "accuracy", Mechanism: "madlib", Family: "euclidean", EpsIndex: e, Epsilon: *eps, Matched: eps, Run: run, Accuracy: 0.5 + 0.01*float64(run), Draws: 100, PoolK: 8, Fingerprint: "f"},
				study.Record{Kind: "accuracy", Mechanism: "tem-pool", Family: "euclidean", EpsIndex: e, Epsilon: *eps, Matched: eps, Run: run, Accuracy: 0.6, Fingerprint: "f"},
				study.Record{Kind: "accuracy", Mechanism: "trlaplace", Family: "dp", EpsIndex: e, Epsilon: *eps / 10, Run: run, Accuracy: 0.5, Fingerprint: "f"},
			)
		}
	}
	recs = append(recs, study.Record{Kind: "deniability", Mechanism: "tem", EpsIndex: 1, NW: 0.25, SW: 40, Fingerprint: "f"})
	writeRecords(t, res, recs)
	emp := filepath.Join(dir, "empirical.jsonl")
	writeRecords(t, emp, []any{
		study.EmpiricalRecord{Kind: "point", Mechanism: "madlib", Epsilon: 2},
		study.EmpiricalRecord{Kind: "point", Mechanism: "madlib", Epsilon: 5},
		study.EmpiricalRecord{Kind: "algorithm2", Mechanism: "vickrey", Epsilon: 4, Params: map[string]float64{"t": 0.5}, Chosen: true},
	})
	out := filepath.Join(dir, "out")
	files, err := Write(res, emp, out, []Extra{{Label: "extra", Path: res}, {Label: "none", Path: filepath.Join(dir, "absent.jsonl")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, want := range []string{"fig-tem-madlib.png", "fig-pool.svg", "fig-plane.png", "fig-trlaplace.png", "fig-empirical.png", "RESULTS.md"} {
		if _, err := os.Stat(filepath.Join(out, want)); err != nil {
			t.Errorf("missing %s", want)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "RESULTS.md"))
	for _, want := range []string{"**87.0%**", "| 5 | 5.000 | 71.0% |", "0.250", "100 (K=8)", "**chosen**", "## Additional runs", "| extra | `results.jsonl` | TEM (Euclidean) | 5 | 71.0%"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("RESULTS.md lacks %q:\n%s", want, md)
		}
	}
	// The record of the old configuration is not mixed in.
	s, err := Load(res)
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Cells["madlib"][0]; c.Runs != 3 || math.Abs(c.Mean-0.51) > 1e-12 {
		t.Errorf("madlib ε#0: %+v", c)
	}
	if _, err := Load(filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Error("no results: no error")
	}
}
