package euclid

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Within returns, for every row i, ALL rows j (i included, at distance 0)
// with Dist(i, j) ≤ radius, sorted by (distance, id). Rows are shared out to
// workers (0 means GOMAXPROCS); each row's list depends only on the data, so
// the result is the same for any number of workers. progress, if not nil, is
// called with the number of rows done, from one goroutine at a time.
func (x *Index) Within(radius float64, workers int, progress func(done int)) [][]Neighbor {
	n := x.Len()
	out := make([][]Neighbor, n)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	const rowBlock = 4
	var next, done atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	r2 := float32(radius * radius)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i0 := int(next.Add(rowBlock)) - rowBlock
				if i0 >= n {
					return
				}
				i1 := min(i0+rowBlock, n)
				for i := i0; i < i1; i++ {
					out[i] = x.rowWithin(i, radius, r2)
				}
				if progress != nil {
					d := done.Add(int64(i1 - i0))
					mu.Lock()
					progress(int(d))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// rowWithin filters with float32 dot products four rows at a time, then
// confirms each candidate with the exact float64 distance.
func (x *Index) rowWithin(i int, radius float64, r2 float32) []Neighbor {
	q, nq := x.Row(i), x.norms[i]
	var res []Neighbor
	consider := func(j int, dp float32) {
		nj := x.norms[j]
		if nq+nj-2*dp > r2+candidateSlack(nq, nj, x.Dim) {
			return
		}
		if d := Dist(q, x.Row(j)); d <= radius {
			res = append(res, Neighbor{ID: int32(j), Dist: d})
		}
	}
	n := x.Len()
	j := 0
	for ; j+4 <= n; j += 4 {
		a, b, c, d := dot4(q, x.Row(j), x.Row(j+1), x.Row(j+2), x.Row(j+3))
		consider(j, a)
		consider(j+1, b)
		consider(j+2, c)
		consider(j+3, d)
	}
	for ; j < n; j++ {
		consider(j, dot(q, x.Row(j)))
	}
	sortNeighbors(res)
	return res
}

func sortNeighbors(ns []Neighbor) {
	slices.SortFunc(ns, func(a, b Neighbor) int {
		if c := cmp.Compare(a.Dist, b.Dist); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}
