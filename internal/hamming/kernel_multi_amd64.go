//go:build !purego

package hamming

import "math/bits"

// multiScratch is a multi-query kernel's working memory: the AVX-512
// kernel's copy of a block transposed (word w of codes 8g..8g+7 at
// t[32g+8w:], codes 8g+0,2,1,3,4,6,5,7 in that order), made once per
// block and read once per query, and a row of distances for the others.
type multiScratch struct {
	t   [4 * blockSize]uint64
	row [blockSize]uint16
}

// distMultiAVX512x8 handles 8 to blockSize codes, a multiple of 8, and
// 1 to 64 queries; it returns the hits and marks of distMultiGeneric,
// each marks[j] of a hit written whole: byte g for codes 8g..8g+7 (bits
// 1 and 2 and bits 5 and 6 swapped: see laneOrder), zero past the last
// group.
//
//go:noescape
func distMultiAVX512x8(qs []Code, codes []Code, thr []int, marks []blockMarks, t *[4 * blockSize]uint64) uint64

// distMultiWith runs kernel k for every query over one block (at most
// blockSize codes); see distMultiGeneric. The AVX-512 kernel transposes
// the block once and then needs no shuffle per query; the others, and a
// block whose length is not a multiple of 8 (the last), run the one-query
// kernel per query over the block while it is in cache.
func distMultiWith(k int, qs []Code, codes []Code, thr []int, marks []blockMarks, ms *multiScratch) uint64 {
	n := len(codes)
	if len(qs) == 0 {
		return 0
	}
	_, _ = thr[len(qs)-1], marks[len(qs)-1] // the assembly trusts these bounds
	if k != kernelAVX512 || n == 0 || n%8 != 0 || n > blockSize || len(qs) > MaxBatch {
		return marksByRow(func(q *Code, codes []Code, out []uint16) int { return distBlockWith(k, q, codes, out) },
			qs, codes, thr, marks, ms.row[:])
	}
	hits := distMultiAVX512x8(qs, codes, thr, marks, &ms.t)
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
