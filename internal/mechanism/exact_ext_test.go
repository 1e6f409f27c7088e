package mechanism_test

// Exact-distribution tests: each mechanism's exact law (package dpexact,
// computed from the definitions, not from the samplers) satisfies metric
// DP and uses its guarantee, each sampler draws from its law, and the
// negative controls (known-bad variants) are caught. The cases are the
// audit's table (internal/audit.Cases, the one `wordveil audit` runs); the
// fixtures of the controls come from package mechanism's test files
// through export_test.go.

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"testing"

	"github.com/wordveil/wordveil/internal/audit"
	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
)

// tolerance absorbs floating-point rounding in the metric-DP check.
const tolerance = 1e-9

// lawFor returns a helper that unwraps a dpexact law, failing t on error.
func lawFor(t *testing.T) func([][]float64, error) [][]float64 {
	return func(P [][]float64, err error) [][]float64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return P
	}
}

func check(t *testing.T, P, d [][]float64, eps float64) dpexact.Report {
	t.Helper()
	r, err := dpexact.Check(P, d, eps, tolerance)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// auditCases is the audit's case table (package internal/audit, the one
// `wordveil audit` runs) on the default asset at the default size.
func auditCases(t *testing.T) []audit.Case {
	t.Helper()
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	cases, err := audit.Cases(a, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestAuditExact: every case of the audit's table passes: each
// mechanism's exact law satisfies ln P(y|w) − ln P(y|w') ≤ ε·d(w,w') for
// all pairs and outputs and is not vacuous (audit.MinTightness, the one
// tightness rule, for every mechanism); each control is caught. Every
// on-device family has cases with its mechanism, plain and restricted.
func TestAuditExact(t *testing.T) {
	families := map[string]int{}
	for _, c := range auditCases(t) {
		r := c.Audit()
		if !r.OK || r.Vacuous() {
			t.Errorf("%s on %s: %s (tightness %v; %v)", c.Name, c.Vocabulary, r.Status, r.Report.Tightness, r.Report)
		}
		if c.Mech == nil {
			continue
		}
		families[c.Family()]++
		if c.Mech.Epsilon() != c.Eps || c.Mech.Len() != len(c.P) {
			t.Errorf("%s: mechanism reports ε=%v N=%d, case has ε=%v N=%d", c.Name, c.Mech.Epsilon(), c.Mech.Len(), c.Eps, len(c.P))
		}
	}
	for _, f := range []string{"BRR", "TEMHamming", "TEM", "1-DG", "1-DT", "SanText", "SanText+", "CusText", "CusText+"} {
		if families[f] < 2 {
			t.Errorf("%s: %d cases with its mechanism, want plain and restricted", f, families[f])
		}
	}
}

// TestSamplerMatchesExact: each sampler's output frequencies agree with
// its exact law in the audit's table (chi-square at
// stattest.FalseFailureRate, seeded evaluation source). Power: 10000
// draws per word (the -short size) reject a law with 0.02 of its mass
// moved between two outputs of probability 0.1 with probability 0.997
// (internal/stattest's TestChiSquarePower); the full size, 40000, detects
// half that shift. -short also tests two input words per case, the first
// and the last (the full size adds the second and the middle one). Negative
// control: TestChiSquareCatchesLowestIndexTies.
func TestSamplerMatchesExact(t *testing.T) {
	draws, words := 40000, func(n int) []int { return []int{0, 1, n / 2, n - 1} }
	if testing.Short() {
		draws, words = 10000, func(n int) []int { return []int{0, n - 1} }
	}
	for i, c := range auditCases(t) {
		if c.Mech == nil {
			continue
		}
		// The seed spells the case's index: a seed label keeps 32 bytes,
		// too few for the case's name.
		t.Run(c.Name+" ε="+audit.FormatFloat(c.Eps)+"/"+c.Vocabulary, func(t *testing.T) {
			src := seeded.Key(mechanism.SeedForTest("chi2/case " + strconv.Itoa(i)))
			n := len(c.P)
			for _, w := range words(n) {
				counts, err := mechanism.SampleCountsForTest(c.Mech, w, draws, src)
				if err != nil {
					t.Fatal(err)
				}
				stat, df, p := mechanism.ChiSquareForTest(counts, c.P[w])
				if p < mechanism.FalseFailureRateForTest {
					t.Errorf("w=%d: chi2=%.1f df=%d p=%.3g < %g", w, stat, df, p, mechanism.FalseFailureRateForTest)
				}
			}
		})
	}
}

// Mechanisms are shared across goroutines, each with its own source (run
// with -race): pooled buffers must not leak between calls, and every
// output has positive exact probability.
func TestConcurrentUse(t *testing.T) {
	for i, c := range auditCases(t) {
		if c.Mech == nil {
			continue
		}
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for g := range 4 {
			wg.Go(func() {
				src := seeded.Key(mechanism.SeedForTest("concurrent/" + strconv.Itoa(i) + "/" + strconv.Itoa(g)))
				for k := range 200 {
					w := k % c.Mech.Len()
					y, err := c.Mech.Privatize(w, src)
					if err != nil {
						errs <- err
						return
					}
					if c.P[w][y] == 0 {
						errs <- fmt.Errorf("output %d for %d has exact probability 0", y, w)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("%s on %s: %v", c.Name, c.Vocabulary, err)
		}
	}
}

// --- negative controls: known-bad mechanisms the audit must catch ---

// A Vickrey-style selection over W \ {w} (renormalized without the input).
func TestAuditCatchesInputExclusion(t *testing.T) {
	dist, auditD := mechanism.AssetSubsetMetricsForTest(t)
	low, _ := mechanism.SyntheticCodesForTest(16, 10, "brr")
	for _, c := range []struct {
		name string
		P    func() ([][]float64, error)
		d    [][]float64
		eps  float64
	}{
		{"BRR", func() ([][]float64, error) { return dpexact.BRR(low, 10, 0.6) }, dpexact.HammingDistances(low), 0.6},
		{"TEM/asset", func() ([][]float64, error) { return dpexact.TEM(dist, 3, 1) }, auditD, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			law := lawFor(t)
			P := law(c.P())
			if r := check(t, P, c.d, c.eps); !r.Holds() {
				t.Fatalf("the correct law fails: %+v", r)
			}
			r := check(t, law(dpexact.ExcludeInput(P)), c.d, c.eps)
			if r.Holds() {
				t.Fatal("audit accepted a mechanism that never outputs its input")
			}
			if !math.IsInf(r.LnRatio, 1) {
				t.Errorf("expected an unbounded ratio, got %+v", r)
			}
		})
	}
}

// TEM with the reference code's ⊥ score ln(N/|L_w|) instead of ln(N−|L_w|).
func TestAuditCatchesBottomScoreBug(t *testing.T) {
	dist, auditD := mechanism.AssetSubsetMetricsForTest(t)
	low, _ := mechanism.SyntheticCodesForTest(20, 10, "temh")
	hd := dpexact.HammingDistances(low)
	for _, c := range []struct {
		name       string
		d, auditD  [][]float64
		eps, gamma float64
	}{
		{"TEM/asset", dist, auditD, 1, 3},
		{"TEMHamming", hd, hd, 0.5, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			law := lawFor(t)
			if r := check(t, law(dpexact.TEM(c.d, c.gamma, c.eps)), c.auditD, c.eps); !r.Holds() {
				t.Fatalf("correct TEM fails the audit: %+v", r)
			}
			r := check(t, law(dpexact.TEMBottomScoreBug(c.d, c.gamma, c.eps)), c.auditD, c.eps)
			if r.Holds() {
				t.Fatal("audit accepted TEM with ⊥ score ln(N/|L_w|)")
			}
			t.Logf("caught: %+v", r)
		})
	}
}

// TEM whose L_w is the k nearest words (a top-k neighbour list) instead of
// the γ-ball.
func TestAuditCatchesTopKList(t *testing.T) {
	low, _ := mechanism.SyntheticCodesForTest(20, 10, "temh")
	d := dpexact.HammingDistances(low)
	const eps, gamma = 0.5, 4.0
	law := lawFor(t)
	if r := check(t, law(dpexact.TEM(d, gamma, eps)), d, eps); !r.Holds() {
		t.Fatalf("correct TEM fails the audit: %+v", r)
	}
	for _, k := range []int{1, 3, 8} {
		r := check(t, law(dpexact.TEMTopK(d, k, gamma, eps)), d, eps)
		if r.Holds() {
			t.Errorf("k=%d: audit accepted TEM over a top-k list", k)
			continue
		}
		t.Logf("k=%d caught: %+v", k, r)
	}
}

// BRR with lowest-index tie-breaking is still DP (a deterministic
// tie-break is post-processing) but biased towards low ids (frequent
// words); the sampler-vs-exact chi-square test must catch it.
func TestChiSquareCatchesLowestIndexTies(t *testing.T) {
	low, codes := mechanism.SyntheticCodesForTest(16, 10, "brr")
	const eps = 0.3
	b, err := mechanism.NewBRR(mechanism.NewIndexForTest(t, codes), eps)
	if err != nil {
		t.Fatal(err)
	}
	mechanism.SetLowestIndexTiesForTest(b)
	law := lawFor(t)
	exact := law(dpexact.BRR(low, 10, eps))
	src := seeded.Key(mechanism.SeedForTest("ties"))
	counts, err := mechanism.SampleCountsForTest(b, 3, 40000, src)
	if err != nil {
		t.Fatal(err)
	}
	stat, df, p := mechanism.ChiSquareForTest(counts, exact[3])
	if p >= mechanism.FalseFailureRateForTest {
		t.Fatalf("lowest-index tie-breaking not detected: chi2=%.1f df=%d p=%.3g", stat, df, p)
	}
	// And the biased sampler does match the biased law, so the detection
	// is about ties, not something else.
	counts, err = mechanism.SampleCountsForTest(b, 3, 40000, src)
	if err != nil {
		t.Fatal(err)
	}
	biased := law(dpexact.BRRLowestIndexTies(low, 10, eps))
	if stat, df, p := mechanism.ChiSquareForTest(counts, biased[3]); p < mechanism.FalseFailureRateForTest {
		t.Fatalf("biased sampler does not match the biased law: chi2=%.1f df=%d p=%.3g", stat, df, p)
	}
}
