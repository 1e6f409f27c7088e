package euclid

import (
	"math"
	"slices"
	"testing"
)

// FuzzNearest builds a small index and query from the fuzz bytes (values from
// a coarse grid, so exact ties and duplicates are common, times a scale that
// can make the query far) and compares Nearest and NearestBatch with brute
// force, for every kernel.
func FuzzNearest(f *testing.F) {
	f.Add([]byte{3, 2, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{1, 1, 1, 200, 7})
	f.Add([]byte{100, 5, 3, 9, 1, 2, 250, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 255, 128})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 4 {
			return
		}
		n := 1 + int(b[0])%130
		dim := 1 + int(b[1])%20
		k := 1 + int(b[2])%n
		scale := math.Pow(2, float64(b[3]%16)-4) // query scale 1/16 … 2048
		b = b[4:]
		at := func(i int) float32 {
			if len(b) == 0 {
				return 0
			}
			v := b[i%len(b)]
			return float32(int(v%16)-8) / 4
		}
		data := make([]float32, n*dim)
		for i := range data {
			data[i] = at(i)
		}
		x, err := New(data, dim)
		if err != nil {
			t.Fatal(err)
		}
		q := make([]float32, dim)
		for i := range q {
			q[i] = at(len(data)+i) * float32(scale)
		}
		want := bruteNearest(x, q, k)
		for _, kern := range availableKernels() {
			if got := nearestWith(x, q, k, nil, kern); !slices.Equal(got, want) {
				t.Fatalf("kernel %s n=%d dim=%d k=%d:\n got %v\nwant %v", kernelNames[kern], n, dim, k, got, want)
			}
		}
		qs := slices.Concat(q, x.Row(0), q)
		out := make([]Neighbor, 3*k)
		if err := x.NearestBatch(qs, k, out, 2); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(out[:k], want) || !slices.Equal(out[2*k:], want) || !slices.Equal(out[k:2*k], bruteNearest(x, x.Row(0), k)) {
			t.Fatalf("batch n=%d dim=%d k=%d: %v", n, dim, k, out)
		}
	})
}
