//go:build !purego

#include "textflag.h"
#include "dists16_amd64.h"

// func distBlockPOPCNT(q *Code, codes []Code, out []uint16) int
// Two codes per iteration, eight independent XOR/POPCNT chains; the running
// minimum uses CMOV so the loop has no data-dependent branch.
TEXT ·distBlockPOPCNT(SB), NOSPLIT, $0-64
	MOVQ q+0(FP), AX
	MOVQ codes_base+8(FP), SI
	MOVQ codes_len+16(FP), CX
	MOVQ out_base+32(FP), DI
	MOVQ 0(AX), R8
	MOVQ 8(AX), R9
	MOVQ 16(AX), R10
	MOVQ 24(AX), R11
	MOVQ $257, BX
	CMPQ CX, $2
	JLT tail

loop2:
	MOVQ 0(SI), R12
	MOVQ 8(SI), R13
	MOVQ 16(SI), R14
	MOVQ 24(SI), R15
	MOVQ 32(SI), AX
	MOVQ 40(SI), DX
	XORQ R8, R12
	XORQ R9, R13
	XORQ R10, R14
	XORQ R11, R15
	XORQ R8, AX
	XORQ R9, DX
	POPCNTQ R12, R12
	POPCNTQ R13, R13
	POPCNTQ R14, R14
	POPCNTQ R15, R15
	POPCNTQ AX, AX
	POPCNTQ DX, DX
	ADDQ R13, R12
	ADDQ R15, R14
	ADDQ DX, AX
	ADDQ R14, R12
	MOVQ 48(SI), R13
	MOVQ 56(SI), R15
	XORQ R10, R13
	XORQ R11, R15
	POPCNTQ R13, R13
	POPCNTQ R15, R15
	ADDQ R13, AX
	ADDQ R15, AX
	MOVW R12, 0(DI)
	MOVW AX, 2(DI)
	CMPQ R12, BX
	CMOVQLT R12, BX
	CMPQ AX, BX
	CMOVQLT AX, BX
	ADDQ $64, SI
	ADDQ $4, DI
	SUBQ $2, CX
	CMPQ CX, $2
	JGE loop2

tail:
	TESTQ CX, CX
	JZ done
	MOVQ 0(SI), R12
	MOVQ 8(SI), R13
	MOVQ 16(SI), R14
	MOVQ 24(SI), R15
	XORQ R8, R12
	XORQ R9, R13
	XORQ R10, R14
	XORQ R11, R15
	POPCNTQ R12, R12
	POPCNTQ R13, R13
	POPCNTQ R14, R14
	POPCNTQ R15, R15
	ADDQ R13, R12
	ADDQ R15, R14
	ADDQ R14, R12
	MOVW R12, 0(DI)
	CMPQ R12, BX
	CMOVQLT R12, BX

done:
	MOVQ BX, ret+56(FP)
	RET

// Lane order after the reduction below is codes 0,2,1,3,4,6,5,7; this
// VPERMQ index vector restores 0..7.
DATA avx512perm<>+0(SB)/8, $0
DATA avx512perm<>+8(SB)/8, $2
DATA avx512perm<>+16(SB)/8, $1
DATA avx512perm<>+24(SB)/8, $3
DATA avx512perm<>+32(SB)/8, $4
DATA avx512perm<>+40(SB)/8, $6
DATA avx512perm<>+48(SB)/8, $5
DATA avx512perm<>+56(SB)/8, $7
GLOBL avx512perm<>(SB), RODATA|NOPTR, $64

// func distBlockAVX512x8(q *Code, codes []Code, out []uint16) int
// Eight codes (four ZMM loads) per iteration: XOR with the broadcast query,
// VPOPCNTQ per 64-bit word, then two shuffle-add steps sum each code's four
// words. Registers Z16-Z31 only, so X15 (ABIInternal's zero register) is
// never touched.
TEXT ·distBlockAVX512x8(SB), NOSPLIT, $0-64
	MOVQ q+0(FP), AX
	MOVQ codes_base+8(FP), SI
	MOVQ codes_len+16(FP), CX
	MOVQ out_base+32(FP), DI
	VBROADCASTI64X4 (AX), Z16
	VMOVDQU64 avx512perm<>(SB), Z17
	VPTERNLOGQ $0xff, Z18, Z18, Z18 // running minimum, all ones
	SHRQ $3, CX

loop8:
	VPXORQ 0(SI), Z16, Z20
	VPXORQ 64(SI), Z16, Z21
	VPXORQ 128(SI), Z16, Z22
	VPXORQ 192(SI), Z16, Z23
	VPOPCNTQ Z20, Z20
	VPOPCNTQ Z21, Z21
	VPOPCNTQ Z22, Z22
	VPOPCNTQ Z23, Z23
	VPUNPCKLQDQ Z21, Z20, Z24
	VPUNPCKHQDQ Z21, Z20, Z25
	VPUNPCKLQDQ Z23, Z22, Z26
	VPUNPCKHQDQ Z23, Z22, Z27
	VPADDQ Z25, Z24, Z24
	VPADDQ Z27, Z26, Z26
	VSHUFI64X2 $0x88, Z26, Z24, Z28
	VSHUFI64X2 $0xDD, Z26, Z24, Z29
	VPADDQ Z29, Z28, Z28
	VPERMQ Z28, Z17, Z28
	VPMOVQW Z28, (DI)
	VPMINUQ Z28, Z18, Z18
	ADDQ $256, SI
	ADDQ $16, DI
	DECQ CX
	JNZ loop8

	VEXTRACTI64X4 $1, Z18, Y19
	VPMINUQ Y19, Y18, Y18
	VEXTRACTI32X4 $1, Y18, X19
	VPMINUQ X19, X18, X18
	VPSHUFD $0x4E, X18, X19
	VPMINUQ X19, X18, X18
	VMOVQ X18, AX
	VZEROUPPER
	MOVQ AX, ret+56(FP)
	RET

// avx512perm16 is distBlockAVX512x16's final VPERMW: after its two packing
// and two shuffle-add steps, the distance of code c (of sixteen) is 16-bit
// word 16h+f of the result for c = 2f+h below 8, and word 16h+4+f for
// c−8 = 2f+h; out word c takes it.
DATA avx512perm16<>+0(SB)/2, $0
DATA avx512perm16<>+2(SB)/2, $16
DATA avx512perm16<>+4(SB)/2, $1
DATA avx512perm16<>+6(SB)/2, $17
DATA avx512perm16<>+8(SB)/2, $2
DATA avx512perm16<>+10(SB)/2, $18
DATA avx512perm16<>+12(SB)/2, $3
DATA avx512perm16<>+14(SB)/2, $19
DATA avx512perm16<>+16(SB)/2, $4
DATA avx512perm16<>+18(SB)/2, $20
DATA avx512perm16<>+20(SB)/2, $5
DATA avx512perm16<>+22(SB)/2, $21
DATA avx512perm16<>+24(SB)/2, $6
DATA avx512perm16<>+26(SB)/2, $22
DATA avx512perm16<>+28(SB)/2, $7
DATA avx512perm16<>+30(SB)/2, $23
DATA avx512perm16<>+32(SB)/8, $0
DATA avx512perm16<>+40(SB)/8, $0
DATA avx512perm16<>+48(SB)/8, $0
DATA avx512perm16<>+56(SB)/8, $0
GLOBL avx512perm16<>(SB), RODATA|NOPTR, $64

// func distBlockAVX512x16(q *Code, codes []Code, out []uint16) int
// Sixteen codes (eight ZMM loads) per iteration, for fewer vector
// operations per code than distBlockAVX512x8 (17 against 20 per eight
// codes: on a CPU that runs a 512-bit operation as two 256-bit halves,
// such as AMD's Zen 4, their number is what bounds the loop). XOR with the
// broadcast query and VPOPCNTQ per 64-bit word as there; then each group
// of four registers (eight codes) is packed into one, the counts of
// register i shifted to bits 16i..16i+15 of each quadword (a count is at
// most 64, and a code's sum at most 256, so no field carries into the
// next); two shuffle-add steps sum the four words of each code in both
// packed registers at once, and one VPERMW puts the sixteen distances in
// code order. Needs AVX-512 BW besides F, VL and VPOPCNTDQ. Registers
// Z16-Z29 and X1 only, so X15 (ABIInternal's zero register) is never
// touched.
TEXT ·distBlockAVX512x16(SB), NOSPLIT, $0-64
	MOVQ q+0(FP), AX
	MOVQ codes_base+8(FP), SI
	MOVQ codes_len+16(FP), CX
	MOVQ out_base+32(FP), DI
	VBROADCASTI64X4 (AX), Z16
	VMOVDQU64 avx512perm16<>(SB), Z17
	VPTERNLOGQ $0xff, Z18, Z18, Z18
	SHRQ $4, CX

loop16:
	DISTS16
	VPERMW Z28, Z17, Z28
	VMOVDQU16 Y28, (DI)
	VPMINUW Y28, Y18, Y18
	ADDQ $32, DI
	DECQ CX
	JNZ loop16

	VEXTRACTI32X4 $1, Y18, X19
	VPMINUW X19, X18, X18
	VMOVDQU64 X18, X1
	VPHMINPOSUW X1, X1
	VMOVD X1, AX
	ANDQ $0xffff, AX
	VZEROUPPER
	MOVQ AX, ret+56(FP)
	RET
