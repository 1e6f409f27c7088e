//go:build !purego

#include "textflag.h"

// AVX2 + FMA kernels, for x86-64 CPUs without AVX-512: YMM registers, 16
// rows (two YMM) per sub-pass, four sub-passes per 64-row group, so a
// group's packed rows (dim × 256 bytes) are read from L1 four times.

// SUB4INIT, SUB4STEP and SUB4DONE score rows off/4..off/4+15 of the group at SI for four queries:
// accumulators Y8-Y15 (query j in Y8+2j, Y9+2j) from the norms at DX, then
// the k loop (BX: packed rows, R12: query values, R13: end of query 0), then
// the scores to out and the two 8-bit masks per query to the mask bytes.
#define SUB4INIT(off) \
	VMOVUPS off(DX), Y8 \
	VMOVUPS (off+32)(DX), Y9 \
	VMOVAPS Y8, Y10 \
	VMOVAPS Y9, Y11 \
	VMOVAPS Y8, Y12 \
	VMOVAPS Y9, Y13 \
	VMOVAPS Y8, Y14 \
	VMOVAPS Y9, Y15 \
	MOVQ SI, BX \
	MOVQ AX, R12

#define SUB4STEP(off) \
	VMOVUPS off(BX), Y4 \
	VMOVUPS (off+32)(BX), Y5 \
	VBROADCASTSS (R12), Y0 \
	VBROADCASTSS (R12)(R8*1), Y1 \
	VBROADCASTSS (R12)(R8*2), Y2 \
	VBROADCASTSS (R12)(R9*1), Y3 \
	VFMADD231PS Y4, Y0, Y8 \
	VFMADD231PS Y5, Y0, Y9 \
	VFMADD231PS Y4, Y1, Y10 \
	VFMADD231PS Y5, Y1, Y11 \
	VFMADD231PS Y4, Y2, Y12 \
	VFMADD231PS Y5, Y2, Y13 \
	VFMADD231PS Y4, Y3, Y14 \
	VFMADD231PS Y5, Y3, Y15 \
	ADDQ $256, BX \
	ADDQ $4, R12 \
	CMPQ R12, R13

#define SUB4DONE(off, moff) \
	VMOVUPS Y8, off(DI) \
	VMOVUPS Y9, (off+32)(DI) \
	VMOVUPS Y10, off(DI)(R10*1) \
	VMOVUPS Y11, (off+32)(DI)(R10*1) \
	VMOVUPS Y12, off(DI)(R10*2) \
	VMOVUPS Y13, (off+32)(DI)(R10*2) \
	VMOVUPS Y14, off(DI)(R11*1) \
	VMOVUPS Y15, (off+32)(DI)(R11*1) \
	MOVQ thr+56(FP), R12 \
	VBROADCASTSS 0(R12), Y0 \
	VBROADCASTSS 4(R12), Y1 \
	VBROADCASTSS 8(R12), Y2 \
	VBROADCASTSS 12(R12), Y3 \
	VCMPPS $2, Y0, Y8, Y4 \
	VMOVMSKPS Y4, R12 \
	MOVB R12, moff(R14) \
	VCMPPS $2, Y0, Y9, Y4 \
	VMOVMSKPS Y4, R12 \
	MOVB R12, (moff+1)(R14) \
	VCMPPS $2, Y1, Y10, Y4 \
	VMOVMSKPS Y4, R12 \
	MOVB R12, moff(R14)(R15*1) \
	VCMPPS $2, Y1, Y11, Y4 \
	VMOVMSKPS Y4, R12 \
	MOVB R12, (moff+1)(R14)(R15*1) \
	VCMPPS $2, Y2, Y12, Y4 \
	VMOVMSKPS Y4, R12 \
	MOVB R12, moff(R14)(R15*2) \
	VCMPPS $2, Y2, Y13, Y4 \
	VMOVMSKPS Y4, R12 \
	MOVB R12, (moff+1)(R14)(R15*2) \
	ADDQ R15, R14 \
	VCMPPS $2, Y3, Y14, Y4 \
	VMOVMSKPS Y4, R12 \
	MOVB R12, moff(R14)(R15*2) \
	VCMPPS $2, Y3, Y15, Y4 \
	VMOVMSKPS Y4, R12 \
	MOVB R12, (moff+1)(R14)(R15*2) \
	SUBQ R15, R14

// func scores4AVX512(q4 *float32, dim int, packed *float32, groups int, norms *float32, out *float32, stride int, thr *float32, masks *uint64, mstride int)
// Four queries × one 64-row group per pass: 16 ZMM accumulators (Z16-Z31,
// query j in Z16+4j..Z19+4j), started from the rows' norms; per k, four row
// vectors (Z4-Z7) and four broadcast query values (Z0-Z3), 16 FMAs. The sum
// runs over k in order, the same order as scores4Generic. After a group, each
// query's scores are compared with its threshold (Z8-Z11) and the 64 bits of
// "score <= thr" go to masks[j*mstride+g].
#define MASK(thr, a0, a1, a2, a3, dst) \
	VCMPPS $2, thr, a0, K1 \
	VCMPPS $2, thr, a1, K2 \
	VCMPPS $2, thr, a2, K3 \
	VCMPPS $2, thr, a3, K4 \
	KMOVW K1, BX \
	KMOVW K2, R12 \
	SHLQ $16, R12 \
	ORQ R12, BX \
	KMOVW K3, R12 \
	SHLQ $32, R12 \
	ORQ R12, BX \
	KMOVW K4, R12 \
	SHLQ $48, R12 \
	ORQ R12, BX \
	MOVQ BX, dst

TEXT ·scores4AVX512(SB), NOSPLIT, $0-80
	MOVQ q4+0(FP), AX
	MOVQ dim+8(FP), R13
	MOVQ packed+16(FP), SI
	MOVQ groups+24(FP), CX
	MOVQ norms+32(FP), DX
	MOVQ out+40(FP), DI
	MOVQ stride+48(FP), R10
	MOVQ thr+56(FP), R14
	VBROADCASTSS 0(R14), Z8
	VBROADCASTSS 4(R14), Z9
	VBROADCASTSS 8(R14), Z10
	VBROADCASTSS 12(R14), Z11
	MOVQ masks+64(FP), R14
	MOVQ mstride+72(FP), R15
	SHLQ $3, R15            // mask stride in bytes
	MOVQ R13, R8
	SHLQ $2, R8             // query stride in bytes
	LEAQ (R8)(R8*2), R9     // 3 × query stride
	SHLQ $2, R10            // out stride in bytes
	LEAQ (R10)(R10*2), R11  // 3 × out stride
	TESTQ CX, CX
	JZ done4

group4:
	VMOVUPS 0(DX), Z16
	VMOVUPS 64(DX), Z17
	VMOVUPS 128(DX), Z18
	VMOVUPS 192(DX), Z19
	VMOVAPS Z16, Z20
	VMOVAPS Z17, Z21
	VMOVAPS Z18, Z22
	VMOVAPS Z19, Z23
	VMOVAPS Z16, Z24
	VMOVAPS Z17, Z25
	VMOVAPS Z18, Z26
	VMOVAPS Z19, Z27
	VMOVAPS Z16, Z28
	VMOVAPS Z17, Z29
	VMOVAPS Z18, Z30
	VMOVAPS Z19, Z31
	MOVQ AX, R12
	MOVQ R13, BX

k4:
	VMOVUPS 0(SI), Z4
	VMOVUPS 64(SI), Z5
	VMOVUPS 128(SI), Z6
	VMOVUPS 192(SI), Z7
	VBROADCASTSS (R12), Z0
	VBROADCASTSS (R12)(R8*1), Z1
	VBROADCASTSS (R12)(R8*2), Z2
	VBROADCASTSS (R12)(R9*1), Z3
	VFMADD231PS Z4, Z0, Z16
	VFMADD231PS Z5, Z0, Z17
	VFMADD231PS Z6, Z0, Z18
	VFMADD231PS Z7, Z0, Z19
	VFMADD231PS Z4, Z1, Z20
	VFMADD231PS Z5, Z1, Z21
	VFMADD231PS Z6, Z1, Z22
	VFMADD231PS Z7, Z1, Z23
	VFMADD231PS Z4, Z2, Z24
	VFMADD231PS Z5, Z2, Z25
	VFMADD231PS Z6, Z2, Z26
	VFMADD231PS Z7, Z2, Z27
	VFMADD231PS Z4, Z3, Z28
	VFMADD231PS Z5, Z3, Z29
	VFMADD231PS Z6, Z3, Z30
	VFMADD231PS Z7, Z3, Z31
	ADDQ $256, SI
	ADDQ $4, R12
	DECQ BX
	JNZ k4

	VMOVUPS Z16, 0(DI)
	VMOVUPS Z17, 64(DI)
	VMOVUPS Z18, 128(DI)
	VMOVUPS Z19, 192(DI)
	VMOVUPS Z20, 0(DI)(R10*1)
	VMOVUPS Z21, 64(DI)(R10*1)
	VMOVUPS Z22, 128(DI)(R10*1)
	VMOVUPS Z23, 192(DI)(R10*1)
	VMOVUPS Z24, 0(DI)(R10*2)
	VMOVUPS Z25, 64(DI)(R10*2)
	VMOVUPS Z26, 128(DI)(R10*2)
	VMOVUPS Z27, 192(DI)(R10*2)
	VMOVUPS Z28, 0(DI)(R11*1)
	VMOVUPS Z29, 64(DI)(R11*1)
	VMOVUPS Z30, 128(DI)(R11*1)
	VMOVUPS Z31, 192(DI)(R11*1)
	MASK(Z8, Z16, Z17, Z18, Z19, (R14))
	MASK(Z9, Z20, Z21, Z22, Z23, (R14)(R15*1))
	MASK(Z10, Z24, Z25, Z26, Z27, (R14)(R15*2))
	LEAQ (R14)(R15*2), AX
	MASK(Z11, Z28, Z29, Z30, Z31, (AX)(R15*1))
	MOVQ q4+0(FP), AX
	ADDQ $8, R14
	ADDQ $256, DX
	ADDQ $256, DI
	DECQ CX
	JNZ group4

done4:
	VZEROUPPER
	RET

// func scores1AVX512(q *float32, dim int, packed *float32, groups int, norms *float32, out *float32)
// One query × one 64-row group per pass: four accumulators (Z16-Z19), one
// broadcast and four FMAs with memory operands per k. Memory-bound.
TEXT ·scores1AVX512(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), AX
	MOVQ dim+8(FP), R13
	MOVQ packed+16(FP), SI
	MOVQ groups+24(FP), CX
	MOVQ norms+32(FP), DX
	MOVQ out+40(FP), DI
	TESTQ CX, CX
	JZ done1

group1:
	VMOVUPS 0(DX), Z16
	VMOVUPS 64(DX), Z17
	VMOVUPS 128(DX), Z18
	VMOVUPS 192(DX), Z19
	MOVQ AX, R12
	MOVQ R13, BX

k1:
	VBROADCASTSS (R12), Z0
	VFMADD231PS 0(SI), Z0, Z16
	VFMADD231PS 64(SI), Z0, Z17
	VFMADD231PS 128(SI), Z0, Z18
	VFMADD231PS 192(SI), Z0, Z19
	ADDQ $256, SI
	ADDQ $4, R12
	DECQ BX
	JNZ k1

	VMOVUPS Z16, 0(DI)
	VMOVUPS Z17, 64(DI)
	VMOVUPS Z18, 128(DI)
	VMOVUPS Z19, 192(DI)
	ADDQ $256, DX
	ADDQ $256, DI
	DECQ CX
	JNZ group1

done1:
	VZEROUPPER
	RET

// func scores4AVX2(q4 *float32, dim int, packed *float32, groups int, norms *float32, out *float32, stride int, thr *float32, masks *uint64, mstride int)
// The same contract as scores4AVX512.
TEXT ·scores4AVX2(SB), NOSPLIT, $0-80
	MOVQ q4+0(FP), AX
	MOVQ dim+8(FP), R8
	MOVQ packed+16(FP), SI
	MOVQ groups+24(FP), CX
	MOVQ norms+32(FP), DX
	MOVQ out+40(FP), DI
	MOVQ stride+48(FP), R10
	MOVQ masks+64(FP), R14
	MOVQ mstride+72(FP), R15
	SHLQ $2, R8             // query stride in bytes
	LEAQ (R8)(R8*2), R9     // 3 × query stride
	LEAQ (AX)(R8*1), R13    // end of query 0
	SHLQ $2, R10            // out stride in bytes
	LEAQ (R10)(R10*2), R11  // 3 × out stride
	SHLQ $3, R15            // mask stride in bytes
	TESTQ CX, CX
	JZ done4avx2

group4avx2:
	SUB4INIT(0)

k4avx2_0:
	SUB4STEP(0)
	JNE k4avx2_0
	SUB4DONE(0, 0)

	SUB4INIT(64)

k4avx2_64:
	SUB4STEP(64)
	JNE k4avx2_64
	SUB4DONE(64, 2)

	SUB4INIT(128)

k4avx2_128:
	SUB4STEP(128)
	JNE k4avx2_128
	SUB4DONE(128, 4)

	SUB4INIT(192)

k4avx2_192:
	SUB4STEP(192)
	JNE k4avx2_192
	SUB4DONE(192, 6)

	MOVQ BX, SI             // the next group
	ADDQ $256, DX
	ADDQ $256, DI
	ADDQ $8, R14
	DECQ CX
	JNZ group4avx2

done4avx2:
	VZEROUPPER
	RET

// func scores1AVX2(q *float32, dim int, packed *float32, groups int, norms *float32, out *float32)
// One query × one 64-row group per pass: eight YMM accumulators, one
// broadcast and eight FMAs with memory operands per k.
TEXT ·scores1AVX2(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), AX
	MOVQ dim+8(FP), R13
	MOVQ packed+16(FP), SI
	MOVQ groups+24(FP), CX
	MOVQ norms+32(FP), DX
	MOVQ out+40(FP), DI
	TESTQ CX, CX
	JZ done1avx2

group1avx2:
	VMOVUPS 0(DX), Y8
	VMOVUPS 32(DX), Y9
	VMOVUPS 64(DX), Y10
	VMOVUPS 96(DX), Y11
	VMOVUPS 128(DX), Y12
	VMOVUPS 160(DX), Y13
	VMOVUPS 192(DX), Y14
	VMOVUPS 224(DX), Y15
	MOVQ AX, R12
	MOVQ R13, BX

k1avx2:
	VBROADCASTSS (R12), Y0
	VFMADD231PS 0(SI), Y0, Y8
	VFMADD231PS 32(SI), Y0, Y9
	VFMADD231PS 64(SI), Y0, Y10
	VFMADD231PS 96(SI), Y0, Y11
	VFMADD231PS 128(SI), Y0, Y12
	VFMADD231PS 160(SI), Y0, Y13
	VFMADD231PS 192(SI), Y0, Y14
	VFMADD231PS 224(SI), Y0, Y15
	ADDQ $256, SI
	ADDQ $4, R12
	DECQ BX
	JNZ k1avx2

	VMOVUPS Y8, 0(DI)
	VMOVUPS Y9, 32(DI)
	VMOVUPS Y10, 64(DI)
	VMOVUPS Y11, 96(DI)
	VMOVUPS Y12, 128(DI)
	VMOVUPS Y13, 160(DI)
	VMOVUPS Y14, 192(DI)
	VMOVUPS Y15, 224(DI)
	ADDQ $256, DX
	ADDQ $256, DI
	DECQ CX
	JNZ group1avx2

done1avx2:
	VZEROUPPER
	RET
