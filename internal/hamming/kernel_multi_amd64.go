//go:build !purego

package hamming

import "math/bits"

// multiScratch is a multi-query kernel's working memory: the AVX-512
// kernel's copy of a block transposed (word w of codes 8g..8g+7 at
// t[32g+8w:], codes 8g+0,2,1,3,4,6,5,7 in that order), made once per
// block and read once per query, or pre, the block already transposed
// (setPre); used, the one the last call read (nil if none: see
// transposed); and a row of distances for the other kernels.
type multiScratch struct {
	t    [4 * blockSize]uint64
	pre  []uint64
	used []uint64
	row  [blockSize]uint16
}

// setPre gives the next distMultiWith call the block's codes already
// transposed as transposeCodes lays them out (nil: none), so that it
// does not transpose them again, and forgets the block the last call
// read.
func (ms *multiScratch) setPre(t []uint64) { ms.pre, ms.used = t, nil }

// transposed returns the block transposed that the last distMultiWith
// call since setPre read (nil if it read none): in cache, where the
// block's own codes may no longer be once they are kept transposed.
func (ms *multiScratch) transposed() []uint64 { return ms.used }

// transposeAVX512x8 writes codes (a multiple of 8, at least 8) transposed
// into t (4 words per code): word w of codes 8g..8g+7 at t[32g+8w:], codes
// 8g+0,2,1,3,4,6,5,7 in that order.
//
//go:noescape
func transposeAVX512x8(codes []Code, t []uint64)

// distMultiAVX512x8T handles a block of 8 to blockSize codes (a multiple
// of 8) transposed into t by transposeAVX512x8, and 1 to 64 queries; it
// returns the hits and marks of distMultiGeneric, each marks[j] of a hit
// written whole: byte g for codes 8g..8g+7 (bits 1 and 2 and bits 5 and
// 6 swapped: see laneOrder), zero past the last group.
//
//go:noescape
func distMultiAVX512x8T(qs []Code, t []uint64, thr []int, marks []blockMarks) uint64

// transposeCodes returns codes transposed for the AVX-512 multi-query
// kernel, all but the last len(codes)%8 (a block's words as
// distMultiAVX512x8T reads them: the block of codes[b:b+n] is
// t[4*b:4*(b+n)] for b a multiple of 8), or nil when this CPU does not
// run that kernel or there are fewer than 8 codes.
func transposeCodes(codes []Code) []uint64 {
	n := len(codes) &^ 7
	if activeKernel != kernelAVX512 || n == 0 {
		return nil
	}
	t := make([]uint64, 4*n)
	transposeAVX512x8(codes[:n], t)
	return t
}

// distMultiWith runs kernel k for every query over one block (at most
// blockSize codes); see distMultiGeneric. The AVX-512 kernel transposes
// the block once (unless ms.pre holds it transposed already: setPre) and
// then needs no shuffle per query; the others, and a block whose length
// is not a multiple of 8 (the last), run the one-query kernel per query
// over the block while it is in cache. ms.pre is used by one call only.
func distMultiWith(k int, qs []Code, codes []Code, thr []int, marks []blockMarks, ms *multiScratch) uint64 {
	n := len(codes)
	pre := ms.pre
	ms.pre = nil
	if len(qs) == 0 {
		return 0
	}
	_, _ = thr[len(qs)-1], marks[len(qs)-1] // the assembly trusts these bounds
	if k != kernelAVX512 || n == 0 || n%8 != 0 || n > blockSize || len(qs) > MaxBatch {
		return marksByRow(func(q *Code, codes []Code, out []uint16) int { return distBlockWith(k, q, codes, out) },
			qs, codes, thr, marks, ms.row[:])
	}
	t := ms.t[:4*n]
	if len(pre) == 4*n {
		t = pre
	} else {
		transposeAVX512x8(codes, t)
	}
	ms.used = t
	hits := distMultiAVX512x8T(qs, t, thr, marks)
	for h := hits; h != 0; h &= h - 1 {
		mk := &marks[bits.TrailingZeros64(h)]
		for w, m := range mk {
			mk[w] = laneOrder(m)
		}
	}
	return hits
}

// laneOrder swaps bits 1 and 2 and bits 5 and 6 of every byte of m: the
// AVX-512 kernel's lanes 0..7 hold codes 0,2,1,3,4,6,5,7 of their group
// (a swap, so its own inverse).
func laneOrder(m uint64) uint64 {
	const keep, lo, hi = 0x9999999999999999, 0x2222222222222222, 0x4444444444444444
	return m&keep | m>>1&lo | m<<1&hi
}
