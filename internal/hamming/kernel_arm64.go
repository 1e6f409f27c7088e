//go:build !purego

package hamming

// Every arm64 CPU has Advanced SIMD (NEON), so the NEON kernel is always used;
// it is tested against the portable kernel under qemu-user in CI.
var activeKernel = kernelNEON

func availableKernels() []int { return []int{kernelGeneric, kernelNEON} }

//go:noescape
func distBlockNEON(q *Code, codes []Code, out []uint16) int

func distBlockWith(k int, q *Code, codes []Code, out []uint16) int {
	_ = out[:len(codes)] // the assembly trusts this bound
	if k == kernelNEON {
		return distBlockNEON(q, codes, out)
	}
	return distBlockGeneric(q, codes, out)
}

func distBlock(q *Code, codes []Code, out []uint16) int {
	return distBlockWith(activeKernel, q, codes, out)
}
