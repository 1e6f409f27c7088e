package hamming

// Without returns an index over x's codes that never returns the ids in
// skip (any order, duplicates allowed) nor those x already skips. Its ids
// are x's: results, Options.Exclude, Rank and ID all use them.
//
// It answers every query as NewIndex over a copy of the codes left, in
// id order, would (with that index's ids mapped back to x's): the same
// results in the same order (Range's included), the same ties kept and
// the same values drawn from Options.Rand, so a mechanism restricted this
// way releases exactly what it released over such a copy. It copies no
// code it searches: it shares x's codes and x's MIH tables (built once,
// on the first query of either index that needs them) and keeps only the
// skipped ids, sorted, 4 bytes each, a copy of the skipped codes (32 bytes
// each, so that a histogram takes them off in a tight loop), and where
// Nearest's blocks end, 4 bytes per 256 searched codes.
//
// The price is time: a query computes the distance of every code, skipped
// ones included, and a histogram also takes each skipped code off again,
// so it costs at least what it costs on x, not on the codes left. That
// suits an exclusion list (a few hundred words of 50,000: within the
// noise of a scan); for a subset that leaves out most codes, an index over
// a copy of the subset is the faster choice.
//
// An id outside [0, len(x.Codes())) is an error (ErrSkipRange), and so
// is a nil or zero x (ErrNoIndex). Skipping every code is allowed: the
// index is then empty (Nearest returns ErrNoResult).
func (x *Index) Without(skip []int32) (*Index, error) {
	if x == nil || x.scan == nil {
		return nil, ErrNoIndex
	}
	ids, err := normalizeSkip(x.scan.skip, skip, len(x.scan.codes))
	if err != nil {
		return nil, err
	}
	s := &scan{codes: x.scan.codes, skip: ids, skipCodes: skippedCodes(x.scan.codes, ids), ends: blockEnds(ids, len(x.scan.codes))}
	return &Index{scan: s, tables: x.tables, tposed: x.tposed}, nil
}

// skippedCodes returns a copy of the codes of ids, in their order (nil for
// none).
func skippedCodes(codes []Code, ids []int32) []Code {
	if len(ids) == 0 {
		return nil
	}
	c := make([]Code, len(ids))
	for i, id := range ids {
		c[i] = codes[id]
	}
	return c
}

// Rank returns how many searched codes have an id below id, for id in
// [0, len(Codes())]; -1 otherwise (and for a nil or zero x). On an index that skips nothing it is
// id itself. For a searched id it is that code's position among the
// searched codes in id order: the id an index over a copy of them alone
// would give it.
func (x *Index) Rank(id int) int {
	if x == nil || x.scan == nil || id < 0 || id > len(x.scan.codes) {
		return -1
	}
	return skipRank(x.scan.skip, id)
}

// ID returns the id of the j-th searched code in id order (j from 0), the
// inverse of Rank; -1 for j outside [0, Len()) (and for a nil or zero x).
func (x *Index) ID(j int) int {
	if x == nil || x.scan == nil || j < 0 || j >= x.Len() {
		return -1
	}
	return skipSelect(x.scan.skip, j)
}

// rangeByMIH decides Range's strategy for a radius worth counting: MIH
// when its predicted cost is at most a scan's. entries counts the entries
// of the buckets MIH would visit (sc.spans); the tables list skipped codes
// too, so the prediction uses the entries of searched codes alone, the
// decision an index over a copy of the searched codes would take. It
// matters: Range lists a ball in its strategy's order (bucket order for
// MIH, id order for a scan), and TEM draws from the ball in that order.
// The skipped entries are counted only when the decision depends on them.
func (x *Index) rangeByMIH(m *mih, sc *mihScratch, q *Code, r, entries int) bool {
	n, scan, skip := x.Len(), x.scanCost(), x.scan.skip
	if mihCost(r, entries, n) <= scan {
		return true // fewer entries cost less still
	}
	// A skipped code sits in one bucket per table, so at most
	// substrings·len(skip) of the entries are skipped ones.
	if len(skip) == 0 || mihCost(r, max(0, entries-substrings*len(skip)), n) > scan {
		return false
	}
	return mihCost(r, entries-m.skippedEntries(sc, q, r, entries, skip), n) <= scan
}
