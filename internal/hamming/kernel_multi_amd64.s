//go:build !purego

#include "textflag.h"

// The VPERMQ index vector of kernel_amd64.s (avx512perm), which this file
// cannot see: lanes 0,2,1,3,4,6,5,7 back to 0..7.
DATA multiperm<>+0(SB)/8, $0
DATA multiperm<>+8(SB)/8, $2
DATA multiperm<>+16(SB)/8, $1
DATA multiperm<>+24(SB)/8, $3
DATA multiperm<>+32(SB)/8, $4
DATA multiperm<>+40(SB)/8, $6
DATA multiperm<>+48(SB)/8, $5
DATA multiperm<>+56(SB)/8, $7
GLOBL multiperm<>(SB), RODATA|NOPTR, $64

// func distMultiAVX512x8(qs []Code, codes []Code, mins []int, t *[1024]uint64)
// First the block is transposed into t, eight codes at a time: the
// shuffles of distBlockAVX512x8, then the same VPERMQ back to code order,
// give four vectors holding word 0, 1, 2 and 3 of the eight codes. Then,
// per query, each group of eight codes costs four XORs with the query's
// broadcast words, four VPOPCNTQ, three adds and a minimum: no shuffle,
// no store. Registers
// Z16-Z31 only, so X15 (ABIInternal's zero register) is never touched.
TEXT ·distMultiAVX512x8(SB), NOSPLIT, $0-80
	MOVQ qs_base+0(FP), AX
	MOVQ qs_len+8(FP), BX
	MOVQ codes_base+24(FP), SI
	MOVQ codes_len+32(FP), CX
	MOVQ mins_base+48(FP), R8
	MOVQ t+72(FP), R10
	SHRQ $3, CX
	MOVQ CX, R11
	MOVQ R10, R12
	VMOVDQU64 multiperm<>(SB), Z17

transpose:
	VMOVDQU64 0(SI), Z20
	VMOVDQU64 64(SI), Z21
	VMOVDQU64 128(SI), Z22
	VMOVDQU64 192(SI), Z23
	VPUNPCKLQDQ Z21, Z20, Z24
	VPUNPCKHQDQ Z21, Z20, Z25
	VPUNPCKLQDQ Z23, Z22, Z26
	VPUNPCKHQDQ Z23, Z22, Z27
	VSHUFI64X2 $0x88, Z26, Z24, Z28
	VSHUFI64X2 $0x88, Z27, Z25, Z29
	VSHUFI64X2 $0xDD, Z26, Z24, Z30
	VSHUFI64X2 $0xDD, Z27, Z25, Z31
	VPERMQ Z28, Z17, Z28
	VPERMQ Z29, Z17, Z29
	VPERMQ Z30, Z17, Z30
	VPERMQ Z31, Z17, Z31
	VMOVDQU64 Z28, 0(R12)
	VMOVDQU64 Z29, 64(R12)
	VMOVDQU64 Z30, 128(R12)
	VMOVDQU64 Z31, 192(R12)
	ADDQ $256, SI
	ADDQ $256, R12
	DECQ CX
	JNZ transpose

query:
	VPBROADCASTQ 0(AX), Z16
	VPBROADCASTQ 8(AX), Z17
	VPBROADCASTQ 16(AX), Z18
	VPBROADCASTQ 24(AX), Z19
	VPTERNLOGQ $0xff, Z20, Z20, Z20 // running minimum, all ones
	MOVQ R10, R12
	MOVQ R11, CX

group:
	VPXORQ 0(R12), Z16, Z21
	VPXORQ 64(R12), Z17, Z22
	VPXORQ 128(R12), Z18, Z23
	VPXORQ 192(R12), Z19, Z24
	VPOPCNTQ Z21, Z21
	VPOPCNTQ Z22, Z22
	VPOPCNTQ Z23, Z23
	VPOPCNTQ Z24, Z24
	VPADDQ Z22, Z21, Z21
	VPADDQ Z24, Z23, Z23
	VPADDQ Z23, Z21, Z21
	VPMINUQ Z21, Z20, Z20
	ADDQ $256, R12
	DECQ CX
	JNZ group

	VEXTRACTI64X4 $1, Z20, Y21
	VPMINUQ Y21, Y20, Y20
	VEXTRACTI32X4 $1, Y20, X21
	VPMINUQ X21, X20, X20
	VPSHUFD $0x4E, X20, X21
	VPMINUQ X21, X20, X20
	VMOVQ X20, DX
	MOVQ DX, 0(R8)
	ADDQ $8, R8
	ADDQ $32, AX
	DECQ BX
	JNZ query

	VZEROUPPER
	RET
