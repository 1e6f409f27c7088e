package sample

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/stattest"
)

// byteSource is a rand.Source whose i-th value is a pure function of i:
// its bytes are drawn from a small alphabet holding the decisions' first
// bytes and 0, so draws meet the slow paths (a chunk of 16 zero bits, a
// byte equal to the threshold's) often. A copy replays the same values.
type byteSource struct {
	alphabet []byte
	seed     uint64
	i        uint64
}

func (s *byteSource) Uint64() uint64 {
	s.i++
	r := rand.New(rand.NewPCG(s.seed, s.i))
	var v uint64
	for range 8 {
		v = v<<8 | uint64(s.alphabet[r.IntN(len(s.alphabet))])
	}
	return v
}

// TestDrawDigitsEqualsDrawSlow: drawDigits (draw's first step written out,
// the pool in locals) and draw (the inlined fast path) make the same
// decisions from the same bits as drawSlow, the decision written once,
// digit by digit: the same value, the same pool left over, the same
// number of draws from the source. Seeded outputs rest on it. The inputs
// mix certain, impossible, chunked and byte-decided digits, and the test
// fails unless both the fast and the slow path were taken many times.
func TestDrawDigitsEqualsDrawSlow(t *testing.T) {
	lnps := []float64{0, math.Inf(-1), math.Log(0.5), math.Log(0.49), -0.01, -3, -5.6, -20 * math.Ln2, -11.2, -40, -200, -1e4}
	var alphabet = []byte{0, 0, 0, 0xff, 0x80}
	for _, lnp := range lnps {
		b := NewLogBernoulli(lnp)
		alphabet = append(alphabet, byte(b.thresh>>56), byte(b.thresh>>48))
	}
	r := rand.New(rand.NewChaCha8(stattest.Seed("digits")))
	slow, fast := 0, 0
	for trial := range 20000 {
		ds := make([]LogBernoulli, 1+r.IntN(17))
		for j := range ds {
			ds[j] = NewLogBernoulli(lnps[r.IntN(len(lnps))])
		}
		src := &byteSource{alphabet: alphabet, seed: uint64(trial)}
		start := bitPool{src: src}
		if r.IntN(2) == 0 { // a pool that already holds some bits
			start.refill()
			start.next(uint(r.IntN(64)))
		}
		// The reference: drawSlow per digit, counting the first steps it
		// would have left to the slow path.
		ref, refSrc := start, *src
		ref.src = &refSrc
		want := 0
		for j := range ds {
			peekSrc := *ref.src.(*byteSource)
			peek := ref
			peek.src = &peekSrc
			if w := ds[j].width; peek.n < w {
				peek.refill()
			}
			if w := ds[j].width; peek.x>>(64-w) == ds[j].first {
				slow++
			} else {
				fast++
			}
			if ds[j].drawSlow(&ref) {
				want |= 1 << j
			}
		}
		for _, impl := range []struct {
			name string
			run  func(p *bitPool) int
		}{
			{"drawDigits", func(p *bitPool) int { return drawDigits(p, ds) }},
			{"draw", func(p *bitPool) int {
				k := 0
				for j := range ds {
					if ds[j].draw(p) {
						k |= 1 << j
					}
				}
				return k
			}},
		} {
			gotSrc := *src
			got := start
			got.src = &gotSrc
			if k := impl.run(&got); k != want || got.x != ref.x || got.n != ref.n || gotSrc.i != refSrc.i {
				t.Fatalf("trial %d, %s: value %#x, pool (%#x, %d), %d draws; drawSlow: %#x, (%#x, %d), %d draws",
					trial, impl.name, k, got.x, got.n, gotSrc.i, want, ref.x, ref.n, refSrc.i)
			}
		}
	}
	if slow < 1000 || fast < 1000 {
		t.Fatalf("first steps decided at once %d times, left to drawSlow %d: want both ≥ 1000", fast, slow)
	}
	t.Logf("first steps decided at once %d times, left to drawSlow %d", fast, slow)
}
