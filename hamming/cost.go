package hamming

// Planner cost model, in nanoseconds, measured on the development machine
// (AMD EPYC Zen 4, 2 cores) with BenchmarkCalibrate; see docs/BENCHMARKS.md.
// Only ratios matter: the planner compares a scan with MIH on the same CPU.
var costScan = [...]float64{
	kernelGeneric: 2.0,
	kernelPOPCNT:  1.3,
	kernelAVX512:  0.5,
	kernelNEON:    1.0,
}

const (
	costSpan   = 6.5  // reading one bucket's bounds (the planner's count)
	costProbe  = 12.0 // one bucket looked up (two offsets read), empty or not
	costVerify = 20.0 // one bucket entry: seen-set test-and-set, random code read, distance
)
