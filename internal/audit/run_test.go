package audit

import (
	"strings"
	"testing"

	"github.com/wordveil/wordveil/assets"
)

func TestRunDefaultAsset(t *testing.T) {
	a, err := assets.Default()
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
		// Not vacuous: randomized response and the geometric attain their
		// bound; the exponential mechanisms reach at least ε·d/2.
		if !r.Control && r.Report.Tightness < 0.45 {
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
	a, err := assets.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{2, 3, 7, 100, MaxWords} {
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
