package floatmech

import (
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/sample"
)

// gammaRadius returns R ~ Gamma(shape d, scale 1/ε), the norm of a vector
// with density ∝ exp(−ε‖z‖₂) in ℝ^d: for an integer shape it is exactly a
// sum of d independent Exp(1) variates, divided by ε.
func gammaRadius(src rand.Source, d int, eps float64) float64 {
	var s float64
	for range d {
		s += sample.Exponential(src)
	}
	return s / eps
}

// normalPair returns two independent N(0, 1) variates by Box–Muller:
// radius √(2E) with E ~ Exp(1) (unbounded tail), angle uniform.
func normalPair(src rand.Source) (float64, float64) {
	r := math.Sqrt(2 * sample.Exponential(src))
	s, c := math.Sincos(2 * math.Pi * sample.UniformOpen(src))
	return r * c, r * s
}

// fillNormal fills v with independent N(0, 1) variates.
func fillNormal(src rand.Source, v []float64) {
	for i := 0; i < len(v); i += 2 {
		a, b := normalPair(src)
		v[i] = a
		if i+1 < len(v) {
			v[i+1] = b
		}
	}
}

// unitDirection fills u with a direction uniform on the unit sphere: a
// standard normal vector, normalized (the normal law is rotation
// invariant). A zero vector has probability zero; it is redrawn.
func unitDirection(src rand.Source, u []float64) {
	for {
		fillNormal(src, u)
		var n float64
		for _, x := range u {
			n += x * x
		}
		if n > 0 {
			n = 1 / math.Sqrt(n)
			for i := range u {
				u[i] *= n
			}
			return
		}
	}
}

// laplace returns a Laplace(0, scale) variate: a random sign times an
// exponential with an unbounded tail.
func laplace(src rand.Source, scale float64) float64 {
	x := scale * sample.Exponential(src)
	if src.Uint64()&1 == 0 {
		return -x
	}
	return x
}

// truncLaplace samples the density ∝ e^(−α|x|) on [−a, a] exactly by
// inverse CDF: a uniform sign (the density is symmetric) and a magnitude
// with CDF (1 − e^(−αx))/(1 − e^(−αa)) on [0, a], inverted with log1p/expm1
// so small α (nearly uniform noise) loses no precision. mass is
// −expm1(−α·a). The clamp only absorbs rounding at the very edge: no value
// ever leaves [−a, a].
func truncLaplace(src rand.Source, alpha, a, mass float64) float64 {
	x := -math.Log1p(-sample.UniformOpen(src)*mass) / alpha
	if x > a {
		x = a
	}
	if src.Uint64()&1 == 0 {
		return -x
	}
	return x
}
