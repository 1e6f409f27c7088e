package mechanism

import (
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/stattest"
)

// Test1DTFullWindowDecision: the ⊥ decision prepared once for a whole
// window without excluded positions (fullBottom) is the one Privatize
// would prepare per word: with it disabled (fullOutside −1, so every word
// prepares its own), the same seeds give the same outputs, on the default
// asset's lists unrestricted and over the default outputs, from ε near
// the lists' floor to far above the presets. A control changes the
// prepared decision and must change some outputs.
func Test1DTFullWindowDecision(t *testing.T) {
	a := defaultAsset(t)
	o, err := NewOutputs(a.Len(), assetExclusions(t, a.Len()))
	if err != nil {
		t.Fatal(err)
	}
	words := 4000
	if testing.Short() {
		words = 500
	}
	for _, eps := range []float64{listFloor(a.Len()), 0.05, 1.263, 8} {
		base, err := newDT(a.Lists, eps, TEMOptions{})
		if err != nil {
			t.Fatal(err)
		}
		restricted, err := base.restrict(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []*dtMech{base, restricted.(*dtMech)} {
			slow := *m
			slow.fullOutside = -1
			control := *m
			control.fullBottom = sample.NewLogBernoulli(0) // always ⊥
			same, controlSame := 0, 0
			for w := range words {
				w = w * 7919 % m.n
				seed := stattest.Seed("dtfull")
				got, err1 := m.Privatize(w, rand.NewChaCha8(seed))
				want, err2 := slow.Privatize(w, rand.NewChaCha8(seed))
				ctl, err3 := control.Privatize(w, rand.NewChaCha8(seed))
				if err1 != nil || err2 != nil || err3 != nil {
					t.Fatal(err1, err2, err3)
				}
				if got != want {
					t.Fatalf("ε=%v restricted=%v word %d: %d with the prepared decision, %d without", eps, m.lo != nil, w, got, want)
				}
				if ctl == want {
					controlSame++
				}
				same++
			}
			if m.fullOutside > 0 && m.lo == nil && controlSame == same {
				t.Errorf("ε=%v: the control (a certain ⊥ for whole windows) changed no output in %d words", eps, same)
			}
		}
	}
}
