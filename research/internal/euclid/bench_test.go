package euclid

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// benchKNN is the workload of the float mechanisms: N = 50,000 rows of
// dimension 100, Gaussian, scaled so norms are ≈ 5; queries are rows plus
// Gaussian noise of norm ≈ noise.
func benchKNN(b *testing.B, noise float64, nq int) (*Index, []float32) {
	const n, dim = 50000, 100
	r := rand.New(rand.NewPCG(1, 2))
	data := randomData(r, n, dim)
	s := float32(5 / math.Sqrt(dim))
	for i := range data {
		data[i] *= s
	}
	x, err := New(data, dim)
	if err != nil {
		b.Fatal(err)
	}
	x.packedRows()
	qs := make([]float32, nq*dim)
	ns := float32(noise / math.Sqrt(dim))
	for j := 0; j < nq; j++ {
		row := x.Row(r.IntN(n))
		for i := range dim {
			qs[j*dim+i] = row[i] + ns*float32(r.NormFloat64())
		}
	}
	return x, qs
}

func BenchmarkNearest(b *testing.B) {
	for _, noise := range []float64{10, 50} {
		b.Run(fmt.Sprintf("noise=%g", noise), func(b *testing.B) {
			const nq = 64
			x, qs := benchKNN(b, noise, nq)
			var dst []Neighbor
			i := 0
			for b.Loop() {
				q := qs[(i%nq)*x.Dim : (i%nq+1)*x.Dim]
				dst, _ = x.Nearest(q, 1, dst)
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/query")
		})
	}
}

func BenchmarkNearestBatch(b *testing.B) {
	for _, noise := range []float64{10, 50} {
		for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("noise=%g/workers=%d", noise, workers), func(b *testing.B) {
				const nq = 1024
				x, qs := benchKNN(b, noise, nq)
				out := make([]Neighbor, nq)
				for b.Loop() {
					if err := x.NearestBatch(qs, 1, out, workers); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nq), "ns/query")
			})
		}
	}
}

// BenchmarkKernel is the 4-query filter kernel alone on one L2-sized chunk
// (GFLOP/s counts a multiply-add as two).
func BenchmarkKernel(b *testing.B) {
	const dim = 100
	r := rand.New(rand.NewPCG(1, 2))
	c := chunkRows(dim)
	x, _ := New(randomData(r, c, dim), dim)
	pk := x.packedRows()
	q4 := randomData(r, 4, dim)
	out := make([]float32, 4*c)
	thr := []float32{-1e9, -1e9, -1e9, -1e9}
	masks := make([]uint64, 4*c/groupRows)
	for _, k := range availableKernels() {
		b.Run("kernel="+kernelNames[k], func(b *testing.B) {
			for b.Loop() {
				scores4With(k, q4, dim, pk.data, pk.norms, out, c, thr, masks, c/groupRows)
			}
			flops := float64(b.N) * 4 * float64(c) * dim * 2
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
