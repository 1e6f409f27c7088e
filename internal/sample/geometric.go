package sample

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
)

// errGeometricParams: a SignedGeometric was asked for with ε not finite
// and > 0, or a bound outside [0, MaxGeometricBound].
var errGeometricParams = errors.New("signed geometric: ε must be finite and > 0, bound in [0, 2^31−1]")

// MaxGeometricBound is the largest bound a SignedGeometric takes: an int
// on every platform, and more than any vocabulary (a .wva holds at most
// 2^25 words).
const MaxGeometricBound = math.MaxInt32

// SignedGeometric is the two-sided geometric law with ratio r = e^−ε,
// Pr[G = k] = (1−r)/(1+r)·r^|k|, with the mass of each tail |k| ≥ bound
// pooled at ±bound: Pr[G = ±bound] = r^bound/(1+r) each. Callers pass a
// bound at which every pooled value has the same effect as the tail it
// stands for (1-DG clamps G + p to [0, N−1] and 1-DT rejects G outside
// its window), so their output law is that of the unbounded G exactly.
//
// It is sampled as G = 0 with probability (1−r)/(1+r), else a uniform
// sign times 1 + K, K geometric with Pr[K = j] = (1−r)·r^j pooled at
// bound−1 (the same law: for k ≥ 1, 2r/(1+r) · 1/2 · (1−r)·r^(k−1) =
// (1−r)/(1+r)·r^k). K is first compared with the pool (Pr[K ≥ bound−1] =
// r^(bound−1)); below it, K < bound−1 is drawn by its binary digits: for
// a geometric truncated to [0, 2^m), Pr[K = Σ b_j·2^j] ∝ Π_j r^(b_j·2^j),
// so the digits are independent with Pr[b_j = 1] = 1/(1 + e^(ε·2^j)), and
// a value ≥ bound−1 is rejected (under half the time, as 2^m < 2·(bound−1)).
// Every decision is a LogBernoulli, exact to a relative error of about
// 2^-48 however small its probability: no outcome becomes impossible, and
// nothing is the difference of two capped variates (which loses the law
// when ε is so small that both saturate the cap: noise exactly 0). What
// float64 cannot do is tell a digit's probability from 1/2 once ε·2^j/4
// falls below about 2^-53; the mechanisms' ε floors keep ε far above that.
//
// The tables are built once per ε and bound; Draw takes about 8 to 16
// bits per digit from src's draws (a few 64-bit words in all), and no
// arithmetic.
type SignedGeometric struct {
	zero  LogBernoulli   // G = 0
	pool  LogBernoulli   // K ≥ bound−1, given G ≠ 0
	digit []LogBernoulli // digit[j]: b_j = 1, for K < 2^len(digit)
	bound int
	eps   float64
}

// NewSignedGeometric prepares the law above for ε (finite, > 0) and bound
// (in [0, MaxGeometricBound]; bound 0 always gives 0).
func NewSignedGeometric(eps float64, bound int) (*SignedGeometric, error) {
	if !(eps > 0) || math.IsInf(eps, 1) || bound < 0 || bound > MaxGeometricBound {
		return nil, errGeometricParams
	}
	g := &SignedGeometric{bound: bound, eps: eps}
	if bound == 0 {
		return g, nil
	}
	// ln((1−r)/(1+r)) = ln(1 − e^−ε) − ln(1 + e^−ε), without cancellation.
	g.zero = NewLogBernoulli(math.Log(-math.Expm1(-eps)) - math.Log1p(math.Exp(-eps)))
	c := bound - 1
	g.pool = NewLogBernoulli(-eps * float64(c))
	if c > 1 {
		g.digit = make([]LogBernoulli, bits.Len(uint(c-1)))
		for j := range g.digit {
			g.digit[j] = NewLogBernoulli(-Softplus(math.Ldexp(eps, j)))
		}
	}
	return g, nil
}

// Bound returns the bound the law is pooled at.
func (g *SignedGeometric) Bound() int { return g.bound }

// Draw returns one G. Its decisions share the bits of src's draws
// (bitPool), each bit used once, so a draw costs a few 64-bit words.
func (g *SignedGeometric) Draw(src rand.Source) int {
	if g.bound == 0 {
		return 0
	}
	p := bitPool{src: src}
	if g.zero.drawSlow(&p) { // the pool is empty: draw's fast path cannot apply
		return 0
	}
	neg := p.take(1) == 1
	k := g.bound // 1 + K with K pooled at bound−1
	if c := g.bound - 1; c > 0 && !g.pool.draw(&p) {
		k = 1 + g.below(&p, c)
	}
	if neg {
		return -k
	}
	return k
}

// Within returns G conditioned on −left ≤ G ≤ right (0 ≤ left, right <
// Bound()), exactly, at a cost that does not depend on how likely the
// window is: Draw-and-reject needs about 1/Pr[−left ≤ G ≤ right] draws,
// which is thousands when ε·bound is tiny and nearly all the mass is
// pooled beyond the window. Given the window, Pr[G = k] ∝ r^|k|, so G is
// 0 with probability 1/(1 + S_left + S_right), where S_a = Σ_{k=1..a} r^k
// = r·(1 − r^a)/(1 − r); else the left side with probability S_left/(S_left
// + S_right), and on the side of length a it is 1 + K with K geometric
// truncated to [0, a): the digits of Draw's K truncated to [0, 2^m),
// 2^m < 2a, rejected when ≥ a (under half the time). Each decision is a
// LogBernoulli on a probability computed in log space (no cancellation
// for small ε). It draws from src in a different order than Draw, so the
// two give different values for the same source.
func (g *SignedGeometric) Within(src rand.Source, left, right int) int {
	if left <= 0 && right <= 0 {
		return 0
	}
	lnL, lnR := g.lnSide(left), g.lnSide(right)
	lnS := LogAddExp(lnL, lnR)
	p := bitPool{src: src}
	zero, left1 := NewLogBernoulli(-Softplus(lnS)), NewLogBernoulli(lnL-lnS)
	if zero.drawSlow(&p) { // the pool is empty: draw's fast path cannot apply
		return 0
	}
	if left1.draw(&p) {
		return -(1 + g.truncated(&p, left))
	}
	return 1 + g.truncated(&p, right)
}

// lnSide is ln S_a = ln Σ_{k=1..a} r^k = −ε + ln(1 − r^a) − ln(1 − r), −Inf
// for a = 0.
func (g *SignedGeometric) lnSide(a int) float64 {
	if a <= 0 {
		return math.Inf(-1)
	}
	return -g.eps + math.Log(-math.Expm1(-g.eps*float64(a))) - math.Log(-math.Expm1(-g.eps))
}

// truncated returns K geometric truncated to [0, a) (1 ≤ a < bound): the
// first bits.Len(a−1) digits, drawn until the value is below a.
func (g *SignedGeometric) truncated(p *bitPool, a int) int {
	if a == 1 {
		return 0
	}
	digits := g.digit[:bits.Len(uint(a-1))]
	for {
		if k := drawDigits(p, digits); k < a {
			return k
		}
	}
}

// below returns K conditioned on K < c (c ≥ 1): digits drawn until the
// value is below c.
func (g *SignedGeometric) below(p *bitPool, c int) int {
	if c == 1 {
		return 0
	}
	for {
		if k := drawDigits(p, g.digit); k < c {
			return k
		}
	}
}

// drawDigits returns Σ_j b_j·2^j with b_j = ds[j].draw(p): the same
// decisions from the same bits in the same order, with draw's first step
// written out and the pool's bits held in locals (p.x and p.n would
// otherwise be loaded and stored at every digit); they are handed back
// to p whenever drawSlow takes over, and at the end.
func drawDigits(p *bitPool, ds []LogBernoulli) int {
	x, n := p.x, p.n
	k := 0
	for j := range ds {
		d := &ds[j]
		w := d.width
		if n < w {
			x, n = p.src.Uint64(), 64 // bitPool.refill
		}
		if u := x >> (64 - w); u != d.first {
			x <<= w
			n -= w
			if u < d.first {
				k |= 1 << j
			}
			continue
		}
		p.x, p.n = x, n
		if d.drawSlow(p) {
			k |= 1 << j
		}
		x, n = p.x, p.n
	}
	p.x, p.n = x, n
	return k
}
