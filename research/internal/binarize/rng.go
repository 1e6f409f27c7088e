package binarize

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// rng draws the random numbers of the offline build steps from a PCG
// stream seeded explicitly. Only PCG's own output (a specified algorithm)
// is used: integers, uniform floats and Gaussians are derived here rather
// than with math/rand/v2's helpers, so a future Go release that changes a
// helper cannot change an asset, and no math.Exp (FMA-dependent on amd64)
// is involved.
type rng struct {
	src      *rand.PCG
	spare    float64 // second Gaussian of the last polar pair
	hasSpare bool
}

// Streams separate the independent uses of one seed.
const (
	streamSRP     = 0x5352500000000001 // SRP matrix and NLB initialisation
	streamShuffle = 0x53485546464c4502 // NLB mini-batch order
	streamQueries = 0x5155455259000003 // evaluation query sample
)

func newRNG(seed, stream uint64) *rng {
	return &rng{src: rand.NewPCG(seed, stream)}
}

func (r *rng) uint64() uint64 { return r.src.Uint64() }

// float64 returns a uniform value in [0, 1) with 53 random bits.
func (r *rng) float64() float64 { return float64(r.uint64()>>11) * 0x1p-53 }

// intn returns a uniform integer in [0, n) without modulo bias (Lemire's
// multiply-and-reject). n must be positive.
func (r *rng) intn(n int) int {
	bound := uint64(n)
	hi, lo := bits.Mul64(r.uint64(), bound)
	if lo < bound {
		thresh := -bound % bound
		for lo < thresh {
			hi, lo = bits.Mul64(r.uint64(), bound)
		}
	}
	return int(hi)
}

// normal returns a standard Gaussian value (Marsaglia's polar method).
func (r *rng) normal() float64 {
	if r.hasSpare {
		r.hasSpare = false
		return r.spare
	}
	for {
		u := 2*r.float64() - 1
		v := 2*r.float64() - 1
		s := float64(u*u) + float64(v*v)
		if s >= 1 || s == 0 {
			continue
		}
		m := math.Sqrt(-2 * math.Log(s) / s)
		r.spare, r.hasSpare = float64(v*m), true
		return float64(u * m)
	}
}

// shuffle permutes p uniformly (Fisher–Yates).
func (r *rng) shuffle(p []int) {
	for i := len(p) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
}

// sample returns k distinct values of [0, n) in random order (a partial
// Fisher–Yates over the identity), 0 ≤ k ≤ n.
func (r *rng) sample(n, k int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := 0; i < k; i++ {
		j := i + r.intn(n-i)
		p[i], p[j] = p[j], p[i]
	}
	return p[:k:k]
}
