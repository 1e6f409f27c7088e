package privatize

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// FuzzCost: for arbitrary text, Cost's count ends where pass 1 (scan)
// ends the text, and Cost's accounting is Privatize's, float bits and
// all (or its error is Privatize's), for every on-device mechanism, each
// numbers policy, word classes, and an asset with clitics and numbers.
func FuzzCost(f *testing.F) {
	for i, s := range textSeeds {
		f.Add(s, uint8(i))
	}
	f.Add("", uint8(1))
	a := defaultAsset(f)
	sa := syntheticAsset(f)
	sdg, err := mechanism.NewDiffractorGeometric(sa.Lists, 0.3)
	if err != nil {
		f.Fatal(err)
	}
	var ps []*Privatizer
	add := func(p *Privatizer, err error) {
		if err != nil {
			f.Fatal(err)
		}
		ps = append(ps, p)
	}
	for _, nm := range fullAssetMechanisms(f) {
		add(New(nm.m, a, Options{}))
		add(New(nm.m, a, Options{Numbers: NumbersReplace, OOV: OOVPlaceholder, PrivatizePunctuation: true}))
	}
	add(New(sdg, sa, Options{}))
	add(New(sdg, sa, Options{Numbers: NumbersReplace}))
	add(NewWithClasses(base1DG(f, a, 1), a, Classes{RareRank: 1000, Rare: 0.5, Capitalized: 0.5, Number: 2}, mechanism.Options{}, Options{}))
	src := seeded.Key(stattest.Seed("fuzz-cost"))
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		p := ps[int(which)%len(ps)]
		got, err := p.Cost(s)
		res, perr := p.Privatize(s, src)
		if err != nil || perr != nil {
			if !reflect.DeepEqual(got, Accounting{}) || res != nil || !sameErr(err, perr) {
				t.Fatalf("Cost(%q) = %v, %v; Privatize's error %v", s, got, err, perr)
			}
			return
		}
		sc, err := p.scan(context.Background(), []string{s})
		if err != nil {
			t.Fatal(err)
		}
		if c := p.count(s); c != sc.ends[0] {
			t.Errorf("count(%q) = %+v, pass 1 ends at %+v", s, c, sc.ends[0])
		}
		sc.release()
		g, w := got, res.Accounting
		for _, fl := range [][2]*float64{{&g.UnitFree, &w.UnitFree}, {&g.PAvg, &w.PAvg}, {&g.TotalEpsilon, &w.TotalEpsilon}} {
			if math.Float64bits(*fl[0]) != math.Float64bits(*fl[1]) {
				t.Errorf("Cost(%q): %v, Privatize's %v", s, *fl[0], *fl[1])
			}
			*fl[0], *fl[1] = 0, 0
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("Cost(%q) = %+v, Privatize's accounting %+v", s, g, w)
		}
	})
}

// sameErr: both errors are the same sentinel among Privatize's.
func sameErr(a, b error) bool {
	for _, e := range []error{ErrEmptyText, ErrTextTooLarge, ErrClosed, ErrInvalid} {
		if errors.Is(a, e) || errors.Is(b, e) {
			return errors.Is(a, e) && errors.Is(b, e)
		}
	}
	return false
}
