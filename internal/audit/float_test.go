package audit

import (
	"math"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
)

// The float cases: SynTF passes both of its guarantees at every audited
// ε and uses at least half of each; its law without the factor 1/2 and
// the truncated Gumbel mechanism's claim are caught, the claim with an
// unbounded ratio (a word it never releases).
func TestRunFloatCases(t *testing.T) {
	tab, err := Run(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, r := range tab.Results {
		if !strings.HasPrefix(r.Vocabulary, floatVocab) {
			continue
		}
		t.Logf("%-70s ε=%-4s %-50s %-8s tightness %-6s %s", r.Mechanism, FormatFloat(r.Eps), r.Vocabulary, FormatFloat(r.Report.Excess), FormatFloat(r.Report.Tightness), r.Status)
		switch {
		case r.Mechanism == "SynTF":
			counts["syntf"]++
			if r.Control || r.Status != "PASS" || r.Report.Tightness < 0.5 || r.N != 16 {
				t.Errorf("SynTF ε=%v on %s: %s, tightness %v", r.Eps, r.Vocabulary, r.Status, r.Report.Tightness)
			}
		case strings.HasPrefix(r.Mechanism, "claim: truncated Gumbel"):
			counts["truncgumbel"]++
			if !r.Control || r.Status != "expected violation: caught" || !math.IsInf(r.Report.Excess, 1) || !strings.HasSuffix(r.Vocabulary, ": Euclidean") {
				t.Errorf("truncated Gumbel ε=%v: %s, excess %v", r.Eps, r.Status, r.Report.Excess)
			}
		case strings.HasPrefix(r.Mechanism, "control: SynTF"):
			counts["nohalf"]++
			// A clear margin, not rounding: at least a tenth of ε.
			if !r.Control || !r.OK || r.Report.Excess < r.Eps/10 {
				t.Errorf("SynTF without 1/2 ε=%v: %s, excess %v", r.Eps, r.Status, r.Report.Excess)
			}
		default:
			t.Errorf("unexpected float case %q", r.Mechanism)
		}
	}
	if counts["syntf"] != 2*len(floatEpsilons) || counts["truncgumbel"] != len(truncGumbelEpsilons) || counts["nohalf"] != len(floatEpsilons) {
		t.Errorf("float cases: %v", counts)
	}
	if !tab.OK() {
		t.Errorf("the audit does not pass: %v", tab.Failures())
	}
}

// The truncated Gumbel row's verdict comes from the law: audited as a
// real mechanism (not an expected violation) it fails, so `wordveil
// audit` passes only because the claim is labelled as not holding.
func TestTruncGumbelClaimWouldFail(t *testing.T) {
	var tab Table
	if err := floatCases(&tab); err != nil {
		t.Fatal(err)
	}
	for i, r := range tab.Results {
		if !strings.HasPrefix(r.Mechanism, "claim: truncated Gumbel") {
			continue
		}
		var real Table
		vs, _, _, euclid, err := floatMetrics()
		if err != nil {
			t.Fatal(err)
		}
		P, err := dpexact.TruncGumbel(vs, r.Eps)
		real.add("truncated Gumbel as a real mechanism", false, r.Eps, r.Vocabulary, P, err, euclid)
		if len(real.Results) != 1 || real.Results[0].Status != "FAIL" || real.OK() {
			t.Errorf("row %d: the truncated Gumbel law passed as a real mechanism: %+v", i, real.Results)
		}
	}
}
