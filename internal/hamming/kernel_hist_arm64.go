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
