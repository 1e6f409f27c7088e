//go:build !purego

package hamming

// multiScratch is a multi-query kernel's working memory: a row of
// distances.
type multiScratch struct{ row [blockSize]uint16 }

// distMultiWith runs kernel k for every query over a block (at most
// blockSize codes) while it is in cache: the block is read from memory
// once for all the queries.
func distMultiWith(k int, qs []Code, codes []Code, mins []int, ms *multiScratch) {
	for j := range qs {
		mins[j] = distBlockWith(k, &qs[j], codes, ms.row[:len(codes)])
	}
}
