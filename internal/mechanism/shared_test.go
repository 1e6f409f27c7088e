package mechanism

import (
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// Two mechanisms New builds on the same asset share what depends on the
// asset alone (the default output vocabulary, BRR's index over it, 1-DG's
// and 1-DT's positions of it), and release exactly what a mechanism built
// without sharing releases for the same seeded source and input, with the
// same P_avg. The negative control: a mechanism restricted to an equal but
// separately built output vocabulary shares nothing, so the identity checks
// can tell sharing from not sharing.
func TestNewSharesPerAsset(t *testing.T) {
	a := defaultAsset(t)
	o1, err := DefaultOutputs(a)
	if err != nil {
		t.Fatal(err)
	}
	if o2, _ := DefaultOutputs(a); o2 != o1 || o1 == nil {
		t.Fatalf("DefaultOutputs built twice (%p, %p) or nil", o1, o2)
	}
	// own is the same vocabulary built anew: equal, not shared.
	own, err := buildDefaultOutputs(a)
	if err != nil {
		t.Fatal(err)
	}
	if own == o1 || own.fp != o1.fp {
		t.Fatal("buildDefaultOutputs should build an equal vocabulary anew")
	}
	idx, err := hamming.NewIndex(a.Codes)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		eps  [2]float64 // two ε: sharing must not depend on it
		// unshared builds the mechanism with the exported constructors.
		unshared func(eps float64) (Mechanism, error)
		// part is what must be shared (pointer identity).
		part func(m Mechanism) any
		// words is how many words the seeded comparison privatizes (0:
		// 2000; TEM on the codes costs a histogram of the whole
		// vocabulary per word).
		words int
	}{
		{NameBRR, [2]float64{0.5, 0.8},
			func(eps float64) (Mechanism, error) { return NewBRR(idx, eps) },
			func(m Mechanism) any { return m.(*brrMech).out }, 0},
		{Name1DG, [2]float64{0.02, 0.05},
			func(eps float64) (Mechanism, error) { return NewDiffractorGeometric(a.Lists, eps) },
			func(m Mechanism) any { return m.(*dgMech).lo }, 0},
		{Name1DT, [2]float64{0.02, 0.05},
			func(eps float64) (Mechanism, error) { return NewDiffractorTEM(a.Lists, eps, TEMOptions{}) },
			func(m Mechanism) any { return m.(*dtMech).lo }, 0},
		{NameTEMHamming, [2]float64{0.1416, 0.1656},
			func(eps float64) (Mechanism, error) { return NewTEMHamming(idx, eps, TEMOptions{}) },
			func(m Mechanism) any { return m.(*temHammingMech).out }, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m1, err := New(c.name, a, c.eps[0], Options{Outputs: o1})
			if err != nil {
				t.Fatal(err)
			}
			m2, err := New(c.name, a, c.eps[1], Options{Outputs: o1})
			if err != nil {
				t.Fatal(err)
			}
			if c.part(m1) != c.part(m2) {
				t.Error("two mechanisms on the same asset and default outputs do not share their restriction")
			}
			mOwn, err := New(c.name, a, c.eps[0], Options{Outputs: own})
			if err != nil {
				t.Fatal(err)
			}
			if c.part(mOwn) == c.part(m1) {
				t.Error("negative control: a separately built output vocabulary shares the restriction")
			}
			base, err := c.unshared(c.eps[0])
			if err != nil {
				t.Fatal(err)
			}
			if base, err = Restrict(base, own); err != nil {
				t.Fatal(err)
			}
			p1, _ := MeanDistance(m1)
			p2, _ := MeanDistance(m2)
			pb, _ := MeanDistance(base)
			if p1 != pb || p2 != pb {
				t.Errorf("P_avg %v, %v shared, %v unshared", p1, p2, pb)
			}
			if mParams(m1) != mParams(base) {
				t.Errorf("Params %q shared, %q unshared", mParams(m1), mParams(base))
			}
			srcShared := seeded.Key(stattest.Seed("shared-" + c.name))
			srcBase := seeded.Key(stattest.Seed("shared-" + c.name))
			n := a.Len()
			words := c.words
			if words == 0 {
				words = 2000
			}
			for i := range words {
				w := (i * 7919) % n // spread over the ids, frequent words first
				y1, err1 := m1.Privatize(w, srcShared)
				y2, err2 := base.Privatize(w, srcBase)
				if err1 != nil || err2 != nil || y1 != y2 {
					t.Fatalf("word %d: shared %d (%v), unshared %d (%v)", w, y1, err1, y2, err2)
				}
			}
		})
	}
}

// mParams is m's Params for a comparison ("" if it has none).
func mParams(m Mechanism) string {
	if f, ok := m.(Facts); ok {
		return f.Params()
	}
	return ""
}
