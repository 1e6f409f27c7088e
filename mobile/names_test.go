package mobile

import (
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
)

// TestMechanismNamesAndEpsilonFloor: every name the binding accepts (those
// mechanism.New builds) opens, the "+" variants, which publish some words
// unchanged by construction, are WV_INVALID_ARGUMENT, and so is an ε below
// the mechanism's floor, as the main ε or a class ε, down to the smallest
// float64.
func TestMechanismNamesAndEpsilonFloor(t *testing.T) {
	for _, name := range mechanism.Names() {
		cfg := NewConfig()
		cfg.Mechanism = name
		if name == mechanism.NameTEM {
			cfg.Epsilon = 10 // no preset; γ must fit the lists' γ_max
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
			c.Mechanism, c.Epsilon, c.RareEpsilon, c.RareRank = name, cfg.Epsilon, tiny, 1000
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
