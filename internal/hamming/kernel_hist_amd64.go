//go:build !purego

package hamming

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// histCountAVX512x8 adds the distances from q to codes (a multiple of 8
// codes, possibly none) to s. It needs AVX-512 F, VL and VPOPCNTDQ.
//
//go:noescape
func histCountAVX512x8(q *Code, codes []Code, s *subHist)

// histWithinAVX512x8 adds to row 0 of s the distances from q to those of
// codes (a multiple of 8, possibly none) at most r from it, and no others.
// It needs AVX-512 F, VL and VPOPCNTDQ.
//
//go:noescape
func histWithinAVX512x8(q *Code, codes []Code, s *subHist, r int)

// histWithinAVX512x16 is histWithinAVX512x8 for a multiple of 16 codes
// (possibly none). It also needs AVX-512 BW (hasAVX512BW).
//
//go:noescape
func histWithinAVX512x16(q *Code, codes []Code, s *subHist, r int)

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
		codes = peelToLine(q, codes, s)
		n := len(codes) &^ 7
		histCountAVX512x8(q, codes[:n], s)
		histCountGeneric(q, codes[n:], s)
	case kernelPOPCNT:
		histCountBuffered(k, q, codes, s)
	default:
		histCountGeneric(q, codes, s)
	}
}

// histWithinWith adds to s the distances from q to codes with kernel k:
// every distance at most r, and possibly others (the caller keeps only the
// counts at 0..r). The AVX-512 kernel skips the codes beyond r; the others
// count every code.
func histWithinWith(k int, q *Code, codes []Code, s *subHist, r int) {
	if k != kernelAVX512 {
		histCountWith(k, q, codes, s)
		return
	}
	codes = peelToLine(q, codes, s)
	if n := len(codes) &^ 15; hasAVX512BW {
		histWithinAVX512x16(q, codes[:n], s, r)
		codes = codes[n:]
	}
	n := len(codes) &^ 7
	histWithinAVX512x8(q, codes[:n], s, r)
	histCountGeneric(q, codes[n:], s)
}

// peelToLine counts the first code of codes into s when it starts half-way
// into a 64-byte cache line, and returns the rest, which then starts on
// one. The AVX-512 kernels load two codes (64 bytes) at a time, and on a
// half-line start every load would straddle two lines: 8-10% of a counting
// scan, measured, where the codes are read in place from the embedded asset
// (Go aligns data to 32 bytes, not 64). Counts do not depend on the order.
func peelToLine(q *Code, codes []Code, s *subHist) []Code {
	if len(codes) > 0 && uintptr(unsafe.Pointer(&codes[0]))%64 == 32 {
		histCountGeneric(q, codes[:1], s)
		return codes[1:]
	}
	return codes
}
