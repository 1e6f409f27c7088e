package sample

import (
	"math"
	"math/rand/v2"
)

// lnChunk is ln(2^16): a LogBernoulli peels probability off in factors of
// exactly 2^-16.
const lnChunk = 16 * math.Ln2

// LogBernoulli is a Bernoulli decision of probability e^lnp prepared
// once, for samplers that make the same tiny-probability decision often:
// the probability is written as 2^(−16·chunks)·e^rest with rest in
// [−ln 2^16, 0], so Draw requires chunks successes of probability exactly
// 2^-16 (a uniform 64-bit draw below 2^48), then one of probability e^rest
// against a 64-bit threshold. No probability underflows or rounds to zero
// however small, and the relative error is about 2^-48 (the threshold's
// 2^-64 against e^rest ≥ 2^-16). The zero value is never true.
type LogBernoulli struct {
	chunks uint64
	thresh uint64
	sure   bool // probability 1: no draw
	// width and first describe drawSlow's first step, for the fast path
	// of draw and drawDigits: width fresh bits (16 for a chunk, 8 for the threshold's top
	// byte; 0 when there is no fast path) decide at once, u < first, when
	// they differ from first (a chunk's first is 0: any nonzero chunk
	// fails, as u < 0 never holds).
	width uint
	first uint64
}

// maxChunks caps the chunk count: 2^(−16·2^62) is far below anything a
// source will ever produce, and the cap keeps the float-to-integer
// conversion defined for any finite lnp.
const maxChunks = 1 << 62

// NewLogBernoulli prepares the decision of probability e^lnp (lnp ≤ 0;
// −Inf and NaN give a decision that is never true, lnp ≥ 0 one that is
// always true).
func NewLogBernoulli(lnp float64) LogBernoulli {
	switch {
	case lnp >= 0:
		return LogBernoulli{sure: true, first: 1}
	case !(lnp > math.Inf(-1)): // −Inf or NaN
		return LogBernoulli{}
	}
	// The fewest chunks that bring lnp to [−lnChunk, 0].
	k := min(max(0, math.Ceil(-lnp/lnChunk-1)), maxChunks)
	rest := min(max(lnp+k*lnChunk, -lnChunk), 0)
	b := LogBernoulli{chunks: uint64(k), thresh: BernoulliThreshold(math.Exp(rest)), width: 8}
	b.first = b.thresh >> 56
	if b.chunks > 0 {
		b.width, b.first = 16, 0
	}
	return b
}

// Draw returns true with the prepared probability. It costs one draw from
// src, rarely more (none when the decision is certain).
func (b LogBernoulli) Draw(src rand.Source) bool {
	p := bitPool{src: src}
	return b.drawSlow(&p) // the pool is empty: draw's fast path cannot apply
}

// draw decides with bits from p, as drawSlow does, taking the common
// outcome at once: when p holds the first step's width bits and they
// differ from first, they decide, exactly as drawSlow's first step would
// (the same bits consumed, the same result); otherwise nothing is
// consumed and drawSlow starts from the same state. A certain decision
// has width 0 and first 1 (no bits, true at once). drawDigits writes the
// same test out in its loop.
func (b *LogBernoulli) draw(p *bitPool) bool {
	w := b.width
	if u := p.x >> (64 - w); p.n >= w && u != b.first {
		p.x <<= w
		p.n -= w
		return u < b.first
	}
	return b.drawSlow(p)
}

// drawSlow decides with bits from p, as few as it needs: each chunk is 16
// fresh bits that must all be 0 (probability exactly 2^-16), and the last
// step compares a uniform 64-bit U with the threshold a byte at a time,
// most significant first, stopping at the first byte where they differ
// (U < threshold exactly when U's byte is smaller there; equal throughout
// means U = threshold, not smaller). Bytes never drawn cannot change the
// result, so the law is that of the full comparison, at about 8 bits
// instead of 64.
func (b *LogBernoulli) drawSlow(p *bitPool) bool {
	if b.sure {
		return true
	}
	// The first step with take written out (refill only when short, next
	// inlined): most decisions end there, a chunk's 16 bits not all 0 or
	// U's top byte not the threshold's.
	if b.chunks > 0 {
		if p.n < 16 {
			p.refill()
		}
		if p.next(16) != 0 {
			return false
		}
		return b.drawFrom(p, b.chunks-1, 56)
	}
	if p.n < 8 {
		p.refill()
	}
	if u, t := p.next(8), b.thresh>>56; u != t {
		return u < t
	}
	return b.drawFrom(p, 0, 48)
}

// drawFrom is draw's remainder: chunks more chunks, then the comparison
// from U's byte at shift down (the bytes above it equal the threshold's,
// or none drawn yet at shift 56).
func (b *LogBernoulli) drawFrom(p *bitPool, chunks uint64, shift int) bool {
	for range chunks {
		if p.take(16) != 0 {
			return false
		}
	}
	for ; ; shift -= 8 {
		u, t := p.take(8), b.thresh>>uint(shift)&0xff
		if u != t || shift == 0 {
			return u < t
		}
	}
}

// bitPool hands out the bits of uniform 64-bit draws a few at a time, most
// significant first, each bit once: the pieces are independent uniform
// integers. Bits left over when a request does not fit are dropped.
type bitPool struct {
	src rand.Source
	x   uint64
	n   uint // bits left in x
}

// take returns k ≤ 16 fresh uniform bits. It is small enough to be
// inlined; the draw from src is not.
func (p *bitPool) take(k uint) uint64 {
	if p.n < k {
		p.refill()
	}
	return p.next(k)
}

// next is take once p holds at least k bits: small enough to be inlined
// where take (with its call to refill) is not, as in draw's first step.
func (p *bitPool) next(k uint) uint64 {
	v := p.x >> (64 - k)
	p.x <<= k
	p.n -= k
	return v
}

// refill replaces p's bits with a fresh 64-bit draw. Kept out of line
// so that take, its only caller, is inlined.
//
//go:noinline
func (p *bitPool) refill() { p.x, p.n = p.src.Uint64(), 64 }

// BernoulliLog returns true with probability e^lnp (lnp ≤ 0, −Inf
// allowed): NewLogBernoulli(lnp).Draw(src), for a decision made once.
func BernoulliLog(src rand.Source, lnp float64) bool {
	return NewLogBernoulli(lnp).Draw(src)
}
