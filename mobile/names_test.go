package mobile

import (
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
)

// TestMechanismNamesAndEpsilonFloor: every name the binding accepts (those
// the product offers) opens, the "+" variants, which publish some words
// unchanged by construction, are WV_INVALID_ARGUMENT, and so is an ε below
// the mechanism's floor, as the main ε or a class ε, down to the smallest
// float64.
func TestMechanismNamesAndEpsilonFloor(t *testing.T) {
	for _, name := range mechanism.Offered() {
		cfg := NewConfig()
		cfg.Mechanism = name
		if name == "custext" {
			cfg.Preset = "light" // its only level on the default asset
		}
		p, err := OpenPrivatizer(cfg)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if _, err := p.Privatize("the cat sat on the mat"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		for _, tiny := range []float64{1e-16, 1e-17, 1e-20, 1e-300, 5e-324} {
			c := NewConfig()
			c.Mechanism, c.Epsilon = name, tiny
			_, err := OpenPrivatizer(c)
			wantCode(t, name+" at a tiny ε", err, CodeInvalidArgument)
			c = NewConfig()
			c.Mechanism, c.Epsilon, c.RareEpsilon, c.RareRank, c.Preset = name, cfg.Epsilon, tiny, 1000, cfg.Preset
			_, err = OpenPrivatizer(c)
			wantCode(t, name+" at a tiny rare-class ε", err, CodeInvalidArgument)
		}
	}
	for _, name := range []string{"santext+", "custext+"} {
		for _, eps := range []float64{0, 1} {
			cfg := NewConfig()
			cfg.Mechanism, cfg.Epsilon = name, eps
			p, err := OpenPrivatizer(cfg)
			wantCode(t, name, err, CodeInvalidArgument)
			if p != nil {
				t.Errorf("%s: a privatizer was returned", name)
			}
		}
	}
}

// TestTEMNotOffered: "tem", TEM over the asset's Euclidean lists, is
// WV_INVALID_ARGUMENT at any ε, and the message names 1-DT, the device's
// TEM over precomputed neighbour lists. The binding's API is unchanged:
// Config.Mechanism is a string, and this is one value it refuses.
func TestTEMNotOffered(t *testing.T) {
	for _, eps := range []float64{0, 1, 10, 1e6} {
		cfg := NewConfig()
		cfg.Mechanism, cfg.Epsilon, cfg.AllowSaturatedEpsilon = "tem", eps, eps == 1e6
		p, err := OpenPrivatizer(cfg)
		wantCode(t, "tem", err, CodeInvalidArgument)
		if p != nil {
			t.Errorf("tem at ε %v: a privatizer was returned", eps)
		}
		if err != nil && !strings.Contains(err.Error(), "is not offered") || err != nil && !strings.Contains(err.Error(), "use 1dt (TEM over 1-Diffractor's precomputed lists)") {
			t.Errorf("tem at ε %v: %v", eps, err)
		}
	}
}
