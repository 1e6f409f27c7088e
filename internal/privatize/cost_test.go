package privatize

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestCost: Cost is Privatize's accounting for each on-device mechanism
// (package core's tests cover every mechanism and policy), and a nil,
// zero or closed Privatizer fails as Privatize does.
func TestCost(t *testing.T) {
	a := defaultAsset(t)
	texts := []string{"I'm sure y'all don't want a well-known e-mail.", "In 1990 I paid 42 at alice@example.com 🎉", " \t", "\xff-\xfe"}
	for _, nm := range fullAssetMechanisms(t) {
		p, err := New(nm.m, a, Options{})
		if err != nil {
			t.Fatal(err)
		}
		src := rand.NewPCG(28, 3)
		for _, text := range texts {
			got, err := p.Cost(text)
			if err != nil {
				t.Fatalf("%s: Cost(%q): %v", nm.name, text, err)
			}
			res, err := p.Privatize(text, src)
			if err != nil {
				t.Fatal(err)
			}
			g, w := got, res.Accounting
			// The floats bit for bit (NaN's too: the same computation),
			// then every other field.
			for _, f := range [][2]*float64{{&g.UnitFree, &w.UnitFree}, {&g.PAvg, &w.PAvg}, {&g.TotalEpsilon, &w.TotalEpsilon}} {
				if math.Float64bits(*f[0]) != math.Float64bits(*f[1]) {
					t.Errorf("%s: Cost(%q): %v, Privatize's %v", nm.name, text, *f[0], *f[1])
				}
				*f[0], *f[1] = 0, 0
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s: Cost(%q) = %+v, Privatize's accounting %+v", nm.name, text, g, w)
			}
		}
	}

	var nilP *Privatizer
	closed, err := New(fullAssetMechanisms(t)[0].m, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	for _, c := range []struct {
		name string
		p    *Privatizer
		text string
		want error
	}{
		{"nil", nilP, "x", ErrInvalid},
		{"zero", &Privatizer{}, "x", ErrInvalid},
		{"closed", closed, "x", ErrClosed},
	} {
		if acc, err := c.p.Cost(c.text); !reflect.DeepEqual(acc, Accounting{}) || !errors.Is(err, c.want) {
			t.Errorf("%s: Cost = %v, %v; want nil and %v", c.name, acc, err, c.want)
		}
		if res, err := c.p.Privatize(c.text, rand.NewPCG(1, 1)); res != nil || !errors.Is(err, c.want) {
			t.Errorf("%s: Privatize = %v, %v; want nil and %v", c.name, res, err, c.want)
		}
	}
}
