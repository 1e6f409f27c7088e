//go:build !purego

package hamming

import "testing"

// TestAVX512WithoutBW: the AVX-512 kernel on a CPU without AVX-512 BW
// (eight codes at a time, never sixteen), distances and counts within a
// radius, agrees with the portable one too. TestKernelsAgree and
// TestHistogramWithinAgrees cover the sixteen-code loops where the CPU
// has BW.
func TestAVX512WithoutBW(t *testing.T) {
	if !hasAVX512BW {
		t.Skip("this CPU has no AVX-512 BW: TestKernelsAgree ran without it")
	}
	hasAVX512BW = false
	defer func() { hasAVX512BW = true }()
	checkKernelsAgree(t)
	TestHistogramWithinAgrees(t)
}
