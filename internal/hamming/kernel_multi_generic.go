//go:build purego || !(amd64 || arm64)

package hamming

// multiScratch is a multi-query kernel's working memory: none here.
type multiScratch struct{}

func distMultiWith(k int, qs []Code, codes []Code, thr []int, marks []blockMarks, _ *multiScratch) uint64 {
	return distMultiGeneric(qs, codes, thr, marks)
}
