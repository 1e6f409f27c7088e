package dpexact

import (
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/sample"
)

// SyntheticCodes returns n codes of L bits (0 < L ≤ 64), seeded by label:
// a tight cluster around one centre (distances 0, 1, 2, including an exact
// duplicate), the rest uniformly random. Varied local density is what
// makes TEM's ball sizes differ between words. The audit and the
// mechanisms' tests both run on these vocabularies.
func SyntheticCodes(n, L int, label string) []uint64 {
	src := labelSource(label)
	mask := uint64(1)<<L - 1
	low := make([]uint64, n)
	centre := src.Uint64() & mask
	cluster := []uint64{centre, centre, centre ^ 1, centre ^ 2, centre ^ 3, centre ^ 4}
	for i := range low {
		if i < len(cluster) {
			low[i] = cluster[i]
		} else {
			low[i] = src.Uint64() & mask
		}
	}
	return low
}

// SyntheticOrder returns a uniformly random order of the words [0, n)
// (Fisher–Yates with a bias-free index), seeded by label: a 1-Diffractor
// list for the audits.
func SyntheticOrder(n int, label string) []uint32 {
	src := labelSource(label)
	order := make([]uint32, n)
	for i := range order {
		order[i] = uint32(i)
	}
	for i := n - 1; i > 0; i-- {
		j := sample.UniformInt(src, i+1)
		order[i], order[j] = order[j], order[i]
	}
	return order
}

// labelSource is the seeded ChaCha8 stream a label names: the label's
// bytes, zero-padded to 32, are the seed.
func labelSource(label string) *rand.ChaCha8 {
	var s [32]byte
	copy(s[:], label)
	return rand.NewChaCha8(s)
}
