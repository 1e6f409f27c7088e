package hamming

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestKernelsAgree checks every kernel this CPU can run against the portable
// one, on every length up to a few blocks (to cover unrolled tails) and on
// extreme codes (all zeros, all ones: distance 0 and 256).
func TestKernelsAgree(t *testing.T) {
	checkKernelsAgree(t)
	t.Logf("active kernel: %s; tested %v", Kernel(), availableKernels())
}

func checkKernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	codes := randomCodes(r, 3*blockSize+13)
	codes[5] = Code{}
	codes[6] = Code{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	queries := []Code{{}, codes[6], codes[100], randomCodes(r, 1)[0]}
	want := make([]uint16, len(codes))
	got := make([]uint16, len(codes)+1)
	for _, k := range availableKernels() {
		for qi, q := range queries {
			for n := 0; n <= len(codes); n++ {
				if n > 40 && n%17 != 0 && n != len(codes) {
					continue
				}
				wm := distBlockGeneric(&q, codes[:n], want)
				got[n] = 0xBEEF // guard: the kernel must not write past n
				gm := distBlockWith(k, &q, codes[:n], got)
				if gm != wm {
					t.Fatalf("kernel %s query %d n=%d: min %d, want %d", kernelNames[k], qi, n, gm, wm)
				}
				for i := 0; i < n; i++ {
					if got[i] != want[i] {
						t.Fatalf("kernel %s query %d n=%d: out[%d]=%d, want %d", kernelNames[k], qi, n, i, got[i], want[i])
					}
				}
				if got[n] != 0xBEEF {
					t.Fatalf("kernel %s n=%d wrote past the end", kernelNames[k], n)
				}
			}
		}
	}
}

func TestDistanceExtremes(t *testing.T) {
	ones := Code{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	if d := Distance(Code{}, ones); d != 256 {
		t.Fatalf("Distance(0, ~0) = %d", d)
	}
	if d := Distance(ones, ones); d != 0 {
		t.Fatalf("Distance(x, x) = %d", d)
	}
}

func BenchmarkKernel(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	codes := randomCodes(r, blockSize)
	out := make([]uint16, blockSize)
	q := randomCodes(r, 1)[0]
	for _, k := range availableKernels() {
		b.Run(fmt.Sprintf("kernel=%s", kernelNames[k]), func(b *testing.B) {
			for b.Loop() {
				distBlockWith(k, &q, codes, out)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*blockSize), "ns/code")
		})
	}
}
