package hamming

import "math/bits"

// blockSize is how many codes one kernel call handles. 256 codes (8 KiB) and
// their distances (512 B) stay in L1, and the block minimum the kernel returns
// lets a search skip whole blocks that cannot contain a result.
const blockSize = 256

// noDistance is larger than any distance; a kernel returns it for no codes.
const noDistance = Bits + 1

// distBlockGeneric is the portable kernel: out[i] = Distance(*q, codes[i]);
// it returns the minimum (noDistance for no codes). Every other kernel must
// agree with it exactly (kernel_test.go).
func distBlockGeneric(q *Code, codes []Code, out []uint16) int {
	m := noDistance
	q0, q1, q2, q3 := q[0], q[1], q[2], q[3]
	out = out[:len(codes)]
	for i := range codes {
		c := &codes[i]
		d := bits.OnesCount64(c[0]^q0) + bits.OnesCount64(c[1]^q1) +
			bits.OnesCount64(c[2]^q2) + bits.OnesCount64(c[3]^q3)
		out[i] = uint16(d)
		m = min(m, d)
	}
	return m
}

// Kernel names the distance kernel this process uses ("avx512", "popcnt",
// "neon" or "generic"), for benchmarks and diagnostics.
func Kernel() string { return kernelNames[activeKernel] }

const (
	kernelGeneric = iota
	kernelPOPCNT
	kernelAVX512
	kernelNEON
)

var kernelNames = [...]string{"generic", "popcnt", "avx512", "neon"}
