package euclid

// The filter kernels score 64-row groups of the packed copy of the rows (see
// pack.go): for a query q scaled by −2 (exact: a power of two) they return
//
//	s_r = ‖y_r‖² + Σ_k (−2q_k)·y_rk = ‖y_r‖² − 2 q·y_r
//
// in float32, accumulated sequentially over k starting from the float32 norm
// (one rounding per step with FMA, two without; slack.go bounds either). The
// kernels may differ in the last bits (fused or not), never by more than that
// bound; kernel_test.go checks every kernel this CPU can run against the
// portable one.

// groupRows is the number of rows the packed layout interleaves: four blocks
// of 16 (one ZMM register each), so a kernel step loads 64 floats per k.
const groupRows = 64

// scores4Generic is the portable 4-query kernel: for j < 4 and every row r of
// the groups in packed, out[j*stride+r] = norms[r] + Σ_k q4[j*dim+k]·y_rk,
// and bit r%64 of masks[j*mstride+r/64] is set iff out[j*stride+r] <= thr[j].
func scores4Generic(q4 []float32, dim int, packed, norms, out []float32, stride int, thr []float32, masks []uint64, mstride int) {
	groups := len(packed) / (dim * groupRows)
	for j := 0; j < 4; j++ {
		o := out[j*stride : j*stride+groups*groupRows]
		scores1Generic(q4[j*dim:(j+1)*dim], dim, packed[:groups*dim*groupRows], norms, o)
		t := thr[j]
		for g := 0; g < groups; g++ {
			var m uint64
			for i, s := range o[g*groupRows : (g+1)*groupRows] {
				if s <= t {
					m |= 1 << i
				}
			}
			masks[j*mstride+g] = m
		}
	}
}

// scores1Generic is the portable 1-query kernel.
func scores1Generic(q []float32, dim int, packed, norms, out []float32) {
	groups := len(packed) / (dim * groupRows)
	q = q[:dim]
	for g := 0; g < groups; g++ {
		p := packed[g*dim*groupRows : (g+1)*dim*groupRows]
		for b := 0; b < groupRows; b += 16 {
			var acc [16]float32
			copy(acc[:], norms[g*groupRows+b:g*groupRows+b+16])
			for k, qk := range q {
				y := p[k*groupRows+b : k*groupRows+b+16 : k*groupRows+b+16]
				for i := range acc {
					acc[i] += qk * y[i]
				}
			}
			copy(out[g*groupRows+b:], acc[:])
		}
	}
}

// Kernel names the filter kernel this process uses ("avx512", "avx2" or
// "generic"), for benchmarks and diagnostics.
func Kernel() string { return kernelNames[activeKernel] }

const (
	kernelGeneric = iota
	kernelAVX512
	kernelAVX2
)

var kernelNames = [...]string{"generic", "avx512", "avx2"}
