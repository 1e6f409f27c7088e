//go:build !purego

package hamming

// multiScratch is a multi-query kernel's working memory: the AVX-512
// kernel's copy of a block transposed (word w of codes 8g..8g+7 at
// t[32g+8w:], codes 8g+0,2,1,3,4,6,5,7 in that order), made once per
// block and read once per query, and a row of distances for the others.
type multiScratch struct {
	t   [4 * blockSize]uint64
	row [blockSize]uint16
}

// distMultiAVX512x8 handles 8 to blockSize codes, a multiple of 8, and at
// least one query; it writes each marks[j] whole: byte g for codes
// 8g..8g+7 (bits 1 and 2 and bits 5 and 6 swapped: see laneOrder), zero
// past the last group.
//
//go:noescape
func distMultiAVX512x8(qs []Code, codes []Code, thr []int, marks []blockMarks, t *[4 * blockSize]uint64)

// distMultiWith runs kernel k for every query over one block (at most
// blockSize codes); see distMultiGeneric. The AVX-512 kernel transposes
// the block once and then needs no shuffle per query; the others run the
// one-query kernel per query over the block while it is in cache.
func distMultiWith(k int, qs []Code, codes []Code, thr []int, marks []blockMarks, ms *multiScratch) {
	n := len(codes)
	if len(qs) == 0 {
		return
	}
	_, _ = thr[len(qs)-1], marks[len(qs)-1] // the assembly trusts these bounds
	if k != kernelAVX512 || n < 8 || n > blockSize {
		marksByRow(func(q *Code, codes []Code, out []uint16) int { return distBlockWith(k, q, codes, out) },
			qs, codes, thr, marks, ms.row[:])
		return
	}
	n8 := n &^ 7
	distMultiAVX512x8(qs, codes[:n8], thr, marks, &ms.t)
	for j := range qs {
		if mk := &marks[j]; mk[0]|mk[1]|mk[2]|mk[3] != 0 {
			for w, m := range mk {
				mk[w] = laneOrder(m)
			}
		}
	}
	if n8 < n {
		tail := ms.row[:n-n8]
		for j := range qs {
			if distBlockPOPCNT(&qs[j], codes[n8:], tail) <= thr[j] {
				markRow(&marks[j], tail, n8, thr[j])
			}
		}
	}
}

// laneOrder swaps bits 1 and 2 and bits 5 and 6 of every byte of m: the
// AVX-512 kernel's lanes 0..7 hold codes 0,2,1,3,4,6,5,7 of their group
// (a swap, so its own inverse).
func laneOrder(m uint64) uint64 {
	const keep, lo, hi = 0x9999999999999999, 0x2222222222222222, 0x4444444444444444
	return m&keep | m>>1&lo | m<<1&hi
}
