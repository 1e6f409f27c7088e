//go:build !purego

#include "textflag.h"

// func transposeAVX512x8(codes []Code, t []uint64)
// Transposes codes (a multiple of 8 of them, at least 8; t holds 4 words
// per code) eight codes at a time: the shuffles of distBlockAVX512x8 give
// four vectors holding word 0, 1, 2 and 3 of the eight codes, codes
// 0,2,1,3,4,6,5,7 in lanes 0..7 (distMultiAVX512x8T's callers put the
// marks back in code order: a permutation of the codes costs nothing to
// the search, a VPERMQ per word four shuffles in 12). Registers Z20-Z31
// only, so X15 (ABIInternal's zero register) is never touched.
TEXT ·transposeAVX512x8(SB), NOSPLIT, $0-48
	MOVQ codes_base+0(FP), SI
	MOVQ codes_len+8(FP), CX
	MOVQ t_base+24(FP), R12
	SHRQ $3, CX

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
	VMOVDQU64 Z28, 0(R12)
	VMOVDQU64 Z29, 64(R12)
	VMOVDQU64 Z30, 128(R12)
	VMOVDQU64 Z31, 192(R12)
	ADDQ $256, SI
	ADDQ $256, R12
	DECQ CX
	JNZ transpose
	VZEROUPPER
	RET

// func distMultiAVX512x8T(qs []Code, t []uint64, thr []int, marks []blockMarks) uint64
// t is a block of 8 to blockSize codes (a multiple of 8) as
// transposeAVX512x8 leaves them: word w of codes 8g..8g+7 at t[32g+8w:].
// Per query, each group of eight codes costs four XORs with the query's
// broadcast words, four VPOPCNTQ, three adds and a minimum per lane: no
// shuffle, no store. Only when a lane's minimum is within the query's
// threshold (with none, above Bits, the block's minimum is the threshold)
// is the pass made again, storing each group's comparison mask as its
// byte of the query's marks, and the query's bit set in the result: a
// store per group costs more than the second pass a far query rarely
// needs. Registers Z16-Z31 only, so X15 (ABIInternal's zero register) is
// never touched.
TEXT ·distMultiAVX512x8T(SB), NOSPLIT, $0-104
	MOVQ qs_base+0(FP), AX
	MOVQ qs_len+8(FP), BX
	MOVQ t_base+24(FP), R10
	MOVQ t_len+32(FP), R11
	MOVQ thr_base+48(FP), R8
	MOVQ marks_base+72(FP), R9
	XORQ DX, DX // the hits
	MOVQ $1, R13 // the current query's bit
	SHRQ $5, R11 // groups of eight codes

query:
	VPBROADCASTQ 0(AX), Z16
	VPBROADCASTQ 8(AX), Z17
	VPBROADCASTQ 16(AX), Z18
	VPBROADCASTQ 24(AX), Z19
	VPTERNLOGQ $0xff, Z25, Z25, Z25 // running minimum per lane, all ones
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
	VPMINUQ Z21, Z25, Z25
	ADDQ $256, R12
	DECQ CX
	JNZ group

	MOVQ 0(R8), SI
	CMPQ SI, $256 // Bits
	JLS threshold
	// No best distance yet: the block's minimum is the threshold.
	VEXTRACTI64X4 $1, Z25, Y26
	VPMINUQ Y26, Y25, Y26
	VEXTRACTI32X4 $1, Y26, X27
	VPMINUQ X27, X26, X26
	VPSHUFD $0x4E, X26, X27
	VPMINUQ X27, X26, X26
	VPBROADCASTQ X26, Z20
	JMP marking

threshold:
	VPBROADCASTQ SI, Z20
	VPCMPUQ $2, Z20, Z25, K1 // a lane's minimum ≤ threshold
	KORTESTB K1, K1
	JZ next

marking:
	// Some code is within the threshold (rare for a far query past its
	// first block): the same pass again, storing each group's mask.
	ORQ R13, DX
	VPXORQ Y26, Y26, Y26
	VMOVDQU64 Y26, 0(R9) // zero past the last group
	MOVQ R10, R12
	MOVQ R9, DI
	MOVQ R11, CX

mark:
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
	VPCMPUQ $2, Z20, Z21, K1 // distance ≤ threshold
	KMOVB K1, 0(DI)
	INCQ DI
	ADDQ $256, R12
	DECQ CX
	JNZ mark

next:
	SHLQ $1, R13
	ADDQ $8, R8
	ADDQ $32, R9
	ADDQ $32, AX
	DECQ BX
	JNZ query

	MOVQ DX, ret+96(FP)
	VZEROUPPER
	RET
