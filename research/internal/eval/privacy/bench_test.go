package privacy

import (
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
)

// BenchmarkHammingRatio50k: exact P_avg and P_max of 50k uniform random
// 256-bit codes (≈1.25e9 pair distances).
func BenchmarkHammingRatio50k(b *testing.B) {
	r := rand.New(seeded(9))
	cs := make([]hamming.Code, 50000)
	for i := range cs {
		cs[i] = hamming.Code{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
	}
	for b.Loop() {
		if _, err := HammingRatio(cs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEuclideanRatio50k: 50k vectors of dimension 100 with decaying
// per-dimension variance and lognormal(0, 0.3) norms (embedding-like), exact
// diameter and P_avg from 1e6 sampled pairs.
func BenchmarkEuclideanRatio50k(b *testing.B) {
	v := randomVectors(rand.New(seeded(10)), 50000, 100, true)
	for b.Loop() {
		if _, err := EuclideanRatio(v, 100, 1_000_000, seeded(11)); err != nil {
			b.Fatal(err)
		}
	}
}
