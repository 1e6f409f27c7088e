package binarize

import "math"

// Reproducible arithmetic for the binarizers.
//
// Codes are built offline and shipped in an asset, and the build must be
// byte-for-byte reproducible on any amd64 machine. Two things in plain Go
// break that: (1) with GOAMD64=v3 the compiler fuses a*b+c into one FMA
// instruction, which rounds differently; an explicit float64(a*b) forces
// the product to be rounded and so forbids the fusion (Go spec, "Floating-
// point operators"); (2) math.Exp (and so math.Tanh) on amd64 switches to
// an FMA code path when the CPU has FMA. So every product below is rounded
// explicitly, sums run in a fixed order, and tanh is computed from our own
// exp. math.Sqrt is correctly rounded everywhere; math.Log on amd64 is an
// SSE2 routine without FMA; math.Floor and math.Ldexp are exact.

// dot returns Σ a[i]·b[i] summed in index order. len(b) ≥ len(a).
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, x := range a {
		s += float64(x * b[i])
	}
	return s
}

// axpy sets y[i] += alpha·x[i]. len(y) ≥ len(x).
func axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += float64(alpha * v)
	}
}

const (
	ln2Hi  = 6.93147180369123816490e-01 // high bits of ln 2 (exact product with small k)
	ln2Lo  = 1.90821492927058770002e-10 // ln 2 − ln2Hi
	log2e  = 1.44269504088896338700e+00
	expMin = -745.13321910194110842 // exp(x) underflows to 0 below this
)

// expNonPos returns e^x for x ≤ 0 in portable arithmetic: x = k·ln2 + r
// with |r| ≤ ln2/2, e^r by a degree-13 Taylor polynomial (truncation error
// below 3e-17 relative), then scaled by 2^k. Accurate to a few ulp, which is
// ample for training; what matters is that it is the same everywhere.
func expNonPos(x float64) float64 {
	if x < expMin {
		return 0
	}
	if x == 0 {
		return 1
	}
	k := math.Floor(float64(x*log2e) + 0.5)
	r := (x - float64(k*ln2Hi)) - float64(k*ln2Lo)
	// Horner on 1 + r + r²/2! + … + r¹³/13!
	p := 1.0 / 6227020800 // 1/13!
	for _, c := range [...]float64{
		1.0 / 479001600, 1.0 / 39916800, 1.0 / 3628800, 1.0 / 362880, 1.0 / 40320,
		1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1, 1,
	} {
		p = float64(p*r) + c
	}
	return math.Ldexp(p, int(k))
}

// tanhDet is tanh(x) = (1 − e^(−2|x|)) / (1 + e^(−2|x|)) with the sign of x,
// using expNonPos. Its absolute error is about 1e-16, which is what the
// decoder needs (it is never used where relative accuracy near 0 matters).
func tanhDet(x float64) float64 {
	a := math.Abs(x)
	if a > 20 { // 1 − tanh(20) < 1e-17: rounds to 1
		return math.Copysign(1, x)
	}
	t := expNonPos(-2 * a)
	return math.Copysign((1-t)/(1+t), x)
}
