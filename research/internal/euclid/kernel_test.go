package euclid

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernelsAgree checks every kernel this CPU can run against the portable
// one, for 1 and 4 queries, several dimensions and group counts: scores must
// agree within the filter's error bound (they may differ in the last bits:
// FMA against separate multiply and add), every output slot must be written
// and nothing past the groups (stride padding) touched.
func TestKernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, dim := range []int{1, 2, 3, 16, 100, 101} {
		for _, n := range []int{1, 63, 64, 65, 200, 640} {
			data := randomData(r, n, dim)
			x, _ := New(data, dim)
			pk := x.packedRows()
			for _, qnorm := range []float64{0, 1, 10, 200, 500} {
				q4 := make([]float32, 4*dim)
				var qn float64
				for j := 0; j < 4; j++ {
					q := scaled(randomData(r, 1, dim), qnorm*float64(j+1)/4)
					for i, v := range q {
						q4[j*dim+i] = -2 * v
					}
					qn = max(qn, qnorm*float64(j+1)/4)
				}
				tol := filterSlack(qn*(1+1e-6), pk.maxNorm, dim)
				stride := pk.groups*groupRows + 5
				want := make([]float32, 4*stride)
				mstride := pk.groups + 1
				thr := []float32{float32(math.Inf(1)), 0, float32(math.Inf(-1)), 0}
				scores4Generic(q4, dim, pk.data, pk.norms, want, stride, thr, make([]uint64, 4*mstride), mstride)
				thr[1] = want[stride+r.IntN(n)] // a score that occurs: ties with the threshold
				thr[3] = want[3*stride] - 1
				want1 := make([]float32, stride)
				scores1Generic(q4[:dim], dim, pk.data, pk.norms, want1)
				for _, k := range availableKernels() {
					name := fmt.Sprintf("kernel=%s dim=%d n=%d |q|=%g", kernelNames[k], dim, n, qnorm)
					got := make([]float32, 4*stride)
					for i := range got {
						got[i] = float32(math.NaN())
					}
					masks := make([]uint64, 4*mstride)
					for i := range masks {
						masks[i] = 0xDEADBEEF
					}
					scores4With(k, q4, dim, pk.data, pk.norms, got, stride, thr, masks, mstride)
					for j := 0; j < 4; j++ {
						for g := 0; g < mstride; g++ {
							m := masks[j*mstride+g]
							if g == pk.groups {
								if m != 0xDEADBEEF {
									t.Fatalf("%s: mask written past the groups", name)
								}
								continue
							}
							for i := 0; i < groupRows; i++ {
								if s := got[j*stride+g*groupRows+i]; (m>>i&1 == 1) != (s <= thr[j]) {
									t.Fatalf("%s: query %d row %d: mask bit %d, score %v, threshold %v", name, j, g*groupRows+i, m>>i&1, s, thr[j])
								}
							}
						}
					}
					for j := 0; j < 4; j++ {
						for i := 0; i < stride; i++ {
							g, w := got[j*stride+i], want[j*stride+i]
							if i >= pk.groups*groupRows {
								if !math.IsNaN(float64(g)) {
									t.Fatalf("%s: scores4 wrote past the groups at query %d slot %d", name, j, i)
								}
								continue
							}
							if !(math.Abs(float64(g)-float64(w)) <= tol) {
								t.Fatalf("%s: scores4 query %d row %d = %v, want %v ± %v", name, j, i, g, w, tol)
							}
							if i < n { // the proven bound, against the float64 value
								exact := 0.0
								for c, v := range x.Row(i) {
									exact += float64(v)*float64(v) + float64(q4[j*dim+c])*float64(v)
								}
								if e := math.Abs(float64(g) - exact); e > tol/2.5 {
									t.Fatalf("%s: scores4 query %d row %d error %g > bound %g", name, j, i, e, tol/2.5)
								}
							}
						}
					}
					got1 := make([]float32, stride)
					for i := range got1 {
						got1[i] = float32(math.NaN())
					}
					scores1With(k, q4[:dim], dim, pk.data, pk.norms, got1)
					for i := range got1 {
						g, w := got1[i], want1[i]
						if i >= pk.groups*groupRows {
							if !math.IsNaN(float64(g)) {
								t.Fatalf("%s: scores1 wrote past the groups at slot %d", name, i)
							}
							continue
						}
						if !(math.Abs(float64(g)-float64(w)) <= tol) || w != want[i] {
							t.Fatalf("%s: scores1 row %d = %v, want %v ± %v (scores4 %v)", name, i, g, w, tol, want[i])
						}
					}
				}
			}
		}
	}
	t.Logf("active kernel: %s; tested %v", Kernel(), availableKernels())
}
