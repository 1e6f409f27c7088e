//go:build !purego

package hamming

// multiScratch is a multi-query kernel's working memory: the AVX-512
// kernel's copy of a block transposed (word w of codes 8g..8g+7 at
// t[32g+8w:]), made once per block and read once per query, and a row of
// distances for the others.
type multiScratch struct {
	t   [4 * blockSize]uint64
	row [blockSize]uint16
}

// distMultiAVX512x8 handles 8 to blockSize codes, a multiple of 8, and at
// least one query.
//
//go:noescape
func distMultiAVX512x8(qs []Code, codes []Code, mins []int, t *[4 * blockSize]uint64)

// distMultiWith runs kernel k for every query over one block (at most
// blockSize codes). The AVX-512 kernel transposes the block once and then
// needs no shuffle per query; the others run the one-query kernel per
// query over the block while it is in cache.
func distMultiWith(k int, qs []Code, codes []Code, mins []int, ms *multiScratch) {
	n := len(codes)
	if len(qs) == 0 {
		return
	}
	_ = mins[len(qs)-1] // the assembly trusts this bound
	if k == kernelAVX512 && n >= 8 && n <= blockSize {
		n8 := n &^ 7
		distMultiAVX512x8(qs, codes[:n8], mins, &ms.t)
		if n8 < n {
			for j := range qs {
				mins[j] = min(mins[j], distBlockPOPCNT(&qs[j], codes[n8:], ms.row[:n-n8]))
			}
		}
		return
	}
	for j := range qs {
		mins[j] = distBlockWith(k, &qs[j], codes, ms.row[:n])
	}
}
