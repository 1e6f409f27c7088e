// Package sample holds the random samplers WordVeil's mechanisms are built
// from: a bias-free uniform integer, exact 64-bit Bernoulli decisions (also
// bit-sliced, 64 at a time, and in log space for tiny probabilities), and
// exponential and Gumbel variates whose tails are never cut off, and a
// two-sided geometric built from exact bits (geometric.go).
//
// Guarantee: each sampler's law is the one its doc states, exactly (integer
// samplers) or to the stated rounding (float samplers), for any rand.Source
// that yields independent uniform 64-bit words. The samplers do not choose
// their source: privacy needs an unpredictable one, which SecureSource
// makes (ChaCha8 keyed from crypto/rand; mechanism.NewSecureSource
// returns it); a seeded source is for tests and reproducible evaluation
// only. Samplers are not safe for concurrent use with one source.
package sample

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// UniformInt returns a uniform integer in [0, n) without modulo bias
// (Lemire's multiply-and-reject method). It panics if n <= 0.
func UniformInt(src rand.Source, n int) int {
	if n <= 0 {
		panic("UniformInt: n must be positive")
	}
	un := uint64(n)
	hi, lo := bits.Mul64(src.Uint64(), un)
	if lo < un {
		// Reject the low products that would make some results more likely.
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), un)
		}
	}
	return int(hi)
}

// BernoulliThreshold returns floor(q·2^64), clamped to [0, 2^64−1]: a
// uniform 64-bit integer u is below it with probability q to within 2^-64
// (exactly floor(q·2^64)/2^64). Precompute it once per mechanism.
func BernoulliThreshold(q float64) uint64 {
	switch {
	case !(q > 0): // also NaN
		return 0
	case q >= 1:
		return math.MaxUint64
	}
	// Scaling by a power of two is exact, so the only rounding is the
	// floor, done by the conversion (truncation of a positive value).
	x := math.Ldexp(q, 64)
	if x >= 0x1p64 {
		return math.MaxUint64
	}
	return uint64(x)
}

// Bernoulli returns true with probability threshold/2^64, where threshold
// comes from BernoulliThreshold(q).
func Bernoulli(src rand.Source, threshold uint64) bool {
	return src.Uint64() < threshold
}

// Mask64 returns 64 independent Bernoulli bits; bit i is set
// exactly when U_i < threshold, U_i being lane i's uniform 64-bit integer,
// as docs/MECHANISMS.md's per-bit rule says. The comparison is bit-sliced and lazy: draw
// j supplies bit 63−j of all 64 U_i at once, and a lane is settled at the
// first bit where it differs from threshold (a 0 against a 1: U_i is
// smaller; a 1 against a 0: larger). Lanes still equal after 64 draws have
// U_i = threshold, not smaller. The bits never drawn cannot change any
// lane's result, so the law is exactly that of 64 full comparisons, at
// about 8 draws instead of 64.
func Mask64(src rand.Source, threshold uint64) uint64 {
	var less uint64
	open := ^uint64(0) // lanes whose prefix still equals threshold's
	for j := 63; j >= 0 && open != 0; j-- {
		r := src.Uint64()
		if threshold>>uint(j)&1 == 1 {
			less |= open &^ r
			open &= r
		} else {
			open &^= r
		}
	}
	return less
}

// uniformFine returns a uniform float64 in (0, 1) with 53 significant bits
// at every magnitude: values near 0 are not rounded to a 2^-53 grid, so the
// tails of the distributions built on it (exponential, Gumbel, geometric)
// are not cut off. Floating-point samplers that truncate their tails make
// some outputs impossible for one input and possible for a neighbour, which
// breaks the DP ratio (Mironov, CCS 2012); this is the fix for the draws
// here. It returns 2^-1074 only if 1024 zero bits are drawn in a row.
func uniformFine(src rand.Source) float64 {
	shift := 0
	x := src.Uint64()
	for x == 0 {
		shift += 64
		if shift >= 1024 {
			return 0x1p-1074
		}
		x = src.Uint64()
	}
	lz := bits.LeadingZeros64(x)
	x <<= lz
	if lz > 11 {
		// The shift brought in lz zero bits; 53 significant bits need
		// fresh randomness below the leading one.
		x |= src.Uint64() >> (64 - lz)
	}
	// x has its top bit set: its top 53 bits, scaled, fall uniformly on
	// the grid of [2^(−1−shift−lz), 2^(−shift−lz)), the dyadic interval
	// whose probability is exactly 2^(−1−shift−lz).
	return math.Ldexp(float64(x>>11), -53-shift-lz)
}

var (
	// invEThreshold is BernoulliThreshold(e^−1).
	invEThreshold = BernoulliThreshold(math.Exp(-1))
	// oneMinusInvE is 1 − e^−1, computed without cancellation.
	oneMinusInvE = -math.Expm1(-1)
)

// exponential returns E ~ Exp(1) as B + F: B = ⌊E⌋ is geometric with ratio
// e^−1 (counted with exact 64-bit Bernoulli trials, so its tail is never cut
// off), and F, the fractional part, has density ∝ e^−x on [0, 1) and is
// drawn by inverting its CDF with a fine uniform. The cost does not depend
// on the tail: about 1.6 trials and one or two more draws.
func exponential(src rand.Source) float64 {
	b := 0.0
	for src.Uint64() < invEThreshold {
		b++
	}
	return b - math.Log1p(-uniformFine(src)*oneMinusInvE)
}

// Exponential returns an Exp(1) variate whose tail is never cut off (see
// exponential). Exported for the float-vector mechanisms of package
// floatmech, which build Gamma radii and Laplace noise from it.
func Exponential(src rand.Source) float64 { return exponential(src) }

// UniformOpen returns a uniform float64 in (0, 1) with 53 significant bits
// at every magnitude (see uniformFine), for inverse-CDF samplers whose
// tails must not be rounded away.
func UniformOpen(src rand.Source) float64 { return uniformFine(src) }

// Gumbel returns a Gumbel(0, scale) variate, −scale·ln(E) with E ~ Exp(1)
// from exponential, so both tails extend as far as float64 allows (a
// 2^-53 uniform grid would cap the noise at about 36.7·scale, making low
// scores unable to win at all).
func Gumbel(src rand.Source, scale float64) float64 {
	return -scale * math.Log(exponential(src))
}

// LogAddExp returns ln(e^a + e^b) without overflow or underflow.
func LogAddExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(b, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// Softplus returns ln(1 + e^x) without overflow.
func Softplus(x float64) float64 {
	return max(x, 0) + math.Log1p(math.Exp(-math.Abs(x)))
}
