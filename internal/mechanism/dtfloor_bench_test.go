package mechanism

import (
	"testing"

	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// Benchmark1DTRange: 1-DT's per-word cost at its ε floor, at the
// balanced preset and at the largest accepted ε, on the default asset
// (the floor must stay within 10x the preset: issue 39).
func Benchmark1DTRange(b *testing.B) {
	a := defaultAsset(b)
	src := seeded.Key(stattest.Seed("1dt-range"))
	n := a.Len()
	bal, _ := Preset(a, Name1DT, LevelBalanced)
	for _, c := range []struct {
		name string
		eps  float64
	}{
		{"floor", listFloor(n)},
		{"balanced", bal},
		{"max", MaxEpsilon},
	} {
		m, err := newDT(a.Lists, c.eps, TEMOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) { benchPrivatize(b, m, src) })
	}
}
