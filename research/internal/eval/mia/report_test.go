package mia

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/wva"
)

// TestSummarize: a cell's runs are the records of the last configuration
// at the cell's current preset; others (another ε, another configuration,
// a repeated run) are not counted, and cells without runs are reported as
// not yet run.
func TestSummarize(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	cells, err := Cells(a, Mechanisms, Shadows)
	if err != nil {
		t.Fatal(err)
	}
	const cfg = "c1"
	rec := func(c Cell, run int, auc, se float64) Record {
		return Record{Kind: "mia", Mechanism: c.Mech, Level: c.Level, Shadow: c.Shadow, Epsilon: c.Eps, Run: run,
			AUC: auc, SE: se, Lo: auc - z975*se, Hi: auc + z975*se, Members: 10, NonMembers: 10,
			Fingerprint: c.fingerprint(cfg), Config: cfg}
	}
	base, one := cells[0], cells[1]
	stale := one
	stale.Eps *= 2 // a record at an ε that is no longer the preset
	old := rec(one, 0, 0.9, 0.01)
	old.Config, old.Fingerprint = "c0", one.fingerprint("c0")
	recs := []Record{
		old,
		rec(base, 0, 0.70, 0.01),
		rec(base, 1, 0.74, 0.01),
		rec(base, 1, 0.99, 0.01), // the same run again: not counted twice
		rec(stale, 0, 0.8, 0.01),
		rec(one, 0, 0.55, 0.02),
	}
	got, config, err := Summarize(recs, a)
	if err != nil {
		t.Fatal(err)
	}
	if config != cfg {
		t.Errorf("configuration %q, want the last record's %q", config, cfg)
	}
	if g := got[0]; g.Runs != 2 || math.Abs(g.AUC-0.72) > 1e-12 {
		t.Errorf("baseline: %d runs, AUC %v; want 2 runs, 0.72", g.Runs, g.AUC)
	} else {
		// (mean SE)² + between-run variance / runs.
		h := z975 * math.Sqrt(0.01*0.01+0.0008/2)
		if math.Abs(g.Lo-(0.72-h)) > 1e-12 || math.Abs(g.Hi-(0.72+h)) > 1e-12 {
			t.Errorf("baseline interval [%v, %v], want 0.72 ± %v", g.Lo, g.Hi, h)
		}
	}
	if g := got[1]; g.Runs != 1 || g.AUC != 0.55 || math.Abs(g.Lo-(0.55-z975*0.02)) > 1e-12 {
		t.Errorf("%s %s %s: %+v, want the one current run", one.Mech, one.Level, one.Shadow, g)
	}
	for _, g := range got[2:] {
		if g.Runs != 0 {
			t.Errorf("%s %s %s: %d runs, want none", g.Mech, g.Level, g.Shadow, g.Runs)
		}
	}
	doc, err := Report(recs, a, Ratios{"euclidean": 7, "hamming": 140})
	if err != nil {
		t.Fatal(err)
	}
	brr := fmt.Sprintf("| brr | strong | %.4g | %.3g | 0.550 [", one.Eps, one.Eps*20)
	for _, want := range []string{"| none (baseline) | — | — | — | 0.720 [", brr, "not yet run", "Configuration c1: 10 reviews per set.", "0 of the 1 privatized cells measured"} {
		if !strings.Contains(doc, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if empty, _ := Report(nil, a, nil); !strings.Contains(empty, "No results yet.") {
		t.Error("an empty results file: want \"No results yet.\"")
	}
}

func TestCellsRejectUnknownShadow(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Cells(a, Mechanisms, []string{"oracle"}); err == nil {
		t.Error("unknown shadow: want an error")
	}
	if _, err := Cells(a, []string{"nope"}, Shadows); err == nil {
		t.Error("unknown mechanism: want an error")
	}
}
