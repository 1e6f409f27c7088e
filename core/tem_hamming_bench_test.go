package core_test

import (
	"testing"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/core"
)

// BenchmarkTEMHammingPresets reports ns per word of TEM on Hamming codes at
// its three presets, side by side with BRR (one exact scan per word) and
// 1-DG at the balanced level, over the embedded default asset. Words cycle
// through the vocabulary with a stride so caches see varied inputs.
func BenchmarkTEMHammingPresets(b *testing.B) {
	a, err := assets.Default()
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct{ name, level string }{
		{core.NameTEMHamming, core.LevelStrong},
		{core.NameTEMHamming, core.LevelBalanced},
		{core.NameTEMHamming, core.LevelLight},
		{core.NameBRR, core.LevelBalanced},
		{core.Name1DG, core.LevelBalanced},
	}
	for _, c := range cases {
		eps, err := core.PresetEpsilon(c.name, c.level)
		if err != nil {
			b.Fatal(err)
		}
		m, err := core.NewMechanism(c.name, a, eps, core.MechanismOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/"+c.level, func(b *testing.B) {
			src := core.NewSecureSource()
			b.ReportAllocs()
			w := 0
			for b.Loop() {
				if _, err := m.Privatize(w, src); err != nil {
					b.Fatal(err)
				}
				w = (w + 7919) % m.Len()
			}
		})
	}
}
