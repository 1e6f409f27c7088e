//go:build purego || !amd64

package euclid

// activeKernel is fixed to the portable kernel on this build.
var activeKernel = kernelGeneric

// availableKernels lists the kernels this CPU can run, for cross-checking.
func availableKernels() []int { return []int{kernelGeneric} }

func scores4With(k int, q4 []float32, dim int, packed, norms, out []float32, stride int, thr []float32, masks []uint64, mstride int) {
	scores4Generic(q4, dim, packed, norms, out, stride, thr, masks, mstride)
}

func scores1With(k int, q []float32, dim int, packed, norms, out []float32) {
	scores1Generic(q, dim, packed, norms, out)
}
