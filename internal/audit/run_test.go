package audit

import (
	"math"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/wva"
)

func TestRunDefaultAsset(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Run(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	controls := 0
	for _, r := range tab.Results {
		t.Logf("%-50s ε=%-4s %-40s %-10s %s", r.Mechanism, FormatFloat(r.Eps), r.Vocabulary, FormatFloat(r.Report.Excess), r.Status)
		if r.Control {
			controls++
		}
		if !r.OK {
			t.Errorf("%s on %s: %s (%v)", r.Mechanism, r.Vocabulary, r.Status, r.Report)
		}
		// Not vacuous (MinTightness, the one rule for every mechanism).
		if r.Vacuous() {
			t.Errorf("%s on %s: tightness %v: the case does not exercise the guarantee", r.Mechanism, r.Vocabulary, r.Report.Tightness)
		}
	}
	if controls < 5 || len(tab.Skipped) != 0 || !tab.OK() {
		t.Errorf("controls=%d skipped=%v ok=%v", controls, tab.Skipped, tab.OK())
	}
	// Every unrestricted case has its restricted twin, and the re-draw
	// controls are caught with a clear margin.
	restricted, plain, redraw := 0, 0, 0
	for _, r := range tab.Results {
		switch {
		case r.Control && strings.Contains(r.Mechanism, "re-draw"):
			redraw++
			if r.Report.Excess < 1 {
				t.Errorf("%s: excess %v, want ≥ 1", r.Mechanism, r.Report.Excess)
			}
		case r.Control:
		case strings.HasPrefix(r.Vocabulary, floatVocab): // no output vocabulary: no twin
		case strings.HasSuffix(r.Vocabulary, excludedNote):
			restricted++
		default:
			plain++
		}
	}
	if restricted != plain || redraw != 2 {
		t.Errorf("%d restricted cases for %d unrestricted, %d re-draw controls", restricted, plain, redraw)
	}
}

func TestRunSizes(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	sizes := []int{2, 3, 7, 100, MaxWords}
	if testing.Short() {
		// The check is cubic in K: MaxWords alone costs minutes under
		// -race, 100 half a minute; the default size is TestRunDefaultAsset's.
		sizes = sizes[:3]
	}
	for _, k := range sizes {
		tab, err := Run(a, Options{Words: k})
		if err != nil {
			t.Fatalf("words=%d: %v", k, err)
		}
		for _, r := range tab.Failures() {
			t.Errorf("words=%d: %s on %s: %s (%v)", k, r.Mechanism, r.Vocabulary, r.Status, r.Report)
		}
	}
	for _, k := range []int{-1, 1, MaxWords + 1} {
		if _, err := Run(a, Options{Words: k}); err == nil {
			t.Errorf("words=%d accepted", k)
		}
	}
	tab, err := Run(nil, Options{})
	if err != nil || !tab.OK() {
		t.Fatalf("synthetic only: ok=%v err=%v", tab.OK(), err)
	}
}

// The tightness rule has teeth: a law that ignores its input (uniform,
// tightness 0) passes the inequality but is reported vacuous, and so is
// randomized response using 0.4 of its ε; at 0.5 it is not vacuous.
func TestVacuousRule(t *testing.T) {
	d := [][]float64{{0, 1}, {1, 0}}
	uniform := Case{Name: "uniform", Eps: 1, P: [][]float64{{0.5, 0.5}, {0.5, 0.5}}, D: d}
	r := uniform.Audit()
	if !r.OK || !r.Vacuous() || !strings.Contains(r.Status, "vacuous") {
		t.Errorf("uniform law: ok=%v vacuous=%v status %q", r.OK, r.Vacuous(), r.Status)
	}
	for _, c := range []struct {
		share   float64
		vacuous bool
	}{{0.4, true}, {0.5, false}} {
		e := math.Exp(c.share) // randomized response on two words at ε = share, audited at 1
		rr := Case{Name: "rr", Eps: 1, P: [][]float64{{e / (1 + e), 1 / (1 + e)}, {1 / (1 + e), e / (1 + e)}}, D: d}
		if r := rr.Audit(); !r.OK || r.Vacuous() != c.vacuous || (r.Status == "PASS") == c.vacuous {
			t.Errorf("randomized response at tightness %v: vacuous=%v, status %q", r.Report.Tightness, r.Vacuous(), r.Status)
		}
	}
	// A control is never vacuous: the rule is for real mechanisms.
	uniform.Control = true
	if r := uniform.Audit(); r.Vacuous() || r.OK {
		t.Errorf("uniform law as a control: %+v", r)
	}
}

// Cases is Run's table: one case per result, in the same order, every
// real on-device case with the mechanism whose law it audits.
func TestCasesAreRunsTable(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	cases, err := Cases(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Run(a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != len(tab.Results) {
		t.Fatalf("%d cases, %d results", len(cases), len(tab.Results))
	}
	families := map[string]int{}
	for i, c := range cases {
		if r := c.Audit(); r.Mechanism != tab.Results[i].Mechanism || r.Status != tab.Results[i].Status {
			t.Errorf("case %d: %s %s, result %s %s", i, r.Mechanism, r.Status, tab.Results[i].Mechanism, tab.Results[i].Status)
		}
		if c.Mech != nil {
			families[c.Family()]++
			if c.Control || c.Mech.Len() != len(c.P) || c.Mech.Epsilon() != c.Eps {
				t.Errorf("%s: mechanism ε=%v N=%d, case ε=%v N=%d control=%v", c.Name, c.Mech.Epsilon(), c.Mech.Len(), c.Eps, len(c.P), c.Control)
			}
		}
	}
	for _, f := range []string{"BRR", "TEMHamming", "TEM", "1-DG", "1-DT", "SanText", "SanText+", "CusText", "CusText+"} {
		if families[f] < 2 {
			t.Errorf("%s: %d cases with a mechanism, want at least 2 (plain and over A)", f, families[f])
		}
	}
}
