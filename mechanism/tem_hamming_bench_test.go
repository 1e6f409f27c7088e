package mechanism_test

import (
	"testing"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/mechanism"
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
		{mechanism.NameTEMHamming, mechanism.LevelStrong},
		{mechanism.NameTEMHamming, mechanism.LevelBalanced},
		{mechanism.NameTEMHamming, mechanism.LevelLight},
		{mechanism.NameBRR, mechanism.LevelBalanced},
		{mechanism.Name1DG, mechanism.LevelBalanced},
	}
	for _, c := range cases {
		eps, err := mechanism.Preset(a, c.name, c.level)
		if err != nil {
			b.Fatal(err)
		}
		m, err := mechanism.New(c.name, a, eps, mechanism.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/"+c.level, func(b *testing.B) {
			src := mechanism.NewSecureSource()
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
