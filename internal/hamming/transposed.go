package hamming

import (
	"sync"
	"sync/atomic"
)

// lazyTransposed is the codes transposed for the AVX-512 multi-query
// kernel (transposeCodes), made once a bulk job is evident and shared by
// an index and every index Without derives from it (they share the
// codes). A batch pass otherwise transposes each block it reads, once per
// MaxBatch queries: about 4% of a pass on an AMD EPYC (Zen 4).
//
// Memory: as much as the codes (1.6 MB at 50k codes), so it is made only
// after transposeAfter full passes (MaxBatch queries each: a bulk job such
// as the CLI's blocks, not a keyboard's texts), and only on a CPU whose
// kernel reads it (none on arm64 or without AVX-512: there transposeCodes
// returns nil and nothing is kept).
type lazyTransposed struct {
	full atomic.Int64 // full passes so far
	once sync.Once
	t    []uint64
}

// transposeAfter is how many full passes an index answers before it
// keeps its codes transposed (a variable so that tests can make it 0).
var transposeAfter int64 = 4

// get returns the transposed codes, or nil while they are not worth
// making: the pass being counted is full when nq is MaxBatch.
func (l *lazyTransposed) get(codes []Code, nq int) []uint64 {
	if l == nil {
		return nil
	}
	if nq == MaxBatch {
		l.full.Add(1)
	}
	if l.full.Load() <= transposeAfter {
		return nil
	}
	l.once.Do(func() { l.t = transposeCodes(codes) })
	return l.t
}

// preBlock returns the block of codes [base, base+n) in t, nil when t
// does not hold all of it.
func preBlock(t []uint64, base, n int) []uint64 {
	if 4*(base+n) > len(t) {
		return nil
	}
	return t[4*base : 4*(base+n)]
}
