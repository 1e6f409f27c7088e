package floatmech

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/stattest"
)

// expMechUnderTest is what SynTF and SanText expose of expMech.
type expMechUnderTest interface {
	Privatize(w int, src rand.Source) (int, error)
	PrivatizeBatch(ws []int, out []int, src rand.Source, workers int) error
}

// checkCallErrors: out-of-range words and a nil source are refused with
// -1, and a batch with a bad word or a length mismatch marks every output
// -1. n is the vocabulary size.
func checkCallErrors(t *testing.T, m expMechUnderTest, n int) {
	t.Helper()
	for _, w := range []int{-1, n} {
		if y, err := m.Privatize(w, seeded(1)); !errors.Is(err, mechanism.ErrWordOutOfRange) || y != -1 {
			t.Errorf("w=%d: (%d, %v)", w, y, err)
		}
	}
	if y, err := m.Privatize(0, nil); !errors.Is(err, mechanism.ErrNilSource) || y != -1 {
		t.Errorf("nil source: (%d, %v)", y, err)
	}
	out := []int{5, 5}
	if err := m.PrivatizeBatch([]int{0, n + 99}, out, seeded(1), 1); !errors.Is(err, mechanism.ErrWordOutOfRange) || out[0] != -1 || out[1] != -1 {
		t.Errorf("batch with a bad word: %v, out %v", err, out)
	}
	if err := m.PrivatizeBatch([]int{0}, out, seeded(1), 1); !errors.Is(err, ErrInvalidParameter) || out[0] != -1 {
		t.Errorf("length mismatch: %v, out %v", err, out)
	}
}

// samplerUnderTest is a mechanism whose draws are checked against its law.
type samplerUnderTest interface {
	mechanism.Mechanism
	expMechUnderTest
}

// checkSamplerMatchesLaw draws from m (batch path for every word, single
// path for word w) and compares with the exact law by chi-square; bad (the
// same mechanism with the factor 2 dropped) must be rejected at w. The
// three streams are seeded tag, tag+1 and tag+2.
func checkSamplerMatchesLaw(t *testing.T, m, bad samplerUnderTest, law [][]float64, w int, tag byte) {
	t.Helper()
	draws := auditDraws(t)
	counts := drawCounts(t, m, draws, seeded(tag))
	for v := range counts {
		if stat, df, p := stattest.ChiSquare(counts[v], law[v]); p < stattest.FalseFailureRate {
			t.Errorf("batch w=%d: χ² = %.1f (df %d), p = %.3g", v, stat, df, p)
		}
	}
	single, err := stattest.SampleCounts(m, w, singleDraws(t), seeded(tag+1))
	if err != nil {
		t.Fatal(err)
	}
	if stat, df, p := stattest.ChiSquare(single, law[w]); p < stattest.FalseFailureRate {
		t.Errorf("single w=%d: χ² = %.1f (df %d), p = %.3g", w, stat, df, p)
	}
	badCounts, err := stattest.SampleCounts(bad, w, singleDraws(t), seeded(tag+2))
	if err != nil {
		t.Fatal(err)
	}
	stat, df, p := stattest.ChiSquare(badCounts, law[w])
	if !(p < stattest.FalseFailureRate) {
		t.Errorf("the factor-2-dropped sampler passed: χ² = %.1f (df %d), p = %.3g", stat, df, p)
	}
	t.Logf("negative control rejected: χ² = %.1f (df %d), p = %.3g", stat, df, p)
}

// checkBatchMatchesSingle: PrivatizeBatch with any worker count gives the
// draws Privatize gives one by one from the same seeded stream.
func checkBatchMatchesSingle(t *testing.T, m expMechUnderTest, ws []int, tag byte) {
	t.Helper()
	want := make([]int, len(ws))
	src := seeded(tag)
	for i, w := range ws {
		var err error
		if want[i], err = m.Privatize(w, src); err != nil {
			t.Fatal(err)
		}
	}
	for _, workers := range []int{1, 2, 3, 5, 0} {
		out := make([]int, len(ws))
		if err := m.PrivatizeBatch(ws, out, seeded(tag), workers); err != nil {
			t.Fatal(err)
		}
		for i := range out {
			if out[i] != want[i] {
				t.Fatalf("workers=%d: batch[%d] = %d, single = %d", workers, i, out[i], want[i])
			}
		}
	}
}
