//go:build !purego

#include "textflag.h"

// func distBlockNEON(q *Code, codes []Code, out []uint16) int
// One code (two 16-byte vectors) per iteration: EOR with the query, CNT per
// byte, add the two halves (at most 16 per byte lane), UADDLV to a scalar.
TEXT ·distBlockNEON(SB), NOSPLIT, $0-64
	MOVD q+0(FP), R0
	MOVD codes_base+8(FP), R1
	MOVD codes_len+16(FP), R2
	MOVD out_base+32(FP), R3
	VLD1 (R0), [V0.B16, V1.B16]
	MOVD $257, R4
	CBZ R2, done

loop:
	VLD1.P 32(R1), [V2.B16, V3.B16]
	VEOR V0.B16, V2.B16, V2.B16
	VEOR V1.B16, V3.B16, V3.B16
	VCNT V2.B16, V2.B16
	VCNT V3.B16, V3.B16
	VADD V2.B16, V3.B16, V2.B16
	VUADDLV V2.B16, V2
	VMOV V2.H[0], R5
	MOVHU.P R5, 2(R3)
	CMP R4, R5
	CSEL LT, R5, R4, R4
	SUBS $1, R2, R2
	BNE loop

done:
	MOVD R4, ret+56(FP)
	RET
