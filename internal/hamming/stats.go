package hamming

import "math/bits"

// MeanDistance returns the exact mean Hamming distance over all ordered
// pairs of distinct codes (P_avg of the BRR paper, §5), in O(256·N): a bit
// where c of the n codes are set differs in exactly 2·c·(n−c) ordered
// pairs. It returns 0 for fewer than two codes.
func MeanDistance(codes []Code) float64 {
	n := len(codes)
	if n < 2 {
		return 0
	}
	var ones [Bits]int
	for i := range codes {
		for w, word := range codes[i] {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				ones[w*64+b]++
				word &= word - 1
			}
		}
	}
	total := 0.0
	for _, c := range ones {
		total += 2 * float64(c) * float64(n-c)
	}
	return total / (float64(n) * float64(n-1))
}
