// The sixteen-code distance arithmetic shared by distBlockAVX512x16
// (kernel_amd64.s) and histWithinAVX512x16 (kernel_hist_amd64.s).

// DISTS16 computes the distances from the broadcast query Z16 to the
// sixteen codes at SI (the arithmetic distBlockAVX512x16's comment
// explains), before any permutation: they are the 16-bit words 0-7 and
// 16-23 of Z28 (the other words hold partial sums), not in code order. It
// moves SI past the codes. Registers Z20-Z29.
#define DISTS16 \
	VPXORQ 0(SI), Z16, Z20 \
	VPXORQ 64(SI), Z16, Z21 \
	VPXORQ 128(SI), Z16, Z22 \
	VPXORQ 192(SI), Z16, Z23 \
	VPXORQ 256(SI), Z16, Z24 \
	VPXORQ 320(SI), Z16, Z25 \
	VPXORQ 384(SI), Z16, Z26 \
	VPXORQ 448(SI), Z16, Z27 \
	VPOPCNTQ Z20, Z20 \
	VPOPCNTQ Z21, Z21 \
	VPOPCNTQ Z22, Z22 \
	VPOPCNTQ Z23, Z23 \
	VPOPCNTQ Z24, Z24 \
	VPOPCNTQ Z25, Z25 \
	VPOPCNTQ Z26, Z26 \
	VPOPCNTQ Z27, Z27 \
	VPSLLQ $16, Z21, Z21 \
	VPSLLQ $32, Z22, Z22 \
	VPSLLQ $48, Z23, Z23 \
	VPTERNLOGQ $0xFE, Z22, Z21, Z20 \
	VPORQ Z23, Z20, Z20 \
	VPSLLQ $16, Z25, Z25 \
	VPSLLQ $32, Z26, Z26 \
	VPSLLQ $48, Z27, Z27 \
	VPTERNLOGQ $0xFE, Z26, Z25, Z24 \
	VPORQ Z27, Z24, Z24 \
	VPUNPCKLQDQ Z24, Z20, Z28 \
	VPUNPCKHQDQ Z24, Z20, Z29 \
	VPADDQ Z29, Z28, Z28 \
	VPERMQ $0x4E, Z28, Z29 \
	VPADDQ Z29, Z28, Z28 \
	ADDQ $512, SI
