package hamming

import "sort"

// histChunk is how many codes share one snapshot of the running histogram.
// Select rescans at most one chunk, so a larger chunk costs Select more and
// a smaller one costs Histogram more (one 1 KiB snapshot per chunk): at 8
// kernel blocks both are a few per cent of a scan at 50k codes.
const histChunk = 8 * blockSize

// Histogram is the distance histogram of a database from one query: how
// many codes lie at each distance 0..256. It also keeps the running counts
// at the end of every chunk of histChunk codes, so that Select finds the
// j-th code at a given distance by rescanning one chunk, not the database.
//
// A Histogram is filled by [Scan.Histogram] or [Index.Histogram] and refers
// to that database's codes (not a copy): they must not change while it is
// in use. The zero value and nil are empty histograms. A Histogram is not
// safe for concurrent use; reuse one per goroutine and filling it does not
// allocate once its chunk table has grown to the database's size.
type Histogram struct {
	codes []Code
	skip  []int32 // ids not counted, ascending (see Index.Without)
	q     Code
	count [Bits + 1]int32
	// sub holds the running counts while filling, split by code position
	// (see subHist).
	sub subHist
	// dist holds the distances of the skipped codes (skippedDists),
	// kept so that filling again does not allocate.
	dist []uint16
	// cum[c][d] counts the codes at distance d among codes[:(c+1)*histChunk].
	cum [][Bits + 1]int32
	// within is the radius the counts are exact to (HistogramWithin);
	// Bits for a whole histogram.
	within int
	// sparse says that the last chunk counted had few codes within the
	// radius (withinSparse), and sparseFor is the radius plus one it was
	// found for (0: none yet): the next fill at that radius starts with
	// the kernel the last one ended with.
	sparse    bool
	sparseFor int
}

// Histogram fills dst (a new Histogram if dst is nil) with the distances
// from q to every code, in one pass, and returns it.
func (s *scan) Histogram(dst *Histogram, q Code) *Histogram {
	if dst == nil {
		dst = new(Histogram)
	}
	dst.fill(s.codes, q, activeKernel, s.skip, s.skipCodes, Bits)
	return dst
}

// Histogram fills dst (a new Histogram if dst is nil) with the distances
// from q to every code it searches and returns it. It always scans: every
// searched code is counted, so MIH could not spare the visit of any.
func (x *Index) Histogram(dst *Histogram, q Code) *Histogram {
	x.stats.Scans.Add(1)
	return x.scan.Histogram(dst, q)
}

// HistogramWithin fills dst (a new Histogram if dst is nil) like
// Histogram, but exact only within radius r, and returns it: Count(d) is
// the number of codes at distance d for d in 0..r; beyond r only the total
// is (the sum of Count(d) for d from r+1 to Bits is how many codes lie
// beyond r: they may be counted at their distances or all at r+1). Select
// takes the ranges that these counts answer: inside 0..r, or ending at
// Bits and starting at most at r+1 (lo = r+1, hi = Bits selects among the
// codes beyond r). r is clamped to 0..Bits; at Bits this is Histogram.
//
// It scans every code, as Histogram does; what it saves is the counting of
// the codes beyond r, which with r below the bulk of the distances is most
// of a counting scan's cost beyond the distances themselves (the AVX-512
// kernel skips them; the other kernels count them all, and the counts past
// r are then folded into r+1).
func (x *Index) HistogramWithin(dst *Histogram, q Code, r int) *Histogram {
	x.stats.Scans.Add(1)
	if dst == nil {
		dst = new(Histogram)
	}
	dst.fill(x.scan.codes, q, activeKernel, x.scan.skip, x.scan.skipCodes, min(max(r, 0), Bits))
	return dst
}

// RangeCanBeatScan reports whether the planner may answer a Range query of
// radius r with multi-index hashing, that is whether Range can cost less
// than one scan of every code. When it cannot, Range scans and then
// materializes the whole ball, and a Histogram (one scan, nothing
// materialized) followed by Select is the cheaper way to draw from the ball.
func (x *Index) RangeCanBeatScan(r int) bool {
	return r >= 0 && x.worthCounting(r)
}

// fill counts codes from q with kernel k, except the ids in skip
// (ascending): one counting pass per chunk into the sub-histograms, whose
// total at the chunk's end is the chunk's snapshot. The last snapshot is
// the histogram itself. With within < Bits only the counts at 0..within
// are kept exact (HistogramWithin): a chunk may be counted by the kernel
// that skips the codes beyond within (histWithinWith), and from the first
// such chunk on each snapshot's counts past within are replaced by their
// total, at within+1, computed as the codes counted so far less those
// within (before it they are exact, and left so: the sum of within+1
// counts per chunk would cost a ball as large as most codes 7% of its
// scan, measured). The first chunk is counted with the kernel the last
// fill at the same radius ended with, and the others with the skipping
// kernel if the first had few codes within (withinSparse): a mechanism
// fills one Histogram per goroutine at one radius, word after word, and
// its balls are mostly all small or all large (a large one costs the
// skipping kernel four times the counting kernel's time). Either kernel
// counts the same.
//
// The kernels count every code (within the radius, at least); each skipped
// code of the chunk is then taken off again, before the snapshot, from row
// 0 wherever the kernel counted it (or would have: a skipped code beyond
// within that a skipping kernel did not count is taken off a count that
// the snapshot then replaces). Their distances are computed first, all at
// once, by the kernel on skipCodes, the skipped codes in skip's order (a
// copy made by Without): the kernel's speed and one call per block of
// them, not a gather and a scalar distance per skipped code nor a kernel
// call per chunk. A row may wrap below zero, but the rows are uint32 and
// their sum (sumInto, sumSubAVX512) is taken modulo 2^32, so the total at
// each distance, which fits, is exact.
func (h *Histogram) fill(codes []Code, q Code, k int, skip []int32, skipCodes []Code, within int) {
	h.codes, h.skip, h.q, h.within = codes, skip, q, within
	h.sub = subHist{}
	nch := (len(codes) + histChunk - 1) / histChunk
	if cap(h.cum) < nch {
		h.cum = make([][Bits + 1]int32, nch)
	}
	h.cum = h.cum[:nch]
	ds := h.skippedDists(k, skipCodes)
	ds = ds[:len(skip)]
	row := &h.sub[0]
	i := 0
	if h.sparseFor != within+1 {
		h.sparse, h.sparseFor = true, within+1
	}
	skipped := false // a chunk so far was counted by the skipping kernel
	for c := range nch {
		start, end := c*histChunk, min((c+1)*histChunk, len(codes))
		if within < Bits && h.sparse {
			histWithinWith(k, &q, codes[start:end], &h.sub, within)
			skipped = true
		} else {
			histCountWith(k, &q, codes[start:end], &h.sub)
		}
		for ; i < len(skip) && int(skip[i]) < end; i++ {
			row[ds[i]&(2*Bits-1)]--
		}
		sumSubWith(k, &h.sub, &h.cum[c])
		if within < Bits && (skipped || c == 0) {
			cum := &h.cum[c]
			in := 0
			for _, v := range cum[:within+1] {
				in += int(v)
			}
			if skipped {
				// The counts past within are incomplete: their total
				// is the codes counted so far less those within.
				cum[within+1] = int32(end - i - in)
				clear(cum[within+2:])
			}
			if c == 0 {
				h.sparse = withinSparse(in, end-start)
			}
		}
	}
	if nch == 0 {
		h.count = [Bits + 1]int32{}
		return
	}
	h.count = h.cum[nch-1]
}

// withinSparse says whether a fill's first chunk, of n codes with in of
// them within the radius, is sparse enough that its other chunks are
// counted by the skipping kernel: at 1 in 32, about two in five groups of
// sixteen hold one and take its slow path, if they are spread evenly
// (codes within a ball tend to bunch). Either choice counts the same;
// only the time differs.
func withinSparse(in, n int) bool { return in*32 <= n }

// skippedDists returns the distances from h.q to cs by kernel k, in cs's
// order, a block per kernel call, in h.dist (grown if short).
func (h *Histogram) skippedDists(k int, cs []Code) []uint16 {
	if cap(h.dist) < len(cs) {
		h.dist = make([]uint16, len(cs))
	}
	ds := h.dist[:len(cs)]
	for b := 0; b < len(cs); b += blockSize {
		e := min(b+blockSize, len(cs))
		distBlockWith(k, &h.q, cs[b:e], ds[b:e])
	}
	return ds
}

// Len returns the number of codes counted.
func (h *Histogram) Len() int {
	if h == nil {
		return 0
	}
	return len(h.codes) - len(h.skip)
}

// Count returns the number of codes at distance d from the query (0 for d
// outside 0..256). After HistogramWithin(r), only the total of the counts
// beyond r is exact (see there).
func (h *Histogram) Count(d int) int {
	if h == nil || d < 0 || d > Bits {
		return 0
	}
	return int(h.count[d])
}

// Select returns the id of the j-th counted code (counting from 0, in id
// order) whose distance from the query lies in [lo, hi], and ErrNoResult
// if fewer than j+1 codes do. For j uniform in [0, Count), the id is uniform over
// those codes. It costs a binary search over the chunks (hi−lo+1 counts per
// step) and a rescan of one chunk: the distances of each block up to the
// match, counted without branches, and a walk of the block holding it.
// After HistogramWithin(r), a range ending past r that is not [lo, Bits]
// with lo ≤ r+1 is ErrNoResult: the counts do not answer it.
func (h *Histogram) Select(lo, hi, j int) (int, error) {
	lo, hi = max(lo, 0), min(hi, Bits)
	if h == nil || j < 0 || lo > hi || len(h.cum) == 0 {
		return -1, ErrNoResult
	}
	if hi > h.within && (hi < Bits || lo > h.within+1) {
		// A range the counts of HistogramWithin do not answer.
		return -1, ErrNoResult
	}
	// Running counts only grow with c: the first chunk whose running count
	// exceeds j holds the match.
	c := sort.Search(len(h.cum), func(c int) bool { return h.between(c, lo, hi) > j })
	if c == len(h.cum) {
		return -1, ErrNoResult
	}
	if c > 0 {
		j -= h.between(c-1, lo, hi)
	}
	var buf [blockSize]uint16
	end := min((c+1)*histChunk, len(h.codes))
	skip := h.skip[sort.Search(len(h.skip), func(i int) bool { return int(h.skip[i]) >= c*histChunk }):]
	for base := c * histChunk; base < end; base += blockSize {
		blk := h.codes[base:min(base+blockSize, end)]
		ds := buf[:len(blk)]
		distBlock(&h.q, blk, ds)
		skip, _ = maskSkipped(ds, base, skip)
		// Count the block's matches without a branch per code (a match
		// is a rare, unpredictable event), and walk only the block that
		// holds the j-th one.
		if n := countBetween(ds, lo, hi); j >= n {
			j -= n
			continue
		}
		for i, d := range ds {
			if uint(int(d)-lo) > uint(hi-lo) {
				continue
			}
			if j == 0 {
				return base + i, nil
			}
			j--
		}
	}
	// Only reachable if the codes changed since the histogram was filled.
	return -1, ErrNoResult
}

// countBetween returns how many of ds lie in [lo, hi] (lo ≤ hi): d−lo
// compared unsigned is at most hi−lo exactly for d in [lo, hi].
func countBetween(ds []uint16, lo, hi int) int {
	n, w := 0, uint(hi-lo)
	for _, d := range ds {
		n += b2i(uint(int(d)-lo) <= w)
	}
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// between is the running count of codes at distances lo..hi up to the end
// of chunk c.
func (h *Histogram) between(c, lo, hi int) int {
	s := 0
	for _, v := range h.cum[c][lo : hi+1] {
		s += int(v)
	}
	return s
}
