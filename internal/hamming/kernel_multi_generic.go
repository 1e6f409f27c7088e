//go:build purego || !(amd64 || arm64)

package hamming

// multiScratch is a multi-query kernel's working memory: none here.
type multiScratch struct{}

// setPre is a no-op: no kernel here reads transposed codes.
func (ms *multiScratch) setPre([]uint64) {}

// transposed returns nil: no kernel here reads transposed codes.
func (ms *multiScratch) transposed() []uint64 { return nil }

// transposeCodes returns nil: no kernel here reads transposed codes.
func transposeCodes([]Code) []uint64 { return nil }

func distMultiWith(k int, qs []Code, codes []Code, thr []int, marks []blockMarks, _ *multiScratch) uint64 {
	return distMultiGeneric(qs, codes, thr, marks)
}
