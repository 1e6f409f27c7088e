package mechanism

import (
	"errors"
	"testing"
)

// TestTEMRefusesUnderflowingWeights: a configuration whose in-ball weights
// could underflow to zero (ε·γ/2 > 700) is refused, not run inexactly.
func TestTEMRefusesUnderflowingWeights(t *testing.T) {
	a := defaultAsset(t)
	if _, err := newTEM(a.TEM, 400, TEMOptions{Gamma: 3.8}); !errors.Is(err, ErrInvalidTEMOptions) {
		t.Fatalf("ε=400, γ=3.8: err = %v", err)
	}
	if _, err := newTEM(a.TEM, 300, TEMOptions{Gamma: 3.8}); err != nil {
		t.Fatalf("ε=300, γ=3.8 (ε·γ/2 = 570): %v", err)
	}
}
