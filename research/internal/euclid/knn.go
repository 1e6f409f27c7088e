package euclid

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Nearest returns the k rows nearest to q by Dist, ascending by distance,
// ties broken by the lower row id, appended to dst[:0].
//
// Errors: ErrDimension if len(q) != Dim, ErrK if k < 1 or k > Len(),
// ErrNotFinite if q holds NaN or ±Inf. It is safe for concurrent use.
func (x *Index) Nearest(q []float32, k int, dst []Neighbor) ([]Neighbor, error) {
	if len(q) != x.Dim {
		return dst[:0], fmt.Errorf("euclid: Nearest: %w: len(q) = %d, Dim = %d", ErrDimension, len(q), x.Dim)
	}
	if k < 1 || k > x.Len() {
		return dst[:0], fmt.Errorf("euclid: Nearest: %w: k = %d, Len = %d", ErrK, k, x.Len())
	}
	if i := nonFinite(q); i >= 0 {
		return dst[:0], fmt.Errorf("euclid: Nearest: %w: q[%d] = %v", ErrNotFinite, i, q[i])
	}
	w := x.getWork(1)
	defer x.putWork(w)
	x.searchGroup(w, q, 1, k, activeKernel)
	return w.st[0].finish(x, q, dst[:0]), nil
}

// NearestBatch answers m = len(qs)/x.Dim queries held row-major in qs: the k
// nearest of query j go to out[j*k:(j+1)*k] (len(out) must be m*k).
// workers <= 0 means runtime.GOMAXPROCS(0). Same result as m calls of
// Nearest.
//
// Errors: ErrDimension if len(qs) is not a multiple of Dim or len(out) !=
// m*k, ErrK if k < 1 or k > Len(), ErrNotFinite if a query holds NaN or ±Inf
// (then nothing is searched). Queries are shared out to the workers in groups
// that each pass over the rows once, several queries per kernel call.
func (x *Index) NearestBatch(qs []float32, k int, out []Neighbor, workers int) error {
	return x.nearestBatch(qs, k, out, workers, activeKernel)
}

func (x *Index) nearestBatch(qs []float32, k int, out []Neighbor, workers, kern int) error {
	dim := x.Dim
	if len(qs)%dim != 0 {
		return fmt.Errorf("euclid: NearestBatch: %w: len(qs) = %d is not a multiple of Dim = %d", ErrDimension, len(qs), dim)
	}
	if k < 1 || k > x.Len() {
		return fmt.Errorf("euclid: NearestBatch: %w: k = %d, Len = %d", ErrK, k, x.Len())
	}
	m := len(qs) / dim
	if len(out) != m*k {
		return fmt.Errorf("euclid: NearestBatch: %w: len(out) = %d, want %d queries × k = %d", ErrDimension, len(out), m, k)
	}
	if i := nonFinite(qs); i >= 0 {
		return fmt.Errorf("euclid: NearestBatch: %w: query %d, coordinate %d = %v", ErrNotFinite, i/dim, i%dim, qs[i])
	}
	if m == 0 {
		return nil
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Group size: up to maxGroup queries per pass over the rows, but small
	// enough that every worker gets some.
	per := (m + workers - 1) / workers
	group := min(maxGroup, (per+3)&^3)
	ngroups := (m + group - 1) / group
	workers = min(workers, ngroups)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := x.getWork(group)
			defer x.putWork(w)
			for {
				gi := int(next.Add(1)) - 1
				if gi >= ngroups {
					return
				}
				j0, j1 := gi*group, min((gi+1)*group, m)
				x.searchGroup(w, qs[j0*dim:j1*dim], j1-j0, k, kern)
				for j := j0; j < j1; j++ {
					// Appends exactly k results into out[j*k:(j+1)*k] in place.
					w.st[j-j0].finish(x, qs[j*dim:(j+1)*dim], out[j*k:j*k:(j+1)*k])
				}
			}
		}()
	}
	wg.Wait()
	return nil
}

// maxGroup is the most queries one pass over the rows serves: the rows are
// streamed from memory once per group, in chunks that stay in L2 while every
// query of the group is scored against them.
const maxGroup = 32

// chunkRows is how many rows one kernel call scores: a multiple of groupRows
// whose packed rows (≈256 KiB) stay in L2 across the group's kernel calls.
func chunkRows(dim int) int {
	return max(groupRows, (256<<10)/(4*dim)/groupRows*groupRows)
}

func nonFinite(v []float32) int {
	for i, f := range v {
		if f-f != 0 { // NaN or ±Inf
			return i
		}
	}
	return -1
}

// work is one goroutine's scratch for a group of queries.
type work struct {
	q      []float32 // −2·query, 4-aligned count of queries
	scores []float32 // 4 × chunk scores
	masks  []uint64  // 4 × chunk/64 threshold masks
	thr    [4]float32
	st     []searcher
}

var workPool sync.Pool

func (x *Index) getWork(nq int) *work {
	w, _ := workPool.Get().(*work)
	if w == nil {
		w = new(work)
	}
	nq4 := (nq + 3) &^ 3
	w.q = slices.Grow(w.q[:0], nq4*x.Dim)[:nq4*x.Dim]
	c := chunkRows(x.Dim)
	w.scores = slices.Grow(w.scores[:0], 4*c)[:4*c]
	w.masks = slices.Grow(w.masks[:0], 4*c/groupRows)[:4*c/groupRows]
	if cap(w.st) < nq {
		w.st = make([]searcher, nq)
	}
	w.st = w.st[:nq]
	return w
}

func (x *Index) putWork(w *work) { workPool.Put(w) }

// searchGroup filters the rows for the nq queries in qs (row-major), leaving
// each query's candidates in w.st.
func (x *Index) searchGroup(w *work, qs []float32, nq, k int, kern int) {
	pk := x.packedRows()
	dim, n := x.Dim, x.Len()
	clear(w.q)
	active := 0
	for j := 0; j < nq; j++ {
		q := qs[j*dim : (j+1)*dim]
		var s float64
		for i, v := range q {
			w.q[j*dim+i] = -2 * v
			s += float64(v) * float64(v)
		}
		qn := math.Sqrt(s) * (1 + float64(dim+2)*0x1p-52) // rounded up
		st := &w.st[j]
		st.reset(k)
		if r := qn + pk.maxNorm; r*r > 1e36 {
			// The float32 filter could overflow: this query is answered by an
			// exact float64 scan in finish instead.
			st.brute = true
			clear(w.q[j*dim : (j+1)*dim])
			continue
		}
		st.slack = filterSlack(qn, pk.maxNorm, dim)
		active++
	}
	if active == 0 {
		return
	}
	c := chunkRows(dim)
	cg := c / groupRows
	for g0 := 0; g0 < pk.groups; g0 += cg {
		g1 := min(g0+cg, pk.groups)
		r0 := g0 * groupRows
		valid := min(n, g1*groupRows) - r0
		data := pk.data[g0*dim*groupRows : g1*dim*groupRows]
		norms := pk.norms[r0 : g1*groupRows]
		if nq == 1 {
			scores1With(kern, w.q[:dim], dim, data, norms, w.scores[:c])
			if !w.st[0].brute {
				w.st[0].scan(w.scores[:valid], r0)
			}
			continue
		}
		mc := cg // mask stride
		for j4 := 0; j4 < nq; j4 += 4 {
			for j := range w.thr {
				w.thr[j] = float32(math.Inf(-1)) // padding or exact-path query: nothing
				if j4+j < nq && !w.st[j4+j].brute {
					w.thr[j] = w.st[j4+j].thr
				}
			}
			scores4With(kern, w.q[j4*dim:(j4+4)*dim], dim, data, norms, w.scores, c, w.thr[:], w.masks, mc)
			for j := j4; j < min(j4+4, nq); j++ {
				if !w.st[j].brute {
					w.st[j].scanMasks(w.scores[(j-j4)*c:(j-j4)*c+valid], w.masks[(j-j4)*mc:(j-j4+1)*mc], r0)
				}
			}
		}
	}
}
