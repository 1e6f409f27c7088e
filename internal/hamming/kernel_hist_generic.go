//go:build purego || !(amd64 || arm64)

package hamming

// histCountWith adds the distances from q to codes to s (the portable
// kernel is the only one on this build).
func histCountWith(k int, q *Code, codes []Code, s *subHist) {
	histCountGeneric(q, codes, s)
}

// sumSubWith is s.sumInto(dst).
func sumSubWith(k int, s *subHist, dst *[Bits + 1]int32) { s.sumInto(dst) }

// histWithinWith adds to s the distances from q to codes: every code's
// (the caller keeps only the counts at 0..r).
func histWithinWith(k int, q *Code, codes []Code, s *subHist, r int) {
	histCountWith(k, q, codes, s)
}
