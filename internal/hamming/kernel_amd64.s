//go:build !purego

#include "textflag.h"

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
