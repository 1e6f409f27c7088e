package core

import (
	"fmt"
	"testing"
)

// TestSecondOpenSameOutputs: a second open in the process, which shares
// what the first derived from the asset, privatizes exactly as a first open
// on a freshly decoded asset (which builds it all anew) for the same seeded
// source and text, at two ε each, so that sharing cannot depend on ε.
func TestSecondOpenSameOutputs(t *testing.T) {
	const text = "the keyboard sends my private message to the bank tomorrow at noon"
	cases := []struct {
		m   Mechanism
		eps float64
	}{
		{BRR, 0.3}, {BRR, 0.5}, {OneDG, 0.02}, {OneDG, 0.05}, {OneDT, 0.02}, {OneDT, 0.05},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/eps=%g", c.m, c.eps), func(t *testing.T) {
			cfg := Config{Mechanism: c.m, Epsilon: c.eps}
			fresh, err := openWith(cfg, freshDefault)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			warm(t, func() (*Privatizer, error) { return Open(cfg) })
			second, err := Open(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer second.Close()
			var got [2]string
			for i, p := range []*Privatizer{fresh, second} {
				if err := UseEvaluationSeed(p, 26); err != nil {
					t.Fatal(err)
				}
				r, err := p.Privatize(text)
				if err != nil {
					t.Fatal(err)
				}
				got[i] = r.Text
			}
			if got[0] != got[1] {
				t.Errorf("first open %q, second open %q", got[0], got[1])
			}
			if got[0] == text {
				t.Error("the text came through unchanged: the comparison sees nothing")
			}
		})
	}
}
