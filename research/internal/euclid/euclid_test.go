package euclid

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func randomData(r *rand.Rand, n, dim int) []float32 {
	out := make([]float32, n*dim)
	for i := range out {
		out[i] = float32(r.NormFloat64())
	}
	return out
}

func TestWithinMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ n, dim int }{{1, 3}, {7, 2}, {301, 10}, {1000, 100}} {
		data := randomData(r, tc.n, tc.dim)
		// Duplicate rows: distance exactly 0 and ties.
		if tc.n > 5 {
			copy(data[tc.dim:2*tc.dim], data[:tc.dim])
		}
		x, err := New(data, tc.dim)
		if err != nil {
			t.Fatal(err)
		}
		radius := math.Sqrt(2*float64(tc.dim)) * 0.8 // a modest fraction of pairs
		want := make([][]Neighbor, tc.n)
		for i := range tc.n {
			for j := 0; j < tc.n; j++ {
				if d := Dist(x.Row(i), x.Row(j)); d <= radius {
					want[i] = append(want[i], Neighbor{int32(j), d})
				}
			}
			sortNeighbors(want[i])
		}
		for _, workers := range []int{1, 3} {
			got := x.Within(radius, workers, nil)
			for i := 0; i < tc.n; i++ {
				if !slices.Equal(got[i], want[i]) {
					t.Fatalf("n=%d dim=%d row %d: got %d neighbours, want %d", tc.n, tc.dim, i, len(got[i]), len(want[i]))
				}
			}
		}
	}
}

// TestWithinBoundary puts points at exactly the radius (and one float32 step
// either side): the float32 filter must never drop a member.
func TestWithinBoundary(t *testing.T) {
	const dim = 100
	data := make([]float32, 4*dim)
	for k := 1; k < dim; k++ {
		data[k] = 3 // far from the origin so the norms are large; coordinate 0 varies
	}
	copy(data[dim:], data[:dim])
	data[dim] += 2 // row 1: exactly 2 away from row 0
	copy(data[2*dim:], data[:dim])
	data[2*dim] += math.Nextafter32(2, 3) // a hair beyond
	copy(data[3*dim:], data[:dim])
	data[3*dim] += math.Nextafter32(2, 1) // a hair inside
	x, _ := New(data, dim)
	radius := Dist(x.Row(0), x.Row(1))
	got := x.Within(radius, 1, nil)[0]
	ids := []int32{}
	for _, n := range got {
		ids = append(ids, n.ID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []int32{0, 1, 3}) {
		t.Fatalf("within exact radius: %v, want [0 1 3]", ids)
	}
}

func TestDistSymmetric(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	d := randomData(r, 200, 50)
	x, _ := New(d, 50)
	for i := 0; i < 200; i++ {
		for j := 0; j < 200; j++ {
			if Dist(x.Row(i), x.Row(j)) != Dist(x.Row(j), x.Row(i)) {
				t.Fatalf("Dist(%d,%d) not symmetric", i, j)
			}
		}
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(make([]float32, 5), 2); !errors.Is(err, ErrShape) {
		t.Fatalf("ragged: %v", err)
	}
	if _, err := New([]float32{1, float32(math.NaN())}, 2); !errors.Is(err, ErrNotFinite) {
		t.Fatalf("NaN: %v", err)
	}
}

func BenchmarkWithin10k(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x, _ := New(randomData(r, 10000, 100), 100)
	for b.Loop() {
		x.Within(9, 0, nil)
	}
}
