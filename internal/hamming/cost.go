package hamming

// Planner cost model, in nanoseconds, fitted to the steady-state benchmarks
// of this package (BenchmarkRange, BenchmarkNN) on the development machine
// (AMD EPYC Zen 4, 2 cores); see docs/BENCHMARKS.md. Only ratios matter:
// the planner compares a scan with MIH on the same CPU.

// costScan is the scan's cost per code, by kernel.
var costScan = [...]float64{
	kernelGeneric: 2.0,
	kernelPOPCNT:  1.2,
	kernelAVX512:  0.46,
	kernelNEON:    1.0,
}

const (
	costSpan  = 6.5 // reading one bucket's bounds (the planner's count)
	costProbe = 6.0 // one bucket visited, beyond reading its bounds
)

// verifyCost is the cost of one bucket entry (seen-set test, a random read
// of the code, the distance). It grows with the database because the codes
// fall out of cache: about 20 ns at 50k codes (1.6 MB), 30 ns at 200k.
func verifyCost(n int) float64 {
	f := min(max(float64(n-50000)/150000, 0), 1)
	return 20 + 10*f
}
