package hamming

import "math/bits"

// histSubs is how many sub-histograms the counting loops spread the codes
// over. Consecutive codes often lie at the same distance (random codes
// cluster at 128 ± 8), and incrementing one counter twice in a row makes
// the second increment wait for the first one's store; counting code i
// into sub-histogram i mod histSubs keeps those increments independent.
// Measured alone this gains nothing (the loads and stores of the counts
// are the limit, docs/BENCHMARKS.md); the rows cost one AVX-512 add per 16
// distances at each snapshot, so they stay as the counting kernels' layout.
const histSubs = 4 // sumInto and the assembly kernels are written for 4

// subHist is histSubs running distance histograms. Each row is 512 long so
// that indexing it with d&511 (d ≤ 256, so exact) needs no bounds check in
// the hot loops; the assembly kernels index it with d directly.
//
// No counter can overflow: a row counts at most every code of the database,
// and a database holds at most maxCodes = 2^31−1 codes, so each row value,
// and the sum of the rows at one distance, is at most 2^31−1: it fits uint32,
// and the int32 of a snapshot.
type subHist [histSubs][2 * Bits]uint32

// sumInto writes the total count at each distance 0..256 into dst.
func (s *subHist) sumInto(dst *[Bits + 1]int32) {
	for d := range dst {
		dst[d] = int32(s[0][d] + s[1][d] + s[2][d] + s[3][d])
	}
}

// histCountGeneric is the portable counting kernel: it adds the distance
// from q to every code in codes to s.
func histCountGeneric(q *Code, codes []Code, s *subHist) {
	q0, q1, q2, q3 := q[0], q[1], q[2], q[3]
	i := 0
	for ; i+histSubs <= len(codes); i += histSubs {
		c := codes[i : i+histSubs : i+histSubs]
		s[0][distWords(&c[0], q0, q1, q2, q3)&(2*Bits-1)]++
		s[1][distWords(&c[1], q0, q1, q2, q3)&(2*Bits-1)]++
		s[2][distWords(&c[2], q0, q1, q2, q3)&(2*Bits-1)]++
		s[3][distWords(&c[3], q0, q1, q2, q3)&(2*Bits-1)]++
	}
	for ; i < len(codes); i++ {
		s[0][distWords(&codes[i], q0, q1, q2, q3)&(2*Bits-1)]++
	}
}

// histCountBuffered counts with a distance kernel that writes a block of
// distances to a buffer (the POPCNT and NEON kernels), then spreads them
// over the sub-histograms.
func histCountBuffered(k int, q *Code, codes []Code, s *subHist) {
	var buf [blockSize]uint16
	for base := 0; base < len(codes); base += blockSize {
		n := min(blockSize, len(codes)-base)
		distBlockWith(k, q, codes[base:base+n], buf[:n])
		i := 0
		for ; i+histSubs <= n; i += histSubs {
			d := buf[i : i+histSubs : i+histSubs]
			s[0][d[0]&(2*Bits-1)]++
			s[1][d[1]&(2*Bits-1)]++
			s[2][d[2]&(2*Bits-1)]++
			s[3][d[3]&(2*Bits-1)]++
		}
		for ; i < n; i++ {
			s[0][buf[i]&(2*Bits-1)]++
		}
	}
}

// distWords is Distance(*c, q) with q's words already in registers.
func distWords(c *Code, q0, q1, q2, q3 uint64) int {
	return bits.OnesCount64(c[0]^q0) + bits.OnesCount64(c[1]^q1) +
		bits.OnesCount64(c[2]^q2) + bits.OnesCount64(c[3]^q3)
}
