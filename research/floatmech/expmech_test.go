package floatmech

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/mechanism"
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
