//go:build !purego

package hamming

// multiScratch is a multi-query kernel's working memory: a row of
// distances.
type multiScratch struct{ row [blockSize]uint16 }

// setPre is a no-op: no kernel here reads transposed codes.
func (ms *multiScratch) setPre([]uint64) {}

// transposed returns nil: no kernel here reads transposed codes.
func (ms *multiScratch) transposed() []uint64 { return nil }

// transposeCodes returns nil: no kernel here reads transposed codes.
func transposeCodes([]Code) []uint64 { return nil }

// distMultiWith runs kernel k for every query over a block (at most
// blockSize codes) while it is in cache: the block is read from memory
// once for all the queries; see distMultiGeneric.
func distMultiWith(k int, qs []Code, codes []Code, thr []int, marks []blockMarks, ms *multiScratch) uint64 {
	return marksByRow(func(q *Code, codes []Code, out []uint16) int { return distBlockWith(k, q, codes, out) },
		qs, codes, thr, marks, ms.row[:])
}
