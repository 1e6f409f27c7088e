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

// distBlockAVX512x16 handles a multiple of 16 codes (at least 16). It
// also needs AVX-512 BW (hasAVX512BW).
//
//go:noescape
func distBlockAVX512x16(q *Code, codes []Code, out []uint16) int

// hasAVX512BW says whether the AVX-512 kernel may use distBlockAVX512x16:
// every CPU with VPOPCNTDQ and VL made so far has BW too, but the kernel
// does not assume it.
var hasAVX512BW = cpu.X86.HasAVX512BW

// distBlockAVX512 is the AVX-512 kernel: sixteen codes at a time (eight
// without BW), then eight, then the POPCNT kernel for the rest.
func distBlockAVX512(q *Code, codes []Code, out []uint16) int {
	m := noDistance
	i := 0
	if n := len(codes) &^ 15; hasAVX512BW && n > 0 {
		m = distBlockAVX512x16(q, codes[:n], out[:n])
		i = n
	}
	if n := len(codes) &^ 7; n > i {
		m = min(m, distBlockAVX512x8(q, codes[i:n], out[i:n]))
		i = n
	}
	if i < len(codes) {
		m = min(m, distBlockPOPCNT(q, codes[i:], out[i:len(codes)]))
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
