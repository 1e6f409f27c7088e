package binarize

import (
	"container/heap"
	"slices"

	"github.com/wordveil/wordveil/internal/hamming"
)

// Exact brute-force neighbour searches used by Evaluate. Both rank by
// (distance, id), so ties always go to the lower row id.

type neighbour struct {
	dist float64
	id   int
}

func less(a, b neighbour) bool { return a.dist < b.dist || (a.dist == b.dist && a.id < b.id) }

// worstHeap is a max-heap on (dist, id): its root is the worst neighbour
// kept so far.
type worstHeap []neighbour

func (h worstHeap) Len() int           { return len(h) }
func (h worstHeap) Less(i, j int) bool { return less(h[j], h[i]) }
func (h worstHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *worstHeap) Push(x any)        { *h = append(*h, x.(neighbour)) }
func (h *worstHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// searcher holds one goroutine's scratch space.
type searcher struct {
	heap   worstHeap
	hdist  []int // Hamming distance of every row to the query
	hits   []int
	xs, ys []float64
	rx, ry []float64
	idx    []int
}

func newSearcher(n, depth int) *searcher {
	return &searcher{
		heap:  make(worstHeap, 0, depth+1),
		hdist: make([]int, n),
		hits:  make([]int, 0, depth),
		xs:    make([]float64, 0, depth), ys: make([]float64, 0, depth),
		rx: make([]float64, depth), ry: make([]float64, depth), idx: make([]int, depth),
	}
}

// cosineTop returns the k rows nearest to row q by cosine distance
// 1 − u_q·u_i (unit rows), excluding q, sorted by (distance, id).
func (s *searcher) cosineTop(unit []float32, dim, q, k int) []neighbour {
	s.heap = s.heap[:0]
	uq := unit[q*dim : (q+1)*dim]
	n := len(unit) / dim
	for i := 0; i < n; i++ {
		if i == q {
			continue
		}
		nb := neighbour{dist: 1 - dot32(uq, unit[i*dim:(i+1)*dim]), id: i}
		if len(s.heap) < k {
			heap.Push(&s.heap, nb)
		} else if less(nb, s.heap[0]) {
			s.heap[0] = nb
			heap.Fix(&s.heap, 0)
		}
	}
	out := slices.Clone(s.heap)
	slices.SortFunc(out, func(a, b neighbour) int {
		if less(a, b) {
			return -1
		}
		if less(b, a) {
			return 1
		}
		return 0
	})
	return out
}

// dot32 is a float32 dot product accumulated in float64, in index order.
func dot32(a, b []float32) float64 {
	b = b[:len(a)]
	var s float64
	for i, x := range a {
		s += float64(float64(x) * float64(b[i]))
	}
	return s
}

// hammingTop returns the ids of the k rows nearest to row q in Hamming
// distance, excluding q; among rows at the boundary distance the lowest ids
// win. It is a counting selection: one pass for the distances and their
// histogram, one pass to collect.
func (s *searcher) hammingTop(codes []hamming.Code, q, k int) []int {
	var hist [Bits + 1]int
	cq := codes[q]
	for i, c := range codes {
		d := hamming.Distance(cq, c)
		s.hdist[i] = d
		if i != q {
			hist[d]++
		}
	}
	// Largest distance t that must be included, and how many rows at t.
	t, below := 0, 0
	for ; t <= Bits; t++ {
		if below+hist[t] >= k {
			break
		}
		below += hist[t]
	}
	atT := k - below
	s.hits = s.hits[:0]
	for i, d := range s.hdist {
		if i == q {
			continue
		}
		if d < t {
			s.hits = append(s.hits, i)
		} else if d == t && atT > 0 {
			s.hits = append(s.hits, i)
			atT--
		}
	}
	return s.hits
}
