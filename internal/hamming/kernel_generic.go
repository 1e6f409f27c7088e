//go:build purego || !(amd64 || arm64)

package hamming

// activeKernel is fixed to the portable kernel on this build.
var activeKernel = kernelGeneric

// availableKernels lists the kernels this CPU can run, for cross-checking.
func availableKernels() []int { return []int{kernelGeneric} }

func distBlockWith(k int, q *Code, codes []Code, out []uint16) int {
	return distBlockGeneric(q, codes, out)
}

func distBlock(q *Code, codes []Code, out []uint16) int {
	return distBlockGeneric(q, codes, out)
}
