package hamming

import (
	"math/rand/v2"
	"testing"
)

// TestSumSubAgrees checks every kernel's snapshot sum (sumSubWith: the
// AVX-512 and AVX2 ones where this CPU has them) against the portable
// sumInto, on rows holding any uint32 (a row wraps below zero when skipped
// codes are taken off: the sum is modulo 2^32), and on rows that differ
// in one place only (a negative control: each distance is summed on its own).
func TestSumSubAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	var s subHist
	for i := range s {
		for d := range s[i] {
			s[i][d] = r.Uint32()
		}
	}
	var want [Bits + 1]int32
	s.sumInto(&want)
	for _, k := range availableKernels() {
		var got [Bits + 1]int32
		sumSubWith(k, &s, &got)
		if got != want {
			t.Fatalf("kernel %s: snapshot differs from sumInto", kernelNames[k])
		}
		for _, d := range []int{0, 7, 8, 15, 16, 128, 255, Bits} {
			moved := s
			moved[d%histSubs][d]++
			sumSubWith(k, &moved, &got)
			for e := range got {
				if w := want[e] + int32(b2i(e == d)); got[e] != w {
					t.Fatalf("kernel %s, row %d distance %d moved: count at %d is %d, want %d", kernelNames[k], d%histSubs, d, e, got[e], w)
				}
			}
		}
	}
}
