//go:build !purego

#include "textflag.h"

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
