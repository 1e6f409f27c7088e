//go:build !purego

package euclid

import "golang.org/x/sys/cpu"

// The AVX-512 kernels need only AVX512F (VFMADD231PS, VBROADCASTSS and
// VCMPPS into mask registers on ZMM); the AVX2 ones AVX2 and FMA. x/sys/cpu
// also checks that the OS saves the vector state.
var (
	hasAVX512 = cpu.X86.HasAVX512F
	hasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
)

var activeKernel = func() int {
	switch {
	case hasAVX512:
		return kernelAVX512
	case hasAVX2:
		return kernelAVX2
	}
	return kernelGeneric
}()

func availableKernels() []int {
	ks := []int{kernelGeneric}
	if hasAVX2 {
		ks = append(ks, kernelAVX2)
	}
	if hasAVX512 {
		ks = append(ks, kernelAVX512)
	}
	return ks
}

// scores4AVX512 is scores4Generic for groups ≥ 1 whole 64-row groups; the
// caller checks every bound.
//
//go:noescape
func scores4AVX512(q4 *float32, dim int, packed *float32, groups int, norms *float32, out *float32, stride int, thr *float32, masks *uint64, mstride int)

// scores1AVX512 is scores1Generic for groups ≥ 1 whole 64-row groups.
//
//go:noescape
func scores1AVX512(q *float32, dim int, packed *float32, groups int, norms *float32, out *float32)

// scores4AVX2 is scores4AVX512 on YMM registers.
//
//go:noescape
func scores4AVX2(q4 *float32, dim int, packed *float32, groups int, norms *float32, out *float32, stride int, thr *float32, masks *uint64, mstride int)

// scores1AVX2 is scores1AVX512 on YMM registers.
//
//go:noescape
func scores1AVX2(q *float32, dim int, packed *float32, groups int, norms *float32, out *float32)

func scores4With(k int, q4 []float32, dim int, packed, norms, out []float32, stride int, thr []float32, masks []uint64, mstride int) {
	groups := len(packed) / (dim * groupRows)
	if (k != kernelAVX512 && k != kernelAVX2) || groups == 0 {
		scores4Generic(q4, dim, packed, norms, out, stride, thr, masks, mstride)
		return
	}
	// The assembly trusts these bounds.
	_ = q4[4*dim-1]
	_ = norms[groups*groupRows-1]
	_ = out[3*stride+groups*groupRows-1]
	_ = thr[3]
	_ = masks[3*mstride+groups-1]
	if stride < groups*groupRows || mstride < groups {
		panic("euclid: scores4: stride too small")
	}
	if k == kernelAVX2 {
		scores4AVX2(&q4[0], dim, &packed[0], groups, &norms[0], &out[0], stride, &thr[0], &masks[0], mstride)
		return
	}
	scores4AVX512(&q4[0], dim, &packed[0], groups, &norms[0], &out[0], stride, &thr[0], &masks[0], mstride)
}

func scores1With(k int, q []float32, dim int, packed, norms, out []float32) {
	groups := len(packed) / (dim * groupRows)
	if (k != kernelAVX512 && k != kernelAVX2) || groups == 0 {
		scores1Generic(q, dim, packed, norms, out)
		return
	}
	_ = q[dim-1]
	_ = norms[groups*groupRows-1]
	_ = out[groups*groupRows-1]
	if k == kernelAVX2 {
		scores1AVX2(&q[0], dim, &packed[0], groups, &norms[0], &out[0])
		return
	}
	scores1AVX512(&q[0], dim, &packed[0], groups, &norms[0], &out[0])
}
