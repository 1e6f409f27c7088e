package euclid

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteNearest is the definition: every row sorted by (Dist, id), first k.
func bruteNearest(x *Index, q []float32, k int) []Neighbor {
	all := make([]Neighbor, x.Len())
	for i := range all {
		all[i] = Neighbor{int32(i), Dist(q, x.Row(i))}
	}
	sortNeighbors(all)
	return all[:k]
}

// knnCase is a data set and its queries.
type knnCase struct {
	name    string
	x       *Index
	queries [][]float32
}

// scaled returns v scaled to norm r.
func scaled(v []float32, r float64) []float32 {
	var s float64
	for _, f := range v {
		s += float64(f) * float64(f)
	}
	out := make([]float32, len(v))
	if s == 0 {
		return out
	}
	for i, f := range v {
		out[i] = float32(float64(f) * r / math.Sqrt(s))
	}
	return out
}

// makeKNNCase builds n rows of dimension dim (Gaussian, norms ≈ 5, with
// duplicated rows and rows differing only in the last bit) and queries: rows
// themselves, rows plus small noise, far queries with norms 50–500, exact
// midpoints of two rows and the origin.
func makeKNNCase(r *rand.Rand, n, dim, nq int) knnCase {
	data := randomData(r, n, dim)
	s := float32(5 / math.Sqrt(float64(dim)))
	for i := range data {
		data[i] *= s
	}
	if n >= 4 {
		copy(data[dim:2*dim], data[:dim]) // duplicate: exact tie
		copy(data[2*dim:3*dim], data[:dim])
		data[3*dim] = math.Nextafter32(data[2*dim], 10) // last-bit neighbour
	}
	if n >= 10 {
		for i := 4; i < 10; i++ { // a run of duplicates at the end of a group
			copy(data[(n-1-i%3)*dim:(n-i%3)*dim], data[(i)*dim:(i+1)*dim])
		}
	}
	x, err := New(data, dim)
	if err != nil {
		panic(err)
	}
	c := knnCase{name: fmt.Sprintf("n=%d/dim=%d", n, dim), x: x}
	for j := 0; j < nq; j++ {
		row := x.Row(r.IntN(n))
		q := make([]float32, dim)
		switch j % 6 {
		case 0: // a row itself (distance 0, maybe duplicated)
			copy(q, row)
		case 1, 2: // near a row
			noise := scaled(randomData(r, 1, dim), r.Float64()*3)
			for i := range q {
				q[i] = row[i] + noise[i]
			}
		case 3: // far: ‖q‖ 50–500
			q = scaled(randomData(r, 1, dim), 50+450*r.Float64())
		case 4: // far noisy row: row + noise of norm 50–200
			noise := scaled(randomData(r, 1, dim), 50+150*r.Float64())
			for i := range q {
				q[i] = row[i] + noise[i]
			}
		case 5: // exactly between two rows (in float32 when representable)
			other := x.Row(r.IntN(n))
			for i := range q {
				q[i] = (row[i] + other[i]) / 2
			}
		}
		c.queries = append(c.queries, q)
	}
	c.queries = append(c.queries, make([]float32, dim)) // the origin
	return c
}

func knnSizes(short bool) (ns, dims []int) {
	ns = []int{1, 2, 17, 1000, 20000}
	dims = []int{1, 2, 3, 16, 100, 101}
	if short {
		ns = []int{1, 2, 17, 300, 1000}
	}
	return
}

func TestNearestMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ns, dims := knnSizes(testing.Short())
	for _, n := range ns {
		for _, dim := range dims {
			// Every size and dimension (each kernel's remainder paths) at
			// every k; -short asks 6 queries of each instead of 24: every
			// query runs every kernel and batch worker count, which the
			// race detector makes slow.
			nq := 24
			if n*dim > 200000 {
				nq = 12
			}
			if testing.Short() {
				nq = 6
			}
			c := makeKNNCase(r, n, dim, nq)
			t.Run(c.name, func(t *testing.T) {
				for _, k := range []int{1, 2, 3, 10} {
					if k > n {
						continue
					}
					var got []Neighbor
					for qi, q := range c.queries {
						want := bruteNearest(c.x, q, k)
						for _, kern := range availableKernels() {
							got = nearestWith(c.x, q, k, got, kern)
							if !slices.Equal(got, want) {
								t.Fatalf("k=%d query %d kernel %s:\n got %v\nwant %v", k, qi, kernelNames[kern], got, want)
							}
						}
						var err error
						got, err = c.x.Nearest(q, k, got)
						if err != nil || !slices.Equal(got, want) {
							t.Fatalf("Nearest k=%d query %d: %v\n got %v\nwant %v", k, qi, err, got, want)
						}
					}
					// Batch, every kernel, several worker counts.
					qs := slices.Concat(c.queries...)
					m := len(c.queries)
					wants := make([][]Neighbor, m)
					for j, q := range c.queries {
						wants[j] = bruteNearest(c.x, q, k)
					}
					for _, kern := range availableKernels() {
						for _, workers := range []int{1, 2, 7, 0} {
							out := make([]Neighbor, m*k)
							if err := c.x.nearestBatch(qs, k, out, workers, kern); err != nil {
								t.Fatal(err)
							}
							for j := range c.queries {
								if want := wants[j]; !slices.Equal(out[j*k:(j+1)*k], want) {
									t.Fatalf("batch k=%d workers=%d kernel %s query %d:\n got %v\nwant %v", k, workers, kernelNames[kern], j, out[j*k:(j+1)*k], want)
								}
							}
						}
					}
				}
			})
		}
	}
}

// nearestWith is Nearest with a chosen kernel.
func nearestWith(x *Index, q []float32, k int, dst []Neighbor, kern int) []Neighbor {
	w := x.getWork(1)
	defer x.putWork(w)
	x.searchGroup(w, q, 1, k, kern)
	return w.st[0].finish(x, q, dst[:0])
}

// TestNearestLargeK asks for every row (k = Len) and for k spanning groups.
func TestNearestLargeK(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	c := makeKNNCase(r, 300, 7, 12)
	for _, k := range []int{63, 64, 65, 299, 300} {
		for qi, q := range c.queries {
			got, err := c.x.Nearest(q, k, nil)
			if want := bruteNearest(c.x, q, k); err != nil || !slices.Equal(got, want) {
				t.Fatalf("k=%d query %d: %v", k, qi, err)
			}
		}
	}
}

// TestNearestAdversarialTies: many rows at float64-equal or last-bit-different
// distances from far and near queries, where the float32 filter cannot tell
// them apart and only the exact pass can.
func TestNearestAdversarialTies(t *testing.T) {
	const dim = 100
	r := rand.New(rand.NewPCG(11, 12))
	base := scaled(randomData(r, 1, dim), 5)
	var data []float32
	// Rows base ± one ulp in one coordinate, each duplicated, with random
	// order of ids.
	for i := 0; i < 200; i++ {
		row := slices.Clone(base)
		c := r.IntN(dim)
		switch i % 4 {
		case 0:
			row[c] = math.Nextafter32(row[c], 100)
		case 1:
			row[c] = math.Nextafter32(row[c], -100)
		case 2:
			// unchanged: a duplicate of base
		case 3:
			row[c] = -row[c] // mirrored coordinate
		}
		data = append(data, row...)
	}
	// Random filler rows with large norms.
	data = append(data, randomData(r, 500, dim)...)
	x, err := New(data, dim)
	if err != nil {
		t.Fatal(err)
	}
	var queries [][]float32
	queries = append(queries, base, make([]float32, dim))
	for _, norm := range []float64{0.01, 1, 10, 50, 200, 500} {
		noise := scaled(randomData(r, 1, dim), norm)
		q := make([]float32, dim)
		for i := range q {
			q[i] = base[i] + noise[i]
		}
		queries = append(queries, q, scaled(base, norm))
		// A query on a coordinate axis: equidistant from rows mirrored in
		// other coordinates.
		axis := make([]float32, dim)
		axis[r.IntN(dim)] = float32(norm)
		queries = append(queries, axis)
	}
	for _, k := range []int{1, 2, 3, 10, 60} {
		for qi, q := range queries {
			want := bruteNearest(x, q, k)
			for _, kern := range availableKernels() {
				if got := nearestWith(x, q, k, nil, kern); !slices.Equal(got, want) {
					t.Fatalf("k=%d query %d kernel %s:\n got %v\nwant %v", k, qi, kernelNames[kern], got, want)
				}
			}
		}
	}
}

// TestNearestHugeValues: norms too large for the float32 filter take the
// exact path and stay correct.
func TestNearestHugeValues(t *testing.T) {
	data := []float32{1e20, 0, 0, 1e20, -1e20, 3, 1e-30, 1e-38, 0, 0}
	x, err := New(data, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range [][]float32{{1e19, 1e19}, {0, 0}, {3e38, -3e38}, {1e-40, 0}} {
		for k := 1; k <= x.Len(); k++ {
			got, err := x.Nearest(q, k, nil)
			if want := bruteNearest(x, q, k); err != nil || !slices.Equal(got, want) {
				t.Fatalf("q=%v k=%d: %v\n got %v\nwant %v", q, k, err, got, want)
			}
		}
	}
}

func TestNearestErrors(t *testing.T) {
	x, _ := New(randomData(rand.New(rand.NewPCG(1, 1)), 5, 3), 3)
	q := []float32{1, 2, 3}
	for _, tc := range []struct {
		name string
		err  error
		call func() error
	}{
		{"dim", ErrDimension, func() error { _, err := x.Nearest(q[:2], 1, nil); return err }},
		{"k0", ErrK, func() error { _, err := x.Nearest(q, 0, nil); return err }},
		{"k>n", ErrK, func() error { _, err := x.Nearest(q, 6, nil); return err }},
		{"nan", ErrNotFinite, func() error {
			_, err := x.Nearest([]float32{1, float32(math.NaN()), 3}, 1, nil)
			return err
		}},
		{"inf", ErrNotFinite, func() error {
			_, err := x.Nearest([]float32{1, 2, float32(math.Inf(-1))}, 1, nil)
			return err
		}},
		{"batch ragged", ErrDimension, func() error { return x.NearestBatch(q[:2], 1, make([]Neighbor, 1), 1) }},
		{"batch out", ErrDimension, func() error { return x.NearestBatch(q, 2, make([]Neighbor, 1), 1) }},
		{"batch k", ErrK, func() error { return x.NearestBatch(q, 0, nil, 1) }},
		{"batch k>n", ErrK, func() error { return x.NearestBatch(q, 6, make([]Neighbor, 6), 1) }},
		{"batch inf", ErrNotFinite, func() error {
			return x.NearestBatch([]float32{1, 2, 3, 1, float32(math.Inf(1)), 3}, 1, make([]Neighbor, 2), 1)
		}},
	} {
		if err := tc.call(); !errors.Is(err, tc.err) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.err)
		}
	}
	if err := x.NearestBatch(nil, 1, nil, 0); err != nil {
		t.Errorf("empty batch: %v", err)
	}
}

// TestNearestAppendsToDst: the result reuses dst's storage.
func TestNearestAppendsToDst(t *testing.T) {
	x, _ := New(randomData(rand.New(rand.NewPCG(1, 1)), 50, 4), 4)
	dst := make([]Neighbor, 7, 20)
	got, err := x.Nearest(x.Row(3), 5, dst)
	if err != nil || len(got) != 5 || &got[0] != &dst[0] || got[0].ID != 3 {
		t.Fatalf("got %v, %v", got, err)
	}
}

// TestNearestAllTied: thousands of identical rows (every score equal, every
// row a candidate) must neither slow the scan to quadratic time nor lose the
// id tie-break.
func TestNearestAllTied(t *testing.T) {
	const n, dim = 20000, 8
	row := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	data := make([]float32, 0, n*dim)
	for range n {
		data = append(data, row...)
	}
	x, _ := New(data, dim)
	q := []float32{100, 0, 0, 0, 0, 0, 0, -3}
	for _, k := range []int{1, 10, 1000} {
		got, err := x.Nearest(q, k, nil)
		if want := bruteNearest(x, q, k); err != nil || !slices.Equal(got, want) {
			t.Fatalf("k=%d: %v", k, err)
		}
		out := make([]Neighbor, 2*k)
		if err := x.NearestBatch(append(slices.Clone(q), row...), k, out, 2); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(out[:k], bruteNearest(x, q, k)) || !slices.Equal(out[k:], bruteNearest(x, row, k)) {
			t.Fatalf("batch k=%d", k)
		}
	}
}
