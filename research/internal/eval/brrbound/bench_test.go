package brrbound

import (
	"math"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// BenchmarkTight: draws of Tight on the embedded asset, a prior of token
// counts (Zipf, floored: ties in the tail, as in a text) over the 40,000
// most frequent words, at strong.
func BenchmarkTight(b *testing.B) {
	a, err := wva.Default()
	if err != nil {
		b.Fatal(err)
	}
	eps, err := mechanism.Preset(a, mechanism.NameBRR, mechanism.LevelStrong)
	if err != nil {
		b.Fatal(err)
	}
	prior := make([]float64, a.Len())
	for i := range 40000 {
		prior[i] = math.Floor(40000 / float64(i+1)) // token counts: ties in the tail
	}
	s := Setup{Codes: a.Codes, Epsilon: eps, Prior: prior}
	b.ResetTimer()
	for range b.N {
		if _, err := Tight(s, TightConfig{Draws: 2 * TightChunk, Delta: 0.025, Tau: 1e-3, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
