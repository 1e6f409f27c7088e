package core

import (
	"errors"
	"testing"

	"github.com/wordveil/wordveil/binaryembed/wva"
)

func TestNewMechanism(t *testing.T) {
	a := defaultAsset(t)
	for name, eps := range map[string]float64{NameBRR: 0.5, NameTEMHamming: 0.2, NameTEM: 9, Name1DG: 0.5, Name1DT: 1} {
		m, err := NewMechanism(name, a, eps)
		if err != nil || m.Epsilon() != eps || m.Len() != a.Len() {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := NewMechanism("vickrey", a, 1); !errors.Is(err, ErrUnknownMechanism) {
		t.Errorf("unknown name: %v", err)
	}
	noTEM := &wva.Asset{Words: a.Words, Codes: a.Codes, Lists: a.Lists}
	if _, err := NewMechanism(NameTEM, noTEM, 9); !errors.Is(err, ErrNoTEMLists) {
		t.Errorf("asset without TEM lists: %v", err)
	}
	if _, err := NewMechanism(NameBRR, a, -1); !errors.Is(err, ErrInvalidEpsilon) {
		t.Errorf("ε = -1: %v", err)
	}
}
