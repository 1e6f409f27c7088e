//go:build !purego

#include "textflag.h"
#include "dists16_amd64.h"

// DISTS8 computes the distances from the broadcast query Z16 to the eight
// codes at SI into the eight quadwords of Z28 (in lane order 0,2,1,3,4,6,
// 5,7: a histogram needs no order) and moves SI past them. It is
// distBlockAVX512x8's arithmetic without the reordering and the running
// minimum.
#define DISTS8 \
	VPXORQ 0(SI), Z16, Z20 \
	VPXORQ 64(SI), Z16, Z21 \
	VPXORQ 128(SI), Z16, Z22 \
	VPXORQ 192(SI), Z16, Z23 \
	VPOPCNTQ Z20, Z20 \
	VPOPCNTQ Z21, Z21 \
	VPOPCNTQ Z22, Z22 \
	VPOPCNTQ Z23, Z23 \
	VPUNPCKLQDQ Z21, Z20, Z24 \
	VPUNPCKHQDQ Z21, Z20, Z25 \
	VPUNPCKLQDQ Z23, Z22, Z26 \
	VPUNPCKHQDQ Z23, Z22, Z27 \
	VPADDQ Z25, Z24, Z24 \
	VPADDQ Z27, Z26, Z26 \
	VSHUFI64X2 $0x88, Z26, Z24, Z28 \
	VSHUFI64X2 $0xDD, Z26, Z24, Z29 \
	VPADDQ Z29, Z28, Z28 \
	ADDQ $256, SI

// DIST8 computes the distances of the eight codes at SI (DISTS8) and
// stores them, as eight uint16, at ring+DX.
#define DIST8 \
	DISTS8 \
	VPMOVQW Z28, (BX)(DX*1) \
	ADDQ $16, DX \
	ANDQ $(ringBytes-1), DX

// COUNT8 counts the eight distances at ring+R12, the k-th of them in
// sub-histogram k&3 (rows 2048 bytes apart: subHist is [4][512]uint32). A
// distance is at most 256, so it always indexes inside its row.
#define COUNT8 \
	MOVWLZX 0(BX)(R12*1), R8 \
	MOVWLZX 2(BX)(R12*1), R9 \
	MOVWLZX 4(BX)(R12*1), R10 \
	MOVWLZX 6(BX)(R12*1), R11 \
	INCL (DI)(R8*4) \
	INCL 2048(DI)(R9*4) \
	INCL 4096(DI)(R10*4) \
	INCL 6144(DI)(R11*4) \
	MOVWLZX 8(BX)(R12*1), R8 \
	MOVWLZX 10(BX)(R12*1), R9 \
	MOVWLZX 12(BX)(R12*1), R10 \
	MOVWLZX 14(BX)(R12*1), R11 \
	INCL (DI)(R8*4) \
	INCL 2048(DI)(R9*4) \
	INCL 4096(DI)(R10*4) \
	INCL 6144(DI)(R11*4) \
	ADDQ $16, R12 \
	ANDQ $(ringBytes-1), R12

// ringBytes is the ring of distances on the stack: 32 groups of 8; the
// counting trails the distances by lagGroups groups.
#define ringBytes 512
#define lagGroups 16

// func histCountAVX512x8(q *Code, codes []Code, s *subHist)
//
// Software-pipelined: each step computes the distances of eight codes into
// a ring on the stack and counts the eight computed lagGroups steps before.
// Counting distances as soon as they are computed would load each one right
// after the vector store that wrote it, and those store-to-load forwards
// stall (measured: 1.6 ns/code, against 0.5 for the distances alone); with
// the lag the loads find the distances already written. Vector work (the
// distances) and scalar work (the increments) then overlap.
// The frame is the ring plus 64 bytes, to align the ring to a cache line
// (BX) so that no 16-byte group store splits across two lines.
// Registers Z16-Z29 only (X15 untouched).
TEXT ·histCountAVX512x8(SB), NOSPLIT, $576-40
	MOVQ q+0(FP), AX
	MOVQ codes_base+8(FP), SI
	MOVQ codes_len+16(FP), CX
	MOVQ s+32(FP), DI
	SHRQ $3, CX
	JZ done
	VBROADCASTI64X4 (AX), Z16
	LEAQ 63(SP), BX
	ANDQ $~63, BX
	XORQ DX, DX
	XORQ R12, R12
	// R13 = prologue and epilogue steps min(groups, lagGroups); CX = the
	// steady steps that both compute and count.
	MOVQ $lagGroups, R13
	CMPQ CX, R13
	CMOVQLT CX, R13
	SUBQ R13, CX
	MOVQ R13, R14

prologue:
	DIST8
	DECQ R14
	JNZ prologue
	TESTQ CX, CX
	JZ epilogue

steady:
	DIST8
	COUNT8
	DECQ CX
	JNZ steady

epilogue:
	COUNT8
	DECQ R13
	JNZ epilogue
	VZEROUPPER

done:
	RET

// func sumSubAVX512(s *subHist, dst *[257]int32)
// dst[d] = s[0][d]+s[1][d]+s[2][d]+s[3][d] for d in 0..255, sixteen at a
// time; the caller adds d = 256.
TEXT ·sumSubAVX512(SB), NOSPLIT, $0-16
	MOVQ s+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ $16, CX

sum16:
	VMOVDQU32 0(SI), Z20
	VPADDD 2048(SI), Z20, Z20
	VPADDD 4096(SI), Z20, Z20
	VPADDD 6144(SI), Z20, Z20
	VMOVDQU32 Z20, 0(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ sum16
	VZEROUPPER
	RET

// func sumSubAVX2(s *subHist, dst *[257]int32)
// dst[d] = s[0][d]+s[1][d]+s[2][d]+s[3][d] for d in 0..255, sixteen at a
// time (two 8-lane adds); the caller adds d = 256.
TEXT ·sumSubAVX2(SB), NOSPLIT, $0-16
	MOVQ s+0(FP), SI
	MOVQ dst+8(FP), DI
	MOVQ $16, CX

sum16avx2:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPADDD 2048(SI), Y0, Y0
	VPADDD 2080(SI), Y1, Y1
	VPADDD 4096(SI), Y0, Y0
	VPADDD 4128(SI), Y1, Y1
	VPADDD 6144(SI), Y0, Y0
	VPADDD 6176(SI), Y1, Y1
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JNZ sum16avx2
	VZEROUPPER
	RET

// func histWithinAVX512x8(q *Code, codes []Code, s *subHist, r int)
// Counts, in row 0 of s, the codes (a multiple of 8, possibly none) at
// distance at most r from q, and no others. Most groups of eight hold no
// such code when r is below the bulk of the distances: a group costs its
// distances and one compare (VPCMPUQ, "less or equal") and branch, and
// only a group with a code in the ball stores its distances (to the
// frame) and counts its set mask bits one by one.
// Registers Z16-Z30 and K1 only (X15 untouched).
TEXT ·histWithinAVX512x8(SB), NOSPLIT, $16-48
	MOVQ q+0(FP), AX
	MOVQ codes_base+8(FP), SI
	MOVQ codes_len+16(FP), CX
	MOVQ s+32(FP), DI
	SHRQ $3, CX
	JZ wdone
	VBROADCASTI64X4 (AX), Z16
	VPBROADCASTQ r+40(FP), Z30

wloop:
	DISTS8
	VPCMPUQ $2, Z30, Z28, K1
	KMOVW K1, R8
	TESTL R8, R8
	JNZ wcount

wnext:
	DECQ CX
	JNZ wloop
	VZEROUPPER

wdone:
	RET

wcount:
	// Lane i of Z28 is the i-th uint16 stored, and bit i of the mask.
	VPMOVQW Z28, 0(SP)

wbit:
	BSFL R8, R9
	MOVWLZX 0(SP)(R9*2), R10
	INCL (DI)(R10*4)
	LEAL -1(R8), R11
	ANDL R11, R8
	JNZ wbit
	JMP wnext

// func histWithinAVX512x16(q *Code, codes []Code, s *subHist, r int)
// histWithinAVX512x8 sixteen codes at a time (a multiple of 16, possibly
// none), with DISTS16's fewer operations per code; the compare is on the
// sixteen 16-bit distances (VPCMPUW, masked by K2 to the words that hold
// them), and a group with a code in the ball stores all of Z28 and counts
// the words its mask bits name. Needs AVX-512 BW besides F, VL and
// VPOPCNTDQ. Registers Z16-Z30, K1 and K2 only (X15 untouched).
TEXT ·histWithinAVX512x16(SB), NOSPLIT, $64-48
	MOVQ q+0(FP), AX
	MOVQ codes_base+8(FP), SI
	MOVQ codes_len+16(FP), CX
	MOVQ s+32(FP), DI
	SHRQ $4, CX
	JZ xdone
	VBROADCASTI64X4 (AX), Z16
	MOVQ r+40(FP), R8
	VPBROADCASTW R8, Z30
	MOVL $0x00FF00FF, R8
	KMOVD R8, K2

xloop:
	DISTS16
	VPCMPUW $2, Z30, Z28, K2, K1
	KMOVD K1, R8
	TESTL R8, R8
	JNZ xcount

xnext:
	DECQ CX
	JNZ xloop
	VZEROUPPER

xdone:
	RET

xcount:
	// Bit i of the mask is 16-bit word i of Z28.
	VMOVDQU16 Z28, 0(SP)

xbit:
	BSFL R8, R9
	MOVWLZX 0(SP)(R9*2), R10
	INCL (DI)(R10*4)
	LEAL -1(R8), R11
	ANDL R11, R8
	JNZ xbit
	JMP xnext
