//go:build !purego

package hamming

import "golang.org/x/sys/cpu"

// At the default GOAMD64=v1 the compiler guards every bits.OnesCount64 with a
// CPU-feature test; the assembly kernels test once, here, at start-up.
var activeKernel = func() int {
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VPOPCNTDQ:
		return kernelAVX512
	case cpu.X86.HasPOPCNT:
		return kernelPOPCNT
	}
	return kernelGeneric
}()

func availableKernels() []int {
	ks := []int{kernelGeneric}
	if cpu.X86.HasPOPCNT {
		ks = append(ks, kernelPOPCNT)
	}
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VPOPCNTDQ {
		ks = append(ks, kernelAVX512)
	}
	return ks
}

//go:noescape
func distBlockPOPCNT(q *Code, codes []Code, out []uint16) int

// distBlockAVX512x8 handles a multiple of 8 codes (at least 8).
//
//go:noescape
func distBlockAVX512x8(q *Code, codes []Code, out []uint16) int

func distBlockAVX512(q *Code, codes []Code, out []uint16) int {
	n := len(codes) &^ 7
	m := noDistance
	if n > 0 {
		m = distBlockAVX512x8(q, codes[:n], out[:n])
	}
	if n < len(codes) {
		m = min(m, distBlockPOPCNT(q, codes[n:], out[n:len(codes)]))
	}
	return m
}

func distBlockWith(k int, q *Code, codes []Code, out []uint16) int {
	_ = out[:len(codes)] // the assembly trusts this bound
	switch k {
	case kernelAVX512:
		return distBlockAVX512(q, codes, out)
	case kernelPOPCNT:
		return distBlockPOPCNT(q, codes, out)
	}
	return distBlockGeneric(q, codes, out)
}

func distBlock(q *Code, codes []Code, out []uint16) int {
	return distBlockWith(activeKernel, q, codes, out)
}
