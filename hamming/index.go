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
// The MIH tables are built on first use (about 7 MB at 50k codes), so a
// caller that only ever makes far queries, such as BRR, never pays for them.
type Index struct {
	scan    *Scan
	mihOnce sync.Once
	mih     *MIH
	// radiusEMA is a running estimate of recent k-th distances, in 1/256
	// bits, used when a query gives no ExpectedRadius.
	radiusEMA atomic.Int64
	stats     Stats
}

// Stats counts the planner's decisions, for benchmarks and diagnostics.
type Stats struct {
	Scans, MIHs, Fallbacks atomic.Int64
}

// minMIH is the database size below which a scan always wins: a scan of 2048
// codes costs about as much as probing one radius-1 ring of all 16 tables.
const minMIH = 2048

// NewIndex returns an index over codes. The slice is used in place: the
// caller must not modify it while the Index is in use.
func NewIndex(codes []Code) (*Index, error) {
	s, err := NewScan(codes)
	if err != nil {
		return nil, err
	}
	return &Index{scan: s}, nil
}

// Len returns the number of codes.
func (x *Index) Len() int { return x.scan.Len() }

// Codes returns the indexed codes (not a copy).
func (x *Index) Codes() []Code { return x.scan.codes }

// Stats returns the planner's counters.
func (x *Index) Stats() *Stats { return &x.stats }

// BuildMIH builds the multi-index tables now rather than on first use.
func (x *Index) BuildMIH() { x.getMIH() }

func (x *Index) getMIH() *MIH {
	x.mihOnce.Do(func() { x.mih, _ = NewMIH(x.scan.codes) }) // size checked by NewScan
	return x.mih
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
		if mihCost(r, m.rangeSpans(scr, &q, r)) <= x.scanCost() {
			x.stats.MIHs.Add(1)
			return m.rangeVerify(scr, dst, q, r, opt), nil
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
	if budget, ok := x.planKNN(&q, opt); ok {
		res, err = x.getMIH().knn(dst, q, k, opt, budget)
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
	if _, ok := x.planKNN(&q, opt); !ok && opt.Exclude == nil {
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

// planKNN decides whether a k-NN query should try MIH, and with what work
// budget (ns). MIH is tried when the predicted cost at the expected radius is
// below the scan's; the budget then allows that prediction with margin, and
// at least 15% of a scan, so a wrong guess costs little before the scan.
func (x *Index) planKNN(q *Code, opt Options) (budget float64, ok bool) {
	if x.Len() < minMIH {
		return 0, false
	}
	r := opt.ExpectedRadius
	if r <= 0 {
		r = int(x.radiusEMA.Load() >> 8)
	}
	if !x.worthCounting(r) {
		return 0, false
	}
	m := x.getMIH()
	scr := m.scratch()
	pred := mihCost(r, m.rangeSpans(scr, q, r))
	scr.spans = scr.spans[:0]
	m.release(scr)
	sc := x.scanCost()
	if pred > 0.8*sc {
		return 0, false
	}
	return max(0.15*sc, 1.3*pred), true
}

// worthCounting reports whether MIH is worth costing for radius r: the
// database is large enough and reading the bucket bounds costs at most 15%
// of a scan. Past that MIH cannot win by enough to repay the count, so a
// scan it is, with at most that much wasted when the count says "scan".
func (x *Index) worthCounting(r int) bool {
	return x.Len() >= minMIH && float64(probeCount(r))*costSpan <= 0.15*x.scanCost()
}

// mihCost predicts MIH's cost in ns from its bucket and entry counts.
func mihCost(r, entries int) float64 {
	return float64(probeCount(r))*costProbe + float64(entries)*costVerify
}

// observe folds a k-th distance into the running estimate (weight 1/8).
func (x *Index) observe(d int) {
	old := x.radiusEMA.Load()
	x.radiusEMA.Store(old + (int64(d)<<8-old)/8)
}
