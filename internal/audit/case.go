package audit

import (
	"strings"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// Case is one entry of the audit's case table: a mechanism's exact law
// on a small vocabulary, the metric of its guarantee and ε. Run audits
// every case (Case.Audit); package mechanism's tests take the same table
// (Cases) to check each sampler against its law. There is one table.
type Case struct {
	// Name, Control, Eps and Vocabulary are as in Result.
	Name       string
	Control    bool
	Eps        float64
	Vocabulary string
	// Mech is the mechanism, built by package mechanism (restricted to
	// its output vocabulary where the case has one), whose exact law is
	// P; nil when only a law is audited: the negative controls and
	// expected violations, and the research module's float-vector
	// mechanisms, which this module does not import.
	Mech mechanism.Mechanism
	// P is the exact law P[w][y], computed by package dpexact from the
	// definition, not by the sampler; D is the metric of the guarantee.
	// Both are nil for a check of CusText's sets, which audits the sets
	// themselves (see custext.go).
	P, D [][]float64

	sets *setsCheck
}

// setsCheck is a case that re-derives CusText sets instead of checking a
// law: the listed groups of a.CusText against the greedy construction.
type setsCheck struct {
	a      *wva.Asset
	groups []int
}

// MinTightness is the one "not vacuous" rule, the same for every
// mechanism: a real case must use at least this share of its guarantee
// (Report.Tightness), or its pass proves little. Randomized response and
// the geometric attain their bound (tightness 1); the exponential
// mechanisms (TEM, 1-DT, SanText, SanText+, CusText, CusText+, SynTF)
// provably reach ε·d/2 from the numerator alone (P(w|w)/P(w|w') ≥
// e^(ε·d/2)·Z_w'/Z_w), the normalizers supplying the rest only in extreme
// configurations; 0.45 leaves room for rounding below that half. A tiny
// vocabulary can make a case vacuous by construction (over A with one
// allowed output, every law is constant), so Run reports vacuity in the
// Status and Vacuous rather than failing the case; the tests require no
// vacuous case at the default size.
const MinTightness = 0.45

// Vacuous reports whether r is a real mechanism's case that uses less
// than MinTightness of its guarantee.
func (r Result) Vacuous() bool {
	return !r.Control && r.Report.Invalid == "" && r.Report.Tightness < MinTightness
}

// Family is the mechanism's name without its parameters and variants:
// the Name up to its first space or comma ("TEM over A γ=3" → "TEM").
func (c Case) Family() string {
	f, _, _ := strings.Cut(c.Name, " ")
	f, _, _ = strings.Cut(f, ",")
	return f
}

// Audit checks the case: its law against ε·D at Tolerance (or its sets
// against the construction), with the verdict for a real mechanism or a
// control, and the tightness rule.
func (c Case) Audit() Result {
	if c.sets != nil {
		return c.sets.audit(c)
	}
	r := Result{Mechanism: c.Name, Control: c.Control, Eps: c.Eps, Vocabulary: c.Vocabulary, N: len(c.P), Report: check(c.P, c.D, c.Eps)}
	switch {
	case !c.Control && r.Report.Pass() && r.Vacuous():
		r.OK, r.Status = true, "PASS (vacuous: tightness < "+FormatFloat(MinTightness)+")"
	case !c.Control && r.Report.Pass():
		r.OK, r.Status = true, "PASS"
	case !c.Control:
		r.Status = "FAIL"
	case r.Report.Invalid == "" && r.Report.Excess > Tolerance:
		r.OK, r.Status = true, "expected violation: caught"
	default:
		r.Status = "expected violation: NOT CAUGHT"
	}
	return r
}

// Cases is the audit's case table for a and opts: every case Run
// audits, in Run's order (negative controls last), with the same errors.
func Cases(a *wva.Asset, opts Options) ([]Case, error) {
	t, err := run(a, opts)
	return t.cases, err
}
