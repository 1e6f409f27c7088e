package hamming

import (
	"errors"
	"sync"
	"sync/atomic"
)

// Index answers exact k-NN and range queries over a fixed set of codes,
// choosing per query between a scan and multi-index hashing from a cost
// model, so callers never choose by hand. Results never depend on the
// choice: both strategies are exact and order results the same way.
//
// The MIH tables are built on first use (about 9 MB at 50k codes, 23 MB at
// 200k), so a caller that only ever makes far queries, such as BRR, never
// pays for them.
type Index struct {
	scan   *scan
	tables *lazyMIH
	tposed *lazyTransposed // the codes transposed, for bulk batch searches
	// radiusEMA is a running estimate of recent k-th distances, in 1/256
	// bits, used when a query gives no ExpectedRadius.
	radiusEMA atomic.Int64
	stats     planStats
}

// lazyMIH is the MIH tables over every code, built on first use and
// shared by an index and every index Without derives from it: the tables
// list all codes and the searches skip what their index skips.
type lazyMIH struct {
	once sync.Once
	m    *mih
}

// planStats counts the planner's decisions, for benchmarks and diagnostics.
type planStats struct {
	// Scans counts queries answered by a linear scan (Histogram always
	// scans), MIHs those answered by multi-index hashing, and Fallbacks
	// the k-NN queries whose MIH search exceeded its work budget and were
	// answered by a scan instead (counted there only): a query adds to
	// at most one of them.
	Scans, MIHs, Fallbacks atomic.Int64
}

// minMIH is the database size below which a scan always wins: a scan of 2048
// codes costs about as much as probing one radius-1 ring of all 16 tables.
const minMIH = 2048

// NewIndex returns an index over codes. The slice is used in place: the
// caller must not modify it while the Index is in use.
func NewIndex(codes []Code) (*Index, error) {
	s, err := newScan(codes)
	if err != nil {
		return nil, err
	}
	return &Index{scan: s, tables: new(lazyMIH), tposed: new(lazyTransposed)}, nil
}

// Len returns the number of codes searched: every code but the skipped
// ones (see Without).
func (x *Index) Len() int { return x.scan.Len() }

// Codes returns the codes the ids refer to (not a copy), skipped ones
// included: for an index made by Without, len(Codes()) is more than Len().
func (x *Index) Codes() []Code { return x.scan.codes }

func (x *Index) getMIH() *mih {
	t := x.tables
	t.once.Do(func() { t.m, _ = newMIH(x.scan.codes) }) // size checked by newScan
	return t.m
}

func (x *Index) scanCost() float64 { return float64(x.Len()) * costScan[activeKernel] }

// Range appends to dst[:0] every code within distance r of q, in no
// particular order (use SortNeighbors for (distance, id) order).
func (x *Index) Range(dst []Neighbor, q Code, r int, opt Options) ([]Neighbor, error) {
	if r < 0 {
		return dst[:0], ErrInvalidRadius
	}
	if x.worthCounting(r) {
		// Reading the bucket bounds first is cheap next to visiting the
		// buckets, and tells the real cost of MIH for this query on this
		// data; the bounds are then reused, not read again.
		m := x.getMIH()
		scr := m.scratch()
		defer m.release(scr)
		if x.rangeByMIH(m, scr, &q, r, m.rangeSpans(scr, &q, r)) {
			x.stats.MIHs.Add(1)
			return m.rangeVerify(scr, dst, q, r, opt, x.scan.skip), nil
		}
		scr.spans = scr.spans[:0]
	}
	x.stats.Scans.Add(1)
	return x.scan.Range(dst, q, r, opt)
}

// KNN appends to dst[:0] the k nearest codes to q, sorted by (distance, id),
// with ties handled as opt.Ties says. If fewer than k codes are eligible it
// returns all of them.
func (x *Index) KNN(dst []Neighbor, q Code, k int, opt Options) ([]Neighbor, error) {
	if err := checkKNN(k, &opt); err != nil {
		return dst[:0], err
	}
	var res []Neighbor
	var err error
	if m, sc, warm, budget, ok := x.planKNN(&q, opt); ok {
		res, err = m.knn(sc, warm, dst, q, k, opt, budget, x.scan.skip)
		m.release(sc)
		if errors.Is(err, budgetError{}) {
			x.stats.Fallbacks.Add(1)
			res, err = x.scan.KNN(dst, q, k, opt)
		} else {
			x.stats.MIHs.Add(1)
		}
	} else {
		x.stats.Scans.Add(1)
		res, err = x.scan.KNN(dst, q, k, opt)
	}
	if err == nil && len(res) > 0 {
		x.observe(int(res[len(res)-1].Dist))
	}
	return res, err
}

// Nearest returns one nearest code to q; with TiesRandom a uniformly random
// one among all minimizers. It does not allocate when the planner scans.
func (x *Index) Nearest(q Code, opt Options) (Neighbor, error) {
	if err := checkKNN(1, &opt); err != nil {
		return Neighbor{}, err
	}
	if !x.mayUseMIH(&q, opt) && opt.Exclude == nil {
		x.stats.Scans.Add(1)
		n, err := x.scan.Nearest(q, opt)
		if err == nil {
			x.observe(int(n.Dist))
		}
		return n, err
	}
	// Sorted by (distance, id): with TiesAll res[0] is the lowest-id
	// minimizer; TiesRandom has already kept a uniform one.
	var buf [4]Neighbor
	res, err := x.KNN(buf[:0], q, 1, opt)
	if err != nil {
		return Neighbor{}, err
	}
	if len(res) == 0 {
		return Neighbor{}, ErrNoResult
	}
	return res[0], nil
}

// planKNN decides whether a k-NN query should try MIH. It predicts the
// radius (the caller's hint, else the running estimate of recent k-th
// distances), counts the buckets a range search of that radius would visit,
// and tries MIH when its predicted cost is below the scan's. The counted
// buckets are handed to MIH (warm), so planning costs nothing extra when
// MIH runs; the work budget, at least 15% of a scan, bounds the loss when
// the prediction was too low. On an index made by Without the count
// includes the skipped codes' entries (the tables list every code): an
// overestimate, harmless because a k-NN result, unlike Range's order,
// does not depend on the strategy.
func (x *Index) planKNN(q *Code, opt Options) (m *mih, sc *mihScratch, warm int, budget float64, ok bool) {
	r := x.predictRadius(opt)
	if !x.worthCounting(r) {
		return nil, nil, 0, 0, false
	}
	m = x.getMIH()
	sc = m.scratch()
	pred := mihCost(r, m.rangeSpans(sc, q, r), x.Len())
	scan := x.scanCost()
	if pred > 0.8*scan {
		sc.spans = sc.spans[:0]
		m.release(sc)
		return nil, nil, 0, 0, false
	}
	return m, sc, r, max(0.15*scan, 1.3*pred), true
}

// mayUseMIH is planKNN's first test alone: false means a scan for sure.
func (x *Index) mayUseMIH(q *Code, opt Options) bool {
	return x.worthCounting(x.predictRadius(opt))
}

func (x *Index) predictRadius(opt Options) int {
	if opt.ExpectedRadius > 0 {
		return opt.ExpectedRadius
	}
	return int(x.radiusEMA.Load() >> 8)
}

// worthCounting reports whether MIH is worth costing for radius r: the
// database is large enough and reading the bucket bounds costs at most 15%
// of a scan. Past that MIH cannot win by enough to repay the count, so a
// scan it is, with at most that much wasted when the count says "scan".
func (x *Index) worthCounting(r int) bool {
	return x.Len() >= minMIH && float64(probeCount(r))*costSpan <= 0.15*x.scanCost()
}

// mihCost predicts MIH's cost in ns from its bucket and entry counts.
func mihCost(r, entries, n int) float64 {
	return float64(probeCount(r))*costProbe + float64(entries)*verifyCost(n)
}

// observe folds a k-th distance into the running estimate (weight 1/8).
func (x *Index) observe(d int) {
	old := x.radiusEMA.Load()
	x.radiusEMA.Store(old + (int64(d)<<8-old)/8)
}
