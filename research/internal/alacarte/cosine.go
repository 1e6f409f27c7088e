package alacarte

import (
	"container/heap"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/wordveil/wordveil/research/internal/binarize"
)

// cosine is an exact brute-force cosine search over centred vectors: the
// geometry the binarizer sees (it centres with the same mean before
// encoding), so float and Hamming neighbour lists are comparable.
type cosine struct {
	dim, n int
	mean   []float32
	unit   []float32 // n × dim: centred rows scaled to unit length (zero rows stay zero)
}

func newCosine(src *binarize.Embeddings, mean []float32) *cosine {
	c := &cosine{dim: src.Dim, n: src.Len(), mean: mean, unit: make([]float32, len(src.Vectors))}
	for i := 0; i < c.n; i++ {
		c.prepare(src.Vector(i), c.unit[i*c.dim:(i+1)*c.dim])
	}
	return c
}

// prepare writes the centred unit vector of x into u.
func (c *cosine) prepare(x, u []float32) {
	var ss float64
	for j, v := range x {
		d := float64(v) - float64(c.mean[j])
		u[j] = float32(d)
		ss += d * d
	}
	if ss > 0 {
		inv := float32(1 / math.Sqrt(ss))
		for j := range u {
			u[j] *= inv
		}
	}
}

type scored struct {
	sim float32
	id  int
}

// worse orders by (similarity descending, id ascending): a is worse than b.
func worse(a, b scored) bool { return a.sim < b.sim || (a.sim == b.sim && a.id > b.id) }

// worstFirst is a heap whose root is the worst kept neighbour.
type worstFirst []scored

func (h worstFirst) Len() int           { return len(h) }
func (h worstFirst) Less(i, j int) bool { return worse(h[i], h[j]) }
func (h worstFirst) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *worstFirst) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *worstFirst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// knn returns the ids of the k rows most similar to q, leaving out self
// (−1: nothing), best first, ties to the lower id.
func (c *cosine) knn(q []float32, self, k int, u []float32, h *worstFirst) []int {
	c.prepare(q, u)
	*h = (*h)[:0]
	for i := 0; i < c.n; i++ {
		if i == self {
			continue
		}
		row := c.unit[i*c.dim : (i+1)*c.dim]
		var s float32
		for j, x := range u {
			s += x * row[j]
		}
		nb := scored{s, i}
		if h.Len() < k {
			heap.Push(h, nb)
		} else if worse((*h)[0], nb) {
			(*h)[0] = nb
			heap.Fix(h, 0)
		}
	}
	best := slices.Clone(*h)
	slices.SortFunc(best, func(a, b scored) int {
		if worse(b, a) {
			return -1
		}
		if worse(a, b) {
			return 1
		}
		return 0
	})
	out := make([]int, len(best))
	for i, b := range best {
		out[i] = b.id
	}
	return out
}

// knnAll answers every query; queries are split among the cores in fixed
// contiguous ranges and each answer depends on its query only, so the
// result does not depend on scheduling.
func (c *cosine) knnAll(qs [][]float32, self []int, k int) [][]int {
	out := make([][]int, len(qs))
	workers := max(1, min(runtime.GOMAXPROCS(0), len(qs)))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := len(qs)*w/workers, len(qs)*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := make([]float32, c.dim)
			h := make(worstFirst, 0, k+1)
			for i := lo; i < hi; i++ {
				out[i] = c.knn(qs[i], self[i], k, u, &h)
			}
		}()
	}
	wg.Wait()
	return out
}
