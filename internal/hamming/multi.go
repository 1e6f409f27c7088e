package hamming

import (
	"math/bits"
	"sync"

	"github.com/wordveil/wordveil/internal/sample"
)

// MaxBatch is the most queries one pass of [Index.NearestBatch] compares
// with each block of codes (8 KiB, in L1 cache while they are); a longer
// batch is answered in passes of MaxBatch. Each block's trip from memory
// and (AVX-512) its transpose are paid once per pass: at 32 queries they
// were about a tenth of a pass on an AMD EPYC (Zen 4), at 64 half that
// (and no transpose once the index keeps its codes transposed:
// lazyTransposed).
const MaxBatch = 64

// blockMarks is a set of positions in a block of codes, bit i%64 of word
// i/64 for code i.
type blockMarks [blockSize / 64]uint64

// distMultiGeneric is the portable multi-query kernel (at most MaxBatch
// queries, 64): bit j of its result is set when marks[j] is set, to the
// codes[i] with Distance(qs[j], codes[i]) ≤ thr[j], or, when thr[j] >
// Bits (no best distance yet), to those at the block's minimum distance
// from qs[j]; a query with no such code has bit j clear and marks[j]
// unspecified. Every other multi-query kernel must agree with it exactly
// (multi_test.go). A multi-query kernel only marks: a far query has no
// code within its best distance so far in all but a few blocks, and in
// those only the marked codes are looked at again, one by one.
func distMultiGeneric(qs []Code, codes []Code, thr []int, marks []blockMarks) (hits uint64) {
	var ds [blockSize]uint16
	for j := range qs {
		if markMin(&marks[j], ds[:len(codes)], distBlockGeneric(&qs[j], codes, ds[:len(codes)]), thr[j]) {
			hits |= 1 << j
		}
	}
	return hits
}

// markMin sets mk to the positions of ds within thr, or within ds's
// minimum m when thr > Bits, and reports whether there are any.
func markMin(mk *blockMarks, ds []uint16, m, thr int) bool {
	if thr > Bits {
		thr = m
	}
	if m > thr || m > Bits { // m > Bits: no codes
		return false
	}
	*mk = blockMarks{}
	markRow(mk, ds, thr)
	return true
}

// markRow adds to mk the positions i of ds (at most blockSize) with
// ds[i] ≤ thr.
func markRow(mk *blockMarks, ds []uint16, thr int) {
	for i, d := range ds {
		if int(d) <= thr {
			mk[i>>6] |= 1 << (i & 63)
		}
	}
}

// marksByRow is the multi-query kernel made of a one-query kernel (row),
// run per query over the block while it is in cache: the block is read
// from memory once for all the queries, and a query's distances are
// looked at only when their minimum is within its threshold. ds is
// scratch for a block's distances.
func marksByRow(row func(q *Code, codes []Code, out []uint16) int, qs []Code, codes []Code, thr []int, marks []blockMarks, ds []uint16) (hits uint64) {
	ds = ds[:len(codes)]
	for j := range qs {
		if markMin(&marks[j], ds, row(&qs[j], codes, ds), thr[j]) {
			hits |= 1 << j
		}
	}
	return hits
}

// batchKernels are the kernels a batch search runs: multi marks, for
// every query, the codes of a block within its best distance so far (at
// the block's minimum when it has none; see distMultiGeneric); row is one
// query's distances to a block it walks whole (a parameter so that tests
// can force each kernel, and a broken one).
type batchKernels struct {
	multi func(qs []Code, codes []Code, thr []int, marks []blockMarks, ms *multiScratch) uint64
	row   func(q *Code, codes []Code, out []uint16) int
}

// activeBatch is the batch kernels of this CPU.
var activeBatch = batchKernels{multi: distMulti, row: distBlock}

// batchScratch is NearestBatch's working memory for one pass.
type batchScratch struct {
	dist  [blockSize]uint16
	marks [MaxBatch]blockMarks
	best  [MaxBatch]int
	// ties[j] lists the ids at query j's best distance so far, in id
	// order; the final list is every minimizer.
	ties  [MaxBatch][]int32
	multi multiScratch // the kernel's own (kernel_multi_*.go)
}

// NearestBatch answers Nearest for every query of qs in order, appending
// the answers to dst[:0]: res[j] is a nearest code to qs[j], with
// TiesRandom a uniformly random one among all its minimizers. It is exact
// like Nearest, and faster for several queries: each block of codes is
// compared with up to MaxBatch queries while it is in cache, so the codes
// are read once per MaxBatch queries instead of once per query.
//
// Randomness. With TiesRandom each query with several minimizers takes
// one value from opt.Rand after the pass, queries in order
// (sample.UniformInt over its minimizers in id order), so the values drawn
// differ from Nearest's one query at a time (a reservoir over the scan);
// the law of each answer is the same: uniform over its minimizers,
// independent of the others given the queries. On an index made by
// Without the minimizers in id order are those of a copy of the codes
// left, so it draws what an index over such a copy would.
//
// Queries the planner would answer with multi-index hashing (near ones),
// and every query when opt.Exclude is set, are answered one by one by
// Nearest, in order. On error (ErrNoRand; ErrNoResult when nothing is
// searched) it returns the error and the answers before it.
func (x *Index) NearestBatch(dst []Neighbor, qs []Code, opt Options) ([]Neighbor, error) {
	dst = dst[:0]
	if err := checkKNN(1, &opt); err != nil {
		return dst, err
	}
	if len(qs) == 0 {
		return dst, nil
	}
	if opt.Exclude != nil || x.mayUseMIH(&qs[0], opt) {
		for i := range qs {
			n, err := x.Nearest(qs[i], opt)
			if err != nil {
				return dst, err
			}
			dst = append(dst, n)
		}
		return dst, nil
	}
	sc := getBatchScratch()
	defer putBatchScratch(sc)
	for len(qs) > 0 {
		nq := min(len(qs), MaxBatch)
		x.stats.Scans.Add(int64(nq))
		var err error
		tcodes := x.tposed.get(x.scan.codes, nq)
		if dst, err = x.scan.nearestBatch(dst, qs[:nq], &opt, sc, activeBatch, tcodes); err != nil {
			return dst, err
		}
		x.observe(int(dst[len(dst)-1].Dist))
		qs = qs[nq:]
	}
	return dst, nil
}

// nearestBatch is NearestBatch's pass over the codes for at most MaxBatch
// queries, with kernels ks and, when not nil, the codes transposed
// (transposeCodes: the AVX-512 kernel then reads each block from there).
func (s *scan) nearestBatch(dst []Neighbor, qs []Code, opt *Options, sc *batchScratch, ks batchKernels, tcodes []uint64) ([]Neighbor, error) {
	nq := len(qs)
	best := sc.best[:nq]
	for j := range best {
		best[j] = noDistance
		sc.ties[j] = sc.ties[j][:0]
	}
	codes, skip := s.codes, s.skip
	for base := 0; base < len(codes); base += blockSize {
		blk := codes[base:min(base+blockSize, len(codes))]
		skip = skipFrom(skip, base)
		// Each query's best so far is its threshold: every code at a
		// distance ≤ it is marked, so every minimizer in the block is.
		// With no best yet (noDistance) the codes at the block's minimum
		// are marked, unless skipped codes may hold that minimum: then
		// the block is walked whole.
		skipHere := len(skip) > 0 && int(skip[0]) < base+len(blk)
		var skipBlk []int32 // the skipped ids a marked code is looked up in
		if skipHere {
			skipBlk = skip
		}
		sc.multi.setPre(preBlock(tcodes, base, len(blk)))
		hits := ks.multi(qs, blk, best, sc.marks[:nq], &sc.multi)
		tblk := sc.multi.transposed()
		for ; hits != 0; hits &= hits - 1 {
			j := bits.TrailingZeros64(hits)
			if best[j] == noDistance && skipHere {
				s.walkBlock(&qs[j], blk, base, skip, &best[j], &sc.ties[j], sc.dist[:len(blk)], ks.row)
				continue
			}
			walkMarked(&qs[j], blk, tblk, base, skipBlk, &sc.marks[j], &best[j], &sc.ties[j])
		}
	}
	for j := range nq {
		t := sc.ties[j]
		if len(t) == 0 {
			return dst, ErrNoResult
		}
		pick := t[0]
		if len(t) > 1 && opt.Ties == TiesRandom {
			pick = t[sample.UniformInt(opt.Rand, len(t))]
		}
		dst = append(dst, Neighbor{ID: pick, Dist: int32(best[j])})
	}
	return dst, nil
}

// walkBlock computes q's distances to every code of blk (ids from base)
// with kernel row and updates its best distance and ties: a query's first
// block when it has skipped codes.
func (s *scan) walkBlock(q *Code, blk []Code, base int, skip []int32, best *int, ties *[]int32, ds []uint16, row func(q *Code, codes []Code, out []uint16) int) {
	m := row(q, blk, ds)
	if len(skip) > 0 {
		// Masking can only raise the minimum: recount when the
		// kernel's may have been a skipped code's.
		if _, masked := maskSkipped(ds, base, skip); masked == m {
			m = minDist(ds)
		}
	}
	if m > *best {
		return
	}
	if m < *best {
		*best = m
		*ties = (*ties)[:0]
	}
	t := *ties
	for i, d := range ds {
		if int(d) == m {
			t = append(t, int32(base+i))
		}
	}
	*ties = t
}

// walkMarked computes q's distance to each marked code of blk (ids from
// base), in id order, and updates its best distance and ties: the sparse
// case. The marks were made against the best distance before the block,
// so a code is compared with the best so far again. tblk, when not nil, is
// blk transposed (transposeCodes' layout), read instead of blk: the
// kernel has just read it, so it is in cache.
func walkMarked(q *Code, blk []Code, tblk []uint64, base int, skip []int32, mk *blockMarks, best *int, ties *[]int32) {
	for w, word := range mk {
		for word != 0 {
			i := w<<6 + bits.TrailingZeros64(word)
			word &= word - 1
			if isSkipped(skip, uint32(base+i)) {
				continue
			}
			var d int
			if tblk != nil {
				d = transposedDistance(q, tblk, i)
			} else {
				d = Distance(*q, blk[i])
			}
			if d > *best {
				continue
			}
			if d < *best {
				*best = d
				*ties = (*ties)[:0]
			}
			*ties = append(*ties, int32(base+i))
		}
	}
}

// transposedDistance is Distance(*q, code i) of a block transposed as
// transposeCodes lays it out: word w of codes 8g..8g+7 at t[32g+8w:],
// codes 8g+0,2,1,3,4,6,5,7 in that order (bits 0 and 1 of i%8 swapped).
func transposedDistance(q *Code, t []uint64, i int) int {
	o := 32*(i>>3) + (i&4 | i<<1&2 | i>>1&1)
	t = t[o : o+25]
	return bits.OnesCount64(q[0]^t[0]) + bits.OnesCount64(q[1]^t[8]) + bits.OnesCount64(q[2]^t[16]) + bits.OnesCount64(q[3]^t[24])
}

// batchPool recycles NearestBatch's scratch (about 13 KiB, and the tie lists'
// capacity), so a batch allocates nothing in the steady state.
var batchPool = sync.Pool{New: func() any { return new(batchScratch) }}

func getBatchScratch() *batchScratch { return batchPool.Get().(*batchScratch) }

func putBatchScratch(sc *batchScratch) { batchPool.Put(sc) }

// distMulti runs the active multi-query kernel; see distMultiGeneric.
func distMulti(qs []Code, codes []Code, thr []int, marks []blockMarks, ms *multiScratch) uint64 {
	return distMultiWith(activeKernel, qs, codes, thr, marks, ms)
}

// The queries of a pass are the bits of a uint64.
var _ [64 - MaxBatch]struct{}
