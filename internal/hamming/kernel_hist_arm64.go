//go:build !purego

package hamming

// histCountWith adds the distances from q to codes to s with kernel k.
func histCountWith(k int, q *Code, codes []Code, s *subHist) {
	if k == kernelNEON {
		histCountBuffered(k, q, codes, s)
		return
	}
	histCountGeneric(q, codes, s)
}

// sumSubWith is s.sumInto(dst).
func sumSubWith(k int, s *subHist, dst *[Bits + 1]int32) { s.sumInto(dst) }

// histWithinWith adds to s the distances from q to codes: every code's
// (the caller keeps only the counts at 0..r).
func histWithinWith(k int, q *Code, codes []Code, s *subHist, r int) {
	histCountWith(k, q, codes, s)
}
