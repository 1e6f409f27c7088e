package binarize

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/wordveil/wordveil/internal/hamming"
)

// QualityOptions configures Evaluate and CosineNeighbours.
type QualityOptions struct {
	// Queries are the row ids to evaluate. If empty, NumQueries distinct
	// rows are drawn uniformly with Seed.
	Queries    []int
	NumQueries int
	Seed       uint64
	K          int // recall@K, ≥ 1 (10 in the reports)
	RankDepth  int // Spearman over each query's cosine top-RankDepth, ≥ 2 (100 in the reports)
}

// QualityReport measures how well Hamming distance between codes preserves
// cosine neighbourhoods of the float vectors.
type QualityReport struct {
	N          int // words searched
	NumQueries int
	K          int
	RankDepth  int
	// RecallAtK is the mean over queries of |H ∩ C| / K, where C is the
	// query's K nearest rows by cosine similarity and H its K nearest by
	// Hamming distance, both excluding the query itself and both exact
	// (brute force over all N rows). Ties are broken by lower row id, in
	// both rankings.
	RecallAtK float64
	// RecallStdErr is the standard error of RecallAtK over the queries
	// (sample standard deviation / √NumQueries).
	RecallStdErr float64
	// PerQueryRecall holds each query's recall, in query order, so two code
	// sets scored on the same queries can be compared pairwise.
	PerQueryRecall []float64
	// Spearman is the mean over queries of Spearman's rank correlation
	// between cosine distance (1 − cos) and Hamming distance over the
	// query's cosine top-RankDepth rows (tied values get their average
	// rank). Queries whose Hamming distances are all equal have no defined
	// correlation; they are counted in SpearmanUndefined and left out.
	Spearman          float64
	SpearmanUndefined int
	// Hamming distance scale, which randomized response (BRR) is tuned
	// to: the median over queries of the distance to the nearest other
	// code, and the mean and standard deviation of the distance from a
	// query to every other code (≈ random pairs).
	MedianNNDistance float64
	MeanPairDistance float64
	PairDistanceSD   float64
	Balance          BitBalance
	// MeanAbsBitCorrelation is BitCorrelation over all N codes.
	MeanAbsBitCorrelation float64
}

// Neighbours is the exact cosine ground truth for a set of queries: for
// each, its RankDepth′ = max(K, RankDepth) nearest rows by cosine distance
// (excluding itself, ties to the lower id). Computing it is the expensive
// part of an evaluation, so it is kept to score several code sets.
type Neighbours struct {
	N         int
	Queries   []int
	K         int
	RankDepth int
	ids       [][]int     // per query, sorted by (distance, id)
	dists     [][]float64 // matching cosine distances
}

// Evaluate compares the codes with the cosine geometry of e (row i of e
// has code codes[i]). Pass the vectors the codes are meant to preserve:
// for WordVeil, the centred embeddings.
func Evaluate(e *Embeddings, codes []hamming.Code, opts QualityOptions) (*QualityReport, error) {
	nb, err := CosineNeighbours(e, opts)
	if err != nil {
		return nil, err
	}
	return nb.Evaluate(codes)
}

// CosineNeighbours computes the exact cosine ground truth by brute force
// over all rows of e, on all cores. The result does not depend on the
// number of cores.
func CosineNeighbours(e *Embeddings, opts QualityOptions) (*Neighbours, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	n := e.Len()
	switch {
	case opts.K < 1 || opts.RankDepth < 2:
		return nil, errorf("K = %d and RankDepth = %d, want K ≥ 1 and RankDepth ≥ 2", opts.K, opts.RankDepth)
	case opts.K >= n || opts.RankDepth >= n:
		return nil, errorf("K = %d and RankDepth = %d must be below the number of words %d", opts.K, opts.RankDepth, n)
	}
	queries := opts.Queries
	if len(queries) == 0 {
		if opts.NumQueries < 1 || opts.NumQueries > n {
			return nil, errorf("NumQueries = %d, want 1..%d", opts.NumQueries, n)
		}
		queries = newRNG(opts.Seed, streamQueries).sample(n, opts.NumQueries)
	}
	for _, q := range queries {
		if q < 0 || q >= n {
			return nil, errorf("query id %d out of range [0, %d)", q, n)
		}
	}
	nb := &Neighbours{
		N: n, Queries: queries, K: opts.K, RankDepth: opts.RankDepth,
		ids: make([][]int, len(queries)), dists: make([][]float64, len(queries)),
	}
	unit := unitRows(e)
	depth := max(opts.K, opts.RankDepth)
	forEachQuery(len(queries), func(qi int, s *searcher) {
		top := s.cosineTop(unit, e.Dim, queries[qi], depth)
		ids, ds := make([]int, len(top)), make([]float64, len(top))
		for i, t := range top {
			ids[i], ds[i] = t.id, t.dist
		}
		nb.ids[qi], nb.dists[qi] = ids, ds
	}, n, depth)
	return nb, nil
}

// Evaluate scores codes (one per row, N of them) against the ground truth.
func (nb *Neighbours) Evaluate(codes []hamming.Code) (*QualityReport, error) {
	if len(codes) != nb.N {
		return nil, errorf("%d codes for %d words", len(codes), nb.N)
	}
	recall := make([]float64, len(nb.Queries))
	rho := make([]float64, len(nb.Queries))
	defined := make([]bool, len(nb.Queries))
	nnDist := make([]float64, len(nb.Queries))
	dSum := make([]float64, len(nb.Queries))
	dSumSq := make([]float64, len(nb.Queries))
	depth := max(nb.K, nb.RankDepth)
	forEachQuery(len(nb.Queries), func(qi int, s *searcher) {
		q := nb.Queries[qi]
		ham := s.hammingTop(codes, q, nb.K)
		nnDist[qi] = float64(s.hdist[ham[0]])
		for i, d := range s.hdist {
			if i != q {
				dSum[qi] += float64(d)
				dSumSq[qi] += float64(d * d)
			}
		}
		recall[qi] = float64(overlap(nb.ids[qi][:nb.K], ham)) / float64(nb.K)
		xs, ys := s.xs[:0], s.ys[:0]
		for i, id := range nb.ids[qi][:nb.RankDepth] {
			xs = append(xs, nb.dists[qi][i])
			ys = append(ys, float64(hamming.Distance(codes[q], codes[id])))
		}
		rho[qi], defined[qi] = spearman(xs, ys, s.rx, s.ry, s.idx)
	}, nb.N, depth)

	r := &QualityReport{N: nb.N, NumQueries: len(nb.Queries), K: nb.K, RankDepth: nb.RankDepth}
	var rsum, ssum float64
	nd := 0
	for i := range nb.Queries { // fixed order: the sums do not depend on scheduling
		rsum += recall[i]
		if defined[i] {
			ssum += rho[i]
			nd++
		} else {
			r.SpearmanUndefined++
		}
	}
	r.RecallAtK = rsum / float64(len(nb.Queries))
	r.PerQueryRecall = recall
	r.RecallStdErr = stdErr(recall)
	if nd > 0 {
		r.Spearman = ssum / float64(nd)
	}
	var sum, sumSq float64
	for i := range nb.Queries {
		sum += dSum[i]
		sumSq += dSumSq[i]
	}
	pairs := float64(len(nb.Queries) * (nb.N - 1))
	r.MeanPairDistance = sum / pairs
	r.PairDistanceSD = math.Sqrt(max(0, sumSq/pairs-r.MeanPairDistance*r.MeanPairDistance))
	slices.Sort(nnDist)
	r.MedianNNDistance = median(nnDist)
	r.Balance = Balance(codes)
	r.MeanAbsBitCorrelation, _ = BitCorrelation(codes)
	return r, nil
}

// forEachQuery runs f for query indices 0..m−1 on all cores, each
// goroutine with its own scratch. f writes only to its own index's slots.
func forEachQuery(m int, f func(qi int, s *searcher), n, depth int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), m); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newSearcher(n, depth)
			for {
				qi := int(next.Add(1) - 1)
				if qi >= m {
					return
				}
				f(qi, s)
			}
		}()
	}
	wg.Wait()
}

// unitRows returns the rows of e scaled to unit length (zero rows stay 0).
func unitRows(e *Embeddings) []float32 {
	out := make([]float32, len(e.Vectors))
	parallelRanges(e.Len(), 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			v := e.Vector(i)
			var s float64
			for _, x := range v {
				s += float64(float64(x) * float64(x))
			}
			if s == 0 {
				continue
			}
			inv := 1 / math.Sqrt(s)
			for j, x := range v {
				out[i*e.Dim+j] = float32(float64(x) * inv)
			}
		}
	})
	return out
}

// overlap counts the ids of ham that are among want (both short).
func overlap(want, ham []int) int {
	c := 0
	for _, id := range ham {
		for _, w := range want {
			if w == id {
				c++
				break
			}
		}
	}
	return c
}
