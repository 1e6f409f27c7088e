package privacy

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/sample"
)

// Ratio is the aggregate distance P_d of one metric over one vocabulary.
type Ratio struct {
	// Metric names d ("hamming", "euclidean", "list-position",
	// "max-list-position(k lists)").
	Metric string
	// N is the vocabulary size.
	N int
	// Avg is P_d^avg, the mean of d(x, x') over ordered pairs x ≠ x'.
	// [AvgLo, AvgHi] is its 95% confidence interval; Lo = Hi = Avg when
	// Exact.
	Avg, AvgLo, AvgHi float64
	// Max is P_d^max = max d(x, x'), always exact.
	Max float64
	// Pairs is the number of ordered pairs Avg averages: N(N−1) when
	// Exact, else the number of sampled pairs.
	Pairs int64
	// Exact reports whether Avg is exact (else sampled).
	Exact bool
}

// AvgAllPairs returns the BRR paper's Eq. (7) value, which also averages
// the N pairs x = x' (distance 0): Avg·(N−1)/N.
func (r Ratio) AvgAllPairs() float64 {
	if r.N == 0 {
		return 0
	}
	return r.Avg * float64(r.N-1) / float64(r.N)
}

// Errors of the ratio functions; test with errors.Is.
var (
	// ErrTooFewWords: a ratio needs at least two words.
	ErrTooFewWords = errors.New("privacy: need at least two words")
	// ErrBadInput: malformed vectors, lists or sample count.
	ErrBadInput = errors.New("privacy: invalid input")
)

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

func exactRatio(metric string, n int, avg, mx float64) Ratio {
	return Ratio{Metric: metric, N: n, Avg: avg, AvgLo: avg, AvgHi: avg, Max: mx,
		Pairs: int64(n) * int64(n-1), Exact: true}
}

// HammingRatio returns the exact P_avg and P_max of the Hamming distance
// over codes. P_avg is hamming.MeanDistance (ordered pairs of distinct
// indices, O(256·N)); P_max scans all N(N−1)/2 pairs on GOMAXPROCS
// goroutines (about 1.25e9 popcount distances at N = 50k), stopping early
// only if it meets the largest possible distance, 256. Duplicate codes are
// distinct words: their pair counts with distance 0.
func HammingRatio(codes []hamming.Code) (Ratio, error) {
	n := len(codes)
	if n < 2 {
		return Ratio{}, fmt.Errorf("privacy: HammingRatio: %w (got %d)", ErrTooFewWords, n)
	}
	var best atomic.Int64
	var next atomic.Int64
	rows := n / 2 // pairs of rows (k, n−2−k) covering rows 0..n−2
	workers := min(runtime.GOMAXPROCS(0), rows)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			local := int(best.Load())
			for {
				// Rows k and n−2−k together balance the triangle's work.
				k := int(next.Add(1) - 1)
				if k >= rows || local == hamming.Bits {
					break
				}
				local = max(local, farthestHamming(&codes[k], codes[k+1:]))
				if j := n - 2 - k; j != k {
					local = max(local, farthestHamming(&codes[j], codes[j+1:]))
				}
				if int64(local) > best.Load() {
					for {
						old := best.Load()
						if int64(local) <= old || best.CompareAndSwap(old, int64(local)) {
							break
						}
					}
				}
				local = max(local, int(best.Load()))
			}
		})
	}
	wg.Wait()
	return exactRatio("hamming", n, hamming.MeanDistance(codes), float64(best.Load())), nil
}

// farthestHamming returns the largest distance from q to a code of cs.
func farthestHamming(q *hamming.Code, cs []hamming.Code) int {
	q0, q1, q2, q3 := q[0], q[1], q[2], q[3]
	m := 0
	for i := range cs {
		c := &cs[i]
		d := bits.OnesCount64(c[0]^q0) + bits.OnesCount64(c[1]^q1) +
			bits.OnesCount64(c[2]^q2) + bits.OnesCount64(c[3]^q3)
		m = max(m, d)
	}
	return m
}

// EuclideanRatio returns P_avg and P_max of the Euclidean distance over N =
// len(vectors)/dim row-major vectors, with distances computed as euclid.Dist
// (float64 accumulation).
//
// Max is exact: the diameter. With c the centroid and r(x) = ‖x − c‖, the
// triangle inequality gives ‖x − y‖ ≤ r(x) + r(y). Rows are scanned in
// decreasing r; row i is compared with the prefix of rows j < i whose bound
// r(i) + r(j) can beat the best distance found so far (seeded by a few
// farthest-point sweeps), and the scan stops once r(0) + r(i) cannot. Every
// pair skipped has a bound below the best distance (with a 1e-9 relative
// margin for rounding), so the result equals the brute-force maximum. The
// pruning is strong when norms around the centroid vary (real embeddings);
// on isotropic data in high dimension the bound is loose and the scan
// approaches all N²/2 pairs.
//
// Avg is exact over all N(N−1) ordered pairs when samples is 0 (O(N²·dim),
// for small N); otherwise it is the mean of samples ordered pairs x ≠ x'
// drawn uniformly with src, with the 95% CLT interval mean ± 1.96·sd/√n.
func EuclideanRatio(vectors []float32, dim int, samples int, src rand.Source) (Ratio, error) {
	if dim < 1 || len(vectors)%dim != 0 {
		return Ratio{}, fmt.Errorf("privacy: EuclideanRatio: %w: %d floats, dim %d", ErrBadInput, len(vectors), dim)
	}
	n := len(vectors) / dim
	if n < 2 {
		return Ratio{}, fmt.Errorf("privacy: EuclideanRatio: %w (got %d)", ErrTooFewWords, n)
	}
	if samples < 0 || samples == 1 {
		return Ratio{}, fmt.Errorf("privacy: EuclideanRatio: %w: samples %d (0 = exact, else >= 2)", ErrBadInput, samples)
	}
	if samples > 0 && src == nil {
		return Ratio{}, fmt.Errorf("privacy: EuclideanRatio: %w: nil source", ErrBadInput)
	}
	for i, v := range vectors {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return Ratio{}, fmt.Errorf("privacy: EuclideanRatio: %w: non-finite value at row %d", ErrBadInput, i/dim)
		}
	}
	row := func(i int) []float32 { return vectors[i*dim : (i+1)*dim : (i+1)*dim] }
	mx := diameter(vectors, n, dim)
	if samples == 0 {
		sum := parallelPairs(n, func(i int) float64 {
			s := 0.0
			for j := i + 1; j < n; j++ {
				s += dist(row(i), row(j))
			}
			return s
		})
		return exactRatio("euclidean", n, 2*sum/(float64(n)*float64(n-1)), mx), nil
	}
	r := sampled("euclidean", n, samples, src, func(i, j int) float64 { return dist(row(i), row(j)) })
	r.Max = mx
	return r, nil
}

// dist is euclid.Dist, inlined for the scans.
func dist(a, b []float32) float64 {
	b = b[:len(a)]
	var s float64
	for i, v := range a {
		d := float64(v) - float64(b[i])
		s += d * d
	}
	return math.Sqrt(s)
}

// parallelPairs sums rowSum(i) for i in [0, n) on GOMAXPROCS goroutines.
func parallelPairs(n int, rowSum func(i int) float64) float64 {
	workers := min(runtime.GOMAXPROCS(0), n)
	sums := make([]float64, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				sums[w] += rowSum(i)
			}
		})
	}
	wg.Wait()
	total := 0.0
	for _, s := range sums {
		total += s
	}
	return total
}

// sampled estimates the mean of d over ordered pairs i ≠ j from samples
// uniform pairs (Welford's running variance).
func sampled(metric string, n, samples int, src rand.Source, d func(i, j int) float64) Ratio {
	var mean, m2 float64
	for k := 1; k <= samples; k++ {
		i := sample.UniformInt(src, n)
		j := sample.UniformInt(src, n-1)
		if j >= i {
			j++
		}
		x := d(i, j)
		delta := x - mean
		mean += delta / float64(k)
		m2 += delta * (x - mean)
	}
	sd := math.Sqrt(m2 / float64(samples-1))
	half := z95 * sd / math.Sqrt(float64(samples))
	return Ratio{Metric: metric, N: n, Avg: mean, AvgLo: mean - half, AvgHi: mean + half,
		Pairs: int64(samples)}
}

// diameter returns the exact largest pairwise distance (see EuclideanRatio).
func diameter(vectors []float32, n, dim int) float64 {
	c := make([]float64, dim)
	for i := range n {
		for k, v := range vectors[i*dim : (i+1)*dim] {
			c[k] += float64(v)
		}
	}
	for k := range c {
		c[k] /= float64(n)
	}
	rad := make([]float64, n)
	order := make([]int, n)
	for i := range n {
		s := 0.0
		for k, v := range vectors[i*dim : (i+1)*dim] {
			d := float64(v) - c[k]
			s += d * d
		}
		rad[i] = math.Sqrt(s)
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if rad[a] != rad[b] {
			if rad[a] > rad[b] {
				return -1
			}
			return 1
		}
		return a - b
	})
	// Sorted copies: contiguous rows make the prefix scans sequential.
	data := make([]float32, n*dim)
	rs := make([]float64, n)
	for p, i := range order {
		copy(data[p*dim:(p+1)*dim], vectors[i*dim:(i+1)*dim])
		rs[p] = rad[i]
	}
	row := func(p int) []float32 { return data[p*dim : (p+1)*dim : (p+1)*dim] }

	// A good first lower bound: farthest-point sweeps from the outermost row.
	var best atomic.Uint64 // float64 bits of the best distance (≥ 0)
	a, bestD := 0, 0.0
	for range 3 {
		far, fd := a, 0.0
		for j := range n {
			if d := dist(row(a), row(j)); d > fd {
				far, fd = j, d
			}
		}
		bestD = max(bestD, fd)
		a = far
	}
	best.Store(math.Float64bits(bestD))
	raise := func(d float64) {
		for {
			old := best.Load()
			if d <= math.Float64frombits(old) || best.CompareAndSwap(old, math.Float64bits(d)) {
				return
			}
		}
	}
	const margin = 1e-9
	var next atomic.Int64
	var stop atomic.Bool
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for !stop.Load() {
				i := int(next.Add(1))
				if i >= n {
					return
				}
				b := math.Float64frombits(best.Load())
				cut := b - margin*(b+1) // skip pairs whose bound is below cut
				if rs[0]+rs[i] < cut {
					stop.Store(true) // every later row has a smaller bound
					return
				}
				// Prefix of rows j < i with rs[j] > cut − rs[i] (rs decreasing).
				lim := min(i, sortSearchDesc(rs, cut-rs[i]))
				local := 0.0
				ri := row(i)
				for j := range lim {
					local = max(local, dist(ri, row(j)))
				}
				raise(local)
			}
		})
	}
	wg.Wait()
	return math.Float64frombits(best.Load())
}

// sortSearchDesc returns the number of leading elements of the decreasing
// slice rs that are ≥ x.
func sortSearchDesc(rs []float64, x float64) int {
	lo, hi := 0, len(rs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if rs[m] >= x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// ListRatio returns the exact P_avg and P_max of the position metric
// d(x, x') = |pos(x) − pos(x')| of one permutation of n words.
//
// Over ordered pairs of distinct positions, distance k ∈ [1, n−1] occurs for
// 2(n−k) pairs, so
//
//	Σ = 2·Σ_{k=1}^{n−1} k(n−k) = 2·[n·n(n−1)/2 − (n−1)n(2n−1)/6]
//	  = n(n−1)·[n − (2n−1)/3] = n(n−1)(n+1)/3,
//
// and dividing by the n(n−1) pairs gives P_avg = (n+1)/3. P_max = n−1 (the
// two ends). For n < 2 there are no pairs and both are 0.
func ListRatio(n int) Ratio {
	if n < 2 {
		return Ratio{Metric: "list-position", N: max(n, 0), Exact: true}
	}
	return exactRatio("list-position", n, float64(n+1)/3, float64(n-1))
}

// ListsRatio returns P_avg and P_max of 1-Diffractor's metric over several
// lists, d(x, x') = max over lists of |pos_l(x) − pos_l(x')|; each list is
// an order (list[k] is the word at position k) of the same n words.
//
// Max = n−1 exactly: no list position differs by more than n−1, and the two
// ends of the first list reach it. With one list Avg is ListRatio's exact
// (n+1)/3. Otherwise Avg is exact over all pairs when samples is 0
// (O(n²·lists)), else the mean of samples uniform ordered pairs x ≠ x'
// drawn with src and a 95% CLT interval.
func ListsRatio(lists [][]int32, samples int, src rand.Source) (Ratio, error) {
	if len(lists) == 0 {
		return Ratio{}, fmt.Errorf("privacy: ListsRatio: %w: no lists", ErrBadInput)
	}
	n := len(lists[0])
	if n < 2 {
		return Ratio{}, fmt.Errorf("privacy: ListsRatio: %w (got %d)", ErrTooFewWords, n)
	}
	if samples < 0 || samples == 1 {
		return Ratio{}, fmt.Errorf("privacy: ListsRatio: %w: samples %d (0 = exact, else >= 2)", ErrBadInput, samples)
	}
	pos := make([][]int32, len(lists))
	for l, list := range lists {
		if len(list) != n {
			return Ratio{}, fmt.Errorf("privacy: ListsRatio: %w: list %d has %d words, list 0 has %d", ErrBadInput, l, len(list), n)
		}
		p := make([]int32, n)
		for k := range p {
			p[k] = -1
		}
		for k, w := range list {
			if w < 0 || int(w) >= n || p[w] >= 0 {
				return Ratio{}, fmt.Errorf("privacy: ListsRatio: %w: list %d is not a permutation of [0, %d)", ErrBadInput, l, n)
			}
			p[w] = int32(k)
		}
		pos[l] = p
	}
	metric := fmt.Sprintf("max-list-position(%d lists)", len(lists))
	if len(lists) == 1 {
		r := ListRatio(n)
		r.Metric = metric
		return r, nil
	}
	d := func(i, j int) float64 {
		m := int32(0)
		for _, p := range pos {
			m = max(m, abs32(p[i]-p[j]))
		}
		return float64(m)
	}
	if samples == 0 {
		sum := parallelPairs(n, func(i int) float64 {
			s := 0.0
			for j := i + 1; j < n; j++ {
				s += d(i, j)
			}
			return s
		})
		return exactRatio(metric, n, 2*sum/(float64(n)*float64(n-1)), float64(n-1)), nil
	}
	if src == nil {
		return Ratio{}, fmt.Errorf("privacy: ListsRatio: %w: nil source", ErrBadInput)
	}
	r := sampled(metric, n, samples, src, d)
	r.Max = float64(n - 1)
	return r, nil
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// ConvertEpsilon returns the ε_B that gives mechanism B (metric b) the same
// privacy-loss estimate as mechanism A (metric a) at ε_A:
//
//	ε_B = (P_A / P_B)·ε_A, so that ε_B·P_B = ε_A·P_A,
//
// with P the Avg (by = "avg") or Max (by = "max") of each Ratio. Example
// (BRR §6): A is Madlib with Euclidean distance on the float embedding, B is
// BRR with Hamming distance on the 256-bit codes. Euclidean P_avg is a few
// units and Hamming P_avg is about 128 bits, so ε_B = (P_euclid/P_hamming)·
// ε_A is much smaller than ε_A: the per-bit ε of BRR. Converting back with
// the arguments swapped returns ε_A.
//
// It returns NaN for an unknown by or a P that is not finite and > 0.
func ConvertEpsilon(epsA float64, a, b Ratio, by string) float64 {
	var pa, pb float64
	switch by {
	case "avg":
		pa, pb = a.Avg, b.Avg
	case "max":
		pa, pb = a.Max, b.Max
	default:
		return math.NaN()
	}
	if !(pa > 0 && pb > 0) || math.IsInf(pa, 0) || math.IsInf(pb, 0) {
		return math.NaN()
	}
	return pa / pb * epsA
}
