package hamming

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkNearestBatch compares BRR's search one query at a time
// (Nearest) with the batch search, over 50,000 random codes (the default
// asset's size, 1.6 MB) and far queries; ns/query is the figure to
// compare. "batch" keeps the codes transposed after its first calls (as
// a bulk job does), "batch/no-kept-transpose" never does.
func BenchmarkNearestBatch(b *testing.B) {
	r := rand.New(rand.NewPCG(21, 22))
	x, _ := NewIndex(randomCodes(r, 50000))
	qs := randomCodes(r, 4*MaxBatch)
	opt := Options{Ties: TiesRandom, Rand: r, ExpectedRadius: 100}
	b.Run("one-by-one", func(b *testing.B) {
		for b.Loop() {
			for _, q := range qs {
				x.Nearest(q, opt)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(qs)), "ns/query")
	})
	res := make([]Neighbor, 0, len(qs))
	b.Run("batch", func(b *testing.B) {
		for b.Loop() {
			res, _ = x.NearestBatch(res, qs, opt)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(qs)), "ns/query")
	})
	// Each block transposed as it is read, never kept transposed (the
	// keyboard's case, and every search before transposeAfter passes).
	y, _ := NewIndex(x.Codes())
	y.tposed = nil
	b.Run("batch/no-kept-transpose", func(b *testing.B) {
		for b.Loop() {
			res, _ = y.NearestBatch(res, qs, opt)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(qs)), "ns/query")
	})
}

// BenchmarkMultiKernel is the multi-query kernels' cost per code and
// query, on a block in cache (compare BenchmarkKernel).
func BenchmarkMultiKernel(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	codes := randomCodes(r, blockSize)
	qs := randomCodes(r, MaxBatch)
	thr := make([]int, MaxBatch)
	for j := range thr {
		thr[j] = 100 // a far query's best distance after a few blocks
	}
	marks := make([]blockMarks, MaxBatch)
	var ms multiScratch
	for _, k := range availableKernels() {
		b.Run("kernel="+kernelNames[k], func(b *testing.B) {
			for b.Loop() {
				distMultiWith(k, qs, codes, thr, marks, &ms)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*blockSize*MaxBatch), "ns/code")
		})
	}
}
