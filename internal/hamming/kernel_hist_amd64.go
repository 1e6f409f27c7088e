//go:build !purego

package hamming

// histCountAVX512x8 adds the distances from q to codes (a multiple of 8
// codes, possibly none) to s. It needs AVX-512 F, VL and VPOPCNTDQ.
//
//go:noescape
func histCountAVX512x8(q *Code, codes []Code, s *subHist)

// sumSubAVX512 is subHist.sumInto for distances 0..255.
//
//go:noescape
func sumSubAVX512(s *subHist, dst *[Bits + 1]int32)

// sumSubWith is s.sumInto(dst) with kernel k's vector unit.
func sumSubWith(k int, s *subHist, dst *[Bits + 1]int32) {
	if k != kernelAVX512 {
		s.sumInto(dst)
		return
	}
	sumSubAVX512(s, dst)
	dst[Bits] = int32(s[0][Bits] + s[1][Bits] + s[2][Bits] + s[3][Bits])
}

// histCountWith adds the distances from q to codes to s with kernel k.
func histCountWith(k int, q *Code, codes []Code, s *subHist) {
	switch k {
	case kernelAVX512:
		n := len(codes) &^ 7
		histCountAVX512x8(q, codes[:n], s)
		histCountGeneric(q, codes[n:], s)
	case kernelPOPCNT:
		histCountBuffered(k, q, codes, s)
	default:
		histCountGeneric(q, codes, s)
	}
}
