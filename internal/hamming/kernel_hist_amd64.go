//go:build !purego

package hamming

import "golang.org/x/sys/cpu"

// histCountAVX512x8 adds the distances from q to codes (a multiple of 8
// codes, possibly none) to s. It needs AVX-512 F, VL and VPOPCNTDQ.
//
//go:noescape
func histCountAVX512x8(q *Code, codes []Code, s *subHist)

// sumSubAVX512 is subHist.sumInto for distances 0..255.
//
//go:noescape
func sumSubAVX512(s *subHist, dst *[Bits + 1]int32)

// sumSubAVX2 is subHist.sumInto for distances 0..255. It needs AVX2.
//
//go:noescape
func sumSubAVX2(s *subHist, dst *[Bits + 1]int32)

// hasAVX2 says whether the POPCNT kernel's snapshots may use sumSubAVX2:
// most x86 CPUs without AVX-512's VPOPCNTDQ have AVX2, and a snapshot's
// 1,028 scalar loads and adds (sumInto) cost TEM-Hamming 56k instructions
// per word, a fifth of its histogram's cost outside the distance kernel
// (cachegrind); AVX2 sums 16 distances in 8 adds.
var hasAVX2 = cpu.X86.HasAVX2

// sumSubWith is s.sumInto(dst) with kernel k's vector unit: AVX-512's for
// that kernel, AVX2's for the POPCNT kernel where the CPU has it.
func sumSubWith(k int, s *subHist, dst *[Bits + 1]int32) {
	switch {
	case k == kernelAVX512:
		sumSubAVX512(s, dst)
	case k == kernelPOPCNT && hasAVX2:
		sumSubAVX2(s, dst)
	default:
		s.sumInto(dst)
		return
	}
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
