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
	q     Code
	count [Bits + 1]int32
	// run is the running count while filling, 512 long so that indexing it
	// with d&511 (d ≤ 256, so exact) needs no bounds check in the hot loop.
	run [2 * Bits]int32
	// cum[c][d] counts the codes at distance d among codes[:(c+1)*histChunk].
	cum [][Bits + 1]int32
}

// Histogram fills dst (a new Histogram if dst is nil) with the distances
// from q to every code, in one pass, and returns it.
func (s *scan) Histogram(dst *Histogram, q Code) *Histogram {
	if dst == nil {
		dst = new(Histogram)
	}
	dst.fill(s.codes, q, activeKernel)
	return dst
}

// Histogram fills dst (a new Histogram if dst is nil) with the distances
// from q to every code and returns it. It always scans: every code is
// counted, so no index can skip any.
func (x *Index) Histogram(dst *Histogram, q Code) *Histogram {
	x.stats.Scans.Add(1)
	return x.scan.Histogram(dst, q)
}

// RangeCanBeatScan reports whether the planner may answer a Range query of
// radius r with multi-index hashing, that is whether Range can cost less
// than one scan of every code. When it cannot, Range scans and then
// materializes the whole ball, and a Histogram (one scan, nothing
// materialized) followed by Select is the cheaper way to draw from the ball.
func (x *Index) RangeCanBeatScan(r int) bool {
	return r >= 0 && x.worthCounting(r)
}

func (h *Histogram) fill(codes []Code, q Code, k int) {
	h.codes, h.q = codes, q
	h.run = [2 * Bits]int32{}
	nch := (len(codes) + histChunk - 1) / histChunk
	if cap(h.cum) < nch {
		h.cum = make([][Bits + 1]int32, nch)
	}
	h.cum = h.cum[:nch]
	var buf [blockSize]uint16
	for c := range nch {
		end := min((c+1)*histChunk, len(codes))
		for base := c * histChunk; base < end; base += blockSize {
			histBlockWith(k, &q, codes[base:min(base+blockSize, end)], buf[:], &h.run)
		}
		h.cum[c] = [Bits + 1]int32(h.run[:Bits+1])
	}
	h.count = [Bits + 1]int32(h.run[:Bits+1])
}

// histBlockWith adds the distances from q to codes to h, with kernel k. The
// accelerated kernels compute the distances into buf (at least len(codes)
// long); the portable path counts as it goes. They agree exactly
// (TestHistogramKernelsAgree).
func histBlockWith(k int, q *Code, codes []Code, buf []uint16, h *[2 * Bits]int32) {
	if k == kernelGeneric {
		histBlockGeneric(q, codes, h)
		return
	}
	distBlockWith(k, q, codes, buf)
	for _, d := range buf[:len(codes)] {
		h[d&(2*Bits-1)]++
	}
}

// histBlockGeneric is the portable histogram kernel.
func histBlockGeneric(q *Code, codes []Code, h *[2 * Bits]int32) {
	for i := range codes {
		h[Distance(*q, codes[i])&(2*Bits-1)]++
	}
}

// Len returns the number of codes counted.
func (h *Histogram) Len() int {
	if h == nil {
		return 0
	}
	return len(h.codes)
}

// Count returns the number of codes at distance d from the query (0 for d
// outside 0..256).
func (h *Histogram) Count(d int) int {
	if h == nil || d < 0 || d > Bits {
		return 0
	}
	return int(h.count[d])
}

// Select returns the id of the j-th code (counting from 0, in id order)
// whose distance from the query lies in [lo, hi], and ErrNoResult if fewer
// than j+1 codes do. For j uniform in [0, Count), the id is uniform over
// those codes. It costs a binary search over the chunks (hi−lo+1 counts per
// step) and a rescan of one chunk, stopping at the match.
func (h *Histogram) Select(lo, hi, j int) (int, error) {
	lo, hi = max(lo, 0), min(hi, Bits)
	if h == nil || j < 0 || lo > hi || len(h.cum) == 0 {
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
	for base := c * histChunk; base < end; base += blockSize {
		blk := h.codes[base:min(base+blockSize, end)]
		distBlock(&h.q, blk, buf[:])
		for i, d := range buf[:len(blk)] {
			if int(d) < lo || int(d) > hi {
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

// between is the running count of codes at distances lo..hi up to the end
// of chunk c.
func (h *Histogram) between(c, lo, hi int) int {
	s := 0
	for _, v := range h.cum[c][lo : hi+1] {
		s += int(v)
	}
	return s
}
