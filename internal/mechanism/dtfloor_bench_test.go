package mechanism

import (
	"testing"

	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// Benchmark1DTRange: 1-DT's per-word cost at its ε floor, on the way up,
// at the balanced preset and at the largest accepted ε, on the default
// asset, without and with its default output vocabulary (as package core
// runs it); the floor must stay within 10x the preset (issue 39).
func Benchmark1DTRange(b *testing.B) {
	a := defaultAsset(b)
	src := seeded.Key(stattest.Seed("1dt-range"))
	n := a.Len()
	bal, _ := Preset(a, Name1DT, LevelBalanced)
	o, err := DefaultOutputs(a)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		eps  float64
	}{
		{"floor", listFloor(n)},
		{"eps=1e-4", 1e-4},
		{"eps=0.003", 0.003},
		{"balanced", bal},
		{"max", MaxEpsilon},
	} {
		m, err := newDT(a.Lists, c.eps, TEMOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) { benchPrivatize(b, m, src) })
		r, err := New(Name1DT, a, c.eps, Options{Outputs: o, AllowSaturated: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/over-A", func(b *testing.B) { benchPrivatize(b, r, src) })
	}
}
