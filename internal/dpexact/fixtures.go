package dpexact

import (
	"math"
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

// SyntheticVectors returns n non-zero vectors of dim entries, seeded by
// label: word 0 on a random direction c, a tight cluster of ⌊n/2⌋ words
// around −c (each within 0.2 of −c before scaling), the rest on uniformly
// random directions; each vector is then scaled by a random norm in
// [0.5, 2], so normalizing matters. The cluster opposite word 0 is what
// makes SynTF's factor 1/2 necessary (the normalizers of 0 and of a
// cluster word differ as much as they can). The vectors are distinct with
// probability 1, as the truncated Gumbel mechanism requires (its law
// refuses duplicates). The audit runs the float mechanisms' laws on these
// vocabularies. n < 1 or dim < 1 gives nil.
func SyntheticVectors(n, dim int, label string) [][]float64 {
	if n < 1 || dim < 1 {
		return nil
	}
	src := labelSource(label)
	uniform := func() float64 { return 2*float64(src.Uint64()>>11)/(1<<53) - 1 } // [−1, 1)
	direction := func() []float64 {
		for {
			v := make([]float64, dim)
			var s float64
			for i := range v {
				v[i] = uniform()
				s += v[i] * v[i]
			}
			if s > 0.01 && s <= 1 { // uniform on the ball, away from 0
				for i := range v {
					v[i] /= math.Sqrt(s)
				}
				return v
			}
		}
	}
	scaled := func(v []float64) []float64 {
		r := 0.5 + 1.5*(uniform()+1)/2
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = r * x
		}
		return out
	}
	c := direction()
	vs := [][]float64{scaled(c)}
	for len(vs) < 1+n/2 && len(vs) < n {
		v := make([]float64, dim)
		for i := range v {
			v[i] = -c[i] + 0.2*uniform()/math.Sqrt(float64(dim))
		}
		vs = append(vs, scaled(v))
	}
	for len(vs) < n {
		vs = append(vs, scaled(direction()))
	}
	return vs
}
