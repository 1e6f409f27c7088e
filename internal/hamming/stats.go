package hamming

// MeanDistance returns the exact mean Hamming distance over all ordered
// pairs of distinct codes (P_avg of the BRR paper, §5): a bit where c of
// the n codes are set differs in exactly 2·c·(n−c) ordered pairs. The
// counts c are exact integers (bitCounts), so the result does not depend
// on how they were counted. It returns 0 for fewer than two codes.
func MeanDistance(codes []Code) float64 {
	n := len(codes)
	if n < 2 {
		return 0
	}
	ones := bitCounts(codes)
	total := 0.0
	for _, c := range ones {
		total += 2 * float64(c) * float64(n-c)
	}
	return total / (float64(n) * float64(n-1))
}

// laneOnes has one set bit per byte: the ones digit of eight byte lanes.
const laneOnes = 0x0101010101010101

// maxLaneGroups is how many groups bitCounts adds into its byte lanes
// before emptying them: each group adds at most 1 to a lane, which holds
// at most 255.
const maxLaneGroups = 255

// bitCounts returns, for each bit i, how many codes have bit i set, in
// O(N·256/64) word operations with no branch on the data: the codes are
// added 16 at a time, per 64-bit word, with a carry-save adder tree
// (Harley-Seal, as in Muła, Kurz and Lemire's "Faster population counts
// using AVX2 instructions"): planes o, t, f, e hold, bit by bit, the ones,
// twos, fours and eights digits of the running counts, and each group of
// 16 codes carries out one word of sixteens. The sixteens are counted in
// byte lanes (bit 8l+b of a word in lane l of acc[b]), emptied into the
// integer counts every maxLaneGroups groups, before a lane can overflow.
// The last len(codes) mod 16 codes are counted bit by bit.
func bitCounts(codes []Code) (ones [Bits]int) {
	var o, t, f, e [4]uint64
	var acc [4][8]uint64
	flush := func() {
		for w := range acc {
			for b := range acc[w] {
				for l := 0; l < 8; l++ {
					ones[64*w+8*l+b] += 16 * int(acc[w][b]>>(8*l)&0xff)
				}
				acc[w][b] = 0
			}
		}
	}
	i, groups := 0, 0
	for ; i+16 <= len(codes); i += 16 {
		c := (*[16]Code)(codes[i : i+16])
		for w := range 4 {
			var twosA, twosB, foursA, foursB, eightsA, eightsB, sixteens uint64
			twosA, o[w] = csa(o[w], c[0][w], c[1][w])
			twosB, o[w] = csa(o[w], c[2][w], c[3][w])
			foursA, t[w] = csa(t[w], twosA, twosB)
			twosA, o[w] = csa(o[w], c[4][w], c[5][w])
			twosB, o[w] = csa(o[w], c[6][w], c[7][w])
			foursB, t[w] = csa(t[w], twosA, twosB)
			eightsA, f[w] = csa(f[w], foursA, foursB)
			twosA, o[w] = csa(o[w], c[8][w], c[9][w])
			twosB, o[w] = csa(o[w], c[10][w], c[11][w])
			foursA, t[w] = csa(t[w], twosA, twosB)
			twosA, o[w] = csa(o[w], c[12][w], c[13][w])
			twosB, o[w] = csa(o[w], c[14][w], c[15][w])
			foursB, t[w] = csa(t[w], twosA, twosB)
			eightsB, f[w] = csa(f[w], foursA, foursB)
			sixteens, e[w] = csa(e[w], eightsA, eightsB)
			a := &acc[w]
			a[0] += sixteens & laneOnes
			a[1] += sixteens >> 1 & laneOnes
			a[2] += sixteens >> 2 & laneOnes
			a[3] += sixteens >> 3 & laneOnes
			a[4] += sixteens >> 4 & laneOnes
			a[5] += sixteens >> 5 & laneOnes
			a[6] += sixteens >> 6 & laneOnes
			a[7] += sixteens >> 7 & laneOnes
		}
		if groups++; groups == maxLaneGroups {
			flush()
			groups = 0
		}
	}
	flush()
	for w := range 4 {
		for b := 0; b < 64; b++ {
			ones[64*w+b] += int(o[w]>>b&1) + 2*int(t[w]>>b&1) + 4*int(f[w]>>b&1) + 8*int(e[w]>>b&1)
		}
	}
	for _, c := range codes[i:] {
		for w, x := range c {
			for b := 0; b < 64; b++ {
				ones[64*w+b] += int(x >> b & 1)
			}
		}
	}
	return ones
}

// csa is a carry-save adder on 64 bit columns at once: bit by bit,
// a+b+c = 2·hi + lo.
func csa(a, b, c uint64) (hi, lo uint64) {
	u := a ^ b
	return a&b | u&c, u ^ c
}
